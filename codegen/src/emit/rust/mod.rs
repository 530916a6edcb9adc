//! Writes the model as Rust: structs, enums and aliases with their own serde
//! impls (see `concord_runtime::bind` for why not derived), naming only
//! `::concord_runtime` and the prelude, formatted by prettyplease.

mod attributes;

use crate::naming::rust as ident;

pub use attributes::{Attributes, Matched};

use crate::model::{Check, Choice, EnumValue, Model, OpenEnum, Shape, Struct, TypeDef, TypeId, TypeKind, Union, UnknownKeys};
use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};

/// The whole registry as one Rust file (to `include!` or to check in): a
/// module per registry entry, each entry's root re-exported at the top.
pub fn module(model: &Model) -> String {
    module_placed(model, &attributes::Placed::default())
}

/// [`module`] with the user's attributes on its types and fields, and which
/// of them found a place; or why one of them cannot go where it says.
pub fn module_with(model: &Model, attributes: &Attributes) -> (Result<String, crate::error::Errors>, Matched) {
    let (placed, matched) = attributes::place(model, attributes);
    (placed.map(|placed| module_placed(model, &placed)), matched)
}

fn module_placed(model: &Model, placed: &attributes::Placed) -> String {
    let boxed = Components::new(model);
    let mut by_module: Vec<Vec<TypeId>> = vec![Vec::new(); model.modules.len()];
    for id in model.ids() {
        by_module[model.get(id).module].push(id);
    }
    // Formatted a type at a time: one syntax tree of the whole registry
    // would cost memory and time out of proportion to its size.
    let mut out = format!("// {}\n", super::HEADER);
    // The runtime these bindings were written for, and the features they need:
    // any other fails to compile here, saying what goes together.
    out.push_str(&format!("\n::concord_runtime::bindings_for!({:?});\n", super::VERSION));
    if model.types.iter().any(|def| def.asserted()) {
        out.push_str("::concord_runtime::requires_feature!(\"validate\");\n");
    }
    let documents = model.modules.iter().map(|module| {
        let (uri, digest, text) = (proc_macro2::Literal::string(&module.base), proc_macro2::Literal::string(&module.digest), text_literal(&module.text));
        format!("    ::concord_runtime::pinned::Document {{\n        uri: {uri},\n        digest: {digest},\n        text: {text},\n    }},\n")
    });
    out.push_str("\n/// The registry's schema files as pinned (base URI, digest, text), in registry order.\n");
    out.push_str(&format!("static PINNED: [::concord_runtime::pinned::Document; {}] = [\n{}];\n", model.modules.len(), documents.collect::<String>()));
    for (index, members) in by_module.iter().enumerate() {
        CURRENT_MODULE.set(index);
        let module = &model.modules[index];
        let name = module_ident(model, index);
        let doc = proc_macro2::Literal::string(&format!(" The types of {}.", module.describe()));
        out.push_str(&format!("\npub mod {name} {{\n    #![doc = {doc}]\n"));
        // This entry's document first, then the entries its `$ref`s reach.
        let documents: Vec<String> = model.documents(index).iter().map(|other| format!("&super::PINNED[{other}]")).collect();
        out.push_str(&format!(
            "\n    /// This entry's schema file as pinned, then those its `$ref`s reach.\n    static DOCUMENTS: &[&::concord_runtime::pinned::Document] = &[{}];\n",
            documents.join(", ")
        ));
        for id in members {
            out.push('\n');
            for line in format_items(item(model, *id, &boxed, placed)).lines() {
                if !line.is_empty() {
                    out.push_str("    ");
                }
                out.push_str(line);
                out.push('\n');
            }
        }
        out.push_str("}\n");
        if let Some(root) = module.root {
            let root = type_ident(model, root);
            out.push_str(&format!("\npub use {name}::{root};\n"));
        }
    }
    out
}

/// A schema file's text as a Rust literal: a raw string, which keeps its
/// lines, when the text is plain ASCII (no control character but tab and
/// line feed: rustc refuses a bare CR in a raw string); else escaped.
fn text_literal(text: &str) -> String {
    if !text.chars().all(|c| c == '\n' || c == '\t' || (' '..='~').contains(&c)) {
        return proc_macro2::Literal::string(text).to_string();
    }
    // More `#`s than any run in the text that follows a quote: nothing in it can end the literal.
    let mut hashes = 1;
    while text.contains(&format!("\"{}", "#".repeat(hashes))) {
        hashes += 1;
    }
    let hashes = "#".repeat(hashes);
    format!("r{hashes}\"{text}\"{hashes}")
}

