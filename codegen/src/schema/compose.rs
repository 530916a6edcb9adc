//! `oneOf`, `anyOf` and `type` lists: read into a union whose branches
//! `lower` later decides how to tell apart, once every named type is read.

use super::{Document, Keywords, Read, Reader};
use crate::error::pointer_push;
use crate::model::Shape;
use serde_json::{Map, Value};
use std::collections::{HashMap, HashSet};

/// Whether every branch of a schema's `oneOf`/`anyOf` only asserts things
/// of the value (`anyOf: [{"required": ["paths"]}, {"required":
/// ["components"]}]`, a `type` the schema has already): the value is then of
/// the schema's own type, which the engine holds to the branches, rather
/// than a union no value could be told apart by.
pub(super) fn asserts_only(object: &Map<String, Value>, dialect: super::Dialect) -> bool {
    let own_type = object.get("type");
    let own_properties = object.get("properties").and_then(Value::as_object);
    // `properties` naming only properties the schema declares narrows their
    // values (AsyncAPI's AMQP binding: `{"properties": {"is": {"const":
    // "queue"}}, "required": ["queue"]}`): it adds no key the type lacks.
    let narrows = |value: &Value| value.as_object().is_some_and(|named| named.keys().all(|name| own_properties.is_some_and(|own| own.contains_key(name))));
    let branch_asserts = |branch: &Value| match branch {
        Value::Bool(_) => true,
        Value::Object(branch) => branch.iter().all(|(keyword, value)| {
            super::keywords::lookup(keyword).is_some_and(|row| row.asserts_only)
                || (keyword == "properties" && narrows(value))
                || (keyword == "type" && Some(value) == own_type)
                || (matches!(keyword.as_str(), "allOf" | "anyOf" | "oneOf") && value.as_array().is_some_and(|_| asserts_only(branch, dialect)))
                || matches!(super::keywords::role(keyword, dialect), super::Role::Annotation(_))
        }),
        _ => false,
    };
    let mut branches = ["oneOf", "anyOf", "allOf"].iter().filter_map(|keyword| object.get(*keyword)).peekable();
    branches.peek().is_some() && branches.all(|value| value.as_array().is_some_and(|items| !items.is_empty() && items.iter().all(branch_asserts)))
}

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
        // Keywords beside the union apply to every branch: `{S, oneOf: [A, B]}`
        // is `oneOf: [S and A, S and B]`, so each branch is read as the `allOf`
        // of the siblings and itself. `unevaluated*` look across the branches:
        // the engine checks those.
        let mut siblings = Map::new();
        for (sibling, value) in schema.object {
            if schema.taken.borrow().contains(sibling.as_str()) || matches!(sibling.as_str(), "$schema" | "$id" | "$defs" | "definitions" | "$anchor") {
                continue;
            }
            let annotation = matches!(super::keywords::role(sibling, schema.dialect), super::Role::Annotation(_) | super::Role::Refused(_));
            if matches!(sibling.as_str(), "unevaluatedProperties" | "unevaluatedItems") {
                doc.needs_engine(sibling, &schema.at(sibling));
            } else if !annotation {
                siblings.insert(sibling.clone(), value.clone());
            }
        }
        for keyword in schema.object.keys() {
            schema.taken.borrow_mut().insert(keyword);
        }
        let mut shapes = Vec::new();
        for (index, branch) in branches.iter().enumerate() {
            // A `false` branch matches nothing: the union is the same without it.
            if *branch == Value::Bool(false) {
                continue;
            }
            let at = pointer_push(&schema.at(keyword), &index.to_string());
            let branch = if siblings.is_empty() { branch.clone() } else { serde_json::json!({"allOf": [Value::Object(siblings.clone()), branch]}) };
            shapes.push(self.shape(doc, &branch, &at, &format!("{hint}{}", index + 1))?);
        }
        if shapes.is_empty() {
            // Nothing matches: any value, which the engine refuses.
            doc.needs_engine(keyword, &schema.at(keyword));
            return Some(Read::Shape(Shape::Any));
        }
        Some(union_of(shapes, exclusive))
    }

    /// `"type": ["string", "integer", ...]`: a branch per type, each the
    /// schema with that one type (so each type's keywords apply to it alone).
    pub(super) fn type_list(&mut self, doc: &mut Document, schema: &Keywords, hint: &str) -> Option<Read> {
        let types = schema.take("type")?.as_array()?.clone();
        let mut names = Vec::new();
        for name in &types {
            let Some(name) = name.as_str() else {
                self.errors.push(doc.file, schema.at("type"), super::unknown_type(name));
                return None;
            };
            names.push(name);
        }
        self.by_types(doc, schema, hint, &names, true)
    }

    /// A schema without `type` whose keywords apply to some JSON types only
    /// (`properties` without `"type": "object"`, as CloudFormation's
    /// resource schemas and many configuration schemas are written): every
    /// JSON value is one of its values, and each keyword applies to values
    /// of its type. Read as the `type` list of every JSON type, so the
    /// struct users expect is kept and the other values the schema admits
    /// are read too, told apart by their JSON type in both languages alike.
    pub(super) fn implied_types(&mut self, doc: &mut Document, schema: &Keywords, hint: &str) -> Option<Read> {
        // An integer and a fraction are told apart by how they are written
        // (`7` and `7.0`), so each is written back as it was read.
        self.by_types(doc, schema, hint, super::keywords::JSON_TYPES, false)
    }

    /// A union of a branch per type: the schema's keywords not read yet,
    /// with that one `type` (another type's keywords are no-ops there).
    fn by_types(&mut self, doc: &mut Document, schema: &Keywords, hint: &str, names: &[&str], exclusive: bool) -> Option<Read> {
        // What is read already stays out (`type`, annotations, the engine's
        // keywords): a branch is no document, and a root's `$schema` or `$id`
        // would make it an embedded resource of its own.
        let own: Map<String, Value> = schema
            .object
            .iter()
            .filter(|(keyword, _)| !schema.is_taken(keyword) && !matches!(keyword.as_str(), "title" | "description"))
            .map(|(keyword, value)| (keyword.clone(), value.clone()))
            .collect();
        for keyword in schema.object.keys() {
            schema.taken.borrow_mut().insert(keyword);
        }
        let mut shapes = Vec::new();
        for name in names {
            let mut one = own.clone();
            one.insert("type".to_owned(), Value::String((*name).to_owned()));
            shapes.push(self.shape(doc, &Value::Object(one), schema.pointer, &format!("{hint}{}", crate::naming::words::pascal(name, "V")))?);
        }
        Some(union_of(shapes, exclusive))
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
    Read::Union(super::lower::Pending { branches: shapes, exclusive })
}

