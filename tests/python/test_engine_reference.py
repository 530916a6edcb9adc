"""concord's engine (the ``jsonschema`` crate behind ``_core.Validator``, with
concord's rewrite) against the reference implementation, the Python
``jsonschema`` package, on the official JSON-Schema-Test-Suite for Draft 2020-12:
every test of ``draft2020-12/*.json`` and ``optional/*.json`` (not
``optional/format/``: neither engine asserts ``format``).

Each test gets three verdicts: concord's, the reference's and the suite's. Every
test where they are not all equal is recorded, with the class of its cause, in
fixtures/vectors/engine-differences.tsv (the classes are explained at its top and
in docs/validation.md); the test fails on a new difference and on one that is
gone. Groups whose schema neither engine can check (a remote ``$ref``: concord
refuses to build it, the reference cannot resolve it, nothing is fetched) are
counted apart. After a deliberate change, rewrite the record with
``CONCORD_RECORD_ENGINE_DIFFERENCES=1`` and give each new row its class.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from pathlib import Path
from typing import Any

import jsonschema
import referencing
import referencing.exceptions
from concord_runtime import _core

ROOT = Path(__file__).resolve().parents[2]
SUITE = (
    Path(os.environ.get("CONCORD_TEST_SUITE", ROOT / "fixtures/vectors/json-schema-test-suite/tests")) / "draft2020-12"
)
RECORD = ROOT / "fixtures/vectors/engine-differences.tsv"
# A document without `$id` is known by its place in the registry.
REGISTRY_URI = "https://registry.concord.invalid/suite.json"

Row = tuple[str, str, str, str, str, str]
"""file, group, test, concord's verdict, the reference's verdict, the suite's."""


class Fetched(Exception):
    """What the reference's registry raises for every remote resource."""


fetched: list[str] = []


def retrieve(uri: str) -> referencing.Resource[Any]:
    fetched.append(uri)
    raise Fetched(f"nothing is fetched: {uri}")


# Holds nothing but the meta-schemas the package ships; any other URI fails.
# (`retrieve` is the attrs alias of the private field, unknown to mypy.)
REFERENCE_REGISTRY: referencing.Registry[Any] = referencing.Registry(retrieve=retrieve)  # type: ignore[call-arg]


def base_uri(schema: Any) -> str:
    """The document's URI as the generator gives it (codegen's `base_uri`):
    its `$id`, else its place in the registry. (Given under another URI as
    well, the crate may panic on an anchor `$ref`: see docs/validation.md.)"""
    if isinstance(schema, dict) and isinstance(schema.get("$id"), str):
        return str(schema["$id"]).rstrip("#")
    return REGISTRY_URI


def concord_verdict(validator: _core.Validator, data: Any) -> tuple[str, list[str]]:
    try:
        notes, _ = validator.notes(data, 3)
    except ValueError as error:
        # Not a JSON value concord reads (an integer beyond 64 bits).
        return "value-refused", [str(error)]
    return ("invalid" if notes else "valid"), [note[3] for note in notes]


def reference_verdict(validator: jsonschema.Draft202012Validator, data: Any) -> str:
    try:
        return "valid" if validator.is_valid(data) else "invalid"
    except re.error:
        return "regex-error"
    except referencing.exceptions.Unresolvable:
        return "ref-error"


