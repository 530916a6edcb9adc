//! `concord-engine`: the assertion engine of concord's TypeScript runtime, a
//! Node addon over the Rust runtime's `pinned::Checker`, so that a record
//! type's `validate` and its `ASSERTED` reads give in TypeScript the verdict
//! and the notes Rust and Python give, word for word: one engine, not a
//! JavaScript validator beside it (docs/validation.md).
//!
//! It mirrors the Python core's `Validator` (`runtime/python-core/src/checks.rs`):
//! built from the pinned documents, it reads a record's bytes under the strict
//! profile exactly as `read::value` reads them and returns at most `limit`
//! notes. The JavaScript API is declared in `index.d.ts` beside this crate.

use concord_runtime::pinned::{Checker, Note, Source};
use concord_runtime::read;
use concord_runtime::serde_json::Value;
use concord_runtime::strict::{JsonError, Limits};
use napi::bindgen_prelude::{Env, Error, JsObjectValue, Result};
use napi::{JsValue, Status};
use napi_derive::napi;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// The crate's version, which the TypeScript runtime compares with its own
/// before it uses the addon.
#[napi]
pub fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}

/// `[pointer, keyword, schemaPath, message, line]`, `line` the note as the
/// Rust runtime prints it.
type NoteTuple = (String, String, String, String, String);

fn note_tuple(note: Note) -> NoteTuple {
    let line = note.to_string();
    (note.pointer, note.keyword, note.schema_path, note.message, line)
}

/// What `notesJson` returns: no notes when the value passes.
#[napi(object)]
pub struct Notes {
    pub notes: Vec<NoteTuple>,
    pub more: bool,
}

/// One record type's schema as the engine checks it: `new Validator(documents,
/// pointer)`, `documents` the pinned `[base URI, text, declared dialect or
/// null]` of the type's schema file first, then those its `$ref`s reach.
#[napi]
pub struct Validator(Checker);

#[napi]
impl Validator {
    /// Builds the check at once; throws an `Error` whose message is
    /// `Checker::build`'s when the engine cannot build it (a panic of the
    /// crate is such a refusal too: `Checker::build` catches it).
    #[napi(constructor)]
    pub fn new(documents: Vec<(String, String, Option<String>)>, pointer: String) -> Result<Self> {
        let sources: Vec<Source<'_>> = documents.iter().map(|(uri, text, dialect)| Source { uri, text, dialect: dialect.as_deref() }).collect();
        Checker::build(&sources, &pointer).map(Validator).map_err(Error::from_reason)
    }

    /// At most `limit` notes on why the JSON document `data` fails, and
    /// whether there are more. `data` is read under the strict profile, as
    /// the Rust runtime reads it; bytes it refuses throw an `Error` whose
    /// message is the `JsonError`'s text and which carries its `kind` and
    /// `offset`.
    #[napi]
    pub fn notes_json(&self, env: &Env, data: &[u8], max_bytes: f64, limit: f64) -> Result<Notes> {
        let limits = Limits { max_bytes: count(max_bytes, "maxBytes")? };
        let limit = count(limit, "limit")?;
        // A panic of the crate is a refusal, never a crash of the process.
        let checked = catch_unwind(AssertUnwindSafe(|| read::value(data, limits).map(|value| self.notes_of(&value, limit))));
        match checked {
            Ok(Ok(notes)) => Ok(notes),
            Ok(Err(error)) => Err(json_error(env, error)),
            Err(payload) => {
                let what = payload.downcast_ref::<&str>().map(|text| text.to_string()).or_else(|| payload.downcast_ref::<String>().cloned());
                Err(Error::from_reason(format!("the jsonschema crate failed on this value (a panic: {})", what.unwrap_or_default())))
            }
        }
    }
}

impl Validator {
    fn notes_of(&self, value: &Value, limit: usize) -> Notes {
        let (notes, more) = self.0.notes(value, limit);
        Notes { notes: notes.into_iter().map(note_tuple).collect(), more }
    }
}

/// A JavaScript number that counts something: a whole number from 0 to
/// 2^53 - 1, or a `RangeError` naming the argument.
fn count(number: f64, name: &str) -> Result<usize> {
    if number.fract() == 0.0 && (0.0..=9_007_199_254_740_991.0).contains(&number) {
        Ok(number as usize)
    } else {
        Err(Error::new(Status::InvalidArg, format!("{name} must be a whole number from 0 to 2^53 - 1, not {number}")))
    }
}

/// The JavaScript error of a strict-profile refusal: `message` is the Rust
/// `JsonError`'s text (`"<kind> at byte <offset>: <message>"`), with its
/// `kind` and `offset` as properties.
fn json_error(env: &Env, error: JsonError) -> Error {
    let text = error.to_string();
    let built = env.create_error(Error::from_reason(text.clone())).and_then(|mut object| {
        object.set_named_property("kind", error.kind.name())?;
        object.set_named_property("offset", error.offset as f64)?;
        Ok(Error::from(object.to_unknown()))
    });
    // Should Node fail to build the object, the text alone still says it all.
    built.unwrap_or_else(|_| Error::from_reason(text))
}
