//! `$ref`: a location in the same document (`#`, `#/$defs/Name`, any JSON
//! pointer, or an `$anchor`), read once as a named type.

use super::{Dialect, Document, Keywords, Reader};
use crate::model::{Shape, TypeId};
use crate::naming::words;
use serde_json::Value;

/// Keywords that may stand beside `$ref` without changing what it means.
fn plain_sibling(keyword: &str, dialect: Dialect) -> bool {
    matches!(keyword, "$ref" | "$schema" | "$id" | "$defs" | "definitions" | "$anchor")
        || matches!(super::keywords::role(keyword, dialect), super::Role::Annotation(_))
}

/// Whether a schema with `$ref` holds nothing else that changes its meaning.
pub(super) fn only_annotations_beside(object: &serde_json::Map<String, Value>, dialect: Dialect) -> bool {
    object.keys().all(|k| plain_sibling(k, dialect))
}

impl Reader {
    pub(super) fn reference(&mut self, doc: &mut Document, schema: &Keywords) -> Option<Shape> {
        let file = doc.file;
        let at = schema.at("$ref");
        let target = schema.take("$ref")?;
        // Before 2019-09 the reader took every sibling already: `$ref` overrides them.
        for sibling in schema.object.keys().filter(|k| !plain_sibling(k, schema.dialect) && !schema.is_taken(k)) {
            self.errors.push(
                file,
                schema.at(sibling),
                format!(
                    "`{}` beside `$ref` is not supported yet: only annotations (description, title, ...) may stand beside it",
                    crate::error::shown(sibling)
                ),
            );
            schema.taken.borrow_mut().insert(sibling);
        }
        let Some(target) = target.as_str() else {
            self.errors.push(file, at, "`$ref` must be a string");
            return None;
        };
        let pointer = match self.resolve_reference(doc, target) {
            Ok(Resolved::Local(pointer)) => pointer,
            // Another registry entry: any value here, which the engine checks
            // with every entry's document at hand.
            Ok(Resolved::Entry) => return Some(self.other_entry(doc, target)),
            // Relative to a base (an embedded `$id`): the engine resolves it,
            // or refuses it (the `concord` command builds it before it pins).
            Ok(Resolved::Embedded) => {
                doc.needs_engine("$ref", &at);
                return Some(Shape::Any);
            }
            Err(why) => {
                self.errors.push(file, at, why);
                return None;
            }
        };
        Some(Shape::Named(self.target(doc, &pointer, &at, target)?))
    }

    /// Where a `$ref` leads, or why it leads nowhere concord can follow: the
    /// one reading of a reference, for typed and engine-only schemas alike.
    pub(super) fn resolve_reference(&self, doc: &Document, target: &str) -> Result<Resolved, String> {
        // A reference by the document's own `$id` is a local one.
        let root_id = doc.root.as_object().and_then(|root| super::id_of(root, doc.dialect)).map(|id| id.trim_end_matches('#'));
        // And by its base URI, absolute (a part merged from another document has only such).
        let own = |base: &str| {
            let resolved = super::resolve_uri(&self.entries[doc.module].base, base);
            Some(base) == root_id || (!base.is_empty() && (resolved == self.entries[doc.module].base || resolved == self.entries[doc.module].uri))
        };
        let local = match target.split_once('#') {
            Some((base, fragment)) if base.is_empty() || own(base) => Some(fragment),
            None if own(target) => Some(""),
            _ => None,
        };
        match local {
            Some(fragment) if fragment.is_empty() || fragment.starts_with('/') => match percent_decode(fragment) {
                Some(pointer) => Ok(Resolved::Local(pointer)),
                None => Err(format!("`$ref` {target:?} is not a valid URI fragment")),
            },
            Some(anchor) => match doc.anchors.get(anchor) {
                Some(pointer) => Ok(Resolved::Local(pointer.clone())),
                None => Err(format!("`$ref` {target:?} names no `$anchor` of this document")),
            },
            None if self.entry_of(doc.module, target).is_some() => Ok(Resolved::Entry),
            // A draft's meta-schema (a schema of schemas, as AsyncAPI's and
            // OpenAPI's reference draft-07's and draft-04's): any JSON value
            // here, which the engine checks against the copy it carries.
            None if is_bundled_meta_schema(target.split('#').next().unwrap_or_default()) => Ok(Resolved::Embedded),
            None if target.contains(':') && !doc.ids.iter().any(|id| target.starts_with(id.trim_end_matches('#'))) => {
                Err(format!("remote `$ref` {target:?} is refused: concord never fetches schemas; copy the schema into the registry"))
            }
            None if doc.ids.is_empty() => {
                Err(format!("`$ref` {target:?} points into another file that is no registry entry: add it to the registry (concord never fetches schemas)"))
            }
            None => Ok(Resolved::Embedded),
        }
    }

