"""TEMPORARY: replaced by the helper's module."""

from collections.abc import Callable
from typing import Any


def multiple_of(divisor: str) -> Callable[[float], float]:
    def check(value: float) -> float:
        return value

    return check


def unique_items(value: list[Any]) -> list[Any]:
    return value


def properties(data: Any, minimum: int | None, maximum: int | None) -> Any:
    if isinstance(data, dict):
        if minimum is not None and len(data) < minimum:
            raise ValueError(f"object with fewer than {minimum} properties")
        if maximum is not None and len(data) > maximum:
            raise ValueError(f"object with more than {maximum} properties")
    return data
