//! Reads each pinned schema file into the shared [`Model`]. Every keyword is
//! looked up in [`keywords::KEYWORDS`] and is bound, enforced, an annotation
//! or refused with its location: a keyword that is skipped would let the
//! bindings accept records the schema refuses.
//!
//! The reader is split by family: `reference` resolves `$ref`, `object`,
//! `array` and `scalar` read what their types' keywords say, `enums` reads
//! `enum` and `const`. Each family takes the keywords it reads from a
//! [`Keywords`] view, and whatever bound or enforced keyword is left untaken
//! at the end is refused, so a keyword cannot be dropped by omission.

mod array;
mod compose;
mod engine_only;
mod enums;
pub mod lower;
mod object;
mod reference;
mod scalar;
mod scan;

use crate::error::{pointer_push, Errors};
use crate::model::{EnumValue, Model, Module, Origin, Pinning, Shape, Struct, TypeDef, TypeId, TypeKind};
use crate::naming::words;
use crate::registry::{Registry, SchemaFile};
use concord_runtime::strict::JsonError;
use keywords::{Arity, Role, JSON_TYPES};
use serde_json::{Map, Value};
use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::Path;

pub const DRAFT_2020_12: &str = "https://json-schema.org/draft/2020-12/schema";
use crate::uri::{id_of, id_problem, resolve_uri};
use crate::vocabulary::keywords;
pub use crate::vocabulary::Dialect;
pub use keywords::{GROWTH_POINT, OPEN_ENUM, TYPED_ID};
pub use reference::percent_decode;
use scan::Scan;

/// A document's base URI: the `uri` the index gives it, else its `$id`
/// (resolved against its path in the registry, without a fragment), else
/// its path in the registry below [`concord_runtime::pinned::BASE`].
/// (The engine knows it by its `$id` too.)
fn base_uri(schema: &SchemaFile, document: Option<&Value>) -> String {
    let dialect = document.and_then(|document| Dialect::of_entry(document, schema.dialect, schema.read_as).ok());
    crate::uri::base_in(&schema.path, schema.uri.as_deref(), document, dialect.unwrap_or(Dialect::Draft202012))
}

/// Reads every schema of a verified registry; reports every problem found.
pub fn read(registry: &Registry) -> Result<Model, Errors> {
    let reading = read_all(registry);
    reading.errors.finish(reading.model)
}

/// A registry read as far as it could be: for a caller with checks of its
/// own, whose problems are then reported with the reader's, all together
/// (the `concord` command builds the assertion engine).
pub struct Reading {
    pub model: Model,
    pub errors: Errors,
    /// Whether the reader stopped early (past [`MAX_TYPES`]): the model is
    /// then too partial to check further.
    pub stopped: bool,
}

/// [`read`], keeping the model whatever was found.
pub fn read_all(registry: &Registry) -> Reading {
    // Each document read once, and walked once for its anchors, `$id`s and `$ref`s.
    let documents: Vec<Result<Value, JsonError>> = registry.schemas.iter().map(|schema| concord_runtime::strict::read_schema(&schema.bytes)).collect();
    // The dialect each is read in (one without any is refused when read).
    let dialects: Vec<Option<Dialect>> = registry
        .schemas
        .iter()
        .zip(&documents)
        .map(|(schema, document)| Dialect::of_entry(document.as_ref().ok()?, schema.dialect, schema.read_as).ok())
        .collect();
    let scans: Vec<Scan> = documents
        .iter()
        .zip(&dialects)
        .map(|(document, dialect)| match (document, dialect) {
            (Ok(document), Some(dialect)) => Scan::of(document, *dialect),
            _ => Scan::default(),
        })
        .collect();
    // Every document's URI first, by which a `$ref` may name another entry:
    // the index's `uri`, else its `$id`, else its path in the registry.
    let names: Vec<String> = registry.schemas.iter().zip(&documents).map(|(schema, document)| base_uri(schema, document.as_ref().ok())).collect();
    // And the base its own relative `$ref`s resolve against: its `$id`, where
    // it has one, resolved against that URI (a retrieval `uri` does not
    // change what the document's own `$id` says).
    let bases: Vec<String> = names
        .iter()
        .zip(&documents)
        .zip(&dialects)
        .map(|((name, document), dialect)| {
            let id = document.as_ref().ok().and_then(Value::as_object).zip(*dialect).and_then(|(root, dialect)| id_of(root, dialect));
            id.map_or_else(|| name.clone(), |id| resolve_uri(name, id))
        })
        .collect();
    // And every embedded resource's `$id`: a `$ref` may name one of those.
    let resources = scans
        .iter()
        .enumerate()
        .flat_map(|(module, scan)| scan.ids.iter().map(move |id| (id, module)))
        .map(|(id, module)| (resolve_uri(&bases[module], id), module))
        .collect();
    let entries = bases
        .into_iter()
        .zip(names)
        .zip(&documents)
        .zip(&dialects)
        .map(|(((base, uri), document), dialect)| Entry {
            base,
            uri,
            document: document.as_ref().ok().cloned(),
            dialect: *dialect,
            names: words::Numbering::default(),
            targets: HashMap::new(),
            needs_engine: None,
        })
        .collect();
    let mut reader = Reader {
        model: Model::default(),
        errors: Errors::default(),
        entries,
        resources,
        depth: 0,
        too_many_types: false,
        merging: Vec::new(),
        unions: Vec::new(),
        exact: HashSet::new(),
    };
    // A module per entry, even one refused below: modules and registry
    // entries share their indexes (`$ref`s between entries use them).
    for (module, schema) in registry.schemas.iter().enumerate() {
        // The other entries any `$ref` names, wherever it stands: the engine
        // needs their documents at hand, and they are read first.
        let mut refers_to = Vec::new();
        for target in &scans[module].refs {
            let resolved = resolve_uri(&reader.entries[module].base, target.split('#').next().unwrap_or_default());
            // Copies of one document (a bundle's shared file listed by each schema that bundles it) are one document.
            let claiming = reader.entries_named(module, &resolved);
            let differ = claiming.iter().find(|&&other| registry.schemas[other].digest != registry.schemas[claiming[0]].digest);
            if let (Some(&first), Some(&second)) = (claiming.first(), differ) {
                if !reader.errors.diagnostics.iter().any(|d| d.file == schema.file && d.message.contains(&resolved)) {
                    let (a, b) = (&registry.schemas[first], &registry.schemas[second]);
                    reader.errors.push(
                        &schema.file,
                        "",
                        format!(
                            "a `$ref` names {resolved}, which two entries claim ({} and {}: two versions of one schema?), so it cannot say which it \
                             means: keep in this registry only the version its referrers mean (each version alone resolves its own `$ref`s)",
                            a.path, b.path
                        ),
                    );
                }
                continue;
            }
            if let Some(other) = reader.entry_of(module, target).filter(|other| *other != module && !refers_to.contains(other)) {
                refers_to.push(other);
            }
        }
        reader.model.modules.push(Module {
            name: schema.name.clone(),
            entry: schema.entry.clone(),
            version: schema.version,
            word: words::snake(&schema.name),
            file: schema.file.clone(),
            root: None,
            text: String::from_utf8_lossy(&schema.bytes).into_owned(),
            digest: schema.digest.clone(),
            base: reader.entries[module].uri.clone(),
            declared_dialect: declared_dialect(schema, documents[module].as_ref().ok()),
            refers_to,
            asserted_by: None,
        });
    }
    // The entries an entry refers to are read before it, where no cycle
    // forbids: then its `$ref`s into them are their types.
    for module in reading_order(&reader.model) {
        reader.file(&registry.schemas[module], module, &documents[module], &scans[module]);
    }
    lower::unions(&mut reader.model, std::mem::take(&mut reader.unions), &mut reader.entries);
    lower::wrappers(&mut reader.model);
    lower::presence(&mut reader.model);
    let needs_engine: Vec<Option<String>> = reader.entries.iter().map(|entry| entry.needs_engine.clone()).collect();
    pin_records(&mut reader.model, &needs_engine, &reader.exact);
    lower::prune(&mut reader.model);
    Reading { model: reader.model, errors: reader.errors, stopped: reader.too_many_types }
}

