//! `concord upgrade`: a Draft 2020-12 version of a schema written in an
//! older dialect (or of a 2020-12 schema that still uses an older keyword,
//! as glTF 2.0 does with `dependencies`), with every rewrite reported at
//! its JSON pointer, or a refusal of what 2020-12 cannot say alike
//! (docs/upgrade.md).
//!
//! What a keyword means in each dialect is the reader's keyword table
//! (`concord_codegen::vocabulary::keywords`) and `Dialect`'s rules: a keyword
//! that asserts in the document's dialect and in 2020-12 is kept, one that
//! only one of them reads is refused, and the keywords whose spelling or
//! form changed are rewritten here, one arm each.
//!
//! The walk visits schema positions only (the values of `properties`,
//! `items`, `allOf`, ..., never `enum`, `const`, `default` or `examples`),
//! recursively: a schema file nests at most 64 levels (the strict profile),
//! and [`MAX_NESTING`] bounds a value built otherwise.

use concord_codegen::error::{pointer_push, shown, Diagnostic, Errors};
use concord_codegen::schema::percent_decode;
use concord_codegen::uri::resolve_uri;
use concord_codegen::vocabulary::keywords::{self, Arity, Role};
use concord_codegen::vocabulary::{dialect, Dialect};
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// What every document is upgraded to.
pub const TARGET: Dialect = Dialect::Draft202012;

/// The one `$dynamicAnchor` name that 2019-09's `"$recursiveAnchor": true`
/// becomes: the name 2020-12's own meta-schemas give the same construct.
pub const DYNAMIC_ANCHOR: &str = "meta";

/// How deep schemas may nest in a document the walk is given: the strict
/// profile's limit (each schema is at least one JSON level), so that only a
/// value built otherwise meets it, and the recursion stays shallow.
pub const MAX_NESTING: usize = concord_runtime::strict::MAX_DEPTH;

/// A document upgraded: its 2020-12 text as a value, the dialect it was
/// read in, and every rewrite (file, JSON pointer, what was rewritten).
#[derive(Debug)]
pub struct Upgraded {
    pub document: Value,
    pub dialect: Dialect,
    pub rewrites: Vec<Diagnostic>,
}

/// Upgrades `document` (read from `file`, which only names it in messages)
/// to Draft 2020-12; `declared` is the dialect of a document without
/// `$schema`, `read_as` a later dialect to read it in despite its `$schema`
/// (as a registry entry's `read_as`).
/// `$schema`. Every refusal at once, or the upgraded document.
pub fn upgrade(file: &Path, document: &Value, declared: Option<Dialect>, read_as: Option<Dialect>) -> Result<Upgraded, Errors> {
    let (walk, upgraded) = start(file, document, declared, read_as)?;
    walk.finish(document, upgraded)
}

/// The walk of one document, and its upgrade so far: what a reference from
/// another document upgraded with it still needs.
fn start(file: &Path, document: &Value, declared: Option<Dialect>, read_as: Option<Dialect>) -> Result<(Walk, Value), Errors> {
    if !document.is_object() && !document.is_boolean() {
        return Err(Errors::one(file, "", "a schema file must hold a JSON object or a boolean"));
    }
    let dialect = match (document, Dialect::of_entry(document, declared, read_as)) {
        (Value::Bool(_), Err(_)) => {
            return Err(Errors::one(file, "", "a boolean schema cannot say its dialect: give it with --dialect (draft-06, draft-07, 2019-09 or 2020-12)"))
        }
        (_, Err(("", _))) => return Err(Errors::one(file, "", MISSING_SCHEMA)),
        (_, Err((pointer, why))) => return Err(Errors::one(file, pointer, why)),
        (_, Ok(dialect)) => dialect,
    };
    // `true` and `false` mean the same from draft-06 on, and have no `$schema` to rewrite.
    if document.is_boolean() && dialect == Dialect::Draft4 {
        return Err(Errors::one(file, "", "a boolean schema is a draft-06 form: a draft-04 schema file must hold a JSON object"));
    }
    // Its URI when it has no `$id`: its path, as in a registry, so that
    // relative references between files upgraded together resolve.
    let path = file.to_string_lossy().replace('\\', "/");
    let base = resolve_uri(concord_runtime::pinned::BASE, path.trim_start_matches('/'));
    let mut walk = Walk {
        file: file.to_path_buf(),
        dialect,
        rewrites: Vec::new(),
        errors: Errors::default(),
        moved: HashMap::new(),
        dropped: Vec::new(),
        resources: vec![Resource { old: String::new(), uri: base.clone(), recursive: false }],
        anchors: HashMap::new(),
        dropped_anchors: HashMap::new(),
        references: Vec::new(),
        leaving: Vec::new(),
        dynamic_anchors: Vec::new(),
        dynamic_references: Vec::new(),
        contains: None,
        unevaluated_items: Vec::new(),
    };
    let mut upgraded = walk.schema(document, "", "", &base, 0, 0);
    walk.references(document, &mut upgraded);
    walk.dynamic_scope();
    walk.unevaluated_items();
    Ok((walk, upgraded))
}

const MISSING_SCHEMA: &str =
    "missing \"$schema\": say which dialect the document is written in with --dialect (draft-04, draft-06, draft-07, 2019-09 or 2020-12)";

/// Every JSON pointer of a document, numbered in the order of its text.
fn document_order(document: &Value) -> HashMap<String, usize> {
    let mut order = HashMap::new();
    let mut stack = vec![(String::new(), document)];
    while let Some((pointer, value)) = stack.pop() {
        let children: Vec<(String, &Value)> = match value {
            Value::Object(members) => members.iter().map(|(key, item)| (pointer_push(&pointer, key), item)).collect(),
            Value::Array(items) => items.iter().enumerate().map(|(index, item)| (format!("{pointer}/{index}"), item)).collect(),
            _ => Vec::new(),
        };
        order.insert(pointer, order.len());
        stack.extend(children.into_iter().rev());
    }
    order
}

