"""How a generated union picks its branch, as the Rust bindings do (``bind::tag``,
``bind::json_type``): by the value of its tag property, or by its JSON type, never
by trying branches in turn. Used as ``pydantic.Discriminator(...)``; each branch's
``pydantic.Tag`` starts with :data:`MARK`, which ``RecordError`` pointers leave out."""

from collections.abc import Callable
from typing import Any

import pydantic

__all__ = ["MARK", "json_type", "tag"]

MARK = "\x01branch:"
"""Starts every branch tag: a refusal's location drops the segments that start with it
(unless the input holds such a key there: a mark no real key is likely to start with)."""


def tag(field: str, keys: tuple[str, ...]) -> Callable[[Any], str | None]:
    """The branch named by the string value of the property ``field``."""

    def discriminate(value: Any) -> str | None:
        if isinstance(value, dict):
            found = value.get(field)
        elif isinstance(value, pydantic.BaseModel):
            # Built in Python: the branch model holds the tag under its Python name.
            names = [name for name, info in type(value).model_fields.items() if (info.alias or name) == field]
            found = getattr(value, names[0], None) if names else None
        else:
            return None
        return MARK + found if isinstance(found, str) and found in keys else None

    return discriminate


def json_type(keys: tuple[str, ...]) -> Callable[[Any], str | None]:
    """The branch of the value's JSON type; an integer goes to ``number`` when there is no ``integer``."""

    def discriminate(value: Any) -> str | None:
        if value is None:
            name = "null"
        elif isinstance(value, bool):
            name = "boolean"
        elif isinstance(value, int):
            name = "integer" if "integer" in keys else "number"
        elif isinstance(value, float):
            name = "number"
        elif isinstance(value, str):
            name = "string"
        elif isinstance(value, list | tuple):
            name = "array"
        elif isinstance(value, dict | pydantic.BaseModel):
            name = "object"
        else:
            return None
        return MARK + name if name in keys else None

    return discriminate
