//! A record type's schema as pinned: the exact text of its registry file and
//! of the files its `$ref`s reach, each with the digest the registry pins,
//! and the JSON pointer of the type's subschema in the first (ADR-0060: what
//! a check enforces is in the pinned bytes, not behind a path read at run
//! time). With the `validate` feature, [`Schema::validate`] checks a JSON
//! value against it with the engine ([`crate::engine`]), which the Python
//! runtime runs too: the same verdict and the same notes in both languages.

use std::fmt;

/// The base URI of a schema document without `$id`: its path in the
/// registry, below a host that can never resolve (nothing is fetched).
pub const BASE: &str = "https://registry.concord.invalid/";

/// One schema file of the registry, as pinned.
#[derive(Debug)]
pub struct Document {
    /// The base URI `$ref`s resolve against: the registry entry's `uri`, else
    /// its `$id`, else its registry path below `https://registry.concord.invalid/`.
    pub uri: &'static str,
    /// `sha256:<hex>` of `text`'s bytes: the digest `registry.json` pins.
    pub digest: &'static str,
    /// The file's text, byte for byte.
    pub text: &'static str,
}

/// Where a record type's schema is: a subschema of the first of its
/// documents, the others those its `$ref`s reach. A `static` in generated
/// code; the validator is built on first use, then reused.
pub struct Schema {
    documents: &'static [&'static Document],
    pointer: &'static str,
    #[cfg(feature = "validate")]
    validator: std::sync::OnceLock<Result<jsonschema::Validator, String>>,
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
            validator: std::sync::OnceLock::new(),
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
        check(self.validator()?, value)
    }

    /// Whether `value` satisfies the schema.
    pub fn is_valid(&self, value: &serde_json::Value) -> bool {
        self.validator().is_ok_and(|validator| validator.is_valid(value))
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
        match self.validator() {
            Ok(validator) => crate::engine::first_note(validator, value),
            Err(refusal) => refusal.notes.into_iter().next(),
        }
    }

    fn validator(&self) -> Result<&jsonschema::Validator, Refusal> {
        let built = self.validator.get_or_init(|| {
            let documents: Vec<(&str, &str)> = self.documents.iter().map(|document| (document.uri, document.text)).collect();
            build(&documents, self.pointer)
        });
        built.as_ref().map_err(|problem| Refusal::unbuilt(problem))
    }
}

/// A value against the subschema at `pointer` of the first of `documents`
/// (`(uri, text)` each), with a validator built for this one check: for a
/// command that checks once and exits. The same verdict and notes as
/// [`Schema::validate`].
#[cfg(feature = "validate")]
pub fn validate_once(documents: &[(&str, &str)], pointer: &str, value: &serde_json::Value) -> Result<(), Refusal> {
    let validator = build(documents, pointer).map_err(|problem| Refusal::unbuilt(&problem))?;
    check(&validator, value)
}

#[cfg(feature = "validate")]
fn build(documents: &[(&str, &str)], pointer: &str) -> Result<jsonschema::Validator, String> {
    // `concord pin` built this validator already; should the crate panic
    // all the same, that is a refusal here too, not a crash.
    std::panic::catch_unwind(|| crate::engine::build_in(documents, 0, pointer))
        .unwrap_or_else(|_| Err("the jsonschema crate failed on it (a panic)".to_owned()))
}

#[cfg(feature = "validate")]
fn check(validator: &jsonschema::Validator, value: &serde_json::Value) -> Result<(), Refusal> {
    if validator.is_valid(value) {
        return Ok(());
    }
    let (notes, more) = crate::engine::notes(validator, value, crate::engine::MAX_NOTES);
    Err(Refusal { notes, more })
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

/// Why a value fails its schema: at most three notes (ADR-0060), and whether
/// the engine found more. The same notes, word for word, in both languages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub notes: Vec<Note>,
    /// More problems were found than the notes show.
    pub more: bool,
}

/// One problem: where in the value (a JSON pointer), the schema keyword and
/// where it stands in the schema, and what is wrong, in the schema's words
/// only: never the refused value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    /// JSON pointer into the value (`""`: the value itself).
    pub pointer: String,
    /// The keyword that refused it (`pattern`, `required`, `x-typed-id`...).
    pub keyword: String,
    /// JSON pointer of that keyword in the type's subschema.
    pub schema_path: String,
    pub message: String,
}

impl fmt::Display for Note {
    /// `/session/gpu_arch: does not match pattern "^sm_[0-9]+$"`; `(root)` for
    /// the value itself. Control characters in the pointer are escaped, so
    /// that a note is one line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.pointer.is_empty() {
            f.write_str("(root)")?;
        }
        for c in self.pointer.chars() {
            if c.is_control() || matches!(c, '\u{2028}' | '\u{2029}') {
                write!(f, "\\u{:04x}", c as u32)?;
            } else {
                write!(f, "{c}")?;
            }
        }
        write!(f, ": {}", self.message)
    }
}

impl fmt::Display for Refusal {
    /// A note a line; `...` on a last line when there were more.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (index, note) in self.notes.iter().enumerate() {
            if index > 0 {
                f.write_str("\n")?;
            }
            note.fmt(f)?;
        }
        if self.more {
            f.write_str("\n...")?;
        }
        Ok(())
    }
}

impl std::error::Error for Refusal {}
