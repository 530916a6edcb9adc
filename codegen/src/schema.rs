//! Reads each pinned schema file into the shared [`Model`]. Every keyword is
//! either understood or refused with its location: a keyword that is skipped
//! would let the bindings accept records the schema refuses.

use crate::error::{pointer_push, Errors};
use crate::model::{EnumValue, Field, Model, Origin, Shape, Struct, TypeDef, TypeId, TypeKind, UnknownKeys};
use crate::names;
use crate::registry::{Registry, SchemaFile};
use indexmap::IndexMap;
use serde_json::{Map, Value};
use std::path::Path;

pub const DRAFT_2020_12: &str = "https://json-schema.org/draft/2020-12/schema";
pub const GROWTH_POINT: &str = "x-growth-point";

/// Keywords that only annotate: they change neither what is accepted nor
/// what is written, so both languages may ignore them alike.
const ANNOTATIONS: &[&str] = &["title", "description", "$comment", "examples", "default", "deprecated"];
/// Keywords that only make sense at a document's root.
const ROOT_ONLY: &[&str] = &["$schema", "$id", "$defs"];
const OBJECT_KEYWORDS: &[&str] =
    &["properties", "required", "additionalProperties", "unevaluatedProperties", GROWTH_POINT];
const STRUCTURAL: &[&str] = &["type", "items", "$ref", "enum", "const"];

/// Reads every schema of a verified registry; reports every problem found.
pub fn read(registry: &Registry) -> Result<Model, Errors> {
    let mut reader = Reader { model: Model::default(), errors: Errors::default() };
    for schema in &registry.schemas {
        reader.file(schema);
    }
    reader.errors.finish(reader.model)
}

struct Reader {
    model: Model,
    errors: Errors,
}

/// The file being read: where diagnostics point and where `$ref`s resolve.
struct FileScope<'a> {
    file: &'a Path,
    digest: &'a str,
    root: TypeId,
    defs: IndexMap<String, TypeId>,
}

/// What one schema turned out to be, before it is given a name.
enum Read {
    Struct(Struct),
    Enum(Vec<EnumValue>),
    Shape(Shape),
    /// `type: [X, "null"]`.
    Nullable(Box<Read>),
}

impl Reader {
    fn file(&mut self, schema: &SchemaFile) {
        let file = schema.file.as_path();
        let document = match concord_runtime::strict::read(&schema.bytes) {
            Ok(document) => document,
            Err(error) => return self.errors.push(file, "", format!("refused by the strict JSON profile (docs/strict-json.md): {error}")),
        };
        let Some(root) = document.as_object() else {
            return self.errors.push(file, "", "a schema file must hold a JSON object");
        };
        match root.get("$schema") {
            Some(Value::String(dialect)) if dialect == DRAFT_2020_12 => {}
            Some(other) => {
                return self.errors.push(
                    file,
                    "/$schema",
                    format!("unsupported dialect {other}: concord reads Draft 2020-12 only (\"$schema\": \"{DRAFT_2020_12}\")"),
                )
            }
            None => {
                return self.errors.push(file, "", format!("missing \"$schema\": declare \"{DRAFT_2020_12}\""));
            }
        }
        if let Some(id) = root.get("$id") {
            if !id.is_string() {
                self.errors.push(file, "/$id", "`$id` must be a string");
            }
        }
        let root_id = self.declare(&schema.name, file, "", &schema.digest, true);
        let mut scope = FileScope { file, digest: &schema.digest, root: root_id, defs: IndexMap::new() };
        let defs = match root.get("$defs") {
            None => Map::new(),
            Some(Value::Object(defs)) => defs.clone(),
            Some(_) => {
                self.errors.push(file, "/$defs", "`$defs` must be an object of schemas");
                Map::new()
            }
        };
        for key in defs.keys() {
            let id = self.declare(&names::type_name(key), file, &pointer_push("/$defs", key), &schema.digest, false);
            scope.defs.insert(key.clone(), id);
        }

        match self.read(&scope, &document, "", &schema.name, true) {
            Some(Read::Struct(fields)) => self.model.types[root_id.0].kind = TypeKind::Struct(fields),
            Some(_) if root.contains_key("$ref") => self.errors.push(
                file,
                "/$ref",
                "a registry root that only refers to another type is not supported: give the root its own \"type\": \"object\" and `properties`",
            ),
            Some(_) => self.errors.push(
                file,
                "",
                "a registry root must be an object schema (\"type\": \"object\") with `properties`, a growth point or `additionalProperties: false`",
            ),
            None => {}
        }
        for (key, schema_value) in &defs {
            let id = scope.defs[key];
            let pointer = pointer_push("/$defs", key);
            let name = self.model.types[id.0].name.clone();
            self.model.types[id.0].doc = doc(schema_value);
            self.model.types[id.0].kind = match self.read(&scope, schema_value, &pointer, &name, false) {
                Some(Read::Struct(fields)) => TypeKind::Struct(fields),
                Some(Read::Enum(values)) => TypeKind::Enum(values),
                Some(Read::Shape(shape)) => TypeKind::Alias(shape),
                Some(Read::Nullable(inner)) => match *inner {
                    Read::Shape(shape) => TypeKind::Alias(Shape::Nullable(Box::new(shape))),
                    _ => {
                        self.errors.push(
                            scope.file,
                            pointer_push(&pointer, "type"),
                            "a `$defs` object type cannot be nullable; make the properties that use it nullable instead",
                        );
                        TypeKind::Alias(Shape::Any)
                    }
                },
                None => TypeKind::Alias(Shape::Any),
            };
        }
        self.model.types[root_id.0].doc = doc(&document);
    }

