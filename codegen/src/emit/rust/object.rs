//! An object type: a struct of its fields (an optional one as an `Option`),
//! the catch-all its unknown-key policy keeps, an envelope's version
//! constants; and its `object!` line: each field's JSON name, presence and
//! check, the policy, the property count, the version.

use super::checks::Checks;
use super::docs::docs;
use super::{field_ident, type_ident, Emitter};
use crate::model::{Presence, Struct, TypeId, UnknownKeys};
use crate::naming::rust as ident;
use proc_macro2::{Ident, Literal, TokenStream};
use quote::{format_ident, quote};

impl Emitter<'_> {
    pub(super) fn object_declaration(&self, id: TypeId, body: &Struct, doc: &TokenStream) -> TokenStream {
        let def = self.model.get(id);
        let name = type_ident(self.model, id);
        let fields = body.fields.iter().map(|field| {
            let doc = docs(&field.doc);
            let attrs = self.placed.on_field(id, &field.json_name);
            let ident = field_ident(&field.word);
            let ty = self.rust_type(&field.shape, Some(id));
            let ty = match field.presence {
                Presence::Required => ty,
                Presence::Optional | Presence::OptionalNullable => quote! { Option<#ty> },
            };
            let allow = super::types::complex(&ty);
            quote! { #doc #attrs #allow pub #ident: #ty, }
        });
        let extra_field = catch_all(body).map(|catch_all| {
            let (value, doc) = match &body.unknown_keys {
                UnknownKeys::Typed(shape) => {
                    (self.rust_type(shape, Some(id)), "Entries beyond the declared properties (`additionalProperties`), in the order read.")
                }
                UnknownKeys::Matching(_) => (
                    quote! { ::concord_runtime::Value },
                    "Keys that match `patternProperties`, kept in the order read and written back after the declared ones (other unknown keys are dropped).",
                ),
                _ => (quote! { ::concord_runtime::Value }, "Keys this type does not declare, kept in the order read and written back after the declared ones."),
            };
            let doc = format!(" {doc}");
            quote! { #[doc = #doc] pub #catch_all: ::concord_runtime::IndexMap<String, #value>, }
        });
        let versions = body.version.as_ref().map(|version| {
            let (all, current) = crate::naming::version_constants(&def.name);
            let (all, current) = (format_ident!("{all}"), format_ident!("{current}"));
            let supported = version.supported.iter().map(|v| Literal::i64_unsuffixed(*v));
            let latest = Literal::i64_unsuffixed(version.current());
            let all_doc = format!(" The versions of `{}` this binding reads (`{}`); any other is refused as `unsupported-version`.", def.name, version.field);
            let current_doc = format!(" The current version of `{}`: the largest supported, for new envelopes.", def.name);
            quote! {
                #[doc = #all_doc]
                pub const #all: &[i64] = &[#(#supported),*];
                #[doc = #current_doc]
                pub const #current: i64 = #latest;
            }
        });
        quote! {
            #doc
            #[derive(Clone, Debug, PartialEq)]
            pub struct #name {
                #(#fields)*
                #extra_field
            }

            #versions
        }
    }

    pub(super) fn object_implementation(&self, id: TypeId, body: &Struct, checks: &mut Checks) -> String {
        let def = self.model.get(id);
        let name = type_ident(self.model, id);
        let fields: Vec<String> = body
            .fields
            .iter()
            .map(|field| {
                let presence = if field.presence.is_required() { "required" } else { "optional" };
                let checked = checks.of(&field.word, &field.shape);
                format!("        {}: {} {presence}{checked},\n", field_ident(&field.word), Literal::string(&field.json_name))
            })
            .collect();
        let unknown = match (&body.unknown_keys, catch_all(body)) {
            (UnknownKeys::Drop, _) => "drop".to_owned(),
            (UnknownKeys::Refuse, _) => "refuse".to_owned(),
            (UnknownKeys::Typed(shape), Some(catch_all)) => {
                let checked = checks.of(&catch_all.to_string(), shape);
                format!("keep {catch_all}{checked}")
            }
            (UnknownKeys::Matching(patterns), Some(catch_all)) => {
                let patterns: Vec<String> = patterns.iter().map(|pattern| Literal::string(&pattern.regex).to_string()).collect();
                format!("keep {catch_all} matching [{}]", patterns.join(", "))
            }
            (_, catch_all) => format!("keep {}", catch_all.expect("a policy that keeps has a catch-all")),
        };
        let mut text = format!("::concord_runtime::object! {{\n    {name} {};\n    fields {{\n", Literal::string(&def.name));
        text.push_str(&fields.concat());
        text.push_str(&format!("    }}\n    unknown {unknown};\n"));
        if let Some(count) = &body.property_count {
            text.push_str(&format!("    count {}, {};\n", count_text(&count.min), count_text(&count.max)));
        }
        if let Some(version) = &body.version {
            let (all, _) = crate::naming::version_constants(&def.name);
            let holder =
                body.fields.iter().find(|f| f.json_name == version.field).map(|f| field_ident(&f.word)).expect("the version property is a declared field");
            text.push_str(&format!("    version {} in {all}, holder {holder};\n", Literal::string(&version.field)));
        }
        text.push_str("}\n");
        text
    }
}

/// The field that holds an object's kept unknown keys, if its policy keeps them.
fn catch_all(body: &Struct) -> Option<Ident> {
    match body.unknown_keys {
        UnknownKeys::Keep | UnknownKeys::Typed(_) | UnknownKeys::Matching(_) => {
            let names: Vec<String> = body.fields.iter().map(|field| ident::field(&field.word)).collect();
            Some(format_ident!("{}", ident::catch_all(names.iter().map(|name| name.trim_start_matches("r#")))))
        }
        UnknownKeys::Drop | UnknownKeys::Refuse => None,
    }
}

fn count_text(bound: &Option<u64>) -> String {
    match bound {
        Some(bound) => format!("Some({bound})"),
        None => "None".to_owned(),
    }
}
