"""Generation time for every schema of the corpus, in every dialect: concord
against ``cargo typify`` (Rust) and ``datamodel-codegen`` (pydantic v2),
schema by schema, medians of repeated runs, the three tools in turn.

    python3 benchmarks/corpus_generation.py [--corpus fixtures/vectors/corpus] [--repeats 5] [--timeout 120]

The schemas are laid out by ``concord-lab survey`` (run first, into
``<work-dir>/survey``): ``alone/<Name>/`` is one registry per schema, its main
document and bundled documents at their paths in their repository, a document
without ``$schema`` declared in ``registry.json`` in its main document's
dialect (2020-12 when the main has none), and ``registry/`` is the registry of
every schema concord binds. concord times ``concord generate --registry
alone/<Name>`` (the release binary, both languages); typify (``cargo-typify``,
called directly) and datamodel-codegen (``--input-file-type jsonschema``, which
reads draft-04 to 2020-12) are given the main document of that layout
(relative ``$ref``s to bundled documents resolve as upstream) and write one
output file. datamodel-codegen runs from its own venv,
``<work-dir>/datamodel-venv``, created with the pinned
``datamodel-code-generator`` (``--datamodel-version``); ``cargo-typify`` is
the one on ``PATH`` (or in ``~/.cargo/bin``), else the script installs the
pinned one (``--typify-version``) into ``<work-dir>/typify``. Each run is the
wall clock of the process, output folder emptied before it; a tool that exits
non-zero on the first run, or passes ``--timeout``, is recorded with its exit
code and first line of stderr, and not timed. The ratios are of total median
times over the schemas both tools of a pair generate (and over those all three
generate), for the Draft 2020-12 schemas, for the others (older dialects, or
no ``$schema``: ``MANIFEST.tsv``'s ``dialect`` column) and for all; the last
line times one ``concord generate`` of the combined registry. Per-schema
figures and refusals are also written to ``<work-dir>/results.tsv``. Needs,
for ``concord-lab survey``, the ``.venv`` that ``scripts/test`` creates.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
import venv
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOOLS = ("concord", "typify", "datamodel-codegen")
# MANIFEST.tsv's dialect column (a $schema as written) -> its short name, scheme and final "#" aside.
DIALECTS = {
    "json-schema.org/draft/2020-12/schema": "2020-12",
    "json-schema.org/draft/2019-09/schema": "2019-09",
    "json-schema.org/draft-07/schema": "draft-07",
    "json-schema.org/draft-06/schema": "draft-06",
    "json-schema.org/draft-04/schema": "draft-04",
}
# The report's groups: the Draft 2020-12 schemas, and the rest (older dialects, or no $schema).
GROUPS = ("2020-12", "older")


@dataclass
class Outcome:
    """One tool on one schema: its run times, or why it did not generate."""

    seconds: list[float] = field(default_factory=list)
    refused: str | None = None

    def median_ms(self) -> float:
        return statistics.median(self.seconds) * 1000

    def cell(self) -> str:
        return f"ok {self.median_ms():9.1f} ms" if self.refused is None else "refused"


def run(command: list[str], accept: tuple[int, ...] = (0,)) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    if result.returncode not in accept:
        sys.exit(f"error: {' '.join(command)} failed ({result.returncode}):\n{result.stdout}{result.stderr}")
    return result


def release_binary(package: str) -> Path:
    """The release build of one of the workspace's commands (concord-cli's ``concord``, ``concord-lab``)."""
    run(["cargo", "build", "--quiet", "--release", "-p", package])
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    name = "concord" if package == "concord-cli" else package
    return (target if target.is_absolute() else ROOT / target) / "release" / name


def datamodel_codegen(folder: Path, version: str) -> Path:
    """datamodel-codegen of the pinned version, in a venv of its own (created or re-created when needed)."""
    executable = folder / "bin" / "datamodel-codegen"
    stamp = folder / "datamodel-code-generator.version"
    if not (executable.exists() and stamp.exists() and stamp.read_text() == version):
        shutil.rmtree(folder, ignore_errors=True)
        venv.create(folder, with_pip=True)
        pip = [str(folder / "bin" / "pip"), "install", "--quiet", "--disable-pip-version-check"]
        run([*pip, f"datamodel-code-generator=={version}"])
        stamp.write_text(version)
    return executable


def cargo_typify(folder: Path, version: str) -> Path:
    """cargo-typify from PATH or ~/.cargo/bin, else the pinned version installed into folder (once)."""
    found = shutil.which("cargo-typify") or str(Path.home() / ".cargo" / "bin" / "cargo-typify")
    if Path(found).exists():
        return Path(found)
    executable = folder / "bin" / "cargo-typify"
    stamp = folder / "cargo-typify.version"
    if not (executable.exists() and stamp.exists() and stamp.read_text() == version):
        print(f"installing cargo-typify {version} into {folder}", flush=True)
        shutil.rmtree(folder, ignore_errors=True)
        run(["cargo", "install", "--quiet", "--locked", f"cargo-typify@{version}", "--root", str(folder)])
        stamp.write_text(version)
    return executable


def version_of(command: list[str]) -> str:
    """The first line a tool's --version prints, or why there is none."""
    result = subprocess.run([*command, "--version"], capture_output=True, text=True)
    lines = (result.stdout + result.stderr).strip().splitlines()
    return lines[0] if result.returncode == 0 and lines else "(no version)"


