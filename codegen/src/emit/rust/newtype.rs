//! What an alias becomes: a type alias where it only names a shape, and a
//! newtype (with its `newtype!` line and check) where it is a type of its
//! own: a registry root that is no object type (an array, a string, ...),
//! so that it is a `Record` of its own, or a shape that holds itself.

use super::checks::Checks;
use super::{type_ident, Emitter};
use crate::model::{Shape, TypeId};
use proc_macro2::TokenStream;
use quote::quote;

impl Emitter<'_> {
    pub(super) fn newtype_declaration(&self, id: TypeId, shape: &Shape, doc: &TokenStream) -> TokenStream {
        let name = type_ident(self.model, id);
        let ty = self.rust_type(shape, Some(id));
        quote! {
            #doc
            #[derive(Clone, Debug, PartialEq)]
            pub struct #name(pub #ty);
        }
    }

    pub(super) fn newtype_implementation(&self, id: TypeId, shape: &Shape, checks: &mut Checks) -> String {
        let name = type_ident(self.model, id);
        let checked = checks.of("", shape);
        format!("::concord_runtime::newtype!({name}{checked});\n")
    }

    /// An alias has no implementation: its shape's own.
    pub(super) fn alias_declaration(&self, id: TypeId, shape: &Shape, doc: &TokenStream) -> TokenStream {
        let name = type_ident(self.model, id);
        let ty = self.rust_type(shape, None);
        quote! { #doc pub type #name = #ty; }
    }
}
