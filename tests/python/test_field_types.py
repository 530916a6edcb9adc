"""The field types generated code names (``Int64``, ``NotNull[X]``, ``OpenEnum[X]``) give
pydantic their core schemas directly, to spare the import pydantic's handling of
``typing.Annotated``: each must stay exactly what pydantic makes of the annotation it
stands for, on every shape of ``X``, whatever pydantic's release."""

import re
from typing import Annotated, Any, Literal

import pydantic
import pydantic_core
import pytest
from concord_runtime import Int64, Model, NotNull, OpenEnum, _model
from concord_runtime._json import MAX_SAFE_INTEGER

# The annotations these stand for, spelled as pydantic documents them.
SAFE = pydantic_core.core_schema.int_schema(strict=True, ge=-MAX_SAFE_INTEGER, le=MAX_SAFE_INTEGER)


class _Exactly:
    def __init__(self, schema: pydantic_core.CoreSchema) -> None:
        self.schema = schema

    def __get_pydantic_core_schema__(self, source: Any, handler: pydantic.GetCoreSchemaHandler) -> Any:
        return self.schema


class _AnyString:
    def __get_pydantic_core_schema__(self, source: Any, handler: pydantic.GetCoreSchemaHandler) -> Any:
        return pydantic_core.core_schema.str_schema(strict=True)


PlainInt64 = Annotated[int, _Exactly(SAFE)]
# The forms as values: what a module runs, not what type checkers read.
NOT_NULL: Any = NotNull
OPEN_ENUM: Any = OpenEnum


class Inner(Model):
    value: str


INNERS: list[tuple[Any, Any]] = [
    (str, str),
    (float, float),
    (bool, bool),
    (Int64, PlainInt64),
    (list[Int64], list[PlainInt64]),
    (dict[str, Int64], dict[str, PlainInt64]),
    (Literal["a", "b"], Literal["a", "b"]),
    (Inner, Inner),
    (list[Inner], list[Inner]),
    (Annotated[Int64, pydantic.Field(ge=0)], Annotated[PlainInt64, pydantic.Field(ge=0)]),
    (OPEN_ENUM[Literal["x"]], Annotated[Literal["x"] | str, _AnyString()]),
]


def _shown(annotation: Any, default: Any = None, base: type[pydantic.BaseModel] = pydantic.BaseModel) -> str:
    """The core schema of a model holding one field of ``annotation``, as text without the
    parts that name the model itself."""

    class Holder(base):  # type: ignore[valid-type,misc]
        model_config = pydantic.ConfigDict(strict=True)
        field: annotation = default

    text = repr(Holder.__pydantic_core_schema__["schema"]["fields"])
    return re.sub(r":\d+", ":N", text)


@pytest.mark.parametrize(("inner", "plain"), INNERS, ids=lambda value: repr(value)[:40])
def test_not_null_is_the_annotated_union_with_a_refusal_of_null(inner: Any, plain: Any) -> None:
    expected = Annotated[plain | None, pydantic.BeforeValidator(_model._refuse_null)]
    assert _shown(NOT_NULL[inner]) == _shown(expected)


@pytest.mark.parametrize(("inner", "plain"), INNERS, ids=lambda value: repr(value)[:40])
def test_a_models_not_null_field_is_the_annotated_union_with_a_refusal_of_null(inner: Any, plain: Any) -> None:
    expected = Annotated[plain | None, pydantic.BeforeValidator(_model._refuse_null)]
    # A generated record's base builds the field as `X`, then puts the refusal around it.
    assert _shown(NOT_NULL[inner], base=Model) == _shown(expected, base=Model)
    renamed = pydantic.Field(default=None, alias="other")
    assert _shown(NOT_NULL[inner], renamed, Model) == _shown(expected, renamed, Model)


