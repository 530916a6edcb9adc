//! Writes the model as Rust: serde structs, enums and aliases that name only
//! `::concord_runtime` and `::std`, formatted by prettyplease.

pub mod ident;

use crate::model::{Field, Model, Shape, Struct, TypeDef, TypeId, TypeKind, UnknownKeys};
use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};

/// The whole registry as one Rust module (to `include!` or to check in).
pub fn module(model: &Model) -> String {
    let items = model.ids().map(|id| item(model, id));
    format_file(quote! { #(#items)* })
}

/// A `main` for `concord roundtrip`: reads `Name\tpath` lines on stdin and
/// answers each with one JSON line, `{"ok": output, "digest": digest}` or
/// `{"error": message}`.
pub fn roundtrip_main(model: &Model) -> String {
    let arms = model.ids().filter(|id| model.get(*id).is_root).map(|id| {
        let name = &model.get(id).name;
        let ty = type_ident(model, id);
        quote! { #name => roundtrip::<bindings::#ty>(&bytes), }
    });
    format_file(quote! {
        #[allow(clippy::all, dead_code)]
        mod bindings {
            include!("bindings.rs");
        }
        use ::concord_runtime::Record;
        use ::std::io::BufRead;

        fn roundtrip<T: Record>(bytes: &[u8]) -> ::concord_runtime::Value {
            let record = match T::from_json(bytes) {
                Ok(record) => record,
                Err(error) => return ::concord_runtime::serde_json::json!({ "error": error.to_string() }),
            };
            let digest = match record.digest() {
                Ok(digest) => digest,
                Err(error) => format!("no digest: {error}"),
            };
            match record.to_json() {
                Ok(bytes) => ::concord_runtime::serde_json::json!({ "ok": String::from_utf8_lossy(&bytes), "digest": digest }),
                Err(error) => ::concord_runtime::serde_json::json!({ "error": error.to_string() }),
            }
        }

        fn main() {
            for line in ::std::io::stdin().lock().lines() {
                let line = line.expect("stdin is readable");
                let (name, path) = line.split_once('\t').expect("a line is NAME<TAB>PATH");
                let bytes = ::std::fs::read(path).expect("the fixture is readable");
                let answer = match name {
                    #(#arms)*
                    other => ::concord_runtime::serde_json::json!({ "error": format!("no root type {other}") }),
                };
                println!("{answer}");
            }
        }
    })
}

fn format_file(tokens: TokenStream) -> String {
    let file: syn::File = syn::parse2(tokens).expect("the Rust emitter writes valid Rust");
    let mut out = format!("// {}\n\n", super::HEADER);
    // prettyplease puts items right under each other; a blank line between
    // top-level items reads better.
    let mut item_ended = false;
    for line in prettyplease::unparse(&file).lines() {
        if item_ended && !line.starts_with([' ', '}', ')', ']']) {
            out.push('\n');
        }
        item_ended = line == "}" || (!line.starts_with(' ') && line.ends_with(';'));
        out.push_str(line);
        out.push('\n');
    }
    out
}

fn type_ident(model: &Model, id: TypeId) -> Ident {
    Ident::new(&ident::type_name(&model.get(id).name), Span::call_site())
}

fn field_ident(word: &str) -> Ident {
    let name = ident::field(word);
    match name.strip_prefix("r#") {
        Some(raw) => Ident::new_raw(raw, Span::call_site()),
        None => Ident::new(&name, Span::call_site()),
    }
}

fn docs(doc: &Option<String>) -> TokenStream {
    let lines = doc.iter().flat_map(|text| text.lines()).map(|line| {
        let line = format!(" {}", line.trim_end());
        quote! { #[doc = #line] }
    });
    quote! { #(#lines)* }
}

fn item(model: &Model, id: TypeId) -> TokenStream {
    let def = model.get(id);
    let name = type_ident(model, id);
    let doc = docs(&def.doc);
    match &def.kind {
        TypeKind::Struct(fields) => structure(model, id, def, fields),
        TypeKind::Enum(values) => {
            let variants = values.iter().map(|value| {
                let variant = Ident::new(&ident::type_name(&value.word), Span::call_site());
                let json = &value.value;
                quote! { #[serde(rename = #json)] #variant, }
            });
            quote! {
                #doc
                #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, ::concord_runtime::serde::Serialize, ::concord_runtime::serde::Deserialize)]
                #[serde(crate = "::concord_runtime::serde")]
                pub enum #name { #(#variants)* }
            }
        }
        TypeKind::Alias(shape) => {
            let ty = rust_type(model, shape, None);
            quote! { #doc pub type #name = #ty; }
        }
    }
}

fn structure(model: &Model, id: TypeId, def: &TypeDef, body: &Struct) -> TokenStream {
    let name = type_ident(model, id);
    let doc = docs(&def.doc);
    let fields = body.fields.iter().map(|field| struct_field(model, id, field));
    let catch_all = ident::catch_all(body.fields.iter().map(|f| ident::field(&f.word)).collect::<Vec<_>>().iter().map(String::as_str));
    let catch_all = format_ident!("{}", catch_all);
    let (container, extra) = match &body.unknown_keys {
        UnknownKeys::Drop => (quote! {}, quote! {}),
        UnknownKeys::Refuse => (quote! { #[serde(deny_unknown_fields)] }, quote! {}),
        UnknownKeys::Keep => (
            quote! {},
            quote! {
                /// Keys this type does not declare, kept in the order read and written back after the declared ones.
                #[serde(flatten)]
                pub #catch_all: ::concord_runtime::IndexMap<String, ::concord_runtime::Value>,
            },
        ),
        UnknownKeys::Typed(shape) => {
            let value = rust_type(model, shape, Some(id));
            (
                quote! {},
                quote! {
                    /// Entries beyond the declared properties (`additionalProperties`), in the order read.
                    #[serde(flatten)]
                    pub #catch_all: ::concord_runtime::IndexMap<String, #value>,
                },
            )
        }
    };
    let record_name = &def.name;
    let digest = &def.schema_digest;
    quote! {
        #doc
        #[derive(Clone, Debug, PartialEq, ::concord_runtime::serde::Serialize, ::concord_runtime::serde::Deserialize)]
        #[serde(crate = "::concord_runtime::serde")]
        #container
        pub struct #name {
            #(#fields)*
            #extra
        }

        impl ::concord_runtime::Record for #name {
            const NAME: &'static str = #record_name;
            const SCHEMA_DIGEST: &'static str = #digest;
        }
    }
}

fn struct_field(model: &Model, owner: TypeId, field: &Field) -> TokenStream {
    let doc = docs(&field.doc);
    let name = field_ident(&field.word);
    let ty = rust_type(model, &field.shape, Some(owner));
    let mut serde = Vec::new();
    if name.to_string().trim_start_matches("r#") != field.json_name {
        let json = &field.json_name;
        serde.push(quote! { rename = #json });
    }
    let ty = if field.required {
        if field.shape.admits_null(model) {
            serde.push(quote! { deserialize_with = "::concord_runtime::de::required" });
        }
        ty
    } else {
        serde.push(quote! {
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "::concord_runtime::de::present"
        });
        quote! { Option<#ty> }
    };
    let attribute = (!serde.is_empty()).then(|| quote! { #[serde(#(#serde),*)] });
    quote! { #doc #attribute pub #name: #ty, }
}

/// The Rust type of a shape. `owner` is the struct holding it: a named type
/// that contains the owner again without a `Vec` or map between is boxed.
fn rust_type(model: &Model, shape: &Shape, owner: Option<TypeId>) -> TokenStream {
    match shape {
        Shape::Any => quote! { ::concord_runtime::Value },
        Shape::Null => quote! { () },
        Shape::Bool => quote! { bool },
        Shape::Integer => quote! { i64 },
        Shape::Number => quote! { f64 },
        Shape::String => quote! { String },
        Shape::Array(item) => {
            let item = rust_type(model, item, None);
            quote! { Vec<#item> }
        }
        Shape::Map(value) => {
            let value = rust_type(model, value, None);
            quote! { ::concord_runtime::IndexMap<String, #value> }
        }
        Shape::Nullable(inner) => {
            let inner = rust_type(model, inner, owner);
            quote! { Option<#inner> }
        }
        Shape::Named(id) => {
            let name = type_ident(model, *id);
            match owner {
                Some(owner) if contains_directly(model, *id, owner, &mut vec![]) => quote! { Box<#name> },
                _ => quote! { #name },
            }
        }
    }
}

/// Whether a value of type `from` holds a value of type `target` inline
/// (through fields, options and aliases, but not through a `Vec` or map).
fn contains_directly(model: &Model, from: TypeId, target: TypeId, seen: &mut Vec<TypeId>) -> bool {
    if from == target {
        return true;
    }
    if seen.contains(&from) {
        return false;
    }
    seen.push(from);
    let inline = |shape: &Shape| -> Option<TypeId> {
        let mut shape = shape;
        while let Shape::Nullable(inner) = shape {
            shape = inner;
        }
        match shape {
            Shape::Named(id) => Some(*id),
            _ => None,
        }
    };
    let next: Vec<TypeId> = match &model.get(from).kind {
        TypeKind::Struct(body) => body.fields.iter().filter_map(|f| inline(&f.shape)).collect(),
        TypeKind::Alias(shape) => inline(shape).into_iter().collect(),
        TypeKind::Enum(_) => vec![],
    };
    next.into_iter().any(|id| contains_directly(model, id, target, seen))
}
