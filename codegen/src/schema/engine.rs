//! The subschemas only the assertion engine reads (under `not`, `if`,
//! `contains`, `patternProperties`, ...): no type is made of them, but their
//! keywords are held to the same table as every other schema's, and every
//! `$ref` in them must resolve within the document, since the engine never
//! fetches one.

use super::keywords::{self, Role};
use super::{Document, Reader};
use crate::error::pointer_push;
use serde_json::Value;

/// Keywords whose value is one subschema.
const ONE: &[&str] = &["not", "if", "then", "else", "contains", "propertyNames", "items", "additionalProperties", "unevaluatedItems", "unevaluatedProperties", "contentSchema"];
/// Keywords whose value is an array of subschemas.
const MANY: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems"];
/// Keywords whose value maps names to subschemas.
const NAMED: &[&str] = &["properties", "patternProperties", "dependentSchemas", "$defs", "definitions"];

impl Reader {
    /// Checks what a keyword the engine alone reads holds.
    pub(super) fn engine_keyword(&mut self, doc: &Document, keyword: &str, value: &Value, at: &str) {
        if ONE.contains(&keyword) {
            self.engine_subschema(doc, value, at, 0);
        } else if MANY.contains(&keyword) {
            for (index, item) in value.as_array().into_iter().flatten().enumerate() {
                self.engine_subschema(doc, item, &format!("{at}/{index}"), 0);
            }
        } else if NAMED.contains(&keyword) {
            for (name, item) in value.as_object().into_iter().flatten() {
                self.engine_subschema(doc, item, &pointer_push(at, name), 0);
            }
        }
    }

    /// Checks the subschema at `pointer` and everything below it.
    pub(super) fn engine_subschema(&mut self, doc: &Document, schema: &Value, pointer: &str, depth: usize) {
        let Value::Object(object) = schema else { return };
        if depth > 64 {
            return;
        }
        for (keyword, value) in object {
            let at = pointer_push(pointer, keyword);
            let role = keywords::lookup(keyword).map_or_else(|| keywords::unknown(keyword), |known| known.role);
            if let Role::Refused(why) = role {
                self.errors.push(doc.file, &at, format!("`{keyword}` is refused: {why}"));
            }
            match keyword.as_str() {
                "$id" | "$schema" => self.errors.push(doc.file, &at, format!("`{keyword}` below the root is not supported: make the embedded schema a registry entry of its own")),
                "$ref" => {
                    let target = value.as_str().unwrap_or_default();
                    let resolves = match target.strip_prefix('#') {
                        Some(fragment) if fragment.is_empty() || fragment.starts_with('/') => doc.root.pointer(&fragment.replace("%25", "%")).is_some(),
                        Some(anchor) => doc.anchors.contains_key(anchor),
                        None => false,
                    };
                    if !resolves {
                        self.errors.push(doc.file, &at, format!("`$ref` {target:?} does not resolve within this document: concord never fetches schemas"));
                    }
                }
                k if ONE.contains(&k) => self.engine_subschema(doc, value, &at, depth + 1),
                k if MANY.contains(&k) => {
                    for (index, item) in value.as_array().into_iter().flatten().enumerate() {
                        self.engine_subschema(doc, item, &format!("{at}/{index}"), depth + 1);
                    }
                }
                k if NAMED.contains(&k) => {
                    for (name, item) in value.as_object().into_iter().flatten() {
                        self.engine_subschema(doc, item, &pointer_push(&at, name), depth + 1);
                    }
                }
                _ => {}
            }
        }
    }
}
