"""Scaling of concord on large registries: generation time of both languages,
and the import time of the generated Python package against the same models
hand-written as plain pydantic classes in dependency order: every root used
(`from concord_registry import *`), and one root, which loads its entry alone
(`from concord_registry import S000`; the plain module is always whole). Two plain
modules: one as loose as pydantic users often write (`X | None = None`, plain `int`),
and one of the schema's meaning (`X = None` for an optional property that is not
nullable, `int` within ±(2^53-1)): see `handwritten`. Medians of repeated runs; each
import runs in a fresh interpreter, timed both as the whole process (nothing
preloaded) and as the import alone (pydantic and the runtime preloaded), concord and
the plain modules interleaved. Target (issue 29): every root within 1.0x of each.

    .venv/bin/python benchmarks/scale.py [--runs N] [--chain N]
    .venv/bin/python benchmarks/scale.py write-registry DIR [--schemas N]
    .venv/bin/python benchmarks/scale.py write-chain DIR [--chain N]
    .venv/bin/python benchmarks/scale.py write-handwritten FILE [--schemas N] [--same-meaning]

The registries are deterministic: (a) 500 schemas of 11 object types each,
linked by `$defs` and `$ref` chains, with strings, integers, numbers,
booleans, nullables, arrays, maps, enums, closed types and growth points;
(b) one schema holding a chain of 20,000 types, alternately `$ref` aliases
and objects.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DRAFT = "https://json-schema.org/draft/2020-12/schema"
NODES = 10
"""Object types in each schema's `$defs` (the root is the eleventh)."""
KINDS = ["alpha", "beta", "gamma"]


def node_name(schema: int, node: int) -> str:
    return f"S{schema:03d}Node{node}"


def node_schema(schema: int, node: int) -> dict[str, Any]:
    """One `$defs` object type: a mix of property kinds, `next` and `children` chaining to the later nodes."""
    properties: dict[str, Any] = {
        "id": {"type": "string", "description": "Identifier."},
        "count": {"type": "integer"},
        "ratio": {"type": "number"},
        "enabled": {"type": "boolean"},
        "note": {"type": ["string", "null"]},
        "tags": {"type": "array", "items": {"type": "string"}},
        "attrs": {"type": "object", "additionalProperties": {"type": "integer"}},
        "kind": {"type": "string", "enum": KINDS},
        "label": {"$ref": f"#/$defs/S{schema:03d}Label"},
        "createdAt": {"type": "string"},
    }
    if node + 1 < NODES:
        properties["next"] = {"$ref": f"#/$defs/{node_name(schema, node + 1)}"}
    if node + 2 < NODES:
        properties["children"] = {"type": "array", "items": {"$ref": f"#/$defs/{node_name(schema, node + 2)}"}}
    body: dict[str, Any] = {"type": "object", "properties": properties, "required": ["id"]}
    if node % 4 == 0:
        body["x-growth-point"] = True
    elif node % 4 == 3:
        body["additionalProperties"] = False
    return body


def schema_document(schema: int) -> dict[str, Any]:
    prefix = f"S{schema:03d}"
    defs: dict[str, Any] = {
        f"{prefix}Label": {"type": "string"},
        f"{prefix}Labels": {"type": "array", "items": {"$ref": f"#/$defs/{prefix}Label"}},
    }
    for node in range(NODES):
        defs[node_name(schema, node)] = node_schema(schema, node)
    return {
        "$schema": DRAFT,
        "title": f"Synthetic schema {schema}",
        "type": "object",
        "properties": {
            "version": {"type": "integer"},
            "head": {"$ref": f"#/$defs/{node_name(schema, 0)}"},
            "labels": {"$ref": f"#/$defs/{prefix}Labels"},
            "spare": {"type": "array", "items": {"$ref": f"#/$defs/{node_name(schema, NODES // 2)}"}},
        },
        "required": ["version", "head"],
        "$defs": defs,
    }


