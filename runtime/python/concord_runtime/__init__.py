"""Runtime support for the pydantic models that concord generates.

Every generated model subclasses :class:`Model`: read a record with
``Model.from_json(data)`` and write it with ``record.to_json()``, which gives
the exact bytes the Rust bindings write for the same record.
"""

try:
    from concord_runtime import _core  # noqa: F401
except ImportError as error:  # a broken install, named plainly
    raise ImportError(
        "concord_runtime's compiled core (concord_runtime._core) is missing: install the wheel "
        "(`pip install concord-runtime`), or from a checkout `pip install ./runtime/python`, which needs cargo"
    ) from error
from concord_runtime import batch, checks, unions
from concord_runtime._json import RecordError, VersionError, dumps
from concord_runtime._model import Int64, Model, NotNull, OpenEnum, RootModel
from concord_runtime.canonical import CanonicalError
from concord_runtime.pinned import Note, PinnedDocument, PinnedSchema, Refusal
from concord_runtime.strict import JsonError

__version__ = "0.1.0"
"""This runtime's version: the same as the concord that writes bindings for it."""

_SERVES = ("0.1.0",)
"""The concord versions whose bindings this runtime runs: its own release series, up to itself."""


def bindings_for(version: str) -> None:
    """What a generated package runs first: bindings written by concord `version`.

    Bindings this runtime does not serve are refused here, on import, saying which versions go together, rather
    than somewhere in the middle of building their classes.
    """
    if version not in _SERVES:
        served = ", ".join(_SERVES)
        raise ImportError(
            f"these bindings were written by concord {version}, and this concord_runtime ({__version__}) serves "
            f"bindings of concord {served} only: install concord-runtime=={version} with them, or regenerate them "
            f"with concord {__version__} (`concord generate`)"
        )


__all__ = [
    "CanonicalError",
    "Int64",
    "JsonError",
    "Model",
    "NotNull",
    "Note",
    "OpenEnum",
    "PinnedDocument",
    "PinnedSchema",
    "RecordError",
    "Refusal",
    "RootModel",
    "VersionError",
    "batch",
    "bindings_for",
    "checks",
    "dumps",
    "unions",
]