/// How deep `allOf` parts and the `$ref`s among them may nest: a cycle of
/// `allOf`s through `$ref`s never ends otherwise.
const MERGE_DEPTH: usize = 32;

impl Reader {
    /// `allOf`, and `$ref` with keywords beside it (2020-12 applies both):
    /// the parts' keywords merged into one schema, which is then read as
    /// usual. Properties come in part order, then the schema's own;
    /// `required` lists join; a property two parts define differently is the
    /// `allOf` of both; any other keyword two parts give different values is
    /// refused, as is a part closed by `additionalProperties: false` beside
    /// properties from another part (it would refuse them).
    pub(super) fn all_of(&mut self, doc: &mut Document, schema: &Keywords, hint: &str) -> Option<Read> {
        let file = doc.file;
        let mut parts: Vec<Map<String, Value>> = Vec::new();
        // The locations merged already (`true`) or being merged (`false`):
        // `allOf: [A, A]` is `A`, and a part reached twice is merged once
        // (else parts that each name the next twice would be merged 2^32
        // times); one reached again while it is being merged is a cycle. The
        // schema itself is being merged, when it is the document's own.
        let mut merged = HashMap::new();
        if doc.root.pointer(schema.pointer).is_some_and(|value| value.as_object() == Some(schema.object)) {
            merged.insert(schema.pointer.to_owned(), false);
        }
        let mut own = schema.object.clone();
        for keyword in schema.object.keys() {
            schema.taken.borrow_mut().insert(keyword);
        }
        if let Some(items) = own.remove("allOf") {
            let Value::Array(items) = items else {
                self.errors.push(file, schema.at("allOf"), "`allOf` must be an array of schemas");
                return None;
            };
            let mut mergeable = true;
            for (index, item) in items.iter().enumerate() {
                let at = pointer_push(&schema.at("allOf"), &index.to_string());
                mergeable &= self.flatten(doc, item, &at, 0, &mut parts, &mut merged)?;
            }
            if !mergeable {
                doc.needs_engine("allOf", &schema.at("allOf"));
                return Some(Read::Shape(Shape::Any));
            }
        }
        if let Some(target) = own.remove("$ref") {
            let mut reference = Map::new();
            reference.insert("$ref".to_owned(), target);
            if !self.flatten(doc, &Value::Object(reference), schema.pointer, 0, &mut parts, &mut merged)? {
                doc.needs_engine("$ref", &schema.at("$ref"));
                return Some(Read::Shape(Shape::Any));
            }
        }
        for keyword in ["$schema", "$id", "$defs", "definitions", "$anchor", schema.dialect.id_keyword()] {
            own.remove(keyword);
        }
        parts.push(own);
        match merge(parts) {
            Merged::Exact(merged) => self.read_merged(doc, merged, schema.pointer, hint),
            // The engine checks what the merged type leaves out. Keys a part
            // typed as extra entries are data the type keeps, not unknown keys.
            Merged::Looser(merged, keep_extra) => {
                doc.needs_engine("allOf", &schema.at("allOf"));
                let mut read = self.read_merged(doc, merged, schema.pointer, hint)?;
                if keep_extra {
                    self.keep_extra_keys(&mut read);
                }
                Some(read)
            }
            Merged::Any => {
                doc.needs_engine("allOf", &schema.at("allOf"));
                Some(Read::Shape(Shape::Any))
            }
        }
    }

