//! A user's attributes on generated types and fields, as
//! `prost_build::Config::type_attribute` and `field_attribute` allow: a
//! derive (`Hash`, `Eq`, `Ord`), `#[non_exhaustive]`, a lint, a doc alias.
//! concord writes each type's (de)serialization itself, so what would
//! change how a type reads or writes JSON (`#[serde(...)]`, a derived
//! `Serialize`), or derive again what concord derives, is refused, naming
//! the setting, before anything is written.

use crate::error::{shown, Errors};
use crate::model::{Model, TypeId, TypeKind};
use proc_macro2::TokenStream;
use std::path::Path;

/// The user's attributes, each with the path it applies to: `.` (every
/// type), `Entry` (every type of a registry entry), `Entry.Type`, and for
/// fields `Entry.Type.property` (the property's JSON name).
#[derive(Clone, Debug, Default)]
pub struct Attributes {
    pub types: Vec<(String, String)>,
    pub fields: Vec<(String, String)>,
}

/// Checked attributes, parsed, by what they apply to.
#[derive(Default)]
pub(super) struct Placed {
    types: Vec<(TypeId, TokenStream)>,
    fields: Vec<(TypeId, String, TokenStream)>,
}

/// Which of the [`Attributes`] found something to go on, in one registry
/// (those that found nothing in any are refused: [`Attributes::unmatched`]).
#[derive(Clone, Debug, Default)]
pub struct Matched {
    types: Vec<bool>,
    fields: Vec<bool>,
}

impl Attributes {
    /// The attributes that found nothing to go on in any of these
    /// registries, each refused naming its setting: a path spelt wrong.
    pub fn unmatched(&self, registries: &[Matched]) -> Errors {
        let mut errors = Errors::default();
        let found = |index: usize, of: fn(&Matched) -> &Vec<bool>| registries.iter().any(|matched| of(matched).get(index).copied().unwrap_or(false));
        for (index, (path, _)) in self.types.iter().enumerate() {
            if !found(index, |matched| &matched.types) {
                errors.push(
                    Path::new(&format!("type_attribute({path:?})")),
                    "",
                    "it names no type of the registry (paths are `.`, `Entry` or `Entry.Type`; a type alias takes no attributes)",
                );
            }
        }
        for (index, (path, _)) in self.fields.iter().enumerate() {
            if !found(index, |matched| &matched.fields) {
                errors.push(
                    Path::new(&format!("field_attribute({path:?})")),
                    "",
                    "it names no field of the registry (paths are `Entry.Type.property`, the property's JSON name)",
                );
            }
        }
        errors
    }
}

impl Placed {
    pub(super) fn on_type(&self, id: TypeId) -> TokenStream {
        self.types.iter().filter(|(to, _)| *to == id).map(|(_, tokens)| tokens.clone()).collect()
    }

    pub(super) fn on_field(&self, id: TypeId, json_name: &str) -> TokenStream {
        self.fields.iter().filter(|(to, name, _)| *to == id && name == json_name).map(|(_, _, tokens)| tokens.clone()).collect()
    }
}

/// What each kind of generated type derives already (see `emit::rust`).
fn derived(kind: &TypeKind) -> &'static [&'static str] {
    match kind {
        TypeKind::Enum(_) => &["Clone", "Copy", "Debug", "PartialEq", "Eq", "Hash", "PartialOrd", "Ord"],
        TypeKind::OpenEnum(_) | TypeKind::TypedId(_) => &["Clone", "Debug", "PartialEq", "Eq", "Hash", "PartialOrd", "Ord"],
        _ => &["Clone", "Debug", "PartialEq"],
    }
}