def test_a_not_null_field_keeps_its_form_where_its_class_decorates_it_and_in_a_subclass() -> None:
    class Parent(Model):
        count: NOT_NULL[int] = None
        other: NOT_NULL[str] = pydantic.Field(default=None, min_length=1)

    class Child(Parent):
        extra: NOT_NULL[bool] = None

    class Decorated(Parent):
        @pydantic.field_validator("count", mode="before")
        @classmethod
        def doubled(cls, value: Any) -> Any:
            return value * 2 if isinstance(value, int) else value

    # pydantic's own build of the forms: each field's schema through their protocol.
    class Plain(pydantic.BaseModel):
        model_config = Model.model_config
        count: NOT_NULL[int] = None
        other: NOT_NULL[str] = pydantic.Field(default=None, min_length=1)
        extra: NOT_NULL[bool] = None

    def shown(cls: Any, name: str) -> str:
        return re.sub(r":\d+", ":N", repr(cls.__pydantic_core_schema__["schema"]["fields"][name]))

    for cls in (Parent, Child):
        assert [shown(cls, name) for name in ("count", "other")] == [shown(Plain, name) for name in ("count", "other")]
    assert shown(Child, "extra") == shown(Plain, "extra")
    for cls in (Parent, Child, Decorated):
        assert type(cls.model_fields["count"].annotation) is NOT_NULL  # the fields keep their forms
        for name in ("count", "other"):
            with pytest.raises(pydantic.ValidationError, match="null is not allowed here"):
                cls.model_validate({name: None})
    with pytest.raises(pydantic.ValidationError, match="null is not allowed here"):
        Child.model_validate({"extra": None})
    assert Decorated.model_validate({"count": 2}).count == 4
    Child.model_rebuild(force=True)
    with pytest.raises(pydantic.ValidationError, match="null is not allowed here"):
        Child.model_validate({"count": None})
    assert shown(Child, "count") == shown(Plain, "count")


@pytest.mark.parametrize(("inner", "plain"), INNERS, ids=lambda value: repr(value)[:40])
def test_int64_and_open_enum_are_the_annotations_they_stand_for(inner: Any, plain: Any) -> None:
    assert _shown(inner) == _shown(plain)
    # A generated record's base builds an `Int64` field as `int`, then gives it its schema.
    assert _shown(inner, base=Model) == _shown(plain, base=Model)
    assert _shown(inner, ..., Model) == _shown(plain, ..., Model)  # required


def test_the_forms_read_as_what_they_stand_for() -> None:
    class Record(Model):
        NAME = "Record"
        SCHEMA_DIGEST = "sha256:" + "0" * 64
        count: NotNull[Int64] = None
        kind: NotNull[OpenEnum[Literal["a"]]] = None
        size: Int64 = 0

    read = Record.model_validate_json(b'{"count": 3, "kind": "other"}')
    assert read.model_dump() == {"count": 3, "kind": "other", "size": 0}
    with pytest.raises(pydantic.ValidationError, match="null is not allowed here"):
        Record.model_validate_json(b'{"count": null}')
    with pytest.raises(pydantic.ValidationError, match="less than or equal"):
        Record.model_validate_json(b'{"count": 9007199254740992}')
    with pytest.raises(pydantic.ValidationError, match="greater than or equal"):
        Record.model_validate({"size": -9007199254740992})
    for wrong in (1.0, "7", True):
        with pytest.raises(pydantic.ValidationError, match="valid integer"):
            Record.model_validate({"size": wrong})
    assert Record.model_validate({"size": 9007199254740991}).size == 9007199254740991
    with pytest.raises(pydantic.ValidationError, match="null is not allowed here"):
        read.count = None
    with pytest.raises(pydantic.ValidationError, match="less than or equal"):
        read.size = 9007199254740992
    assert repr(NOT_NULL[Int64]) == "concord_runtime.NotNull[Int64]"
    assert NOT_NULL[Int64] == NOT_NULL[Int64] and hash(NOT_NULL[str]) == hash(NOT_NULL[str])
    assert NOT_NULL[Int64] != OPEN_ENUM[Int64]
    # One object a type, by identity: equal types in another order keep their order.
    assert NOT_NULL[str] is NOT_NULL[str] and NOT_NULL[Int64] is not OPEN_ENUM[Int64]
    assert NOT_NULL[Literal["b", "a"]].inner.__args__ == ("b", "a")
    assert NOT_NULL[Literal["a", "b"]].inner.__args__ == ("a", "b")
    assert Int64(7) == 7 and type(Int64(7)) is int


def test_the_record_constants_are_class_variables_without_annotations() -> None:
    # The bases declare them for type checkers only (pydantic would evaluate the
    # annotations again for every model it builds); a subclass still sets them plainly.
    class Plain(Model):
        NAME = "Plain"
        SCHEMA_DIGEST = "sha256:" + "0" * 64
        value: str = ""

    assert list(Plain.model_fields) == ["value"]
    assert {"NAME", "SCHEMA_DIGEST", "SCHEMA", "ASSERTED"} <= Plain.__class_vars__
    assert (Plain.NAME, Plain.ASSERTED) == ("Plain", False)