/// The meta-schema URI of the dialect the registry reads a document in
/// where its `$schema` does not say it (it has none, or the entry reads it
/// as a later dialect): the engine needs it to read the pinned text.
fn declared_dialect(schema: &SchemaFile, document: Option<&Value>) -> Option<String> {
    if let Some(read_as) = schema.read_as {
        return Some(read_as.uri().to_owned());
    }
    let declared = schema.dialect?;
    document.is_some_and(|document| document.get("$schema").is_none()).then(|| declared.uri().to_owned())
}

/// Why the engine is needed: `keyword` at its place.
fn because(keyword: &str, at: &str) -> String {
    format!("`{keyword}` at {}", shown_pointer(at))
}

/// A JSON pointer as a reason shows it: `/` for the document itself.
fn shown_pointer(pointer: &str) -> String {
    let pointer = if pointer.is_empty() { "/" } else { pointer };
    format!("`{}`", crate::error::shown(pointer))
}

/// Every record type read from its document's own subschema at its place
/// is pinned (`validate` exists for it, against that subschema), and runs
/// the engine when read if its module needs it, or any module its `$ref`s
/// reach does (its records' check then covers the types they hold). A type
/// read from a schema the document does not hold at its place has none to
/// agree with, and is not: a union branch with the keywords beside the
/// union merged in, the object half of a nullable object, a branch of a
/// `type` list, a property two `allOf` parts define. The records around
/// it are checked. (So every pinned type's `from_json` and `validate` judge
/// the same schema.)
fn pin_records(model: &mut Model, needs_engine: &[Option<String>], exact: &HashSet<TypeId>) {
    for module in 0..model.modules.len() {
        // Its own reason first, else the first entry's it reaches.
        let why = model.documents(module).into_iter().find_map(|other| {
            let why = needs_engine[other].as_ref()?;
            Some(if other == module { why.clone() } else { format!("{why} in `{}`", model.modules[other].name) })
        });
        model.modules[module].asserted_by = why;
    }
    let asserted: Vec<bool> = model.modules.iter().map(|module| module.asserted_by.is_some()).collect();
    let records: Vec<TypeId> = model.ids().filter(|&id| model.is_record(id) && exact.contains(&id)).collect();
    for id in records {
        let def = &mut model.types[id.0];
        def.pinning = if asserted[def.module] { Pinning::Asserted } else { Pinning::Pinned };
    }
}

struct Reader {
    model: Model,
    errors: Errors,
    /// What the reader keeps of each registry entry, in registry order.
    entries: Vec<Entry>,
    /// Every `$id` of every document (resolved), and the entry it stands in.
    resources: Vec<(String, usize)>,
    /// How many schemas are being read, one inside the other.
    depth: usize,
    /// Whether [`MAX_TYPES`] was passed: then nothing more is read.
    too_many_types: bool,
    /// The merged `allOf` schemas being read, one inside the other (see
    /// `compose::read_merged`).
    merging: Vec<Merging>,
    /// The unions read, each any JSON value in the model until `lower`
    /// decides how its branches are told apart, once every type is read.
    unions: Vec<(TypeId, lower::Pending)>,
    /// The types read from their document's own subschema at their place
    /// (only these are pinned: `pin_records`).
    exact: HashSet<TypeId>,
}

/// What the reader keeps of one registry entry (a module of the model).
struct Entry {
    /// The base URI its document resolves its `$ref`s against (its `$id`,
    /// else its URI).
    base: String,
    /// The URI it is known by (the index's `uri`, else its `$id`, else its
    /// registry path): the engine registers it by it, and a `$ref` may use it.
    uri: String,
    /// Its document, as read, and its dialect: a merge may take a part of it.
    document: Option<Value>,
    dialect: Option<Dialect>,
    /// The type names taken in its module, as both languages spell them.
    names: words::Numbering<String>,
    /// Its named types read so far, by location.
    targets: HashMap<String, TypeId>,
    /// Why its records are also checked by the assertion engine when read
    /// (the first keyword no type expresses, and its place), if they are.
    needs_engine: Option<String>,
}