/// A schema resource: the document's root, or a subschema with an `$id`.
struct Resource {
    /// Its JSON pointer in the original document.
    old: String,
    /// Its URI, resolved (without fragment).
    uri: String,
    /// Whether it holds 2019-09's `"$recursiveAnchor": true` at its root.
    recursive: bool,
}

/// A `$ref` (or `$dynamicRef`) met on the walk.
#[derive(Clone)]
struct Reference {
    keyword: &'static str,
    /// The schema object holding it, before and after.
    old: String,
    new: String,
    /// The base URI it resolves against.
    base: String,
    value: String,
}

/// Where a reference leads once its target document is upgraded.
enum Follow {
    /// Where it led.
    Same,
    /// To the same place, now at this fragment.
    Moved(String),
    /// Why it cannot lead there any more.
    Refused(String),
}

struct Walk {
    file: PathBuf,
    dialect: Dialect,
    rewrites: Vec<Diagnostic>,
    errors: Errors,
    /// Every schema position walked: its pointer before and after.
    moved: HashMap<String, String>,
    /// What the upgrade drops that held schemas: the pointer, and why.
    dropped: Vec<(String, String)>,
    resources: Vec<Resource>,
    /// Named places, `(resource URI, name)`, as 2020-12 reads them: their pointer.
    anchors: HashMap<(String, String), String>,
    /// Named places beside a `$ref` before 2019-09 (ignored, so dropped).
    dropped_anchors: HashMap<(String, String), String>,
    references: Vec<Reference>,
    /// The references that leave the document.
    leaving: Vec<Reference>,
    /// Where `"$recursiveAnchor": true` became a `$dynamicAnchor`.
    dynamic_anchors: Vec<String>,
    /// Where `$recursiveRef` became a `$dynamicRef`.
    dynamic_references: Vec<String>,
    /// 2019-09: a `contains`, and every `unevaluatedItems` other than `true`.
    contains: Option<String>,
    unevaluated_items: Vec<String>,
}

/// Whether a role makes a keyword do something: shape or check values.
fn asserts(role: Role) -> bool {
    matches!(role, Role::Bound(_) | Role::Enforced(_))
}

/// A 2020-12 anchor name: a letter or `_`, then letters, digits, `-`, `.`, `_`.
fn plain_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|first| first.is_ascii_alphabetic() || first == '_') && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_'))
}

/// A JSON value as a message shows it: quoted, escaped, cut at 60 characters.
fn quoted(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(60) {
        Some((at, _)) => format!("{}...", &text[..at]),
        None => text,
    }
}

impl Walk {
    /// The upgrade, or every refusal: each list in the order of the
    /// document's text, whichever pass found them.
    fn finish(self, original: &Value, document: Value) -> Result<Upgraded, Errors> {
        let Walk { mut errors, mut rewrites, dialect, .. } = self;
        let order = document_order(original);
        rewrites.sort_by_key(|rewrite| order.get(&rewrite.pointer).copied().unwrap_or(usize::MAX));
        errors.diagnostics.sort_by_key(|error| order.get(&error.pointer).copied().unwrap_or(usize::MAX));
        errors.finish(Upgraded { document, dialect, rewrites })
    }

    fn rewrite(&mut self, pointer: &str, what: impl Into<String>) {
        self.rewrites.push(Diagnostic { file: self.file.clone(), pointer: pointer.to_owned(), message: what.into() });
    }

    fn refuse(&mut self, pointer: &str, why: impl Into<String>) {
        self.errors.push(&self.file, pointer, why);
    }

    /// The newest dialect before the document's in which `keyword` does
    /// something, when the document's own dialect ignores it: the meaning
    /// its author had in mind (`dependencies` in a 2020-12 document is
    /// draft-07's).
    fn older_meaning(&self, keyword: &str) -> Option<Dialect> {
        if asserts(keywords::role(keyword, self.dialect)) {
            return None;
        }
        dialect::ALL.iter().rev().copied().find(|older| *older < self.dialect && asserts(keywords::role(keyword, *older)))
    }

    /// Whether `keyword` means something here: in the document's dialect,
    /// or as an older dialect's keyword the document kept.
    fn read_as_keyword(&self, keyword: &str) -> bool {
        asserts(keywords::role(keyword, self.dialect)) || self.older_meaning(keyword).is_some()
    }

    /// What a report adds for an older keyword in a newer document.
    fn as_meant(&self, keyword: &str, older: Dialect) -> String {
        format!(" ({older}'s `{keyword}`, which {} validators ignore: rewritten as its author meant it)", self.dialect)
    }

    /// Kept beside a `$ref` before 2019-09: the reference, what is no
    /// keyword in either dialect (annotations), and the places `$ref`s reach.
    fn kept_beside_ref(&self, key: &str) -> bool {
        matches!(key, "$ref" | "$schema" | "definitions" | "$defs")
            || (!asserts(keywords::role(key, self.dialect)) && !asserts(keywords::role(key, TARGET)) && self.older_meaning(key).is_none())
    }

