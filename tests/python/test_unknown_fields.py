"""The paired unknown-key test (docs/decisions/unknown-keys.md), Python side
(the Rust side is tests/unknown_fields.rs): unknown keys survive at growth
points, vanish inside default types, and are refused by closed types."""

import pytest
from concord_registry import ClsArtifact, Evidence
from concord_registry.cls_artifact import Session
from concord_runtime import CanonicalError, RecordError, canonical

ARTIFACT = (
    '{"format_version":1,"session":{"gpu_arch":"sm_90","driver_version":"550.54.15","cuda_version":"12.4",'
    '"cudnn_version":null,"world_size":1,"zeta":{"b":[1,{"y":null,"x":2.5}],"a":"é"},"alpha":true},'
    '"compile_config":{"backend":"inductor","mode":"default","fullgraph":false,"dynamic":null,"future_flag":1},'
    '"kernels":[{"name":"k","type":"triton","duration_ms":0.5,"launch":{"grid":[1,1,1],"block":[32,1,1],'
    '"shared_mem_bytes":0,"new_dim":7},"deep_unknown":{"x":1}}],"top_new":[3,2,1]}'
).encode()


def test_unknown_field_handled() -> None:
    artifact = ClsArtifact.from_json(ARTIFACT)
    # Growth points keep their unknown keys, nested values and order included.
    assert list((artifact.model_extra or {}).keys()) == ["top_new"]
    assert list((artifact.session.model_extra or {}).keys()) == ["zeta", "alpha"]

    written = artifact.to_json().decode()
    assert '"world_size":1,"zeta":{"b":[1,{"y":null,"x":2.5}],"a":"é"},"alpha":true}' in written
    assert written.endswith('"top_new":[3,2,1]}')
    # Default types accept unknown keys and drop them.
    for dropped in ["future_flag", "new_dim", "deep_unknown"]:
        assert dropped not in written

    # A closed type refuses an unknown key and names it with its pointer.
    evidence = (
        b'{"id":"ev_1","session_id":"s","kind":"exit_code","payload":null,'
        b'"canonical":{"kind":"exit_code","command":"ls","exit_code":0,"heuristic":false,"surprise":1}}'
    )
    with pytest.raises(RecordError) as refused:
        Evidence.from_json(evidence)
    assert refused.value.pointer == "/canonical/surprise"
    assert "Extra inputs are not permitted" in refused.value.message


def session(nccl: str = "", hostname: str = "") -> str:
    return (
        '{"gpu_arch":"a","driver_version":"d","cuda_version":"c",'
        f'{nccl}"cudnn_version":null,{hostname}"world_size":1}}'
    )


@pytest.mark.parametrize(
    ("nccl", "expected"),
    [("", None), ('"nccl_version":null,', None), ('"nccl_version":"2.21",', "2.21")],
)
def test_absent_null_and_value_stay_distinct(nccl: str, expected: str | None) -> None:
    read = Session.from_json(session(nccl))
    assert read.nccl_version == expected
    assert ("nccl_version" in read.model_fields_set) == bool(nccl)
    assert read.to_json().decode() == session(nccl)


def test_null_for_an_optional_non_nullable_property_is_refused() -> None:
    with pytest.raises(RecordError) as refused:
        Session.from_json(session(hostname='"hostname":null,'))
    assert refused.value.pointer == "/hostname"


def test_a_missing_required_nullable_property_is_refused() -> None:
    with pytest.raises(RecordError) as refused:
        Session.from_json(session().replace('"cudnn_version":null,', ""))
    assert refused.value.pointer == "/cudnn_version"
    assert refused.value.message == "Field required"


def test_record_digests_are_canonical_and_refuse_floats() -> None:
    data = b'{"payload":{"z":[1,2],"a":"\xc3\xa9"},"kind":"exit_code","session_id":"s","id":"ev_1"}'
    digest = Evidence.from_json(data).digest()
    assert digest == canonical.digest_json(data)
    # sha256 of {"id":"ev_1","kind":"exit_code","payload":{"a":"é","z":[1,2]},"session_id":"s"}
    assert digest == "sha256:ea17a88ba040422bd520ae831f311d2f7e6c86bfffe4f559baf9e648e7bd69db"

    with pytest.raises(CanonicalError) as refused:
        ClsArtifact.from_json(ARTIFACT).digest()
    assert refused.value.pointer == "/kernels/0/duration_ms"
    assert "admits integers only, not the float 0.5" in str(refused.value)