/// A merged schema being read: its module and text, where and under which
/// name it is read, and its named type once it turned out to contain itself.
struct Merging {
    module: usize,
    text: String,
    pointer: String,
    hint: String,
    named: Option<TypeId>,
}

/// The most entries one keyword of a schema read into types may hold (the
/// table's keywords with bounded members: `properties`, `enum`, `oneOf`,
/// `required`, ...; `$defs` become types of their own, which [`MAX_TYPES`]
/// bounds): 10,000, twelve times the largest of the corpus (811 enum
/// values). One struct or enum of 100,000 members took 4.4 s and 1.2 GB to
/// generate, and would take far more to compile (docs/limits.md).
pub const MAX_MEMBERS: usize = 10_000;
/// The most named types (structs, enums, unions, aliases) one registry may
/// make: 50,000, a hundred times SPDX's 449 definitions. Writing them out
/// takes about 20 s and 400 MB (docs/limits.md).
pub const MAX_TYPES: usize = 50_000;

/// How deep schemas may nest once merged (the strict profile already bounds
/// a document's own nesting at 64).
const MAX_DEPTH: usize = 128;

/// The refusal of keyword `name` in `dialect`; where a later dialect has it,
/// with the choice a user has who cannot change the document.
fn refused(name: &str, dialect: Dialect, why: &str) -> String {
    let shown = crate::error::shown(name);
    let not_yours = |key: &str| {
        format!(
            "; or, for a document that is not yours to change, read it as its validators do, checking nothing: \
             `\"annotations\": [{}]` in its registry.json entry (docs/dialects.md)",
            serde_json::Value::from(key)
        )
    };
    if let Some(meant) = keywords::lookup(name).is_none().then(|| keywords::misspelling_of(name)).flatten() {
        return format!("`{shown}` is refused in {dialect}: {why}: did you mean `{meant}`?{}", not_yours(name));
    }
    if name == "id" {
        return format!("`{shown}` is refused in {dialect}: {why}{}", not_yours(name));
    }
    match keywords::asserting_after(name, dialect) {
        Some(later) => format!(
            "`{shown}` is refused in {dialect}: {why}; or, for a document that is not yours to change and was written for a validator that applies \
             `{shown}` anyway (ajv does), read it as {later}: `\"read_as\": \"{later}\"` in its registry.json entry (docs/dialects.md)"
        ),
        None => format!("`{shown}` is refused in {dialect}: {why}"),
    }
}

/// What is wrong with a `type` that names no JSON type, with the one it
/// looks like a misspelling of.
fn unknown_type(name: &Value) -> String {
    match name.as_str().and_then(|name| keywords::nearest(name, JSON_TYPES)) {
        Some(meant) => format!("unknown type {name}: did you mean \"{meant}\"? (one of {JSON_TYPES:?})"),
        None => format!("unknown type {name}: expected one of {JSON_TYPES:?}"),
    }
}

/// Whether every entry of the definitions container `place` must be a
/// schema in `dialect`: `definitions` always (2019-09's and 2020-12's
/// meta-schemas still hold it to schemas), `$defs` from 2019-09 on. Before,
/// `$defs` is no keyword but a place `$ref`s reach by JSON pointer: its
/// schemas are types, and a value there that is no schema is data
/// (SchemaStore's draft-07 partial-cibuildwheel keeps a string in it).
fn holds_only_schemas(place: &str, dialect: Dialect) -> bool {
    place == "definitions" || dialect >= Dialect::Draft201909
}

/// The document being read: where diagnostics point and where `$ref`s resolve.
struct Document<'a> {
    file: &'a Path,
    /// The dialect the document is read in.
    dialect: Dialect,
    digest: &'a str,
    module: usize,
    root: &'a Value,
    /// The named type of each schema location a `$ref` or `$defs` names.
    targets: HashMap<String, TypeId>,
    /// `$anchor` names and the locations they stand at.
    anchors: HashMap<String, String>,
    /// Every `$id` of the document, the root's and embedded resources'.
    ids: Vec<String>,
    /// Named locations declared but not read yet.
    pending: Vec<(TypeId, String)>,
    /// A draft-04 document read as a later dialect (`read_as`) whose `$ref`s
    /// are all within it: its `id`s, which that dialect ignores, resolve nothing.
    ids_unused: bool,
    /// The JSON pointers this document's own `$ref`s reach (`#/defs/a`):
    /// a key no dialect knows that holds one is a container, not a misspelling.
    reached: Vec<String>,
    /// The first keyword no type expresses in the document, with its place,
    /// if any: then its records are also checked by the assertion engine.
    engine: Option<String>,
    /// The keys registry.json declares annotations (the entry's `annotations`).
    annotations: &'a [String],
}

impl Document<'_> {
    /// Its records are also checked by the assertion engine, for `keyword`
    /// at `at`, which no type expresses (the first such reason is kept).
    fn needs_engine(&mut self, keyword: &str, at: &str) {
        self.needs_engine_for(|| because(keyword, at));
    }

    fn needs_engine_for(&mut self, why: impl FnOnce() -> String) {
        self.engine.get_or_insert_with(why);
    }

    /// What a key of one of its schema objects is: a declared annotation, or
    /// the keyword table's role in the document's dialect.
    fn role(&self, keyword: &str, dialect: Dialect) -> Role {
        if self.annotations.iter().any(|declared| declared == keyword) {
            return Role::Annotation("declared an annotation in registry.json (`annotations`)");
        }
        keywords::role(keyword, dialect)
    }
}

