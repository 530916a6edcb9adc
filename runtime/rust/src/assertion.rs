//! Assertions on raw values that no generated type expresses (`not`,
//! `if`/`then`/`else`, `contains`, `dependentSchemas`, `propertyNames`,
//! `patternProperties`, type-less schemas such as `{"maxLength": 2}`...),
//! enforced by the `jsonschema` crate on the pinned schema document itself.
//!
//! The crate is built without its default features, so it has no way to
//! fetch a remote `$ref` (nor a file): a reference outside the document fails
//! when the assertion is built. `format` stays an annotation, as 2020-12 says.

use jsonschema::{Draft, Registry, Validator};
use serde_json::{json, Value};
use std::fmt;
use std::sync::OnceLock;

/// The base URI of a document without `$id`.
const BASE: &str = "urn:concord:document";

/// The subschema at `pointer` of a schema document, for a `static` in generated code.
pub struct Assertion {
    document: &'static str,
    pointer: &'static str,
    validator: OnceLock<Result<Validator, String>>,
}

/// Why a value fails an assertion: where in the value, and which keyword (never the value itself).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// JSON pointer into the checked value (`""`: the value itself).
    pub pointer: String,
    pub message: String,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.pointer.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{} (at {})", self.message, self.pointer)
        }
    }
}

impl Assertion {
    /// `document` is the whole schema file's text, `pointer` a JSON pointer to
    /// the subschema to enforce; built on first use.
    pub const fn new(document: &'static str, pointer: &'static str) -> Self {
        Assertion { document, pointer, validator: OnceLock::new() }
    }

    /// Builds the validator now: the generator calls this to refuse a
    /// subschema the crate cannot build (a remote `$ref`, an invalid schema).
    pub fn prepare(&self) -> Result<(), String> {
        self.validator.get_or_init(|| build(self.document, self.pointer)).as_ref().map(drop).map_err(Clone::clone)
    }

    /// Whether `value` satisfies the subschema; else the first failure.
    pub fn check(&self, value: &Value) -> Result<(), Failure> {
        let validator = match self.validator.get_or_init(|| build(self.document, self.pointer)) {
            Ok(validator) => validator,
            // The generator refuses what the engine cannot build; should one
            // slip through, every record is refused, and says why.
            Err(error) => return Err(Failure { pointer: String::new(), message: error.clone() }),
        };
        check_with(validator, value)
    }
}

/// [`Assertion::check`] with a validator from [`build`] (the Python core holds its own).
pub fn check_with(validator: &Validator, value: &Value) -> Result<(), Failure> {
    validator.validate(value).map_err(|error| Failure {
        pointer: error.instance_path().to_string(),
        message: format!("fails {} (schema {})", error.kind().keyword(), error.schema_path()),
    })
}

/// A validator of `{"$ref": "<base>#<pointer>"}` over the document as the one registered resource.
pub fn build(document: &str, pointer: &str) -> Result<Validator, String> {
    let contents: Value = serde_json::from_str(document).map_err(|error| format!("the schema document is not JSON: {error}"))?;
    let base = match contents.get("$id") {
        Some(Value::String(id)) => id.trim_end_matches('#').to_owned(),
        _ => BASE.to_owned(),
    };
    if !pointer.is_empty() && !pointer.starts_with('/') {
        return Err(format!("{pointer:?} is not a JSON pointer"));
    }
    if contents.pointer(pointer).is_none() {
        return Err(format!("no subschema at {pointer:?}"));
    }
    let registry = Registry::new()
        .draft(Draft::Draft202012)
        .add(&base, contents)
        .and_then(|builder| builder.prepare())
        .map_err(|error| format!("the schema document cannot be registered: {error}"))?;
    jsonschema::options()
        .with_draft(Draft::Draft202012)
        .should_validate_formats(false)
        .offline()
        .with_registry(&registry)
        .build(&json!({"$ref": format!("{base}#{}", fragment(pointer))}))
        .map_err(|error| format!("the subschema at {pointer:?} cannot be enforced: {}", error.masked()))
}

/// A JSON pointer as a URI fragment (RFC 6901 §6): what is not allowed there, percent-encoded.
fn fragment(pointer: &str) -> String {
    let mut out = String::with_capacity(pointer.len());
    for byte in pointer.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/?".contains(&byte) {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests;
