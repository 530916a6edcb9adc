"""The base model and the field types generated code names.

pydantic evaluates the annotations of every base class again for each model it builds,
so the bases' own class variables are declared for type checkers only (``TYPE_CHECKING``)
and listed in pydantic's ``__class_vars__`` at the end of this module."""

import json
from collections.abc import Callable, Mapping
from typing import IO, TYPE_CHECKING, Any, ClassVar, Generic, Self, TypeAlias, TypeVar, cast

import pydantic
import pydantic_core
from concord_runtime import _core, _plan, batch, canonical, strict
from concord_runtime._json import MAX_SAFE_INTEGER, RecordError, VersionError, dumps, pointer_token
from concord_runtime.pinned import PinnedSchema
from concord_runtime.unions import items_at_end, without_tags

__all__ = ["Int64", "Model", "NotNull", "OpenEnum", "RecordError", "RootModel"]

T = TypeVar("T")
R = TypeVar("R", bound="_Record")


def _refuse_null(value: Any) -> Any:
    if value is None:
        raise ValueError("null is not allowed here: the property may be absent, but its type is not nullable")
    return value


class _Form:
    """What ``NotNull[X]`` and ``OpenEnum[X]`` are when a module runs: ``X``, given to pydantic
    with the core schema it stands for."""

    __slots__ = ("inner",)

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def __class_getitem__(cls, inner: Any) -> Any:
        # One object a form and inner object: a large registry names a few types in most
        # of its fields, and every object kept adds to each of the collector's passes over
        # what the import keeps (docs/performance.md). By identity, not equality: equal
        # types may differ in order (`Literal["a", "b"]`, `int | str`); the form keeps
        # its inner object alive, so its id names it.
        form = _FORMS.get((cls, id(inner)))
        if form is None:
            form = _FORMS[cls, id(inner)] = cls(inner)
        return form

    def __repr__(self) -> str:
        inner = self.inner
        named = inner.__qualname__ if isinstance(inner, type) else repr(inner)
        return f"concord_runtime.{type(self).__name__}[{named}]"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Form) and type(other) is type(self) and other.inner == self.inner

    def __hash__(self) -> int:
        return hash((type(self), self.inner))


_FORMS: dict[tuple[type[_Form], int], _Form] = {}


# The field types generated code names. Type checkers read the aliases; when a module runs,
# each is an object that gives pydantic its core schema directly. As `typing.Annotated`
# aliases, each use substituted a type variable into a new union that pydantic took apart
# again, and went through pydantic's handling of annotations: together more than a quarter
# of the time a large registry took to import (docs/performance.md).
if TYPE_CHECKING:
    Int64: TypeAlias = int
    """A JSON integer within ±(2^53-1), the range the strict profile reads and both
    languages write: ``1.0``, ``"7"`` and ``true`` are refused."""

    OpenEnum: TypeAlias = T | str
    """An open enum (``"x-open-enum": true``), as ``OpenEnum[Literal["a", "b"]]``: any JSON
    string, the known ones listed; the value is the ``str`` read, written back unchanged. A
    number, an object, an array or ``null`` is refused, as in Rust."""

    NotNull: TypeAlias = T | None
    """An optional property whose type is not nullable, as ``NotNull[int]``: absent gives
    ``None``, an explicit ``null`` is refused."""