/// What one schema turned out to be, before it is given a name.
enum Read {
    Struct(Struct),
    Enum(Vec<EnumValue>),
    Shape(Shape),
    /// `type: [X, "null"]`.
    Nullable(Box<Read>),
    /// `oneOf`/`anyOf` or a `type` list, its choice decided by `lower`.
    Union(lower::Pending),
    /// Another named type of its own (an open enum, a typed id).
    Kind(TypeKind),
}

/// One schema object, and which of its keywords a family has read.
struct Keywords<'a> {
    object: &'a Map<String, Value>,
    pointer: &'a str,
    /// The dialect its document is read in.
    dialect: Dialect,
    taken: RefCell<BTreeSet<&'a str>>,
}

impl<'a> Keywords<'a> {
    /// The keyword's value, marked as read.
    fn take(&self, keyword: &'static str) -> Option<&'a Value> {
        let (key, value) = self.object.get_key_value(keyword)?;
        self.taken.borrow_mut().insert(key.as_str());
        Some(value)
    }

    fn has(&self, keyword: &str) -> bool {
        self.object.contains_key(keyword)
    }

    fn is_taken(&self, keyword: &str) -> bool {
        self.taken.borrow().contains(keyword)
    }

    /// Where a keyword of this schema stands.
    fn at(&self, keyword: &str) -> String {
        pointer_push(self.pointer, keyword)
    }

    /// Bound or enforced keywords present that no family read.
    fn untaken(&self) -> Vec<&'a str> {
        let taken = self.taken.borrow();
        self.object
            .keys()
            .map(String::as_str)
            .filter(|k| !taken.contains(k) && keywords::lookup(k).is_some_and(|kw| matches!(kw.role(self.dialect), Role::Bound(_) | Role::Enforced(_))))
            .collect()
    }
}

impl Reader {
    fn file(&mut self, schema: &SchemaFile, module: usize, document: &Result<Value, JsonError>, scan: &Scan) {
        let file = schema.file.as_path();
        let document = match document {
            Ok(document) => document,
            Err(error) => return self.errors.push(file, "", format!("refused by the strict JSON profile (docs/strict-json.md): {error}")),
        };
        // A boolean document (draft-06 on): `true` holds any value, `false` none.
        if let Value::Bool(holds) = document {
            match Dialect::of_entry(document, schema.dialect, schema.read_as) {
                Ok(dialect) if dialect >= Dialect::Draft6 => {
                    let doc = self.document(schema, module, document, scan, dialect);
                    let id = self.declare(&schema.name, &doc, "", true);
                    self.exact.insert(id);
                    self.model.modules[module].root = Some(id);
                    if !holds {
                        self.entries[module].needs_engine = Some("the schema `false`, the whole document".to_owned());
                    }
                }
                Ok(dialect) => self.errors.push(file, "", format!("a boolean schema is a draft-06 form: a {dialect} schema file must hold a JSON object")),
                Err((_, why)) => self.errors.push(file, "", format!("a boolean schema file cannot say its dialect: {why}")),
            }
            return;
        }
        let Some(root) = document.as_object() else {
            return self.errors.push(file, "", "a schema file must hold a JSON object or a boolean");
        };
        // Before anything of it is declared.
        if self.too_many_members(file, "", root) {
            return;
        }
        let dialect = match Dialect::of_entry(document, schema.dialect, schema.read_as) {
            Ok(dialect) => dialect,
            Err((pointer, why)) => return self.errors.push(file, pointer, why),
        };
        if let (Some(declared), true, Some(_)) = (schema.dialect, schema.dialect_of_entry, root.get("$schema")) {
            if declared != dialect {
                self.errors.push(
                    file,
                    "/$schema",
                    format!("registry.json declares this entry {declared}, but its `$schema` names {dialect}: a document's own `$schema` says what it is; remove the entry's `dialect`"),
                );
            }
        }
        // 2019-09's `unevaluatedItems` does not see the items `contains`
        // matched (2020-12's does), and the engine reads it the 2020-12 way.
        if dialect == Dialect::Draft201909 {
            if let (Some(unevaluated), Some(_)) = (first_keyword(document, "unevaluatedItems"), first_keyword(document, "contains")) {
                self.errors.push(
                    file,
                    pointer_push(&unevaluated, "unevaluatedItems"),
                    "`unevaluatedItems` beside `contains` in a 2019-09 document: 2019-09 does not count the items `contains` matches as evaluated, \
                     and the assertion engine does (as 2020-12 does), so the records would not be checked as the draft says: declare 2020-12",
                );
            }
        }
        let id_keyword = dialect.id_keyword();
        let id_at = format!("/{id_keyword}");
        match root.get(id_keyword) {
            None | Some(Value::String(_)) => {}
            Some(_) => self.errors.push(file, &id_at, format!("`{id_keyword}` must be a string")),
        }
        if let Some(why) = id_of(root, dialect).and_then(|id| id_problem(id, dialect)) {
            self.errors.push(file, &id_at, format!("`{id_keyword}` {why}: it is the document's URI, by which `$ref`s and the assertion engine know it"));
        }
        let mut doc = self.document(schema, module, document, scan, dialect);
        // A root that is only a `$ref` to one of its definitions (`"$ref":
        // "#/$defs/Bom"`) is that type, under the entry's name: the name is
        // taken first, as a root's is, and given to the definition.
        let definitions: Vec<String> = ["$defs", "definitions"]
            .iter()
            .filter_map(|place| root.get(*place).and_then(Value::as_object).map(|defs| (place, defs)))
            .flat_map(|(place, defs)| defs.keys().map(move |key| pointer_push(&format!("/{place}"), key)))
            .collect();
        let root_is_a_definition = plain_reference(root, dialect).filter(|pointer| definitions.contains(pointer));
        // The root type; for a document of `$defs` only, whose root asserts
        // nothing, it is any JSON value, and the definitions are the module's types.
        let root_id = match &root_is_a_definition {
            Some(_) => {
                self.entries[module].names.unique(&schema.name, crate::naming::type_name);
                None
            }
            None => {
                let id = self.declare(&schema.name, &doc, "", true);
                doc.targets.insert(String::new(), id);
                Some(id)
            }
        };
        for place in ["$defs", "definitions"] {
            match root.get(place) {
                None => {}
                Some(Value::Object(defs)) => {
                    for (key, value) in defs {
                        // Where the container may hold data, a value that is no schema is no definition.
                        let is_definition = holds_only_schemas(place, dialect) || value.is_object() || value.is_boolean();
                        if !is_definition {
                            continue;
                        }
                        let pointer = pointer_push(&format!("/{place}"), key);
                        let id = self.declare(&words::type_word(key), &doc, &pointer, false);
                        doc.targets.insert(pointer.clone(), id);
                        doc.pending.push((id, pointer));
                    }
                }
                Some(_) => self.errors.push(file, format!("/{place}"), format!("`{place}` must be an object of schemas")),
            }
        }
        match (root_id, root_is_a_definition.and_then(|pointer| doc.targets.get(&pointer).copied())) {
            (Some(id), _) => {
                self.model.modules[module].root = Some(id);
                self.define(&mut doc, id, "");
            }
            (None, Some(target)) => {
                doc.targets.insert(String::new(), target);
                let def = &mut self.model.types[target.0];
                def.name = schema.name.clone();
                def.is_root = true;
                def.wrapped = true;
                self.model.modules[module].root = Some(target);
            }
            (None, None) => {}
        }
        // Definitions first, in their order, then the locations `$ref`s name as they are met.
        let mut next = 0;
        while next < doc.pending.len() {
            let (id, pointer) = doc.pending[next].clone();
            self.define(&mut doc, id, &pointer);
            next += 1;
        }
        if let Some(why) = doc.engine.take() {
            self.entries[module].needs_engine.get_or_insert(why);
        }
        self.entries[module].targets = std::mem::take(&mut doc.targets);
    }