/// Places every attribute, or says why one cannot be: a path that names no
/// type (or field), text that is no attribute, or one known not to apply.
pub(super) fn place(model: &Model, attributes: &Attributes) -> (Result<Placed, Errors>, Matched) {
    let mut errors = Errors::default();
    let mut placed = Placed::default();
    let mut matched = Matched::default();
    // Aliases are `pub type` and have nowhere to put an attribute: a path
    // that names one exactly is refused, one that covers it skips it.
    let items: Vec<TypeId> = model.ids().filter(|id| !matches!(model.get(*id).kind, TypeKind::Alias(_)) || model.get(*id).wrapped).collect();
    let setting = |kind: &str, path: &str| format!("type_attribute({path:?})").replace("type_", kind);
    for (path, text) in &attributes.types {
        let at = setting("type_", path);
        let covered: Vec<TypeId> = items.iter().copied().filter(|id| covers(path, &model.label(*id))).collect();
        matched.types.push(!covered.is_empty());
        if covered.is_empty() {
            continue;
        }
        let Some(tokens) = parse(text, &at, &mut errors) else { continue };
        for id in covered {
            if let Some(why) = refused(text, derived(&model.get(id).kind)) {
                errors.push(Path::new(&at), "", format!("{} on {}: {why}", shown(text), model.label(id)));
                break;
            }
            placed.types.push((id, tokens.clone()));
        }
    }
    for (path, text) in &attributes.fields {
        let at = setting("field_", path);
        let found: Vec<(TypeId, String)> = model
            .ids()
            .filter_map(|id| match &model.get(id).kind {
                TypeKind::Struct(body) => {
                    let label = model.label(id);
                    body.fields.iter().find(|field| *path == format!("{label}.{}", field.json_name)).map(|field| (id, field.json_name.clone()))
                }
                _ => None,
            })
            .collect();
        matched.fields.push(!found.is_empty());
        if found.is_empty() {
            continue;
        }
        let Some(tokens) = parse(text, &at, &mut errors) else { continue };
        if let Some(why) = refused(text, &[]) {
            errors.push(Path::new(&at), "", format!("{}: {why}", shown(text)));
            continue;
        }
        placed.fields.extend(found.into_iter().map(|(id, name)| (id, name, tokens.clone())));
    }
    (errors.finish(placed), matched)
}

/// Whether `path` covers the type labelled `label` (`Entry.Type`).
fn covers(path: &str, label: &str) -> bool {
    path == "." || path == label || label.strip_prefix(path).is_some_and(|rest| rest.starts_with('.'))
}

/// The attributes `text` holds (one or more `#[...]`), or why it holds none.
fn parse(text: &str, at: &str, errors: &mut Errors) -> Option<TokenStream> {
    use syn::parse::Parser;
    match syn::Attribute::parse_outer.parse_str(text) {
        // Emitted as written (the syntax tree is only for the checks).
        Ok(attributes) if !attributes.is_empty() => text.parse::<TokenStream>().ok(),
        Ok(_) => {
            errors.push(Path::new(at), "", format!("{} holds no attribute: write one as Rust does, such as `#[derive(Hash)]`", shown(text)));
            None
        }
        Err(error) => {
            errors.push(Path::new(at), "", format!("{} is not a Rust attribute: {error}", shown(text)));
            None
        }
    }
}

/// Why these attributes cannot go on a generated item, if they cannot.
fn refused(text: &str, derived: &[&str]) -> Option<String> {
    use syn::parse::Parser;
    let attributes = syn::Attribute::parse_outer.parse_str(text).ok()?;
    for attribute in attributes {
        let path = attribute.path();
        if path.is_ident("serde") {
            return Some(
                "concord writes each type's serialization itself, so `#[serde(...)]` has no effect: a type reads and writes what its schema says".to_owned(),
            );
        }
        if !path.is_ident("derive") {
            continue;
        }
        let Ok(traits) = attribute.parse_args_with(syn::punctuated::Punctuated::<syn::Path, syn::Token![,]>::parse_terminated) else { continue };
        for name in traits.iter().filter_map(|path| path.segments.last().map(|last| last.ident.to_string())) {
            if name == "Serialize" || name == "Deserialize" {
                return Some(format!("concord implements `{name}` itself (the JSON is the schema's), so a derived one would conflict"));
            }
            if derived.contains(&name.as_str()) {
                return Some(format!("`{name}` is derived already"));
            }
        }
    }
    None
}