    /// A subschema upgraded: `old` and `new` are its pointers before and
    /// after, `base` the URI it is read against, `resource` the one it is in.
    fn schema(&mut self, value: &Value, old: &str, new: &str, base: &str, resource: usize, depth: usize) -> Value {
        self.moved.insert(old.to_owned(), new.to_owned());
        let Value::Object(object) = value else { return value.clone() };
        if depth > MAX_NESTING {
            self.refuse(old, format!("schemas nested deeper than {MAX_NESTING} levels"));
            return value.clone();
        }
        let dialect = self.dialect;
        let ignores_siblings = dialect.ref_overrides_siblings() && object.contains_key("$ref");
        let (base, resource) = self.identify(object, old, base, resource, ignores_siblings);
        let dependencies = if ignores_siblings { None } else { self.dependencies(object, old, new, &base, resource, depth) };
        let items_array = matches!(object.get("items"), Some(Value::Array(_)));
        let mut out = Map::new();
        for (key, value) in object {
            let at = pointer_push(old, key);
            if ignores_siblings && !self.kept_beside_ref(key) {
                self.rewrite(&at, format!("`{key}` beside `$ref` dropped: {dialect} ignores it, and 2020-12 would apply it"));
                self.dropped.push((at, format!("beside a `$ref`, which {dialect} ignores")));
                continue;
            }
            match key.as_str() {
                "$schema" => self.dialect_uri(old, &at, value, &mut out),
                "id" | "$id" if self.is_id_keyword(object, key) => self.id(object, key, &at, value, &mut out),
                "exclusiveMaximum" | "exclusiveMinimum" if value.is_boolean() || dialect == Dialect::Draft4 => {
                    self.exclusive(object, key, &at, value, &mut out)
                }
                "maximum" if object.get("exclusiveMaximum") == Some(&Value::Bool(true)) && value.is_number() => {}
                "minimum" if object.get("exclusiveMinimum") == Some(&Value::Bool(true)) && value.is_number() => {}
                "items" if items_array => {
                    let Value::Array(tuple) = value else { continue };
                    let note = if dialect.items_array_is_tuple() {
                        String::new()
                    } else {
                        " (2019-09's array of `items`, which 2020-12 does not read: rewritten as its author meant it)".to_owned()
                    };
                    if object.contains_key("prefixItems") && dialect == TARGET {
                        self.refuse(&at, "an array of `items` (a tuple before 2020-12) beside `prefixItems`: keep one of them");
                    } else if tuple.is_empty() {
                        self.rewrite(&at, format!("`items` [] dropped: an empty tuple constrains nothing{note}"));
                    } else {
                        let to = pointer_push(new, "prefixItems");
                        let items = tuple
                            .iter()
                            .enumerate()
                            .map(|(index, item)| self.schema(item, &format!("{at}/{index}"), &format!("{to}/{index}"), &base, resource, depth + 1))
                            .collect();
                        out.insert("prefixItems".to_owned(), Value::Array(items));
                        self.rewrite(&at, format!("`items` (an array: a tuple) → `prefixItems`{note}"));
                    }
                }
                "additionalItems" if self.read_as_keyword(key) => {
                    let note = self.older_meaning(key).map(|older| self.as_meant(key, older)).unwrap_or_default();
                    if items_array {
                        let rest = self.schema(value, &at, &pointer_push(new, "items"), &base, resource, depth + 1);
                        out.insert("items".to_owned(), rest);
                        self.rewrite(&at, format!("`additionalItems` → `items` (the items after `prefixItems`){note}"));
                    } else if object.contains_key("prefixItems") {
                        self.refuse(&at, "`additionalItems` beside `prefixItems`: 2020-12 ignores it there; write `items` for the items after `prefixItems`");
                    } else {
                        let beside = if object.contains_key("items") { "a schema `items`" } else { "no `items`" };
                        self.rewrite(&at, format!("`additionalItems` dropped: beside {beside} it constrains nothing, in every dialect"));
                        self.dropped.push((at, format!("`additionalItems` beside {beside}, which constrains nothing")));
                    }
                }
                "dependencies" if !ignores_siblings && self.read_as_keyword(key) => {
                    // Refused in `dependencies` when it could not be split.
                    let Some((required, schemas)) = &dependencies else { continue };
                    for (name, members) in [("dependentRequired", required), ("dependentSchemas", schemas)] {
                        if !members.is_empty() && !object.contains_key(name) {
                            out.insert(name.to_owned(), Value::Object(members.clone()));
                        }
                    }
                }
                "dependentRequired" | "dependentSchemas" if dependencies.is_some() && self.read_as_keyword(key) => {
                    let Some((required, schemas)) = &dependencies else { continue };
                    let (added, walked) = if key == "dependentRequired" {
                        (required, value.clone())
                    } else {
                        (schemas, self.children(key, value, &at, &pointer_push(new, key), &base, resource, depth))
                    };
                    let mut members = walked.as_object().cloned().unwrap_or_default();
                    members.extend(added.clone());
                    out.insert(key.clone(), Value::Object(members));
                }
                "$recursiveAnchor" if self.read_as_keyword(key) => self.recursive_anchor(object, old, &at, value, resource, &mut out),
                "$recursiveRef" if self.read_as_keyword(key) => self.recursive_ref(object, old, new, &at, value, &base, resource, &mut out),
                "$vocabulary" if dialect != TARGET => {
                    self.refuse(&at, format!("`$vocabulary` declares a {dialect} meta-schema's vocabularies: upgrade a meta-schema by hand"))
                }
                _ => self.keyword(key, &at, value, new, &base, resource, depth, &mut out),
            }
        }
        if old.is_empty() && !object.contains_key("$schema") && dialect != TARGET {
            let mut first = Map::new();
            first.insert("$schema".to_owned(), Value::String(TARGET.uri().to_owned()));
            first.extend(out);
            out = first;
            self.rewrite(
                "",
                format!("added `$schema` 2020-12 (the document was read as {dialect}; a registry entry declaring its dialect no longer needs to)"),
            );
        }
        Value::Object(out)
    }