def survey(lab: Path, corpus: Path, work: Path) -> str:
    """Runs concord-lab survey into work (alone/, registry/); returns its totals line."""
    # Exit 1: an instance disagrees; the layout is written all the same.
    result = run([str(lab), "survey", "--corpus", str(corpus), "--work-dir", str(work)], accept=(0, 1))
    (work / "survey.md").write_text(result.stdout)
    totals = [line for line in result.stdout.splitlines() if line.startswith("| **total**")]
    return totals[0] if totals else "(no totals line)"


@dataclass
class Schema:
    short_name: str
    dialect: str  # the $schema of its main document, short (2020-12, draft-07, ...), or "none"
    registry: Path  # <Name>, below alone/: a registry of this schema alone
    main: Path  # its main document (<Name>/...), below alone/

    def group(self) -> str:
        return "2020-12" if self.dialect == "2020-12" else "older"


def dialect_name(declared: str) -> str:
    """MANIFEST.tsv's dialect (the main document's $schema as written, or "(none)") by its short name."""
    if declared == "(none)":
        return "none"
    return DIALECTS.get(declared.split("://", 1)[-1].rstrip("#"), declared)


def schemas(corpus: Path, alone: Path) -> list[Schema]:
    """The corpus's schemas in MANIFEST.tsv order, each matched to its survey registry by digest."""
    by_digest: dict[str, tuple[Path, Path]] = {}
    for index in sorted(alone.glob("*/registry.json")):
        main = json.loads(index.read_text())["schemas"][0]  # the survey writes the main document first
        folder = Path(index.parent.name)
        by_digest.setdefault(main["digest"], (folder, folder / main["path"]))
    lines = (corpus / "MANIFEST.tsv").read_text().splitlines()
    header = lines[0].split("\t")
    name_at, dialect_at = header.index("short_name"), header.index("dialect")
    found = []
    for line in lines[1:]:
        cells = line.split("\t")
        if len(cells) <= dialect_at:
            continue
        name = cells[name_at]
        digest = "sha256:" + hashlib.sha256((corpus / "schemas" / f"{name}.schema.json").read_bytes()).hexdigest()
        if digest not in by_digest:
            sys.exit(f"error: no registry under {alone} has {name}'s main document")
        registry, main = by_digest.pop(digest)
        found.append(Schema(name, dialect_name(cells[dialect_at]), registry, main))
    return found


# Children run without backtraces or colors: a refusal's message is all that is kept of it.
QUIET = {**os.environ, "RUST_BACKTRACE": "0", "NO_COLOR": "1"}