def chain_document(length: int) -> dict[str, Any]:
    """`T0 -> T1 -> ... `: even links are `$ref` aliases, odd ones objects whose `next` is the following link."""
    defs: dict[str, Any] = {}
    for link in range(length):
        following = {"$ref": f"#/$defs/T{link + 1}"} if link + 1 < length else {"type": "string"}
        if link % 2 == 0:
            defs[f"T{link}"] = following
        else:
            defs[f"T{link}"] = {"type": "object", "properties": {"value": {"type": "integer"}, "next": following}}
    return {
        "$schema": DRAFT,
        "type": "object",
        "properties": {"start": {"$ref": "#/$defs/T0"}},
        "$defs": defs,
    }


def write_pinned(directory: Path, documents: list[tuple[str, dict[str, Any]]]) -> None:
    """Writes each document and a `registry.json` pinning its exact bytes, as `concord pin` would."""
    directory.mkdir(parents=True, exist_ok=True)
    entries = []
    for name, document in documents:
        path = f"{name.lower()}.schema.json"
        data = (json.dumps(document, indent=2) + "\n").encode()
        (directory / path).write_bytes(data)
        entries.append({"name": name, "path": path, "digest": "sha256:" + hashlib.sha256(data).hexdigest()})
    index = json.dumps({"format": 1, "schemas": entries}, indent=2) + "\n"
    (directory / "registry.json").write_text(index)


def write_registry(directory: Path, schemas: int = 500) -> None:
    write_pinned(directory, [(f"S{schema:03d}", schema_document(schema)) for schema in range(schemas)])


def write_chain(directory: Path, length: int = 20_000) -> None:
    write_pinned(directory, [("Chain", chain_document(length))])


def handwritten(schemas: int = 500, *, same_meaning: bool = False) -> str:
    """The models of :func:`write_registry` as a pydantic user would write them: plain
    classes, each after the types it names, no forward references. An optional property
    is ``X | None = None`` and an integer a plain ``int``, looser than the schema says (an
    explicit null is read as absent; any integer is read).

    ``same_meaning``: the schema's meaning, as plainly as pydantic says it: an optional
    property that is not nullable is ``X = None`` (absent gives the default, an explicit
    null is refused: pydantic never validates a default), and an integer is bounded to
    ±(2^53-1), the range concord's ``Int64`` reads and writes, as a module alias
    ``Int64 = Annotated[int, pydantic.Field(ge=..., le=...)]``: the bound is the honest
    equal; a plain ``int`` would read integers the schema's readers refuse."""
    optional = "" if same_meaning else " | None"
    integer = "Int64" if same_meaning else "int"
    lines = ["from typing import Annotated, Any, Literal", "", "import pydantic", ""]
    if same_meaning:
        lines += ["Int64 = Annotated[int, pydantic.Field(ge=-(2**53 - 1), le=2**53 - 1)]", ""]
    for schema in range(schemas):
        prefix = f"S{schema:03d}"
        lines += [f"{prefix}Label = str", f"{prefix}Labels = list[{prefix}Label]", ""]
        for node in reversed(range(NODES)):
            name = node_name(schema, node)
            extra = {0: "allow", 3: "forbid"}.get(node % 4, "ignore")
            lines += [
                f"{name}Kind = Literal[{', '.join(repr(kind) for kind in KINDS)}]",
                "",
                "",
                f"class {name}(pydantic.BaseModel):",
                f'    model_config = pydantic.ConfigDict(extra="{extra}")',
                "    id: str",
                f"    count: {integer}{optional} = None",
                f"    ratio: float{optional} = None",
                f"    enabled: bool{optional} = None",
                "    note: str | None = None",
                f"    tags: list[str]{optional} = None",
                f"    attrs: dict[str, {integer}]{optional} = None",
                f"    kind: {name}Kind{optional} = None",
                f"    label: {prefix}Label{optional} = None",
                f'    created_at: str{optional} = pydantic.Field(default=None, alias="createdAt")',
            ]
            if node + 1 < NODES:
                lines.append(f"    next: {node_name(schema, node + 1)}{optional} = None")
            if node + 2 < NODES:
                lines.append(f"    children: list[{node_name(schema, node + 2)}]{optional} = None")
            lines.append("")
        lines += [
            "",
            f"class {prefix}(pydantic.BaseModel):",
            f"    version: {integer}",
            f"    head: {node_name(schema, 0)}",
            f"    labels: {prefix}Labels{optional} = None",
            f"    spare: list[{node_name(schema, NODES // 2)}]{optional} = None",
            "",
            "",
        ]
    return "\n".join(lines)