    /// Keys a loosened part typed as extra entries are data the type keeps:
    /// the struct read (an object without `type` reads into a union's
    /// `object` branch) keeps its unknown keys rather than dropping them.
    fn keep_extra_keys(&mut self, read: &mut Read) {
        let keep = |body: &mut crate::model::Struct| {
            if matches!(body.unknown_keys, crate::model::UnknownKeys::Drop) {
                body.unknown_keys = crate::model::UnknownKeys::Keep;
            }
        };
        match read {
            Read::Struct(body) => keep(body),
            Read::Union(pending) => {
                for branch in &pending.branches {
                    if let Shape::Named(id) = branch {
                        if let crate::model::TypeKind::Struct(body) = &mut self.model.types[id.0].kind {
                            keep(body);
                        }
                    }
                }
            }
            _ => {}
        }
    }

    /// Reads a merged schema. One that holds, at any depth, an `allOf` that
    /// merges to the very same schema again (`"properties": {"next":
    /// {"allOf": [{"$ref": "#"}]}}`) is a recursive type: it is named once,
    /// where it is first read, and the inner one is that type, as a `$ref`
    /// would make it. (Read again instead, it would nest without end, and
    /// two such properties would double the work at every level.)
    fn read_merged(&mut self, doc: &mut Document, merged: Map<String, Value>, pointer: &str, hint: &str) -> Option<Read> {
        let text = serde_json::to_string(&merged).unwrap_or_default();
        if let Some(outer) = self.merging.iter().rposition(|m| m.module == doc.module && m.text == text) {
            let id = match self.merging[outer].named {
                Some(id) => id,
                None => {
                    let (hint, pointer) = (self.merging[outer].hint.clone(), self.merging[outer].pointer.clone());
                    let id = self.declare(&hint, doc, &pointer, false);
                    self.merging[outer].named = Some(id);
                    id
                }
            };
            return Some(Read::Shape(Shape::Named(id)));
        }
        self.merging.push(super::Merging { module: doc.module, text, pointer: pointer.to_owned(), hint: hint.to_owned(), named: None });
        let merged = Value::Object(merged);
        let read = self.read(doc, &merged, pointer, hint, false);
        let named = self.merging.pop().and_then(|merging| merging.named);
        let Some(id) = named else { return read };
        let name = self.model.types[id.0].name.clone();
        self.model.types[id.0].doc = super::doc_text(&merged);
        self.settle(doc, id, read, &name, pointer);
        Some(Read::Shape(Shape::Named(id)))
    }

