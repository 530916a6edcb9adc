//! The assertion engine (the `jsonschema` crate, through concord-runtime's
//! `validate`) built for every record type of a registry before the
//! command pins or generates it: a schema the engine cannot check (a `$ref`
//! it cannot resolve without fetching, a keyword value it refuses) is
//! refused then, with its place, not when the first record is validated.
//!
//! A build script does not run this (concord-codegen leaves the engine out
//! of every user's build, docs/crates.md), and it writes the same bindings:
//! this check only refuses. Since `concord pin` and `concord add` run it,
//! every schema a build script reads passed it when it was pinned.

use concord_codegen::error::{pointer_push, shown, Errors};
use concord_codegen::model::Model;
use concord_codegen::uri::resolve_uri;
use concord_codegen::vocabulary::keywords::{self, Arity};
use concord_runtime::pinned::Source;
use serde_json::Value;
use std::path::PathBuf;

/// Builds the engine for every record type of every module, and pushes
/// where and why it cannot be built.
pub fn check(model: &Model, errors: &mut Errors) {
    for index in 0..model.modules.len() {
        let Ok(text) = serde_json::from_str::<Value>(&model.modules[index].text) else { continue };
        let documents: Vec<Source<'_>> = model.documents(index).into_iter().map(|other| source(&model.modules[other])).collect();
        // Every pinned record type: those with a place of their own in the document.
        let pointers: Vec<&str> = model.types.iter().filter(|def| def.module == index && def.pinned()).map(|def| def.origin.pointer.as_str()).collect();
        // No records (a document refused before any type was read): nothing to check.
        if pointers.is_empty() {
            continue;
        }
        // A document the reader refused already: its refusals say what is
        // wrong, in concord's words, and the engine's would only repeat one
        // (an unresolvable `$ref` the reader names, the engine fails on).
        let reached = model.documents(index);
        if reached.iter().any(|&other| errors.diagnostics.iter().any(|d| d.file == model.modules[other].file)) {
            continue;
        }
        // The root record as the bindings build it (from the whole document,
        // which the crate also holds to its meta-schema), and every other
        // record in one build beside it: each subschema compiled once.
        let others: Vec<&str> = pointers.iter().copied().filter(|pointer| !pointer.is_empty()).collect();
        let root = if pointers.contains(&"") { build(&documents, &[""]) } else { Ok(()) };
        let built = root.and_then(|()| if others.is_empty() { Ok(()) } else { build(&documents, &others) });
        if let Err(why) = built {
            // Where the meta-schema refused the document, the engine says so itself.
            let meta = why.split_once(" (the schema at ").and_then(|(_, rest)| rest.strip_suffix(')')).map(str::to_owned);
            let (file, pointer, why) = match meta {
                Some(place) => (model.modules[index].file.clone(), place, why),
                None => locate(model, index, &documents, &text, &pointers).unwrap_or_else(|| (model.modules[index].file.clone(), String::new(), why)),
            };
            // A place the reader refused already: the engine's refusal adds nothing.
            if !errors.diagnostics.iter().any(|d| d.file == file && d.pointer == pointer) {
                // The engine's words quote the schema: shown on one line.
                errors.push(&file, pointer, format!("the assertion engine cannot check this schema: {}", shown(&why)));
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
fn locate(model: &Model, module: usize, documents: &[Source<'_>], text: &Value, records: &[&str]) -> Option<(PathBuf, String, String)> {
    let build = |documents: &[Source<'_>], pointer: &str| build(documents, &[pointer]).err();
    let file = model.modules[module].file.clone();
    let mut failing = records.iter().find_map(|record| Some((record.to_string(), build(documents, record)?)))?;
    // Documents that cannot be registered fail wherever one starts: the
    // place is a `$ref` that names none of them, or the identifier whose
    // removal lets them be registered (or changes why not).
    if failing.1.starts_with(REGISTRATION) {
        let reached = model.documents(module);
        if let Some((other, pointer, target, resolved)) = unresolved_reference(model, &reached) {
            let why = format!(
                "`$ref` {target:?} names {resolved}, which is none of the documents the engine reads for this entry (its own and the entries \
                 its `$ref`s name, each by its `$id` if it has one) nor an `$id` in them; the engine never fetches"
            );
            return Some((model.modules[other].file.clone(), pointer, why));
        }
        for (position, other) in reached.iter().enumerate() {
            let Ok(text) = serde_json::from_str::<Value>(documents[position].text) else { continue };
            for pointer in identifiers(&text, String::new()) {
                let without = removed(&text, &pointer);
                let mut edited = documents.to_vec();
                edited[position].text = &without;
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
            edited[0].text = &edited_text;
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

/// The engine, built for the records at `pointers` of the first document
/// (a panic of the `jsonschema` crate is a refusal like any other: it has
/// panicked on two embedded resources sharing one `$id`).
fn build(documents: &[Source<'_>], pointers: &[&str]) -> Result<(), String> {
    // Quiet while it runs (as the survey does): the panic is reported as a refusal, not printed.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let built = concord_runtime::pinned::Checker::build_all(documents, pointers).map(drop);
    std::panic::set_hook(hook);
    built
}

/// What the engine reads of a module's document: its base URI, its pinned
/// text, and the dialect the registry declares for it.
pub fn source(module: &concord_codegen::model::Module) -> Source<'_> {
    Source { uri: &module.base, text: &module.text, dialect: module.declared_dialect.as_deref() }
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
        match keywords::arity(keyword) {
            Arity::One => out.push(at),
            Arity::Many => out.extend((0..value.as_array().map_or(0, Vec::len)).map(|index| format!("{at}/{index}"))),
            Arity::Named => out.extend(value.as_object().into_iter().flatten().map(|(name, _)| pointer_push(&at, name))),
            Arity::Zero => {}
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
        walk(text, &model.modules[*module].base, String::new(), &mut known, &mut |pointer, base, target| {
            references.push((*module, pointer, target.to_owned(), resolve_uri(base, target)))
        });
    }
    references.into_iter().find(|(_, _, _, resolved)| !known.contains(resolved))
}

/// Visits every `$ref` below `value` with its base, collecting `$id`s.
fn walk(value: &Value, base: &str, pointer: String, ids: &mut Vec<String>, visit: &mut dyn FnMut(String, &str, &str)) {
    match value {
        Value::Object(object) => {
            let base = match object.get("$id").and_then(Value::as_str) {
                Some(id) => {
                    let resolved = resolve_uri(base, id);
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
