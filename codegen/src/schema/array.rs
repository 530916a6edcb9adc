//! Arrays: `items` is the element type; length and uniqueness are checked.

use super::scalar::checked;
use super::{Document, Keywords, Reader};
use crate::model::{Check, Shape};
use serde_json::Value;

impl Reader {
    pub(super) fn array(&mut self, doc: &mut Document, schema: &Keywords, hint: &str) -> Option<Shape> {
        let file = doc.file;
        let items = match schema.take("items") {
            None => Shape::Any,
            Some(items) => self.shape(doc, items, &schema.at("items"), &format!("{hint}Item"))?,
        };
        let mut checks = Vec::new();
        let (min, max) = (self.count(file, schema, "minItems"), self.count(file, schema, "maxItems"));
        if min.is_some_and(|min| min > 0) || max.is_some() {
            checks.push(Check::Items { min: min.filter(|min| *min > 0), max });
        }
        match schema.take("uniqueItems") {
            None | Some(Value::Bool(false)) => {}
            Some(Value::Bool(true)) => checks.push(Check::UniqueItems),
            Some(_) => self.errors.push(file, schema.at("uniqueItems"), "`uniqueItems` must be true or false"),
        }
        Some(checked(Shape::Array(Box::new(items)), checks))
    }
}
