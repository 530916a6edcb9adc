//! A typed id (`"x-typed-id": prefix`): a newtype of the string, and its
//! `typed_id!` line, which reads only `<prefix>_<lowercase UUIDv7>`.

use super::{type_ident, Emitter};
use crate::model::TypeId;
use proc_macro2::{Literal, TokenStream};
use quote::quote;

impl Emitter<'_> {
    pub(super) fn typed_id_declaration(&self, id: TypeId, doc: &TokenStream) -> TokenStream {
        let name = type_ident(self.model, id);
        quote! {
            #doc
            #[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
            pub struct #name(String);
        }
    }

    pub(super) fn typed_id_implementation(&self, id: TypeId, prefix: &str) -> String {
        format!("::concord_runtime::typed_id!({}, {});\n", type_ident(self.model, id), Literal::string(prefix))
    }
}
