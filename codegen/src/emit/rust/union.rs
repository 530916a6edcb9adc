//! A union: an enum of its branches, each held inline, as a serde user
//! writes one; and its `union!` line, which says how a branch is picked (by
//! its tag's value or by the JSON type) and each branch's check.

use super::checks::Checks;
use super::docs::docs;
use super::{macro_call, type_ident, variant_ident, Emitter};
use crate::model::{Choice, TypeId, Union};
use proc_macro2::{Literal, TokenStream};
use quote::quote;

impl Emitter<'_> {
    pub(super) fn union_declaration(&self, id: TypeId, body: &Union, doc: &TokenStream) -> TokenStream {
        let name = type_ident(self.model, id);
        let variants = body.branches.iter().map(|branch| variant_ident(&branch.word));
        let variant_docs = body.branches.iter().map(|branch| {
            let what = match &body.choice {
                Choice::Tag(property) => format!("`{property}` is `{}`", branch.key.replace('`', "'")),
                Choice::JsonType => format!("a JSON {}", branch.key),
            };
            docs(&Some(format!("When {what}.")))
        });
        // Branches are held inline, as a serde user writes a union; an
        // object branch may well be larger than a string branch.
        let types: Vec<TokenStream> = body.branches.iter().map(|branch| self.rust_type(&branch.shape, Some(id))).collect();
        let allows = types.iter().map(super::types::complex);
        quote! {
            #doc
            #[derive(Clone, Debug, PartialEq)]
            #[allow(clippy::large_enum_variant)]
            pub enum #name { #(#variant_docs #allows #variants(#types),)* }
        }
    }

    pub(super) fn union_implementation(&self, id: TypeId, body: &Union, checks: &mut Checks) -> String {
        let name = type_ident(self.model, id);
        let by = match &body.choice {
            Choice::Tag(property) => format!("tag {}", Literal::string(property)),
            Choice::JsonType => "json_type".to_owned(),
        };
        let branches: Vec<String> = body
            .branches
            .iter()
            .enumerate()
            .map(|(index, branch)| {
                let checked = checks.of(&crate::naming::words::snake(&branch.word), &branch.shape);
                format!("{index} {} = {}{checked}", variant_ident(&branch.word), Literal::string(&branch.key))
            })
            .collect();
        macro_call("union", &format!("{name} by {by} {{"), &branches, "})")
    }
}
