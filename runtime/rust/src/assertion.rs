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

/// The base URI of a schema document without `$id`: its path in the
/// registry, below a host that can never resolve (nothing is fetched).
pub const BASE: &str = "https://registry.concord.invalid/";

/// A registry's schema documents, each as its base URI and pinned text.
pub type Documents = &'static [(&'static str, &'static str)];

/// The subschema at `pointer` of one of a registry's documents, for a
/// `static` in generated code. Every document of the registry is a resource
/// of the engine, so that a `$ref` from one entry to another resolves.
pub struct Assertion {
    documents: Documents,
    document: usize,
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
    /// `documents[document]` holds the subschema; `pointer` is a JSON pointer
    /// to it. Built on first use.
    pub const fn new(documents: Documents, document: usize, pointer: &'static str) -> Self {
        Assertion { documents, document, pointer, validator: OnceLock::new() }
    }

    /// Whether `value` satisfies the subschema; else the first failure.
    pub fn check(&self, value: &Value) -> Result<(), Failure> {
        let validator = match self.validator.get_or_init(|| build_in(self.documents, self.document, self.pointer)) {
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

/// A validator for one document alone (its base: its `$id`, else [`BASE`]).
pub fn build(document: &str, pointer: &str) -> Result<Validator, String> {
    let base = format!("{BASE}document.json");
    build_in(&[(base.as_str(), document)], 0, pointer)
}

/// A validator of `{"$ref": "<base>#<pointer>"}`, `base` the URI of
/// `documents[document]`, over every document as a registered resource.
pub fn build_in(documents: &[(&str, &str)], document: usize, pointer: &str) -> Result<Validator, String> {
    build_many(documents, document, &[pointer])
}

/// One validator over several subschemas of `documents[document]` (their
/// `anyOf`): the generator builds it once per entry to learn whether the
/// engine can check every record type of it, parsing and compiling once.
pub fn build_many(documents: &[(&str, &str)], document: usize, pointers: &[&str]) -> Result<Validator, String> {
    let mut resources = Vec::with_capacity(documents.len());
    let mut base = String::new();
    for (index, (uri, text)) in documents.iter().enumerate() {
        let mut contents: Value = serde_json::from_str(text).map_err(|error| format!("the schema document {uri} is not JSON: {error}"))?;
        keep_concord_meaning(&mut contents);
        // Registered under its `$id` and under the URI the registry gives it,
        // when they differ (a `$ref` may use either).
        if let Some(Value::String(id)) = contents.get("$id") {
            let id = id.trim_end_matches('#');
            if id != *uri {
                resources.push((id.to_owned(), contents.clone()));
            }
        }
        let uri = (*uri).to_owned();
        if index == document {
            for pointer in pointers {
                if !pointer.is_empty() && !pointer.starts_with('/') {
                    return Err(format!("{pointer:?} is not a JSON pointer"));
                }
                if contents.pointer(pointer).is_none() {
                    return Err(format!("no subschema at {pointer:?}"));
                }
            }
            base = uri.clone();
        }
        resources.push((uri, contents));
    }
    let registry = Registry::new()
        .draft(Draft::Draft202012)
        .extend(resources)
        .and_then(|builder| builder.prepare())
        .map_err(|error| format!("the schema documents cannot be registered: {error}"))?;
    jsonschema::options()
        .with_draft(Draft::Draft202012)
        .should_validate_formats(false)
        .offline()
        .with_registry(&registry)
        .build(&match pointers {
            [pointer] => json!({"$ref": format!("{base}#{}", fragment(pointer))}),
            pointers => json!({"anyOf": pointers.iter().map(|pointer| json!({"$ref": format!("{base}#{}", fragment(pointer))})).collect::<Vec<_>>()}),
        })
        .map_err(|error| match pointers {
            [pointer] => format!("the subschema at {pointer:?} cannot be enforced: {}", error.masked()),
            _ => format!("a subschema cannot be enforced: {}", error.masked()),
        })
}

/// concord's annotations keep their meaning under the engine: the fixed
/// rewrite of a pinned document before the engine reads it (docs/assertions.md).
/// `"x-open-enum": true` opens its `enum`: the types keep any other string,
/// so the engine must not refuse it.
fn keep_concord_meaning(schema: &mut Value) {
    // A loop over a stack, not recursion: documents may nest deeply.
    let mut stack = vec![schema];
    while let Some(value) = stack.pop() {
        match value {
            Value::Object(object) => {
                if object.get("x-open-enum") == Some(&Value::Bool(true)) {
                    object.remove("enum");
                }
                for (key, item) in object.iter_mut() {
                    // Data, not schemas.
                    if !matches!(key.as_str(), "enum" | "const" | "default" | "examples") {
                        stack.push(item);
                    }
                }
            }
            Value::Array(items) => stack.extend(items.iter_mut()),
            _ => {}
        }
    }
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