    /// Its own URI and names, as 2020-12 will read them once upgraded: the
    /// base URI its keywords resolve against and the resource it is in.
    fn identify(&mut self, object: &Map<String, Value>, old: &str, base: &str, resource: usize, ignores_siblings: bool) -> (String, usize) {
        let (mut base, mut resource) = (base.to_owned(), resource);
        for key in ["id", "$id"] {
            let Some(Value::String(id)) = object.get(key) else { continue };
            if !self.is_id_keyword(object, key) {
                continue;
            }
            let at_uri = self.resources[resource].uri.clone();
            match id.split_once('#') {
                // Ignored beside `$ref` before 2019-09 (and dropped): no URI, no name.
                _ if ignores_siblings => {
                    if let Some(name) = id.strip_prefix('#') {
                        self.dropped_anchors.insert((at_uri, name.to_owned()), old.to_owned());
                    }
                }
                Some(("", name)) => {
                    if plain_name(name) {
                        self.anchors.entry((at_uri, name.to_owned())).or_insert_with(|| old.to_owned());
                    }
                }
                // A URI with a fragment is refused where the keyword is met.
                Some((_, fragment)) if !fragment.is_empty() => {}
                _ if id.is_empty() => {}
                _ => {
                    base = resolve_uri(&base, id);
                    if old.is_empty() {
                        self.resources[0].uri = base.clone();
                    } else {
                        self.resources.push(Resource { old: old.to_owned(), uri: base.clone(), recursive: false });
                        resource = self.resources.len() - 1;
                    }
                }
            }
        }
        let uri = self.resources[resource].uri.clone();
        if self.dialect >= Dialect::Draft201909 {
            if let Some(Value::String(name)) = object.get("$anchor") {
                self.anchors.entry((uri.clone(), name.clone())).or_insert_with(|| old.to_owned());
            }
        }
        if self.dialect == TARGET {
            if let Some(Value::String(name)) = object.get("$dynamicAnchor") {
                self.anchors.entry((uri, name.clone())).or_insert_with(|| old.to_owned());
            }
        }
        if self.read_as_keyword("$recursiveAnchor") && self.resources[resource].old == old && object.get("$recursiveAnchor") == Some(&Value::Bool(true)) {
            self.resources[resource].recursive = true;
        }
        (base, resource)
    }

    /// Whether `key` (`id` or `$id`) holds the object's URI here: `id` in
    /// draft-04, or a string `id` kept from draft-04 in a later document
    /// (refused beside a `$id`); `$id` from draft-06 on.
    fn is_id_keyword(&self, object: &Map<String, Value>, key: &str) -> bool {
        match key {
            "id" if self.dialect == Dialect::Draft4 => true,
            "id" => object.get("id").is_some_and(Value::is_string),
            _ => self.dialect >= Dialect::Draft6,
        }
    }

    /// The root's `$schema` (or an embedded resource's).
    fn dialect_uri(&mut self, old: &str, at: &str, value: &Value, out: &mut Map<String, Value>) {
        let dialect = self.dialect;
        let of = value.as_str().and_then(Dialect::of);
        match of {
            Some(of) if of == dialect || old.is_empty() => {
                if dialect == TARGET {
                    out.insert("$schema".to_owned(), value.clone());
                } else {
                    out.insert("$schema".to_owned(), Value::String(TARGET.uri().to_owned()));
                    let whose = if old.is_empty() { "" } else { " (an embedded resource's)" };
                    let named = match value.as_str().and_then(Dialect::of) {
                        Some(read) if read != dialect => format!("{read}, read as {dialect},"),
                        _ => dialect.to_string(),
                    };
                    self.rewrite(at, format!("`$schema` {named} → 2020-12{whose}"));
                }
            }
            Some(of) => self.refuse(at, format!("a subschema in {of} in a {dialect} document: upgrade it as a document of its own")),
            None => self.refuse(at, format!("unsupported dialect {}: concord reads {}", quoted(value), dialect::READ)),
        }
    }

    /// `id` (draft-04's) or `$id`: a URI stays one (`$id`), a `"#name"` is
    /// a named place (`$anchor`).
    fn id(&mut self, object: &Map<String, Value>, key: &str, at: &str, value: &Value, out: &mut Map<String, Value>) {
        let dialect = self.dialect;
        let note = if key == "id" && dialect != Dialect::Draft4 { self.as_meant("id", Dialect::Draft4) } else { String::new() };
        let Value::String(id) = value else {
            if key == "id" {
                return self.refuse(at, "a draft-04 `id` must be a string (a URI)");
            }
            out.insert(key.to_owned(), value.clone());
            return;
        };
        if key == "id" && object.contains_key("$id") {
            return self.refuse(at, "both `id` (draft-04's) and `$id`: keep one of them");
        }
        match id.split_once('#') {
            Some(("", name)) if key == "$id" && dialect >= Dialect::Draft201909 && !plain_name(name) => {
                out.insert(key.to_owned(), value.clone());
            }
            Some(("", name)) => {
                if !plain_name(name) {
                    return self.refuse(
                        at,
                        format!("`{key}` {} is not a plain name: a 2020-12 `$anchor` is a letter or `_`, then letters, digits, `-`, `.` or `_`", quoted(value)),
                    );
                }
                if object.contains_key("$anchor") {
                    return self.refuse(at, format!("both `{key}` {} and `$anchor`: keep one of them", quoted(value)));
                }
                let note = if key == "$id" && dialect >= Dialect::Draft201909 { self.as_meant("$id", Dialect::Draft7) } else { note };
                out.insert("$anchor".to_owned(), Value::String(name.to_owned()));
                self.rewrite(at, format!("`{key}` {} → `$anchor` \"{name}\"{note}", quoted(value)));
            }
            Some((_, fragment)) if !fragment.is_empty() => {
                self.refuse(at, format!("`{key}` {} has both a URI and a fragment: write the URI as `$id` and the name as `$anchor`", quoted(value)))
            }
            _ if key == "id" => {
                out.insert("$id".to_owned(), value.clone());
                self.rewrite(at, format!("`id` → `$id`{note}"));
            }
            _ => {
                out.insert(key.to_owned(), value.clone());
            }
        }
    }

    /// Draft-04's boolean `exclusiveMaximum`/`exclusiveMinimum` (the only
    /// meaning a boolean one has, in any dialect): the bound itself.
    fn exclusive(&mut self, object: &Map<String, Value>, key: &str, at: &str, value: &Value, out: &mut Map<String, Value>) {
        let bound = if key == "exclusiveMaximum" { "maximum" } else { "minimum" };
        let note = if self.dialect == Dialect::Draft4 { String::new() } else { self.as_meant(key, Dialect::Draft4) };
        match (value, object.get(bound)) {
            (Value::Bool(true), Some(limit)) if limit.is_number() => {
                out.insert(key.to_owned(), limit.clone());
                self.rewrite(at, format!("`{key}: true` and `{bound}: {limit}` → `{key}: {limit}`{note}"));
            }
            (Value::Bool(true), Some(_)) => self.refuse(at, format!("`{bound}` beside `{key}: true` is not a number")),
            (Value::Bool(true), None) => self.rewrite(at, format!("`{key}: true` dropped: without `{bound}` it bounds nothing{note}")),
            (Value::Bool(false), _) => self.rewrite(at, format!("`{key}: false` dropped: it says nothing{note}")),
            _ => self.refuse(at, format!("a draft-04 `{key}` is a boolean (`true` makes `{bound}` exclusive)")),
        }
    }

