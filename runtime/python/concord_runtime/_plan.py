"""What the compiled core (``_core.RecordType``) needs to know to read a record type's
models straight from JSON bytes and write them back, taken from pydantic's own core
schema of the type: its fields, aliases, defaults, unknown-key policies, unions, checks.

``Model.from_json`` reads each input once this way, the way pydantic-core builds
models in Rust, instead of checking the bytes and then having pydantic parse them
again; ``to_json`` and ``digest`` write the models in one pass, instead of having
pydantic write them and then passing over its bytes (docs/python-runtime.md). The
core does only what pydantic does: on any refusal, and for a type holding a construct
this module does not know, the caller takes pydantic's own path, which names the
problem. ``tests/python/test_one_pass.py`` holds the two paths to the same models and
bytes; the round-trip harness asks the same of every fixture and fuzzed input.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from concord_runtime import _core

__all__ = ["Unsupported", "difference", "record_type_of"]


class Unsupported(Exception):
    """A construct the one-pass reader does not build: the type keeps pydantic's path."""


# Keys of a core schema node that change nothing a reader builds.
_INERT = frozenset({"type", "metadata", "ref", "serialization", "strict"})
_IMMUTABLE = (type(None), bool, int, float, str)
_SCALARS = frozenset({"str", "int", "float", "bool", "literal"})


