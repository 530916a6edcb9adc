//! Runtime support for the Rust types that concord generates.
//!
//! Generated code names only this crate (`::concord_runtime::...`), so a crate
//! using generated bindings needs no direct dependency on serde or serde_json.
//! [`Record`] is the entry point: `from_json` reads a record, `to_json` writes
//! the exact bytes the Python runtime writes for the same record.

use std::fmt;

pub mod batch;
pub mod bind;
pub mod canonical;
pub mod checks;
pub mod document;
#[cfg(feature = "validate")]
mod engine;
mod failure;
pub mod float;
mod impls;
pub mod location;
mod notes;
pub mod number;
pub mod pattern;
pub mod pinned;
pub mod pointer;
pub mod profile;
pub mod read;
pub mod references;
pub mod scan;
#[cfg(feature = "source")]
#[doc(hidden)]
pub mod source;
pub mod strict;
#[cfg(test)]
mod test_suite;
pub mod typed_id;
pub mod value;
mod write;

#[cfg(test)]
mod tests {
    #[test]
    fn refused_values_are_shown_masked() {
        let message = super::mask_quoted("invalid type: string \"abcdefghijklmnopqrstuvwxyz\", expected `i64`");
        assert_eq!(message, "invalid type: string \"abcdefghijklmnopqrst…\", expected `i64`");
        let message = super::mask_quoted(r#"string "a\"b c d e f g h i j k l m n o p", expected"#);
        assert_eq!(message, r#"string "a\"b c d e f g h i j…", expected"#);
    }

    /// A record whose one required property has a long name with a
    /// backtick in it, read as generated code reads one.
    #[derive(Debug)]
    struct Odd {
        field: i64,
    }

    const ODD: &str = "a`b and a name well past twenty characters";

    impl<'de> crate::bind::Object<'de> for Odd {
        const EXPECTING: &'static str = "an object (Odd)";
        fn read<A: serde::de::MapAccess<'de>>(mut map: A) -> Result<Self, A::Error> {
            let mut field = None;
            let mut dropped = Vec::new();
            while let Some(key) = map.next_key::<crate::bind::Key<'de>>()? {
                match key.as_str() {
                    ODD => crate::bind::field(&mut map, &mut field, ODD)?,
                    _ => crate::bind::skip(&mut map, &mut dropped, key)?,
                }
            }
            Ok(Odd { field: crate::bind::required(field, ODD)? })
        }
    }

    impl<'de> serde::Deserialize<'de> for Odd {
        fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            crate::bind::read_object(deserializer)
        }
    }

    impl serde::Serialize for Odd {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            let mut map = serializer.serialize_map(None)?;
            crate::bind::entry(&mut map, ODD, &self.field)?;
            serde::ser::SerializeMap::end(map)
        }
    }

    /// A record holding what the strict profile cannot write; a growth point,
    /// as generated code writes one.
    #[derive(Debug, Default)]
    struct Unwritable {
        items: Vec<f64>,
        count: i64,
        extra: crate::IndexMap<String, crate::Value>,
    }

    impl serde::Serialize for Unwritable {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            let mut map = serializer.serialize_map(None)?;
            crate::bind::entry(&mut map, "items", &self.items)?;
            crate::bind::entry(&mut map, "count", &self.count)?;
            crate::bind::entries(&mut map, &self.extra, &["items", "count"])?;
            serde::ser::SerializeMap::end(map)
        }
    }

    impl<'de> serde::Deserialize<'de> for Unwritable {
        fn deserialize<D: serde::Deserializer<'de>>(_: D) -> Result<Self, D::Error> {
            unreachable!("only written")
        }
    }

    impl super::Record for Unwritable {
        const NAME: &'static str = "Unwritable";
        const SCHEMA_DIGEST: &'static str = "sha256:0";
    }

    #[test]
    fn writers_refuse_what_readers_refuse() {
        use super::Record;
        let cases = [
            (Unwritable { items: vec![1.0, f64::NAN], count: 1, ..Default::default() }, "/items/1", "NaN is not a JSON number"),
            (Unwritable { items: vec![f64::INFINITY], count: 1, ..Default::default() }, "/items/0", "inf is not a JSON number"),
            (Unwritable { items: vec![-0.0], count: 1, ..Default::default() }, "/items/0", "negative zero"),
            (Unwritable { items: vec![], count: 1 << 53, ..Default::default() }, "/count", "outside ±(2^53-1)"),
            (Unwritable { items: vec![], count: i64::MIN, ..Default::default() }, "/count", "outside ±(2^53-1)"),
        ];
        for (record, pointer, message) in cases {
            for error in [record.to_json().unwrap_err(), record.digest().unwrap_err()] {
                assert_eq!(error.pointer(), Some(pointer), "{error}");
                assert!(error.message().contains(message), "{error}");
            }
        }
        let mut deep = Unwritable { count: 1, ..Default::default() };
        let nested = (0..crate::strict::MAX_DEPTH).fold(serde_json::json!(1), |inner, _| serde_json::json!([inner]));
        deep.extra.insert("deep".into(), nested);
        let error = deep.to_json().unwrap_err();
        assert!(error.message().contains("nesting deeper than 64 levels"), "{error}");
        assert!(error.pointer().unwrap().starts_with("/deep/0/0/"), "{error}");
        let mut twice = Unwritable { count: 1, ..Default::default() };
        twice.extra.insert("count".into(), serde_json::json!(2));
        let error = twice.to_json().unwrap_err();
        assert_eq!((error.pointer(), error.message()), (Some("/count"), "duplicate key \"count\""));
        let fine = Unwritable { items: vec![1e-7, 0.5], count: (1 << 53) - 1, ..Default::default() };
        assert_eq!(fine.to_json().unwrap(), br#"{"items":[1e-7,0.5],"count":9007199254740991}"#);
    }

    impl super::Record for Odd {
        const NAME: &'static str = "Odd";
        const SCHEMA_DIGEST: &'static str = "sha256:0";
    }

    #[test]
    fn a_missing_field_is_pointed_at_in_full() {
        use super::Record;
        let error = Odd::from_json(b"{}").unwrap_err();
        assert_eq!(error.pointer(), Some("/a`b and a name well past twenty characters"));
        // (A backtick inside the name ends serde's quote early; the rest is the
        // schema's own text, not input, so showing it is harmless.)
        assert_eq!(error.message(), "missing field `a`b and a name well past twenty characters`");
    }
}

