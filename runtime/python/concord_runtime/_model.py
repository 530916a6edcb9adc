"""The base model and the field types generated code names."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Self, TypeVar

import pydantic
from concord_runtime import canonical, strict
from concord_runtime._json import dumps, pointer_token

T = TypeVar("T")

Int64 = Annotated[int, pydantic.Field(strict=True, ge=-(2**63), le=2**63 - 1)]
"""A JSON integer that fits Rust's ``i64``: ``1.0``, ``"7"`` and ``true`` are refused."""


def _refuse_null(value: Any) -> Any:
    if value is None:
        raise ValueError("null is not allowed here: the property may be absent, but its type is not nullable")
    return value


NotNull = Annotated[T | None, pydantic.BeforeValidator(_refuse_null)]
"""An optional property whose type is not nullable: absent gives ``None``, an explicit ``null`` is refused."""


class RecordError(ValueError):
    """A record was refused: ``pointer`` is the JSON pointer of the refused value."""

    def __init__(self, pointer: str, message: str) -> None:
        super().__init__(f'at "{pointer}": {message}')
        self.pointer = pointer
        self.message = message


def _pointer(location: tuple[int | str, ...]) -> str:
    return "".join("/" + pointer_token(part) for part in location)


class Model(pydantic.BaseModel):
    """Base of every generated model: strict reading, exact writing."""

    model_config = pydantic.ConfigDict(strict=True, allow_inf_nan=False, use_attribute_docstrings=True)

    NAME: ClassVar[str]
    SCHEMA_DIGEST: ClassVar[str]

    @pydantic.model_validator(mode="wrap")
    @classmethod
    def _set_only_what_was_read(cls, data: Any, handler: pydantic.ModelWrapValidatorHandler[Self]) -> Self:
        """Where a kept unknown key is spelled like a field's Python name (``foo_bar``
        beside the property ``fooBar``), pydantic also marks that field as set, and
        ``exclude_unset`` would then write it as null. Unmark it: a field is set only
        when its own JSON name was read."""
        model = handler(data)
        extra = model.__pydantic_extra__
        if extra and isinstance(data, dict):
            fields = type(model).model_fields
            for name in model.__pydantic_fields_set__ & extra.keys():
                field = fields.get(name)
                if field is not None and (field.alias or name) not in data:
                    model.__pydantic_fields_set__.discard(name)
        return model

    @classmethod
    def from_json(cls, data: bytes | str, *, max_bytes: int = strict.DEFAULT_MAX_BYTES) -> Self:
        """Reads a record under the strict profile (raises :class:`concord_runtime.JsonError`)
        and refuses anything its schema refuses (raises :class:`RecordError`)."""
        if isinstance(data, str):
            data = data.encode("utf-8", "surrogatepass")
        value = strict.read(data, max_bytes=max_bytes)
        try:
            return cls.model_validate(value)
        except pydantic.ValidationError as error:
            first = error.errors(include_url=False)[0]
            raise RecordError(_pointer(tuple(first["loc"])), first["msg"]) from None

    def to_json(self) -> bytes:
        """Writes compact JSON: declared properties in schema order, then kept unknown keys as read."""
        return dumps(self._plain()).encode()

    def digest(self) -> str:
        """``sha256:<hex>`` over the record's canonical JSON (``jcs-rfc8785-integer-v1``);
        a record holding a float has none (raises :class:`concord_runtime.CanonicalError`)."""
        return canonical.digest(self._plain())

    def _plain(self) -> Any:
        return self.model_dump(mode="python", by_alias=True, exclude_unset=True)
