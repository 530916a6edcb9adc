"""``from_json`` reads each input once: the compiled core builds the models (``_core.RecordType``,
its node table from the generated module's plan, ``concord_runtime._plan``) and pydantic's own path reads only what the
reader leaves to it. The two must give the same record, fields set and kept keys alike, and
the same refusal; the round-trip harness asks the same of every fixture and fuzzed case
(``_one_pass_difference``), these tests the cases that matter one by one."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import concord_runtime
import pydantic
import pytest
from concord_registry import ClsArtifact, Evidence, EvidenceV1
from concord_runtime import RecordError, _model, _plan

ARTIFACT: dict[str, Any] = {
    "format_version": 1,
    "session": {
        "gpu_arch": "sm_90",
        "driver_version": "550",
        "cuda_version": "12.4",
        "cudnn_version": None,
        "world_size": 8,
        "probe": {"nested": [1, 2.5, "é\n", None, True]},
    },
    "compile_config": {"backend": "inductor", "mode": "default", "fullgraph": False, "dynamic": None, "junk": 1},
    "kernels": [
        {
            "name": 'k\\u00e9"',
            "type": "triton",
            "duration_ms": 3,
            "launch": {"grid": [1, 2, 3], "block": [4, 1, 1], "shared_mem_bytes": 0},
            "occupancy": None,
            "counters": {"launches": 2},
        }
    ],
    "call_tree": {
        "name": "m",
        "class": "torch.nn.Linear",
        "self_ms": 0.5,
        "children": [{"name": "c", "self_ms": 1e-7}],
    },
    "zzz": {"kept": [1]},
}

EVIDENCE: dict[str, Any] = {
    "id": "ev_1",
    "session_id": "ses_1",
    "kind": "exit_code",
    "payload": {"anything": [1, {"x": None}]},
    "canonical": {"exit_code": 0, "kind": "exit_code", "command": ["cargo"], "heuristic": False},
    "extension": {
        "schema_version": 2,
        "provider": "someone-else",
        "adapter_version": "0.9",
        "content_class": "ToolTelemetry",
        "fields": {},
        "kept": {"a": 1},
    },
}


def one_pass(record_type: Any, data: bytes) -> Any:
    reader = _plan.record_type_of(record_type)
    assert reader is not None, "a generated type has a plan"
    return reader.read(data, concord_runtime.strict.DEFAULT_MAX_BYTES)


def by_pydantic(record_type: Any, data: bytes) -> Any:
    return record_type.model_validate_json(data, by_alias=True, by_name=False)


@pytest.mark.parametrize(("record_type", "record"), [(ClsArtifact, ARTIFACT), (Evidence, EVIDENCE)])
def test_the_reader_builds_what_pydantic_builds(record_type: Any, record: dict[str, Any]) -> None:
    data = json.dumps(record).encode()
    found = one_pass(record_type, data)
    assert found is not None, "the shipped types are read in one pass"
    expected = by_pydantic(record_type, data)
    assert _plan.difference(found, expected) is None
    assert found == expected
    assert found.model_fields_set == expected.model_fields_set
    assert found.to_json() == expected.to_json()
    if record_type is Evidence:  # a record holding floats has no digest
        assert found.digest() == expected.digest()


def test_kept_keys_are_in_the_fields_set_as_pydantic_keeps_them() -> None:
    found = one_pass(ClsArtifact, json.dumps(ARTIFACT).encode())
    assert "zzz" in found.model_fields_set
    assert found.__pydantic_extra__ == {"zzz": {"kept": [1]}}
    assert found.session.__pydantic_extra__ == {"probe": ARTIFACT["session"]["probe"]}
    assert found.compile_config.__pydantic_extra__ is None
    assert "options" not in found.compile_config.model_fields_set


def test_a_difference_is_named_with_its_place() -> None:
    data = json.dumps(ARTIFACT).encode()
    found, expected = one_pass(ClsArtifact, data), by_pydantic(ClsArtifact, data)
    found.kernels[0].launch.__pydantic_fields_set__.discard("block")
    problem = _plan.difference(found, expected)
    assert problem is not None
    assert problem.startswith("at /kernels/0/launch: __pydantic_fields_set__ ")
    assert _plan.difference(1, 1.0) == "at /: int against float"


@pytest.mark.parametrize(
    ("change", "path"),
    [
        (lambda r: r["kernels"][0].update(duration_ms="3"), "/kernels/0/duration_ms"),
        (lambda r: r["kernels"][0].update(type="wasm"), "/kernels/0/type"),
        (lambda r: r["kernels"][0]["launch"].update(grid=[1.0]), "/kernels/0/launch/grid/0"),
        (lambda r: r["session"].update(hostname=None), "/session/hostname"),
        (lambda r: r["session"].pop("world_size"), "/session/world_size"),
        (lambda r: r.update(call_tree={"name": "m", "self_ms": True}), "/call_tree/self_ms"),
    ],
)
def test_a_refusal_is_left_to_pydantic_which_names_it(change: Any, path: str) -> None:
    record = json.loads(json.dumps(ARTIFACT))
    change(record)
    data = json.dumps(record).encode()
    assert one_pass(ClsArtifact, data) is None
    with pytest.raises(RecordError) as refused:
        ClsArtifact.from_json(data)
    assert refused.value.pointer == path


def test_unions_and_versions_are_read_as_pydantic_reads_them() -> None:
    # The tag after the branch's other keys, and a branch that does not fit its tag.
    tagged = dict(EVIDENCE, canonical={"command": ["x"], "exit_code": 1, "heuristic": True, "kind": "exit_code"})
    assert one_pass(Evidence, json.dumps(tagged).encode()) is not None
    canonicals: list[Any] = [{"kind": "file_diff", "exit_code": 1}, {"kind": "nope"}, {"kind": 7}, [], None]
    for canonical in canonicals:
        data = json.dumps(dict(EVIDENCE, canonical=canonical)).encode()
        assert one_pass(Evidence, data) is None
        with pytest.raises(RecordError):
            Evidence.from_json(data)
    unsupported = dict(EVIDENCE, extension=dict(EVIDENCE["extension"], schema_version=3))
    data = json.dumps(unsupported).encode()
    assert one_pass(Evidence, data) is None
    with pytest.raises(concord_runtime.VersionError) as refused:
        Evidence.from_json(data)
    assert refused.value.pointer == "/extension/schema_version"


def test_a_strict_profile_refusal_is_raised_by_the_reader_as_by_the_check() -> None:
    for data in (b'{"id": 1, "id": 2}', b"[1e999]", b"\xff", b'{"a": -0}'):
        with pytest.raises(concord_runtime.JsonError) as by_reader:
            one_pass(EvidenceV1, data)
        with pytest.raises(concord_runtime.JsonError) as by_check:
            concord_runtime.strict.check(data)
        assert (by_reader.value.kind, by_reader.value.offset) == (by_check.value.kind, by_check.value.offset)


def test_root_models_read_by_json_names_only() -> None:
    class Node(concord_runtime.Model):
        model_config = pydantic.ConfigDict(extra="ignore")
        class_: concord_runtime.NotNull[str] = pydantic.Field(None, alias="class")

    class Nodes(concord_runtime.RootModel[list[Node]]):
        pass

    data = b'[{"class_": "x"}, {"class": "y"}]'
    found = Nodes.from_json(data)
    assert [node.class_ for node in found.root] == [None, "y"]
    assert found.model_fields_set == {"root"}
    # pydantic's own path, where the reader steps aside, reads the same way.
    assert [node.class_ for node in Nodes._read_by_pydantic(data).root] == [None, "y"]


def test_a_kept_key_spelled_like_a_renamed_fields_python_name_does_not_set_the_field() -> None:
    class Growing(concord_runtime.Model):
        model_config = pydantic.ConfigDict(extra="allow")
        created_at: concord_runtime.NotNull[str] = pydantic.Field(None, alias="createdAt")

    class Log(concord_runtime.RootModel[list[Growing]]):
        pass

    for data in (b'{"created_at": "kept"}', b'{"created_at": "kept", "createdAt": "x"}', b'{"created\\u005fat": 1}'):
        record = Growing.from_json(data)
        assert record.__pydantic_extra__ is not None and "created_at" in record.__pydantic_extra__
        assert ("created_at" in record.model_fields_set) == (b"createdAt" in data)
        assert record.to_json() == record._to_json_by_pydantic()
    log = Log.from_json(b'[{"created_at": "kept"}]')
    assert log.root[0].model_fields_set == set()
    assert Log._read_by_pydantic(b'[{"created_at": "kept"}]').root[0].model_fields_set == set()
    assert log.to_json() == b'[{"created_at":"kept"}]'


def test_a_class_no_generated_module_defines_keeps_pydantics_path() -> None:
    class Validated(concord_runtime.Model):
        name: str

        @pydantic.field_validator("name", mode="before")
        @classmethod
        def _upper(cls, value: Any) -> Any:
            return value

    # Its own validators are its own: only a generated module's plan says what a type reads.
    assert _plan.record_type_of(Validated) is None
    assert Validated.from_json(b'{"name": "a"}').name == "a"


def test_the_writer_writes_the_bytes_and_digest_pydantics_path_writes() -> None:
    for record_type, record in ((ClsArtifact, ARTIFACT), (Evidence, EVIDENCE)):
        read = record_type.from_json(json.dumps(record).encode())
        core = _model._record_type(record_type)
        assert core is not None
        written = core.write(read)
        assert written is not None, "the shipped types are written in one pass"
        assert written == read._to_json_by_pydantic()
        assert read._one_pass_write_difference() is None
    evidence = Evidence.from_json(json.dumps(EVIDENCE).encode())
    assert evidence.digest() == evidence._digest_by_pydantic()


def test_what_the_writer_does_not_write_is_left_to_pydantics_path() -> None:
    record = ClsArtifact.from_json(json.dumps(ARTIFACT).encode())
    core = _model._record_type(ClsArtifact)
    assert core is not None
    # A value of another type than its field's (model_construct checks nothing): pydantic's
    # serializer writes it by its own rules, so the writer steps aside.
    node = record.call_tree
    assert node is not None
    object.__setattr__(node, "self_ms", 2)
    assert core.write(record) is None
    assert record.to_json() == record._to_json_by_pydantic()
    # What the strict profile refuses is refused as before, with its pointer.
    object.__setattr__(node, "self_ms", float("nan"))
    assert core.write(record) is None
    with pytest.raises(RecordError) as refused:
        record.to_json()
    assert refused.value.pointer == "/call_tree/self_ms"
    # A kept key under a declared property's JSON name: a key twice.
    record = ClsArtifact.from_json(json.dumps(ARTIFACT).encode())
    assert record.__pydantic_extra__ is not None
    record.__pydantic_extra__["kernels"] = []
    assert core.write(record) is None
    with pytest.raises(RecordError, match="duplicate key"):
        record.to_json()


def test_the_writer_keeps_pydantics_order_and_leaves_unset_fields_out() -> None:
    record = Evidence.from_json(json.dumps(dict(EVIDENCE, source="shell")).encode())
    record.source = None
    record.payload = {"z": 1, "a": [None, 2.5]}
    written = record.to_json()
    assert written == record._to_json_by_pydantic()
    assert json.loads(written)["source"] is None
    assert list(json.loads(written)) == ["id", "session_id", "kind", "payload", "source", "canonical", "extension"]
    fresh = Evidence(id="a", session_id="s", kind="exit_code", payload=[1])
    assert fresh.to_json() == b'{"id":"a","session_id":"s","kind":"exit_code","payload":[1]}'
    assert fresh.to_json() == fresh._to_json_by_pydantic()


def test_the_canonical_writer_orders_keys_by_utf16_as_the_reference_does() -> None:
    record = json.loads(json.dumps(EVIDENCE))
    # U+FFFF sorts after U+1F600 in UTF-8 and code points, before it in UTF-16 code units.
    record["payload"] = {"z": [{"y": 1, "x": 2}], "A": None, "é": 1, "\uffff": 2, "\U0001f600": 3, "e": 4}
    record["extension"]["zeta"] = {"b": True, "a": "\u2028"}
    read = Evidence.from_json(json.dumps(record).encode())
    core = _model._record_type(Evidence)
    assert core is not None
    digest = core.digest(read)
    assert digest is not None
    assert digest == read._digest_by_pydantic()
    # A key written escaped sorts by what it says; a float has no canonical form.
    read.payload = {"tab\there": 1, "tab": 2, "\u0001": 3, "a": 4}
    assert core.digest(read) == read._digest_by_pydantic()
    read.payload = [1.5]
    assert core.digest(read) is None
    with pytest.raises(concord_runtime.CanonicalError):
        read.digest()


def _vectors() -> list[tuple[str, bytes, int | None]]:
    """Every strict-profile vector's bytes (fixtures/vectors/strict.json) and every file of
    the JSON test suite, with the size limit a vector sets."""
    root = Path(__file__).resolve().parents[2] / "fixtures" / "vectors"
    found: list[tuple[str, bytes, int | None]] = []
    for case in json.loads((root / "strict.json").read_text(encoding="utf-8"))["cases"]:
        if "input_hex" in case:
            data = bytes.fromhex(case["input_hex"])
        elif "input_parts" in case:
            data = "".join(text * times for text, times in case["input_parts"]).encode("utf-8", "surrogatepass")
        else:
            data = case["input"].encode("utf-8", "surrogatepass")
        found.append((case["name"], data * case.get("repeat", 1), case.get("max_bytes")))
    for path in sorted((root / "json-test-suite" / "test_parsing").iterdir()):
        found.append((path.name, path.read_bytes(), None))
    return found


def _placed(record: dict[str, Any], *at: str | int) -> bytes:
    """``record`` as JSON with the value at the path ``at`` left as a hole, ``{}`` in the bytes."""
    hole = "\x00hole\x00"
    copy = json.loads(json.dumps(record))
    inner = copy
    for part in at[:-1]:
        inner = inner[part]
    inner[at[-1]] = hole
    return json.dumps(copy).replace(json.dumps(hole), "{}").encode()


# Where a vector is read: a whole record; a value read as any JSON (a payload, a kept
# unknown key), a dropped unknown key's value (scanned), a string field, a map of integers.
_PLACES: list[tuple[type[_model.Model], bytes]] = [
    (ClsArtifact, b"{}"),
    (Evidence, _placed(EVIDENCE, "payload")),
    (ClsArtifact, _placed(ARTIFACT, "session", "probe")),
    (ClsArtifact, _placed(ARTIFACT, "compile_config", "junk")),
    (ClsArtifact, _placed(ARTIFACT, "kernels", 0, "name")),
    (ClsArtifact, _placed(ARTIFACT, "kernels", 0, "counters")),
]


# Taken by the profile and by the reader, refused by pydantic's own JSON parser ("number out
# of range"), before this test as after: the reader's record stands.
_PYDANTIC_REFUSES = {"a million-digit mantissa with a large negative exponent"}


def test_the_reader_refuses_what_the_strict_check_refuses_on_every_vector() -> None:
    """The reader applies the strict profile as it reads (no check before it): wherever a
    vector stands, it raises the check's very error, or, where the check accepts, raises none,
    and what it builds is what pydantic's path builds."""
    for name, vector, max_bytes in _vectors():
        for record_type, template in _PLACES:
            if max_bytes is not None and template != b"{}":
                continue
            data = template.replace(b"{}", vector, 1)
            limit = max_bytes or concord_runtime.strict.DEFAULT_MAX_BYTES
            reader = _plan.record_type_of(record_type)
            assert reader is not None
            try:
                concord_runtime.strict.check(data, max_bytes=limit)
            except concord_runtime.JsonError as error:
                with pytest.raises(concord_runtime.JsonError) as by_reader:
                    reader.read(data, limit)
                found = (by_reader.value.kind, by_reader.value.offset, str(by_reader.value))
                assert found == (error.kind, error.offset, str(error)), (name, record_type, data[:200])
                continue
            reader.read(data, limit)  # raises no JsonError
            if max_bytes is None and name not in _PYDANTIC_REFUSES:
                assert record_type._one_pass_difference(data) is None, (name, record_type, data[:200])
