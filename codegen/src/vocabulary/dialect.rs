//! Which JSON Schema dialect a document is written in: the one its
//! `$schema` names, spelt as the assertion engine reads it (the `jsonschema`
//! crate's `Draft::from_schema_uri`: `http` or `https`, with or without the
//! trailing `#`), so the reader and the engine never take one document for
//! two dialects; or, for a document without `$schema`, the one its registry
//! declares (`"dialect"` in `registry.json`, docs/dialects.md).

use serde_json::Value;
use std::fmt;

/// The dialects concord reads, oldest first. Each is read into the same
/// model; what a keyword means in each is the keyword table's
/// (`keywords.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Dialect {
    Draft4,
    Draft6,
    Draft7,
    Draft201909,
    Draft202012,
}

/// Every dialect, oldest first: the columns of the keyword table.
pub const ALL: [Dialect; 5] = [Dialect::Draft4, Dialect::Draft6, Dialect::Draft7, Dialect::Draft201909, Dialect::Draft202012];

/// What an error names as the dialects concord reads.
pub const READ: &str = "draft-04, draft-06, draft-07, 2019-09 and 2020-12";

/// Whether a `$schema` is the version-less meta-schema URI
/// (`http://json-schema.org/schema#`), which names whichever draft was the
/// latest (Angular's and MISP's schemas declare it).
fn is_versionless(uri: &str) -> bool {
    matches!(uri.trim_end_matches('#'), "http://json-schema.org/schema" | "https://json-schema.org/schema")
}

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

    /// The dialect a document is read in: the one its `$schema` names, else
    /// the one its registry declares; or why there is none (the JSON pointer
    /// of the problem, and what is wrong).
    pub fn of_document(document: &Value, declared: Option<Dialect>) -> Result<Dialect, (&'static str, String)> {
        match (document.get("$schema"), declared) {
            (Some(Value::String(uri)), _) if is_versionless(uri) => Err((
                "/$schema",
                format!(
                    "{uri:?} names no draft in particular (it meant whichever was latest when written): say which the document is written in with \
                     `\"read_as\"` in its registry.json entry (\"read_as\": \"draft-07\"; docs/dialects.md)"
                ),
            )),
            (Some(Value::String(uri)), _) => Dialect::of(uri).ok_or_else(|| ("/$schema", format!("unsupported dialect {uri:?}: concord reads {READ}"))),
            (Some(other), _) => Err(("/$schema", format!("unsupported dialect {other}: concord reads {READ}"))),
            (None, Some(declared)) => Ok(declared),
            (None, None) => Err((
                "",
                format!(
                    "missing \"$schema\": declare the dialect in the document (\"$schema\": \"{}\"), or in registry.json, for this entry or for the whole registry (\"dialect\": \"draft-07\"; docs/dialects.md)",
                    Dialect::Draft202012.uri()
                ),
            )),
        }
    }

    /// The dialect a registry entry reads its document in: `read_as`, a
    /// later dialect than the one the document's `$schema` names, where the
    /// entry gives one (refused where the document names no earlier one),
    /// else [`Dialect::of_document`].
    pub fn of_entry(document: &Value, declared: Option<Dialect>, read_as: Option<Dialect>) -> Result<Dialect, (&'static str, String)> {
        let Some(read_as) = read_as else { return Dialect::of_document(document, declared) };
        // The version-less meta-schema names no dialect: the entry says which.
        if document.get("$schema").and_then(Value::as_str).is_some_and(is_versionless) {
            return Ok(read_as);
        }
        if document.get("$schema").is_none() {
            return Err(("", format!("registry.json reads this document as {read_as} (`read_as`), but it has no `$schema` to read past: declare its dialect with `dialect` instead")));
        }
        let own = Dialect::of_document(document, declared)?;
        if own >= read_as {
            return Err((
                "/$schema",
                format!("registry.json reads this document as {read_as} (`read_as`), which is not later than the {own} its `$schema` names: `read_as` names a later dialect; remove it"),
            ));
        }
        Ok(read_as)
    }

    /// A dialect as a registry declares it: its short name (`draft-07`,
    /// `2020-12`) or any spelling of its URI.
    pub fn named(name: &str) -> Option<Dialect> {
        ALL.into_iter().find(|dialect| dialect.name() == name).or_else(|| Dialect::of(name))
    }

    /// The short name: `draft-04`, `draft-06`, `draft-07`, `2019-09`, `2020-12`.
    pub fn name(self) -> &'static str {
        match self {
            Dialect::Draft4 => "draft-04",
            Dialect::Draft6 => "draft-06",
            Dialect::Draft7 => "draft-07",
            Dialect::Draft201909 => "2019-09",
            Dialect::Draft202012 => "2020-12",
        }
    }

    /// The meta-schema URI as the dialect's own meta-schema spells its `$id`.
    pub fn uri(self) -> &'static str {
        match self {
            Dialect::Draft4 => "http://json-schema.org/draft-04/schema#",
            Dialect::Draft6 => "http://json-schema.org/draft-06/schema#",
            Dialect::Draft7 => "http://json-schema.org/draft-07/schema#",
            Dialect::Draft201909 => "https://json-schema.org/draft/2019-09/schema",
            Dialect::Draft202012 => "https://json-schema.org/draft/2020-12/schema",
        }
    }

    /// Whether keywords beside `$ref` are ignored (draft-04 to draft-07) or
    /// applied (2019-09 on).
    pub fn ref_overrides_siblings(self) -> bool {
        self <= Dialect::Draft7
    }

    /// The keyword that holds a schema resource's URI: `id` in draft-04.
    pub fn id_keyword(self) -> &'static str {
        if self == Dialect::Draft4 {
            "id"
        } else {
            "$id"
        }
    }

    /// Whether an array of `items` is a tuple (before 2020-12's `prefixItems`).
    pub fn items_array_is_tuple(self) -> bool {
        self <= Dialect::Draft201909
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::{Dialect, ALL};

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

    #[test]
    fn a_dialect_is_named_by_its_short_name_or_its_uri() {
        for dialect in ALL {
            assert_eq!(Dialect::named(dialect.name()), Some(dialect));
            assert_eq!(Dialect::named(dialect.uri()), Some(dialect));
            assert_eq!(Dialect::of(dialect.uri()), Some(dialect));
        }
        assert_eq!(Dialect::named("draft-03"), None);
        assert_eq!(Dialect::named("draft7"), None);
    }
}
