//! Writes the model as Rust the way a reader expects to find it, as in
//! prost's output: each module's types are declared first, with their docs,
//! attributes and derives; then one `concord_runtime` macro per type gives
//! it its serde impls (`runtime/rust/src/impls.rs`; see `concord_runtime::bind`
//! for why not derived); the pinned schema texts close the file. Items are
//! formatted by prettyplease; the macro lines are written here, already laid out.

mod attributes;

use crate::naming::rust as ident;

pub use attributes::{Attributes, Matched};

use crate::model::{Check, Choice, Model, Pinning, Presence, Shape, Struct, TypeDef, TypeId, TypeKind, UnknownKeys};
use proc_macro2::{Ident, Literal, Span, TokenStream};
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
    let roots: Vec<String> = model
        .modules
        .iter()
        .enumerate()
        .filter_map(|(index, module)| module.root.map(|root| format!("pub use {}::{};\n", module_ident(model, index), type_ident(model, root))))
        .collect();
    if !roots.is_empty() {
        out.push('\n');
        out.push_str(&roots.concat());
    }
    for (index, members) in by_module.iter().enumerate() {
        CURRENT_MODULE.set(index);
        let module = &model.modules[index];
        out.push_str(&format!("\npub mod {} {{\n", module_ident(model, index)));
        for line in inner_docs(&format!("The types of {}.", module.describe())) {
            out.push_str(&format!("    //!{line}\n"));
        }
        let mut body = String::new();
        for id in members {
            body.push('\n');
            body.push_str(&format_items(declaration(model, *id, &boxed, placed)));
        }
        let implementations: Vec<String> = members.iter().map(|id| implementation(model, *id, &boxed)).filter(|text| !text.is_empty()).collect();
        if !implementations.is_empty() {
            body.push_str("\n// How each type reads and writes JSON: `concord_runtime`'s macros expand to its serde impls.\n");
            for text in implementations {
                body.push('\n');
                body.push_str(&text);
            }
        }
        // This entry's document first, then the entries its `$ref`s reach.
        let documents: Vec<String> = model.documents(index).iter().map(|other| format!("&super::PINNED[{other}]")).collect();
        body.push_str(&format!(
            "\n/// This entry's schema file as pinned, then those its `$ref`s reach.\nstatic DOCUMENTS: &[&::concord_runtime::pinned::Document] = &[{}];\n",
            documents.join(", ")
        ));
        if model.types.iter().any(|def| def.module == index && def.schema_digest == module.digest) {
            body.push_str(&format!("/// The pinned digest of this entry's schema file.\nconst DIGEST: &str = {};\n", Literal::string(&module.digest)));
        }
        for line in body.lines() {
            if !line.is_empty() {
                out.push_str("    ");
            }
            out.push_str(line);
            out.push('\n');
        }
        out.push_str("}\n");
    }
    let documents = model.modules.iter().map(|module| {
        let (uri, digest, text) = (Literal::string(&module.base), Literal::string(&module.digest), text_literal(&module.text));
        let dialect = module.declared_dialect.as_deref().map_or_else(|| "None".to_owned(), |uri| format!("Some({})", Literal::string(uri)));
        format!(
            "    ::concord_runtime::pinned::Document {{\n        uri: {uri},\n        digest: {digest},\n        dialect: {dialect},\n        text: {text},\n    }},\n"
        )
    });
    out.push_str("\n/// The registry's schema files as pinned (base URI, digest, declared dialect, text), in registry order.\n");
    out.push_str(&format!("static PINNED: [::concord_runtime::pinned::Document; {}] = [\n{}];\n", model.modules.len(), documents.collect::<String>()));
    out
}

/// A text as the lines of inner doc comments (`//!`), each with its leading space.
fn inner_docs(text: &str) -> Vec<String> {
    text.split("\r\n").flat_map(|line| line.split(['\n', '\r'])).map(|line| format!(" {}", doc_line(line))).collect()
}

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
        // A doc comment's text may end with `;` too (oxlint's examples of code): no item ends there.
        item_ended = line == "}" || (!line.starts_with([' ', '/']) && line.ends_with(';'));
        out.push_str(line);
        out.push('\n');
    }
    out
}

