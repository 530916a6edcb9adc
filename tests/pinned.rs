//! The bindings carry their schema files exactly as pinned, and validate
//! against them (docs/validation.md); tests/python/test_pinned.py holds the
//! Python bindings to the same.

use concord::runtime::pinned::Schema;
use concord::runtime::{canonical, Pinned};
use serde_json::{json, Value};

#[test]
fn each_root_carries_its_schema_file_byte_for_byte_with_its_pin() {
    let index: Value = serde_json::from_slice(&std::fs::read("registry/registry.json").unwrap()).unwrap();
    // Evidence is the newest version of its entry, EvidenceV1 the first.
    let roots: [(&Schema, &str, Option<u64>); 3] = [
        (concord::ClsArtifact::schema(), "ClsArtifact", None),
        (concord::EvidenceV1::schema(), "Evidence", Some(1)),
        (concord::Evidence::schema(), "Evidence", Some(2)),
    ];
    for (schema, name, version) in roots {
        let entry = index["schemas"].as_array().unwrap().iter().find(|entry| entry["name"] == name && entry["version"].as_u64() == version).unwrap();
        let file = std::fs::read(format!("registry/{}", entry["path"].as_str().unwrap())).unwrap();
        assert_eq!(schema.text().as_bytes(), file, "{name}: the file's bytes");
        assert_eq!(schema.digest(), entry["digest"], "{name}: the pin");
        assert_eq!(schema.pointer(), "", "{name}: the whole file");
        for document in schema.documents() {
            assert_eq!(canonical::digest_bytes(document.text.as_bytes()), document.digest, "{}", document.uri);
        }
    }
    assert_eq!(concord::cls_artifact::Session::schema().pointer(), "/$defs/Session");
    assert!(std::ptr::eq(concord::cls_artifact::Session::schema().document(), concord::ClsArtifact::schema().document()), "each file embedded once");
}

#[test]
fn a_root_validates_a_value_with_notes_that_never_show_it() {
    let evidence = json!({"id": "e1", "session_id": "s1", "kind": "exit_code", "payload": {"exit_code": 0}});
    assert_eq!(concord::Evidence::validate(&evidence), Ok(()));
    let refused = json!({"id": "e1", "session_id": 7, "kind": ["secret-kind"], "payload": null, "extension": {"provider": "claude"}});
    let refusal = concord::Evidence::validate(&refused).unwrap_err();
    assert_eq!(
        refusal.to_string(),
        "/session_id: is not of type \"string\"\n/kind: is not of type \"string\"\n/extension: lacks the required property \"schema_version\"\n..."
    );
    assert!(!refusal.to_string().contains("secret"));
    assert_eq!((refusal.notes[1].keyword.as_str(), refusal.notes[1].schema_path.as_str()), ("type", "/properties/kind/type"));
    // The strict profile first, as `from_json` reads.
    let error = concord::Evidence::validate_json(br#"{"id":"e1","id":"e2"}"#).unwrap_err();
    assert_eq!(error.to_string(), "duplicate-key at byte 11: duplicate key \"id\"");
    assert!(concord::Evidence::validate_json(serde_json::to_vec(&evidence).unwrap().as_slice()).is_ok());
}