    /// A `$ref` into another entry: its type there when that entry is read
    /// already and has a named type at the place (its root, a definition);
    /// else any JSON value, which the engine checks.
    fn other_entry(&mut self, doc: &mut Document, target: &str) -> Shape {
        let resolved = super::resolve_uri(&self.entries[doc.module].base, target);
        let fragment = target.split_once('#').map_or("", |(_, fragment)| fragment);
        let typed = self.entry_named(&resolved).and_then(|other| {
            let pointer = percent_decode(fragment).filter(|p| p.is_empty() || p.starts_with('/'))?;
            self.entries[other].targets.get(&pointer).copied()
        });
        match typed {
            Some(id) => Shape::Named(id),
            None => {
                doc.needs_engine_for(|| format!("`$ref` {} (a place of another entry that no type names)", crate::error::shown(target)));
                Shape::Any
            }
        }
    }

    /// The named type of the schema at `pointer`, declared on first use.
    fn target(&mut self, doc: &mut Document, pointer: &str, at: &str, target: &str) -> Option<TypeId> {
        if let Some(id) = doc.targets.get(pointer) {
            return Some(*id);
        }
        match doc.root.pointer(pointer) {
            Some(Value::Object(_) | Value::Bool(_)) => {}
            Some(_) => {
                self.errors.push(doc.file, at, format!("`$ref` {target:?} points at a value that is not a schema"));
                return None;
            }
            None => {
                self.errors.push(doc.file, at, format!("`$ref` target {target:?} does not exist in this document"));
                return None;
            }
        }
        // Named after the last token of the pointer that is not a keyword.
        let tokens: Vec<String> = pointer.split('/').skip(1).map(|t| t.replace("~1", "/").replace("~0", "~")).collect();
        let name = tokens.iter().rev().find(|t| super::keywords::lookup(t).is_none() && t.parse::<usize>().is_err()).cloned();
        let name = words::type_word(&name.unwrap_or_else(|| tokens.join("_")));
        let id = self.declare(&name, doc, pointer, false);
        doc.targets.insert(pointer.to_owned(), id);
        doc.pending.push((id, pointer.to_owned()));
        Some(id)
    }
}

/// Where a `$ref` leads.
pub(super) enum Resolved {
    /// A place in the same document (a JSON pointer, an anchor's place).
    Local(String),
    /// Another registry entry's document.
    Entry,
    /// Somewhere below an embedded resource's `$id`: the engine resolves it.
    Embedded,
}

/// A URI fragment's percent-escapes decoded (`%25` is `%`); `None` when it
/// is not valid UTF-8 or an escape is malformed.
pub fn percent_decode(fragment: &str) -> Option<String> {
    let bytes = fragment.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        if bytes[index] == b'%' {
            let hex = fragment.get(index + 1..index + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            index += 3;
        } else {
            out.push(bytes[index]);
            index += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// Whether a URI names a meta-schema the engine carries: a draft's own
/// (`http://json-schema.org/draft-07/schema`), or one of 2019-09's and
/// 2020-12's vocabularies (`https://json-schema.org/draft/2020-12/meta/validation`).
fn is_bundled_meta_schema(uri: &str) -> bool {
    let vocabulary = |draft: &str| {
        ["http://", "https://"].iter().any(|scheme| {
            uri.strip_prefix(scheme).and_then(|rest| rest.strip_prefix("json-schema.org/draft/")).is_some_and(|rest| {
                rest.strip_prefix(draft).and_then(|rest| rest.strip_prefix("/meta/")).is_some_and(|name| !name.is_empty() && !name.contains('/'))
            })
        })
    };
    super::Dialect::of(uri).is_some() || vocabulary("2019-09") || vocabulary("2020-12")
}