fn type_ident(model: &Model, id: TypeId) -> Ident {
    Ident::new(&crate::naming::type_name(&model.get(id).name), Span::call_site())
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
/// comments (bidi controls) and other control characters are written
/// escaped; and a text that Markdown
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
        out = without_lazy_continuations(lines);
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
            // A tab is four spaces, as rustdoc reads it (clippy's tabs_in_doc_comments).
            '\t' => out.push_str("    "),
            // Bidi controls rustc refuses in comments; other controls (NUL,
            // ESC) an editor or a terminal would show as raw bytes.
            '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' => out.push_str(&c.escape_unicode().to_string()),
            c if c.is_control() => out.push_str(&c.escape_unicode().to_string()),
            c => out.push(c),
        }
    }
    out
}

/// Markdown's lazy continuations made explicit: a line that continues a
/// list item without its indent is indented, one that continues a block
/// quote without its `>` gets one. The same document to Markdown, and what
/// rustdoc's readers and clippy's doc_lazy_continuation expect.
fn without_lazy_continuations(lines: Vec<String>) -> Vec<String> {
    // The current list item's content indent, and whether a quote is open.
    let (mut item, mut quote): (Option<usize>, bool) = (None, false);
    let mut out = Vec::with_capacity(lines.len());
    for line in lines {
        let spaces = line.len() - line.trim_start_matches(' ').len();
        let rest = &line[spaces..];
        let marker = rest.strip_prefix(['-', '*', '+']).map(|after| (1, after)).or_else(|| {
            let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
            (1..=9).contains(&digits).then(|| rest[digits..].strip_prefix(['.', ')']).map(|after| (digits + 1, after))).flatten()
        });
        let list_item =
            marker.filter(|(_, after)| after.starts_with(' ')).map(|(width, after)| spaces + width + after.len() - after.trim_start_matches(' ').len());
        if rest.is_empty() {
            (item, quote) = (None, false);
            out.push(line);
        } else if let Some(indent) = list_item {
            (item, quote) = (Some(indent), false);
            out.push(line);
        } else if rest.starts_with('>') {
            quote = true;
            out.push(line);
        } else if quote {
            out.push(format!("> {line}"));
        } else if let Some(indent) = item.filter(|indent| spaces < *indent) {
            out.push(format!("{}{rest}", " ".repeat(indent)));
        } else {
            out.push(line);
        }
    }
    out
}

fn longest_run(line: &str, of: char) -> usize {
    line.split(|c| c != of).map(str::len).max().unwrap_or(0)
}

