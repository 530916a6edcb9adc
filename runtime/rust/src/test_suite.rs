//! The official JSON-Schema-Test-Suite (draft 2020-12), copied into
//! `fixtures/vectors/json-schema-test-suite/tests/draft2020-12`: its groups for unit tests.

use serde_json::Value;

/// The groups of `<keyword>.json`.
pub(crate) fn groups(file: &str) -> Vec<Value> {
    let path = format!("{}/../../fixtures/vectors/json-schema-test-suite/tests/draft2020-12/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{path}: {error}"));
    match serde_json::from_str(&text) {
        Ok(Value::Array(groups)) => groups,
        _ => panic!("{path}: not a list of test groups"),
    }
}
