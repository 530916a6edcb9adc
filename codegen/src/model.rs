//! The one model both emitters read: named types, their fields, and each
//! object type's unknown-key policy. Nothing here is specific to Rust or
//! Python; names are kept as the schema spells them, plus the language-neutral
//! word forms (PascalCase types, snake_case fields) that each emitter adapts.

use std::path::PathBuf;

/// Every type of a registry, in a deterministic order: each schema file's
/// root type, then its `$defs` and inline types as they are met.
#[derive(Clone, Debug, Default)]
pub struct Model {
    pub types: Vec<TypeDef>,
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
    pub kind: TypeKind,
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
}

#[derive(Clone, Debug)]
pub struct Field {
    /// The property name exactly as in the schema (the JSON key).
    pub json_name: String,
    /// snake_case form of `json_name`, before language keyword escaping.
    pub word: String,
    pub doc: Option<String>,
    pub shape: Shape,
    pub required: bool,
    /// JSON pointer of the property's schema, for diagnostics.
    pub pointer: String,
}

/// The shape of a value.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// Any JSON value (`{}` or `true`), `null` included.
    Any,
    Null,
    Bool,
    /// A 64-bit signed integer, refused when written with a fraction or
    /// exponent, as a string or as a boolean.
    Integer,
    /// A 64-bit float.
    Number,
    String,
    Array(Box<Shape>),
    /// A JSON object used as a map from string keys to values, in input order.
    Map(Box<Shape>),
    /// `type: [X, "null"]`.
    Nullable(Box<Shape>),
    Named(TypeId),
}

impl Shape {
    /// Whether `null` is a value of this shape.
    pub fn admits_null(&self, model: &Model) -> bool {
        match self {
            Shape::Any | Shape::Null | Shape::Nullable(_) => true,
            Shape::Named(id) => match &model.get(*id).kind {
                TypeKind::Alias(shape) => shape.admits_null(model),
                TypeKind::Struct(_) | TypeKind::Enum(_) => false,
            },
            _ => false,
        }
    }
}