def median(samples: list[float]) -> float:
    return statistics.median(samples)


def timed(command: list[str], timeout: float) -> float:
    """Seconds one run takes; infinity when it fails or takes longer than `timeout` (printed as "no result")."""
    start = time.perf_counter()
    try:
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=timeout)
    except subprocess.TimeoutExpired:
        return float("inf")
    except subprocess.CalledProcessError as error:
        print(f"failed ({error.returncode}): {' '.join(command)}\n{error.stderr.decode()[-500:]}", file=sys.stderr)
        return float("inf")
    return time.perf_counter() - start


def median_of_runs(command: list[str], runs: int, timeout: float) -> float:
    samples: list[float] = []
    for _ in range(runs):
        samples.append(timed(command, timeout))
        if samples[-1] == float("inf"):
            break  # once is enough to know
    return median(samples)


IMPORT = """
import sys, time
import pydantic, concord_runtime
start = time.perf_counter()
{statement}
print(time.perf_counter() - start)
"""


def import_seconds(statement: str, path: list[Path], *, fresh: bool) -> float:
    """One import statement in a fresh interpreter. ``fresh``: the whole process, nothing
    preloaded (what a program's start pays, the runtime's own import included);
    otherwise the statement alone, timed with pydantic and the runtime already loaded."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(str(p) for p in path))
    if fresh:
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", statement], check=True, env=env)
        return time.perf_counter() - start
    output = subprocess.run(
        [sys.executable, "-c", IMPORT.format(statement=statement)], check=True, capture_output=True, text=True, env=env
    )
    return float(output.stdout.strip().splitlines()[-1])


def first_root(package: Path) -> str:
    """The first root `__init__.py` names (`from .entry import Root`)."""
    init = (package / "concord_registry" / "__init__.py").read_text()
    match = re.search(r"^    from \.\w+ import (\w+)$", init, re.M)
    assert match, "the package names no root"
    return match.group(1)


def concord_binary() -> Path:
    subprocess.run(["cargo", "build", "--quiet", "-p", "concord-cli", "--release"], check=True, cwd=ROOT)
    return ROOT / "target" / "release" / "concord"


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1].startswith("write-"):
        writer = argparse.ArgumentParser(prog="scale.py")
        writer.add_argument("what", choices=["write-registry", "write-chain", "write-handwritten"])
        writer.add_argument("target", type=Path)
        writer.add_argument("--schemas", type=int, default=500)
        writer.add_argument("--chain", type=int, default=20_000)
        writer.add_argument("--same-meaning", action="store_true", help="write-handwritten: see handwritten()")
        arguments = writer.parse_args()
        if arguments.what == "write-registry":
            write_registry(arguments.target, arguments.schemas)
        elif arguments.what == "write-chain":
            write_chain(arguments.target, arguments.chain)
        else:
            arguments.target.write_text(handwritten(arguments.schemas, same_meaning=arguments.same_meaning))
        return

    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--runs", type=int, default=7, help="paired runs of each measure (the median is reported)")
    options.add_argument("--schemas", type=int, default=500)
    options.add_argument("--chain", type=int, default=20_000)
    options.add_argument("--timeout", type=float, default=300, help="seconds before a generation run is given up")
    options.add_argument(
        "--runtime", type=Path, default=ROOT / "runtime" / "python", help="concord_runtime to import with"
    )
    arguments = options.parse_args()
    concord = concord_binary()
    runtime = arguments.runtime.resolve()

    with tempfile.TemporaryDirectory(prefix="concord-scale-") as scratch:
        work = Path(scratch)
        write_registry(work / "registry", arguments.schemas)
        write_chain(work / "chain", arguments.chain)
        # Two plain modules: the loose one (`X | None = None`, plain `int`), and the one of the
        # schema's meaning (`X = None`, `int` within ±(2^53-1)): see `handwritten`.
        references = {"plain pydantic, X | None": "handwritten", "plain pydantic, same meaning": "same-meaning"}
        for same_meaning, folder in ((False, "handwritten"), (True, "same-meaning")):
            (work / folder).mkdir()
            (work / folder / "handwritten_models.py").write_text(
                handwritten(arguments.schemas, same_meaning=same_meaning)
            )

        rows: list[tuple[str, float | None, str]] = []
        for label, registry in [(f"{arguments.schemas} schemas", "registry"), (f"{arguments.chain} chained", "chain")]:
            command = [
                str(concord),
                "generate",
                "--registry",
                str(work / registry),
                "--out",
                str(work / f"{registry}-out"),
            ]
            generate = median_of_runs(command, arguments.runs, arguments.timeout)
            rows.append(
                (f"generate both languages, {label}", generate, "no result" if generate == float("inf") else "")
            )

        package = work / "registry-out" / "python"
        # Bytecode first, as an installed package has it: the imports then measure pydantic, not the compiler.
        subprocess.run(
            [sys.executable, "-m", "compileall", "-q", str(package), *(str(work / f) for f in references.values())],
            check=True,
        )
        # The package loads an entry on first use: every root used is the whole
        # package; one root is what a program that reads one record type pays.
        statements = {
            "every root": "from concord_registry import *",
            "one root": f"from concord_registry import {first_root(package)}",
        }
        # The compared imports interleaved, so that drift on a shared machine hits both alike.
        ratios: dict[tuple[str, str, bool], float] = {}
        for what, statement in statements.items():
            for fresh in (True, False):
                concord_import: list[float] = []
                plain_imports: dict[str, list[float]] = {reference: [] for reference in references}
                for _ in range(arguments.runs):
                    concord_import.append(import_seconds(statement, [package, runtime], fresh=fresh))
                    for reference, folder in references.items():
                        plain_imports[reference].append(
                            import_seconds("import handwritten_models", [work / folder, runtime], fresh=fresh)
                        )
                concord_seconds = median(concord_import)
                how = "fresh interpreter" if fresh else "pydantic and runtime preloaded"
                rows.append((f"{statement[:40]}, {arguments.schemas} schemas ({how})", concord_seconds, ""))
                for reference, plain_import in plain_imports.items():
                    plain_seconds = median(plain_import)
                    ratios[what, reference, fresh] = concord_seconds / plain_seconds
                    spread = sorted(c / p for c, p in zip(concord_import, plain_import, strict=True))
                    rows.append(
                        (
                            f"  {what}, the same models, {reference} ({how})",
                            plain_seconds,
                            f"{ratios[what, reference, fresh]:.2f}x",
                        )
                    )
                    rows.append(
                        (f"    paired ratios, lowest to highest: {' '.join(f'{r:.2f}' for r in spread)}", None, "")
                    )

    print(f"{'measure':<92} {'median s':>9} {'ratio':>7}")
    for label, seconds, note in rows:
        print(label if seconds is None else f"{label:<92} {seconds:>9.3f} {note:>7}")
    for reference in references:
        every = all(ratios["every root", reference, fresh] <= 1.0 for fresh in (True, False))
        one = all(ratios["one root", reference, fresh] <= 0.2 for fresh in (True, False))
        print(f"import target, every root: <= 1.0x {reference}, both ways ({'met' if every else 'MISSED'})")
        print(f"import target, one root: <= 0.2x {reference}, both ways ({'met' if one else 'MISSED'})")


if __name__ == "__main__":
    main()