def compare() -> tuple[list[Row], dict[Row, list[str]], Counter[str]]:
    """The rows where the three verdicts are not all equal, concord's notes on
    each, and counts."""
    rows: list[Row] = []
    notes: dict[Row, list[str]] = {}
    counts: Counter[str] = Counter()
    files = sorted(SUITE.glob("*.json")) + sorted(SUITE.glob("optional/*.json"))
    for path in files:
        name = path.relative_to(SUITE).as_posix()
        for group in json.loads(path.read_text()):
            schema = group["schema"]
            counts["groups"] += 1
            reference = jsonschema.Draft202012Validator(schema, registry=REFERENCE_REGISTRY)
            try:
                core: _core.Validator | None = _core.Validator([(base_uri(schema), json.dumps(schema), None)], "")
                remote = False
            except ValueError as error:
                core = None
                remote = "retrieving it failed" in str(error)
            verdicts = []
            for test in group["tests"]:
                counts["tests"] += 1
                theirs = reference_verdict(reference, test["data"])
                ours, said = ("schema-refused", []) if core is None else concord_verdict(core, test["data"])
                suite = "valid" if test["valid"] else "invalid"
                verdicts.append(((name, group["description"], test["description"], ours, theirs, suite), said))
            if remote and all(row[4] == "ref-error" for row, _ in verdicts):
                counts["both refuse: groups"] += 1
                counts["both refuse: tests"] += len(verdicts)
                continue
            for row, said in verdicts:
                if len(set(row[3:])) > 1:
                    rows.append(row)
                    notes[row] = said
    return rows, notes, counts


def read_record() -> tuple[dict[str, str], dict[Row, str]]:
    classes: dict[str, str] = {}
    rows: dict[Row, str] = {}
    lines = RECORD.read_text().splitlines()
    for line in lines:
        if line.startswith("# - "):
            key, _, text = line[4:].partition(": ")
            classes[key] = text
    body = [line for line in lines if line and not line.startswith("#")]
    assert body[0].split("\t") == ["file", "group", "test", "concord", "reference", "suite", "class"]
    for line in body[1:]:
        *fields, cause = line.split("\t")
        assert len(fields) == 6, line
        rows[(fields[0], fields[1], fields[2], fields[3], fields[4], fields[5])] = cause
    return classes, rows


def write_record(rows: list[Row], known: dict[Row, str]) -> None:
    head = [line for line in RECORD.read_text().splitlines() if line.startswith("#")]
    body = ["\t".join(["file", "group", "test", "concord", "reference", "suite", "class"])]
    body += ["\t".join([*row, known.get(row, "?")]) for row in rows]
    RECORD.write_text("\n".join(head + body) + "\n")


def test_the_engine_against_the_reference() -> None:
    rows, notes, counts = compare()
    classes, recorded = read_record()
    if os.environ.get("CONCORD_RECORD_ENGINE_DIFFERENCES"):
        write_record(rows, recorded)
        classes, recorded = read_record()
    by_class = Counter(recorded.get(row, "?") for row in rows)
    print(
        f"\n{counts['groups']} groups, {counts['tests']} tests; both engines refuse "
        f"{counts['both refuse: groups']} groups ({counts['both refuse: tests']} tests, remote $refs); "
        f"{len(rows)} tests with verdicts not all equal: {dict(sorted(by_class.items()))}"
    )
    assert counts["tests"] > 1200, "the suite is missing: set CONCORD_TEST_SUITE to its tests folder"
    assert fetched, "the reference never asked for a remote resource"
    new = [row for row in rows if row not in recorded]
    gone = [row for row in recorded if row not in set(rows)]
    assert not new and not gone, (
        f"new differences {new}, gone {gone}: record them with CONCORD_RECORD_ENGINE_DIFFERENCES=1, "
        f"give each its class in {RECORD.name}, and update docs/validation.md"
    )
    for row, cause in recorded.items():
        assert cause in classes, f"{row}: class {cause!r} is not explained at the top of {RECORD.name}"
    # The evidence of each class that the verdicts themselves can show.
    for row, cause in recorded.items():
        concord, reference, suite = row[3:]
        if cause == "integer-rewrite":
            assert concord == "invalid" and reference == suite == "valid", row
            assert all("written with a fraction or an exponent" in note for note in notes[row]), (row, notes[row])
        elif cause == "integer-beyond-64-bits":
            assert concord == "value-refused" and notes[row] == ["an integer beyond 64 bits"], (row, notes[row])
        elif cause == "python-re-syntax":
            assert reference == "regex-error" and concord == suite, row
        elif cause in ("python-re-classes", "dependencies"):
            assert concord == suite != reference, row
        elif cause == "custom-meta-schema":
            assert concord == reference != suite, row