else:

    class Int64:
        """A JSON integer within ±(2^53-1), the range the strict profile reads and both
        languages write: ``1.0``, ``"7"`` and ``true`` are refused."""

        def __new__(cls, value: Any = 0) -> Any:
            # As the `Annotated[int, ...]` alias it was: calling it makes an `int`.
            return int(value)

        @classmethod
        def __get_pydantic_core_schema__(
            cls, source: Any, handler: pydantic.GetCoreSchemaHandler
        ) -> pydantic_core.CoreSchema:
            return _int64()

    class OpenEnum(_Form):
        """An open enum (``"x-open-enum": true``), as ``OpenEnum[Literal["a", "b"]]``: any JSON
        string, the known ones listed; the value is the ``str`` read, written back unchanged."""

        def __get_pydantic_core_schema__(
            self, source: Any, handler: pydantic.GetCoreSchemaHandler
        ) -> pydantic_core.CoreSchema:
            # Not validated as the union it names: a refusal would point inside its
            # first member instead of at the value.
            return pydantic_core.core_schema.str_schema(strict=True)

    class NotNull(_Form):
        """An optional property whose type is not nullable, as ``NotNull[int]``: absent gives
        ``None``, an explicit ``null`` is refused."""

        def __get_pydantic_core_schema__(
            self, source: Any, handler: pydantic.GetCoreSchemaHandler
        ) -> pydantic_core.CoreSchema:
            # Where a `Model`'s field is not `NotNull[X]` itself (a plain pydantic model's,
            # a type adapter's): see `_not_null`.
            return _not_null(handler.generate_schema(self.inner))


def _int64(_: Any = None) -> pydantic_core.CoreSchema:
    """What pydantic makes of `Annotated[int, Field(strict=True, ge=-MAX, le=MAX)]`, written
    out as `int_schema` would (a new dict each time: pydantic may add to it)."""
    return {"type": "int", "le": MAX_SAFE_INTEGER, "ge": -MAX_SAFE_INTEGER, "strict": True}


def _not_null(schema: pydantic_core.CoreSchema) -> pydantic_core.CoreSchema:
    """What pydantic makes of `Annotated[X | None, BeforeValidator(_refuse_null)]` from the
    core schema of ``X``, written out: pydantic_core's helpers filter their arguments at
    every call."""
    return {"type": "function-before", "function": _REFUSE_NULL, "schema": {"type": "nullable", "schema": schema}}


# One for every field: pydantic only reads it, and each dict kept costs every pass of the
# collector over what the import keeps.
_REFUSE_NULL: Any = {"type": "no-info", "function": _refuse_null}


_NOT_NULL: Any = NotNull  # the forms themselves, not the aliases type checkers read
_INT64: Any = Int64


def _not_null_int64(_: Any) -> pydantic_core.CoreSchema:
    return _not_null(_int64())


def _plain_form(annotation: Any) -> tuple[Any, Callable[[Any], pydantic_core.CoreSchema]] | None:
    """What ``Model`` has pydantic build for a field annotated with a form of this module
    (``Int64``, ``NotNull[X]``), and what it makes of that schema; None for any other."""
    if annotation is _INT64:
        return int, _int64
    if type(annotation) is _NOT_NULL:
        return (int, _not_null_int64) if annotation.inner is _INT64 else (annotation.inner, _not_null)
    return None


