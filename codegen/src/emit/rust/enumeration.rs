//! A string `enum` (closed: a Rust enum of its values) and an open one
//! (`"x-open-enum"`: its values and a variant that keeps any other string),
//! with their `enumeration!` and `open_enumeration!` lines.

use super::docs::value_doc;
use super::{macro_call, type_ident, variant_ident, Emitter};
use crate::model::{EnumValue, OpenEnum, TypeId};
use proc_macro2::{Literal, TokenStream};
use quote::quote;

impl Emitter<'_> {
    pub(super) fn enumeration_declaration(&self, id: TypeId, values: &[EnumValue], doc: &TokenStream) -> TokenStream {
        let name = type_ident(self.model, id);
        let variants = values.iter().map(|value| variant_ident(&value.word));
        let variant_docs = values.iter().map(|value| value_doc(&value.value));
        quote! {
            #doc
            #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
            pub enum #name { #(#variant_docs #variants,)* }
        }
    }

    pub(super) fn enumeration_implementation(&self, id: TypeId, values: &[EnumValue]) -> String {
        let name = type_ident(self.model, id);
        macro_call("enumeration", &format!("{name} {{"), &variants(values), "})")
    }

    pub(super) fn open_enumeration_declaration(&self, id: TypeId, open: &OpenEnum, doc: &TokenStream) -> TokenStream {
        let name = type_ident(self.model, id);
        let variants = open.values.iter().map(|value| variant_ident(&value.word));
        let variant_docs = open.values.iter().map(|value| value_doc(&value.value));
        let catch_all = variant_ident(&open.catch_all);
        quote! {
            #doc
            #[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
            pub enum #name {
                #(#variant_docs #variants,)*
                /// Any other string, kept as read and written back unchanged.
                #catch_all(String),
            }
        }
    }

    pub(super) fn open_enumeration_implementation(&self, id: TypeId, open: &OpenEnum) -> String {
        let name = type_ident(self.model, id);
        macro_call("open_enumeration", &format!("{name} {{"), &variants(&open.values), &format!("}} else {})", variant_ident(&open.catch_all)))
    }
}

/// `Variant = "value"`, for the macro line.
fn variants(values: &[EnumValue]) -> Vec<String> {
    values.iter().map(|value| format!("{} = {}", variant_ident(&value.word), Literal::string(&value.value))).collect()
}
