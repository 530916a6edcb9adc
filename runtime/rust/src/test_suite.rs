//! The official JSON-Schema-Test-Suite (draft 2020-12), beside the repository
//! at ../shared/vectors (read-only, not vendored): its groups for unit tests.

use serde_json::Value;

/// The groups of `<keyword>.json`, or none (said on stderr) where the suite is absent.
pub(crate) fn groups(file: &str) -> Vec<Value> {
    let path = format!("{}/../../../shared/vectors/json-schema-test-suite/tests/draft2020-12/{file}", env!("CARGO_MANIFEST_DIR"));
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("skipped: no {path}");
        return Vec::new();
    };
    match serde_json::from_str(&text) {
        Ok(Value::Array(groups)) => groups,
        _ => panic!("{path}: not a list of test groups"),
    }
}
