//! The Rust side of the addon's differential test (`test/engine.test.mjs`):
//! what the Rust runtime says of each case, as a generated type's
//! `validate_json` says it (`read::value`, under the default limits unless
//! the case says, then `Checker::validate`), for the addon to be compared with.
//!
//! Reads a request on standard input, `{"suite": <folder or null>, "cases":
//! [{"documents": [[uri, text, dialect or null]...], "pointer": "...",
//! "inputs": [[byte...]...], "maxBytes"?: n}...]}`, and writes one JSON object: each case's
//! build and each input's answer, and, when `suite` names a folder of the
//! JSON-Schema-Test-Suite (`.../draft2020-12`), every test of its `*.json`
//! files with the exact texts the addon is to be given. A suite file is read
//! by serde_json as the runtime builds it (order kept, floats exact), so
//! `1.0` stays `1.0`: the texts are the suite's values, not JavaScript's.
//!
//! `cargo run --release -p concord-node-engine --example rust-notes < request.json`

use concord_runtime::pinned::{Checker, Refusal, Source};
use concord_runtime::read;
use concord_runtime::serde_json::{self, json, Value};
use concord_runtime::strict::{Limits, DEFAULT_MAX_BYTES};
use std::io::Read;
use std::path::Path;

/// Where a suite schema without `$id` stands, as in tests/python/test_engine_reference.py.
const REGISTRY_URI: &str = "https://registry.concord.invalid/suite.json";

fn main() {
    let mut request = String::new();
    std::io::stdin().read_to_string(&mut request).expect("a request on standard input");
    let request: Value = serde_json::from_str(&request).expect("the request is JSON");
    let cases: Vec<Value> = request["cases"].as_array().into_iter().flatten().map(case).collect();
    let suite = request["suite"].as_str().map(|folder| suite(Path::new(folder)));
    let answer = json!({"version": env!("CARGO_PKG_VERSION"), "defaultMaxBytes": DEFAULT_MAX_BYTES, "cases": cases, "suite": suite});
    println!("{answer}");
}

fn case(case: &Value) -> Value {
    let documents: Vec<(String, String, Option<String>)> = serde_json::from_value(case["documents"].clone()).expect("documents");
    let pointer = case["pointer"].as_str().unwrap_or_default();
    let inputs: Vec<Vec<u8>> = serde_json::from_value(case["inputs"].clone()).expect("inputs");
    let limits = Limits { max_bytes: case["maxBytes"].as_u64().map_or(DEFAULT_MAX_BYTES, |max| max as usize) };
    let sources: Vec<Source<'_>> = documents.iter().map(|(uri, text, dialect)| Source { uri, text, dialect: dialect.as_deref() }).collect();
    match Checker::build(&sources, pointer) {
        Ok(checker) => json!({"built": true, "answers": inputs.iter().map(|input| answer(&checker, input, limits)).collect::<Vec<_>>()}),
        Err(problem) => json!({"built": false, "error": problem}),
    }
}

/// What the Rust runtime says of `input`: `{"notes": [[pointer, keyword,
/// schemaPath, message, line]...], "more"}` (no notes: it passes), or the
/// strict profile's refusal.
fn answer(checker: &Checker, input: &[u8], limits: Limits) -> Value {
    let value = match read::value(input, limits) {
        Ok(value) => value,
        Err(error) => return json!({"jsonError": {"message": error.to_string(), "kind": error.kind.name(), "offset": error.offset}}),
    };
    let Refusal { notes, more } = match checker.validate(&value) {
        Ok(()) => return json!({"notes": [], "more": false}),
        Err(refusal) => refusal,
    };
    let notes: Vec<Value> = notes.into_iter().map(|note| json!([note.pointer, note.keyword, note.schema_path, note.message, note.to_string()])).collect();
    json!({"notes": notes, "more": more})
}

/// Every group of every `*.json` file of `folder`, sorted by name.
fn suite(folder: &Path) -> Vec<Value> {
    let mut files: Vec<_> = std::fs::read_dir(folder)
        .expect("the suite's folder")
        .map(|entry| entry.expect("a folder entry").path())
        .filter(|path| path.extension().is_some_and(|extension| extension == "json"))
        .collect();
    files.sort();
    let mut groups = Vec::new();
    for path in files {
        let file = path.file_name().unwrap_or_default().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).expect("a suite file");
        let parsed: Value = serde_json::from_str(&text).expect("a suite file is JSON");
        for group in parsed.as_array().into_iter().flatten() {
            let schema = serde_json::to_string(&group["schema"]).expect("JSON");
            let uri = match group["schema"].get("$id").and_then(Value::as_str) {
                Some(id) => id.trim_end_matches('#').to_owned(),
                None => REGISTRY_URI.to_owned(),
            };
            let tests = group["tests"].as_array().cloned().unwrap_or_default();
            let inputs: Vec<Vec<u8>> = tests.iter().map(|test| serde_json::to_vec(&test["data"]).expect("JSON")).collect();
            let request = json!({"documents": [[uri, schema, null]], "pointer": "", "inputs": inputs});
            let mut answer = case(&request);
            let tests: Vec<Value> = tests
                .iter()
                .zip(&inputs)
                .map(|(test, input)| json!({"description": test["description"], "valid": test["valid"], "data": String::from_utf8_lossy(input)}))
                .collect();
            answer["file"] = json!(file);
            answer["group"] = group["description"].clone();
            answer["uri"] = json!(uri);
            answer["schema"] = json!(schema);
            answer["tests"] = json!(tests);
            groups.push(answer);
        }
    }
    groups
}
