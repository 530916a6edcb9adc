//! Runtime support for the Rust types that concord generates.
//!
//! Generated code names only this crate (`::concord_runtime::...`), so a crate
//! using generated bindings needs no direct dependency on serde or serde_json.
//! [`Record`] is the entry point: `from_json` reads a record, `to_json` writes
//! the exact bytes the Python runtime writes for the same record.

use std::fmt;

pub use indexmap::IndexMap;
pub use serde;
pub use serde_json;
pub use serde_json::Value;

/// A root type of a registry: one record of JSON.
pub trait Record: serde::Serialize + serde::de::DeserializeOwned {
    /// The registry name of this record type.
    const NAME: &'static str;
    /// The pinned digest (`sha256:<hex>`) of the schema file this type comes from.
    const SCHEMA_DIGEST: &'static str;

    /// Reads a record from JSON bytes, refusing anything its schema refuses.
    fn from_json(bytes: &[u8]) -> Result<Self, Error> {
        let mut reader = serde_json::Deserializer::from_slice(bytes);
        let record: Self = serde_path_to_error::deserialize(&mut reader).map_err(Error::from_path)?;
        reader.end().map_err(|error| Error::new(String::new(), error.to_string()))?;
        Ok(record)
    }

    /// Writes the record as compact JSON: declared properties in schema order,
    /// then the unknown keys a growth point kept, in the order they were read.
    fn to_json(&self) -> Result<Vec<u8>, Error> {
        serde_json::to_vec(self).map_err(|error| Error::new(String::new(), error.to_string()))
    }
}

/// A record was refused: where (a JSON pointer into the input) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    pointer: String,
    message: String,
}

impl Error {
    pub fn new(pointer: String, message: String) -> Self {
        Error { pointer, message }
    }

    fn from_path(error: serde_path_to_error::Error<serde_json::Error>) -> Self {
        let mut pointer = String::new();
        for segment in error.path().iter() {
            use serde_path_to_error::Segment;
            pointer.push('/');
            match segment {
                Segment::Seq { index } => pointer.push_str(&index.to_string()),
                Segment::Map { key } => pointer.push_str(&escape_pointer_token(key)),
                Segment::Enum { variant } => pointer.push_str(&escape_pointer_token(variant)),
                Segment::Unknown => pointer.push('?'),
            }
        }
        Error::new(pointer, error.into_inner().to_string())
    }

    /// The JSON pointer of the refused value ("" for the whole document).
    pub fn pointer(&self) -> &str {
        &self.pointer
    }

    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at \"{}\": {}", self.pointer, self.message)
    }
}

impl std::error::Error for Error {}

/// Escapes one reference token of a JSON pointer (RFC 6901).
pub fn escape_pointer_token(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// Field adapters named by `#[serde(deserialize_with)]` in generated code.
pub mod de {
    use serde::{Deserialize, Deserializer};

    /// An optional property that is present. With `#[serde(default)]` an absent
    /// property is `None`; a present one is `Some(value)`, and `null` is only
    /// accepted when the property's own type is nullable (`Option<T>`), giving
    /// `Some(None)`. Plain `Option<T>` would read `null` as absent.
    pub fn present<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
    where
        D: Deserializer<'de>,
        T: Deserialize<'de>,
    {
        T::deserialize(deserializer).map(Some)
    }

    /// A required property whose type is nullable: serde would otherwise
    /// default a missing `Option<T>` field to `None` instead of refusing it.
    pub fn required<'de, D, T>(deserializer: D) -> Result<T, D::Error>
    where
        D: Deserializer<'de>,
        T: Deserialize<'de>,
    {
        T::deserialize(deserializer)
    }
}