    /// A document, before anything of it is read.
    fn document<'a>(&self, schema: &'a SchemaFile, module: usize, root: &'a Value, scan: &Scan, dialect: Dialect) -> Document<'a> {
        Document {
            file: &schema.file,
            dialect,
            digest: &schema.digest,
            module,
            root,
            targets: HashMap::new(),
            anchors: scan.anchors.clone(),
            ids: scan.ids.clone(),
            pending: Vec::new(),
            ids_unused: schema.read_as.is_some()
                && Dialect::of_document(root, schema.dialect) == Ok(Dialect::Draft4)
                && scan.refs.iter().all(|target| target.starts_with('#')),
            reached: scan
                .refs
                .iter()
                .filter_map(|target| target.strip_prefix('#').and_then(reference::percent_decode))
                .filter(|pointer| pointer.starts_with('/'))
                .collect(),
            engine: None,
            annotations: &schema.annotations,
        }
    }

    /// The registry entry a `$ref` from `module` names: by its base URI, or
    /// by the `$id` of a resource embedded in it.
    fn entry_of(&self, module: usize, target: &str) -> Option<usize> {
        let resolved = resolve_uri(&self.entries[module].base, target);
        // A document's own URI is itself, whichever other entry claims it too
        // (two versions of one schema under one `$id`).
        if resolved == self.entries[module].base || resolved == self.entries[module].uri {
            return Some(module);
        }
        self.entry_named(&resolved).or_else(|| self.resources.iter().find(|(id, _)| *id == resolved).map(|(_, entry)| *entry))
    }

    /// The entries other than `module` whose document is the resource at
    /// `uri`: more than one, and a `$ref` to it cannot say which it means.
    fn entries_named(&self, module: usize, uri: &str) -> Vec<usize> {
        (0..self.entries.len()).filter(|&other| other != module && (self.entries[other].base == uri || self.entries[other].uri == uri)).collect()
    }

    /// The entry whose document is the resource at `uri` (absolute, no fragment).
    fn entry_named(&self, uri: &str) -> Option<usize> {
        self.entries.iter().position(|entry| entry.base == uri).or_else(|| self.entries.iter().position(|entry| entry.uri == uri))
    }

    /// Reads the schema at `pointer` into the named type `id`.
    fn define(&mut self, doc: &mut Document, id: TypeId, pointer: &str) {
        let Some(schema) = doc.root.pointer(pointer) else { return };
        self.exact.insert(id);
        let name = self.model.types[id.0].name.clone();
        let is_root = pointer.is_empty();
        self.model.types[id.0].doc = doc_text(schema);
        let read = self.read(doc, schema, pointer, &name, is_root);
        self.settle(doc, id, read, &name, pointer);
    }

    /// Gives the named type `id` (called `name`, at `pointer`) what was
    /// read for it: nothing read is any JSON value.
    fn settle(&mut self, doc: &Document, id: TypeId, read: Option<Read>, name: &str, pointer: &str) {
        let kind = match read {
            None => TypeKind::Alias(Shape::Any),
            Some(Read::Struct(body)) => TypeKind::Struct(body),
            Some(Read::Enum(values)) => TypeKind::Enum(values),
            Some(Read::Shape(shape)) => TypeKind::Alias(shape),
            Some(Read::Kind(kind)) => kind,
            // Any JSON value until `lower` decides how its branches are told apart.
            Some(Read::Union(union)) => {
                self.unions.push((id, union));
                TypeKind::Alias(Shape::Any)
            }
            Some(Read::Nullable(inner)) => match *inner {
                Read::Shape(shape) => TypeKind::Alias(Shape::Nullable(Box::new(shape))),
                inner => {
                    // A nullable object or enum: the named type is the
                    // non-null part, and the alias adds the null.
                    let inner_id = self.declare(&format!("{name}Value"), doc, pointer, false);
                    self.settle(doc, inner_id, Some(inner), &format!("{name}Value"), pointer);
                    TypeKind::Alias(Shape::Nullable(Box::new(Shape::Named(inner_id))))
                }
            },
        };
        self.model.types[id.0].kind = kind;
    }