def _build_with_plain_forms(
    cls: type[pydantic.BaseModel], source: type[pydantic.BaseModel], handler: pydantic.GetCoreSchemaHandler, /
) -> pydantic_core.CoreSchema:
    """The model's core schema, as pydantic builds it, but for the fields annotated
    ``Int64`` or ``NotNull[X]`` (``_plain_form``): pydantic builds each as plain ``int`` or
    ``X``, then the field's schema is made what the form gives, the same schema at a
    fraction of the cost. pydantic's protocol for a type that gives its own schema costs
    each such field a type reference, a definitions lookup and a handler, more than the
    schema itself (docs/performance.md). A field with a validator or a serializer of its
    class, or with constraints, keeps its form; so does every field where pydantic
    rebuilds the fields itself (``model_rebuild``), and a form inside another type
    (``list[Int64]``). Only a class that annotates a field with a form has it, until
    pydantic has built it: as another model's field, a built model is what pydantic has
    built, and pydantic's own path to it costs less."""
    # pydantic's own, not declared; where a release has none, the protocol builds the forms.
    complete: bool = getattr(cls, "__pydantic_fields_complete__", False)
    fields: dict[str, pydantic.fields.FieldInfo] | None = cls.__dict__.get("__pydantic_fields__") if complete else None
    if not fields or cls.__pydantic_complete__:
        return handler(source)  # built, or one pydantic builds from fields of its own
    decorators: Any = cls.__pydantic_decorators__
    decorated = {
        name
        for decorator in (*decorators.field_validators.values(), *decorators.field_serializers.values())
        for name in (fields if "*" in decorator.info.fields else decorator.info.fields)
    }
    forms: dict[str, tuple[Any, Callable[[Any], pydantic_core.CoreSchema]]] = {}
    for name, field in fields.items():
        plain = _plain_form(field.annotation)
        if plain is not None and not field.metadata and name not in decorated:
            forms[name] = (field.annotation, plain[1])
            field.annotation = plain[0]
    try:
        schema = handler(source)
    finally:
        for name, (form, _) in forms.items():
            fields[name].annotation = form
    if forms:
        model_fields: Any = schema
        while model_fields["type"] != "model-fields":
            model_fields = model_fields["schema"]  # the model, a model validator's wrapper
        for name, (_, made) in forms.items():
            field_schema = model_fields["fields"][name]
            holder = field_schema["schema"] if field_schema["schema"]["type"] == "default" else field_schema
            holder["schema"] = made(holder["schema"])
    return schema


_WITH_PLAIN_FORMS = classmethod(_build_with_plain_forms)


def _pointer(location: tuple[int | str, ...]) -> str:
    return "".join("/" + pointer_token(part) for part in location)


def _record_error(error: pydantic.ValidationError, data: bytes, schema: Mapping[str, Any]) -> RecordError:
    """The refusal the Rust bindings give: of several problems, the first in the
    input (serde stops at it), as pydantic lists them in schema order. ``schema`` is
    the record type's core schema: where a union's tag stands in a location."""
    errors = error.errors(include_url=False)
    locations = [without_tags(schema, tuple(each["loc"])) for each in errors]
    at = 0
    # Only several errors need the input.
    if len(errors) > 1:
        walked = json.loads(data)

        def order(n: int) -> tuple[list[int], list[int]]:
            # Two problems met at one place: the one deeper in the input first.
            checked = _checked_at(schema, errors[n], locations[n])
            return _input_order(checked, walked), _input_order(locations[n], walked)

        at = min(range(len(errors)), key=order)
    first, location = errors[at], locations[at]
    if first["type"] == "unsupported_version":
        # Raised by the envelope's model validator: at the version itself.
        return VersionError(_pointer((*location, first["ctx"]["field"])), first["msg"])
    return RecordError(_pointer(location), first["msg"])


_AFTER = 1 << 62

# A bound or a pattern on an array's items or a map's values (an inner array's
# length too): Rust reads the array or map whole, then checks them
# (`concord_runtime::bind::each`, `each_value`), so such a problem comes after
# every wrong type inside it.
_ITEM_CHECKS = frozenset(
    {
        "string_pattern_mismatch",
        "string_too_short",
        "string_too_long",
        "greater_than",
        "greater_than_equal",
        "less_than",
        "less_than_equal",
        "multiple_of",
        "too_short",
        "too_long",
    }
)


def _checked_at(
    schema: Mapping[str, Any], error: pydantic_core.ErrorDetails, location: tuple[int | str, ...]
) -> tuple[int | str, ...]:
    """Where serde meets ``error`` (at ``location``, its place in the input): an
    item's bound or pattern where the outermost array or map of the items has
    been read, that array's or map's own place."""
    if error["type"] not in _ITEM_CHECKS:
        return location
    items = items_at_end(schema, tuple(error["loc"]))
    return location[: len(location) - items]


# Each record type's one-pass reader and writer, built from its module's plan
# (`concord_runtime._plan`) at its first use (no import pays for it), or None for a class no
# generated module defines.
_RECORD_TYPES: dict[type, _core.RecordType | None] = {}
_UNKNOWN: Any = object()


