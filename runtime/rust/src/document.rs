//! A schema document as pinned, and as the engine reads it: the data a
//! [`crate::pinned::Schema`] is made of and [`crate::engine`] takes, in a
//! leaf of its own so that neither of those imports the other's home.

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
    /// The meta-schema URI of the dialect the engine reads the text in where
    /// its `$schema` does not say it: the one its registry declares for a
    /// text without `$schema`, or the later one its registry entry reads it
    /// as (`read_as`) (docs/dialects.md).
    pub dialect: Option<&'static str>,
    /// The file's text, byte for byte.
    pub text: &'static str,
}

impl Document {
    /// What the engine reads of it.
    pub fn source(&self) -> Source<'static> {
        Source { uri: self.uri, text: self.text, dialect: self.dialect }
    }
}

/// A schema document as the engine reads it: its base URI, its text, and
/// the dialect its registry reads it in where the text does not say it. A
/// [`Document`]'s, or one a caller holds (the Python core, the command).
#[derive(Clone, Copy, Debug)]
pub struct Source<'a> {
    pub uri: &'a str,
    pub text: &'a str,
    pub dialect: Option<&'a str>,
}

impl<'a> Source<'a> {
    /// A document whose text says its own dialect (or is read as 2020-12).
    pub fn new(uri: &'a str, text: &'a str) -> Self {
        Source { uri, text, dialect: None }
    }
}
