"""Union tags in refusals: pydantic puts a tagged union's tag into an error's location,
and the runtime leaves it out of the pointer by where the schema holds a union, so a
real key spelled exactly like a tag is never taken for one (nor a tag for a key)."""

from __future__ import annotations

import typing
from typing import Annotated, Any, Literal

import pydantic
import pytest
from concord_registry import Evidence
from concord_registry.evidence import CanonicalPayload
from concord_runtime import Int64, Model, NotNull, RecordError, RootModel, unions


class ExitCode(Model):
    """A branch holding a property named like its own tag, and like the other branch's."""

    model_config = pydantic.ConfigDict(extra="forbid")
    NAME = "ExitCode"
    SCHEMA_DIGEST = "sha256:0"

    kind: Literal["exit_code"]
    exit_code: Int64
    note: NotNull[Int64] = None


class Note(Model):
    """A branch holding the union again, under a property named like a tag."""

    model_config = pydantic.ConfigDict(extra="forbid")
    NAME = "Note"
    SCHEMA_DIGEST = "sha256:0"

    kind: Literal["note"]
    text: str
    exit_code: NotNull[Payload] = None


Payload = Annotated[
    Annotated[ExitCode, pydantic.Tag("exit_code")] | Annotated[Note, pydantic.Tag("note")],
    pydantic.Discriminator(unions.tag("kind", ("exit_code", "note"))),
]


class Object(Model):
    """The `object` branch of a union by JSON type, with keys named like its tags."""

    model_config = pydantic.ConfigDict(extra="ignore")
    NAME = "Object"
    SCHEMA_DIGEST = "sha256:0"

    object: NotNull[Int64] = None
    string: NotNull[Int64] = None


ByType = Annotated[
    Annotated[str, pydantic.Tag("string")] | Annotated[Object, pydantic.Tag("object")],
    pydantic.Discriminator(unions.json_type(("string", "object"))),
]


class Holder(Model):
    """Unions, and tag words as property names and map keys around them."""

    model_config = pydantic.ConfigDict(extra="ignore")
    NAME = "Holder"
    SCHEMA_DIGEST = "sha256:0"

    payload: NotNull[Payload] = None
    by_tag: NotNull[dict[str, Payload]] = None
    exit_code: NotNull[list[Payload]] = None
    value: NotNull[ByType] = None
    counters: NotNull[dict[str, Int64]] = None


Note.model_rebuild()


class Root(RootModel[Payload]):
    """A record that is the union itself: its tag is the first segment of a location."""

    NAME = "Root"
    SCHEMA_DIGEST = "sha256:0"


def pointer(model: type[Model] | type[RootModel[Any]], data: bytes) -> str:
    with pytest.raises(RecordError) as refused:
        model.from_json(data)
    return refused.value.pointer


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        # The tag `exit_code`, then the property `exit_code`: one segment.
        (b'{"payload":{"kind":"exit_code","exit_code":"x"}}', "/payload/exit_code"),
        (b'{"payload":{"kind":"exit_code","exit_code":0,"note":"x"}}', "/payload/note"),
        # Map keys spelled like a tag, before a union's own tag.
        (b'{"by_tag":{"exit_code":{"kind":"exit_code","exit_code":1.5}}}', "/by_tag/exit_code/exit_code"),
        (b'{"by_tag":{"exit_code":{"kind":"note","text":1}}}', "/by_tag/exit_code/text"),
        (b'{"by_tag":{"note":{"kind":"exit_code","exit_code":0,"note":null}}}', "/by_tag/note/note"),
        # An unknown key named like the tag, refused by the closed branch.
        (b'{"by_tag":{"note":{"kind":"exit_code","exit_code":0,"exit_code ":1}}}', "/by_tag/note/exit_code "),
        (b'{"payload":{"kind":"note","text":"t","note":1}}', "/payload/note"),
        # A property named like a tag holding unions, and a union inside a branch.
        (b'{"exit_code":[{"kind":"note","text":"t"},{"kind":"exit_code"}]}', "/exit_code/1/exit_code"),
        (
            b'{"payload":{"kind":"note","text":"t","exit_code":{"kind":"note","text":"u","exit_code":{"kind":"x"}}}}',
            "/payload/exit_code/exit_code",
        ),
        (
            b'{"payload":{"kind":"note","text":"t","exit_code":{"kind":"exit_code","exit_code":"x"}}}',
            "/payload/exit_code/exit_code",
        ),
        # By JSON type: the tags `object` and `string` beside keys of those names.
        (b'{"value":{"object":"x"}}', "/value/object"),
        (b'{"value":{"object":1,"string":"x"}}', "/value/string"),
        (b'{"value":3}', "/value"),
        # No union at all: a key spelled like a tag is a key.
        (b'{"counters":{"exit_code":"x"}}', "/counters/exit_code"),
        (b'{"counters":{"note":1,"object":"x"}}', "/counters/object"),
    ],
)
def test_a_key_spelled_like_a_tag_keeps_its_segment_and_a_tag_has_none(data: bytes, expected: str) -> None:
    assert pointer(Holder, data) == expected


def test_the_first_problem_in_the_input_is_found_with_tags_left_out() -> None:
    # pydantic lists `payload` first (schema order); serde meets `by_tag` first.
    data = b'{"by_tag":{"exit_code":{"kind":"exit_code","exit_code":"x"}},"payload":{"kind":"note","text":2}}'
    assert pointer(Holder, data) == "/by_tag/exit_code/exit_code"


def test_a_root_that_is_a_union_points_inside_the_branch() -> None:
    assert pointer(Root, b'{"kind":"exit_code","exit_code":"x"}') == "/exit_code"
    assert pointer(Root, b'{"kind":"note","text":"t","exit_code":{"kind":"note","text":[]}}') == "/exit_code/text"
    assert pointer(Root, b'{"kind":"other"}') == ""


def test_generated_tags_are_the_branch_keys() -> None:
    branches = typing.get_args(typing.get_args(CanonicalPayload)[0])
    tags = [
        next(meta.tag for meta in typing.get_args(branch)[1:] if isinstance(meta, pydantic.Tag)) for branch in branches
    ]
    assert tags == ["exit_code", "tool_result", "file_diff", "process_observation", "transcript_excerpt"]
    # The shipped registry's own case: the `exit_code` branch holds the property `exit_code`.
    data = (
        b'{"id":"e","session_id":"s","kind":"exit_code","payload":null,'
        b'"canonical":{"kind":"exit_code","command":"ls","exit_code":1.5,"heuristic":false}}'
    )
    with pytest.raises(RecordError) as refused:
        Evidence.from_json(data)
    assert (refused.value.pointer, refused.value.message) == ("/canonical/exit_code", "Input should be a valid integer")


def test_a_location_without_a_tag_is_kept_as_it_is_and_each_tag_is_left_out() -> None:
    schema = Holder.__pydantic_core_schema__
    location = ("counters", "x")
    assert unions.without_tags(schema, location) is location
    assert unions.without_tags(schema, ("counters", "exit_code")) == ("counters", "exit_code")
    # `payload`, the tag `note`, its property `exit_code`, the tag `exit_code`, its `kind`.
    assert unions.without_tags(schema, ("payload", "note", "exit_code", "exit_code", "kind")) == (
        "payload",
        "exit_code",
        "kind",
    )