    /// A part's keywords, its own `allOf` parts and `$ref` target flattened in.
    /// `Some(false)` when a part cannot be merged (`false`, or a reference
    /// this document does not hold): then the engine checks the whole.
    /// `merged` holds the `$ref` targets flattened in already (`true`):
    /// merging one again changes nothing, and would double the work at every
    /// level of a nest of `allOf`s that name the same targets; and those
    /// being flattened (`false`): reaching one again is a cycle at the same
    /// value, which never ends.
    fn flatten(
        &mut self,
        doc: &Document,
        part: &Value,
        at: &str,
        depth: usize,
        parts: &mut Vec<Map<String, Value>>,
        merged: &mut HashMap<String, bool>,
    ) -> Option<bool> {
        if depth > MERGE_DEPTH {
            self.errors.push(doc.file, at, "`allOf` and `$ref` nest deeper than 32 parts (a cycle?): there is no finite type to merge");
            return None;
        }
        let mut part = match part {
            Value::Bool(true) => return Some(true),
            Value::Bool(false) => return Some(false),
            Value::Object(part) => part.clone(),
            _ => {
                self.errors.push(doc.file, at, "an `allOf` part must be a schema object (or `true`)");
                return None;
            }
        };
        // Before 2019-09, `$ref` overrides whatever stands beside it.
        if doc.dialect.ref_overrides_siblings() && part.contains_key("$ref") {
            part.retain(|keyword, _| keyword == "$ref");
        }
        if let Some(Value::Array(items)) = part.remove("allOf") {
            // Reported at the outermost part: a nested part may stand in another definition.
            for item in &items {
                if !self.flatten(doc, item, at, depth + 1, parts, merged)? {
                    return Some(false);
                }
            }
        }
        if let Some(target) = part.remove("$ref") {
            // Where the `$ref` stands: in the part itself, or (reached through
            // another `$ref`) somewhere the outermost part leads to.
            let here = if depth == 0 { pointer_push(at, "$ref") } else { at.to_owned() };
            let Some(target) = target.as_str() else {
                self.errors.push(doc.file, here, "`$ref` must be a string");
                return None;
            };
            let (key, resolved) = match target.strip_prefix('#') {
                Some(fragment) if fragment.is_empty() || fragment.starts_with('/') => match super::reference::percent_decode(fragment) {
                    Some(pointer) => {
                        let resolved = doc.root.pointer(&pointer).cloned();
                        (pointer, resolved)
                    }
                    None => {
                        self.errors.push(doc.file, here, format!("`$ref` {target:?} is not a valid URI fragment"));
                        return None;
                    }
                },
                Some(anchor) => match doc.anchors.get(anchor) {
                    Some(pointer) => (pointer.clone(), doc.root.pointer(pointer).cloned()),
                    None => {
                        self.errors.push(doc.file, here, format!("`$ref` {target:?} names no `$anchor` of this document"));
                        return None;
                    }
                },
                // Another registry entry's document (glTF's `allOf: [{"$ref":
                // "glTFProperty.schema.json"}]`): its part is merged as this
                // document's are, its `$ref`s made absolute so that they lead
                // where they led there. Anything else (a resource embedded
                // below an `$id`, another dialect): the engine checks the whole.
                None => match self.part_of_other_entry(doc, target) {
                    Some((key, part)) => (key, Some(part)),
                    None => return Some(false),
                },
            };
            match merged.get(&key) {
                Some(true) => {}
                // `{"$ref": "#", "type": "object"}`, or `a` whose `allOf` names `b`, whose names `a`.
                Some(false) => {
                    self.errors.push(
                        doc.file,
                        here,
                        format!(
                            "`$ref` {target:?} leads back, through `$ref` and `allOf` alone, to a schema it is part of, for the same value: \
                             checking it never ends (JSON Schema asks validators to refuse such a loop), so there is no type to make"
                        ),
                    );
                    return None;
                }
                None => {
                    let Some(resolved) = resolved else {
                        self.errors.push(doc.file, here, format!("`$ref` target {target:?} does not exist in this document"));
                        return None;
                    };
                    merged.insert(key.clone(), false);
                    let mergeable = self.flatten(doc, &resolved, at, depth + 1, parts, merged)?;
                    merged.insert(key, true);
                    if !mergeable {
                        return Some(false);
                    }
                }
            }
        }
        for keyword in ["$schema", "$id", "$defs", "definitions", "$anchor", doc.dialect.id_keyword()] {
            part.remove(keyword);
        }
        parts.push(part);
        Some(true)
    }
}

