//! The round-trip harness of a registry's Rust bindings, as `concord
//! roundtrip` and `concord fuzz` build it: the command writes this file,
//! as it is, as the `src/main.rs` of a scratch crate, beside the two files
//! it generates for the registry: `bindings.rs`, the bindings, and
//! `answer.rs`, the function [`answer`] that maps each record type's name
//! to its answer (`cli/src/roundtrip.rs`).
//!
//! Reads `Name\tpath` lines on stdin (or `Name\t:hex`, the input's bytes in
//! hex) and answers each with one JSON line, `{"ok": output, "digest":
//! digest}` or `{"error": message}`, with `validate`'s verdict beside it
//! (`"validated"`) for a pinned type; an empty line flushes the answers.
//! `Name` is a root's name or any record type's label (`Entry.Type`).
//!
//! In concord's own workspace this file is concord-cli's example
//! `roundtrip-harness`, so that rustfmt and clippy check it: the
//! `bindings.rs` and `answer.rs` beside it are what the command writes for
//! the one-schema registry in `registry/` (a test in `cli/src/roundtrip.rs`
//! keeps them so).

#[allow(clippy::all, dead_code)]
mod bindings {
    include!("bindings.rs");
}

use concord_runtime::{Pinned, Record, Value};
use std::io::{BufRead, Write};

// `fn answer(name: &str, bytes: &[u8]) -> Option<Value>`: the answer of the
// record type `name` names, by `roundtrip` (and `validated`, for a pinned
// type); none for a name the registry does not have.
include!("answer.rs");

/// Reads `bytes` as a `T` and writes it back: the output and its digest (or
/// why it has none), or the refusal.
fn roundtrip<T: Record>(bytes: &[u8]) -> Value {
    let record = match T::from_json(bytes) {
        Ok(record) => record,
        Err(error) => return concord_runtime::serde_json::json!({ "error": error.to_string() }),
    };
    let digest = match record.digest() {
        Ok(digest) => digest,
        Err(error) => format!("no digest: {error}"),
    };
    match record.to_json() {
        Ok(bytes) => concord_runtime::serde_json::json!({ "ok": String::from_utf8_lossy(&bytes), "digest": digest }),
        Err(error) => concord_runtime::serde_json::json!({ "error": error.to_string() }),
    }
}

/// The answer with the pinned schema's verdict on the same bytes, the engine's
/// alone (not `Pinned::validate_json`, which trusts a record that reads):
/// `true`, or the refusal.
fn validated<T: Pinned>(bytes: &[u8], mut answer: Value) -> Value {
    answer["validated"] = match T::schema().validate_json(bytes) {
        Ok(()) => Value::Bool(true),
        Err(error) => Value::String(error.to_string()),
    };
    answer
}

fn unhex(hex: &str) -> Vec<u8> {
    (0..hex.len() / 2).map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).expect("hex bytes")).collect()
}

fn main() {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for line in std::io::stdin().lock().lines() {
        let line = line.expect("stdin is readable");
        if line.is_empty() {
            out.flush().expect("stdout is writable");
            continue;
        }
        let (name, path) = line.split_once('\t').expect("a line is NAME<TAB>PATH");
        let bytes = match path.strip_prefix(':') {
            Some(hex) => unhex(hex),
            None => std::fs::read(path).expect("the fixture is readable"),
        };
        let answer = answer(name, &bytes).unwrap_or_else(|| concord_runtime::serde_json::json!({ "error": format!("no record type {name}") }));
        writeln!(out, "{answer}").expect("stdout is writable");
    }
}
