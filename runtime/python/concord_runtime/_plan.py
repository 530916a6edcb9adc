"""The plan of a generated module (``_PLAN``: the JSON that ``concord_codegen::plan`` writes
from the model, docs/architecture.md), given to the compiled core (``_core.RecordType``),
which reads a record type's models straight from JSON bytes and writes them back in one
pass, the way pydantic-core builds models in Rust.

``Model.from_json`` reads each input once this way, instead of checking the bytes and then
having pydantic parse them again; ``to_json`` and ``digest`` write the models in one pass
(docs/python-runtime.md). The core does only what pydantic does: on any refusal, the caller
takes pydantic's own path, which names the problem. ``tests/python/test_one_pass.py`` holds
the two paths to the same models and bytes; the round-trip harness asks the same of every
fixture and fuzzed input.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Mapping
from typing import Any

from concord_runtime import _core

__all__ = ["difference", "record_type_of"]

# Each generated module's plan, read once: by the module's full name.
_PLANS: dict[str, tuple[_core.Plan, Mapping[str, Any]]] = {}


def _module_plan(name: str) -> tuple[_core.Plan, Mapping[str, Any]]:
    found = _PLANS.get(name)
    if found is None:
        module = sys.modules.get(name) or importlib.import_module(name)
        found = _PLANS[name] = (_core.Plan(module.__dict__["_PLAN"]), module.__dict__)
    return found


def record_type_of(cls: type) -> _core.RecordType | None:
    """The core's reader and writer of a generated record type, from its module's plan; None
    for a class no generated module defines (a subclass of the user's), which pydantic reads."""
    package, _, module = cls.__module__.rpartition(".")
    namespace = getattr(sys.modules.get(cls.__module__), "__dict__", {})
    if "_PLAN" not in namespace or namespace.get(cls.__name__) is not cls:
        return None
    return _core.RecordType(module, cls.__name__, lambda name: _module_plan(f"{package}.{name}"))


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