/// This crate's version: generated code names the version it was written
/// for ([`bindings_for!`]).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The first item of generated bindings: `bindings_for!("0.1.0")` names the
/// concord that wrote them. Bindings from a concord this runtime does not
/// serve fail to compile here, saying which versions go together, rather
/// than somewhere in the middle of the generated code. A runtime serves the
/// bindings of its own release series up to its own version
/// (docs/versions.md).
#[macro_export]
macro_rules! bindings_for {
    ("0.1.0") => {};
    ($other:literal) => {
        compile_error!(concat!(
            "these bindings were written by concord ",
            $other,
            ", and this concord-runtime (0.1.0) serves bindings of concord 0.1.0 only: ",
            "use concord-runtime ",
            $other,
            " with them, or regenerate them with concord 0.1.0 (the build script's concord-codegen, or `concord generate`)"
        ));
    };
}

/// Generated code that needs one of this crate's optional features says so
/// first: `requires_feature!("validate")` compiles only with the feature on,
/// and otherwise fails saying how to turn it on.
#[macro_export]
macro_rules! requires_feature {
    ("validate") => {
        $crate::__validate_feature!();
    };
}

#[cfg(feature = "validate")]
#[doc(hidden)]
#[macro_export]
macro_rules! __validate_feature {
    () => {};
}

#[cfg(not(feature = "validate"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __validate_feature {
    () => {
        compile_error!(
            "these bindings check records with the assertion engine (their schemas use keywords no Rust type expresses, such as `not`, `if` or `contains`): \
             turn on concord-runtime's `validate` feature: concord-runtime = { version = \"0.1.0\", features = [\"validate\"] }"
        );
    };
}

pub use indexmap::IndexMap;
pub use serde;
pub use serde_json;
pub use serde_json::Value;

/// A type generated from a registry: one JSON record.
pub trait Record: serde::Serialize + serde::de::DeserializeOwned {
    /// The type's name in the registry (a root's `name`, or its `$defs` key in PascalCase).
    const NAME: &'static str;
    /// The pinned digest (`sha256:<hex>`) of the schema file this type comes from.
    const SCHEMA_DIGEST: &'static str;

    /// Reads a record under the strict profile ([`strict`]), refusing
    /// anything its schema refuses.
    fn from_json(bytes: &[u8]) -> Result<Self, Error> {
        from_json_with(bytes, strict::Limits::default())
    }

    /// Writes the record as compact JSON: declared properties in schema order,
    /// then the unknown keys a growth point kept, in the order they were read.
    /// Refuses (with the pointer) what the strict profile would refuse on
    /// reading: non-finite floats, negative zero, integers beyond ±(2^53-1).
    fn to_json(&self) -> Result<Vec<u8>, Error> {
        write::to_vec(self).map_err(|refusal| {
            // Only a refusal pays for tracking where it happened.
            match serde_path_to_error::serialize(self, &mut write::Writer::default()) {
                Err(error) => Error::Write { pointer: pointer(error.path()), message: error.into_inner().0 },
                // A Serialize impl that refused once and not twice: no pointer to give.
                Ok(()) => Error::Write { pointer: String::new(), message: refusal.0 },
            }
        })
    }

