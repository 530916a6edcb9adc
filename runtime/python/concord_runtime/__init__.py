"""Runtime support for the pydantic models that concord generates.

Every generated model subclasses :class:`Model`: read a record with
``Model.from_json(data)`` and write it with ``record.to_json()``, which gives
the exact bytes the Rust bindings write for the same record.
"""

try:
    from concord_runtime import _core  # noqa: F401
except ImportError as error:  # a broken install, named plainly
    raise ImportError(
        "concord_runtime's compiled core (concord_runtime._core) is missing: install the package with "
        "`pip install ./runtime/python` (needs cargo), or run scripts/test, which builds it in place"
    ) from error
from concord_runtime import batch, checks, unions
from concord_runtime._json import RecordError, VersionError, dumps
from concord_runtime._model import Int64, Model, NotNull, OpenEnum, RootModel
from concord_runtime.canonical import CanonicalError
from concord_runtime.pinned import Note, PinnedDocument, PinnedSchema, Refusal
from concord_runtime.strict import JsonError

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
    "checks",
    "dumps",
    "unions",
]
