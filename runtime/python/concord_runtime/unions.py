"""How a generated union picks its branch, as the Rust bindings do (``bind::tag``,
``bind::json_type``): by the value of its tag property, or by its JSON type, never
by trying branches in turn. Used as ``pydantic.Discriminator(...)``; each branch's
``pydantic.Tag`` is its key as the schema writes it (``"exit_code"``, ``"string"``).

pydantic puts that tag into a refusal's location (``("payload", "exit_code", "code")``),
where it can be read as a property of the same name: :func:`without_tags` leaves the
tags out by walking the location along the model's core schema, which knows where
each one stands, never by comparing words."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, cast

import pydantic

__all__ = ["json_type", "tag", "without_tags"]


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
        return found if isinstance(found, str) and found in keys else None

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
        return name if name in keys else None

    return discriminate


Location = tuple[int | str, ...]

# Schemas that hold one other and add nothing to a location.
_WRAPPERS = frozenset({"model", "default", "nullable", "function-before", "function-after", "function-wrap"})


class _Index:
    """What a core schema holds that a walk needs: its named definitions, and every
    union tag in it (a location with none of them has no tag to leave out)."""

    def __init__(self, schema: Mapping[str, Any]) -> None:
        self.schema = schema
        self.definitions: dict[str, Mapping[str, Any]] = {}
        tags: set[str] = set()
        seen: set[int] = set()
        stack: list[Any] = [schema]
        while stack:
            node = stack.pop()
            if id(node) in seen:
                continue
            seen.add(id(node))
            children = node.values() if isinstance(node, Mapping) else node
            if isinstance(node, Mapping) and isinstance(node.get("type"), str):
                if isinstance(node.get("ref"), str):
                    self.definitions[node["ref"]] = node
                if node["type"] == "tagged-union":
                    tags.update(key for key in node["choices"] if isinstance(key, str))
            stack.extend(child for child in children if isinstance(child, Mapping | list | tuple))
        self.tags = frozenset(tags)


_INDEXES: dict[int, _Index] = {}


def _index(schema: Mapping[str, Any]) -> _Index:
    index = _INDEXES.get(id(schema))
    if index is None or index.schema is not schema:
        index = _INDEXES[id(schema)] = _Index(schema)
    return index


def without_tags(schema: Mapping[str, Any], location: Location) -> Location:
    """A pydantic location under ``schema`` (a model's ``__pydantic_core_schema__``) with
    the tagged unions' tags left out: the path of the refused value in the input. A key
    spelled like a tag stays: only where the schema holds a tagged union is there a tag."""
    index = _index(schema)
    if index.tags.isdisjoint(location):
        return location
    kept: list[int | str] = []
    node: Mapping[str, Any] | None = schema
    for at, part in enumerate(location):
        node = _through(node, index.definitions)
        if node is None:
            return (*kept, *location[at:])
        if _is_tag(node, part):
            node = _choice(node, part)
            continue
        kept.append(part)
        node = _child(node, part)
    return tuple(kept)


def items_at_end(schema: Mapping[str, Any], location: Location) -> int:
    """How many of the last segments of a pydantic ``location`` under ``schema`` are
    an array's items or a map's values (a union's tag among them not counted): the
    value's place inside the nearest model field, kept key or root."""
    index = _index(schema)
    node: Mapping[str, Any] | None = schema
    items = 0
    for part in location:
        node = _through(node, index.definitions)
        if node is None:
            return items
        if _is_tag(node, part):
            node = _choice(node, part)
            continue
        items = items + 1 if node["type"] in ("list", "dict", "tuple") else 0
        node = _child(node, part)
    return items


def _is_tag(node: Mapping[str, Any], part: int | str) -> bool:
    return bool(node["type"] == "tagged-union" and part in node["choices"])


def _choice(node: Mapping[str, Any], tag: int | str) -> Mapping[str, Any] | None:
    """The branch of a tagged union ``node`` that ``tag`` picks."""
    choices = node["choices"]
    choice = choices[tag]
    # pydantic-core lets a tag stand for another's choice.
    while isinstance(choice, str):
        choice = choices.get(choice)
    return cast("Mapping[str, Any] | None", choice)


def _through(node: Mapping[str, Any] | None, definitions: Mapping[str, Mapping[str, Any]]) -> Mapping[str, Any] | None:
    """The schema that reads the next location segment: ``node`` through the schemas
    that add none."""
    while node is not None:
        kind = node["type"]
        if kind in _WRAPPERS or kind == "definitions":
            node = node["schema"]
        elif kind == "definition-ref":
            node = definitions.get(node["schema_ref"])
        else:
            return node
    return None


def _child(node: Mapping[str, Any], part: int | str) -> Mapping[str, Any] | None:
    """The schema of the value at ``part`` inside a value of ``node``; ``None`` where the
    walk ends (a scalar, an unknown key)."""
    kind = node["type"]
    if kind == "model-fields" and isinstance(part, str):
        # Locations name a field by its JSON name (the alias), never by its Python name.
        for name, field in node["fields"].items():
            if field.get("validation_alias", name) == part:
                child: Mapping[str, Any] = field["schema"]
                return child
        return node.get("extras_schema")
    if kind == "list" and isinstance(part, int):
        return node.get("items_schema")
    if kind == "dict" and isinstance(part, str):
        return node.get("values_schema")
    if kind == "tuple" and isinstance(part, int):
        items = node["items_schema"]
        return items[part] if 0 <= part < len(items) and node.get("variadic_item_index") is None else None
    return None
