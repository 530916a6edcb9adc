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
use std::path::PathBuf;

/// Keywords whose value is one subschema.
const ONE: &[&str] = &["not", "if", "then", "else", "contains", "propertyNames", "items", "additionalProperties", "unevaluatedItems", "unevaluatedProperties", "contentSchema"];
/// Keywords whose value is an array of subschemas.
const MANY: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems"];
/// Keywords whose value maps names to subschemas.
const NAMED: &[&str] = &["properties", "patternProperties", "dependentSchemas", "$defs", "definitions"];

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
        for (keyword, value) in object {
            let at = pointer_push(pointer, keyword);
            let role = keywords::lookup(keyword).map_or_else(|| keywords::unknown(keyword), |known| known.role);
            if let Role::Refused(why) = role {
                self.errors.push(doc.file, &at, format!("`{}` is refused: {why}", crate::error::shown(keyword)));
            }
            self.engine_value(doc, keyword, value, &at, depth + 1);
        }
    }

    /// The subschemas a keyword holds, each checked; a value of the wrong
    /// shape is refused here, where it stands, rather than by the engine.
    fn engine_value(&mut self, doc: &Document, keyword: &str, value: &Value, at: &str, depth: usize) {
        if ONE.contains(&keyword) {
            self.engine_subschema(doc, value, at, depth);
        } else if MANY.contains(&keyword) {
            let Some(items) = value.as_array() else {
                return self.errors.push(doc.file, at, format!("`{keyword}` must be an array of schemas"));
            };
            for (index, item) in items.iter().enumerate() {
                self.engine_subschema(doc, item, &format!("{at}/{index}"), depth);
            }
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

/// Builds the engine for every record type of every module, so that a
/// schema the engine cannot check (a `$ref` it cannot resolve without
/// fetching, say) is refused now, not when the first record is read or
/// validated. The records with a place of their own are then pinned
/// (`validate` exists for them), and checked by the engine when they are
/// read if their module needs it.
pub fn prepare(model: &mut Model, errors: &mut Errors) {
    for index in 0..model.modules.len() {
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
        // No records (a document refused before any type was read): nothing to check.
        if pointers.is_empty() {
            continue;
        }
        // A document whose `$id` the reader refused cannot be registered: that refusal says it.
        let reached = self::documents(model, index);
        if reached.iter().any(|&other| errors.diagnostics.iter().any(|d| d.file == model.modules[other].file && d.pointer == "/$id")) {
            continue;
        }
        // One build for the entry: the document is parsed and compiled once.
        match build(&documents, &pointers) {
            Ok(()) => {
                let asserted = model.modules[index].needs_engine;
                for id in records {
                    model.types[id].pinned = true;
                    model.types[id].asserted = asserted;
                }
            }
            Err(why) => {
                let (file, pointer, why) = locate(model, index, &documents, &text, &pointers).unwrap_or_else(|| (model.modules[index].file.clone(), String::new(), why));
                // A place the reader refused already: the engine's refusal adds nothing.
                if !errors.diagnostics.iter().any(|d| d.file == file && d.pointer == pointer) {
                    // The engine's words quote the schema: shown on one line.
                    errors.push(&file, pointer, format!("the assertion engine cannot check this schema: {}", crate::error::shown(&why)));
                }
            }
        }
    }
}

/// Where the engine's refusal of a module's schema stands, and why. From a
/// record's location the engine cannot build, down to the first child
/// subschema it cannot build either, until every child builds: the problem
/// is that subschema's own, and the keyword whose removal lets it build
/// names it. When nothing builds at all (the documents cannot even be
/// registered), a `$ref` in the documents that names none of them, or the
/// identifier (`$id`, `$ref`, an anchor) whose removal changes the complaint.
fn locate(model: &Model, module: usize, documents: &[(&str, &str)], text: &Value, records: &[&str]) -> Option<(PathBuf, String, String)> {
    let build = |documents: &[(&str, &str)], pointer: &str| build(documents, &[pointer]).err();
    let file = model.modules[module].file.clone();
    let mut failing = records.iter().find_map(|record| Some((record.to_string(), build(documents, record)?)))?;
    // Documents that cannot be registered fail wherever one starts: the
    // place is a `$ref` that names none of them, or the identifier whose
    // removal lets them be registered (or changes why not).
    if failing.1.starts_with(REGISTRATION) {
        let reached = self::documents(model, module);
        if let Some((other, pointer, target, resolved)) = unresolved_reference(model, &reached) {
            let why = format!(
                "`$ref` {target:?} names {resolved}, which is none of the documents the engine reads for this entry (its own and the entries \
                 its `$ref`s name, each by its `$id` if it has one) nor an `$id` in them; the engine never fetches"
            );
            return Some((model.modules[other].file.clone(), pointer, why));
        }
        for (position, other) in reached.iter().enumerate() {
            let Ok(text) = serde_json::from_str::<Value>(documents[position].1) else { continue };
            for pointer in identifiers(&text, String::new()) {
                let without = removed(&text, &pointer);
                let mut edited = documents.to_vec();
                edited[position].1 = &without;
                // Its removal lets them register, or changes why not (another identifier is wrong too).
                if build(&edited, &failing.0).as_ref() != Some(&failing.1) {
                    return Some((model.modules[*other].file.clone(), pointer, failing.1));
                }
            }
        }
        return None;
    }
    'descend: for _ in 0..=MAX_LOCATE_DEPTH {
        for child in children(text.pointer(&failing.0)?, &failing.0) {
            if let Some(why) = build(documents, &child) {
                failing = (child, why);
                continue 'descend;
            }
        }
        break;
    }
    // The keyword of that subschema whose removal lets it build, or changes
    // why it does not: removed one after another, so that of two keywords
    // wrong alike, the second is found once the first is gone.
    let (pointer, why) = failing;
    if let Some(Value::Object(object)) = text.pointer(&pointer) {
        let mut without = text.clone();
        for keyword in object.keys() {
            let place = pointer_push(&pointer, keyword);
            without = serde_json::from_str(&removed(&without, &place)).unwrap_or(without);
            let edited_text = without.to_string();
            let mut edited = documents.to_vec();
            edited[0].1 = &edited_text;
            if build(&edited, &pointer).as_ref() != Some(&why) {
                return Some((file, place, why));
            }
        }
    }
    Some((file, pointer, why))
}

/// The document's text without the member at `pointer`.
fn removed(document: &Value, pointer: &str) -> String {
    let mut copy = document.clone();
    let (parent, key) = pointer.rsplit_once('/').unwrap_or_default();
    let key = key.replace("~1", "/").replace("~0", "~");
    if let Some(Value::Object(place)) = copy.pointer_mut(parent) {
        place.shift_remove(&key);
    }
    copy.to_string()
}

/// Where the identifiers of a document stand (`$id`, `$ref`, anchors, ...).
fn identifiers(value: &Value, pointer: String) -> Vec<String> {
    let mut out = Vec::new();
    match value {
        Value::Object(object) => {
            for (key, item) in object {
                let at = pointer_push(&pointer, key);
                if matches!(key.as_str(), "$id" | "$ref" | "$dynamicRef" | "$anchor" | "$dynamicAnchor" | "$schema") {
                    out.push(at.clone());
                }
                if !matches!(key.as_str(), "enum" | "const" | "default" | "examples") {
                    out.extend(identifiers(item, at));
                }
            }
        }
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                out.extend(identifiers(item, format!("{pointer}/{index}")));
            }
        }
        _ => {}
    }
    out
}