    fn declare(&mut self, name: &str, file: &Path, pointer: &str, digest: &str, is_root: bool) -> TypeId {
        self.model.types.push(TypeDef {
            name: name.to_owned(),
            origin: Origin { file: file.to_path_buf(), pointer: pointer.to_owned() },
            doc: None,
            schema_digest: digest.to_owned(),
            is_root,
            kind: TypeKind::Alias(Shape::Any),
        });
        TypeId(self.model.types.len() - 1)
    }

    /// Reads a schema used in place (a property, items, map values): structs
    /// and enums become named types called `hint`.
    fn shape(&mut self, scope: &FileScope, schema: &Value, pointer: &str, hint: &str) -> Option<Shape> {
        let named = |reader: &mut Reader, kind: TypeKind| {
            let id = reader.declare(hint, scope.file, pointer, scope.digest, false);
            reader.model.types[id.0].doc = doc(schema);
            reader.model.types[id.0].kind = kind;
            Shape::Named(id)
        };
        let in_place = |reader: &mut Reader, read| match read {
            Read::Struct(fields) => named(reader, TypeKind::Struct(fields)),
            Read::Enum(values) => named(reader, TypeKind::Enum(values)),
            Read::Shape(shape) => shape,
            Read::Nullable(_) => unreachable!("read nests Nullable once"),
        };
        Some(match self.read(scope, schema, pointer, hint, false)? {
            Read::Nullable(inner) => Shape::Nullable(Box::new(in_place(self, *inner))),
            read => in_place(self, read),
        })
    }