def reason(stderr: str) -> str:
    """The line of a failed run's stderr that says why: a Python exception (a pydantic ValidationError with its
    first error's place and message), a Rust panic's message, color-eyre's last cause, else the first line that is
    not a Python warning."""
    lines = [re.sub(r"\x1b\[[0-9;]*m", "", line).rstrip() for line in stderr.splitlines()]
    lines = [line for line in lines if line.strip() and "Warning:" not in line and not line.startswith("  warn(")]
    if any(line.startswith("Traceback") for line in lines):
        last = max(at for at, line in enumerate(lines) if line.startswith("Traceback"))
        exceptions = [line for line in lines[last + 1 :] if not line[0].isspace()]
        if exceptions and "ValidationError:" in exceptions[0]:
            at = lines.index(exceptions[0])
            place, message = [*lines[at + 1 : at + 3], "", ""][:2]
            first = f"; {place}: {message.strip().split(' [type=')[0]}" if place else ""
            exceptions[0] = exceptions[0].removeprefix("pydantic_core._pydantic_core.") + first
        lines = exceptions or lines
    elif any(line.startswith("Message:") for line in lines):
        lines = [line.removeprefix("Message:").strip() for line in lines if line.startswith("Message:")]
    elif lines and lines[0] == "Error:":
        causes = [line for line in lines if re.match(r"\s+\d+: ", line)]
        lines = [re.sub(r"^\s+\d+: ", "", causes[-1])] if causes else lines
    return (lines or ["(no message)"])[0][:200]