/// The engine, built for the records at `pointers` of the first document.
/// A panic while building it (the `jsonschema` crate has panicked on two
/// embedded resources sharing one `$id`) is a refusal like any other.
fn build(documents: &[(&str, &str)], pointers: &[&str]) -> Result<(), String> {
    // Quiet while it runs (as `survey` does): the panic is reported as a refusal, not printed.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let built = std::panic::catch_unwind(|| concord_runtime::engine::build_many(documents, 0, pointers).map(drop));
    std::panic::set_hook(hook);
    match built {
        Ok(built) => built,
        Err(payload) => {
            let what = payload.downcast_ref::<&str>().map(|text| text.to_string()).or_else(|| payload.downcast_ref::<String>().cloned());
            Err(format!("the jsonschema crate failed on it (a panic: {})", what.unwrap_or_default()))
        }
    }
}

/// What the runtime's engine says when the documents cannot be registered.
const REGISTRATION: &str = "the schema documents cannot be registered";
/// How deep [`locate`] descends (the strict profile bounds nesting at 64).
const MAX_LOCATE_DEPTH: usize = 64;

/// The subschemas directly below the schema at `pointer`.
fn children(schema: &Value, pointer: &str) -> Vec<String> {
    let mut out = Vec::new();
    let Value::Object(object) = schema else { return out };
    for (keyword, value) in object {
        let at = pointer_push(pointer, keyword);
        if ONE.contains(&keyword.as_str()) {
            out.push(at);
        } else if MANY.contains(&keyword.as_str()) {
            out.extend((0..value.as_array().map_or(0, Vec::len)).map(|index| format!("{at}/{index}")));
        } else if NAMED.contains(&keyword.as_str()) {
            out.extend(value.as_object().into_iter().flatten().map(|(name, _)| pointer_push(&at, name)));
        }
    }
    out
}

/// The first `$ref` in the given modules' documents whose target (resolved
/// against its base: the document's, or an embedded `$id`'s) is none of
/// those documents nor an `$id` in them: (module, pointer, target, resolved).
fn unresolved_reference(model: &Model, modules: &[usize]) -> Option<(usize, String, String, String)> {
    let texts: Vec<(usize, Value)> = modules.iter().filter_map(|&m| Some((m, serde_json::from_str::<Value>(&model.modules[m].text).ok()?))).collect();
    let mut known: Vec<String> = modules.iter().map(|&m| model.modules[m].base.clone()).collect();
    let mut references = Vec::new();
    for (module, text) in &texts {
        walk(text, &model.modules[*module].base, String::new(), &mut known, &mut |pointer, base, target| references.push((*module, pointer, target.to_owned(), super::resolve_uri(base, target))));
    }
    references.into_iter().find(|(_, _, _, resolved)| !known.contains(resolved))
}

/// Visits every `$ref` below `value` with its base, collecting `$id`s.
fn walk(value: &Value, base: &str, pointer: String, ids: &mut Vec<String>, visit: &mut dyn FnMut(String, &str, &str)) {
    match value {
        Value::Object(object) => {
            let base = match object.get("$id").and_then(Value::as_str) {
                Some(id) => {
                    let resolved = super::resolve_uri(base, id);
                    ids.push(resolved.clone());
                    resolved
                }
                None => base.to_owned(),
            };
            if let Some(Value::String(target)) = object.get("$ref") {
                visit(pointer_push(&pointer, "$ref"), &base, target);
            }
            for (key, item) in object {
                // Values of these keywords are data, not schemas.
                if !matches!(key.as_str(), "enum" | "const" | "default" | "examples") {
                    walk(item, &base, pointer_push(&pointer, key), ids, visit);
                }
            }
        }
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                walk(item, base, format!("{pointer}/{index}"), ids, visit);
            }
        }
        _ => {}
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
