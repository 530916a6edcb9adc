"""Assertions the generated models make beside pydantic's own constraints, with
the rule and the message of the Rust runtime's ``concord_runtime::checks``.
Messages never repeat the refused value: records may hold private data."""

from collections.abc import Callable, Hashable
from fractions import Fraction
from typing import Any

import pydantic

__all__ = ["multiple_of", "properties", "unique_items"]


def multiple_of(divisor: str) -> Callable[[float], float]:
    """``multipleOf`` on a number, exactly: the float's shortest decimal form (``repr``,
    the digits Rust's writer gives too) divided by the schema's decimal text."""
    exact = Fraction(divisor)

    def check(value: float) -> float:
        if (Fraction(repr(value)) / exact).denominator != 1:
            raise ValueError(f"number not a multiple of {divisor}")
        return value

    return check


def _key(value: Any) -> Hashable:
    """A key equal for values JSON Schema calls equal: ``1`` and ``1.0`` alike,
    ``true`` and ``1`` not, objects whatever their key order."""
    if isinstance(value, pydantic.BaseModel):
        value = value.model_dump(mode="json", by_alias=True, exclude_unset=True)
    if isinstance(value, bool):
        return ("boolean", value)
    if isinstance(value, int | float):
        return ("number", value)
    if isinstance(value, str):
        return ("string", value)
    if value is None:
        return ("null",)
    if isinstance(value, list | tuple):
        return ("array", tuple(_key(item) for item in value))
    if isinstance(value, dict):
        return ("object", frozenset((key, _key(item)) for key, item in value.items()))
    return ("other", repr(value))


def unique_items(value: list[Any]) -> list[Any]:
    """``uniqueItems``: no two items equal as JSON values."""
    seen: dict[Hashable, int] = {}
    for index, item in enumerate(value):
        first = seen.setdefault(_key(item), index)
        if first != index:
            raise ValueError(f"array items {first} and {index} are equal")
    return value


def properties(data: Any, minimum: int | None, maximum: int | None) -> Any:
    """``minProperties``/``maxProperties`` of an object type, counting every key read."""
    if isinstance(data, dict):
        if minimum is not None and len(data) < minimum:
            raise ValueError(f"object with fewer than {minimum} properties")
        if maximum is not None and len(data) > maximum:
            raise ValueError(f"object with more than {maximum} properties")
    return data