    /// `dependencies` (draft-04 to draft-07) split as 2019-09 did: lists of
    /// names into `dependentRequired`, schemas into `dependentSchemas`,
    /// merged with those the object has. `None` when there is none to split.
    fn dependencies(
        &mut self,
        object: &Map<String, Value>,
        old: &str,
        new: &str,
        base: &str,
        resource: usize,
        depth: usize,
    ) -> Option<(Map<String, Value>, Map<String, Value>)> {
        let value = object.get("dependencies")?;
        if !self.read_as_keyword("dependencies") {
            return None;
        }
        let at = pointer_push(old, "dependencies");
        let Value::Object(members) = value else {
            self.refuse(&at, "`dependencies` must be an object");
            return None;
        };
        let (mut required, mut schemas) = (Map::new(), Map::new());
        for (name, member) in members {
            let (into, keyword) = match member {
                Value::Array(names) if names.iter().all(Value::is_string) => (&mut required, "dependentRequired"),
                Value::Object(_) | Value::Bool(_) => (&mut schemas, "dependentSchemas"),
                _ => {
                    self.refuse(
                        &pointer_push(&at, name),
                        format!("`dependencies` of \"{}\" is neither a list of names nor a schema (draft-03's string form?)", shown(name)),
                    );
                    continue;
                }
            };
            if object.get(keyword).and_then(Value::as_object).is_some_and(|existing| existing.contains_key(name)) {
                self.refuse(&pointer_push(&at, name), format!("\"{}\" is in both `dependencies` and `{keyword}`: merge them by hand", shown(name)));
                continue;
            }
            let member = if keyword == "dependentSchemas" {
                self.schema(member, &pointer_push(&at, name), &pointer_push(&pointer_push(new, keyword), name), base, resource, depth + 1)
            } else {
                member.clone()
            };
            into.insert(name.clone(), member);
        }
        let names = |members: &Map<String, Value>| members.keys().map(|name| format!("\"{}\"", shown(name))).collect::<Vec<_>>().join(", ");
        let parts: Vec<String> = [("dependentRequired", &required), ("dependentSchemas", &schemas)]
            .into_iter()
            .filter(|(_, members)| !members.is_empty())
            .map(|(keyword, members)| format!("`{keyword}` ({})", names(members)))
            .collect();
        let note = self.older_meaning("dependencies").map(|older| self.as_meant("dependencies", older)).unwrap_or_default();
        if parts.is_empty() {
            self.rewrite(&at, format!("`dependencies` {{}} dropped: it names nothing{note}"));
        } else {
            self.rewrite(&at, format!("`dependencies` → {}{note}", parts.join(" and ")));
        }
        Some((required, schemas))
    }

    /// 2019-09's `$recursiveAnchor`: `true` at a resource's root is the one
    /// `$dynamicAnchor` name; `false` is its default.
    fn recursive_anchor(&mut self, object: &Map<String, Value>, old: &str, at: &str, value: &Value, resource: usize, out: &mut Map<String, Value>) {
        let note = self.older_meaning("$recursiveAnchor").map(|older| self.as_meant("$recursiveAnchor", older)).unwrap_or_default();
        match value {
            Value::Bool(true) if self.resources[resource].old != old => self.refuse(
                at,
                "`$recursiveAnchor` away from a resource's root (no `$id` here): 2020-12's `$dynamicAnchor` would name this place, not its resource, so the rewrite is not provably the same",
            ),
            Value::Bool(true) if object.contains_key("$dynamicAnchor") => self.refuse(at, "both `$recursiveAnchor` and `$dynamicAnchor`: keep one of them"),
            Value::Bool(true) => {
                out.insert("$dynamicAnchor".to_owned(), Value::String(DYNAMIC_ANCHOR.to_owned()));
                self.dynamic_anchors.push(at.to_owned());
                self.rewrite(at, format!("`$recursiveAnchor: true` → `$dynamicAnchor` \"{DYNAMIC_ANCHOR}\"{note}"));
            }
            Value::Bool(false) => self.rewrite(at, format!("`$recursiveAnchor: false` dropped: it is the default{note}")),
            _ => self.refuse(at, "`$recursiveAnchor` must be a boolean"),
        }
    }

    /// 2019-09's `$recursiveRef: "#"`: dynamic (`$dynamicRef`) where its
    /// resource has `"$recursiveAnchor": true`, else its resource's root
    /// (`$ref`), as 2019-09 resolves it.
    #[allow(clippy::too_many_arguments)]
    fn recursive_ref(
        &mut self,
        object: &Map<String, Value>,
        old: &str,
        new: &str,
        at: &str,
        value: &Value,
        base: &str,
        resource: usize,
        out: &mut Map<String, Value>,
    ) {
        let note = self.older_meaning("$recursiveRef").map(|older| self.as_meant("$recursiveRef", older)).unwrap_or_default();
        if value.as_str() != Some("#") {
            return self.refuse(at, format!("`$recursiveRef` {} : 2019-09 defines it only for \"#\"", quoted(value)));
        }
        if self.resources[resource].recursive {
            if object.contains_key("$dynamicRef") {
                return self.refuse(at, "both `$recursiveRef` and `$dynamicRef`: keep one of them");
            }
            out.insert("$dynamicRef".to_owned(), Value::String(format!("#{DYNAMIC_ANCHOR}")));
            self.dynamic_references.push(at.to_owned());
            self.rewrite(at, format!("`$recursiveRef` \"#\" → `$dynamicRef` \"#{DYNAMIC_ANCHOR}\"{note}"));
        } else {
            if object.contains_key("$ref") {
                return self.refuse(
                    at,
                    "`$recursiveRef` beside `$ref`: its resource has no `$recursiveAnchor: true`, so it is a `$ref` \"#\", and one object holds one `$ref`",
                );
            }
            out.insert("$ref".to_owned(), Value::String("#".to_owned()));
            self.references.push(Reference { keyword: "$ref", old: old.to_owned(), new: new.to_owned(), base: base.to_owned(), value: "#".to_owned() });
            self.rewrite(
                at,
                format!("`$recursiveRef` \"#\" → `$ref` \"#\": its resource has no `$recursiveAnchor: true`, so it always meant the resource's root{note}"),
            );
        }
    }

