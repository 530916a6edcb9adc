//! `oneOf`, `anyOf` and `type` lists: read into a union whose branches
//! `lower` later decides how to tell apart, once every named type is read.

use super::{Document, Keywords, Read, Reader};
use crate::error::pointer_push;
use crate::model::{Branch, Choice, Shape, Union};
use serde_json::Value;

/// Whether a `type` holds two or more types besides `null`.
pub(super) fn several_types(types: &Value) -> bool {
    types.as_array().is_some_and(|types| types.iter().filter(|t| t.as_str() != Some("null")).count() > 1)
}

impl Reader {
    pub(super) fn union(&mut self, doc: &mut Document, schema: &Keywords, hint: &str) -> Option<Read> {
        let file = doc.file;
        let (keyword, exclusive) = match (schema.has("oneOf"), schema.has("anyOf")) {
            (true, true) => {
                self.errors.push(file, schema.pointer, "`oneOf` and `anyOf` side by side are not supported: nest one in the other's branch");
                schema.take("oneOf");
                schema.take("anyOf");
                return None;
            }
            (true, false) => ("oneOf", true),
            _ => ("anyOf", false),
        };
        let Some(Value::Array(branches)) = schema.take(keyword).filter(|value| value.as_array().is_some_and(|b| !b.is_empty())) else {
            self.errors.push(file, schema.at(keyword), format!("`{keyword}` must be a non-empty array of schemas"));
            return None;
        };
        for sibling in schema.object.keys().filter(|k| !schema.taken.borrow().contains(k.as_str())) {
            let annotation = super::keywords::lookup(sibling).is_none_or(|known| matches!(known.role, super::Role::Annotation(_) | super::Role::Refused(_)));
            if !annotation && !matches!(sibling.as_str(), "$schema" | "$id" | "$defs" | "definitions" | "$anchor") {
                self.errors.push(
                    file,
                    schema.at(sibling),
                    format!("`{sibling}` beside `{keyword}` is not supported yet: move it into each branch"),
                );
            }
        }
        let mut shapes = Vec::new();
        for (index, branch) in branches.iter().enumerate() {
            let at = pointer_push(&schema.at(keyword), &index.to_string());
            shapes.push(self.shape(doc, branch, &at, &format!("{hint}{}", index + 1))?);
        }
        Some(union_of(shapes, exclusive))
    }

    /// `"type": ["string", "integer", ...]`: a branch per type, each the
    /// schema with that one type (so each type's keywords apply to it alone).
    pub(super) fn type_list(&mut self, doc: &mut Document, schema: &Keywords, hint: &str) -> Option<Read> {
        let types = schema.take("type")?.as_array()?.clone();
        let mut shapes = Vec::new();
        for name in &types {
            let Some(name) = name.as_str() else {
                self.errors.push(doc.file, schema.at("type"), format!("unknown type {name}"));
                return None;
            };
            let mut one = schema.object.clone();
            one.insert("type".to_owned(), Value::String(name.to_owned()));
            for keyword in ["title", "description"] {
                one.remove(keyword);
            }
            for keyword in schema.object.keys() {
                schema.taken.borrow_mut().insert(keyword);
            }
            shapes.push(self.shape(doc, &Value::Object(one), schema.pointer, &format!("{hint}{}", crate::names::pascal(name, "V")))?);
        }
        Some(union_of(shapes, true))
    }
}

/// A union of `shapes`, or the nullable form of the one branch beside `null`.
fn union_of(mut shapes: Vec<Shape>, exclusive: bool) -> Read {
    if shapes.len() == 2 {
        if let Some(null) = shapes.iter().position(|shape| *shape == Shape::Null) {
            let other = shapes.remove(1 - null);
            return Read::Shape(match other {
                Shape::Nullable(_) => other,
                other => Shape::Nullable(Box::new(other)),
            });
        }
    }
    if shapes.len() == 1 {
        return Read::Shape(shapes.remove(0));
    }
    let branches = shapes.into_iter().enumerate().map(|(index, shape)| Branch { word: format!("V{}", index + 1), shape, key: String::new() }).collect();
    Read::Union(Union { branches, choice: Choice::Undecided { exclusive } })
}
