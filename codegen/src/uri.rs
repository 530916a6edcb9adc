//! URIs, as far as schema references need them: a document's base URI
//! and `$id`, and RFC 3986 resolution of a reference against a base.

use crate::vocabulary::Dialect;
use serde_json::{Map, Value};

/// The base URI of the document at `path` in a registry (with the entry's
/// `uri`, if any, and the dialect the registry declares for it, if any):
/// the URI `$ref`s in it resolve against, and by which other documents name it.
pub fn document_base(path: &str, uri: Option<&str>, document: Option<&Value>, declared: Option<Dialect>) -> String {
    let dialect = document.and_then(|document| Dialect::of_document(document, declared).ok());
    base_in(path, uri, document, dialect.unwrap_or(Dialect::Draft202012))
}

/// [`document_base`] of a document read in `dialect`, which says where its `$id` is.
pub fn base_in(path: &str, uri: Option<&str>, document: Option<&Value>, dialect: Dialect) -> String {
    let id = document.and_then(|document| id_of(document.as_object()?, dialect).map(str::to_owned));
    let path = format!("{}{}", concord_runtime::pinned::BASE, path);
    match (uri, id) {
        (Some(uri), _) => uri.to_owned(),
        // A relative `$id` (or a fragment only) resolves against where the document is.
        (None, Some(id)) => resolve_uri(&path, &id),
        (None, None) => path,
    }
}

/// The URI a schema object gives itself, as its dialect reads it: `$id`
/// (`id` in draft-04); before 2019-09, none beside `$ref` (which overrides
/// its siblings), and a `#name` alone is an anchor ([`anchor_of`]), not a URI.
pub fn id_of(object: &Map<String, Value>, dialect: Dialect) -> Option<&str> {
    let id = object.get(dialect.id_keyword())?.as_str()?;
    if dialect.ref_overrides_siblings() && (object.contains_key("$ref") || id.starts_with('#')) {
        return None;
    }
    Some(id)
}

/// The plain name a schema object gives its place, as its dialect reads it:
/// `$anchor` from 2019-09 on; before, a `$id` (`id` in draft-04) that is a
/// fragment alone, `"#name"`.
pub fn anchor_of(object: &Map<String, Value>, dialect: Dialect) -> Option<&str> {
    if dialect.ref_overrides_siblings() {
        object.get(dialect.id_keyword())?.as_str()?.strip_prefix('#').filter(|name| !name.is_empty())
    } else {
        object.get("$anchor")?.as_str()
    }
}

/// What is wrong with a document's `$id`, if anything: it must be a URI
/// reference (RFC 3986: ASCII, no spaces, `%` only before two hex digits)
/// without a fragment (an empty one is allowed).
pub fn id_problem(id: &str, dialect: Dialect) -> Option<String> {
    if let Some(character) = outside_uri(id) {
        return Some(format!("{id:?} is not a URI reference (RFC 3986 does not allow {character:?} in one)"));
    }
    let anchor = if dialect.ref_overrides_siblings() { "a fragment alone, `#name`, names a place" } else { "use `$anchor`" };
    match id.split_once('#') {
        Some((_, fragment)) if !fragment.is_empty() => Some(format!("{id:?} has a fragment, which a document's URI cannot have ({anchor})")),
        _ if id.matches('#').count() > 1 => Some(format!("{id:?} is not a URI reference (more than one `#`)")),
        _ => None,
    }
}

/// `reference` resolved against `base` (RFC 3986, enough of it for schema
/// references: absolute, host-relative, path-relative with `.` and `..`),
/// without its fragment.
pub fn resolve_uri(base: &str, reference: &str) -> String {
    let reference = reference.split('#').next().unwrap_or_default();
    let has_scheme = reference.split('/').next().is_some_and(|head| head.contains(':'));
    if has_scheme {
        return reference.to_owned();
    }
    if reference.is_empty() {
        return base.to_owned();
    }
    let authority_end = base.find("://").map_or(0, |at| base[at + 3..].find('/').map_or(base.len(), |slash| at + 3 + slash));
    let (origin, path) = base.split_at(authority_end);
    let joined =
        if reference.starts_with('/') { reference.to_owned() } else { format!("{}{reference}", &path[..path.rfind('/').map_or(0, |slash| slash + 1)]) };
    let mut segments: Vec<&str> = Vec::new();
    for segment in joined.split('/') {
        match segment {
            "." => {}
            ".." => {
                if segments.len() > 1 {
                    segments.pop();
                }
            }
            segment => segments.push(segment),
        }
    }
    format!("{origin}{}", segments.join("/"))
}

/// The first character RFC 3986 does not allow in a URI reference (ASCII
/// only, no spaces, `%` only before two hex digits), if any: the engine
/// registers each document under its URI and cannot register another.
pub fn outside_uri(text: &str) -> Option<char> {
    let bytes = text.as_bytes();
    let allowed = |b: u8| b.is_ascii_alphanumeric() || b"-._~:/?#[]@!$&'()*+,;=".contains(&b);
    bytes.iter().enumerate().find_map(|(at, &byte)| {
        let escape = byte == b'%' && bytes.get(at + 1..at + 3).is_some_and(|hex| hex.iter().all(u8::is_ascii_hexdigit));
        (!allowed(byte) && !escape).then(|| text[at..].chars().next().unwrap_or_default())
    })
}