impl Reader {
    /// The subschema a `$ref` names in another registry entry's document, in
    /// the same dialect, with every `$ref` in it made absolute against that
    /// document's base; and the key that names it among merged parts.
    fn part_of_other_entry(&self, doc: &Document, target: &str) -> Option<(String, Value)> {
        let resolved = super::resolve_uri(&self.entries[doc.module].base, target);
        let other = self.entry_named(&resolved)?;
        let document = self.entries[other].document.as_ref()?;
        if self.entries[other].dialect != Some(doc.dialect) {
            return None;
        }
        let fragment = target.split_once('#').map_or("", |(_, fragment)| fragment);
        let pointer = super::reference::percent_decode(fragment).filter(|pointer| pointer.is_empty() || pointer.starts_with('/'))?;
        let mut part = document.pointer(&pointer)?.clone();
        // Below an embedded `$id` the part's `$ref`s resolve against it: the engine's.
        let mut at = document;
        for token in pointer.split('/').skip(1) {
            if at.as_object().and_then(|object| super::id_of(object, doc.dialect)).is_some() && !std::ptr::eq(at, document) {
                return None;
            }
            let token = token.replace("~1", "/").replace("~0", "~");
            at = match at {
                Value::Object(object) => object.get(&token)?,
                Value::Array(items) => items.get(token.parse::<usize>().ok()?)?,
                _ => return None,
            };
        }
        absolutize(&mut part, &self.entries[other].base, doc.dialect);
        Some((format!("{}#{pointer}", self.entries[other].base), part))
    }
}

/// Every `$ref` below `schema` made absolute against `base` (and any `$id`
/// on the way), so that it leads where it led in its own document.
fn absolutize(schema: &mut Value, base: &str, dialect: super::Dialect) {
    let id_of = |object: &Map<String, Value>| super::id_of(object, dialect).map(str::to_owned);
    concord_runtime::references::absolutize(schema, base, id_of, |base, reference| Some(super::resolve_uri(base, reference)));
}

/// What merging `allOf` parts gave.
enum Merged {
    /// One schema meaning exactly what the parts mean together.
    Exact(Map<String, Value>),
    /// A schema that accepts at least what the parts do: some keyword had
    /// different values in two parts (two `if`s, a part closed against the
    /// others' properties); the engine checks the parts themselves. And
    /// whether keys no part declares are data to keep (a part typed them as
    /// extra entries, and that rule was left to the engine).
    Looser(Map<String, Value>, bool),
    /// Parts whose types conflict: any value, checked by the engine.
    Any,
}

