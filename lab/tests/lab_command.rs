//! The `concord-lab` command line.

use std::process::{Command, Output};

mod common;
use common::*;

/// Runs `concord-lab` in the workspace.
fn lab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_concord-lab")).args(args).current_dir(workspace()).output().unwrap()
}

/// Standard output and standard error, together.
fn text(output: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr))
}

/// `concord survey` on a small corpus: a schema that binds, one refused, and
/// one whose Python package does not import (a Python that refuses any
/// package holding `class Poison`): the survey survives the combined build
/// failing, builds each schema alone to say which, and reports.
#[test]
fn survey_reports_each_schema_and_survives_a_failing_build() {
    let python = python();
    let corpus = tempfile::tempdir().unwrap();
    let draft = "https://json-schema.org/draft/2020-12/schema";
    let mut manifest = String::from("short_name\tdialect\tsource_repo\tpath_in_repo\n");
    let schemas = [
        ("good_one", serde_json::json!({"$schema": draft, "type": "object", "properties": {"a": {"type": "string"}}})),
        ("refused_one", serde_json::json!({"$schema": draft, "type": "object", "properties": {"a": {"type": "string", "dependencies": {}}}})),
        ("poison", serde_json::json!({"$schema": draft, "type": "object", "properties": {"b": {"type": "integer"}}})),
        ("old_draft", serde_json::json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object"})),
    ];
    for (name, schema) in &schemas {
        manifest.push_str(&format!("{name}\t{}\towner/repo\tschemas/{name}.json\n", schema["$schema"].as_str().unwrap()));
        std::fs::create_dir_all(corpus.path().join("schemas")).unwrap();
        std::fs::write(corpus.path().join(format!("schemas/{name}.schema.json")), serde_json::to_vec(schema).unwrap()).unwrap();
        let instances = corpus.path().join("instances").join(name);
        std::fs::create_dir_all(&instances).unwrap();
        std::fs::write(
            instances.join("SOURCES.tsv"),
            "file\tsource\tconversion\ttarget\tvalid_per_python_jsonschema\n1.json\tsomewhere\tas published\t#\ttrue\n",
        )
        .unwrap();
        std::fs::write(instances.join("1.json"), br#"{"a": "x", "b": 1, "unknown": true}"#).unwrap();
    }
    std::fs::write(corpus.path().join("MANIFEST.tsv"), manifest).unwrap();
    let work = tempfile::tempdir().unwrap();
    let out = work.path().join("survey.md");
    let harness = workspace().join("target/concord-roundtrip");
    let poisoned = work.path().join("python");
    let wrapper = format!(
        "#!/bin/sh\nfor dir in $(echo \"$PYTHONPATH\" | tr ':' ' '); do\n  if grep -rqs 'class Poison' \"$dir/concord_registry\"; then echo 'ImportError: poisoned' >&2; exit 1; fi\ndone\nexec {python:?} \"$@\"\n"
    );
    std::fs::write(&poisoned, wrapper).unwrap();
    std::fs::set_permissions(&poisoned, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let args = ["survey", "--corpus", corpus.path().to_str().unwrap(), "--out", out.to_str().unwrap(), "--python", poisoned.to_str().unwrap()];
    let output = lab(&[&args[..], &["--work-dir", work.path().to_str().unwrap(), "--harness-dir", harness.to_str().unwrap()]].concat());
    assert!(output.status.success(), "{}", text(&output));
    let table = std::fs::read_to_string(&out).unwrap();
    assert_eq!(table, String::from_utf8_lossy(&output.stdout));
    assert!(table.contains("| good_one | 2020-12 | 1 | generated | struct | 1, 0, 0 |  | yes | yes | 1 / 1 |"), "{table}");
    assert!(
        table.contains(
            "| refused_one | 2020-12 | 1 | refused |  |  | RefusedOne/schemas/refused_one.json at /properties/a/dependencies: `dependencies` is refused"
        ),
        "{table}"
    );
    assert!(table.contains("| poison | 2020-12 | 1 | generated | struct | 1, 0, 0 |  | yes | **no** | 0 of 1 checked |"), "{table}");
    assert!(table.contains("Combined: the combined registry did not import (Python): error: "), "{table}");
    // Every dialect is surveyed: the draft-07 schema is read into its own types.
    assert!(table.contains("| old_draft | draft-07 | 1 | generated | map | 0, 0, 0 |"), "{table}");
    assert!(table.contains("| **total** | | | **3 / 4** | **3 typed** | | | **3** | **2** | **2 / 4** |"), "{table}");
}
