"""Validators that generated models attach where a type cannot express a JSON
Schema assertion (``Annotated[float, AfterValidator(multiple_of("0.5"))]``).

Each runs the Rust runtime's check (``concord_runtime::checks``, through the
compiled core) and refuses with its message, which names the keyword and never
repeats the refused value; the error pydantic reports carries that message
unchanged (``PydanticCustomError``, whose type is the keyword), so a refusal
reads the same in both languages. Values are JSON values: the items of a list
and a ``const``/``enum`` operand are compared under JSON Schema equality
(``1 == 1.0``, ``True != 1``, objects whatever their key order).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import pydantic
from concord_runtime import _core
from pydantic_core import PydanticCustomError

Number = TypeVar("Number", int, float)
Items = TypeVar("Items", bound=Sequence[Any])
Value = TypeVar("Value")
Record = TypeVar("Record")


def _validator(keyword: str, check: Callable[[Any], None]) -> Callable[[Value], Value]:
    """A pydantic validator running `check`, its ValueError shown as it is (no context: braces too)."""

    def validate(value: Value) -> Value:
        try:
            check(value)
        except ValueError as error:
            raise PydanticCustomError(keyword, str(error)) from None
        return value

    return validate


def multiple_of(divisor: str) -> Callable[[Number], Number]:
    """``multipleOf``: exact on the value's shortest decimal (``0.3`` is a multiple of ``0.1``)."""
    return _validator("multipleOf", _core.Divisor(divisor).check)


def unique_items(items: Items) -> Items:
    """``uniqueItems: true``."""
    return _validator("uniqueItems", _core.check_unique_items)(items)


def typed_id(prefix: str) -> Callable[[str], str]:
    """``"x-typed-id": prefix``: ``<prefix>_<lowercase canonical UUIDv7>``."""
    return _validator("x-typed-id", lambda value: _core.check_typed_id(value, prefix))


def const_value(json_text: str) -> Callable[[Value], Value]:
    """``const`` of any JSON value, given as JSON text."""
    return _validator("const", _core.Constant(json_text).check)


def one_of_values(json_text: str) -> Callable[[Value], Value]:
    """``enum`` of any JSON values, given as the JSON text of the array."""
    return _validator("enum", _core.Choices(json_text).check)


def version(data: Any, field: str, supported: tuple[int, ...], name: str) -> Any:
    """A versioned envelope's version (``x-version-field``), checked before anything else: a
    ``model_validator(mode="before")``. A version missing or not an integer is left to the
    field's own check, as in Rust."""
    if isinstance(data, dict):
        found = data.get(field)
        if type(found) is int and found not in supported:
            listed = ", ".join(str(each) for each in supported)
            message = f"unsupported version {found} of {name}: supported {listed}"
            raise PydanticCustomError("unsupported_version", message, {"field": field})
    return data


def version_check(field: str, supported: tuple[int, ...], name: str) -> Any:
    """A versioned envelope's model validator: :func:`version`, before anything else."""

    def check(cls: type, data: Any) -> Any:
        return version(data, field, supported, name)

    # pydantic makes it a classmethod, by its first parameter's name.
    return pydantic.model_validator(mode="before")(check)


def _count(data: Any, minimum: int | None, maximum: int | None) -> None:
    if isinstance(data, dict):
        if minimum is not None and len(data) < minimum:
            raise PydanticCustomError("minProperties", f"object with fewer than {minimum} properties")
        if maximum is not None and len(data) > maximum:
            raise PydanticCustomError("maxProperties", f"object with more than {maximum} properties")


def properties(data: Any, handler: Callable[[Any], Record], minimum: int | None, maximum: int | None) -> Record:
    """``minProperties``/``maxProperties`` of an object type, counting every key of the input
    (dropped ones too): a ``model_validator(mode="wrap")`` around the read, so that the count is
    refused where Rust refuses it, after a refusal at one of the keys (an unknown key at a
    closed type, a value of the wrong type) and before a missing property's."""
    try:
        record = handler(data)
    except pydantic.ValidationError as error:
        if all(problem["type"] == "missing" for problem in error.errors()):
            _count(data, minimum, maximum)
        raise
    _count(data, minimum, maximum)
    return record


def property_count(minimum: int | None, maximum: int | None) -> Any:
    """An object type's model validator for ``minProperties``/``maxProperties``: :func:`properties`
    around the read."""

    def check(cls: type, data: Any, handler: Callable[[Any], Record]) -> Record:
        return properties(data, handler, minimum, maximum)

    return pydantic.model_validator(mode="wrap")(check)


@functools.cache
def _patterns(translated: tuple[str, ...]) -> _core.Patterns:
    return _core.Patterns(list(translated))


def keep_matching(record: Record, patterns: tuple[str, ...]) -> Record:
    """An object's unknown keys beside ``patternProperties`` at the default policy: a key one of
    ``patterns`` (translated for the ``regex`` crate, as Rust's bindings match them) matches is
    data, and kept in its place; any other is dropped, as at every default-policy type."""
    extra: dict[str, Any] | None = getattr(record, "__pydantic_extra__", None)
    if extra:
        matcher = _patterns(patterns)
        unmatched = [key for key in extra if not matcher.any_match(key)]
        fields = type(record).model_fields  # type: ignore[attr-defined]
        for key in unmatched:
            del extra[key]
            # Dropped, so not set either (as where the one-pass reader drops it).
            if key not in fields:
                record.__pydantic_fields_set__.discard(key)  # type: ignore[attr-defined]
    return record
