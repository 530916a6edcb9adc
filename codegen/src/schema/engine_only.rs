//! The subschemas only the assertion engine reads (under `not`, `if`,
//! `contains`, `patternProperties`, ...): no type is made of them, but their
//! keywords are held to the same table as every other schema's. Whether the
//! engine can build them (their `$ref`s, which it never fetches) the
//! `concord` command checks before it pins or generates (docs/crates.md).

use super::keywords::{self, Arity, Role};
use super::reference::Resolved;
use super::{Document, Reader};
use crate::error::pointer_push;
use serde_json::Value;

impl Reader {
    /// Checks what a keyword the engine alone reads holds.
    pub(super) fn engine_keyword(&mut self, doc: &Document, keyword: &str, value: &Value, at: &str) {
        self.engine_value(doc, keyword, value, at, "", 0);
    }

    /// Checks the subschema at `pointer` and everything below it; `resource`
    /// is where the innermost embedded resource around it stands (`""`: the
    /// document), against which a `$ref` of a fragment alone resolves.
    pub(super) fn engine_subschema(&mut self, doc: &Document, schema: &Value, pointer: &str, resource: &str, depth: usize) {
        let object = match schema {
            Value::Object(object) => object,
            Value::Bool(_) => return,
            _ => return self.errors.push(doc.file, pointer, "a schema must be an object or a boolean"),
        };
        if depth > 64 {
            return;
        }
        // An `$id` below the root (draft-04's `id`) makes a resource of its own.
        let resource = if !pointer.is_empty() && super::id_of(object, doc.dialect).is_some() { pointer } else { resource };
        // Before 2019-09, `$ref` overrides whatever stands beside it: the
        // engine reads none of it, and neither does the reader.
        let overridden = doc.dialect.ref_overrides_siblings() && object.contains_key("$ref");
        for (keyword, value) in object {
            let at = pointer_push(pointer, keyword);
            if overridden && keyword != "$ref" {
                continue;
            }
            if let Role::Refused(why) = doc.role(keyword, doc.dialect) {
                self.errors.push(doc.file, &at, super::refused(keyword, doc.dialect, why));
            }
            if let ("$ref", Value::String(target)) = (keyword.as_str(), value) {
                self.engine_reference(doc, target, &at, resource);
            }
            self.engine_value(doc, keyword, value, &at, resource, depth + 1);
        }
    }

    /// A `$ref` the engine alone follows leads where a typed one may: into
    /// this document, at a place that is there, or into another entry; never
    /// to a remote schema nor a file outside the registry.
    fn engine_reference(&mut self, doc: &Document, target: &str, at: &str, resource: &str) {
        match self.resolve_reference(doc, target) {
            Ok(Resolved::Local(pointer)) => {
                // A JSON pointer alone names a place of the innermost resource around it.
                let fragment_only = target.starts_with("#/") || target == "#";
                let within = if fragment_only { format!("{resource}{pointer}") } else { pointer };
                if doc.root.pointer(&within).is_some() {
                    return;
                }
                let why = if fragment_only && !resource.is_empty() {
                    format!(
                        "`$ref` {target:?} stands in the embedded resource at {resource} (its `{}` makes it a document of its own), so it names \
                         that resource's {}, which does not exist: no validator resolves it (docs/limits.md; the document's own place is \
                         named by the document's URI, not by a fragment alone)",
                        doc.dialect.id_keyword(),
                        &within[resource.len()..]
                    )
                } else {
                    format!("`$ref` target {target:?} does not exist in this document")
                };
                self.errors.push(doc.file, at, why);
            }
            Ok(_) => {}
            Err(why) => self.errors.push(doc.file, at, why),
        }
    }

    /// The subschemas a keyword holds, each checked; a value of the wrong
    /// shape is refused here, where it stands, rather than by the engine.
    fn engine_value(&mut self, doc: &Document, keyword: &str, value: &Value, at: &str, resource: &str, depth: usize) {
        // Before 2020-12, an array of `items` is a tuple's schemas; a
        // `dependencies` entry is a schema or a list of names.
        let arity = keywords::arity(keyword);
        let many = arity == Arity::Many || (keyword == "items" && value.is_array() && doc.dialect.items_array_is_tuple());
        if keyword == "dependencies" {
            let Some(items) = value.as_object() else {
                return self.errors.push(doc.file, at, "`dependencies` must be an object of schemas and lists of property names");
            };
            for (name, item) in items.iter().filter(|(_, item)| !item.is_array()) {
                self.engine_subschema(doc, item, &pointer_push(at, name), resource, depth);
            }
        } else if many {
            let Some(items) = value.as_array() else {
                return self.errors.push(doc.file, at, format!("`{keyword}` must be an array of schemas"));
            };
            for (index, item) in items.iter().enumerate() {
                self.engine_subschema(doc, item, &format!("{at}/{index}"), resource, depth);
            }
        } else if arity == Arity::One {
            self.engine_subschema(doc, value, at, resource, depth);
        } else if arity == Arity::Named {
            let Some(items) = value.as_object() else {
                return self.errors.push(doc.file, at, format!("`{keyword}` must be an object of schemas"));
            };
            for (name, item) in items {
                self.engine_subschema(doc, item, &pointer_push(at, name), resource, depth);
            }
        }
    }
}
