//! Arrays: `items` is the element type; length and uniqueness are checked.

use super::scalar::checked;
use super::{Document, Keywords, Reader};
use crate::model::{Check, Shape};
use serde_json::Value;

impl Reader {
    pub(super) fn array(&mut self, doc: &mut Document, schema: &Keywords, hint: &str) -> Option<Shape> {
        let file = doc.file;
        let items = match schema.take("items") {
            // After `prefixItems`, `items` types the rest only: the engine checks both.
            Some(_) | None if schema.object.contains_key("prefixItems") => Shape::Any,
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
            // On scalars the typed values are the JSON values; objects may
            // hold keys their type drops, so the engine compares the input.
            Some(Value::Bool(true)) if scalar(&items) => checks.push(Check::UniqueItems),
            Some(Value::Bool(true)) => doc.engine = true,
            Some(_) => self.errors.push(file, schema.at("uniqueItems"), "`uniqueItems` must be true or false"),
        }
        Some(checked(Shape::Array(Box::new(items)), checks))
    }
}

fn scalar(shape: &Shape) -> bool {
    match shape {
        Shape::Checked(inner, _) | Shape::Nullable(inner) => scalar(inner),
        Shape::Null | Shape::Bool | Shape::Integer | Shape::Number | Shape::String => true,
        _ => false,
    }
}