    /// Any other keyword: kept where both dialects read it alike (its
    /// subschemas upgraded), refused where only one of them reads it.
    #[allow(clippy::too_many_arguments)]
    fn keyword(&mut self, key: &str, at: &str, value: &Value, new: &str, base: &str, resource: usize, depth: usize, out: &mut Map<String, Value>) {
        let dialect = self.dialect;
        let (here, there) = (keywords::role(key, dialect), keywords::role(key, TARGET));
        match (asserts(here), asserts(there)) {
            (false, true) => {
                let later = keywords::asserting_after(key, dialect).unwrap_or(TARGET);
                return self.refuse(
                    at,
                    format!(
                        "`{key}` is no {dialect} keyword, so {dialect} validators ignore it, but 2020-12 would apply it: remove it, or, where its author \
                         meant it (their validator applied it), read the document as {later} (`--read-as {later}`, as a registry entry's `read_as`)"
                    ),
                );
            }
            (true, false) => {
                return self.refuse(at, format!("{dialect} asserts `{key}`, and 2020-12 only annotates it: no 2020-12 keyword checks what it checks"))
            }
            _ => {}
        }
        match key {
            "$ref" | "$dynamicRef" => {
                if let Value::String(target) = value {
                    let keyword = if key == "$ref" { "$ref" } else { "$dynamicRef" };
                    let old = at.rsplit_once('/').map(|(object, _)| object).unwrap_or_default().to_owned();
                    self.references.push(Reference { keyword, old, new: new.to_owned(), base: base.to_owned(), value: target.clone() });
                }
            }
            "$anchor" if dialect == Dialect::Draft201909 => {
                if let Some(name) = value.as_str().filter(|name| !plain_name(name)) {
                    return self.refuse(
                        at,
                        format!(
                            "`$anchor` \"{}\" is a 2019-09 name 2020-12 does not allow (a letter or `_`, then letters, digits, `-`, `.` or `_`)",
                            shown(name)
                        ),
                    );
                }
            }
            "contains" if dialect == Dialect::Draft201909 => {
                self.contains.get_or_insert_with(|| at.to_owned());
            }
            "unevaluatedItems" if dialect == Dialect::Draft201909 && value != &Value::Bool(true) => self.unevaluated_items.push(at.to_owned()),
            _ => {}
        }
        let walked = self.children(key, value, at, &pointer_push(new, key), base, resource, depth);
        out.insert(key.to_owned(), walked);
    }

    /// A keyword's value with its subschemas upgraded.
    #[allow(clippy::too_many_arguments)]
    fn children(&mut self, key: &str, value: &Value, old: &str, new: &str, base: &str, resource: usize, depth: usize) -> Value {
        let arity = keywords::arity(key);
        if arity == Arity::One {
            return self.schema(value, old, new, base, resource, depth + 1);
        }
        match value {
            Value::Array(items) if arity == Arity::Many => Value::Array(
                items
                    .iter()
                    .enumerate()
                    .map(|(index, item)| self.schema(item, &format!("{old}/{index}"), &format!("{new}/{index}"), base, resource, depth + 1))
                    .collect(),
            ),
            Value::Object(members) if arity == Arity::Named => Value::Object(
                members
                    .iter()
                    .map(|(name, item)| (name.clone(), self.schema(item, &pointer_push(old, name), &pointer_push(new, name), base, resource, depth + 1)))
                    .collect(),
            ),
            _ => value.clone(),
        }
    }

    /// Each `$ref` of the document to a place in it by JSON pointer follows
    /// the place where the upgrade moved it (`#/items/0` → `#/prefixItems/0`);
    /// one to a place the upgrade drops, or to no schema, is refused.
    fn references(&mut self, original: &Value, upgraded: &mut Value) {
        let references = std::mem::take(&mut self.references);
        for reference in &references {
            let (uri, fragment) = reference.value.split_once('#').unwrap_or((&reference.value, ""));
            let target = resolve_uri(&reference.base, uri);
            match self.resources.iter().position(|resource| resource.uri == target) {
                Some(resource) => {
                    let followed = self.follow(resource, fragment, original, None);
                    self.followed(reference, followed, upgraded);
                }
                None => self.leaving.push(reference.clone()),
            }
        }
        self.references = references;
    }

