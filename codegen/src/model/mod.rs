//! The one model both emitters read: named types, their fields, and each
//! object type's unknown-key policy. Nothing here is specific to Rust or
//! Python; names are kept as the schema spells them, plus the language-neutral
//! word forms (PascalCase types, snake_case fields) that each emitter adapts.

mod graph;
mod shape;

pub use graph::components;
pub use shape::{Check, Shape};
use std::path::PathBuf;

/// Every type of a registry, in a deterministic order: each schema file's
/// root type, then its `$defs` and inline types as they are met.
#[derive(Clone, Debug, Default)]
pub struct Model {
    /// One per registry entry, in registry order: each becomes a module in
    /// both languages, and names need only be unique within one.
    pub modules: Vec<Module>,
    pub types: Vec<TypeDef>,
}

/// A registry entry's namespace.
#[derive(Clone, Debug)]
pub struct Module {
    /// The entry's name in the bindings (PascalCase): its `name` in the
    /// registry, or `<name>V<version>` for an older version of a name.
    pub name: String,
    /// The entry's `name` and `version` as the registry lists them.
    pub entry: String,
    pub version: Option<u64>,
    /// snake_case form of the name, before language keyword escaping.
    pub word: String,
    pub file: PathBuf,
    /// The entry's root type; `None` for a document of `$defs` only.
    pub root: Option<TypeId>,
    /// The pinned schema text.
    pub text: String,
    /// The text's pinned digest (`sha256:<hex>`).
    pub digest: String,
    /// The document's base URI: its `$id`, else its path in the registry
    /// below `concord_runtime::pinned::BASE`.
    pub base: String,
    /// For a document without `$schema`, the meta-schema URI of the dialect
    /// the registry declares for it: the engine reads the pinned text in it.
    pub declared_dialect: Option<String>,
    /// The other entries its `$ref`s name (indexes into [`Model::modules`]).
    pub refers_to: Vec<usize>,
    /// Why its records are also checked by the assertion engine when read
    /// (`Pinning::Asserted`): the first keyword no type expresses, with its
    /// place, in its document or in one its `$ref`s reach.
    pub asserted_by: Option<String>,
}

impl Module {
    /// What the module holds, for its doc comment in both languages: "the
    /// registry entry `Evidence`", or "version 1 of the registry entry `Evidence`".
    pub fn describe(&self) -> String {
        let entry = self.entry.replace('`', "'");
        match self.version {
            Some(version) => format!("version {version} of the registry entry `{entry}`"),
            None => format!("the registry entry `{entry}`"),
        }
    }
}

/// An index into [`Model::types`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TypeId(pub usize);

impl Model {
    pub fn get(&self, id: TypeId) -> &TypeDef {
        &self.types[id.0]
    }

    pub fn ids(&self) -> impl Iterator<Item = TypeId> {
        (0..self.types.len()).map(TypeId)
    }

    /// Whether a type is a record of its own in both languages (`from_json`,
    /// `to_json`, `digest`): a registry root, or an object type.
    pub fn is_record(&self, id: TypeId) -> bool {
        let def = self.get(id);
        def.is_root || def.wrapped || matches!(def.kind, TypeKind::Struct(_))
    }

    /// The documents a module's records are checked against: its own first,
    /// then every entry its `$ref`s reach, directly or not (indexes into
    /// [`Model::modules`]). Their pinned texts travel with the bindings.
    pub fn documents(&self, module: usize) -> Vec<usize> {
        let mut reached = vec![module];
        let mut next = 0;
        while next < reached.len() {
            for &other in &self.modules[reached[next]].refers_to {
                if !reached.contains(&other) {
                    reached.push(other);
                }
            }
            next += 1;
        }
        reached
    }

    /// A type's name within the registry, `Entry.Type`: unique, where type
    /// names are unique only within their entry's module.
    pub fn label(&self, id: TypeId) -> String {
        let def = self.get(id);
        format!("{}.{}", self.modules[def.module].name, def.name)
    }
}

