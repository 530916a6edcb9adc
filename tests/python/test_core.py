"""The compiled core (``concord_runtime._core``) against the pure-Python oracle:
float layout, writing, digests and reading, on the shared vectors and every
round-trip fixture. tests/conformance.rs runs the strict and canonical vectors."""

from __future__ import annotations

import json
import math
import re
import struct
from pathlib import Path
from typing import Any

import pydantic
import pytest
from concord_registry import ClsArtifact, Evidence, EvidenceV1
from concord_registry.cls_artifact import CallNode, Kernel, LaunchDims, Session
from concord_runtime import (
    CanonicalError,
    Int64,
    JsonError,
    Model,
    NotNull,
    RecordError,
    _core,
    _model,
    canonical,
    dumps,
    strict,
)
from concord_runtime._json import format_float

ROOT = Path(__file__).resolve().parents[2]
FLOATS = json.loads((ROOT / "fixtures/vectors/floats.json").read_text())["vectors"]


def test_every_float_vector_is_laid_out_alike_by_core_and_oracle() -> None:
    assert len(FLOATS) > 500
    for vector in FLOATS:
        value = struct.unpack(">d", bytes.fromhex(vector["bits"]))[0]
        assert _core.format_float(value) == format_float(value) == vector["text"], vector
        # Through the writer: from Python's layout (parsed) and from pydantic's (often kept as is).
        expected = f"[{vector['text']}]".encode()
        assert _core.write_record(json.dumps([value]).encode()) == expected
        holder = Evidence(id="e", session_id="s", kind="exit_code", payload=[value])
        assert holder.to_json() == holder._to_json_oracle()
        assert b'"payload":' + expected in holder.to_json()


@pytest.mark.parametrize(
    "token",
    [
        "0.1",
        "0.10",
        "0.000012",
        "0.0000012",
        "1.5",
        "100.0",
        "100.00",
        "1234567890123456.0",
        "12345678901234567.0",
        "0.123456789012345",
        "0.1234567890123456",
        "9007199254740993.0",
        "1.0e5",
        "5E-324",
        "0.0",
        "123456.789",
    ],
)
def test_the_writer_keeps_only_tokens_already_in_layout(token: str) -> None:
    assert _core.write_record(f"[{token}]".encode()) == f"[{format_float(float(token))}]".encode()


def test_pydantic_escapes_every_character_as_concord_does() -> None:
    text = "".join(chr(c) for c in range(0x10FFFF + 1) if not 0xD800 <= c <= 0xDFFF)
    record = Evidence(id="e", session_id="s", kind="exit_code", payload={text: [text[:300], text[-300:]]})
    assert record.to_json() == record._to_json_oracle()


def refusal(action: Any) -> str:
    try:
        action()
    except (RecordError, CanonicalError) as error:
        return f"{type(error).__name__}: {error}"
    return "written"


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (math.nan, "NaN is not a JSON number"),
        (math.inf, "inf is not a JSON number"),
        (-math.inf, "-inf is not a JSON number"),
        (-0.0, "negative zero is refused"),
        (2**53, "integer 9007199254740992 is outside ±(2^53-1), which the strict profile refuses"),
        (-(2**53), "integer -9007199254740992 is outside ±(2^53-1), which the strict profile refuses"),
        (10**40, "integer 10000000000000000000… is outside ±(2^53-1), which the strict profile refuses"),
        ("\ud800", "a string holds the lone surrogate U+D800"),
    ],
)
def test_writers_refuse_what_the_reader_refuses(value: object, message: str) -> None:
    record = Evidence(id="e", session_id="s", kind="exit_code", payload={"a/b": [1, {"~x": value}]})
    expected = f'RecordError: at "/payload/a~1b/1/~0x": {message}'
    assert refusal(record.to_json) == refusal(record._to_json_oracle) == expected
    # The digest refuses every float and unsafe integer, in canonical order, as the oracle does.
    assert refusal(record.digest) == refusal(lambda: canonical.digest(record._plain()))
    assert refusal(record.digest).startswith("CanonicalError: not-canonical at ")


def test_a_kept_key_named_like_a_declared_property_is_refused_not_written_twice() -> None:
    session = Session.from_json(
        b'{"gpu_arch":"a","driver_version":"d","cuda_version":"c","cudnn_version":null,"world_size":1}'
    )
    session.gpu_arch_note = 1  # type: ignore[attr-defined]  # a growth point keeps it as an unknown key
    assert session.to_json().endswith(b',"gpu_arch_note":1}')
    assert session.model_extra is not None
    session.model_extra["world_size"] = 2
    expected = 'RecordError: at "/world_size": duplicate key "world_size"'
    assert refusal(session.to_json) == refusal(session.digest) == expected


