"""concord_runtime.checks and the core's JSON Schema assertions: the Rust
runtime's verdicts and messages (runtime/rust/src/checks.rs) seen from Python,
on pydantic models as generated code attaches them, and on the official
JSON-Schema-Test-Suite's const, enum, uniqueItems and multipleOf groups."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import pydantic
import pytest
from concord_runtime import _core, checks

ROOT = Path(__file__).resolve().parents[2]
SUITE = ROOT / "fixtures/vectors/json-schema-test-suite/tests/draft2020-12"
RUN_ID = "run_0190b7a2-5c1e-7d3f-8a2b-0123456789ab"


class Checked(pydantic.BaseModel):
    ratio: Annotated[float, pydantic.AfterValidator(checks.multiple_of("0.1"))] = 0.0
    count: Annotated[int, pydantic.AfterValidator(checks.multiple_of("1.5"))] = 0
    tags: Annotated[list[Any], pydantic.AfterValidator(checks.unique_items)] = []
    run: Annotated[str, pydantic.AfterValidator(checks.typed_id("run"))] = RUN_ID
    fixed: Annotated[Any, pydantic.AfterValidator(checks.const_value('{"a": [1, null]}'))] = None
    choice: Annotated[Any, pydantic.AfterValidator(checks.one_of_values('[1, "a", [true]]'))] = 1


def refusal(**fields: Any) -> tuple[str, str, str]:
    with pytest.raises(pydantic.ValidationError) as caught:
        Checked.model_validate(fields)
    error = caught.value.errors()[0]
    return error["type"], error["msg"], str(error["loc"][0])


def test_valid_values_pass_through_unchanged() -> None:
    record = Checked.model_validate(
        {"ratio": 0.3, "count": 9, "tags": [1, True, "1"], "fixed": {"a": [1.0, None]}, "choice": [True]}
    )
    assert (record.ratio, record.count, record.tags, record.fixed) == (0.3, 9, [1, True, "1"], {"a": [1.0, None]})
    Checked.model_validate({"fixed": {"a": [1, None]}, "choice": "a"})


def test_refusals_carry_the_rust_message_not_the_value() -> None:
    assert refusal(ratio=0.35) == ("multipleOf", "not a multiple of 0.1 (multipleOf)", "ratio")
    assert refusal(count=4) == ("multipleOf", "not a multiple of 1.5 (multipleOf)", "count")
    assert refusal(tags=["secret", 1, 1.0]) == ("uniqueItems", "items 1 and 2 are equal (uniqueItems)", "tags")
    assert refusal(run="secret") == ("x-typed-id", "not a run_ id with a lowercase UUIDv7 (x-typed-id)", "run")
    assert refusal(run=RUN_ID.upper()) == ("x-typed-id", "not a run_ id with a lowercase UUIDv7 (x-typed-id)", "run")
    assert refusal(fixed={"a": [True, None]}) == ("const", "not the value const requires (const)", "fixed")
    assert refusal(choice=True) == ("enum", "not one of the values enum allows (enum)", "choice")
    assert refusal(choice=[1]) == ("enum", "not one of the values enum allows (enum)", "choice")


def test_the_core_functions() -> None:
    assert _core.multiple_of(0.3, "0.1") and not _core.multiple_of(0.35, "0.1")
    assert _core.first_duplicate([{"a": 1, "b": 2}, 0, {"b": 2.0, "a": 1}]) == (0, 2)
    assert _core.first_duplicate([0, False, None, "", [], {}]) is None
    assert _core.first_duplicate([i + 0.5 for i in range(1000)] + [500.5]) == (500, 1000)
    assert _core.json_equal({"a": [1, 2.0]}, {"a": [1.0, 2]}) and not _core.json_equal(True, 1)
    assert not _core.json_equal(0, False) and not _core.json_equal([0], [False])
    assert _core.typed_id(RUN_ID, "run") and not _core.typed_id(RUN_ID, "job")
    for bad in ["0", "-1", "1e", "abc", "1.00000000000000000001"]:
        with pytest.raises(ValueError, match="multipleOf"):
            _core.Divisor(bad)
    with pytest.raises(TypeError):
        _core.Divisor("2").check(True)
    with pytest.raises(ValueError, match="beyond 64 bits"):
        _core.json_equal(2**64, 1)
    with pytest.raises(ValueError, match="non-finite"):
        _core.json_equal(float("nan"), 1)
    with pytest.raises(TypeError, match="not a JSON value: set"):
        _core.json_equal({1}, 1)
    with pytest.raises(TypeError, match="key that is not a str"):
        _core.json_equal({1: 2}, 1)
    cyclic: list[Any] = []
    cyclic.append(cyclic)
    with pytest.raises(ValueError, match="nesting deeper than 64"):
        _core.json_equal(cyclic, 1)


def suite(name: str) -> list[dict[str, Any]]:
    path = SUITE / name
    groups: list[dict[str, Any]] = json.loads(path.read_text())
    return groups


@pytest.mark.parametrize("name", ["const.json", "enum.json", "uniqueItems.json"])
def test_the_suite_equality_groups(name: str) -> None:
    checked = 0
    for group in suite(name):
        schema = group["schema"]
        if set(schema) - {"$schema", "$comment", "const", "enum", "uniqueItems"}:
            continue
        for test in group["tests"]:
            data = test["data"]
            if "const" in schema:
                verdict = _core.json_equal(data, schema["const"])
            elif "enum" in schema:
                verdict = any(_core.json_equal(data, value) for value in schema["enum"])
            else:
                verdict = not schema["uniqueItems"] or not isinstance(data, list) or _core.first_duplicate(data) is None
            assert verdict == test["valid"], (name, group["description"], data)
            checked += 1
    assert checked > 20


def test_the_suite_multiple_of_groups() -> None:
    for group in suite("multipleOf.json"):
        divisor = _core.Divisor(repr(group["schema"]["multipleOf"]))
        for test in group["tests"]:
            data = test["data"]
            if isinstance(data, str):
                continue
            if group["schema"].get("type") == "integer" and isinstance(data, float):
                assert not test["valid"] or data.is_integer()
                continue
            try:
                divisor.check(data)
                verdict = True
            except ValueError:
                verdict = False
            assert verdict == test["valid"], (group["description"], data)


def validator(document: str, pointer: str = "") -> _core.Validator:
    return _core.Validator([("https://registry.concord.invalid/test.json", document, None)], pointer)


@pytest.mark.parametrize(
    "name", ["not.json", "if-then-else.json", "contains.json", "dependentSchemas.json", "propertyNames.json"]
)
def test_the_suite_through_the_core_engine(name: str) -> None:
    # The same groups runtime/rust/src/engine/tests.rs runs through concord_runtime::engine.
    checked = 0
    for group in suite(name):
        engine = validator(json.dumps(group["schema"]))
        for test in group["tests"]:
            assert (not engine.notes(test["data"], 1)[0]) == test["valid"], (name, group["description"], test)
            checked += 1
    assert checked > 10


DOCUMENT = json.dumps({"$defs": {"Short": {"maxLength": 2}, "NotShort": {"not": {"$ref": "#/$defs/Short"}}}})


def test_the_core_engine_notes_name_the_place_never_the_value() -> None:
    short = validator(DOCUMENT, "/$defs/Short")
    notes, more = short.notes("a-secret", 3)
    assert (notes, more) == (
        [
            (
                "",
                "maxLength",
                "/$defs/Short/maxLength",
                "is longer than 2 characters",
                "(root): is longer than 2 characters",
            )
        ],
        False,
    )
    assert validator(DOCUMENT, "/$defs/NotShort").notes("ab", 3)[0][0][3] == "is valid under the schema in not"
    deep = validator(json.dumps({"items": {"maxLength": 1}}))
    notes, more = deep.notes(["a", "secret", "other", "more", "again"], 3)
    assert [note[0] for note in notes] == ["/1", "/2", "/3"] and more
    assert not any("secret" in part for note in notes for part in note)
    with pytest.raises(ValueError, match="no subschema"):
        validator(DOCUMENT, "/$defs/Missing")
    with pytest.raises(ValueError, match="does not fetch"):
        validator(json.dumps({"$ref": "https://example.com/remote.json"}))
    with pytest.raises(ValueError, match="beyond 64 bits"):
        deep.notes([2**64], 3)