    fn read(&mut self, scope: &FileScope, schema: &Value, pointer: &str, hint: &str, at_root: bool) -> Option<Read> {
        let file = scope.file;
        let object = match schema {
            Value::Bool(true) => return Some(Read::Shape(Shape::Any)),
            Value::Bool(false) => {
                self.errors.push(file, pointer, "the schema `false` accepts nothing; there is no type to generate");
                return None;
            }
            Value::Object(object) => object,
            _ => {
                self.errors.push(file, pointer, "a schema must be an object or a boolean");
                return None;
            }
        };
        let before = self.errors.diagnostics.len();
        self.check_keywords(file, object, pointer, at_root);

        if let Some(target) = object.get("$ref") {
            let shape = self.reference(scope, object, target, pointer, at_root);
            return (self.errors.diagnostics.len() == before).then_some(Read::Shape(shape?));
        }

        let (base, nullable) = self.declared_type(file, object, pointer)?;
        let has = |keyword: &str| object.contains_key(keyword);
        let object_keywords: Vec<&str> = OBJECT_KEYWORDS.iter().copied().filter(|k| has(k)).collect();
        if base.as_deref() != Some("object") {
            if let Some(keyword) = object_keywords.first() {
                let why = match &base {
                    None => "add \"type\": \"object\" (without it, the schema would also accept non-objects)".to_owned(),
                    Some(other) => format!("it applies to objects, but this schema's type is {other:?}"),
                };
                self.errors.push(file, pointer_push(pointer, keyword), format!("`{keyword}`: {why}"));
            }
        }
        if has("items") && base.as_deref() != Some("array") {
            self.errors.push(file, pointer_push(pointer, "items"), "`items` applies to arrays: add \"type\": \"array\"");
        }
        if has("enum") || has("const") {
            let values = self.enum_values(file, object, pointer, base.as_deref(), nullable);
            return (self.errors.diagnostics.len() == before).then_some(Read::Enum(values?));
        }

        let read = match base.as_deref() {
            None => Read::Shape(Shape::Any),
            Some("null") => Read::Shape(Shape::Null),
            Some("boolean") => Read::Shape(Shape::Bool),
            Some("integer") => Read::Shape(Shape::Integer),
            Some("number") => Read::Shape(Shape::Number),
            Some("string") => Read::Shape(Shape::String),
            Some("array") => {
                let items = match object.get("items") {
                    None => Some(Shape::Any),
                    Some(items) => self.shape(scope, items, &pointer_push(pointer, "items"), &format!("{hint}Item")),
                };
                Read::Shape(Shape::Array(Box::new(items?)))
            }
            Some("object") => self.object(scope, object, pointer, hint)?,
            Some(_) => unreachable!("declared_type checks the type names"),
        };
        if self.errors.diagnostics.len() > before {
            return None;
        }
        Some(if nullable { Read::Nullable(Box::new(read)) } else { read })
    }

    /// Refuses every keyword concord does not implement, naming it.
    fn check_keywords(&mut self, file: &Path, object: &Map<String, Value>, pointer: &str, at_root: bool) {
        for keyword in object.keys() {
            let k = keyword.as_str();
            if ANNOTATIONS.contains(&k) || OBJECT_KEYWORDS.contains(&k) || STRUCTURAL.contains(&k) {
                continue;
            }
            if ROOT_ONLY.contains(&k) {
                if !at_root {
                    self.errors.push(file, pointer_push(pointer, k), format!("`{k}` is only supported at the schema root"));
                }
                continue;
            }
            let message = if k == "definitions" {
                "unsupported keyword `definitions`: Draft 2020-12 names it `$defs`".to_owned()
            } else if k.starts_with("x-") {
                format!("unknown extension keyword `{k}`: concord knows `{GROWTH_POINT}` only, and a misspelt one must not pass unnoticed")
            } else {
                format!(
                    "unsupported keyword `{k}`: concord does not implement it, and ignoring it would let the bindings accept records the schema refuses"
                )
            };
            self.errors.push(file, pointer_push(pointer, k), message);
        }
    }

