//! How a shape is spelled in Rust: the types a field, a branch or an alias
//! holds (a tuple is `(A, B,)`, a map an `IndexMap`), boxed where a type
//! would otherwise hold itself.

use super::{module_ident, type_ident, Emitter};
use crate::model::{Model, Shape, TypeId, TypeKind};
use proc_macro2::TokenStream;
use quote::quote;

impl Emitter<'_> {
    /// How a value of `shape` is held in Rust; `owner`, the type whose field
    /// or branch holds it, which holds a type of its own cycle in a `Box`.
    pub(super) fn rust_type(&self, shape: &Shape, owner: Option<TypeId>) -> TokenStream {
        let model = self.model;
        match shape {
            Shape::Any => quote! { ::concord_runtime::Value },
            Shape::Null => quote! { () },
            Shape::Bool => quote! { bool },
            Shape::Integer => quote! { i64 },
            Shape::Number => quote! { f64 },
            Shape::String => quote! { String },
            Shape::Array(item) => {
                let item = self.rust_type(item, None);
                quote! { Vec<#item> }
            }
            Shape::Tuple(items) => {
                let items = items.iter().map(|item| self.rust_type(item, None));
                quote! { (#(#items,)*) }
            }
            Shape::Map(value) => {
                let value = self.rust_type(value, None);
                quote! { ::concord_runtime::IndexMap<String, #value> }
            }
            Shape::Nullable(inner) => {
                let inner = self.rust_type(inner, owner);
                quote! { Option<#inner> }
            }
            Shape::Checked(inner, _) => self.rust_type(inner, owner),
            Shape::Named(id) if model.get(*id).module != self.module => {
                // Another entry's type: by its path from this entry's module.
                let (module, name) = (module_ident(model, model.get(*id).module), type_ident(model, *id));
                quote! { super::#module::#name }
            }
            Shape::Named(id) => {
                let name = type_ident(model, *id);
                match owner {
                    Some(owner) if self.boxed.same(*id, owner) => quote! { Box<#name> },
                    _ => quote! { #name },
                }
            }
        }
    }
}

/// The types that hold each other inline (through fields, options and
/// aliases, not through a `Vec` or map): the strongly connected components of
/// that graph. A field whose type is in its owner's component needs a `Box`.
pub(super) struct Components(Vec<usize>);

impl Components {
    pub(super) fn new(model: &Model) -> Self {
        let inline = |shape: &Shape| -> Option<TypeId> {
            let mut shape = shape;
            while let Shape::Nullable(inner) | Shape::Checked(inner, _) = shape {
                shape = inner;
            }
            match shape {
                Shape::Named(id) => Some(*id),
                _ => None,
            }
        };
        let successors = |id: TypeId| match &model.get(id).kind {
            TypeKind::Struct(body) => body.fields.iter().filter_map(|f| inline(&f.shape)).collect(),
            TypeKind::Alias(shape) => inline(shape).into_iter().collect(),
            TypeKind::Union(union) => union.branches.iter().filter_map(|b| inline(&b.shape)).collect(),
            TypeKind::Enum(_) => vec![],
            TypeKind::OpenEnum(_) | TypeKind::TypedId(_) => vec![],
        };
        let mut component = vec![0; model.types.len()];
        for (number, members) in crate::model::components(model.types.len(), model.ids(), successors).iter().enumerate() {
            for member in members {
                component[member.0] = number;
            }
        }
        Components(component)
    }

    fn same(&self, a: TypeId, b: TypeId) -> bool {
        self.0[a.0] == self.0[b.0]
    }
}

/// `#[allow(clippy::type_complexity)]` for a type nested four generics
/// deep or more (a nullable map of nullable arrays of nullable strings, as
/// the schema says it), which a user's clippy would flag; nothing otherwise.
pub(super) fn complex(ty: &TokenStream) -> TokenStream {
    let depth = ty.to_string().matches('<').count();
    if depth >= 4 {
        quote! { #[allow(clippy::type_complexity)] }
    } else {
        quote! {}
    }
}
