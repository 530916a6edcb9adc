//! The document walk: one pass over a document that finds what it names
//! and refers to (`$anchor`, `$id`, `$ref`) before anything is read.

use crate::error::pointer_push;
use serde_json::Value;
use std::collections::HashMap;

/// What a document names and refers to, found in one walk.
#[derive(Default)]
pub(super) struct Scan {
    /// `$anchor` names and the locations they stand at.
    pub(super) anchors: HashMap<String, String>,
    /// Every `$id`, the root's and embedded resources'.
    pub(super) ids: Vec<String>,
    /// Every `$ref` target.
    pub(super) refs: Vec<String>,
}

impl Scan {
    pub(super) fn of(document: &Value) -> Scan {
        let mut scan = Scan::default();
        scan.walk(document, "");
        scan
    }

    fn walk(&mut self, schema: &Value, pointer: &str) {
        match schema {
            Value::Object(object) => {
                if let Some(Value::String(target)) = object.get("$ref") {
                    self.refs.push(target.clone());
                }
                if let Some(Value::String(anchor)) = object.get("$anchor") {
                    self.anchors.entry(anchor.clone()).or_insert_with(|| pointer.to_owned());
                }
                if let Some(Value::String(id)) = object.get("$id") {
                    self.ids.push(id.clone());
                }
                for (key, value) in object {
                    // Values of these keywords are data, not schemas.
                    if !matches!(key.as_str(), "enum" | "const" | "default" | "examples") {
                        self.walk(value, &pointer_push(pointer, key));
                    }
                }
            }
            Value::Array(items) => {
                for (index, item) in items.iter().enumerate() {
                    self.walk(item, &format!("{pointer}/{index}"));
                }
            }
            _ => {}
        }
    }
}