    /// `type`: one name, or a name and "null". `None` when there is none.
    fn declared_type(&mut self, file: &Path, object: &Map<String, Value>, pointer: &str) -> Option<(Option<String>, bool)> {
        const TYPES: &[&str] = &["object", "array", "string", "integer", "number", "boolean", "null"];
        let at = pointer_push(pointer, "type");
        let known = |name: &str| TYPES.contains(&name);
        match object.get("type") {
            None => Some((None, false)),
            Some(Value::String(name)) if known(name) => Some((Some(name.clone()), false)),
            Some(Value::Array(names)) => {
                let names: Vec<&str> = names.iter().filter_map(Value::as_str).collect();
                match names.as_slice() {
                    [name] if known(name) => Some((Some((*name).to_owned()), false)),
                    [a, "null"] | ["null", a] if known(a) && *a != "null" => Some((Some((*a).to_owned()), true)),
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
                self.errors.push(file, at, format!("unknown type {other}: expected one of {TYPES:?}"));
                None
            }
        }
    }

    fn reference(&mut self, scope: &FileScope, object: &Map<String, Value>, target: &Value, pointer: &str, at_root: bool) -> Option<Shape> {
        let file = scope.file;
        let at = pointer_push(pointer, "$ref");
        let allowed = |k: &str| k == "$ref" || ANNOTATIONS.contains(&k) || (at_root && ROOT_ONLY.contains(&k));
        for sibling in object.keys().filter(|k| !allowed(k)) {
            self.errors.push(
                file,
                pointer_push(pointer, sibling),
                format!("`{sibling}` beside `$ref` is not supported: only annotations (description, title, ...) may stand beside it"),
            );
        }
        let Some(target) = target.as_str() else {
            self.errors.push(file, at, "`$ref` must be a string");
            return None;
        };
        if target == "#" {
            return Some(Shape::Named(scope.root));
        }
        if let Some(key) = target.strip_prefix("#/$defs/") {
            let key = key.replace("~1", "/").replace("~0", "~");
            return match scope.defs.get(&key) {
                Some(id) => Some(Shape::Named(*id)),
                None => {
                    self.errors.push(file, at, format!("`$ref` target {target:?} does not exist in this file's `$defs`"));
                    None
                }
            };
        }
        let message = if target.contains("://") {
            format!("remote `$ref` {target:?} is refused: concord never fetches schemas; copy the schema into the registry")
        } else if !target.starts_with('#') {
            format!("`$ref` {target:?} points into another file: only references within the same file (\"#/$defs/Name\") are supported")
        } else {
            format!("`$ref` {target:?} is not supported: use \"#\" or \"#/$defs/Name\"")
        };
        self.errors.push(file, at, message);
        None
    }

    fn enum_values(
        &mut self,
        file: &Path,
        object: &Map<String, Value>,
        pointer: &str,
        base: Option<&str>,
        nullable: bool,
    ) -> Option<Vec<EnumValue>> {
        if base.is_some_and(|b| b != "string") || nullable {
            self.errors.push(
                file,
                pointer_push(pointer, "type"),
                "`enum` and `const` are supported for strings only (\"type\": \"string\")",
            );
            return None;
        }
        if object.contains_key("enum") && object.contains_key("const") {
            self.errors.push(file, pointer, "use either `enum` or `const`, not both");
            return None;
        }
        let (keyword, raw): (&str, Vec<&Value>) = match (object.get("enum"), object.get("const")) {
            (Some(Value::Array(values)), _) if !values.is_empty() => ("enum", values.iter().collect()),
            (Some(_), _) => {
                self.errors.push(file, pointer_push(pointer, "enum"), "`enum` must be a non-empty array");
                return None;
            }
            (None, Some(value)) => ("const", vec![value]),
            (None, None) => unreachable!("called for enum or const"),
        };
        let mut values: Vec<EnumValue> = Vec::new();
        for (position, value) in raw.into_iter().enumerate() {
            let at = if keyword == "enum" { format!("{pointer}/enum/{position}") } else { pointer_push(pointer, "const") };
            match value {
                Value::String(text) if values.iter().any(|v| v.value == *text) => {
                    self.errors.push(file, at, format!("duplicate enum value {text:?}"));
                }
                Value::String(text) => values.push(EnumValue { value: text.clone(), word: names::pascal(text, "V") }),
                other => self.errors.push(file, at, format!("`{keyword}` value {other} is not a string: only string values are supported")),
            }
        }
        Some(values)
    }

    fn object(&mut self, scope: &FileScope, object: &Map<String, Value>, pointer: &str, hint: &str) -> Option<Read> {
        let file = scope.file;
        let growth_point = match object.get(GROWTH_POINT) {
            None | Some(Value::Bool(false)) => false,
            Some(Value::Bool(true)) => true,
            Some(_) => {
                self.errors.push(file, pointer_push(pointer, GROWTH_POINT), format!("`{GROWTH_POINT}` must be true or false"));
                false
            }
        };
        let additional = match (object.get("additionalProperties"), object.get("unevaluatedProperties")) {
            (Some(_), Some(_)) => {
                self.errors.push(file, pointer, "use `additionalProperties` or `unevaluatedProperties`, not both");
                return None;
            }
            (None, Some(Value::Bool(false))) => Some(Value::Bool(false)),
            (None, Some(_)) => {
                self.errors.push(
                    file,
                    pointer_push(pointer, "unevaluatedProperties"),
                    "only `unevaluatedProperties: false` is supported (a closed type)",
                );
                return None;
            }
            (additional, None) => additional.cloned(),
        };
        let unknown_keys = match &additional {
            None | Some(Value::Bool(true)) => UnknownKeys::Drop,
            Some(Value::Object(schema)) if schema.is_empty() => UnknownKeys::Drop,
            Some(Value::Bool(false)) => UnknownKeys::Refuse,
            Some(schema) => {
                let value_hint = format!("{hint}Value");
                UnknownKeys::Typed(self.shape(scope, schema, &pointer_push(pointer, "additionalProperties"), &value_hint)?)
            }
        };
        if growth_point {
            let conflict = match unknown_keys {
                UnknownKeys::Refuse => Some("refuses unknown keys"),
                UnknownKeys::Typed(_) => Some("types unknown keys as a map"),
                _ => None,
            };
            if let Some(conflict) = conflict {
                let keyword = if object.contains_key("unevaluatedProperties") { "unevaluatedProperties" } else { "additionalProperties" };
                self.errors.push(
                    file,
                    pointer_push(pointer, GROWTH_POINT),
                    format!("a growth point keeps unknown keys verbatim, but `{keyword}` here {conflict}: a type cannot be both"),
                );
                return None;
            }
        }

        let Some(properties) = object.get("properties") else {
            if object.contains_key("required") {
                self.errors.push(file, pointer_push(pointer, "required"), "`required` names properties, but there is no `properties`");
                return None;
            }
            return Some(match unknown_keys {
                // Free-form data: every key is the data, nothing is unknown.
                UnknownKeys::Drop => Read::Shape(Shape::Map(Box::new(Shape::Any))),
                UnknownKeys::Typed(values) => Read::Shape(Shape::Map(Box::new(values))),
                unknown_keys @ (UnknownKeys::Refuse | UnknownKeys::Keep) => Read::Struct(Struct { fields: vec![], unknown_keys }),
            });
        };
        let growth_unknown = if growth_point { UnknownKeys::Keep } else { unknown_keys };
        let Some(properties) = properties.as_object() else {
            self.errors.push(file, pointer_push(pointer, "properties"), "`properties` must be an object of schemas");
            return None;
        };
        let required = self.required(file, object, pointer, properties)?;
        let mut fields = Vec::new();
        for (name, schema) in properties {
            let at = pointer_push(&pointer_push(pointer, "properties"), name);
            let property_hint = format!("{hint}{}", names::pascal(name, "V"));
            let Some(shape) = self.shape(scope, schema, &at, &property_hint) else { continue };
            fields.push(Field {
                json_name: name.clone(),
                word: names::snake(name),
                doc: doc(schema),
                shape,
                required: required.contains(&name.as_str()),
                pointer: at,
            });
        }
        Some(Read::Struct(Struct { fields, unknown_keys: growth_unknown }))
    }

    fn required<'a>(
        &mut self,
        file: &Path,
        object: &'a Map<String, Value>,
        pointer: &str,
        properties: &Map<String, Value>,
    ) -> Option<Vec<&'a str>> {
        let at = pointer_push(pointer, "required");
        let Some(required) = object.get("required") else { return Some(vec![]) };
        let Some(items) = required.as_array() else {
            self.errors.push(file, at, "`required` must be an array of property names");
            return None;
        };
        let mut names: Vec<&str> = Vec::new();
        for (position, item) in items.iter().enumerate() {
            let item_at = format!("{at}/{position}");
            match item.as_str() {
                None => self.errors.push(file, item_at, "`required` entries must be strings"),
                Some(name) if names.contains(&name) => self.errors.push(file, item_at, format!("{name:?} is listed twice")),
                Some(name) if !properties.contains_key(name) => self.errors.push(
                    file,
                    item_at,
                    format!("required property {name:?} is not declared in `properties`"),
                ),
                Some(name) => names.push(name),
            }
        }
        Some(names)
    }
}

/// `title` and `description` of a schema, as documentation.
fn doc(schema: &Value) -> Option<String> {
    let text = |key| schema.get(key).and_then(Value::as_str).map(str::trim).filter(|s| !s.is_empty());
    match (text("title"), text("description")) {
        (Some(title), Some(description)) => Some(format!("{title}\n\n{description}")),
        (one, other) => one.or(other).map(str::to_owned),
    }
}