def test_nesting_deeper_than_the_reader_reads_is_refused() -> None:
    deep: list[Any] = []
    for _ in range(62):
        deep = [deep]  # 63 levels, 64 with the record's own
    record = Evidence(id="e", session_id="s", kind="exit_code", payload=deep)
    assert record.to_json() == record._to_json_oracle()
    assert Evidence.from_json(record.to_json()).payload == deep
    record = Evidence(id="e", session_id="s", kind="exit_code", payload=[deep])
    expected = f'RecordError: at "/payload{"/0" * 63}": nesting deeper than 64 levels'
    assert refusal(record.to_json) == refusal(record._to_json_oracle) == expected


def test_the_edges_of_the_safe_range_are_written() -> None:
    record = Evidence(id="e", session_id="s", kind="exit_code", payload=[2**53 - 1, -(2**53 - 1), 0.0, 5e-324])
    assert record.to_json().endswith(b'"payload":[9007199254740991,-9007199254740991,0.0,5e-324]}')


def test_int64_admits_exactly_the_safe_range() -> None:
    limit = 2**53 - 1
    assert LaunchDims(grid=[limit, -limit], block=[], shared_mem_bytes=limit).shared_mem_bytes == limit
    for bad in [limit + 1, -limit - 1]:
        with pytest.raises(pydantic.ValidationError):
            LaunchDims(grid=[], block=[], shared_mem_bytes=bad)


def test_assignment_is_validated() -> None:
    kernel = Kernel(name="k", type="triton", duration_ms=1.0, launch=LaunchDims(grid=[], block=[], shared_mem_bytes=0))
    for field, bad in [("duration_ms", math.nan), ("duration_ms", "1.0"), ("type", "opencl")]:
        with pytest.raises(pydantic.ValidationError):
            setattr(kernel, field, bad)
    with pytest.raises(pydantic.ValidationError):
        kernel.launch.shared_mem_bytes = 2**53
    kernel.duration_ms = 2.5
    assert b'"duration_ms":2.5' in kernel.to_json()


def test_construction_takes_python_names_and_reading_json_names_only() -> None:
    assert CallNode(name="n", class_="x", self_ms=1.0).to_json() == b'{"name":"n","class":"x","self_ms":1.0}'
    assert CallNode.model_validate({"name": "n", "class": "x", "self_ms": 1.0}).class_ == "x"
    # Reading goes by JSON names: "class_" is an unknown key, dropped at a default-policy type.
    read = CallNode.from_json(b'{"name":"n","class_":"x","self_ms":1}')
    assert read.class_ is None
    assert read.to_json() == b'{"name":"n","self_ms":1.0}'


class Renamed(Model):
    """A growth point with a field whose Python name differs from its JSON name."""

    model_config = pydantic.ConfigDict(extra="allow")
    NAME = "Renamed"
    SCHEMA_DIGEST = "sha256:0"

    foo_bar: NotNull[Int64] = pydantic.Field(default=None, alias="fooBar")
    plain: NotNull[str] = None


def test_a_growth_point_keeps_a_key_spelled_like_a_python_name_as_unknown() -> None:
    read = Renamed.from_json(b'{"foo_bar":1,"plain":"p"}')
    assert read.foo_bar is None
    assert read.model_extra == {"foo_bar": 1}
    assert read.to_json() == b'{"plain":"p","foo_bar":1}'
    assert Renamed.from_json(b'{"fooBar":2,"foo_bar":1}').to_json() == b'{"fooBar":2,"foo_bar":1}'
    assert Renamed(foo_bar=3).to_json() == b'{"fooBar":3}'
    # Validated assignment keeps such a key (pydantic alone would drop it).
    read.plain = "q"
    read.foo_bar = 4
    assert read.to_json() == b'{"fooBar":4,"plain":"q","foo_bar":1}'
    # The key escaped, and the growth point nested in a list and a map.
    assert Renamed.from_json(b'{"foo\\u005fbar":1,"plain":"p"}').to_json() == b'{"plain":"p","foo_bar":1}'
    nested = b'{"items":[{"foo_bar":1},{"fooBar":5,"foo_bar":2}],"by_name":{"a":{"foo_bar":3}}}'
    assert Holder.from_json(nested).to_json() == nested
    # No model validator keeps this straight (it would cost every class its schema reuse).
    assert not Renamed.__pydantic_decorators__.model_validators


class Holder(Model):
    """Growth points with a renamed field, inside a list and a map."""

    model_config = pydantic.ConfigDict(extra="ignore")
    NAME = "Holder"
    SCHEMA_DIGEST = "sha256:0"

    items: list[Renamed]
    by_name: dict[str, Renamed]


def oracle_from_json(model: type[Model], data: bytes) -> Model:
    """Reading as before the core: the pure-Python reference parser, then model_validate."""
    value = strict._read(data, strict.DEFAULT_MAX_BYTES, fast=False)
    try:
        return model.model_validate(value, by_alias=True, by_name=False)
    except pydantic.ValidationError as error:
        # Of several problems, the same one as from_json (the first in the input).
        raise _model._record_error(error, data, model.__pydantic_core_schema__) from None