    /// Reads a JSON Lines stream, a record a line: the records that read and,
    /// for each line that did not, its number and error; one bad line never
    /// aborts the read ([`batch`]). Only an I/O error does.
    fn read_jsonl<R: std::io::BufRead>(reader: R) -> std::io::Result<batch::ReadOutcome<Self>>
    where
        Self: Sized,
    {
        batch::read_jsonl(reader, strict::DEFAULT_MAX_BYTES)
    }

    /// Reads a JSON array of records: the records that read and, for each
    /// item that did not, its index and error ([`batch::read_array`]).
    fn read_json_array(bytes: &[u8]) -> Result<batch::ArrayOutcome<Self>, Error>
    where
        Self: Sized,
    {
        batch::read_array(bytes)
    }

    /// `sha256:<hex>` over the record's canonical JSON (`jcs-rfc8785-integer-v1`);
    /// a record holding a float has none.
    fn digest(&self) -> Result<String, Error> {
        canonical::digest_compact(&self.to_json()?).map_err(Error::Canonical)
    }
}

/// A record type with a place of its own in its registry's schema files
/// (every root, and every object type but those a merge or a union made):
/// its schema travels with the bindings, exactly as pinned.
pub trait Pinned: Record {
    /// The type's schema as pinned: the text of its file and of those its
    /// `$ref`s reach, with their digests, and the pointer of its subschema.
    fn schema() -> &'static pinned::Schema;

    /// Checks a JSON value against the type's pinned schema, all of it, with
    /// the engine the Python bindings run too: at most three notes on a
    /// refusal, none repeating the value. The types refuse exactly what this
    /// refuses (docs/validation.md).
    #[cfg(feature = "validate")]
    fn validate(value: &Value) -> Result<(), pinned::Refusal> {
        Self::schema().validate(value)
    }

    /// [`Pinned::validate`] on bytes read under the strict profile, as
    /// `from_json` reads them, at `from_json`'s speed: the types refuse
    /// exactly what the schema refuses (where they cannot, `from_json` runs
    /// the engine itself), so a record that reads is valid, and only a
    /// refusal asks the engine, for its notes (docs/validation.md). The
    /// round-trip suite and the fuzzer hold every type to the engine alone
    /// ([`pinned::Schema::validate_json`]), so that promise is tested, not assumed.
    #[cfg(feature = "validate")]
    fn validate_json(bytes: &[u8]) -> Result<(), Error> {
        if Self::from_json(bytes).is_ok() {
            return Ok(());
        }
        Self::schema().validate_json(bytes)
    }
}

/// [`Record::from_json`] with a size limit of your choosing.
///
/// One pass reads the bytes into the type, refusing what the strict profile
/// refuses where it stands. Only a refusal reads again, to report it: the
/// first strict-profile problem if there is one (whatever comes first in the
/// bytes), else the schema problem with its JSON pointer.
pub fn from_json_with<T: Record>(bytes: &[u8], limits: strict::Limits) -> Result<T, Error> {
    read::from_slice(bytes, limits).or_else(|_| {
        let value = strict::read_with(bytes, limits).map_err(Error::Json)?;
        failure::Failure::forget_raised();
        read::by_reference(|| serde_path_to_error::deserialize(value).map_err(Error::from_path))
    })
}

/// [`Record::from_json`] for a type whose schema holds keywords no type
/// expresses (`not`, `if`, `contains`, ...): the record is read as usual,
/// then its JSON checked against the type's schema by the assertion engine,
/// which the Python bindings run too, so the two refuse alike and say so in
/// the same words.
#[cfg(feature = "validate")]
pub fn from_json_asserted<T: Pinned>(bytes: &[u8]) -> Result<T, Error> {
    let record = from_json_with(bytes, strict::Limits::default())?;
    let value = read::value(bytes, strict::Limits::default()).map_err(Error::Json)?;
    match T::schema().first_note(&value) {
        // Where in the schema, too: the types' own messages never say so.
        Some(note) => Err(Error::Schema { pointer: note.pointer, message: format!("{} (schema {})", note.message, note.schema_path) }),
        None => Ok(record),
    }
}

/// The index of the first missing item, from serde's error for a tuple read
/// from a shorter array (`invalid length 1, expected a tuple of size 2`).
fn short_tuple(message: &str) -> Option<usize> {
    let (found, expected) = message.strip_prefix("invalid length ")?.split_once(", expected a tuple of size ")?;
    let (found, expected): (usize, usize) = (found.parse().ok()?, expected.parse().ok()?);
    (found < expected).then_some(found)
}