    /// Where a reference into resource `resource` of this (upgraded)
    /// document by `fragment` leads now; `whose` names the document in a
    /// message when the reference stands in another.
    fn follow(&self, resource: usize, fragment: &str, original: &Value, whose: Option<&Path>) -> Follow {
        let place = |pointer: &str| match whose {
            Some(file) => format!("{} at {}", shown(&file.display().to_string()), shown(pointer)),
            None => shown(pointer),
        };
        let Some(path) = fragment.strip_prefix('/') else {
            let name = percent_decode(fragment).unwrap_or_else(|| fragment.to_owned());
            let key = (self.resources[resource].uri.clone(), name);
            return match (fragment.is_empty(), self.anchors.get(&key), self.dropped_anchors.get(&key)) {
                (false, None, Some(at)) => Follow::Refused(format!(
                    "names the place `$id` \"#{}\" beside a `$ref` at {}, which {} ignores (so the upgrade drops it)",
                    shown(&key.1),
                    place(at),
                    self.dialect
                )),
                _ => Follow::Same,
            };
        };
        let raw: Vec<&str> = path.split('/').collect();
        let Some(tokens) =
            raw.iter().map(|segment| percent_decode(segment).map(|token| token.replace("~1", "/").replace("~0", "~"))).collect::<Option<Vec<String>>>()
        else {
            return Follow::Same;
        };
        let root_old = &self.resources[resource].old;
        let target_old = tokens.iter().fold(root_old.clone(), |pointer, token| pointer_push(&pointer, token));
        if let Some((at, why)) = self.dropped.iter().find(|(at, _)| target_old == *at || target_old.starts_with(&format!("{at}/"))) {
            return Follow::Refused(format!("names a place the upgrade drops: {} is {why}", place(at)));
        }
        let (Some(target_new), Some(root_new)) = (self.moved.get(&target_old), self.moved.get(root_old)) else {
            if original.pointer(&target_old).is_none() {
                // It names nothing, before as after: not the upgrade's to judge.
                return Follow::Same;
            }
            return Follow::Refused("names a place that is no schema by its position: move it under `$defs` (or `definitions`)".to_owned());
        };
        let moved: Option<Vec<String>> =
            target_new.strip_prefix(root_new.as_str()).map(|rest| rest.split('/').skip(1).map(|token| token.replace("~1", "/").replace("~0", "~")).collect());
        match moved {
            Some(moved) if moved == tokens => Follow::Same,
            Some(moved) if moved.len() == tokens.len() => {
                let segments: Vec<String> = moved
                    .iter()
                    .zip(raw.iter().zip(&tokens))
                    .map(|(new, (raw, old))| if new == old { (*raw).to_owned() } else { concord_runtime::pointer::escape_token(new) })
                    .collect();
                Follow::Moved(format!("/{}", segments.join("/")))
            }
            _ => Follow::Refused("names a place that moved out of its resource".to_owned()),
        }
    }

    /// A reference of this document rewritten, or refused, as `follow` found.
    fn followed(&mut self, reference: &Reference, followed: Follow, upgraded: &mut Value) {
        let at = pointer_push(&reference.old, reference.keyword);
        let shown_ref = quoted(&Value::String(reference.value.clone()));
        match followed {
            Follow::Same => {}
            Follow::Refused(why) => self.refuse(&at, format!("`{}` {shown_ref} {why}", reference.keyword)),
            Follow::Moved(fragment) => {
                let uri = reference.value.split('#').next().unwrap_or_default();
                let rewritten = format!("{uri}#{fragment}");
                if let Some(slot) = upgraded.pointer_mut(&pointer_push(&reference.new, reference.keyword)) {
                    *slot = Value::String(rewritten.clone());
                }
                self.rewrite(&at, format!("`{}` {shown_ref} → {} (the place it names moved)", reference.keyword, quoted(&Value::String(rewritten))));
            }
        }
    }

    /// `$recursiveRef` as `$dynamicRef` is the same only where the dynamic
    /// scope is this document's: its root has the anchor (so the outermost
    /// anchored resource is always found here), or no `$ref` leaves it
    /// (another document's `$recursiveAnchor` would count in 2019-09, and
    /// not as a `$dynamicAnchor`). And the name must be free.
    fn dynamic_scope(&mut self) {
        if self.dynamic_anchors.is_empty() {
            return;
        }
        let taken: Vec<String> = self.anchors.iter().filter(|((_, name), _)| name == DYNAMIC_ANCHOR).map(|(_, place)| place.clone()).collect();
        for place in taken {
            let why = format!("the anchor name \"{DYNAMIC_ANCHOR}\" is taken here, and `$recursiveAnchor: true` becomes `$dynamicAnchor` \"{DYNAMIC_ANCHOR}\": rename this one");
            self.refuse(&place, why);
        }
        if self.resources[0].recursive {
            return;
        }
        let leaving = self.leaving.first();
        if let Some(leaving) = leaving.map(|reference| pointer_push(&reference.old, reference.keyword)) {
            for place in self.dynamic_references.clone() {
                let why = format!(
                    "`$recursiveRef` as `$dynamicRef` is not provably the same: the root has no `$recursiveAnchor: true`, and the `$ref` at {} leaves the document, whose dynamic scope this upgrade cannot see",
                    shown(&leaving)
                );
                self.refuse(&place, why);
            }
        }
    }

    /// 2020-12's `unevaluatedItems` also skips the items a `contains` matched; 2019-09's does not.
    fn unevaluated_items(&mut self) {
        let Some(contains) = self.contains.clone() else { return };
        for place in std::mem::take(&mut self.unevaluated_items) {
            let why = format!(
                "2020-12's `unevaluatedItems` also passes the items a `contains` matched, and 2019-09's does not; this document has `contains` (at {}): not provably the same",
                shown(&contains)
            );
            self.refuse(&place, why);
        }
    }
}

/// A schema file read as concord reads schemas: at most
/// [`concord_codegen::registry::MAX_FILE_BYTES`], under the strict profile
/// (integers beyond ±(2^53-1) kept). `-` is standard input.
pub fn read(file: &Path) -> Result<(Vec<u8>, Value), Errors> {
    use std::io::Read as _;
    let limit = concord_codegen::registry::MAX_FILE_BYTES;
    let mut bytes = Vec::new();
    let read = if file.as_os_str() == "-" {
        std::io::stdin().take(limit + 1).read_to_end(&mut bytes)
    } else {
        std::fs::File::open(file).and_then(|opened| opened.take(limit + 1).read_to_end(&mut bytes))
    };
    read.map_err(|error| Errors::one(file, "", format!("cannot read: {error}")))?;
    if bytes.len() as u64 > limit {
        // The size the file says it has; standard input's is only known to be more.
        let size = match std::fs::metadata(file) {
            Ok(metadata) if file.as_os_str() != "-" => metadata.len().max(bytes.len() as u64).to_string(),
            _ => format!("more than {limit}"),
        };
        return Err(Errors::one(file, "", format!("too large: {size} bytes, and concord reads files of at most {limit} bytes (16 MiB; docs/limits.md)")));
    }
    let value = concord_runtime::strict::read_schema(&bytes)
        .map_err(|error| Errors::one(file, "", format!("refused by the strict JSON profile (docs/strict-json.md): {error}")))?;
    Ok((bytes, value))
}