/// Where a type was declared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    pub file: PathBuf,
    pub pointer: String,
}

#[derive(Clone, Debug)]
pub struct TypeDef {
    /// PascalCase, the same in both languages before keyword escaping.
    pub name: String,
    pub origin: Origin,
    /// `title` and `description`, joined by a blank line.
    pub doc: Option<String>,
    /// The pinned digest of the schema file the type comes from.
    pub schema_digest: String,
    /// A registry root (its `name` in the index), not a `$defs` or inline type.
    pub is_root: bool,
    /// Whether an alias or a union is a type of its own that holds its
    /// shape (a Rust newtype or enum, a Python `RootModel`) rather than an
    /// alias of it: every registry root, whose records are of their own, and
    /// every alias or union that contains itself through arrays or maps
    /// (a tree), since an alias cannot name itself. Decided once every type
    /// is read (`lower::wrappers`); structs, enums and typed ids are types
    /// of their own anyway.
    pub wrapped: bool,
    /// The index of its module in [`Model::modules`].
    pub module: usize,
    /// What the type does with its place in the pinned schema.
    pub pinning: Pinning,
    pub kind: TypeKind,
}

/// What a type does with the pinned schema: the engine's one use of it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Pinning {
    /// No place of its own in its document (a merge or a union made it):
    /// the records around it carry the schema.
    #[default]
    None,
    /// A record type with a place of its own: its schema travels with the
    /// bindings and validates a value (`Pinned` in Rust, `SCHEMA` in Python).
    Pinned,
    /// Pinned, and reading a record also runs the assertion engine on its
    /// place, for what no type of its module expresses (`not`, `if`, ...).
    Asserted,
}

impl TypeDef {
    /// Whether its schema travels with the bindings (`Pinned`, `SCHEMA`).
    pub fn pinned(&self) -> bool {
        self.pinning != Pinning::None
    }

    /// Whether reading a record of it also runs the assertion engine.
    pub fn asserted(&self) -> bool {
        self.pinning == Pinning::Asserted
    }
}

#[derive(Clone, Debug)]
pub enum TypeKind {
    /// An object with declared properties.
    Struct(Struct),
    /// A string `enum` or `const`: the allowed values, in schema order.
    Enum(Vec<EnumValue>),
    /// Another name for a shape (a `$defs` entry that is not an object with
    /// properties, e.g. a typed map or a string).
    Alias(Shape),
    /// `oneOf`/`anyOf` (or a `type` list): one of several branches, chosen
    /// the same way in both languages (see [`Choice`]).
    Union(Union),
    /// A string `enum` with `"x-open-enum": true` (docs/extensions.md).
    OpenEnum(OpenEnum),
    /// A string with `"x-typed-id": prefix`: only `<prefix>_<lowercase
    /// UUIDv7>` is read (docs/extensions.md). Holds the prefix.
    TypedId(String),
}

#[derive(Clone, Debug)]
pub struct Union {
    pub branches: Vec<Branch>,
    pub choice: Choice,
}

#[derive(Clone, Debug)]
pub struct Branch {
    /// PascalCase name of the branch (its tag, or its JSON type).
    pub word: String,
    pub shape: Shape,
    /// The tag value that selects it ([`Choice::Tag`]) or its JSON type
    /// ([`Choice::JsonType`]): `string`, `integer`, `number`, `boolean`,
    /// `null`, `array` or `object`.
    pub key: String,
}

/// How a union picks its branch: never by trying branches in turn, which
/// serde and pydantic would each do their own way.
#[derive(Clone, Debug, PartialEq)]
pub enum Choice {
    /// Each branch is an object type that requires this property with its
    /// own constant string: the value of that property picks, wherever it
    /// stands in the object.
    Tag(String),
    /// The branches have distinct JSON types: the value's type picks (an
    /// integer goes to the `number` branch when there is no `integer` one).
    JsonType,
}