/// A serde path as a JSON pointer.
fn pointer(path: &serde_path_to_error::Path) -> String {
    let mut pointer = String::new();
    for segment in path.iter() {
        use serde_path_to_error::Segment;
        pointer.push('/');
        match segment {
            Segment::Seq { index } => pointer.push_str(&index.to_string()),
            Segment::Map { key } => pointer.push_str(&pointer::escape_token(key)),
            Segment::Enum { variant } => pointer.push_str(&pointer::escape_token(variant)),
            Segment::Unknown => pointer.push('?'),
        }
    }
    pointer
}

/// Why a record was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// The bytes are not JSON under the strict profile.
    Json(strict::JsonError),
    /// The JSON does not fit the record's schema, at a JSON pointer.
    Schema { pointer: String, message: String },
    /// The record has no canonical form (it holds a float).
    Canonical(canonical::CanonicalError),
    /// The record holds a value the strict profile refuses (a non-finite
    /// float, negative zero, an integer beyond ±(2^53-1)), at a JSON pointer.
    Write { pointer: String, message: String },
    /// The value fails its pinned schema (`validate_json`): the notes.
    Invalid(pinned::Refusal),
    /// A versioned envelope (`x-version-field`) of a version its schema does
    /// not list, at the version's JSON pointer: refused before anything else.
    Version { pointer: String, message: String },
}

impl Error {
    pub(crate) fn from_path(error: serde_path_to_error::Error<serde_json::Error>) -> Self {
        let mut pointer = pointer(error.path());
        let message = error.into_inner().to_string();
        // An assertion's failure says where below the checked value it is.
        if let Some(failure) = failure::Failure::take_raised(&message) {
            pointer.push_str(failure.pointer());
            if failure.kind() == failure::Kind::Version {
                return Error::Version { pointer, message };
            }
        } else if let Some(missing) = short_tuple(&message) {
            // serde reports a tuple that is too short at the array; point at
            // the first missing item, as pydantic does.
            pointer.push_str(&format!("/{missing}"));
        }
        Error::Schema { pointer, message: mask_quoted(&message) }
    }

    /// What kind of refusal: the strict profile's kind (`duplicate-key`,
    /// `too-large`...), `schema`, `write`, `canonical` or `invalid`; the same
    /// words as the Python runtime's.
    pub fn kind(&self) -> &'static str {
        match self {
            Error::Json(error) | Error::Canonical(canonical::CanonicalError::Read(error)) => error.kind.name(),
            Error::Schema { .. } => "schema",
            Error::Write { .. } => "write",
            Error::Canonical(_) => "canonical",
            Error::Invalid(_) => "invalid",
            Error::Version { .. } => "unsupported-version",
        }
    }

    /// The JSON pointer of the refused value, when the refusal has one.
    pub fn pointer(&self) -> Option<&str> {
        match self {
            Error::Schema { pointer, .. } | Error::Write { pointer, .. } | Error::Version { pointer, .. } => Some(pointer),
            Error::Canonical(canonical::CanonicalError::NotCanonical { pointer, .. }) => Some(pointer),
            Error::Invalid(refusal) => refusal.notes.first().map(|note| note.pointer.as_str()),
            _ => None,
        }
    }

    pub fn message(&self) -> &str {
        match self {
            Error::Json(error) | Error::Canonical(canonical::CanonicalError::Read(error)) => &error.message,
            Error::Schema { message, .. }
            | Error::Write { message, .. }
            | Error::Version { message, .. }
            | Error::Canonical(canonical::CanonicalError::NotCanonical { message, .. }) => message,
            Error::Invalid(refusal) => refusal.notes.first().map_or("", |note| note.message.as_str()),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Json(error) => error.fmt(f),
            Error::Schema { pointer, message } | Error::Write { pointer, message } | Error::Version { pointer, message } => {
                write!(f, "at \"{pointer}\": {message}")
            }
            Error::Canonical(error) => error.fmt(f),
            Error::Invalid(refusal) => refusal.fmt(f),
        }
    }
}

impl std::error::Error for Error {}

/// serde quotes refused values in full (`invalid type: string "…"`,
/// ``unknown variant `…` ``); a message shows at most a short prefix of each.
fn mask_quoted(message: &str) -> String {
    const SHOWN: usize = 20;
    let mut out = String::with_capacity(message.len());
    let mut quote: Option<(char, usize)> = None;
    let mut escaped = false;
    for c in message.chars() {
        let closes = !escaped;
        escaped = quote.is_some() && !escaped && c == '\\';
        match quote {
            Some((open, _)) if c == open && closes => {
                quote = None;
                out.push(c);
            }
            Some((open, shown)) => {
                if shown < SHOWN {
                    out.push(c);
                } else if shown == SHOWN {
                    out.push('…');
                }
                quote = Some((open, shown + 1));
            }
            None => {
                if c == '"' || c == '`' {
                    quote = Some((c, 0));
                }
                out.push(c);
            }
        }
    }
    out
}
