//! Canonical JSON under the profile `jcs-rfc8785-integer-v1`: RFC 8785 (JCS)
//! restricted to null, booleans, strings, arrays, objects and integers in
//! ±(2^53-1). Identical to `concord_runtime.canonical` in Python.
//!
//! Written by hand on purpose: canonicalizer crates route integers through
//! f64 or sort keys by UTF-8 bytes, and serde_json's `arbitrary_precision`
//! (which some of them need) changes how every crate in the tree reads numbers.

use crate::profile::write_string_bytes;
use crate::profile::MAX_SAFE_INTEGER;
use crate::strict::{self, JsonError};
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::cmp::Ordering;
use std::fmt::{self, Write as _};

/// The profile's name, as its requirement gives it (docs/decisions/canonical-json.md).
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

mod compact;

#[doc(hidden)]
pub use compact::Members;

/// The canonical form of JSON as `to_json` writes it (compact, strings
/// escaped the canonical way): `None` when it has none or the input is not
/// of that form, and [`canonicalize`] decides and explains. Much faster than
/// reading a `Value` first.
pub fn from_compact(bytes: &[u8]) -> Option<Vec<u8>> {
    compact::canonical(bytes)
}

/// `sha256:<hex>` over the canonical form of a record's JSON as `to_json`
/// wrote it: [`from_compact`], else the reference route, which names the
/// problem when there is no canonical form. No size limit: the bytes are
/// the record's own.
pub fn digest_compact(bytes: &[u8]) -> Result<String, CanonicalError> {
    let canonical = match from_compact(bytes) {
        Some(canonical) => canonical,
        None => to_bytes(&strict::read_with(bytes, strict::Limits { max_bytes: usize::MAX })?)?,
    };
    Ok(digest_bytes(&canonical))
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

/// `sha256:<64 lowercase hex>` over exact bytes, with no normalization: the
/// form of record digests and of the registry's file pins alike.
pub fn digest_bytes(bytes: &[u8]) -> String {
    let mut text = String::with_capacity(71);
    text.push_str("sha256:");
    for byte in Sha256::digest(bytes) {
        let _ = write!(text, "{byte:02x}");
    }
    text
}

/// The canonical bytes of a value.
pub fn to_bytes(value: &Value) -> Result<Vec<u8>, CanonicalError> {
    let mut out = Vec::with_capacity(4096);
    write_value(&mut out, value).map_err(|refusal| {
        // The pointer is only built on the way out of a refusal, so the
        // happy path pays nothing for it.
        let pointer: String = refusal.path.iter().rev().map(|token| format!("/{}", crate::pointer::escape_token(token))).collect();
        CanonicalError::NotCanonical { pointer, message: refusal.message }
    })?;
    Ok(out)
}

/// A refusal on its way out: the path from the refused value up, reversed.
struct Refusal {
    path: Vec<String>,
    message: String,
}

fn write_value(out: &mut Vec<u8>, value: &Value) -> Result<(), Refusal> {
    match value {
        Value::Null => out.extend_from_slice(b"null"),
        Value::Bool(true) => out.extend_from_slice(b"true"),
        Value::Bool(false) => out.extend_from_slice(b"false"),
        Value::Number(number) => match number.as_i64().filter(|n| n.abs() <= MAX_SAFE_INTEGER) {
            Some(n) => out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes()),
            None => {
                let message = if number.is_f64() {
                    format!("{PROFILE} admits integers only, not the float {}", crate::profile::prefix(&number.to_string()))
                } else {
                    format!("integer {} is outside ±(2^53-1)", crate::profile::prefix(&number.to_string()))
                };
                return Err(Refusal { path: Vec::new(), message });
            }
        },
        Value::String(text) => write_string_bytes(out, text),
        Value::Array(items) => {
            out.push(b'[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push(b',');
                }
                write_value(out, item).map_err(|mut refusal| {
                    refusal.path.push(index.to_string());
                    refusal
                })?;
            }
            out.push(b']');
        }
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_unstable_by(|(a, _), (b, _)| utf16_cmp(a, b));
            out.push(b'{');
            for (index, (key, item)) in entries.into_iter().enumerate() {
                if index > 0 {
                    out.push(b',');
                }
                write_string_bytes(out, key);
                out.push(b':');
                write_value(out, item).map_err(|mut refusal| {
                    refusal.path.push(key.clone());
                    refusal
                })?;
            }
            out.push(b'}');
        }
    }
    Ok(())
}

/// RFC 8785 orders keys by UTF-16 code units. That is UTF-8 byte order
/// except where a character at or above U+E000 meets one above U+FFFF, so
/// compare bytes up to the first difference and decide there.
fn utf16_cmp(a: &str, b: &str) -> Ordering {
    let common = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
    // Back up to the start of the character holding the first difference.
    let mut start = common;
    while !a.is_char_boundary(start) {
        start -= 1;
    }
    match (a[start..].chars().next(), b[start..].chars().next()) {
        (Some(x), Some(y)) => {
            let (mut x16, mut y16) = ([0u16; 2], [0u16; 2]);
            (*x.encode_utf16(&mut x16)).cmp(&*y.encode_utf16(&mut y16))
        }
        (x, y) => x.is_some().cmp(&y.is_some()),
    }
}
