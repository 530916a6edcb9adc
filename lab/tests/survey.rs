//! The bulk-registry builder: candidates read alone, one combined registry,
//! collisions dropped and named (no compile here: `test_suite.rs` builds).

use concord_lab::survey::{self, Candidate, Document, Expect, Instance, Verdict};
use serde_json::{json, Value};

const DRAFT: &str = "https://json-schema.org/draft/2020-12/schema";

fn candidate(name: &str, schema: Value) -> Candidate {
    let instance = Instance { root: name.into(), file: "1.json".into(), description: "an instance".into(), bytes: b"{}".to_vec(), expect: Expect::Valid };
    Candidate {
        label: name.to_lowercase(),
        main: Document {
            name: name.into(),
            path: "main.schema.json".into(),
            bytes: serde_json::to_vec(&schema).unwrap(),
            uri: None,
            dialect: None,
            declared: Default::default(),
        },
        extras: Vec::new(),
        instances: vec![instance],
    }
}

/// An object whose one property is a `$defs/Metadata`: bindable alone.
fn with_metadata(name: &str) -> Candidate {
    candidate(
        name,
        json!({"$schema": DRAFT, "type": "object", "properties": {"m": {"$ref": "#/$defs/Metadata"}},
               "$defs": {"Metadata": {"type": "object", "properties": {"k": {"type": "string"}}}}}),
    )
}

#[test]
fn candidates_are_classed_alone_and_collisions_are_dropped_from_the_combined_registry() {
    let work = tempfile::tempdir().unwrap();
    let refused = candidate("Refused", json!({"$schema": DRAFT, "type": "object", "properties": {"a": {"type": "string", "dependencies": {}}}}));
    let candidates = vec![with_metadata("First"), refused, with_metadata("Second")];
    let plan = survey::plan(candidates, work.path()).unwrap();

    assert!(matches!(plan.entries[0].verdict, Verdict::Bindable));
    let Verdict::Refused(why) = &plan.entries[1].verdict else { panic!("{:?}", plan.entries[1].verdict) };
    assert_eq!(why[0].file, std::path::Path::new("Refused/main.schema.json"));
    assert_eq!(why[0].pointer, "/properties/a/dependencies");
    assert!(matches!(plan.entries[2].verdict, Verdict::Bindable));

    // The combined registry loads, and holds every bindable candidate that
    // does not collide; a dropped one says why, naming its own file. (Today
    // both `Metadata`s collide; with a namespace per entry, both stay.)
    concord_cli::load(&plan.registry).unwrap();
    let index: Value = serde_json::from_slice(&std::fs::read(plan.registry.join("registry.json")).unwrap()).unwrap();
    let listed: Vec<&str> = index["schemas"].as_array().unwrap().iter().map(|e| e["name"].as_str().unwrap()).collect();
    assert_eq!(plan.entries[0].dropped, None);
    match &plan.entries[2].dropped {
        None => assert_eq!(listed, ["First", "Second"]),
        Some(why) => {
            assert_eq!(listed, ["First"]);
            assert!(why.iter().any(|d| d.file.starts_with("Second")), "{why:?}");
        }
    }
    // Fixtures only for what the combined registry holds, with their expectation.
    assert!(plan.fixtures.join("First/1.accept").exists());
    assert_eq!(plan.fixtures.join("Second").exists(), plan.entries[2].dropped.is_none());
    assert!(!plan.fixtures.join("Refused").exists());
}

#[test]
fn entry_names_must_be_valid_and_unique() {
    let work = tempfile::tempdir().unwrap();
    let mut bad = with_metadata("First");
    bad.instances[0].root = "Elsewhere".into();
    let errors = survey::plan(vec![bad, with_metadata("First"), with_metadata("lower")], work.path()).err().unwrap().to_string();
    for expected in ["instance 1.json targets \"Elsewhere\"", "entry name \"First\" is used twice", "entry name \"lower\" is not PascalCase"] {
        assert!(errors.contains(expected), "expected {expected:?} in:\n{errors}");
    }
}
