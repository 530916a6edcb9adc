//! The subschemas only the assertion engine reads (under `not`, `if`,
//! `contains`, `patternProperties`, ...): no type is made of them, but their
//! keywords are held to the same table as every other schema's. Whether the
//! engine can resolve their `$ref`s (it never fetches one) is checked when
//! the engine is built for the module, at generation time (`prepare`).

use super::keywords::{self, Role};
use super::{Document, Reader};
use crate::error::{pointer_push, Errors};
use crate::model::{Model, TypeKind};
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
                self.errors.push(doc.file, &at, format!("`{}` is refused: {why}", crate::error::shown(keyword)));
            }
            match keyword.as_str() {
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

/// Builds the engine for every record type of each module that needs it, so
/// that a schema the engine cannot check (a `$ref` it cannot resolve without
/// fetching, say) is refused now, not when the first record is read.
pub fn prepare(model: &mut Model, errors: &mut Errors) {
    for index in 0..model.modules.len() {
        if !model.modules[index].needs_engine {
            continue;
        }
        let Ok(text) = serde_json::from_str::<Value>(&model.modules[index].text) else { continue };
        let documents: Vec<(String, String)> =
            documents(model, index).into_iter().map(|other| (model.modules[other].base.clone(), model.modules[other].text.clone())).collect();
        let documents: Vec<(&str, &str)> = documents.iter().map(|(uri, text)| (uri.as_str(), text.as_str())).collect();
        // Every record type with a place of its own in the document: a type a
        // merge or a union made has none, and the records around it are checked.
        let records: Vec<usize> = (0..model.types.len())
            .filter(|&id| {
                let def = &model.types[id];
                def.module == index && (def.is_root || matches!(def.kind, TypeKind::Struct(_))) && text.pointer(&def.origin.pointer).is_some()
            })
            .collect();
        let pointers: Vec<&str> = records.iter().map(|&id| model.types[id].origin.pointer.as_str()).collect();
        // One build for the entry: the document is parsed and compiled once.
        match concord_runtime::assertion::build_many(&documents, 0, &pointers) {
            Ok(_) => {
                for id in records {
                    model.types[id].asserted = true;
                }
            }
            Err(why) => {
                let module = &model.modules[index];
                // The engine's words quote the schema: shown on one line.
                errors.push(&module.file, "", format!("the assertion engine cannot check this schema: {}", crate::error::shown(&why)));
            }
        }
    }
}

/// The documents the engine needs for a module's records: its own first,
/// then every entry its `$ref`s reach, directly or not (indexes into
/// [`Model::modules`]).
pub fn documents(model: &Model, module: usize) -> Vec<usize> {
    let mut reached = vec![module];
    let mut next = 0;
    while next < reached.len() {
        for &other in &model.modules[reached[next]].refers_to {
            if !reached.contains(&other) {
                reached.push(other);
            }
        }
        next += 1;
    }
    reached
}