thread_local! {
    /// The entry whose module is being written: a type of another entry is
    /// named by its path (set by `module`, read by `rust_type`).
    static CURRENT_MODULE: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

fn module_ident(model: &Model, module: usize) -> Ident {
    Ident::new(&ident::module(&model.modules[module].word), Span::call_site())
}

/// A record type's path in the bindings: `module::Type`, the way a user
/// names it (a root also by its re-export at the top, `Type`).
pub fn record_path(model: &Model, id: TypeId) -> String {
    format!("{}::{}", module_ident(model, model.get(id).module), type_ident(model, id))
}

/// Items formatted by prettyplease, with a blank line between top-level items.
fn format_items(tokens: TokenStream) -> String {
    let file: syn::File = syn::parse2(tokens).expect("the Rust emitter writes valid Rust");
    let mut out = String::new();
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

/// Doc comments for a schema's text. Lines end at `\n`, `\r\n` or a bare
/// `\r` (which rustc refuses inside a comment); characters rustc refuses in
/// comments (bidi controls) are written escaped; and a text that Markdown
/// would read as code (an indented block, a fence) is fenced as plain text,
/// so that it never becomes a doctest of the crate that includes it.
fn docs(doc: &Option<String>) -> TokenStream {
    let Some(text) = doc else { return quote! {} };
    let lines: Vec<String> = text.split("\r\n").flat_map(|line| line.split(['\n', '\r'])).map(doc_line).collect();
    let code_like = |line: &String| {
        let trimmed = line.trim_start_matches(' ');
        line.starts_with("    ") || line.starts_with('\t') || trimmed.starts_with("```") || trimmed.starts_with("~~~")
    };
    let mut out: Vec<String> = Vec::with_capacity(lines.len() + 2);
    if lines.iter().any(code_like) {
        // A fence longer than any run of backticks inside cannot be closed early.
        let longest = lines.iter().map(|line| longest_run(line, '`')).max().unwrap_or(0);
        let fence = "`".repeat(longest.max(2) + 1);
        out.push(format!("{fence}text"));
        out.extend(lines);
        out.push(fence);
    } else {
        out = lines;
    }
    let attributes = out.iter().map(|line| {
        let line = format!(" {line}");
        quote! { #[doc = #line] }
    });
    quote! { #(#attributes)* }
}

fn doc_line(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    for c in line.trim_end().chars() {
        match c {
            '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' => out.push_str(&c.escape_unicode().to_string()),
            c => out.push(c),
        }
    }
    out
}

fn longest_run(line: &str, of: char) -> usize {
    line.split(|c| c != of).map(str::len).max().unwrap_or(0)
}

fn item(model: &Model, id: TypeId, boxed: &Components, placed: &attributes::Placed) -> TokenStream {
    let def = model.get(id);
    let name = type_ident(model, id);
    // The user's attributes stand after the documentation, before concord's derives.
    let attrs = placed.on_type(id);
    let doc = docs(&def.doc);
    let doc = quote! { #doc #attrs };
    match &def.kind {
        TypeKind::Struct(body) => structure(model, id, def, body, boxed, &doc, placed),
        TypeKind::Enum(values) => {
            let record = if def.is_root {
                record(def, &name)
            } else {
                quote! {}
            };
            let enumeration = enumeration(&name, doc, values);
            quote! { #enumeration #record }
        }
        TypeKind::Union(body) => union(model, id, def, body, boxed, &doc),
        TypeKind::OpenEnum(open) => {
            let record = if def.is_root {
                record(def, &name)
            } else {
                quote! {}
            };
            let enumeration = open_enumeration(&name, doc, open);
            quote! { #enumeration #record }
        }
        TypeKind::TypedId(prefix) => {
            let record = if def.is_root {
                record(def, &name)
            } else {
                quote! {}
            };
            let typed_id = typed_id(&name, doc, prefix);
            quote! { #typed_id #record }
        }
        TypeKind::Alias(shape) if def.is_root => newtype(model, id, def, shape, boxed, &doc),
        TypeKind::Alias(shape) => {
            let ty = rust_type(model, shape, None, boxed);
            quote! { #doc pub type #name = #ty; }
        }
    }
}

/// The `Record` impl, and `Pinned` for a type with a place of its own in
/// its schema file. In a module whose schema holds keywords no type
/// expresses, `from_json` also checks the record against that place with
/// the engine.
fn record(def: &TypeDef, name: &Ident) -> TokenStream {
    let (record_name, digest, pointer) = (&def.name, &def.schema_digest, &def.origin.pointer);
    let asserted = def.asserted().then(|| {
        quote! {
            fn from_json(bytes: &[u8]) -> Result<Self, ::concord_runtime::Error> {
                ::concord_runtime::from_json_asserted(bytes)
            }
        }
    });
    let pinned = def.pinned().then(|| {
        quote! {
            impl ::concord_runtime::Pinned for #name {
                fn schema() -> &'static ::concord_runtime::pinned::Schema {
                    static SCHEMA: ::concord_runtime::pinned::Schema = ::concord_runtime::pinned::Schema::new(DOCUMENTS, #pointer);
                    &SCHEMA
                }
            }
        }
    });
    quote! {
        impl ::concord_runtime::Record for #name {
            const NAME: &'static str = #record_name;
            const SCHEMA_DIGEST: &'static str = #digest;
            #asserted
        }
        #pinned
    }
}

/// A union: an enum with a variant per branch. The value is read whole and
/// the branch chosen by its tag or its JSON type (`lower` decided which),
/// then read from it; writing writes the branch as it is.
fn union(model: &Model, id: TypeId, def: &TypeDef, body: &Union, boxed: &Components, doc: &TokenStream) -> TokenStream {
    let name = type_ident(model, id);
    let record = if def.is_root {
        record(def, &name)
    } else {
        quote! {}
    };
    let variants: Vec<Ident> = body.branches.iter().map(|branch| Ident::new(&ident::type_name(&branch.word), Span::call_site())).collect();
    let types = body.branches.iter().map(|branch| rust_type(model, &branch.shape, Some(id), boxed));
    let keys: Vec<&str> = body.branches.iter().map(|branch| branch.key.as_str()).collect();
    let choose = match &body.choice {
        Choice::Tag(property) => quote! { bind::tag(&__value, #property, &[#(#keys),*])? },
        Choice::JsonType => quote! { bind::json_type(&__value, &[#(#keys),*])? },
    };
    let last = variants.len() - 1;
    let arms = variants.iter().zip(&body.branches).enumerate().map(|(index, (variant, branch))| {
        let ty = rust_type(model, &branch.shape, Some(id), boxed);
        let read = match check_fn(model, &branch.shape, &ty) {
            Some(check) => quote! { bind::branch_checked(__value, #check).map(Self::#variant) },
            None => quote! { bind::branch(__value).map(Self::#variant) },
        };
        if index == last {
            quote! { _ => #read, }
        } else {
            quote! { #index => #read, }
        }
    });
    let variant_docs = body.branches.iter().map(|branch| {
        let what = match &body.choice {
            Choice::Tag(property) => format!("`{property}` is `{}`", branch.key.replace('`', "'")),
            _ => format!("a JSON {}", branch.key),
        };
        docs(&Some(format!("When {what}.")))
    });
    quote! {
        #doc
        #[derive(Clone, Debug, PartialEq)]
        pub enum #name { #(#variant_docs #variants(#types),)* }

        #record

        impl<'de> ::concord_runtime::serde::Deserialize<'de> for #name {
            fn deserialize<__D: ::concord_runtime::serde::Deserializer<'de>>(deserializer: __D) -> Result<Self, __D::Error> {
                use ::concord_runtime::bind;
                let __value = bind::raw(deserializer)?;
                match #choose {
                    #(#arms)*
                }
            }
        }

        impl ::concord_runtime::serde::Serialize for #name {
            fn serialize<__S: ::concord_runtime::serde::Serializer>(&self, serializer: __S) -> Result<__S::Ok, __S::Error> {
                match self {
                    #(Self::#variants(branch) => ::concord_runtime::serde::Serialize::serialize(branch, serializer),)*
                }
            }
        }
    }
}

/// A registry root that is not an object type (an array, a string, ...):
/// a newtype, so that it is a `Record` of its own.
fn newtype(model: &Model, id: TypeId, def: &TypeDef, shape: &Shape, boxed: &Components, doc: &TokenStream) -> TokenStream {
    let name = type_ident(model, id);
    let ty = rust_type(model, shape, Some(id), boxed);
    let record = record(def, &name);
    // `bind` only where the checks name it: an unused import warns in the crate that includes the bindings.
    let read = match check_fn(model, shape, &ty) {
        Some(check) => quote! {
            use ::concord_runtime::bind;
            bind::read_checked(deserializer, #check).map(Self)
        },
        None => quote! { <#ty as ::concord_runtime::serde::Deserialize>::deserialize(deserializer).map(Self) },
    };
    quote! {
        #doc
        #[derive(Clone, Debug, PartialEq)]
        pub struct #name(pub #ty);

        #record

        impl<'de> ::concord_runtime::serde::Deserialize<'de> for #name {
            fn deserialize<__D: ::concord_runtime::serde::Deserializer<'de>>(deserializer: __D) -> Result<Self, __D::Error> {
                #read
            }
        }

        impl ::concord_runtime::serde::Serialize for #name {
            fn serialize<__S: ::concord_runtime::serde::Serializer>(&self, serializer: __S) -> Result<__S::Ok, __S::Error> {
                ::concord_runtime::serde::Serialize::serialize(&self.0, serializer)
            }
        }
    }
}

/// A string enum: read from one of its strings only (serde's derive would
/// also read a unit variant from a one-key map).
fn enumeration(name: &Ident, doc: TokenStream, values: &[EnumValue]) -> TokenStream {
    let variants: Vec<Ident> = values.iter().map(|value| Ident::new(&ident::type_name(&value.word), Span::call_site())).collect();
    let json: Vec<&str> = values.iter().map(|value| value.value.as_str()).collect();
    let variant_docs = json.iter().map(|value| docs(&Some(format!("`{}`", value.replace('`', "\\`")))));
    quote! {
        #doc
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum #name { #(#variant_docs #variants,)* }

        impl ::concord_runtime::bind::Enumeration for #name {
            const VALUES: &'static [&'static str] = &[#(#json),*];
            const VARIANTS: &'static [Self] = &[#(Self::#variants),*];
            fn index(self) -> usize {
                self as usize
            }
        }

        impl<'de> ::concord_runtime::serde::Deserialize<'de> for #name {
            fn deserialize<__D: ::concord_runtime::serde::Deserializer<'de>>(deserializer: __D) -> Result<Self, __D::Error> {
                ::concord_runtime::bind::read_enum(deserializer)
            }
        }

        impl ::concord_runtime::serde::Serialize for #name {
            fn serialize<__S: ::concord_runtime::serde::Serializer>(&self, serializer: __S) -> Result<__S::Ok, __S::Error> {
                ::concord_runtime::bind::write_enum(*self, serializer)
            }
        }
    }
}

/// An open enum (`"x-open-enum": true`): the known strings as variants, and
/// a catch-all that keeps any other string; read from a string only.
fn open_enumeration(name: &Ident, doc: TokenStream, open: &OpenEnum) -> TokenStream {
    let variants: Vec<Ident> = open.values.iter().map(|value| Ident::new(&ident::type_name(&value.word), Span::call_site())).collect();
    let json: Vec<&str> = open.values.iter().map(|value| value.value.as_str()).collect();
    let variant_docs = json.iter().map(|value| docs(&Some(format!("`{}`", value.replace('`', "\\`")))));
    let catch_all = Ident::new(&ident::type_name(&open.catch_all), Span::call_site());
    quote! {
        #doc
        #[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum #name {
            #(#variant_docs #variants,)*
            /// Any other string, kept as read and written back unchanged.
            #catch_all(String),
        }

        impl ::concord_runtime::bind::OpenEnumeration for #name {
            const VALUES: &'static [&'static str] = &[#(#json),*];
            const KNOWN: &'static [Self] = &[#(Self::#variants),*];
            fn unrecognized(value: String) -> Self {
                Self::#catch_all(value)
            }
            fn as_str(&self) -> &str {
                match self {
                    #(Self::#variants => #json,)*
                    Self::#catch_all(value) => value,
                }
            }
        }

        impl<'de> ::concord_runtime::serde::Deserialize<'de> for #name {
            fn deserialize<__D: ::concord_runtime::serde::Deserializer<'de>>(deserializer: __D) -> Result<Self, __D::Error> {
                ::concord_runtime::bind::read_open_enum(deserializer)
            }
        }

        impl ::concord_runtime::serde::Serialize for #name {
            fn serialize<__S: ::concord_runtime::serde::Serializer>(&self, serializer: __S) -> Result<__S::Ok, __S::Error> {
                ::concord_runtime::bind::write_open_enum(self, serializer)
            }
        }
    }
}

/// A typed id (`"x-typed-id": prefix`): a string newtype that holds only
/// `<prefix>_<lowercase UUIDv7>`, read from such a string only.
fn typed_id(name: &Ident, doc: TokenStream, prefix: &str) -> TokenStream {
    let new_doc = format!(" `value` as an id, if it is `{prefix}_` followed by a lowercase UUIDv7.");
    quote! {
        #doc
        #[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct #name(String);

        impl #name {
            /// The ids' prefix, before `_` and the UUID (`x-typed-id`).
            pub const PREFIX: &'static str = #prefix;

            #[doc = #new_doc]
            pub fn new(value: impl Into<String>) -> Result<Self, ::concord_runtime::bind::Failure> {
                ::concord_runtime::bind::typed_id(value.into(), Self::PREFIX).map(Self)
            }

            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl<'de> ::concord_runtime::serde::Deserialize<'de> for #name {
            fn deserialize<__D: ::concord_runtime::serde::Deserializer<'de>>(deserializer: __D) -> Result<Self, __D::Error> {
                ::concord_runtime::bind::read_typed_id(deserializer, Self::PREFIX).map(Self)
            }
        }

        impl ::concord_runtime::serde::Serialize for #name {
            fn serialize<__S: ::concord_runtime::serde::Serializer>(&self, serializer: __S) -> Result<__S::Ok, __S::Error> {
                serializer.serialize_str(&self.0)
            }
        }
    }
}

/// An object type with its own `Deserialize` (from a JSON object only, each
/// unknown key handled where it stands by the type's policy) and `Serialize`
/// (declared properties in schema order, then kept unknown keys).
fn structure(model: &Model, id: TypeId, def: &TypeDef, body: &Struct, boxed: &Components, doc: &TokenStream, placed: &attributes::Placed) -> TokenStream {
    let name = type_ident(model, id);
    let idents: Vec<Ident> = body.fields.iter().map(|field| field_ident(&field.word)).collect();
    let fields = body.fields.iter().zip(&idents).map(|(field, ident)| {
        let doc = docs(&field.doc);
        let attrs = placed.on_field(id, &field.json_name);
        let doc = quote! { #doc #attrs };
        let ty = rust_type(model, &field.shape, Some(id), boxed);
        let ty = if field.presence.is_required() {
            ty
        } else {
            quote! { Option<#ty> }
        };
        quote! { #doc pub #ident: #ty, }
    });
    let catch_all = format_ident!("{}", ident::catch_all(idents.iter().map(|i| i.to_string()).collect::<Vec<_>>().iter().map(|s| s.trim_start_matches("r#"))));
    let (extra_field, extra_slot, unknown, extra_write) = match &body.unknown_keys {
        UnknownKeys::Drop => (quote! {}, quote! { let mut __dropped = Vec::new(); }, quote! { bind::skip(&mut __map, &mut __dropped, __key)? }, quote! {}),
        UnknownKeys::Refuse => {
            let declared = body.fields.iter().map(|field| field.json_name.as_str());
            (quote! {}, quote! {}, quote! { bind::refuse(&mut __map, __key, &[#(#declared),*])? }, quote! {})
        }
        UnknownKeys::Keep | UnknownKeys::Typed(_) => {
            let declared = body.fields.iter().map(|field| field.json_name.as_str());
            let (value, doc) = match &body.unknown_keys {
                UnknownKeys::Typed(shape) => {
                    (rust_type(model, shape, Some(id), boxed), "Entries beyond the declared properties (`additionalProperties`), in the order read.")
                }
                _ => (quote! { ::concord_runtime::Value }, "Keys this type does not declare, kept in the order read and written back after the declared ones."),
            };
            let doc = format!(" {doc}");
            (
                quote! { #[doc = #doc] pub #catch_all: ::concord_runtime::IndexMap<String, #value>, },
                quote! { let mut #catch_all = ::concord_runtime::IndexMap::new(); },
                match &body.unknown_keys {
                    UnknownKeys::Typed(shape) => match check_fn(model, shape, &value) {
                        Some(check) => quote! { bind::keep_checked(&mut __map, &mut #catch_all, __key, #check)? },
                        None => quote! { bind::keep(&mut __map, &mut #catch_all, __key)? },
                    },
                    _ => quote! { bind::keep(&mut __map, &mut #catch_all, __key)? },
                },
                quote! { bind::entries(&mut __map, &self.#catch_all, &[#(#declared),*])?; },
            )
        }
    };
    let arms = body.fields.iter().zip(&idents).map(|(field, ident)| {
        let json = &field.json_name;
        let ty = rust_type(model, &field.shape, Some(id), boxed);
        match check_fn(model, &field.shape, &ty) {
            Some(check) => quote! { #json => bind::field_checked(&mut __map, &mut #ident, #json, #check)?, },
            None => quote! { #json => bind::field(&mut __map, &mut #ident, #json)?, },
        }
    });
    let (count, counted, object_checks) = match &body.property_count {
        None => (quote! {}, quote! {}, quote! {}),
        Some(bounds) => {
            let (min, max) = (optional_count(&bounds.min), optional_count(&bounds.max));
            let call = quote! { bind::check_object(::concord_runtime::checks::properties(__count, #min, #max))?; };
            (quote! { let mut __count = 0usize; }, quote! { __count += 1; }, call)
        }
    };
    let dispatch = if body.fields.is_empty() {
        quote! { #unknown; }
    } else {
        quote! { match __key.as_str() { #(#arms)* _ => #unknown, } }
    };
    let values = body.fields.iter().zip(&idents).map(|(field, ident)| {
        if field.presence.is_required() {
            let json = &field.json_name;
            quote! { #ident: bind::required(#ident, #json)?, }
        } else {
            quote! { #ident, }
        }
    });
    let extra_value = match &body.unknown_keys {
        UnknownKeys::Keep | UnknownKeys::Typed(_) => quote! { #catch_all, },
        _ => quote! {},
    };
    let writes = body.fields.iter().zip(&idents).map(|(field, ident)| {
        let json = &field.json_name;
        if field.presence.is_required() {
            quote! { bind::entry(&mut __map, #json, &self.#ident)?; }
        } else {
            quote! { bind::optional(&mut __map, #json, &self.#ident)?; }
        }
    });
    // An object with nothing to write: no `bind`, no `mut` (each would warn where the bindings are included).
    let write = if body.fields.is_empty() && matches!(body.unknown_keys, UnknownKeys::Drop | UnknownKeys::Refuse) {
        quote! {
            let __map = serializer.serialize_map(None)?;
            ::concord_runtime::serde::ser::SerializeMap::end(__map)
        }
    } else {
        quote! {
            use ::concord_runtime::bind;
            let mut __map = serializer.serialize_map(None)?;
            #(#writes)*
            #extra_write
            ::concord_runtime::serde::ser::SerializeMap::end(__map)
        }
    };
    let expecting = format!("an object ({})", def.name);
    let record = record(def, &name);
    // A versioned envelope: its versions as constants, and its version read first.
    let (versions, read) = match &body.version {
        None => (quote! {}, quote! { ::concord_runtime::bind::read_object(deserializer) }),
        Some(version) => {
            let (all, current) = crate::naming::version_constants(&def.name);
            let (all, current) = (format_ident!("{all}"), format_ident!("{current}"));
            let (supported, latest, field, type_name) = (
                version.supported.iter().map(|v| proc_macro2::Literal::i64_unsuffixed(*v)),
                proc_macro2::Literal::i64_unsuffixed(version.current()),
                &version.field,
                &def.name,
            );
            // The version property is required and an integer (the reader refuses it otherwise).
            let holder =
                body.fields.iter().find(|f| f.json_name == version.field).map(|f| field_ident(&f.word)).expect("the version property is a declared field");
            let all_doc = format!(" The versions of `{type_name}` this binding reads (`{field}`); any other is refused as `unsupported-version`.");
            let current_doc = format!(" The current version of `{type_name}`: the largest supported, for new envelopes.");
            (
                quote! {
                    #[doc = #all_doc]
                    pub const #all: &[i64] = &[#(#supported),*];
                    #[doc = #current_doc]
                    pub const #current: i64 = #latest;
                },
                quote! { ::concord_runtime::bind::read_versioned(deserializer, #field, #all, #type_name, |record: &Self| record.#holder) },
            )
        }
    };
    quote! {
        #doc
        #[derive(Clone, Debug, PartialEq)]
        pub struct #name {
            #(#fields)*
            #extra_field
        }

        #versions

        #record

        impl<'de> ::concord_runtime::bind::Object<'de> for #name {
            const EXPECTING: &'static str = #expecting;
            fn read<__A: ::concord_runtime::serde::de::MapAccess<'de>>(mut __map: __A) -> Result<Self, __A::Error> {
                use ::concord_runtime::bind;
                #(let mut #idents = None;)*
                #extra_slot
                #count
                while let Some(__key) = __map.next_key::<bind::Key<'de>>()? {
                    #counted
                    #dispatch
                }
                #object_checks
                Ok(Self { #(#values)* #extra_value })
            }
        }

        impl<'de> ::concord_runtime::serde::Deserialize<'de> for #name {
            fn deserialize<__D: ::concord_runtime::serde::Deserializer<'de>>(deserializer: __D) -> Result<Self, __D::Error> {
                #read
            }
        }

        impl ::concord_runtime::serde::Serialize for #name {
            fn serialize<__S: ::concord_runtime::serde::Serializer>(&self, serializer: __S) -> Result<__S::Ok, __S::Error> {
                #write
            }
        }
    }
}

/// The Rust type of a shape. `owner` is the struct holding it: a named type
/// that contains the owner again without a `Vec` or map between is boxed.
fn rust_type(model: &Model, shape: &Shape, owner: Option<TypeId>, boxed: &Components) -> TokenStream {
    match shape {
        Shape::Any => quote! { ::concord_runtime::Value },
        Shape::Null => quote! { () },
        Shape::Bool => quote! { bool },
        Shape::Integer => quote! { i64 },
        Shape::Number => quote! { f64 },
        Shape::String => quote! { String },
        Shape::Array(item) => {
            let item = rust_type(model, item, None, boxed);
            quote! { Vec<#item> }
        }
        Shape::Tuple(items) => {
            let items = items.iter().map(|item| rust_type(model, item, None, boxed));
            quote! { (#(#items,)*) }
        }
        Shape::Map(value) => {
            let value = rust_type(model, value, None, boxed);
            quote! { ::concord_runtime::IndexMap<String, #value> }
        }
        Shape::Nullable(inner) => {
            let inner = rust_type(model, inner, owner, boxed);
            quote! { Option<#inner> }
        }
        Shape::Checked(inner, _) => rust_type(model, inner, owner, boxed),
        Shape::Named(id) if model.get(*id).module != CURRENT_MODULE.get() => {
            // Another entry's type: by its path from this entry's module.
            let (module, name) = (module_ident(model, model.get(*id).module), type_ident(model, *id));
            quote! { super::#module::#name }
        }
        Shape::Named(id) => {
            let name = type_ident(model, *id);
            match owner {
                Some(owner) if boxed.same(*id, owner) => quote! { Box<#name> },
                _ => quote! { #name },
            }
        }
    }
}

/// The types that hold each other inline (through fields, options and
/// aliases, not through a `Vec` or map): the strongly connected components of
/// that graph. A field whose type is in its owner's component needs a `Box`.
struct Components(Vec<usize>);

impl Components {
    fn new(model: &Model) -> Self {
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

/// Statements that make a shape's assertions on `value` (an expression of
/// type `&T`, `T` the shape's Rust type), returning a `bind::Failure`; `None`
/// when the shape asserts nothing. Named object types, enums and roots
/// (newtypes) check themselves; aliases are transparent, so their
/// assertions are made here.
fn checks(model: &Model, shape: &Shape, value: &TokenStream, depth: usize) -> Option<TokenStream> {
    // Through assertions and aliases in a loop, not by recursion: a chain of
    // 10,000 aliases must not overflow the stack.
    let (mut shape, mut own, mut checked) = (shape, Vec::new(), false);
    loop {
        match shape {
            Shape::Checked(inner, list) => {
                own.extend(list.iter().map(|check| check_call(check, value)));
                (shape, checked) = (inner, true);
            }
            Shape::Named(id) => match &model.get(*id).kind {
                // A registry root is a newtype, not an alias: it checks itself when read.
                TypeKind::Alias(aliased) if !model.get(*id).is_root => shape = aliased,
                _ => break,
            },
            _ => break,
        }
    }
    let nested = container_checks(model, shape, value, depth);
    if checked {
        Some(quote! { #(#own)* #nested })
    } else {
        nested
    }
}

/// The checks of the values inside an array, a map, a nullable or a tuple.
fn container_checks(model: &Model, shape: &Shape, value: &TokenStream, depth: usize) -> Option<TokenStream> {
    let inner = format_ident!("__v{depth}");
    match shape {
        Shape::Array(item) => {
            let body = checks(model, item, &quote! { #inner }, depth + 1)?;
            Some(quote! { bind::each(#value, |#inner| { #body Ok(()) })?; })
        }
        Shape::Map(item) => {
            let body = checks(model, item, &quote! { #inner }, depth + 1)?;
            Some(quote! { bind::each_value(#value, |#inner| { #body Ok(()) })?; })
        }
        Shape::Nullable(item) => {
            let body = checks(model, item, &quote! { #inner }, depth + 1)?;
            Some(quote! { if let Some(#inner) = #value { #body } })
        }
        Shape::Tuple(items) => {
            let parts: Vec<TokenStream> = items
                .iter()
                .enumerate()
                .filter_map(|(position, item)| {
                    let body = checks(model, item, &quote! { #inner }, depth + 1)?;
                    let index = proc_macro2::Literal::usize_unsuffixed(position);
                    Some(quote! { bind::element(#position, (|| -> Result<(), bind::Failure> { let #inner = &#value.#index; #body Ok(()) })())?; })
                })
                .collect();
            (!parts.is_empty()).then(|| quote! { #(#parts)* })
        }
        Shape::Checked(..) | Shape::Named(_) | Shape::Any | Shape::Null | Shape::Bool | Shape::Integer | Shape::Number | Shape::String => None,
    }
}

fn optional_count(bound: &Option<u64>) -> TokenStream {
    match bound {
        Some(bound) => quote! { Some(#bound) },
        None => quote! { None },
    }
}

fn check_call(check: &Check, value: &TokenStream) -> TokenStream {
    let option = optional_count;
    let float = |bound: &Option<f64>| match bound {
        Some(bound) => {
            let literal = proc_macro2::Literal::f64_suffixed(*bound);
            quote! { Some(#literal) }
        }
        None => quote! { None },
    };
    match check {
        Check::Length { min, max } => {
            let (min, max) = (option(min), option(max));
            quote! { ::concord_runtime::checks::length(#value, #min, #max)?; }
        }
        Check::Pattern { regex, .. } => quote! {
            {
                static PATTERN: ::concord_runtime::pattern::Pattern = ::concord_runtime::pattern::Pattern::new(#regex);
                ::concord_runtime::checks::pattern(#value, &PATTERN)?;
            }
        },
        Check::IntegerRange { min, max } => quote! { ::concord_runtime::checks::integer_range(*#value, #min, #max)?; },
        Check::IntegerMultipleOf(divisor) => quote! {
            {
                static DIVISOR: ::concord_runtime::number::Divisor = ::concord_runtime::number::Divisor::from_parts(#divisor, 0);
                ::concord_runtime::checks::integer_multiple_of(*#value, &DIVISOR)?;
            }
        },
        Check::NumberRange { minimum, exclusive_minimum, maximum, exclusive_maximum } => {
            let bounds = [minimum, exclusive_minimum, maximum, exclusive_maximum].map(float);
            quote! { ::concord_runtime::checks::number_range(*#value, [#(#bounds),*])?; }
        }
        Check::NumberMultipleOf(divisor) => {
            let parsed = concord_runtime::number::parse_divisor(divisor).expect("the reader parsed this divisor");
            let (digits, exponent) = (parsed.digits(), parsed.exponent());
            quote! {
                {
                    static DIVISOR: ::concord_runtime::number::Divisor = ::concord_runtime::number::Divisor::from_parts(#digits, #exponent);
                    ::concord_runtime::checks::multiple_of(*#value, &DIVISOR)?;
                }
            }
        }
        Check::Items { min, max } => {
            let (min, max) = (option(min), option(max));
            quote! { ::concord_runtime::checks::items(#value.len(), #min, #max)?; }
        }
        Check::UniqueItems => quote! { ::concord_runtime::checks::unique(#value)?; },
        Check::Properties { min, max } => {
            let (min, max) = (option(min), option(max));
            quote! { ::concord_runtime::checks::properties(#value.len(), #min, #max)?; }
        }
    }
}

/// A check function for a value of `shape`, as `bind::field_checked` takes
/// it, or `None` when the shape asserts nothing.
fn check_fn(model: &Model, shape: &Shape, ty: &TokenStream) -> Option<TokenStream> {
    let body = checks(model, shape, &quote! { __value }, 0)?;
    Some(quote! { |__value: &#ty| -> Result<(), bind::Failure> { #body Ok(()) } })
}
