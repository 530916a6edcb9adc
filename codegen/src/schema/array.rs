//! Arrays: `items` is the element type; length and uniqueness are checked.
//! A tuple is 2020-12's `prefixItems` with the rest in `items`, or, before,
//! an array of `items` with the rest in `additionalItems`.

use super::scalar::checked;
use super::{Document, Keywords, Reader};
use crate::model::{Check, Shape};
use serde_json::Value;

impl Reader {
    pub(super) fn array(&mut self, doc: &mut Document, schema: &Keywords, hint: &str) -> Option<Shape> {
        let file = doc.file;
        let (min, max) = (self.count(file, schema, "minItems"), self.count(file, schema, "maxItems"));
        let older = schema.dialect.items_array_is_tuple();
        let (prefix_keyword, rest_keyword) = if older { ("items", "additionalItems") } else { ("prefixItems", "items") };
        let prefix = if older { schema.object.get("items").filter(|items| items.is_array()) } else { schema.object.get("prefixItems") };
        let items = if let Some(prefix) = prefix {
            schema.take(prefix_keyword);
            if let Some(tuple) = self.tuple(doc, schema, prefix, (prefix_keyword, rest_keyword), (min, max), hint) {
                return Some(tuple);
            }
            // Not a fixed tuple: items of any value, which the engine checks,
            // the rest too.
            doc.needs_engine(prefix_keyword, &schema.at(prefix_keyword));
            self.engine_keyword(doc, prefix_keyword, prefix, &schema.at(prefix_keyword));
            if let Some(rest) = schema.take(rest_keyword) {
                self.engine_keyword(doc, rest_keyword, rest, &schema.at(rest_keyword));
            }
            Shape::Any
        } else {
            // Beside a schema `items` (or none), `additionalItems` means nothing.
            if older {
                schema.take("additionalItems");
            }
            match schema.take("items") {
                None => Shape::Any,
                Some(items) => self.shape(doc, items, &schema.at("items"), &format!("{hint}Item"))?,
            }
        };
        let mut checks = Vec::new();
        if min.is_some_and(|min| min > 0) || max.is_some() {
            checks.push(Check::Items { min: min.filter(|min| *min > 0), max });
        }
        match schema.take("uniqueItems") {
            None | Some(Value::Bool(false)) => {}
            // On scalars the typed values are the JSON values; objects may
            // hold keys their type drops, so the engine compares the input.
            Some(Value::Bool(true)) if scalar(&items) => checks.push(Check::UniqueItems),
            Some(Value::Bool(true)) => doc.needs_engine("uniqueItems", &schema.at("uniqueItems")),
            Some(_) => self.errors.push(file, schema.at("uniqueItems"), "`uniqueItems` must be true or false"),
        }
        Some(checked(Shape::Array(Box::new(items)), checks))
    }
}

impl Reader {
    /// `prefixItems` with `items: false` and `minItems` as many (before
    /// 2020-12: an array of `items` with `additionalItems: false`): a tuple,
    /// when its elements are of plain shapes (no named type); else `None`.
    fn tuple(
        &mut self,
        doc: &mut Document,
        schema: &Keywords,
        prefix: &Value,
        (prefix_keyword, rest_keyword): (&'static str, &'static str),
        (min, max): (Option<u64>, Option<u64>),
        hint: &str,
    ) -> Option<Shape> {
        let items = prefix.as_array().filter(|items| !items.is_empty())?;
        let n = items.len() as u64;
        let exact = schema.object.get(rest_keyword) == Some(&Value::Bool(false)) && min == Some(n) && max.is_none_or(|max| max >= n);
        let plain =
            exact && !schema.object.contains_key("uniqueItems") && !schema.object.contains_key("contains") && !schema.object.contains_key("unevaluatedItems");
        if !plain {
            return None;
        }
        let before = self.model.types.len();
        let mut shapes = Vec::new();
        for (index, item) in items.iter().enumerate() {
            let at = format!("{}/{index}", schema.at(prefix_keyword));
            shapes.push(self.shape(doc, item, &at, &format!("{hint}{}", index + 1))?);
        }
        // Named types inside would need boxing and ordering rules of their own.
        if self.model.types.len() != before || shapes.iter().any(|shape| !scalar(shape)) {
            self.forget_types_from(doc, before);
            return None;
        }
        schema.take(rest_keyword);
        Some(Shape::Tuple(shapes))
    }
}

fn scalar(shape: &Shape) -> bool {
    match shape {
        Shape::Checked(inner, _) | Shape::Nullable(inner) => scalar(inner),
        Shape::Null | Shape::Bool | Shape::Integer | Shape::Number | Shape::String => true,
        _ => false,
    }
}
