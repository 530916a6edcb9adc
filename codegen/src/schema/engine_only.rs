//! The subschemas only the assertion engine reads (under `not`, `if`,
//! `contains`, `patternProperties`, ...): no type is made of them, but their
//! keywords are held to the same table as every other schema's. Whether the
//! engine can build them (their `$ref`s, which it never fetches) the
//! `concord` command checks before it pins or generates (docs/crates.md).

use super::keywords::{self, Role, MANY, NAMED, ONE};
use super::reference::Resolved;
use super::{Document, Reader};
use crate::error::pointer_push;
use serde_json::Value;

impl Reader {
    /// Checks what a keyword the engine alone reads holds.
    pub(super) fn engine_keyword(&mut self, doc: &Document, keyword: &str, value: &Value, at: &str) {
        self.engine_value(doc, keyword, value, at, 0);
    }

    /// Checks the subschema at `pointer` and everything below it.
    pub(super) fn engine_subschema(&mut self, doc: &Document, schema: &Value, pointer: &str, depth: usize) {
        let object = match schema {
            Value::Object(object) => object,
            Value::Bool(_) => return,
            _ => return self.errors.push(doc.file, pointer, "a schema must be an object or a boolean"),
        };
        if depth > 64 {
            return;
        }
        // Before 2019-09, `$ref` overrides whatever stands beside it: the
        // engine reads none of it, and neither does the reader.
        let overridden = doc.dialect.ref_overrides_siblings() && object.contains_key("$ref");
        for (keyword, value) in object {
            let at = pointer_push(pointer, keyword);
            if overridden && keyword != "$ref" {
                continue;
            }
            if let Role::Refused(why) = keywords::role(keyword, doc.dialect) {
                self.errors.push(doc.file, &at, super::refused(keyword, doc.dialect, why));
            }
            if let ("$ref", Value::String(target)) = (keyword.as_str(), value) {
                self.engine_reference(doc, target, &at);
            }
            self.engine_value(doc, keyword, value, &at, depth + 1);
        }
    }

    /// A `$ref` the engine alone follows leads where a typed one may: into
    /// this document, at a place that is there, or into another entry; never
    /// to a remote schema nor a file outside the registry.
    fn engine_reference(&mut self, doc: &Document, target: &str, at: &str) {
        match self.resolve_reference(doc, target) {
            // Below an embedded `$id`, a fragment may be that resource's: left to the engine.
            Ok(Resolved::Local(pointer)) if doc.ids.len() <= usize::from(doc.root.as_object().and_then(|root| super::id_of(root, doc.dialect)).is_some()) => {
                if doc.root.pointer(&pointer).is_none() {
                    self.errors.push(doc.file, at, format!("`$ref` target {target:?} does not exist in this document"));
                }
            }
            Ok(_) => {}
            Err(why) => self.errors.push(doc.file, at, why),
        }
    }

    /// The subschemas a keyword holds, each checked; a value of the wrong
    /// shape is refused here, where it stands, rather than by the engine.
    fn engine_value(&mut self, doc: &Document, keyword: &str, value: &Value, at: &str, depth: usize) {
        // Before 2020-12, an array of `items` is a tuple's schemas; a
        // `dependencies` entry is a schema or a list of names.
        let many = MANY.contains(&keyword) || (keyword == "items" && value.is_array() && doc.dialect.items_array_is_tuple());
        if keyword == "dependencies" {
            let Some(items) = value.as_object() else {
                return self.errors.push(doc.file, at, "`dependencies` must be an object of schemas and lists of property names");
            };
            for (name, item) in items.iter().filter(|(_, item)| !item.is_array()) {
                self.engine_subschema(doc, item, &pointer_push(at, name), depth);
            }
        } else if many {
            let Some(items) = value.as_array() else {
                return self.errors.push(doc.file, at, format!("`{keyword}` must be an array of schemas"));
            };
            for (index, item) in items.iter().enumerate() {
                self.engine_subschema(doc, item, &format!("{at}/{index}"), depth);
            }
        } else if ONE.contains(&keyword) {
            self.engine_subschema(doc, value, at, depth);
        } else if NAMED.contains(&keyword) {
            let Some(items) = value.as_object() else {
                return self.errors.push(doc.file, at, format!("`{keyword}` must be an object of schemas"));
            };
            for (name, item) in items {
                self.engine_subschema(doc, item, &pointer_push(at, name), depth);
            }
        }
    }
}