def timed(command: list[str], cwd: Path, out: Path, timeout: float, log: Path) -> tuple[float, str | None]:
    """Wall clock of one run writing into out, emptied first; if it failed, why (exit code, reason; stderr kept in
    log). Paths in the command are relative to cwd, so messages name files as short as the registry's."""
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    start = time.perf_counter()
    try:
        result = subprocess.run(command, cwd=cwd, env=QUIET, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return time.perf_counter() - start, f"timed out after {timeout:.0f} s"
    seconds = time.perf_counter() - start
    if result.returncode != 0:
        log.parent.mkdir(parents=True, exist_ok=True)
        log.write_text(f"{' '.join(command)}\n\n{result.stderr}")
        return seconds, f"exit {result.returncode}: {reason(result.stderr)}"
    return seconds, None


def ratio_lines(results: dict[str, dict[str, Outcome]], label: str) -> list[str]:
    """For one group of schemas: what each tool generates, concord's ratio to each baseline over the schemas both
    generate, and the totals over those all three generate."""
    names = list(results)
    generated = {tool: [name for name in names if results[name][tool].refused is None] for tool in TOOLS}
    lines = [f"{label}: " + ", ".join(f"{tool} generates {len(generated[tool])} of {len(names)}" for tool in TOOLS)]
    for tool in TOOLS[1:]:
        both = [name for name in generated["concord"] if name in generated[tool]]
        if not both:
            lines.append(f"ratio concord/{tool} {label}: no schema both generate")
            continue
        mine = sum(results[name]["concord"].median_ms() for name in both)
        theirs = sum(results[name][tool].median_ms() for name in both)
        each = statistics.median(
            [results[name]["concord"].median_ms() / results[name][tool].median_ms() for name in both]
        )
        lines.append(
            f"ratio concord/{tool} {label}: {mine / theirs:.2f}x over the {len(both)} both generate "
            f"({mine:.0f} ms vs {theirs:.0f} ms; median of the per-schema ratios {each:.2f}x; time, lower is better)"
        )
    common = [name for name in names if all(results[name][tool].refused is None for tool in TOOLS)]
    totals = {tool: sum(results[name][tool].median_ms() for name in common) for tool in TOOLS}
    lines.append(
        f"total median time {label}, the {len(common)} all three generate: "
        + ", ".join(f"{tool} {totals[tool]:.0f} ms" for tool in TOOLS)
    )
    return lines


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--corpus", type=Path, default=ROOT / "fixtures" / "vectors" / "corpus")
    options.add_argument("--repeats", type=int, default=5, help="timed runs per tool and schema (default 5)")
    options.add_argument("--timeout", type=float, default=120.0, help="seconds before a run counts as refused")
    options.add_argument("--work-dir", type=Path, default=ROOT / "target" / "bench" / "corpus")
    options.add_argument("--datamodel-version", default="0.26.0", help="datamodel-code-generator's pinned version")
    options.add_argument("--typify-version", default="0.8.0", help="cargo-typify's version, when none is installed")
    arguments = options.parse_args()

    corpus, work = arguments.corpus.resolve(), arguments.work_dir.resolve()
    typify = str(cargo_typify(work / "typify", arguments.typify_version))
    concord = release_binary("concord-cli")
    datamodel = datamodel_codegen(work / "datamodel-venv", arguments.datamodel_version)
    versions = [version_of([str(concord)]), version_of([typify, "typify"]), version_of([str(datamodel)])]
    versions[2] = f"datamodel-codegen {versions[2]}"  # it prints its version alone
    print(f"versions: {', '.join(versions)}")
    print(f"concord-lab survey: {survey(release_binary('concord-lab'), corpus, work / 'survey')}", flush=True)
    alone = work / "survey" / "alone"
    found = schemas(corpus, alone)
    out = work / "out"
    shutil.rmtree(work / "refusals", ignore_errors=True)

    def commands(schema: Schema, tool: str) -> list[str]:
        if tool == "concord":
            return [str(concord), "generate", "--registry", str(schema.registry), "--out", str(out / tool)]
        if tool == "typify":
            return [typify, "typify", "--output", str(out / tool / "out.rs"), str(schema.main)]
        # --output: a file, or a folder of modules when the schema $refs other documents.
        datamodel_output = ["--output-model-type", "pydantic_v2.BaseModel", "--output", str(out / tool / "out")]
        return [str(datamodel), "--input", str(schema.main), "--input-file-type", "jsonschema", *datamodel_output]

    dialects = dialect_counts([schema.dialect for schema in found])
    print(f"{len(found)} schemas of {corpus} ({dialects}), median of {arguments.repeats} runs, tools in turn")
    print(f"{'schema':36} {'dialect':9} {'concord':>16} {'typify':>16} {'datamodel-codegen':>18}")
    results: dict[str, dict[str, Outcome]] = {}
    for schema in found:
        outcomes = {tool: Outcome() for tool in TOOLS}
        for _ in range(arguments.repeats):
            for tool, outcome in outcomes.items():
                if outcome.refused is None:
                    log = work / "refusals" / tool / f"{schema.short_name}.txt"
                    command = commands(schema, tool)
                    seconds, outcome.refused = timed(command, alone, out / tool, arguments.timeout, log)
                    outcome.seconds.append(seconds)
        results[schema.short_name] = outcomes
        cells = " ".join(f"{outcomes[tool].cell():>16}" for tool in TOOLS)
        print(f"{schema.short_name:36} {schema.dialect:9} {cells}", flush=True)

    print()
    for name, outcomes in results.items():
        for tool, outcome in outcomes.items():
            if outcome.refused is not None:
                print(f"{tool} refused {name}: {outcome.refused}")
    write_results(work / "results.tsv", found, results)
    groups = {group: {s.short_name: results[s.short_name] for s in found if s.group() == group} for group in GROUPS}
    groups["all"] = results
    for group, members in groups.items():
        print()
        print("\n".join(ratio_lines(members, group)))

    print()
    mine = sum(outcomes["concord"].median_ms() for outcomes in results.values() if outcomes["concord"].refused is None)
    combined = work / "survey" / "registry"
    runs = []
    for _ in range(arguments.repeats):
        took, refused = timed(
            [str(concord), "generate", "--registry", "registry", "--out", str(out / "combined")],
            combined.parent,
            out / "combined",
            600,
            work / "refusals" / "combined.txt",
        )
        if refused is not None:
            sys.exit(f"error: concord generate --registry {combined}: {refused}")
        runs.append(took)
    entries = len(json.loads((combined / "registry.json").read_text())["schemas"])
    print(
        f"concord, the combined registry ({entries} entries, every bindable schema) in one generate: "
        f"{statistics.median(runs) * 1000:.0f} ms (each alone, summed: {mine:.0f} ms)"
    )


def dialect_counts(dialects: list[str]) -> str:
    """How many schemas of each dialect: "33 2020-12, 7 2019-09, ..."."""
    counts: dict[str, int] = {}
    for dialect in dialects:
        counts[dialect] = counts.get(dialect, 0) + 1
    return ", ".join(f"{count} {dialect}" for dialect, count in sorted(counts.items(), key=lambda item: -item[1]))


def write_results(file: Path, found: list[Schema], results: dict[str, dict[str, Outcome]]) -> None:
    """One row per schema: its dialect, then each tool's median in ms (empty when refused) and its refusal."""
    header = ["schema", "dialect", *(f"{tool} {what}" for tool in TOOLS for what in ("ms", "refused"))]
    rows = ["\t".join(header)]
    for schema in found:
        cells = [schema.short_name, schema.dialect]
        for tool in TOOLS:
            outcome = results[schema.short_name][tool]
            ok = outcome.refused is None
            cells += [f"{outcome.median_ms():.1f}" if ok else "", (outcome.refused or "").replace("\t", " ")]
        rows.append("\t".join(cells))
    file.write_text("\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
