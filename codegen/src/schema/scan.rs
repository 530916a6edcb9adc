//! The document walk: one pass over a document that finds what it names
//! and refers to (`$anchor`, `$id`, `$ref`) before anything is read.

use crate::error::pointer_push;
use crate::uri::{anchor_of, id_of};
use crate::vocabulary::Dialect;
use serde_json::Value;
use std::collections::HashMap;

/// What a document names and refers to, found in one walk.
#[derive(Default)]
pub(super) struct Scan {
    /// Anchor names (`$anchor`, or an older draft's `"$id": "#name"`) and
    /// the locations they stand at.
    pub(super) anchors: HashMap<String, String>,
    /// Every `$id` (`id` in draft-04), the root's and embedded resources'.
    pub(super) ids: Vec<String>,
    /// Every `$ref` target.
    pub(super) refs: Vec<String>,
}

impl Scan {
    /// The walk of a document read in `dialect`.
    pub(super) fn of(document: &Value, dialect: Dialect) -> Scan {
        let mut scan = Scan::default();
        scan.walk(document, "", dialect);
        scan
    }

    fn walk(&mut self, schema: &Value, pointer: &str, dialect: Dialect) {
        match schema {
            Value::Object(object) => {
                if let Some(Value::String(target)) = object.get("$ref") {
                    self.refs.push(target.clone());
                }
                if let Some(anchor) = anchor_of(object, dialect) {
                    self.anchors.entry(anchor.to_owned()).or_insert_with(|| pointer.to_owned());
                }
                // A `$dynamicAnchor` is a plain anchor for `$ref` too (2020-12, §8.2.2).
                if let (Dialect::Draft202012, Some(Value::String(anchor))) = (dialect, object.get("$dynamicAnchor")) {
                    self.anchors.entry(anchor.clone()).or_insert_with(|| pointer.to_owned());
                }
                if let Some(id) = id_of(object, dialect) {
                    self.ids.push(id.to_owned());
                }
                for (key, value) in object {
                    // Values of these keywords are data, not schemas.
                    if !matches!(key.as_str(), "enum" | "const" | "default" | "examples") {
                        self.walk(value, &pointer_push(pointer, key), dialect);
                    }
                }
            }
            Value::Array(items) => {
                for (index, item) in items.iter().enumerate() {
                    self.walk(item, &format!("{pointer}/{index}"), dialect);
                }
            }
            _ => {}
        }
    }
}