/// The text of an upgraded document, laid out as its original was as far
/// as serde_json can: the same indentation unit (2 spaces when the original
/// shows none), one line when it was one line, a final line break.
pub fn render(document: &Value, original: &[u8]) -> String {
    let text = String::from_utf8_lossy(original);
    let body = text.trim_end();
    let mut out = String::new();
    if !body.contains('\n') && !body.is_empty() {
        out.push_str(&document.to_string());
    } else {
        let unit: String = text
            .lines()
            .skip(1)
            .map(|line| line.chars().take_while(|c| *c == ' ' || *c == '\t').collect::<String>())
            .find(|indent| !indent.is_empty())
            .filter(|indent| indent.chars().all(|c| c == ' ') || indent.chars().all(|c| c == '\t'))
            .unwrap_or_else(|| "  ".to_owned());
        pretty(&mut out, document, &unit, 0);
    }
    out.push('\n');
    out
}

/// serde_json's pretty layout with another indentation unit (the nesting
/// is bounded: a schema file nests at most 64 levels).
fn pretty(out: &mut String, value: &Value, unit: &str, level: usize) {
    let (open, close, members): (char, char, Vec<(Option<&String>, &Value)>) = match value {
        Value::Array(items) if !items.is_empty() => ('[', ']', items.iter().map(|item| (None, item)).collect()),
        Value::Object(members) if !members.is_empty() => ('{', '}', members.iter().map(|(key, item)| (Some(key), item)).collect()),
        scalar => return out.push_str(&scalar.to_string()),
    };
    out.push(open);
    for (index, (key, item)) in members.into_iter().enumerate() {
        out.push_str(if index == 0 { "\n" } else { ",\n" });
        out.push_str(&unit.repeat(level + 1));
        if let Some(key) = key {
            out.push_str(&Value::String(key.clone()).to_string());
            out.push_str(": ");
        }
        pretty(out, item, unit, level + 1);
    }
    out.push('\n');
    out.push_str(&unit.repeat(level));
    out.push(close);
}

/// One file upgraded: its path, its bytes, and what the upgrade made of it.
pub struct File {
    pub path: PathBuf,
    pub original: Vec<u8>,
    pub upgraded: Upgraded,
}

impl File {
    /// Whether the upgrade rewrote anything.
    pub fn changed(&self) -> bool {
        !self.upgraded.rewrites.is_empty()
    }

    /// The bytes to write: the original's when nothing was rewritten.
    pub fn bytes(&self) -> Vec<u8> {
        if self.changed() {
            render(&self.upgraded.document, &self.original).into_bytes()
        } else {
            self.original.clone()
        }
    }
}

/// Reads and upgrades every file; the refusals of all of them together. A
/// `$ref` from one of them into another follows the place it names there
/// too (`other.json#/items/0` → `other.json#/prefixItems/0`).
pub fn upgrade_files(files: &[PathBuf], declared: Option<Dialect>, read_as: Option<Dialect>) -> Result<Vec<File>, Errors> {
    // Each file's refusals, reported in the order the files were given.
    let mut refused: Vec<Errors> = vec![Errors::default(); files.len()];
    let mut started: Vec<(usize, PathBuf, Vec<u8>, Value, Walk, Value)> = Vec::new();
    for (index, path) in files.iter().enumerate() {
        match read(path).and_then(|(bytes, original)| start(path, &original, declared, read_as).map(|(walk, upgraded)| (bytes, original, walk, upgraded))) {
            Ok((bytes, original, walk, upgraded)) => started.push((index, path.clone(), bytes, original, walk, upgraded)),
            Err(errors) => refused[index] = errors,
        }
    }
    for from in 0..started.len() {
        for reference in started[from].4.leaving.clone() {
            let (uri, fragment) = reference.value.split_once('#').unwrap_or((&reference.value, ""));
            let target = resolve_uri(&reference.base, uri);
            let followed = started.iter().enumerate().filter(|(to, _)| *to != from).find_map(|(_, (_, path, _, original, walk, _))| {
                let resource = walk.resources.iter().position(|resource| resource.uri == target)?;
                Some(walk.follow(resource, fragment, original, Some(path)))
            });
            if let Some(followed) = followed {
                let (_, _, _, _, walk, upgraded) = &mut started[from];
                walk.followed(&reference, followed, upgraded);
            }
        }
    }
    let mut upgraded = Vec::new();
    for (index, path, original, value, walk, document) in started {
        match walk.finish(&value, document) {
            Ok(done) => upgraded.push(File { path, original, upgraded: done }),
            Err(errors) => refused[index] = errors,
        }
    }
    let mut errors = Errors::default();
    refused.into_iter().for_each(|more| errors.extend(more));
    errors.finish(upgraded)
}

/// Writes every changed file through a temporary file beside it, then
/// renames them all: a file that cannot be written leaves every file as it
/// was (short of a rename failing after another succeeded).
pub fn write_in_place(files: &[File]) -> Result<Vec<PathBuf>, Errors> {
    let mut staged: Vec<(PathBuf, PathBuf)> = Vec::new();
    let mut errors = Errors::default();
    for file in files.iter().filter(|file| file.changed()) {
        let name = file.path.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default();
        let temporary = file.path.with_file_name(format!(".{name}.concord-upgrade-tmp"));
        match std::fs::write(&temporary, file.bytes()) {
            Ok(()) => staged.push((temporary, file.path.clone())),
            Err(error) => {
                let _ = std::fs::remove_file(&temporary);
                errors.push(&file.path, "", format!("cannot write: {error}"));
            }
        }
    }
    if !errors.is_empty() {
        for (temporary, _) in &staged {
            let _ = std::fs::remove_file(temporary);
        }
        return Err(errors);
    }
    let mut written = Vec::new();
    for (temporary, path) in staged {
        match std::fs::rename(&temporary, &path) {
            Ok(()) => written.push(path),
            Err(error) => {
                let _ = std::fs::remove_file(&temporary);
                errors.push(&path, "", format!("cannot write: {error}"));
            }
        }
    }
    errors.finish(written)
}