    fn declare(&mut self, name: &str, doc: &Document, pointer: &str, is_root: bool) -> TypeId {
        // Names are made from keys and properties: two may come out alike
        // (`$defs/shapes/transform` and `$defs/Transform`); the later is numbered.
        let module = doc.module;
        let unique = self.entries[module].names.unique(name, crate::naming::type_name);
        if self.model.types.len() == MAX_TYPES && !self.too_many_types {
            self.too_many_types = true;
            self.errors.push(
                doc.file,
                pointer,
                format!("more than {MAX_TYPES} named types (structs, enums, unions, aliases) in one registry, this the next: concord reads no further (docs/limits.md)"),
            );
        }
        self.model.types.push(TypeDef {
            name: unique,
            origin: Origin { file: doc.file.to_path_buf(), pointer: pointer.to_owned() },
            doc: None,
            schema_digest: doc.digest.to_owned(),
            is_root,
            wrapped: is_root,
            module: doc.module,
            pinning: Pinning::None,
            kind: TypeKind::Alias(Shape::Any),
        });
        TypeId(self.model.types.len() - 1)
    }

    /// Undoes the types declared from `first` on, by a read whose result is
    /// dropped (a tuple that turned out not to be one): their names, and
    /// every place that holds their ids (the locations `$ref`s named, the
    /// recursive merges), so that no later type takes an id meant for another.
    fn forget_types_from(&mut self, doc: &mut Document, first: usize) {
        for def in self.model.types.drain(first..) {
            self.entries[def.module].names.release(&crate::naming::type_name(&def.name));
        }
        doc.targets.retain(|_, id| id.0 < first);
        doc.pending.retain(|(id, _)| id.0 < first);
        self.exact.retain(|id| id.0 < first);
        self.unions.retain(|(id, _)| id.0 < first);
        for merging in &mut self.merging {
            if merging.named.is_some_and(|id| id.0 >= first) {
                merging.named = None;
            }
        }
    }

    /// Reads a schema used in place (a property, items, map values): structs
    /// and enums become named types called `hint`.
    fn shape(&mut self, doc: &mut Document, schema: &Value, pointer: &str, hint: &str) -> Option<Shape> {
        let read = self.read(doc, schema, pointer, hint, false)?;
        let named = |reader: &mut Reader, read, whole| match read {
            Read::Shape(shape) => shape,
            read => reader.named(doc, schema, pointer, hint, read, whole),
        };
        Some(match read {
            // The named type is the non-null part: not the location's whole
            // schema, which also admits null (ansible-rulebook's `print_event`).
            Read::Nullable(inner) => Shape::Nullable(Box::new(named(self, *inner, false))),
            read => named(self, read, true),
        })
    }

    /// A named type for what was read at `pointer`, inline in its parent;
    /// pinned to the location where it is all of the location's schema (`whole`).
    fn named(&mut self, doc: &Document, schema: &Value, pointer: &str, hint: &str, read: Read, whole: bool) -> Shape {
        let id = self.declare(hint, doc, pointer, false);
        if whole && doc.root.pointer(pointer) == Some(schema) {
            self.exact.insert(id);
        }
        self.model.types[id.0].doc = doc_text(schema);
        self.settle(doc, id, Some(read), hint, pointer);
        Shape::Named(id)
    }

    fn read(&mut self, doc: &mut Document, schema: &Value, pointer: &str, hint: &str, at_root: bool) -> Option<Read> {
        // Merging `allOf` parts and spreading keywords into union branches
        // reads schemas the document does not nest: a cycle through them
        // would never end.
        if self.too_many_types {
            return None;
        }
        if self.depth >= MAX_DEPTH {
            self.errors.push(
                doc.file,
                pointer,
                format!("the schema nests deeper than {MAX_DEPTH} levels once `allOf`s and `$ref`s are merged (a cycle?): there is no finite type"),
            );
            return None;
        }
        self.depth += 1;
        let read = self.read_schema(doc, schema, pointer, hint, at_root);
        self.depth -= 1;
        read
    }

