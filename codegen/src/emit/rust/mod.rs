//! Writes the model as Rust the way a reader expects to find it, as in
//! prost's output: each module's types are declared first, with their docs,
//! attributes and derives; then one `concord_runtime` macro per type gives
//! it its serde impls (`runtime/rust/src/impls.rs`; see `concord_runtime::bind`
//! for why not derived); the pinned schema texts close the file. Items are
//! formatted by prettyplease; the macro lines are written here, already laid out.

mod attributes;
mod checks;
mod docs;
mod enumeration;
mod newtype;
mod object;
mod typed_id;
mod types;
mod union;

use crate::naming::rust as ident;

pub use attributes::{Attributes, Matched};

use crate::model::{Model, Pinning, TypeDef, TypeId, TypeKind};
use checks::Checks;
use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::quote;
use types::Components;

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

/// What the emitter holds while it writes (prost-build's `CodeGenerator`):
/// the model, the user's attributes, the types that hold each other inline,
/// and the entry whose module is being written (a type of another entry is
/// named by its path from there).
struct Emitter<'a> {
    model: &'a Model,
    placed: &'a attributes::Placed,
    boxed: Components,
    module: usize,
}

/// One type as written: its declaration, as a user reads it, and the macro
/// lines that give it its impls (empty for an alias).
struct Written {
    declaration: TokenStream,
    implementation: String,
}

impl Emitter<'_> {
    /// A type, by its kind: each kind's declaration and implementation are
    /// in a file of their own (`object.rs`, `enumeration.rs`, `union.rs`,
    /// `newtype.rs`, `typed_id.rs`).
    fn written(&self, id: TypeId) -> Written {
        let def = self.model.get(id);
        // The user's attributes stand after the documentation, before concord's derives.
        let attrs = self.placed.on_type(id);
        let doc = docs::docs(&def.doc);
        let doc = quote! { #doc #attrs };
        let mut checks = Checks::new(self, id);
        let (declaration, kind) = match &def.kind {
            TypeKind::Struct(body) => (self.object_declaration(id, body, &doc), self.object_implementation(id, body, &mut checks)),
            TypeKind::Enum(values) => (self.enumeration_declaration(id, values, &doc), self.enumeration_implementation(id, values)),
            TypeKind::OpenEnum(open) => (self.open_enumeration_declaration(id, open, &doc), self.open_enumeration_implementation(id, open)),
            TypeKind::Union(body) => (self.union_declaration(id, body, &doc), self.union_implementation(id, body, &mut checks)),
            TypeKind::TypedId(prefix) => (self.typed_id_declaration(id, &doc), self.typed_id_implementation(id, prefix)),
            TypeKind::Alias(shape) if def.wrapped => (self.newtype_declaration(id, shape, &doc), self.newtype_implementation(id, shape, &mut checks)),
            TypeKind::Alias(shape) => return Written { declaration: self.alias_declaration(id, shape, &doc), implementation: String::new() },
        };
        let mut implementation = String::new();
        if self.model.is_record(id) {
            implementation.push_str(&record(self.model, def, &type_ident(self.model, id)));
        }
        implementation.push_str(&kind);
        implementation.push_str(&checks.block());
        Written { declaration, implementation }
    }
}

fn module_placed(model: &Model, placed: &attributes::Placed) -> String {
    let mut emitter = Emitter { model, placed, boxed: Components::new(model), module: 0 };
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
        emitter.module = index;
        let module = &model.modules[index];
        out.push_str(&format!("\npub mod {} {{\n", module_ident(model, index)));
        for line in docs::inner_docs(&format!("The types of {}.", module.describe())) {
            out.push_str(&format!("    //!{line}\n"));
        }
        let written: Vec<Written> = members.iter().map(|id| emitter.written(*id)).collect();
        let mut body = String::new();
        for each in &written {
            body.push('\n');
            body.push_str(&format_items(each.declaration.clone()));
        }
        let implementations: Vec<&String> = written.iter().map(|each| &each.implementation).filter(|text| !text.is_empty()).collect();
        if !implementations.is_empty() {
            body.push_str("\n// How each type reads and writes JSON: `concord_runtime`'s macros expand to its serde impls.\n");
            for text in implementations {
                body.push('\n');
                body.push_str(text);
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

fn variant_ident(word: &str) -> Ident {
    Ident::new(&crate::naming::type_name(word), Span::call_site())
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
    // Why the engine checks it too, where the line says so.
    let why = match (&def.pinning, &model.modules[def.module].asserted_by) {
        (Pinning::Asserted, Some(why)) => format!("// Also checked by the assertion engine when read, for what no type expresses: {}.\n", docs::doc_line(why)),
        _ => String::new(),
    };
    let pinning = match def.pinning {
        Pinning::None => String::new(),
        Pinning::Pinned => format!(", pinned {} in DOCUMENTS", Literal::string(&def.origin.pointer)),
        Pinning::Asserted => format!(", asserted {} in DOCUMENTS", Literal::string(&def.origin.pointer)),
    };
    format!("{why}::concord_runtime::record!({name}, {}, {digest}{pinning});\n", Literal::string(&def.name))
}