/// An enum that also keeps any other string, and writes it back unchanged.
#[derive(Clone, Debug)]
pub struct OpenEnum {
    /// The known values, in schema order.
    pub values: Vec<EnumValue>,
    /// PascalCase name of the variant that holds any other string:
    /// `Unrecognized`, unless a known value's word is that already.
    pub catch_all: String,
}

#[derive(Clone, Debug)]
pub struct EnumValue {
    pub value: String,
    /// PascalCase form of the value, for languages that name variants.
    pub word: String,
}

#[derive(Clone, Debug)]
pub struct Struct {
    pub fields: Vec<Field>,
    pub unknown_keys: UnknownKeys,
    /// How many keys the object may have (`minProperties`, `maxProperties`),
    /// counting every key of the input, dropped ones too.
    pub property_count: Option<Count>,
    /// `x-version-field`: the property that holds the envelope's version.
    pub version: Option<Version>,
}

/// Bounds on a count, inclusive; a `min` of 0 is left out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Count {
    pub min: Option<u64>,
    pub max: Option<u64>,
}

impl Struct {
    /// The object's own assertions as checks, for what compares them with
    /// those of other shapes (`concord diff`, the fuzzer).
    pub fn checks(&self) -> Vec<Check> {
        self.property_count.iter().map(|count| Check::Properties { min: count.min, max: count.max }).collect()
    }
}

/// An envelope's version (`x-version-field`): read before anything else;
/// any version outside `supported` is refused as `unsupported-version`.
#[derive(Clone, Debug)]
pub struct Version {
    /// The property's JSON name.
    pub field: String,
    /// The versions the schema lists (`enum` or `const`), in its order.
    pub supported: Vec<i64>,
}

impl Version {
    /// The current version: the largest supported one.
    pub fn current(&self) -> i64 {
        self.supported.iter().copied().max().unwrap_or_default()
    }
}

/// What an object type does with a key its schema does not declare.
#[derive(Clone, Debug)]
pub enum UnknownKeys {
    /// Default: accepted on read, absent on write.
    Drop,
    /// `additionalProperties: false`: refused, naming the key.
    Refuse,
    /// `x-growth-point: true`: kept verbatim and written back after the
    /// declared properties, in the order read.
    Keep,
    /// `additionalProperties: {schema}` beside properties: typed entries,
    /// kept in order like a growth point's.
    Typed(Shape),
    /// The default policy beside `patternProperties`: a key that matches
    /// one of these patterns is data, kept verbatim in the order read and
    /// written back like a growth point's; any other unknown key is dropped.
    Matching(Vec<Pattern>),
}

/// A `pattern` or `patternProperties` key: the schema's ECMA-262 text (what
/// a JavaScript runtime runs), and the same pattern in the syntax of Rust's
/// `regex` crate, which Rust and Python run (as [`Check::Pattern`] holds it).
#[derive(Clone, Debug, PartialEq)]
pub struct Pattern {
    pub ecma: String,
    pub regex: String,
}

#[derive(Clone, Debug)]
pub struct Field {
    /// The property name exactly as in the schema (the JSON key).
    pub json_name: String,
    /// snake_case form of `json_name`, before language keyword escaping.
    pub word: String,
    pub doc: Option<String>,
    pub shape: Shape,
    pub presence: Presence,
    /// JSON pointer of the property's schema, for diagnostics.
    pub pointer: String,
}

/// Whether a property must be present, and what null means when it may be
/// absent: both languages keep absent and null apart (absent is not written
/// back; null is a value). `default` is an annotation only: concord never
/// fills in an absent property.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Presence {
    /// Listed in `required`: a record without it is refused.
    Required,
    /// May be absent; when present, null is one of its values.
    OptionalNullable,
    /// May be absent; when present, an explicit null is refused.
    Optional,
}

impl Presence {
    pub fn is_required(self) -> bool {
        self == Presence::Required
    }
}