    fn read_schema(&mut self, doc: &mut Document, schema: &Value, pointer: &str, hint: &str, at_root: bool) -> Option<Read> {
        let file = doc.file;
        let object = match schema {
            Value::Bool(true) => return Some(Read::Shape(Shape::Any)),
            // Accepts nothing: any value, which the engine refuses.
            Value::Bool(false) => {
                doc.needs_engine_for(|| format!("the schema `false` at {}", shown_pointer(pointer)));
                return Some(Read::Shape(Shape::Any));
            }
            Value::Object(object) => object,
            _ => {
                self.errors.push(file, pointer, "a schema must be an object or a boolean");
                return None;
            }
        };
        let before = self.errors.diagnostics.len();
        // An embedded resource (`$id` below the root) resolves its own `$ref`s
        // against its own base; a `$dynamicRef` against the dynamic scope;
        // `oneOf` beside `anyOf` would need both: any value, which the engine
        // checks (its subschemas still held to the keyword table).
        let dialect = doc.dialect;
        let engine_only = (!at_root && (id_of(object, dialect).is_some() || object.contains_key("$schema")))
            || (object.contains_key("$dynamicRef") && dialect == Dialect::Draft202012)
            || (object.contains_key("$recursiveRef") && dialect == Dialect::Draft201909)
            || (object.contains_key("oneOf") && object.contains_key("anyOf"));
        if engine_only {
            doc.needs_engine_for(|| {
                format!(
                    "a subschema at {} that only the engine reads (an embedded resource, a dynamic reference, or `oneOf` beside `anyOf`)",
                    shown_pointer(pointer)
                )
            });
            self.engine_subschema(doc, schema, pointer, "", 0);
            return (self.errors.diagnostics.len() == before).then_some(Read::Shape(Shape::Any));
        }
        if !at_root && self.too_many_members(file, pointer, object) {
            return None;
        }
        let schema = Keywords { object, pointer, dialect, taken: RefCell::new(BTreeSet::new()) };
        // Before 2019-09, `$ref` overrides whatever stands beside it: those
        // keywords mean nothing, as the draft says (the engine ignores them
        // too), but for concord's own, which would be lost unseen.
        if schema.has("$ref") && dialect.ref_overrides_siblings() {
            for sibling in object.keys().filter(|k| *k != "$ref") {
                if keywords::lookup(sibling).is_some_and(|k| k.vocabulary == keywords::CONCORD) {
                    self.errors.push(
                        file,
                        schema.at(sibling),
                        format!("`{sibling}` beside `$ref` is ignored in {dialect}, where `$ref` overrides the keywords beside it: put it in the schema the `$ref` names"),
                    );
                }
                schema.taken.borrow_mut().insert(sibling);
            }
        } else {
            self.check_keywords(doc, &schema);
        }
        for annotation in ["$schema", "$id", "$defs", "definitions", "$anchor"] {
            schema.take(annotation);
        }
        if dialect == Dialect::Draft4 {
            schema.take("id");
        }

        let read = if schema.has("$ref") && dialect.ref_overrides_siblings() {
            self.reference(doc, &schema).map(Read::Shape)
        } else if schema.has("allOf") || (schema.has("$ref") && !reference::only_annotations_beside(object, dialect)) {
            self.all_of(doc, &schema, hint)
        } else if schema.has("$ref") {
            self.reference(doc, &schema).map(Read::Shape)
        } else if (schema.has("oneOf") || schema.has("anyOf")) && compose::asserts_only(object, dialect) {
            // Branches that only assert: the schema's own type, the engine checks them.
            for keyword in ["oneOf", "anyOf"] {
                if let Some(branches) = schema.take(keyword) {
                    doc.needs_engine(keyword, &schema.at(keyword));
                    self.engine_keyword(doc, keyword, branches, &schema.at(keyword));
                }
            }
            if schema.object.get("type").is_some_and(compose::several_types) {
                self.type_list(doc, &schema, hint)
            } else {
                self.typed(doc, &schema, hint)
            }
        } else if schema.has("oneOf") || schema.has("anyOf") {
            self.union(doc, &schema, hint)
        } else if schema.object.get("type").is_some_and(compose::several_types) {
            self.type_list(doc, &schema, hint)
        } else {
            self.typed(doc, &schema, hint)
        };
        for keyword in schema.untaken() {
            self.errors.push(file, schema.at(keyword), format!("`{keyword}` is not supported in this schema's combination of keywords"));
        }
        if self.errors.diagnostics.len() > before {
            return None;
        }
        read
    }

    /// A schema without `$ref`: its `type` and what that type's keywords say.
    fn typed(&mut self, doc: &mut Document, schema: &Keywords, hint: &str) -> Option<Read> {
        let (base, nullable) = self.declared_type(doc.file, schema)?;
        // Before the engine takes its keywords: each branch reads them beside
        // its own type's (`prefixItems` shifts where `items` starts,
        // `patternProperties` keys are no unknown keys).
        if base.is_none() && !schema.has("enum") && !schema.has("const") && scalar::applies_to_some_types(schema) {
            self.misplaced_extensions(doc.file, schema, None)?;
            return self.implied_types(doc, schema, hint);
        }
        for keyword in keywords::having(|keyword| keyword.engine_only) {
            // An array's `prefixItems` may make a tuple: `array` decides.
            if keyword == "prefixItems" && base.as_deref() == Some("array") {
                continue;
            }
            // Only where the dialect has it (elsewhere, an annotation taken
            // already, or refused).
            if !matches!(keywords::role(keyword, schema.dialect), Role::Bound(_) | Role::Enforced(_)) {
                continue;
            }
            if let Some(value) = schema.take(keyword) {
                doc.needs_engine(keyword, &schema.at(keyword));
                self.engine_keyword(doc, keyword, value, &schema.at(keyword));
            }
        }
        if schema.has("enum") || schema.has("const") {
            // Another type's keywords beside an enum (`"additionalProperties": false`
            // on a string enum, as OCPP's schemas have it) are no-ops here too.
            if let Some(why) = self.misplaced(doc, schema, base.as_deref()) {
                doc.needs_engine_for(|| why);
            }
            match self.enum_values(doc.file, schema, base.as_deref(), nullable)? {
                Some((values, null)) => {
                    // Assertions beside an enum narrow it further: the engine checks them.
                    for keyword in ["minLength", "maxLength", "pattern"] {
                        if schema.take(keyword).is_some() {
                            doc.needs_engine(keyword, &schema.at(keyword));
                        }
                    }
                    let read = self.enumeration(doc.file, schema, values)?;
                    return Some(if null { Read::Nullable(Box::new(read)) } else { read });
                }
                // Values of other types than strings: the engine checks them.
                None => doc.needs_engine_for(|| format!("an `enum` or `const` of other values than strings at {}", shown_pointer(schema.pointer))),
            }
        }
        if let Some(why) = self.misplaced(doc, schema, base.as_deref()) {
            doc.needs_engine_for(|| why);
        }
        self.misplaced_extensions(doc.file, schema, base.as_deref())?;
        let read = match base.as_deref() {
            None => Read::Shape(Shape::Any),
            Some("null") => Read::Shape(Shape::Null),
            Some("boolean") => Read::Shape(Shape::Bool),
            Some("integer") => Read::Shape(self.integer(doc.file, schema)),
            Some("number") => Read::Shape(self.number(doc.file, schema)),
            Some("string") if schema.has(TYPED_ID) => self.typed_id(doc.file, schema)?,
            Some("string") => Read::Shape(self.string(doc.file, schema, &mut doc.engine)),
            Some("array") => Read::Shape(self.array(doc, schema, hint)?),
            Some("object") => self.object(doc, schema, hint)?,
            Some(_) => unreachable!("declared_type checks the type names"),
        };
        Some(if nullable { Read::Nullable(Box::new(read)) } else { read })
    }

