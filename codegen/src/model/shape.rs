//! The shape of a value, and the assertions on it no type expresses.

use super::{Model, TypeId, TypeKind};

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
    /// A shape with assertions every value must meet.
    Checked(Box<Shape>, Vec<Check>),
    /// `prefixItems` with `items: false` and as many `minItems`: an array of
    /// exactly these, each of its own shape. Named types are not among them
    /// (the reader leaves such tuples to the assertion engine).
    Tuple(Vec<Shape>),
}

/// An assertion on a value, applied in both languages alike. Each applies to
/// one JSON type, and the reader attaches it only to shapes of that type.
#[derive(Clone, Debug, PartialEq)]
pub enum Check {
    /// String length bounds, in Unicode code points.
    Length { min: Option<u64>, max: Option<u64> },
    /// `pattern`: the schema's ECMA-262 text, and the same pattern in the
    /// syntax of Rust's `regex` crate, which both languages run.
    Pattern { ecma: String, regex: String },
    /// Integer bounds, inclusive, already narrowed to the safe range.
    IntegerRange { min: i64, max: i64 },
    /// `multipleOf` on integers: a multiple of this (> 1).
    IntegerMultipleOf(u64),
    /// Number bounds, as the schema gives them.
    NumberRange { minimum: Option<f64>, exclusive_minimum: Option<f64>, maximum: Option<f64>, exclusive_maximum: Option<f64> },
    /// `multipleOf` on numbers: the divisor's decimal text, compared exactly.
    NumberMultipleOf(String),
    /// Array length bounds.
    Items { min: Option<u64>, max: Option<u64> },
    /// `uniqueItems: true`.
    UniqueItems,
    /// Object size bounds, counting every key of the input.
    Properties { min: Option<u64>, max: Option<u64> },
}

impl Shape {
    /// Whether `null` is a value of this shape.
    pub fn admits_null(&self, model: &Model) -> bool {
        // A loop, not recursion: a chain of 100,000 aliases must not overflow
        // the stack; bounded, for a cycle of aliases (which `check` refuses).
        let mut shape = self;
        for _ in 0..=model.types.len() {
            match shape {
                Shape::Any | Shape::Null | Shape::Nullable(_) => return true,
                Shape::Checked(inner, _) => shape = inner,
                Shape::Named(id) => match &model.get(*id).kind {
                    TypeKind::Alias(aliased) => shape = aliased,
                    TypeKind::Union(union) => return union.branches.iter().any(|branch| branch.key == "null"),
                    TypeKind::Struct(_) | TypeKind::Enum(_) => return false,
                    TypeKind::OpenEnum(_) | TypeKind::TypedId(_) => return false,
                },
                _ => return false,
            }
        }
        false
    }
}

impl Shape {
    /// Every named type in it, given its new id (the model dropped some).
    pub fn renumber(&mut self, map: &impl Fn(TypeId) -> TypeId) {
        match self {
            Shape::Array(inner) | Shape::Map(inner) | Shape::Nullable(inner) | Shape::Checked(inner, _) => inner.renumber(map),
            Shape::Tuple(items) => items.iter_mut().for_each(|item| item.renumber(map)),
            Shape::Named(id) => *id = map(*id),
            Shape::Any | Shape::Null | Shape::Bool | Shape::Integer | Shape::Number | Shape::String => {}
        }
    }

    /// The named type this shape is, through nullables and checks only
    /// (not inside an array or a map).
    pub fn direct(&self) -> Option<TypeId> {
        match self {
            Shape::Nullable(inner) | Shape::Checked(inner, _) => inner.direct(),
            Shape::Named(id) => Some(*id),
            _ => None,
        }
    }

    /// The named types this shape refers to, at any depth of arrays, maps
    /// and nullables.
    pub fn named(&self) -> Option<TypeId> {
        match self {
            Shape::Array(inner) | Shape::Map(inner) | Shape::Nullable(inner) | Shape::Checked(inner, _) => inner.named(),
            Shape::Tuple(_) => None,
            Shape::Named(id) => Some(*id),
            _ => None,
        }
    }
}
