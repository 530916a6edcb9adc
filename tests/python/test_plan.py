"""The plan as the compiled core reads it, through the plan's one definition (``concord-plan``):
every module plan of the construct goldens reads, and a plan of another format, or with a key or a
kind the format does not define, is refused by name with the format, as the TypeScript runtime
refuses it (``runtime/typescript/test/plan.test.ts``)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from concord_runtime import _core

ROOT = Path(__file__).resolve().parents[2]
GOLDEN: dict[str, Any] = json.loads((ROOT / "fixtures/constructs/expected/plan.json").read_text())


def test_every_golden_plan_reads() -> None:
    for plan in GOLDEN.values():
        _core.Plan(json.dumps(plan))
    assert len(GOLDEN) > 25


def test_a_plan_of_another_format_is_refused_naming_both() -> None:
    plan = dict(GOLDEN["bounds"], plan=2)
    with pytest.raises(ValueError, match="a plan of format 2; this reads format 1"):
        _core.Plan(json.dumps(plan))


@pytest.mark.parametrize(
    ("name", "path", "value"),
    [
        ("`comment`", ["comment"], "x"),
        ("`deprecated`", ["types", "Bounds", "deprecated"], True),
        ("`closed`", ["types", "Bounds", "object", "closed"], True),
        ("`default`", ["types", "Bounds", "object", "fields", 0, "default"], 1),
        ("`checked_twice`", ["types", "Bounds", "object", "fields", 0, "value"], {"checked_twice": "string"}),
        ("`decimal`", ["types", "Bounds", "object", "fields", 0, "value"], "decimal"),
        ("`open`", ["types", "Bounds", "object", "unknown_keys"], {"open": True}),
    ],
)
def test_a_key_or_kind_the_format_does_not_define_is_refused_by_name(name: str, path: list[Any], value: Any) -> None:
    plan = copy.deepcopy(GOLDEN["bounds"])
    place = plan
    for step in path[:-1]:
        place = place[step]
    place[path[-1]] = value
    with pytest.raises(ValueError, match="a plan of format 1 holds what it does not define") as refused:
        _core.Plan(json.dumps(plan))
    assert name in str(refused.value)
