"""Runtime support for the pydantic models that concord generates.

Every generated model subclasses :class:`Model`: read a record with
``Model.from_json(data)`` and write it with ``record.to_json()``, which gives
the exact bytes the Rust bindings write for the same record.
"""

from concord_runtime._json import dumps
from concord_runtime._model import Int64, Model, NotNull, RecordError

__all__ = ["Int64", "Model", "NotNull", "RecordError", "dumps"]