class _Compiler:
    """Turns a core schema into the reader's node table: a list of tuples, each naming
    other nodes by their index (a definition's node is reserved first, so that a
    recursive type refers to itself)."""

    def __init__(self, refuse_null: Callable[[Any], Any], marked: Callable[[Any], Any]) -> None:
        self.nodes: list[tuple[Any, ...] | None] = []
        self.definitions: dict[str, Mapping[str, Any]] = {}
        self.compiled: dict[str, int] = {}
        self.refuse_null = refuse_null
        self.marked = marked
        # Whether every node serializes by its type alone (no serializer of the user's).
        self.writable = True

    def add(self, node: tuple[Any, ...]) -> int:
        self.nodes.append(node)
        return len(self.nodes) - 1

    def only(self, schema: Mapping[str, Any], *allowed: str) -> None:
        if "serialization" in schema:
            self.writable = False
        extra = schema.keys() - _INERT - set(allowed)
        if extra:
            raise Unsupported(f"{schema['type']} with {sorted(extra)}")
        if schema.get("strict") is False and schema["type"] in _SCALARS:
            # Lax reading (a string read as a number...): not what concord's types say.
            raise Unsupported(f"a lax {schema['type']}")

    def node(self, schema: Mapping[str, Any]) -> int:
        ref = schema.get("ref")
        if ref is not None and schema["type"] != "definition-ref":
            if ref in self.compiled:
                return self.compiled[ref]
            at = self.add(None)  # type: ignore[arg-type]
            self.compiled[ref] = at
            node = self.build(schema)
            self.nodes[at] = node
            return at
        return self.add(self.build(schema))

    def build(self, schema: Mapping[str, Any]) -> tuple[Any, ...]:
        kind = schema["type"]
        if kind == "definitions":
            self.only(schema, "definitions", "schema")
            for definition in schema["definitions"]:
                self.definitions[definition["ref"]] = definition
            return ("alias", self.node(schema["schema"]))
        if kind == "definition-ref":
            self.only(schema, "schema_ref")
            ref = schema["schema_ref"]
            if ref not in self.compiled:
                self.node(self.definitions[ref])
            return ("alias", self.compiled[ref])
        if kind == "any":
            self.only(schema)
            return ("any",)
        if kind == "str":
            # A pattern is matched by the regex crate, pydantic-core's own engine, as it matches.
            self.only(schema, "min_length", "max_length", "pattern")
            return ("str", schema.get("min_length"), schema.get("max_length"), schema.get("pattern"))
        if kind == "int":
            self.only(schema, "ge", "le", "gt", "lt", "multiple_of")
            low = max(schema.get("ge", -(2**63)), schema.get("gt", -(2**63) - 1) + 1)
            high = min(schema.get("le", 2**63 - 1), schema.get("lt", 2**63) - 1)
            multiple = schema.get("multiple_of")
            if multiple is not None and not 0 < multiple < 2**63:
                raise Unsupported("an integer multiple_of out of range")
            return ("int", max(low, -(2**63)), min(high, 2**63 - 1), multiple)
        if kind == "float":
            self.only(schema, "allow_inf_nan", "ge", "le", "gt", "lt")
            if schema.get("allow_inf_nan", False):
                raise Unsupported("float allowing NaN")
            return ("float", *(None if schema.get(k) is None else float(schema[k]) for k in ("ge", "le", "gt", "lt")))
        if kind == "bool":
            self.only(schema)
            return ("bool",)
        if kind == "none":
            self.only(schema)
            return ("none",)
        if kind == "literal":
            self.only(schema, "expected")
            if not all(type(value) is str for value in schema["expected"]):
                raise Unsupported("literal of non-strings")
            return ("literal", list(schema["expected"]))
        if kind == "nullable":
            self.only(schema, "schema")
            return ("nullable", self.node(schema["schema"]))
        if kind == "default":
            # A field's default: the model node reads it from here.
            self.only(schema, "schema", "default")
            if type(schema["default"]) not in _IMMUTABLE:
                raise Unsupported("a default pydantic copies")
            return ("alias", self.node(schema["schema"]))
        if kind == "tuple":
            self.only(schema, "items_schema")
            return ("tuple", [self.node(item) for item in schema["items_schema"]])
        if kind == "list":
            self.only(schema, "items_schema", "min_length", "max_length")
            items = self.node(schema.get("items_schema", {"type": "any"}))
            return ("list", items, schema.get("min_length"), schema.get("max_length"))
        if kind == "dict":
            self.only(schema, "keys_schema", "values_schema", "min_length", "max_length")
            keys = schema.get("keys_schema", {"type": "any"})
            if keys.get("type") not in ("str", "any") or keys.keys() - _INERT:
                raise Unsupported("dict keys with constraints")
            values = self.node(schema.get("values_schema", {"type": "any"}))
            return ("dict", values, schema.get("min_length"), schema.get("max_length"))
        if kind == "function-before":
            self.only(schema, "function", "schema", "json_schema_input_schema")
            function = schema["function"]
            if function["type"] == "no-info" and function["function"] is self.refuse_null:
                return ("not_null", self.node(schema["schema"]))
            raise Unsupported("a before validator")
        if kind == "function-wrap":
            self.only(schema, "function", "schema", "json_schema_input_schema")
            function = schema["function"]["function"]
            if not hasattr(function, "concord_properties"):
                raise Unsupported("a wrap validator")
            minimum, maximum = function.concord_properties
            return ("count", minimum, maximum, self.node(schema["schema"]))
        if kind == "function-after":
            self.only(schema, "function", "schema", "json_schema_input_schema")
            function = schema["function"]
            if function["type"] != "no-info":
                raise Unsupported("an after validator with info")
            return ("after", function["function"], self.node(schema["schema"]))
        if kind == "tagged-union":
            self.only(
                schema, "choices", "discriminator", "custom_error_type", "custom_error_message", "from_attributes"
            )
            how = self.marked(schema["discriminator"])
            if how is None:
                raise Unsupported("a discriminator not concord's")
            choices = {key: self.node(choice) for key, choice in schema["choices"].items()}
            return (how[0], how[1], list(choices.items()))
        if kind == "model":
            return self.model(schema)
        raise Unsupported(kind)

    def model(self, schema: Mapping[str, Any]) -> tuple[Any, ...]:
        self.only(schema, "cls", "schema", "config", "custom_init", "root_model", "post_init", "generic_origin")
        if schema.get("custom_init") or schema.get("post_init"):
            raise Unsupported("a model with its own __init__ or post-init")
        if schema.get("config", {}).get("strict") is not True:
            raise Unsupported("a model that is not strict")
        cls = schema["cls"]
        inner = schema["schema"]
        version = None
        # A versioned envelope's check (concord_runtime.checks.version_check) stands around the
        # fields; the reader applies it from its mark. (A "wrap" or "after" model validator,
        # such as the property count, stands around the model: a node of its own.)
        if inner["type"] == "function-before":
            self.only(inner, "function", "schema", "json_schema_input_schema")
            function = inner["function"]["function"]
            if not hasattr(function, "concord_version"):
                raise Unsupported("a before model validator")
            field, supported = function.concord_version
            version = (field, list(supported))
            inner = inner["schema"]
        if schema.get("root_model"):
            return ("root", cls, self.node(inner))
        if inner["type"] != "model-fields":
            raise Unsupported(f"a model around {inner['type']}")
        self.only(
            inner, "fields", "model_name", "computed_fields", "extra_behavior", "extras_schema", "extras_keys_schema"
        )
        if inner.get("computed_fields"):
            self.writable = False
        if inner.get("extras_keys_schema") is not None:
            raise Unsupported("unknown keys with a key schema")
        extras = None if inner.get("extras_schema") is None else self.node(inner["extras_schema"])
        extra = inner.get("extra_behavior") or schema.get("config", {}).get("extra_fields_behavior", "ignore")
        fields = []
        for name, field in inner["fields"].items():
            self.only(field, "schema", "validation_alias", "serialization_alias", "serialization_exclude", "frozen")
            if field.get("serialization_exclude"):
                self.writable = False
            key = field.get("validation_alias", name)
            if not isinstance(key, str):
                raise Unsupported("an alias path")
            value = field["schema"]
            has_default = value["type"] == "default"
            written = field.get("serialization_alias", name)
            fields.append((name, key, self.node(value), has_default, value.get("default"), written))
        return ("model", cls, fields, extra, version, extras)