/// A type's declaration, as a user reads it: docs, the user's attributes,
/// derives, and the type (with an envelope's version constants).
fn declaration(model: &Model, id: TypeId, boxed: &Components, placed: &attributes::Placed) -> TokenStream {
    let def = model.get(id);
    let name = type_ident(model, id);
    // The user's attributes stand after the documentation, before concord's derives.
    let attrs = placed.on_type(id);
    let doc = docs(&def.doc);
    let doc = quote! { #doc #attrs };
    match &def.kind {
        TypeKind::Struct(body) => structure(model, id, body, boxed, &doc, placed),
        TypeKind::Enum(values) => {
            let variants = values.iter().map(|value| variant_ident(&value.word));
            let variant_docs = values.iter().map(|value| value_doc(&value.value));
            quote! {
                #doc
                #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
                pub enum #name { #(#variant_docs #variants,)* }
            }
        }
        TypeKind::OpenEnum(open) => {
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
        TypeKind::Union(body) => {
            let variants = body.branches.iter().map(|branch| variant_ident(&branch.word));
            let types = body.branches.iter().map(|branch| rust_type(model, &branch.shape, Some(id), boxed));
            let variant_docs = body.branches.iter().map(|branch| {
                let what = match &body.choice {
                    Choice::Tag(property) => format!("`{property}` is `{}`", branch.key.replace('`', "'")),
                    Choice::JsonType => format!("a JSON {}", branch.key),
                };
                docs(&Some(format!("When {what}.")))
            });
            // Branches are held inline, as a serde user writes a union; an
            // object branch may well be larger than a string branch.
            let types: Vec<TokenStream> = types.collect();
            let allows = types.iter().map(complex);
            quote! {
                #doc
                #[derive(Clone, Debug, PartialEq)]
                #[allow(clippy::large_enum_variant)]
                pub enum #name { #(#variant_docs #allows #variants(#types),)* }
            }
        }
        TypeKind::TypedId(_) => quote! {
            #doc
            #[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
            pub struct #name(String);
        },
        // A registry root that is not an object type (an array, a string,
        // ...): a newtype, so that it is a `Record` of its own.
        TypeKind::Alias(shape) if def.wrapped => {
            let ty = rust_type(model, shape, Some(id), boxed);
            quote! {
                #doc
                #[derive(Clone, Debug, PartialEq)]
                pub struct #name(pub #ty);
            }
        }
        TypeKind::Alias(shape) => {
            let ty = rust_type(model, shape, None, boxed);
            quote! { #doc pub type #name = #ty; }
        }
    }
}

/// `#[allow(clippy::type_complexity)]` for a type nested four generics
/// deep or more (a nullable map of nullable arrays of nullable strings, as
/// the schema says it), which a user's clippy would flag; nothing otherwise.
fn complex(ty: &TokenStream) -> TokenStream {
    let depth = ty.to_string().matches('<').count();
    if depth >= 4 {
        quote! { #[allow(clippy::type_complexity)] }
    } else {
        quote! {}
    }
}

fn variant_ident(word: &str) -> Ident {
    Ident::new(&crate::naming::type_name(word), Span::call_site())
}

fn value_doc(value: &str) -> TokenStream {
    docs(&Some(format!("`{}`", value.replace('`', "\\`"))))
}

/// An object type: its fields (an optional one as an `Option`), the
/// catch-all its unknown-key policy keeps, and an envelope's versions.
fn structure(model: &Model, id: TypeId, body: &Struct, boxed: &Components, doc: &TokenStream, placed: &attributes::Placed) -> TokenStream {
    let def = model.get(id);
    let name = type_ident(model, id);
    let fields = body.fields.iter().map(|field| {
        let doc = docs(&field.doc);
        let attrs = placed.on_field(id, &field.json_name);
        let ident = field_ident(&field.word);
        let ty = rust_type(model, &field.shape, Some(id), boxed);
        let ty = match field.presence {
            Presence::Required => ty,
            Presence::Optional | Presence::OptionalNullable => quote! { Option<#ty> },
        };
        let allow = complex(&ty);
        quote! { #doc #attrs #allow pub #ident: #ty, }
    });
    let extra_field = catch_all(body).map(|catch_all| {
        let (value, doc) = match &body.unknown_keys {
            UnknownKeys::Typed(shape) => {
                (rust_type(model, shape, Some(id), boxed), "Entries beyond the declared properties (`additionalProperties`), in the order read.")
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

/// How a type reads and writes JSON: a line of `concord_runtime::record!`
/// for a record type, the macro of its kind, and the checks its values'
/// assertions make, as private functions of the type. Empty for an alias.
fn implementation(model: &Model, id: TypeId, boxed: &Components) -> String {
    let def = model.get(id);
    let name = type_ident(model, id);
    let mut checks = Vec::new();
    let mut check = |word: String, shape: &Shape| -> String {
        match check_fn(model, shape) {
            None => String::new(),
            Some(body) => {
                let ty = rust_type(model, shape, Some(id), boxed);
                // A root newtype's own check is `check`; a field's, `check_<field>`.
                let function = if word.is_empty() { format_ident!("check") } else { format_ident!("check_{}", word) };
                checks.push(quote! {
                    fn #function(value: &#ty) -> Result<(), ::concord_runtime::bind::Failure> { #body }
                });
                format!(" (Self::{function})")
            }
        }
    };
    let kind = match &def.kind {
        TypeKind::Struct(body) => {
            let fields: Vec<String> = body
                .fields
                .iter()
                .map(|field| {
                    let presence = if field.presence.is_required() { "required" } else { "optional" };
                    let checked = check(field.word.clone(), &field.shape);
                    format!("        {}: {} {presence}{checked},\n", field_ident(&field.word), Literal::string(&field.json_name))
                })
                .collect();
            let unknown = match (&body.unknown_keys, catch_all(body)) {
                (UnknownKeys::Drop, _) => "drop".to_owned(),
                (UnknownKeys::Refuse, _) => "refuse".to_owned(),
                (UnknownKeys::Typed(shape), Some(catch_all)) => {
                    let checked = check(catch_all.to_string(), shape);
                    format!("keep {catch_all}{checked}")
                }
                (UnknownKeys::Matching(patterns), Some(catch_all)) => {
                    let patterns: Vec<String> = patterns.iter().map(|pattern| Literal::string(pattern).to_string()).collect();
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
        TypeKind::Enum(values) => {
            let variants: Vec<String> = values.iter().map(|value| format!("{} = {}", variant_ident(&value.word), Literal::string(&value.value))).collect();
            macro_call("enumeration", &format!("{name} {{"), &variants, "})")
        }
        TypeKind::OpenEnum(open) => {
            let variants: Vec<String> = open.values.iter().map(|value| format!("{} = {}", variant_ident(&value.word), Literal::string(&value.value))).collect();
            macro_call("open_enumeration", &format!("{name} {{"), &variants, &format!("}} else {})", variant_ident(&open.catch_all)))
        }
        TypeKind::TypedId(prefix) => format!("::concord_runtime::typed_id!({name}, {});\n", Literal::string(prefix)),
        TypeKind::Union(body) => {
            let by = match &body.choice {
                Choice::Tag(property) => format!("tag {}", Literal::string(property)),
                Choice::JsonType => "json_type".to_owned(),
            };
            let branches: Vec<String> = body
                .branches
                .iter()
                .enumerate()
                .map(|(index, branch)| {
                    let checked = check(crate::naming::words::snake(&branch.word), &branch.shape);
                    format!("{index} {} = {}{checked}", variant_ident(&branch.word), Literal::string(&branch.key))
                })
                .collect();
            macro_call("union", &format!("{name} by {by} {{"), &branches, "})")
        }
        TypeKind::Alias(shape) if def.wrapped => {
            let checked = check(String::new(), shape);
            format!("::concord_runtime::newtype!({name}{checked});\n")
        }
        TypeKind::Alias(_) => return String::new(),
    };
    let mut out = String::new();
    if model.is_record(id) {
        out.push_str(&record(model, def, &name));
    }
    out.push_str(&kind);
    if !checks.is_empty() {
        // `&String`, `&Vec<T>`: a check takes what the field holds (`fn(&T)`).
        out.push('\n');
        out.push_str(&format_items(quote! {
            #[allow(clippy::ptr_arg)]
            impl #name { #(#checks)* }
        }));
    }
    out
}

/// A macro call on one line when it fits in 120 columns, else one entry a line.
fn macro_call(name: &str, open: &str, entries: &[String], close: &str) -> String {
    let line = format!("::concord_runtime::{name}!({open} {} {close};\n", entries.join(", "));
    if line.len() <= 120 {
        return line;
    }
    let mut out = format!("::concord_runtime::{name}!({open}\n");
    for entry in entries {
        out.push_str(&format!("    {entry},\n"));
    }
    out.push_str(&format!("{close};\n"));
    out
}

/// The `Record` line: `Pinned` too for a type with a place of its own in its
/// schema file, and the engine's check when read for one whose module holds
/// keywords no type expresses.
fn record(model: &Model, def: &TypeDef, name: &Ident) -> String {
    let digest = if def.schema_digest == model.modules[def.module].digest { "DIGEST".to_owned() } else { Literal::string(&def.schema_digest).to_string() };
    let pinning = match def.pinning {
        Pinning::None => String::new(),
        Pinning::Pinned => format!(", pinned {} in DOCUMENTS", Literal::string(&def.origin.pointer)),
        Pinning::Asserted => format!(", asserted {} in DOCUMENTS", Literal::string(&def.origin.pointer)),
    };
    format!("::concord_runtime::record!({name}, {}, {digest}{pinning});\n", Literal::string(&def.name))
}

fn count_text(bound: &Option<u64>) -> String {
    match bound {
        Some(bound) => format!("Some({bound})"),
        None => "None".to_owned(),
    }
}

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
                TypeKind::Alias(aliased) if !model.get(*id).wrapped => shape = aliased,
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
    let inner = format_ident!("item{depth}");
    match shape {
        Shape::Array(item) => {
            let body = checks(model, item, &quote! { #inner }, depth + 1)?;
            Some(quote! { ::concord_runtime::bind::each(#value, |#inner| { #body Ok(()) })?; })
        }
        Shape::Map(item) => {
            let body = checks(model, item, &quote! { #inner }, depth + 1)?;
            Some(quote! { ::concord_runtime::bind::each_value(#value, |#inner| { #body Ok(()) })?; })
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
                    Some(quote! { ::concord_runtime::bind::element(#position, (|| -> Result<(), ::concord_runtime::bind::Failure> { let #inner = &#value.#index; #body Ok(()) })())?; })
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

/// The body of a check function for a value of `shape` (`fn(&T)`, as
/// `bind::field_checked` takes it), or `None` when the shape asserts nothing.
fn check_fn(model: &Model, shape: &Shape) -> Option<TokenStream> {
    let body = checks(model, shape, &quote! { value }, 0)?;
    Some(quote! { #body Ok(()) })
}