def _record_type(cls: type) -> _core.RecordType | None:
    record_type = _RECORD_TYPES.get(cls, _UNKNOWN)
    if record_type is _UNKNOWN:
        record_type = _RECORD_TYPES[cls] = _plan.record_type_of(cls)
    return cast("_core.RecordType | None", record_type)


# What every `from_json` looks up by its class, once: the type's one-pass reader (None: pydantic's
# path reads it) and whether each read also runs the assertion engine (`ASSERTED`, as the class
# has it at its first read). An attribute of a pydantic class costs ~70 ns to look up (its
# metaclass's `__getattr__` hook), a tenth of the core's read of a small record.
_READS: dict[type, tuple[_core.RecordType | None, bool]] = {}


def _read_json(cls: type[R], data: bytes | str, max_bytes: int) -> R:
    """``from_json``: the record, read under the strict profile, then its schema (and the
    assertion engine's check, when its entry needs one), by the one-pass reader, else pydantic.
    No class attribute is looked up where the reader reads the record and no engine runs."""
    found = _READS.get(cls)
    if found is None:
        found = _READS[cls] = (_record_type(cls), bool(cls.ASSERTED))
    reader, asserted = found
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    # Raises JsonError as strict.check does; None: pydantic's path decides.
    record: R | None = None if reader is None else reader.read(data, max_bytes)
    if record is None:
        record = cls._read_left_to_pydantic(data, max_bytes, reader is not None)
    if asserted:
        cls._assert(data)
    return record


def _input_order(location: tuple[int | str, ...], data: Any) -> list[int]:
    """Where serde meets a problem at ``location`` as it reads the input: a value's
    own problem (a wrong type, a bound, a check on the whole) once it has read the
    value, so after everything inside it; a missing property or item at the end of
    the object or array that lacks it."""
    order: list[int] = []
    for part in location:
        if isinstance(data, dict) and isinstance(part, str) and part in data:
            order.append(list(data).index(part))
            data = data[part]
        elif isinstance(data, list) and isinstance(part, int) and 0 <= part < len(data):
            order.append(part)
            data = data[part]
        else:
            order.append(_AFTER)
            return order
    order.append(_AFTER)
    return order


# Object keys (as JSON string literals) that are the Python name of a renamed
# property at a growth point: see ``_unmark_unread``.
_PYTHON_NAMES_AT_GROWTH_POINTS: set[bytes] = set()


def _unmark_unread(record: Any, data: Any) -> None:
    """Where a kept unknown key is spelled like a field's Python name (``foo_bar``
    beside the property ``fooBar``), pydantic also marks that field as set
    (pydantic issue 7700), and ``exclude_unset`` would then write it as null.
    Unmark it: a field is set only when its own JSON name was read. Walks the
    record beside the JSON it was read from; ``from_json`` calls it only when
    such a key may be in the input, so no class pays for it at import (a model
    validator would: it costs pydantic its schema reuse)."""
    if isinstance(record, pydantic.RootModel):
        _unmark_unread(record.root, data)
    elif isinstance(record, Model):
        if not isinstance(data, dict):
            return
        fields = type(record).model_fields
        extra = record.__pydantic_extra__ or {}
        for name in record.__pydantic_fields_set__ & extra.keys():
            field = fields.get(name)
            if field is not None and (name if field.alias is None else field.alias) not in data:
                record.__pydantic_fields_set__.discard(name)
        for name, field in fields.items():
            key = name if field.alias is None else field.alias
            if key in data:
                _unmark_unread(getattr(record, name), data[key])
        for key, value in extra.items():
            if key in data:
                _unmark_unread(value, data[key])
    elif isinstance(record, list) and isinstance(data, list):
        for item, raw in zip(record, data, strict=False):
            _unmark_unread(item, raw)
    elif isinstance(record, dict) and isinstance(data, dict):
        for key, value in record.items():
            if key in data:
                _unmark_unread(value, data[key])


