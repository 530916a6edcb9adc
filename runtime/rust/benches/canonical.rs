//! Canonicalization throughput on a ~10 MB record set, beside serde_json's
//! own compact serializer on the same data (the yardstick: at least
//! half its speed), and strict reading beside serde_json's reader.
//!
//! `cargo bench -p concord-runtime --bench canonical`; criterion prints MB/s.

use concord_runtime::{canonical, strict};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use serde_json::{json, Value};
use std::hint::black_box;

/// Deterministic records shaped like evidence rows: nested objects, arrays,
/// integers, ASCII and non-ASCII strings, escapes. No floats (the profile
/// refuses them).
pub fn record_set(target_bytes: usize) -> Vec<u8> {
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let words = ["exit_code", "tool_result", "stdout", "Grüße", "naïve café", "日本語", "line\nbreak", "tab\tquote\"", "🙂 ok"];
    let mut records = Vec::new();
    let mut size = 0;
    while size < target_bytes {
        let n = next();
        let record = json!({
            "id": format!("ev_{:016x}", n),
            "session_id": format!("ses_{:08x}", n >> 32),
            "kind": words[(n % 2) as usize],
            "seq": (n % 1_000_000) as i64 - 500_000,
            "payload": {
                "command": ["cargo", "test", words[(n >> 8) as usize % words.len()]],
                "exit_code": (n >> 16) as i64 % 256,
                "heuristic": n % 3 == 0,
                "env": {"RUST_LOG": "debug", "zeta": words[(n >> 24) as usize % words.len()], "alpha": null},
            },
            "tags": (0..(n % 6)).map(|i| words[((n >> i) as usize) % words.len()]).collect::<Vec<_>>(),
        });
        size += record.to_string().len() + 1;
        records.push(record);
    }
    serde_json::to_vec(&Value::Array(records)).expect("serializable")
}

fn benches(c: &mut Criterion) {
    let bytes = record_set(10 * 1024 * 1024);
    let value = strict::read(&bytes).expect("the record set reads strictly");
    assert_eq!(canonical::to_bytes(&value).map(|b| b.len()).ok(), Some(bytes.len()), "canonical form has the same size");

    let mut writing = c.benchmark_group("write 10 MB");
    writing.throughput(Throughput::Bytes(bytes.len() as u64)).sample_size(20);
    writing.bench_function("serde_json::to_vec (compact)", |b| b.iter(|| serde_json::to_vec(black_box(&value)).unwrap()));
    writing.bench_function("canonical::to_bytes (jcs-rfc8785-integer-v1)", |b| b.iter(|| canonical::to_bytes(black_box(&value)).unwrap()));
    writing.finish();

    let mut reading = c.benchmark_group("read 10 MB");
    reading.throughput(Throughput::Bytes(bytes.len() as u64)).sample_size(20);
    reading.bench_function("serde_json::from_slice::<Value>", |b| b.iter(|| serde_json::from_slice::<Value>(black_box(&bytes)).unwrap()));
    reading.bench_function("strict::read", |b| b.iter(|| strict::read(black_box(&bytes)).unwrap()));
    reading.bench_function("canonical::canonicalize (read + write)", |b| b.iter(|| canonical::canonicalize(black_box(&bytes)).unwrap()));
    reading.finish();
}

criterion_group!(canonical_benches, benches);
criterion_main!(canonical_benches);
