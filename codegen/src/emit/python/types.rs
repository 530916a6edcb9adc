//! How a shape is spelled as a Python annotation: builtins, the runtime's
//! `Int64`, another entry's type through its module, and a value's
//! assertions as `Annotated` metadata.

use super::layout::Expr;
use super::text::{float_literal, string_literal};
use super::Emitter;
use crate::model::{Check, Shape, TypeKind};

impl Emitter<'_> {
    pub(super) fn python_type(&self, shape: &Shape) -> Expr {
        let model = self.model;
        match shape {
            Shape::Any => Expr::text(self.typing("Any")),
            Shape::Null => Expr::text("None"),
            Shape::Bool => Expr::text("bool"),
            Shape::Integer => Expr::text(self.runtime("Int64")),
            Shape::Number => Expr::text("float"),
            Shape::String => Expr::text("str"),
            Shape::Array(item) => Expr::subscript("list", vec![self.python_type(item)]),
            // Not strict as a container: behind a before-validator (`NotNull`) a JSON
            // array reaches it as a list, which a strict tuple refuses whole; its
            // elements stay strict, and a JSON string or object is still refused.
            Shape::Tuple(items) => Expr::subscript(
                self.typing("Annotated"),
                vec![
                    Expr::subscript("tuple", items.iter().map(|item| self.python_type(item)).collect()),
                    Expr::call(self.pydantic("Strict"), vec![Expr::text("False")]),
                ],
            ),
            Shape::Map(value) => Expr::subscript("dict", vec![Expr::text("str"), self.python_type(value)]),
            // A shape that holds null already (an alias of `None`, a union with a
            // null branch) takes no `| None`: `None | None` is a TypeError.
            Shape::Nullable(inner) if self.holds_none(inner) => self.python_type(inner),
            Shape::Nullable(inner) => Expr::union(vec![self.python_type(inner), Expr::text("None")]),
            // Another entry's type: by its module, which the module imports.
            Shape::Named(id) if model.get(*id).module != self.module => {
                Expr::text(format!("_{}.{}", super::ident::module(&model.modules[model.get(*id).module].word), self.class_name(*id)))
            }
            Shape::Named(id) => Expr::text(self.class_name(*id)),
            Shape::Checked(inner, checks) => {
                let mut items = vec![self.python_type(inner)];
                items.extend(self.constraints(checks));
                Expr::subscript(self.typing("Annotated"), items)
            }
        }
    }

    /// A shape's assertions as `Annotated` metadata: pydantic's own constraints
    /// where its rule is JSON Schema's (code-point lengths, bounds, the `regex`
    /// crate), else the runtime's checks, which run the Rust runtime's code.
    fn constraints(&self, checks: &[Check]) -> Vec<Expr> {
        let mut field: Vec<Expr> = Vec::new();
        let mut validators: Vec<Expr> = Vec::new();
        let count = |min: &Option<u64>, max: &Option<u64>, field: &mut Vec<Expr>| {
            field.extend(min.map(|min| Expr::keyword("min_length", Expr::text(min.to_string()))));
            field.extend(max.map(|max| Expr::keyword("max_length", Expr::text(max.to_string()))));
        };
        let validator = |check: Expr| Expr::call(self.pydantic("AfterValidator"), vec![check]);
        for check in checks {
            match check {
                Check::Length { min, max } | Check::Items { min, max } | Check::Properties { min, max } => count(min, max, &mut field),
                Check::Pattern { regex, .. } => field.push(Expr::keyword("pattern", Expr::text(string_literal(regex)))),
                Check::IntegerRange { min, max } => {
                    field.push(Expr::keyword("ge", Expr::text(min.to_string())));
                    field.push(Expr::keyword("le", Expr::text(max.to_string())));
                }
                Check::IntegerMultipleOf(divisor) => field.push(Expr::keyword("multiple_of", Expr::text(divisor.to_string()))),
                Check::NumberRange { minimum, exclusive_minimum, maximum, exclusive_maximum } => {
                    for (name, bound) in [("ge", minimum), ("gt", exclusive_minimum), ("le", maximum), ("lt", exclusive_maximum)] {
                        field.extend(bound.map(|bound| Expr::keyword(name, Expr::text(float_literal(bound)))));
                    }
                }
                Check::NumberMultipleOf(divisor) => {
                    validators.push(validator(Expr::call(self.runtime("checks.multiple_of"), vec![Expr::text(string_literal(divisor))])))
                }
                Check::UniqueItems => validators.push(validator(Expr::text(self.runtime("checks.unique_items")))),
            }
        }
        let field = (!field.is_empty()).then(|| Expr::call(self.pydantic("Field"), field));
        field.into_iter().chain(validators).collect()
    }

    /// Whether `None` is a value of a shape's annotation, as mypy reads it: as
    /// [`Shape::admits_null`], except that a registry root is a class of its own
    /// (a `RootModel`), whatever it holds.
    pub(super) fn holds_none(&self, shape: &Shape) -> bool {
        let model = self.model;
        let mut shape = shape;
        loop {
            match shape {
                Shape::Any | Shape::Null | Shape::Nullable(_) => return true,
                Shape::Checked(inner, _) => shape = inner,
                Shape::Named(id) if model.get(*id).wrapped => return false,
                Shape::Named(id) => match &model.get(*id).kind {
                    TypeKind::Alias(aliased) => shape = aliased,
                    TypeKind::Union(union) => return union.branches.iter().any(|branch| branch.key == "null"),
                    _ => return false,
                },
                _ => return false,
            }
        }
    }
}
