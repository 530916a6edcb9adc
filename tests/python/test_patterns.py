"""JSON Schema ``pattern`` in Python: pydantic's ``Field(pattern=translated)`` on a
strict ``str`` gives the verdicts of the shared table (fixtures/vectors/patterns.json),
which the Rust runtime's pattern tests check for ``concord_runtime::pattern``."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Annotated, Any

import pydantic
import pytest

ROOT = Path(__file__).resolve().parents[2]
TABLE: list[dict[str, Any]] = json.loads((ROOT / "fixtures/vectors/patterns.json").read_text())["patterns"]
TRANSLATED = [entry for entry in TABLE if "translated" in entry]


def test_the_table_covers_translations_and_refusals() -> None:
    assert len(TRANSLATED) > 50
    assert len(TABLE) - len(TRANSLATED) > 40


@pytest.mark.parametrize("entry", TRANSLATED, ids=[entry["pattern"] for entry in TRANSLATED])
def test_pydantic_gives_the_ecma_verdicts(entry: dict[str, Any]) -> None:
    adapter: pydantic.TypeAdapter[str] = pydantic.TypeAdapter(
        Annotated[str, pydantic.Field(strict=True, pattern=entry["translated"])]
    )
    for text, expected in entry["cases"]:
        try:
            adapter.validate_python(text)
            verdict = True
        except pydantic.ValidationError as error:
            assert error.errors()[0]["type"] == "string_pattern_mismatch", error
            verdict = False
        assert verdict == expected, (entry["pattern"], text)


@pytest.mark.parametrize("entry", [entry for entry in TRANSLATED if entry["python_re"]])
def test_python_re_agrees_where_the_semantics_coincide(entry: dict[str, Any]) -> None:
    # A cross-check of the table's ECMA verdicts by an independent engine.
    pattern = re.compile(entry["pattern"], re.ASCII)
    for text, expected in entry["cases"]:
        assert (pattern.search(text) is not None) == expected, (entry["pattern"], text)


def test_pydantic_would_read_the_untranslated_pattern_differently() -> None:
    # Why translation is needed: pydantic-core's engine (the regex crate) is Unicode-aware.
    raw: pydantic.TypeAdapter[str] = pydantic.TypeAdapter(Annotated[str, pydantic.Field(strict=True, pattern=r"^\d$")])
    raw.validate_python("\u0663")
    translated = next(entry["translated"] for entry in TRANSLATED if entry["pattern"] == r"^\D$")
    assert translated == "^[^0-9]$"
