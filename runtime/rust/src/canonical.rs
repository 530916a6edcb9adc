//! Canonical JSON under the profile `jcs-rfc8785-integer-v1`: RFC 8785 (JCS)
//! restricted to null, booleans, strings, arrays, objects and integers in
//! ±(2^53-1). Identical to `concord_runtime.canonical` in Python.
//!
//! Written by hand on purpose: canonicalizer crates route integers through
//! f64 or sort keys by UTF-8 bytes, and serde_json's `arbitrary_precision`
//! (which some of them need) changes how every crate in the tree reads numbers.

use crate::strict::{self, JsonError, MAX_SAFE_INTEGER};
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::fmt::{self, Write as _};

/// The profile's name, as ADR-0004 gives it.
pub const PROFILE: &str = "jcs-rfc8785-integer-v1";

/// Why a value has no canonical form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CanonicalError {
    /// The input was refused by the strict reader.
    Read(JsonError),
    /// A value the profile does not admit, at a JSON pointer.
    NotCanonical { pointer: String, message: String },
}

impl CanonicalError {
    /// The kind's name, the same word in Python.
    pub fn kind(&self) -> &'static str {
        match self {
            CanonicalError::Read(error) => error.kind.name(),
            CanonicalError::NotCanonical { .. } => "not-canonical",
        }
    }
}

impl fmt::Display for CanonicalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CanonicalError::Read(error) => error.fmt(f),
            CanonicalError::NotCanonical { pointer, message } => write!(f, "not-canonical at \"{pointer}\": {message}"),
        }
    }
}

impl std::error::Error for CanonicalError {}

impl From<JsonError> for CanonicalError {
    fn from(error: JsonError) -> Self {
        CanonicalError::Read(error)
    }
}

/// Reads `bytes` strictly and writes their canonical form.
pub fn canonicalize(bytes: &[u8]) -> Result<Vec<u8>, CanonicalError> {
    to_bytes(&strict::read(bytes)?)
}

/// `sha256:<hex>` over the canonical form of `bytes`.
pub fn digest_json(bytes: &[u8]) -> Result<String, CanonicalError> {
    Ok(digest_bytes(&canonicalize(bytes)?))
}

/// `sha256:<hex>` over the canonical form of a value.
pub fn digest(value: &Value) -> Result<String, CanonicalError> {
    Ok(digest_bytes(&to_bytes(value)?))
}

fn digest_bytes(bytes: &[u8]) -> String {
    let mut text = String::with_capacity(71);
    text.push_str("sha256:");
    for byte in Sha256::digest(bytes) {
        let _ = write!(text, "{byte:02x}");
    }
    text
}

/// The canonical bytes of a value.
pub fn to_bytes(value: &Value) -> Result<Vec<u8>, CanonicalError> {
    let mut out = String::new();
    let mut pointer = String::new();
    write_value(&mut out, value, &mut pointer)?;
    Ok(out.into_bytes())
}

fn write_value(out: &mut String, value: &Value, pointer: &mut String) -> Result<(), CanonicalError> {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(true) => out.push_str("true"),
        Value::Bool(false) => out.push_str("false"),
        Value::Number(number) => {
            let integer = number.as_i64().filter(|n| n.abs() <= MAX_SAFE_INTEGER);
            match integer {
                Some(n) => {
                    let _ = write!(out, "{n}");
                }
                None => {
                    let message = if number.is_f64() {
                        format!("{PROFILE} admits integers only, not the float {}", short(&number.to_string()))
                    } else {
                        format!("integer {} is outside ±(2^53-1)", short(&number.to_string()))
                    };
                    return Err(CanonicalError::NotCanonical { pointer: pointer.clone(), message });
                }
            }
        }
        Value::String(text) => write_string(out, text),
        Value::Array(items) => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                let len = pointer.len();
                let _ = write!(pointer, "/{index}");
                write_value(out, item, pointer)?;
                pointer.truncate(len);
            }
            out.push(']');
        }
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            // RFC 8785: keys in the order of their UTF-16 code units.
            entries.sort_by(|(a, _), (b, _)| a.encode_utf16().cmp(b.encode_utf16()));
            out.push('{');
            for (index, (key, item)) in entries.into_iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                write_string(out, key);
                out.push(':');
                let len = pointer.len();
                pointer.push('/');
                pointer.push_str(&crate::escape_pointer_token(key));
                write_value(out, item, pointer)?;
                pointer.truncate(len);
            }
            out.push('}');
        }
    }
    Ok(())
}

fn short(text: &str) -> String {
    match text.char_indices().nth(20) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
}

/// A JSON string as RFC 8785 writes it: `\b \t \n \f \r` short, other C0
/// controls as lowercase `\u00xx`, `"` and `\` escaped, all else raw. This
/// is also how serde_json escapes.
pub fn write_string(out: &mut String, text: &str) {
    out.push('"');
    let mut run = 0;
    for (index, byte) in text.bytes().enumerate() {
        let escape = match byte {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\x08' => "\\b",
            b'\t' => "\\t",
            b'\n' => "\\n",
            b'\x0c' => "\\f",
            b'\r' => "\\r",
            0..=0x1f => "",
            _ => continue,
        };
        out.push_str(&text[run..index]);
        if escape.is_empty() {
            let _ = write!(out, "\\u{byte:04x}");
        } else {
            out.push_str(escape);
        }
        run = index + 1;
    }
    out.push_str(&text[run..]);
    out.push('"');
}
