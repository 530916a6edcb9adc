//! Which JSON Schema dialect a document's `$schema` names. Spelt as the
//! assertion engine reads it (the `jsonschema` crate's `Draft::from_schema_uri`):
//! `http` or `https`, with or without the trailing `#`, so the reader and the
//! engine never take one document for two dialects.

/// The dialects concord reads: Draft 2020-12 into types; the older ones as
/// records the assertion engine checks in their own dialect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Draft4,
    Draft6,
    Draft7,
    Draft201909,
    Draft202012,
}

/// What an error names as the dialects concord reads.
pub const READ: &str = "Draft 2020-12 (into types), and draft-04, draft-06, draft-07 and 2019-09 (their records checked by the assertion engine)";

impl Dialect {
    /// The dialect a `$schema` URI names, if concord reads it. The
    /// version-less `https://json-schema.org/schema` names no draft in
    /// particular, and is not one.
    pub fn of(uri: &str) -> Option<Dialect> {
        let uri = uri.trim_end_matches('#');
        let path = uri.strip_prefix("https://json-schema.org/").or_else(|| uri.strip_prefix("http://json-schema.org/"))?;
        Some(match path {
            "draft/2020-12/schema" => Dialect::Draft202012,
            "draft/2019-09/schema" => Dialect::Draft201909,
            "draft-07/schema" => Dialect::Draft7,
            "draft-06/schema" => Dialect::Draft6,
            "draft-04/schema" => Dialect::Draft4,
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::Dialect;

    #[test]
    fn each_spelling_the_engine_reads_is_its_dialect() {
        for uri in ["https://json-schema.org/draft-07/schema", "http://json-schema.org/draft-07/schema#", "https://json-schema.org/draft-07/schema#"] {
            assert_eq!(Dialect::of(uri), Some(Dialect::Draft7), "{uri}");
        }
        assert_eq!(Dialect::of("http://json-schema.org/draft/2020-12/schema#"), Some(Dialect::Draft202012));
        assert_eq!(Dialect::of("http://json-schema.org/draft-04/schema#"), Some(Dialect::Draft4));
        for uri in [
            "http://json-schema.org/draft-03/schema#",
            "https://json-schema.org/schema",
            "https://example.com/draft-07/schema",
            "https://json-schema.org/draft-07/schema/",
        ] {
            assert_eq!(Dialect::of(uri), None, "{uri}");
        }
    }
}
