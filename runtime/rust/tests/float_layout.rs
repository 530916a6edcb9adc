//! The Rust float writer against the shared layout vectors (`fixtures/vectors/floats.json`),
//! which the Python runtime passes too.

use concord_runtime::float;

#[test]
fn every_float_vector_is_written_as_specified() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/vectors/floats.json")).unwrap();
    let vectors: concord_runtime::Value = concord_runtime::serde_json::from_str(&text).unwrap();
    let vectors = vectors["vectors"].as_array().unwrap();
    assert!(vectors.len() > 500);
    let mut failures = Vec::new();
    for vector in vectors {
        let bits = u64::from_str_radix(vector["bits"].as_str().unwrap(), 16).unwrap();
        let value = f64::from_bits(bits);
        let expected = vector["text"].as_str().unwrap();
        let written = float::format(value);
        if written != expected {
            failures.push(format!("{value:e}: wrote {written}, expected {expected}"));
        }
        assert_eq!(expected.parse::<f64>().unwrap().to_bits(), bits, "{expected} reads back to the same bits");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
