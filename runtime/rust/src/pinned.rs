//! A record type's schema as pinned: the exact text of its registry file and
//! of the files its `$ref`s reach, each with the digest the registry pins,
//! and the JSON pointer of the type's subschema in the first
//! (docs/decisions/pinned-validation.md: what a check enforces is in the
//! pinned bytes, not behind a path read at run time). With the `validate`
//! feature, [`Schema::validate`] checks a JSON value against it with the
//! engine ([`crate::engine`]), which the Python runtime runs too: the same
//! verdict and the same notes in both languages.

use std::fmt;

pub use crate::document::{Document, Source, BASE};
pub use crate::notes::{Note, Refusal, MAX_NOTES};

/// Where a record type's schema is: a subschema of the first of its
/// documents, the others those its `$ref`s reach. A `static` in generated
/// code; the validator is built on first use, then reused.
pub struct Schema {
    documents: &'static [&'static Document],
    pointer: &'static str,
    #[cfg(feature = "validate")]
    checker: std::sync::OnceLock<Result<Checker, String>>,
}

impl fmt::Debug for Schema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Schema").field("uri", &self.document().uri).field("pointer", &self.pointer).finish_non_exhaustive()
    }
}

impl Schema {
    /// `documents[0]` holds the subschema at JSON `pointer` (`""`: the whole document).
    pub const fn new(documents: &'static [&'static Document], pointer: &'static str) -> Self {
        Schema {
            documents,
            pointer,
            #[cfg(feature = "validate")]
            checker: std::sync::OnceLock::new(),
        }
    }

    /// The type's own schema file.
    pub fn document(&self) -> &'static Document {
        self.documents[0]
    }

    /// The type's own schema file, then every file its `$ref`s reach.
    pub fn documents(&self) -> &'static [&'static Document] {
        self.documents
    }

    /// The pinned text of the type's own schema file.
    pub fn text(&self) -> &'static str {
        self.document().text
    }

    /// The pinned digest of the type's own schema file (`sha256:<hex>`).
    pub fn digest(&self) -> &'static str {
        self.document().digest
    }

    /// The JSON pointer of the type's subschema in its own file.
    pub fn pointer(&self) -> &'static str {
        self.pointer
    }
}

#[cfg(feature = "validate")]
impl Schema {
    /// Checks a JSON value against the schema: `Err` with at most three
    /// notes, none of which repeats the refused value.
    pub fn validate(&self, value: &serde_json::Value) -> Result<(), Refusal> {
        self.checker()?.validate(value)
    }

    /// Whether `value` satisfies the schema.
    pub fn is_valid(&self, value: &serde_json::Value) -> bool {
        self.checker().is_ok_and(|checker| checker.is_valid(value))
    }

    /// Reads `bytes` under the strict profile ([`crate::strict`]), as
    /// `from_json` does, then checks the value: [`crate::Error::Json`], or
    /// [`crate::Error::Invalid`] with the notes.
    pub fn validate_json(&self, bytes: &[u8]) -> Result<(), crate::Error> {
        let value = crate::read::value(bytes, crate::strict::Limits::default()).map_err(crate::Error::Json)?;
        self.validate(&value).map_err(crate::Error::Invalid)
    }

    /// The first note on a value the schema refuses (what `from_json` reports).
    pub(crate) fn first_note(&self, value: &serde_json::Value) -> Option<Note> {
        match self.checker() {
            Ok(checker) => checker.notes(value, 1).0.pop(),
            Err(refusal) => refusal.notes.into_iter().next(),
        }
    }

    fn checker(&self) -> Result<&Checker, Refusal> {
        let built = self.checker.get_or_init(|| {
            let documents: Vec<Source<'_>> = self.documents.iter().map(|document| document.source()).collect();
            Checker::build(&documents, self.pointer)
        });
        built.as_ref().map_err(|problem| Refusal::unbuilt(problem))
    }
}

/// A schema's check, built once: what a [`Schema`] keeps, for a caller
/// whose documents are not statics (the Python core, the `concord`
/// command). The engine behind it is this crate's own business.
#[cfg(feature = "validate")]
pub struct Checker(jsonschema::Validator);

#[cfg(feature = "validate")]
impl Checker {
    /// The check of the subschema at `pointer` of the first of `documents`
    /// (those its `$ref`s reach after it), or why the engine cannot build
    /// it. A panic of the engine is such a refusal too.
    pub fn build(documents: &[Source<'_>], pointer: &str) -> Result<Checker, String> {
        Self::build_all(documents, &[pointer])
    }

    /// One check of several subschemas of the first document (their
    /// `anyOf`): the command builds it once per entry, to learn whether the
    /// engine can check every record type of it.
    pub fn build_all(documents: &[Source<'_>], pointers: &[&str]) -> Result<Checker, String> {
        // `concord pin` built it already; should the crate panic all the
        // same, that is a refusal here too, not a crash.
        match std::panic::catch_unwind(|| crate::engine::build_many(documents, pointers)) {
            Ok(built) => built.map(Checker),
            Err(payload) => {
                let what = payload.downcast_ref::<&str>().map(|text| text.to_string()).or_else(|| payload.downcast_ref::<String>().cloned());
                Err(format!("the jsonschema crate failed on it (a panic: {})", what.unwrap_or_default()))
            }
        }
    }

    /// Whether `value` satisfies the schema.
    pub fn is_valid(&self, value: &serde_json::Value) -> bool {
        self.0.is_valid(value)
    }

    /// At most `limit` notes on why `value` fails, in the engine's order,
    /// and whether there are more; none when it passes.
    pub fn notes(&self, value: &serde_json::Value, limit: usize) -> (Vec<Note>, bool) {
        if self.0.is_valid(value) {
            return (Vec::new(), false);
        }
        crate::engine::notes(&self.0, value, limit)
    }

    /// `Err` with at most [`MAX_NOTES`] notes when `value` fails.
    pub fn validate(&self, value: &serde_json::Value) -> Result<(), Refusal> {
        match self.notes(value, MAX_NOTES) {
            (notes, _) if notes.is_empty() => Ok(()),
            (notes, more) => Err(Refusal { notes, more }),
        }
    }
}

/// A value against the subschema at `pointer` of the first of `documents`,
/// with a check built for this one value: for a command that checks once
/// and exits. The same verdict and notes as [`Schema::validate`].
#[cfg(feature = "validate")]
pub fn validate_once(documents: &[Source<'_>], pointer: &str, value: &serde_json::Value) -> Result<(), Refusal> {
    Checker::build(documents, pointer).map_err(|problem| Refusal::unbuilt(&problem))?.validate(value)
}

#[cfg(feature = "validate")]
impl Refusal {
    /// A schema the engine cannot build refuses every value, and says why
    /// (`concord pin` refuses such a schema; bindings written by a build
    /// script from a schema pinned by hand may meet it here).
    fn unbuilt(problem: &str) -> Refusal {
        Refusal {
            notes: vec![Note {
                pointer: String::new(),
                keyword: "$schema".into(),
                schema_path: String::new(),
                message: format!("cannot be checked: {problem}"),
            }],
            more: false,
        }
    }
}
