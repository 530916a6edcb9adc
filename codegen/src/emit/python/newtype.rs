//! A type that holds its value as a type of its own: a registry root that
//! is no object type (a string, an array, an enum, a union, ...), or an
//! alias that holds itself, written as a `concord_runtime.RootModel` of what
//! it holds, so that it is a record of its own (`from_json`, `to_json`).

use super::layout::{self, Expr};
use super::text::docstring;
use super::Emitter;
use crate::model::{TypeId, TypeKind};

impl Emitter<'_> {
    /// What a wrapped type holds, as the parameter of its `RootModel`;
    /// `None` for a type that is no newtype.
    pub(super) fn root_value(&self, id: TypeId, pending: &[String]) -> Option<Expr> {
        let def = self.model.get(id);
        if !def.wrapped {
            return None;
        }
        Some(match &def.kind {
            TypeKind::Enum(values) => self.literal(values),
            TypeKind::Alias(shape) => layout::quote_pending(self.python_type(shape), pending),
            TypeKind::Union(body) => self.union_type(body, pending),
            TypeKind::OpenEnum(open) => self.open_enum(&open.values),
            TypeKind::TypedId(prefix) => self.typed_id(prefix),
            TypeKind::Struct(_) => return None,
        })
    }

    /// `class Name(concord_runtime.RootModel[inner])` with its docs and record constants.
    pub(super) fn root_class(&self, id: TypeId, inner: Expr) -> String {
        let def = self.model.get(id);
        let mut out = layout::class_head(&self.class_name(id), &Expr::subscript(self.runtime("RootModel"), vec![inner]));
        if def.doc.is_some() {
            out.push_str(&docstring(&def.doc, "    "));
            out.push('\n');
        }
        out.push_str(&self.record_constants(id));
        out
    }
}
