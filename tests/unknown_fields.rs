//! The paired unknown-key test (docs/decisions/unknown-keys.md), Rust side
//! (the Python side is tests/python/test_unknown_fields.py): unknown keys
//! survive at growth points, vanish inside default types, and are refused
//! by closed types.

use concord::runtime::Record;
use concord::{ClsArtifact, Evidence};

const ARTIFACT: &str = r#"{"format_version":1,"session":{"gpu_arch":"sm_90","driver_version":"550.54.15","cuda_version":"12.4","cudnn_version":null,"world_size":1,"zeta":{"b":[1,{"y":null,"x":2.5}],"a":"é"},"alpha":true},"compile_config":{"backend":"inductor","mode":"default","fullgraph":false,"dynamic":null,"future_flag":1},"kernels":[{"name":"k","type":"triton","duration_ms":0.5,"launch":{"grid":[1,1,1],"block":[32,1,1],"shared_mem_bytes":0,"new_dim":7},"deep_unknown":{"x":1}}],"top_new":[3,2,1]}"#;

#[test]
fn test_unknown_field_handled() {
    let artifact = ClsArtifact::from_json(ARTIFACT.as_bytes()).unwrap();
    // Growth points keep their unknown keys, nested values and order included.
    let top: Vec<&String> = artifact.extra_.keys().collect();
    assert_eq!(top, ["top_new"]);
    let session: Vec<&String> = artifact.session.extra.keys().collect();
    assert_eq!(session, ["zeta", "alpha"]);

    let written = String::from_utf8(artifact.to_json().unwrap()).unwrap();
    assert!(written.contains(r#""world_size":1,"zeta":{"b":[1,{"y":null,"x":2.5}],"a":"é"},"alpha":true}"#), "{written}");
    assert!(written.ends_with(r#""top_new":[3,2,1]}"#), "{written}");
    // Default types accept unknown keys and drop them.
    for dropped in ["future_flag", "new_dim", "deep_unknown"] {
        assert!(!written.contains(dropped), "{dropped} survived: {written}");
    }

    // A closed type refuses an unknown key and names it with its pointer.
    let evidence = r#"{"id":"ev_1","session_id":"s","kind":"exit_code","payload":null,"canonical":{"kind":"exit_code","command":"ls","exit_code":0,"heuristic":false,"surprise":1}}"#;
    let error = Evidence::from_json(evidence.as_bytes()).unwrap_err();
    assert_eq!(error.pointer(), Some("/canonical/surprise"));
    assert!(error.message().contains("unknown field `surprise`"), "{error}");
}

#[test]
fn absent_null_and_value_stay_distinct() {
    let session = |nccl: &str, hostname: &str| {
        format!(r#"{{"gpu_arch":"a","driver_version":"d","cuda_version":"c",{nccl}"cudnn_version":null,{hostname}"world_size":1}}"#)
    };
    for (nccl, expected) in [("", None), (r#""nccl_version":null,"#, Some(None)), (r#""nccl_version":"2.21","#, Some(Some("2.21")))] {
        let json = session(nccl, "");
        let read = concord::cls_artifact::Session::from_json(json.as_bytes()).unwrap();
        assert_eq!(read.nccl_version.as_ref().map(|v| v.as_deref()), expected);
        assert_eq!(String::from_utf8(read.to_json().unwrap()).unwrap(), json);
    }
    // Optional but not nullable: null is refused, not read as absent.
    let error = concord::cls_artifact::Session::from_json(session("", r#""hostname":null,"#).as_bytes()).unwrap_err();
    assert_eq!(error.pointer(), Some("/hostname"));
    // Required and nullable: absence is refused, not read as null.
    let missing = session("", "").replace(r#""cudnn_version":null,"#, "");
    let error = concord::cls_artifact::Session::from_json(missing.as_bytes()).unwrap_err();
    assert!(error.message().contains("missing field `cudnn_version`"), "{error}");
}

#[test]
fn record_digests_are_canonical_and_refuse_floats() {
    let bytes = r#"{"payload":{"z":[1,2],"a":"é"},"kind":"exit_code","session_id":"s","id":"ev_1"}"#.as_bytes();
    let evidence = Evidence::from_json(bytes).unwrap();
    let digest = evidence.digest().unwrap();
    assert_eq!(digest, concord::runtime::canonical::digest_json(bytes).unwrap());
    // sha256 of {"id":"ev_1","kind":"exit_code","payload":{"a":"é","z":[1,2]},"session_id":"s"}
    assert_eq!(digest, "sha256:ea17a88ba040422bd520ae831f311d2f7e6c86bfffe4f559baf9e648e7bd69db");

    let artifact = ClsArtifact::from_json(ARTIFACT.as_bytes()).unwrap();
    let error = artifact.digest().unwrap_err();
    assert_eq!(error.pointer(), Some("/kernels/0/duration_ms"));
    assert!(error.to_string().contains("admits integers only, not the float 0.5"), "{error}");
}
