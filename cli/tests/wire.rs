//! The wire format both bindings own: one registry with the constructs whose
//! reading serde's derive got wrong or pointed at vaguely, round-tripped
//! through both languages, and descriptions that must never become code.

use concord_codegen::registry::digest;
use serde_json::json;
use std::path::Path;
use std::process::Command;

mod common;
use common::*;

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
        (
            "float_layout",
            r#"{"counts":{},"ratios":[1e16,1E-7,0.00001,1e-5,100,5e-324,1.7976931348623157e308,-2.5]}"#,
            Some(r#"{"counts":{},"ratios":[1e+16,1e-7,0.00001,0.00001,100.0,5e-324,1.7976931348623157e+308,-2.5]}"#),
        ),
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
    let doc: Vec<&str> = rust[start..].lines().map(str::trim_start).take_while(|line| line.starts_with("///")).collect();
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

/// The path to every value of a JSON document (keys and indexes).
fn positions(value: &serde_json::Value, path: Vec<serde_json::Value>, out: &mut Vec<Vec<serde_json::Value>>) {
    use serde_json::Value;
    out.push(path.clone());
    match value {
        Value::Object(map) => map.iter().for_each(|(k, v)| positions(v, [path.clone(), vec![json!(k)]].concat(), out)),
        Value::Array(items) => items.iter().enumerate().for_each(|(i, v)| positions(v, [path.clone(), vec![json!(i)]].concat(), out)),
        _ => {}
    }
}

/// The value at a path `positions` gave.
fn at<'v>(value: &'v mut serde_json::Value, path: &[serde_json::Value]) -> &'v mut serde_json::Value {
    path.iter().fold(value, |value, step| match step {
        serde_json::Value::String(key) => &mut value[key.as_str()],
        index => &mut value[index.as_u64().unwrap() as usize],
    })
}

/// Every value of the shipped records replaced by values of every other
/// shape (array for object, map for enum, string for number, ...), extra and
/// repeated keys in every object: whatever each language decides, both must
/// decide the same, and write the same bytes when they accept.
#[test]
fn a_wrong_shape_anywhere_gets_one_verdict() {
    use serde_json::Value;
    let wrong = json!([
        [], ["a", 1, false, null], {}, {"default": null}, {"k": 1}, "s", "", 0, -3, 1.5, true, null, [[]], [{}],
        "1", "true", 1.0, 100.0, "Default", "default", "triton", 2.5e-7, 9007199254740991_i64, 1e300,
        "2024-01-01T00:00:00Z", {"": 0}, [1.5], {"a": [null]}
    ]);
    let extras = [r#""zz":1"#, r#""zz":[1,{"a":null}]"#, r#""zz":{"a":1,"a":2}"#, r#""zz":-0"#, r#""zz":"\ud800""#, r#""":0"#, r#""zz":1.0"#];
    let scratch = tempfile::tempdir().unwrap();
    let mut count = 0;
    for root in ["ClsArtifact", "Evidence"] {
        let dir = scratch.path().join(root);
        std::fs::create_dir_all(&dir).unwrap();
        let record: Value = serde_json::from_slice(&std::fs::read(workspace().join(format!("fixtures/roundtrip/{root}/full.json"))).unwrap()).unwrap();
        let mut paths = Vec::new();
        positions(&record, vec![], &mut paths);
        let mut write = |text: String| {
            std::fs::write(dir.join(format!("{count}.json")), text).unwrap();
            std::fs::write(dir.join(format!("{count}.agree")), "").unwrap();
            count += 1;
        };
        for path in &paths {
            for value in wrong.as_array().unwrap() {
                let mut mutated = record.clone();
                *at(&mut mutated, path) = value.clone();
                write(mutated.to_string());
            }
            if let Value::Object(map) = at(&mut record.clone(), path).clone() {
                let mut marked = record.clone();
                at(&mut marked, path).as_object_mut().unwrap().insert("\u{1}mark".into(), json!(0));
                let text = marked.to_string();
                for extra in extras {
                    write(text.replace(r#""\u0001mark":0"#, extra));
                }
                if let Some((key, value)) = map.iter().next() {
                    write(text.replace(r#""\u0001mark":0"#, &format!("{}:{value}", json!(key))));
                }
            }
        }
    }
    assert!(count > 1500, "{count} cases");
    all_agree("registry", scratch.path(), count);
}

/// The same hunt over `fixtures/constructs` (unions, tuples, merged types, open
/// enums, typed ids, engine-checked keywords, references between entries):
/// every value of every record that must be accepted replaced by values of
/// other shapes, each of which both languages must decide alike.
#[test]
fn a_wrong_shape_anywhere_in_the_constructs_gets_one_verdict() {
    use serde_json::Value;
    let wrong = json!([
        [], ["a", 1, false, null], {}, {"k": 1}, "s", "", 0, -3, 1.5, true, null, [[]], [{}], "1", 1.0, 100.0, 2.5e-7,
        9007199254740991_i64, 1e300, {"": 0}, [1.5], "started", {"kind": "started"}, "high",
        "run_0190b7a2-5c1e-7d3f-8a2b-0123456789ab", ["abc", 7], ["a", 1, 2]
    ]);
    let fixtures = workspace().join("fixtures/constructs/roundtrip");
    let scratch = tempfile::tempdir().unwrap();
    let mut count = 0;
    let mut roots: Vec<_> = std::fs::read_dir(&fixtures).unwrap().map(|entry| entry.unwrap().path()).collect();
    roots.sort();
    for root in roots {
        let dir = scratch.path().join(root.file_name().unwrap());
        std::fs::create_dir_all(&dir).unwrap();
        let mut accepted: Vec<_> = std::fs::read_dir(&root)
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .filter(|path| {
                path.to_string_lossy().ends_with(".json") && !path.to_string_lossy().ends_with(".out.json") && !path.with_extension("reject").exists()
            })
            .collect();
        accepted.sort();
        for file in accepted {
            let record: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
            let mut paths = Vec::new();
            positions(&record, vec![], &mut paths);
            for path in &paths {
                for value in wrong.as_array().unwrap() {
                    let mut mutated = record.clone();
                    *at(&mut mutated, path) = value.clone();
                    std::fs::write(dir.join(format!("{count}.json")), mutated.to_string()).unwrap();
                    std::fs::write(dir.join(format!("{count}.agree")), "").unwrap();
                    count += 1;
                }
            }
        }
    }
    assert!(count > 4000, "{count} cases");
    all_agree("fixtures/constructs/registry", scratch.path(), count);
}

/// Runs `count` `.agree` fixtures in `fixtures` through both bindings of
/// `registry`: every one must pass.
fn all_agree(registry: &str, fixtures: &Path, count: usize) {
    let work = workspace().join("target/concord-roundtrip");
    let output = Command::new(env!("CARGO_BIN_EXE_concord"))
        .args(["roundtrip", "--registry", registry, "--fixtures", fixtures.to_str().unwrap()])
        .args(["--work-dir", work.to_str().unwrap(), "--python", &python()])
        .current_dir(workspace())
        .output()
        .unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success() && text.ends_with(&format!("{count} passed, 0 failed\n")), "{}", &text[text.len().saturating_sub(4000)..]);
}
