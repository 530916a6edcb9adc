//! A shape as a TypeScript type. JSON has more kinds of value than plain
//! JavaScript can tell apart, so three shapes map to runtime types: a
//! free-form value (`concord.JsonValue`), a map (`concord.JsonMap`, a `Map`,
//! which keeps integer-like keys in input order) and a float that must stay
//! a float where an integer could stand beside it (`concord.JsonFloat`).

use super::Emitter;
use crate::model::Shape;

impl Emitter<'_> {
    /// The TypeScript type of values of `shape`.
    pub(super) fn type_of(&self, shape: &Shape) -> String {
        match shape {
            Shape::Any => self.runtime("JsonValue"),
            Shape::Null => "null".to_owned(),
            Shape::Bool => "boolean".to_owned(),
            Shape::Integer | Shape::Number => "number".to_owned(),
            Shape::String => "string".to_owned(),
            Shape::Array(items) => format!("{}[]", self.element(items)),
            Shape::Map(values) => format!("{}<{}>", self.runtime("JsonMap"), self.type_of(values)),
            Shape::Tuple(items) => format!("[{}]", items.iter().map(|item| self.type_of(item)).collect::<Vec<_>>().join(", ")),
            Shape::Nullable(inner) => format!("{} | null", self.type_of(inner)),
            Shape::Named(id) => self.type_name(*id),
            Shape::Checked(inner, _) => self.type_of(inner),
        }
    }

    /// An array's item type, parenthesized where it is a union.
    fn element(&self, shape: &Shape) -> String {
        let spelled = self.type_of(shape);
        if spelled.contains(" | ") {
            format!("({spelled})")
        } else {
            spelled
        }
    }

    /// A union branch's type: a `number` branch beside an `integer` one is
    /// `number | JsonFloat`, since `5.0` must be written back as read.
    pub(super) fn branch_type(&self, shape: &Shape, beside_integer: bool) -> String {
        if beside_integer && matches!(strip(shape), Shape::Number) {
            return format!("number | {}", self.runtime("JsonFloat"));
        }
        self.type_of(shape)
    }
}

/// `shape` without its checks.
fn strip(shape: &Shape) -> &Shape {
    match shape {
        Shape::Checked(inner, _) => strip(inner),
        other => other,
    }
}
