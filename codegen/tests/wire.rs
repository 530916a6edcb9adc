//! The wire format both bindings own: one registry with the constructs whose
//! reading serde's derive got wrong or pointed at vaguely, round-tripped
//! through both languages, and descriptions that must never become code.

use concord_codegen::registry::digest;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::Command;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

fn python() -> String {
    let python = std::env::var("CONCORD_PYTHON").unwrap_or_else(|_| workspace().join(".venv/bin/python").display().to_string());
    assert!(Path::new(&python).exists(), "no Python at {python}: run scripts/test, which creates .venv with the pinned packages");
    python
}

const DESCRIPTION: &str = "First line\rafter a bare carriage return\n\n    an indented block\n\n```\nfenced = 1\n```\nand a bidi control \u{202e} here";

fn write_registry(dir: &Path) {
    let schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "description": DESCRIPTION,
        "properties": {
            "counts": {
                "type": "object",
                "properties": {"total": {"type": "integer"}},
                "additionalProperties": {"type": "integer"}
            },
            "closed": {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": false},
            "mode": {"type": "string", "enum": ["a", "b"]},
            "ratios": {"type": "array", "items": {"type": "number"}},
            "next": {"$ref": "#"}
        },
        "required": ["counts"]
    });
    let bytes = serde_json::to_vec_pretty(&schema).unwrap();
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("wire.schema.json"), &bytes).unwrap();
    let index = json!({"format": 1, "schemas": [{"name": "Wire", "path": "wire.schema.json", "digest": digest(&bytes)}]});
    std::fs::write(dir.join("registry.json"), serde_json::to_vec(&index).unwrap()).unwrap();
}

#[test]
fn both_bindings_read_write_and_point_alike() {
    let scratch = tempfile::tempdir().unwrap();
    let registry = scratch.path().join("registry");
    write_registry(&registry);
    let fixtures = scratch.path().join("fixtures/Wire");
    std::fs::create_dir_all(&fixtures).unwrap();
    let cases: &[(&str, &str, Option<&str>)] = &[
        // name, input, expected output (None: the input itself)
        ("typed_extra_kept", r#"{"counts":{"x":2,"total":1,"y":3},"next":{"counts":{}}}"#, Some(r#"{"counts":{"total":1,"x":2,"y":3},"next":{"counts":{}}}"#)),
        ("float_layout", r#"{"counts":{},"ratios":[1e16,1E-7,0.00001,1e-5,100,5e-324,1.7976931348623157e308,-2.5]}"#,
            Some(r#"{"counts":{},"ratios":[1e+16,1e-7,0.00001,0.00001,100.0,5e-324,1.7976931348623157e+308,-2.5]}"#)),
    ];
    for (name, input, output) in cases {
        std::fs::write(fixtures.join(format!("{name}.json")), input).unwrap();
        if let Some(output) = output {
            std::fs::write(fixtures.join(format!("{name}.out.json")), output).unwrap();
        }
    }
    let refusals: &[(&str, &str, &str)] = &[
        // A wrong value beside `additionalProperties` is pointed at its own key in both languages.
        ("typed_extra_wrong_value", r#"{"counts":{"total":1,"x":"two"}}"#, r#"at "/counts/x""#),
        ("closed_unknown_key", r#"{"counts":{},"closed":{"a":"s","b":1}}"#, r#"at "/closed/b""#),
        ("struct_as_array", r#"{"counts":[1]}"#, r#"at "/counts""#),
        ("closed_as_array", r#"{"counts":{},"closed":["s"]}"#, r#"at "/closed""#),
        ("enum_as_map", r#"{"counts":{},"mode":{"a":null}}"#, r#"at "/mode""#),
        ("recursive_as_array", r#"{"counts":{},"next":[{}]}"#, r#"at "/next""#),
        ("missing_required_deep", r#"{"counts":{},"next":{"counts":{},"next":{}}}"#, r#"at "/next/next/counts""#),
        ("typed_extra_duplicate", r#"{"counts":{"x":1,"x":2}}"#, "duplicate-key"),
    ];
    for (name, input, reason) in refusals {
        std::fs::write(fixtures.join(format!("{name}.json")), input).unwrap();
        std::fs::write(fixtures.join(format!("{name}.reject")), reason).unwrap();
    }
    let work = workspace().join("target/concord-roundtrip");
    let output = Command::new(env!("CARGO_BIN_EXE_concord"))
        .args(["roundtrip", "--registry", registry.to_str().unwrap(), "--fixtures", fixtures.parent().unwrap().to_str().unwrap()])
        .args(["--work-dir", work.to_str().unwrap(), "--python", &python()])
        .current_dir(workspace())
        .output()
        .unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "{text}");
    assert!(text.ends_with(&format!("{} passed, 0 failed\n", cases.len() + refusals.len())), "{text}");
}

/// rustdoc runs an indented block or a fence in a doc comment as a doctest,
/// and rustc refuses a bare CR or a bidi control in a comment: a
/// description holding them is written as plain text that compiles.
#[test]
fn descriptions_never_become_code() {
    let scratch = tempfile::tempdir().unwrap();
    let registry = scratch.path().join("registry");
    write_registry(&registry);
    let files = concord_codegen::Config::new().registry(&registry).generate().unwrap();
    let rust = &files[0].contents;
    let start = rust.find("/// ````text").or_else(|| rust.find("/// ```text")).expect("the description is fenced as text");
    let doc: Vec<&str> = rust[start..].lines().take_while(|line| line.starts_with("///")).collect();
    assert_eq!(
        doc,
        [
            "/// ````text",
            "/// First line",
            "/// after a bare carriage return",
            "///",
            "///     an indented block",
            "///",
            "/// ```",
            "/// fenced = 1",
            "/// ```",
            "/// and a bidi control \\u{202e} here",
            "/// ````",
        ]
    );
    assert!(!rust.contains('\r') && !rust.contains('\u{202e}'));
}