def record_type_of(cls: type, refuse_null: Callable[[Any], Any]) -> _core.RecordType:
    """The core's reader and writer of a generated record type; raises :class:`Unsupported`."""
    compiler = _Compiler(refuse_null, _discriminator)
    try:
        root = compiler.node(cls.__pydantic_core_schema__)  # type: ignore[attr-defined]
    except RecursionError:
        # A chain of nested types deeper than Python's stack (a thousand, cli/tests/python_emission.rs).
        raise Unsupported("types nested deeper than the compiler's recursion") from None
    try:
        return _core.RecordType(compiler.nodes, root, compiler.writable)
    except ValueError as error:  # a pattern the regex crate does not compile
        raise Unsupported(str(error)) from None


def _discriminator(function: Any) -> tuple[str, Any] | None:
    """How a concord union picks its branch (``unions.tag``, ``unions.json_type``), from the marks they leave."""
    tag = getattr(function, "concord_tag", None)
    if tag is not None:
        return ("tag", tag)
    if getattr(function, "concord_json_type", None) is not None:
        return ("json_type", None)
    return None


def difference(found: Any, expected: Any, at: str = "") -> str | None:
    """The first place where two records read from the same bytes differ: a value's type or
    value, a key's order, a model's fields set, kept unknown keys or private state."""
    if type(found) is not type(expected):
        return f"at {at or '/'}: {type(found).__name__} against {type(expected).__name__}"
    if hasattr(expected, "__pydantic_fields_set__"):
        for part in ("__pydantic_fields_set__", "__pydantic_extra__", "__pydantic_private__"):
            mine, theirs = getattr(found, part, None), getattr(expected, part, None)
            if mine != theirs:
                return f"at {at or '/'}: {part} {mine!r} against {theirs!r}"
        extra = getattr(expected, "__pydantic_extra__", None) or {}
        found_extra = getattr(found, "__pydantic_extra__", None) or {}
        if list(extra) != list(found_extra):
            return f"at {at or '/'}: unknown keys in the order {list(found_extra)} against {list(extra)}"
        return difference(found.__dict__, expected.__dict__, at)
    if isinstance(expected, dict):
        if list(found) != list(expected):
            return f"at {at or '/'}: keys {list(found)} against {list(expected)}"
        for key, value in expected.items():
            problem = difference(found[key], value, f"{at}/{key}")
            if problem:
                return problem
        return None
    if isinstance(expected, list):
        if len(found) != len(expected):
            return f"at {at or '/'}: {len(found)} items against {len(expected)}"
        for index, (item, value) in enumerate(zip(found, expected, strict=True)):
            problem = difference(item, value, f"{at}/{index}")
            if problem:
                return problem
        return None
    if found != expected or repr(found) != repr(expected):
        return f"at {at or '/'}: {found!r} against {expected!r}"
    return None