    /// Refuses every keyword the table refuses, and unknown keywords that
    /// look like misspellings; takes every annotation.
    fn check_keywords(&mut self, doc: &Document, schema: &Keywords) {
        let file = doc.file;
        for keyword in schema.object.keys() {
            let k = keyword.as_str();
            let at = schema.at(k);
            // What a `$ref` reaches is a schema, wherever it sits (draft-04
            // vega keeps its definitions under `defs`): the key holding it is
            // a container, not a misspelt keyword.
            let container =
                keywords::lookup(k).is_none() && doc.reached.iter().any(|target| target.strip_prefix(&at).is_some_and(|rest| rest.starts_with('/')));
            let role = if container {
                Role::Annotation("a place `$ref`s reach by JSON pointer")
            } else if k == "id" && doc.ids_unused {
                Role::Annotation("draft-04's `id`, in a document read as a later dialect: ignored, as that dialect's validators ignore it")
            } else {
                doc.role(k, schema.dialect)
            };
            match role {
                Role::Refused(why) => self.errors.push(file, at, refused(k, schema.dialect, why)),
                Role::Annotation(_) => {
                    schema.taken.borrow_mut().insert(k);
                }
                Role::Bound(_) | Role::Enforced(_) => {}
            }
        }
    }

    /// Whether a keyword of the schema holds more than [`MAX_MEMBERS`]
    /// entries (reported): then it is not read at all.
    fn too_many_members(&mut self, file: &Path, pointer: &str, object: &Map<String, Value>) -> bool {
        let mut too_many = false;
        for keyword in keywords::having(|keyword| keyword.members_bounded) {
            let count = match object.get(keyword) {
                Some(Value::Object(members)) => members.len(),
                Some(Value::Array(members)) => members.len(),
                _ => continue,
            };
            if count > MAX_MEMBERS {
                too_many = true;
                self.errors.push(
                    file,
                    pointer_push(pointer, keyword),
                    format!("`{keyword}` holds {count} entries; concord reads at most {MAX_MEMBERS} (docs/limits.md)"),
                );
            }
        }
        too_many
    }

    /// `type`: one name, or a name and "null". `None` when there is none.
    fn declared_type(&mut self, file: &Path, schema: &Keywords) -> Option<(Option<String>, bool)> {
        let at = schema.at("type");
        let known = |name: &str| JSON_TYPES.contains(&name);
        match schema.take("type") {
            None => Some((None, false)),
            Some(Value::String(name)) if known(name) => Some((Some(name.clone()), false)),
            Some(Value::Array(names)) => {
                if let Some((position, junk)) = names.iter().enumerate().find(|(_, name)| !name.as_str().is_some_and(known)) {
                    self.errors.push(file, format!("{at}/{position}"), unknown_type(junk));
                    return None;
                }
                let names: Vec<&str> = names.iter().filter_map(Value::as_str).collect();
                match names.as_slice() {
                    [name] => Some((Some((*name).to_owned()), false)),
                    [a, "null"] | ["null", a] if *a != "null" => Some((Some((*a).to_owned()), true)),
                    _ => {
                        self.errors.push(
                            file,
                            at,
                            "unsupported type union: only one type, or one type and \"null\", is supported \
                             (Rust and Python resolve other unions differently)",
                        );
                        None
                    }
                }
            }
            Some(other) => {
                self.errors.push(file, at, unknown_type(other));
                None
            }
        }
    }
}

/// Registry order, except that an entry comes after the entries its `$ref`s
/// name, as far as no cycle among them forbids (depth-first, each entry
/// after what it reaches).
fn reading_order(model: &Model) -> Vec<usize> {
    let starts: Vec<TypeId> = (0..model.modules.len()).map(TypeId).collect();
    crate::model::components(model.modules.len(), starts, |TypeId(module)| model.modules[module].refers_to.iter().map(|&other| TypeId(other)).collect())
        .into_iter()
        .flatten()
        .map(|TypeId(module)| module)
        .collect()
}

/// Where a keyword first stands in a document, as a keyword (in a schema,
/// not as a property's name): the pointer of the schema that holds it.
fn first_keyword(document: &Value, keyword: &str) -> Option<String> {
    let mut stack = vec![(document, String::new())];
    while let Some((schema, pointer)) = stack.pop() {
        let Value::Object(object) = schema else { continue };
        if object.contains_key(keyword) {
            return Some(pointer);
        }
        for (key, value) in object {
            let at = pointer_push(&pointer, key);
            match keywords::arity(key) {
                // `items` before 2020-12 is one subschema or an array of them.
                Arity::One | Arity::Many if value.is_array() => {
                    stack.extend(value.as_array().into_iter().flatten().enumerate().map(|(index, item)| (item, format!("{at}/{index}"))))
                }
                Arity::One => stack.push((value, at)),
                Arity::Many => stack.extend(value.as_array().into_iter().flatten().enumerate().map(|(index, item)| (item, format!("{at}/{index}")))),
                Arity::Named => stack.extend(value.as_object().into_iter().flatten().map(|(name, item)| (item, pointer_push(&at, name)))),
                Arity::Zero => {}
            }
        }
    }
    None
}

/// `title` and `description` of a schema, as documentation.
fn doc_text(schema: &Value) -> Option<String> {
    let text = |key| schema.get(key).and_then(Value::as_str).map(str::trim).filter(|s| !s.is_empty());
    match (text("title"), text("description")) {
        (Some(title), Some(description)) => Some(format!("{title}\n\n{description}")),
        (one, other) => one.or(other).map(str::to_owned),
    }
}

/// The location a root names when it is nothing but a local `$ref` (and
/// annotations or definitions beside it; before 2019-09, whatever stands
/// beside it, which `$ref` overrides).
fn plain_reference(root: &Map<String, Value>, dialect: Dialect) -> Option<String> {
    let target = root.get("$ref")?.as_str()?.strip_prefix('#')?;
    let plain = dialect.ref_overrides_siblings()
        || root.keys().all(|k| matches!(k.as_str(), "$ref" | "$schema" | "$id" | "$defs" | "definitions" | "$comment" | "title" | "description"));
    (plain && target.starts_with('/')).then(|| target.replace("%25", "%"))
}