def _keep_unknown_keys_on_assignment(self: "Model", name: str, value: Any) -> None:
    """pydantic's validated assignment drops a kept unknown key spelled like a field's
    Python name; put it back, in its place."""
    kept = dict(self.__pydantic_extra__ or {})
    pydantic.BaseModel.__setattr__(self, name, value)
    extra = self.__pydantic_extra__
    if extra is not None and not kept.keys() <= extra.keys():
        self.__pydantic_extra__ = {key: extra.get(key, item) for key, item in kept.items()} | extra


class _Record:
    """What every generated record does, a model or a root model: read strictly,
    write exactly, digest."""

    # Declared for type checkers only: pydantic evaluates every annotation of every base
    # for each model it builds (3% of a large registry's import); each generated class
    # annotates the ones it sets.
    if TYPE_CHECKING:
        SCHEMA: ClassVar[PinnedSchema]
        """The type's schema as pinned (on every class with a place of its own in its schema file)."""
        ASSERTED: ClassVar[bool] = False
        """Whether ``from_json`` also checks each record against ``SCHEMA`` with the engine (its
        schema holds keywords no type expresses: ``not``, ``if``, ``contains``...)."""
    else:
        ASSERTED = False

    @classmethod
    def _read_by_pydantic(cls, data: bytes) -> Self:
        """pydantic's own read (raises ``pydantic.ValidationError``): by JSON names only, as
        Rust reads, in a root model's records too; then the fix of ``_unmark_unread`` where
        a kept key may be spelled like a field's Python name (a key may be escaped, ``\\u005f``:
        then look closer too)."""
        record = cast(type[pydantic.BaseModel], cls).model_validate_json(data, by_alias=True, by_name=False)
        if _PYTHON_NAMES_AT_GROWTH_POINTS and (
            b"\\u" in data or any(key in data for key in _PYTHON_NAMES_AT_GROWTH_POINTS)
        ):
            _unmark_unread(record, json.loads(data))
        return cast(Self, record)

    @classmethod
    def _one_pass_difference(cls, data: bytes) -> str | None:
        """Where the one-pass reader's record of ``data`` differs from what pydantic's own path
        reads, or None (also where the reader leaves ``data`` to pydantic): the round-trip
        harness asks it of every input, so every fixture and fuzzed case tests the reader."""
        reader = _record_type(cls)
        if reader is None:
            return None
        try:
            record = reader.read(data, strict.DEFAULT_MAX_BYTES)
        except ValueError:
            return None  # refused by the strict profile, before any type
        if record is None:
            return None
        try:
            expected = cls._read_by_pydantic(data)
        except pydantic.ValidationError as error:
            return f"the one-pass reader accepts what pydantic refuses: {error}"
        return _plan.difference(record, expected)

    def _one_pass_write_difference(self) -> str | None:
        """Where the one-pass writer's bytes or digest of this record differ from pydantic's
        path's (a refusal on either side counts), or None where the writer leaves it to
        pydantic: the round-trip harness asks it of every record it reads."""
        record_type = _record_type(type(self))
        if record_type is None:
            return None
        written, digest = record_type.write(self), record_type.digest(self)
        if written is not None:
            try:
                expected = self._to_json_by_pydantic()
            except ValueError as error:
                return f"the one-pass writer writes what pydantic's path refuses: {error}"
            if written != expected:
                return f"the one-pass writer wrote {written[:200]!r}, pydantic's path {expected[:200]!r}"
        if digest is not None:
            try:
                expected_digest = self._digest_by_pydantic()
            except ValueError as error:
                return f"the one-pass writer digests what pydantic's path refuses: {error}"
            if digest != expected_digest:
                return f"the one-pass writer's digest {digest}, pydantic's path's {expected_digest}"
        return None

    @classmethod
    def _read_left_to_pydantic(cls, data: bytes, max_bytes: int, checked: bool) -> Self:
        """pydantic's path of ``from_json``, where the one-pass reader leaves the input (or the
        type has none: then the strict check first, unless ``checked``)."""
        if not checked:
            strict.check(data, max_bytes=max_bytes)
        try:
            return cls._read_by_pydantic(data)
        except pydantic.ValidationError as error:
            schema = cast(type[pydantic.BaseModel], cls).__pydantic_core_schema__
            raise _record_error(error, data, schema) from None

    @classmethod
    def _assert(cls, data: bytes) -> None:
        """The assertion engine's check of ``data`` against ``SCHEMA``: raises its first note."""
        note = cls.SCHEMA.first_note_json(data)
        if note is not None:
            raise RecordError(note.pointer, f"{note.message} (schema {note.schema_path})")

    @classmethod
    def read_jsonl(cls, stream: IO[bytes], *, max_bytes: int = strict.DEFAULT_MAX_BYTES) -> batch.ReadOutcome[Self]:
        """Reads a JSON Lines stream, a record a line: the records that read and, for each
        line that did not, its number and error; one bad line never aborts the read
        (:mod:`concord_runtime.batch`)."""
        return batch.read_jsonl(cls, stream, max_bytes=max_bytes)  # type: ignore[type-var]

    @classmethod
    def read_json_array(cls, data: bytes) -> batch.ArrayOutcome[Self]:
        """Reads a JSON array of records: the records that read and, for each item that did not,
        its index and error (:func:`concord_runtime.batch.read_json_array`)."""
        return batch.read_json_array(cls, data)  # type: ignore[type-var]

    def to_json(self) -> bytes:
        """Writes compact JSON: declared properties in schema order, then kept unknown keys as read.
        Raises :class:`RecordError` for a value the strict profile would refuse on reading
        (``NaN``, ``Infinity``, ``-0.0``, integers outside ±(2^53-1)), naming its pointer."""
        record_type = _record_type(type(self))
        if record_type is not None:
            written = record_type.write(self)
            if written is not None:
                return written
        return self._to_json_by_pydantic()

    def _to_json_by_pydantic(self) -> bytes:
        """pydantic's serializer, then the core's pass over its bytes: what the one-pass writer
        must equal, and what names a value neither writes."""
        try:
            dump = self._dump()
        except pydantic_core.PydanticSerializationError:
            return self._to_json_oracle()  # names the problem (a lone surrogate), or writes
        return _core.write_record(dump)

    def digest(self) -> str:
        """``sha256:<hex>`` over the record's canonical JSON (``jcs-rfc8785-integer-v1``);
        a record holding a float has none (raises :class:`concord_runtime.CanonicalError`)."""
        record_type = _record_type(type(self))
        if record_type is not None:
            digest = record_type.digest(self)
            if digest is not None:
                return digest
        return self._digest_by_pydantic()

    def _digest_by_pydantic(self) -> str:
        """pydantic's serializer, then the core's canonical form of its bytes: what the
        one-pass writer's digest must equal, and what names a record that has none."""
        try:
            dump = self._dump()
        except pydantic_core.PydanticSerializationError:
            return canonical.digest(self._plain())  # names the problem (a lone surrogate)
        digest = _core.record_digest(dump)
        if digest is None:
            # The oracle walks the record in canonical order and names the first problem;
            # what it cannot see in a dict (a key twice, kept and declared) the writer names.
            canonical.digest(self._plain())
            _core.write_record(dump)
            raise RecordError("", "the record has no canonical form")
        return digest

    def _dump(self) -> bytes:
        # exclude_unset: absent optional properties stay absent, in a root's records too.
        # (No `cast` here: this is every `to_json`'s path.)
        serializer = type(self).__pydantic_serializer__  # type: ignore[attr-defined]
        dump: bytes = serializer.to_json(self, by_alias=True, exclude_unset=True)
        return dump

    def _to_json_oracle(self) -> bytes:
        """The pure-Python writer: the oracle ``to_json`` is tested against."""
        return dumps(self._plain()).encode()

    def _plain(self) -> Any:
        return cast(pydantic.BaseModel, self).model_dump(mode="python", by_alias=True, exclude_unset=True)


