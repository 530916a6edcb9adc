"""Generation time for the corpus's Draft 2020-12 schemas: concord against
``cargo typify`` (Rust) and ``datamodel-codegen`` (pydantic v2), schema by
schema, medians of repeated runs, the three tools in turn.

    python3 benchmarks/corpus_generation.py [--corpus fixtures/vectors/corpus] [--repeats 5] [--timeout 120]

The schemas are laid out by ``concord-lab survey`` (run first, into
``<work-dir>/survey``): ``alone/<Name>/`` is one registry per schema, its main
document and bundled documents at their paths in their repository, and
``registry/`` is the registry of every schema concord binds. concord times
``concord generate --registry alone/<Name>`` (the release binary, both
languages); typify (``cargo-typify``, called directly) and datamodel-codegen
are given the main document of that layout (relative ``$ref``s to bundled
documents resolve as upstream) and write one output file. datamodel-codegen
runs from its own venv, ``<work-dir>/datamodel-venv``, created with the
pinned ``datamodel-code-generator`` (``--datamodel-version``). Each run is the
wall clock of the process, output folder emptied before it; a tool that exits
non-zero on the first run, or passes ``--timeout``, is recorded with its exit
code and first line of stderr, and not timed. The ratios are of total median
times over the schemas all three tools generate; the last line times one
``concord generate`` of the combined registry. Needs ``cargo install
cargo-typify --locked`` and, for ``concord-lab survey``, the ``.venv`` that
``scripts/test`` creates.
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
DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"
TOOLS = ("concord", "typify", "datamodel-codegen")


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
    registry: Path  # <Name>, below alone/: a registry of this schema alone
    main: Path  # its main document (<Name>/...), below alone/


def schemas(corpus: Path, alone: Path) -> list[Schema]:
    """The corpus's Draft 2020-12 schemas in MANIFEST.tsv order, each matched to its survey registry by digest."""
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
        if len(cells) <= dialect_at or cells[dialect_at].rstrip("#") != DRAFT_2020_12:
            continue
        name = cells[name_at]
        digest = "sha256:" + hashlib.sha256((corpus / "schemas" / f"{name}.schema.json").read_bytes()).hexdigest()
        if digest not in by_digest:
            sys.exit(f"error: no registry under {alone} has {name}'s main document")
        registry, main = by_digest.pop(digest)
        found.append(Schema(name, registry, main))
    return found


# Children run without backtraces or colors: a refusal's message is all that is kept of it.
QUIET = {**os.environ, "RUST_BACKTRACE": "0", "NO_COLOR": "1"}


def reason(stderr: str) -> str:
    """The line of a failed run's stderr that says why: a Python exception, a Rust panic's message, color-eyre's
    last cause, else the first line that is not a Python warning."""
    lines = [re.sub(r"\x1b\[[0-9;]*m", "", line).rstrip() for line in stderr.splitlines()]
    lines = [line for line in lines if line.strip() and "Warning:" not in line and not line.startswith("  warn(")]
    if any(line.startswith("Traceback") for line in lines):
        last = max(at for at, line in enumerate(lines) if line.startswith("Traceback"))
        exceptions = [line for line in lines[last + 1 :] if not line[0].isspace()]
        lines = exceptions or lines
    elif any(line.startswith("Message:") for line in lines):
        lines = [line.removeprefix("Message:").strip() for line in lines if line.startswith("Message:")]
    elif lines and lines[0] == "Error:":
        causes = [line for line in lines if re.match(r"\s+\d+: ", line)]
        lines = [re.sub(r"^\s+\d+: ", "", causes[-1])] if causes else lines
    return (lines or ["(no message)"])[0][:160]


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


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--corpus", type=Path, default=ROOT / "fixtures" / "vectors" / "corpus")
    options.add_argument("--repeats", type=int, default=5, help="timed runs per tool and schema (default 5)")
    options.add_argument("--timeout", type=float, default=120.0, help="seconds before a run counts as refused")
    options.add_argument("--work-dir", type=Path, default=ROOT / "target" / "bench" / "corpus")
    options.add_argument("--datamodel-version", default="0.26.0", help="datamodel-code-generator's pinned version")
    arguments = options.parse_args()

    corpus, work = arguments.corpus.resolve(), arguments.work_dir.resolve()
    typify = shutil.which("cargo-typify") or str(Path.home() / ".cargo" / "bin" / "cargo-typify")
    if not Path(typify).exists():
        sys.exit("error: cargo-typify is not installed: cargo install cargo-typify --locked")
    concord = release_binary("concord-cli")
    datamodel = datamodel_codegen(work / "datamodel-venv", arguments.datamodel_version)
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

    print(f"{len(found)} Draft 2020-12 schemas of {corpus}, median of {arguments.repeats} runs, tools in turn")
    print(f"{'schema':36} {'concord':>16} {'typify':>16} {'datamodel-codegen':>18}")
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
        print(f"{schema.short_name:36} " + " ".join(f"{outcomes[tool].cell():>16}" for tool in TOOLS), flush=True)

    print()
    for name, outcomes in results.items():
        for tool, outcome in outcomes.items():
            if outcome.refused is not None:
                print(f"{tool} refused {name}: {outcome.refused}")
    generated = {tool: [name for name, outcomes in results.items() if outcomes[tool].refused is None] for tool in TOOLS}
    print(", ".join(f"{tool} generates {len(names)} of {len(results)}" for tool, names in generated.items()))
    common = [name for name in results if all(outcomes.refused is None for outcomes in results[name].values())]
    totals = {tool: sum(results[name][tool].median_ms() for name in common) for tool in TOOLS}
    print(
        f"total median time over the {len(common)} schemas all three generate: "
        + ", ".join(f"{tool} {totals[tool]:.0f} ms" for tool in TOOLS)
    )
    for tool in TOOLS[1:] if common else ():
        each = statistics.median(
            [results[name]["concord"].median_ms() / results[name][tool].median_ms() for name in common]
        )
        print(
            f"ratio concord/{tool} {totals['concord'] / totals[tool]:.2f}x "
            f"(time, lower is better; median of the per-schema ratios {each:.2f}x)"
        )
    mine = sum(results[name]["concord"].median_ms() for name in generated["concord"])
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


if __name__ == "__main__":
    main()