fn merge(parts: Vec<Map<String, Value>>) -> Merged {
    let declared: Vec<HashSet<String>> =
        parts.iter().map(|part| part.get("properties").and_then(Value::as_object).map(|p| p.keys().cloned().collect()).unwrap_or_default()).collect();
    let patterns: Vec<bool> = parts.iter().map(|part| part.contains_key("patternProperties")).collect();
    let last = parts.len().saturating_sub(1);
    let mut merged = Map::new();
    let mut loosened: Vec<String> = Vec::new();
    let mut keep_extra = false;
    for (index, mut part) in parts.into_iter().enumerate() {
        // `additionalProperties` sees only its own part's properties, and so
        // does `unevaluatedProperties` in any part but the schema's own (the
        // last, whose in-place applicators the other parts are): a key
        // another part declares is extra to it, and must pass its rule too.
        // Such a part's rule is left to the engine: the merged type stays
        // open (keeping the keys it typed as extra entries).
        let others_declare = (0..declared.len()).any(|other| other != index && (patterns[other] || !declared[other].is_subset(&declared[index])));
        for keyword in ["additionalProperties", "unevaluatedProperties"] {
            if keyword == "unevaluatedProperties" && index == last {
                continue;
            }
            let rule = part.get(keyword).filter(|rule| **rule != Value::Bool(true) && !rule.as_object().is_some_and(Map::is_empty));
            if let Some(rule) = rule.filter(|_| others_declare) {
                keep_extra |= rule.is_object();
                part.remove(keyword);
                loosened.push(keyword.to_owned());
            }
        }
        for (keyword, value) in part {
            let Some(existing) = merged.get_mut(&keyword) else {
                merged.insert(keyword, value);
                continue;
            };
            match keyword.as_str() {
                "properties" => {
                    let (Value::Object(existing), Value::Object(more)) = (existing, value) else { return Merged::Any };
                    for (name, schema) in more {
                        match existing.get_mut(&name) {
                            None => {
                                existing.insert(name, schema);
                            }
                            Some(first) if *first == schema => {}
                            Some(first) => *first = serde_json::json!({"allOf": [first.take(), schema]}),
                        }
                    }
                }
                "required" => {
                    let (Value::Array(existing), Value::Array(more)) = (existing, value) else { return Merged::Any };
                    let mut listed: HashSet<Value> = existing.iter().cloned().collect();
                    existing.extend(more.into_iter().filter(|name| listed.insert(name.clone())));
                }
                "x-growth-point" => *existing = Value::Bool(existing == &Value::Bool(true) || value == Value::Bool(true)),
                "title" | "description" | "$comment" | "examples" | "default" | "deprecated" | "readOnly" | "writeOnly" => {
                    // The schema's own annotation (the last part) is the most specific.
                    *existing = value;
                }
                _ if *existing == value => {}
                k if super::keywords::lookup(k).is_some_and(|row| row.loosenable) => loosened.push(keyword),
                _ => return Merged::Any,
            }
        }
    }
    if loosened.is_empty() {
        return Merged::Exact(merged);
    }
    for keyword in &loosened {
        merged.remove(keyword);
    }
    // A keyword left to the engine that evaluates keys (or items) in place
    // would have marked them evaluated: the type cannot tell which are
    // unevaluated any more, so that rule goes to the engine too.
    for (unevaluated, evaluating) in [
        ("unevaluatedProperties", &["if", "then", "else", "dependentSchemas", "patternProperties", "additionalProperties", "unevaluatedProperties"][..]),
        ("unevaluatedItems", &["if", "then", "else", "prefixItems", "contains", "unevaluatedItems"][..]),
    ] {
        if loosened.iter().any(|keyword| evaluating.contains(&keyword.as_str())) {
            if let Some(rule) = merged.remove(unevaluated) {
                keep_extra |= rule.is_object() && !rule.as_object().is_some_and(Map::is_empty);
            }
        }
    }
    Merged::Looser(merged, keep_extra)
}