class Model(_Record, pydantic.BaseModel):
    """Base of every generated model: strict reading, exact writing.

    Reading JSON goes by JSON names only; constructing in Python takes either
    the Python name (``CallNode(class_="x")``) or the JSON name. Assignment is
    validated, so a value the record's type (or the strict profile) refuses is
    refused where it is assigned."""

    model_config = pydantic.ConfigDict(
        strict=True,
        allow_inf_nan=False,
        validate_by_name=True,
        validate_by_alias=True,
        validate_assignment=True,
        # Written as NaN/Infinity, so that the core's writer sees and refuses them.
        ser_json_inf_nan="constants",
    )

    if TYPE_CHECKING:  # as in `_Record`
        NAME: ClassVar[str]
        SCHEMA_DIGEST: ClassVar[str]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # The class's own, not a copy (`inspect.get_annotations`): every generated class's path.
        annotations = cls.__dict__.get("__annotations__")  # noqa: RUF063
        if annotations and any(type(each) is _NOT_NULL or each is _INT64 for each in annotations.values()):
            type.__setattr__(cls, "__get_pydantic_core_schema__", _WITH_PLAIN_FORMS)
        # A growth point (extra="allow") with a field whose Python name differs
        # from its JSON name: see _unmark_unread and _keep_unknown_keys_on_assignment.
        if cls.__dict__.get("model_config", {}).get("extra") != "allow":
            return
        renamed = any(
            isinstance(value, pydantic.fields.FieldInfo) and value.alias not in (None, name)
            for name, value in cls.__dict__.items()
        )
        if renamed:
            for name, value in cls.__dict__.items():
                if isinstance(value, pydantic.fields.FieldInfo) and value.alias not in (None, name):
                    _PYTHON_NAMES_AT_GROWTH_POINTS.add(json.dumps(name).encode())
            cls.__setattr__ = _keep_unknown_keys_on_assignment  # type: ignore[method-assign,assignment]

    @classmethod
    def __pydantic_on_complete__(cls) -> None:
        super().__pydantic_on_complete__()
        # Built: as the field of another model, the class is what pydantic has built
        # (`_build_with_plain_forms`).
        if "__get_pydantic_core_schema__" in cls.__dict__:
            type.__delattr__(cls, "__get_pydantic_core_schema__")

    @classmethod
    def from_json(cls, data: bytes | str, *, max_bytes: int = strict.DEFAULT_MAX_BYTES) -> Self:
        """Reads a record under the strict profile (raises :class:`concord_runtime.JsonError`)
        and refuses anything its schema refuses (raises :class:`RecordError`)."""
        return _read_json(cls, data, max_bytes)


class RootModel(_Record, pydantic.RootModel[T], Generic[T]):
    """Base of a generated registry root that is not an object type (an array, a
    string, an enum...): the value is ``record.root``; reading and writing are
    :class:`Model`'s."""

    model_config = pydantic.ConfigDict(
        strict=True,
        allow_inf_nan=False,
        validate_assignment=True,
        ser_json_inf_nan="constants",
    )

    if TYPE_CHECKING:  # as in `_Record`
        NAME: ClassVar[str]
        SCHEMA_DIGEST: ClassVar[str]

    @classmethod
    def from_json(cls, data: bytes | str, *, max_bytes: int = strict.DEFAULT_MAX_BYTES) -> Self:
        """Reads a record under the strict profile, as :meth:`Model.from_json`."""
        return _read_json(cls, data, max_bytes)


# What the annotations declared for type checkers only would have told pydantic: these
# are class variables, so that a subclass may set them without annotating them
# (`NAME = "Session"`), as `__class_vars__` is pydantic's own record of them.
for _base in (Model, RootModel):
    _base.__class_vars__.update(("NAME", "SCHEMA_DIGEST", "SCHEMA", "ASSERTED"))
del _base