def python_mode_wording(message: str) -> str:
    """pydantic's JSON mode words two refusals differently from its Python mode (pointers are the same)."""
    message = re.sub(r" or instance of \w+$", "", message)
    return "Input should be a valid dictionary" if message == "Input should be an object" else message


def outcome(action: Any) -> str:
    try:
        record = action()
    except JsonError as error:
        return f"JsonError: {error}"
    except RecordError as error:
        return f"RecordError: {error.pointer} {python_mode_wording(error.message)}"
    try:
        digest = record.digest()
    except CanonicalError as error:
        digest = str(error)
    assert record.to_json() == record._to_json_oracle()
    assert digest == refusal(lambda: canonical.digest(record._plain())).removeprefix("CanonicalError: ").replace(
        "written", digest
    )
    return f"{record.to_json()!r} {digest}"


FIXTURES = sorted((ROOT / "fixtures/roundtrip").glob("*/*.json"))


@pytest.mark.parametrize("fixture", FIXTURES, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_core_and_oracle_read_write_and_digest_every_fixture_alike(fixture: Path) -> None:
    if fixture.name.endswith(".out.json"):
        return
    models: dict[str, type[Model]] = {"ClsArtifact": ClsArtifact, "Evidence": Evidence, "EvidenceV1": EvidenceV1}
    model = models[fixture.parent.name]
    data = fixture.read_bytes()
    assert outcome(lambda: model.from_json(data)) == outcome(lambda: oracle_from_json(model, data))


def test_reading_json_gives_the_floats_the_oracle_reads() -> None:
    texts = [vector["text"] for vector in FLOATS]
    texts += [repr(float(text)) for text in texts]
    texts += [
        "0.1000000000000000055511151231257827021181583404541015625",
        "2.2250738585072011e-308",
        "1e-400",
        "123e-2",
    ]
    data = ('{"id":"e","session_id":"s","kind":"exit_code","payload":[' + ",".join(texts) + "]}").encode()
    payload = Evidence.from_json(data).payload
    expected = Evidence.model_validate(oracle_from_json(Evidence, data)).payload
    assert [struct.pack(">d", value) for value in payload] == [struct.pack(">d", value) for value in expected]


def test_record_digests_match_the_oracle_on_random_records() -> None:
    """Keys that sort differently in UTF-8 and UTF-16, escapes, nesting: the core's
    digest (straight from pydantic's JSON) against the pure-Python canonical writer."""
    state = 0x2545F4914F6CDD1D

    def number(bound: int) -> int:
        nonlocal state
        state ^= (state << 13) & (2**64 - 1)
        state ^= state >> 7
        state ^= (state << 17) & (2**64 - 1)
        return state % bound

    alphabet = ["a", "b", "é", "\ufb33", "\U0001f602", "\ue000", '"', "\\", "\n", "\x01", "\x7f", "\u2028", "/"]

    def text() -> str:
        return "".join(alphabet[number(len(alphabet))] for _ in range(number(4)))

    def value(depth: int) -> Any:
        kind = number(7 if depth < 4 else 4)
        if kind == 0:
            return text()
        if kind == 1:
            return number(2**54) - 2**53 + 1
        if kind == 2:
            return [None, True, False][number(3)]
        if kind == 3:
            return number(100)
        if kind in (4, 5):
            return {text(): value(depth + 1) for _ in range(number(6))}
        return [value(depth + 1) for _ in range(number(4))]

    for _ in range(300):
        record = Evidence(id=text(), session_id="s", kind="exit_code", payload=value(0))
        assert _core.canonical_of_compact(record._dump()) == canonical.to_bytes(record._plain())
        assert record.digest() == canonical.digest(record._plain())


def test_strings_at_every_offset_of_the_eight_byte_scan() -> None:
    """The core scans strings eight bytes at a time: quotes, backslashes, control
    characters and non-ASCII bytes at every offset, read and written as the oracle does."""
    pieces = ["a", "é", "\U0001f602", '\\"', "\\\\", "\\n", "\\u0041", "\\ud83d\\ude02", "\x01", "\x1f", "\x7f", "\xa2"]
    for length in range(0, 20):
        for offset in range(length + 1):
            for piece in pieces:
                body = "b" * offset + piece + "c" * (length - offset)
                data = ('{"k' + body + '":["' + body + '",1.5]}').encode()
                try:
                    expected: Any = strict._read(data, strict.DEFAULT_MAX_BYTES, fast=False)
                except JsonError as error:
                    expected = str(error)
                try:
                    _core.check(data, strict.DEFAULT_MAX_BYTES)
                    verdict: Any = expected if isinstance(expected, dict) else "accepted"
                except JsonError as error:
                    verdict = str(error)
                assert verdict == expected, data
                if isinstance(expected, dict):
                    written = dumps(expected).encode()
                    assert _core.write_record(written) == written
