//! Checks the whole model before anything is emitted: names that would
//! collide in either language, and shapes no language can hold. Every problem
//! is reported, with the place it comes from.

use crate::error::Errors;
use crate::model::{self, Model, Shape, TypeId, TypeKind};
use crate::naming::{self, python, rust};
use std::collections::HashMap;

/// How deeply arrays, maps, tuples, nullables and unions may nest inside one
/// another before an object or enum type: 32. One document spells at most
/// about 31 inline (the strict profile's 64 levels, two per `items`); through
/// `$ref`s to definitions that are not objects they could nest without end.
/// rustc refuses `Vec<Vec<...>>` some 128 deep (its recursion limit); each
/// level nests the generated checks one closure deeper, which syn and
/// prettyplease read recursively on a build script's or a test thread's
/// stack; pydantic builds such a type recursively (docs/limits.md).
pub const MAX_NESTING: usize = 32;

pub fn check(model: &Model) -> Result<(), Errors> {
    let mut errors = Errors::default();
    type_names(model, &mut errors);
    nesting(model, &mut errors);
    let self_containing = model.alias_cycles(false);
    for id in model.ids() {
        let def = model.get(id);
        match &def.kind {
            TypeKind::Struct(fields) => {
                let field_names =
                    |ident: fn(&str) -> String| fields.fields.iter().map(move |f| (f.json_name.as_str(), ident(&f.word), f.pointer.as_str())).collect();
                let per_language = [("Rust", field_names(rust::field)), ("Python", field_names(python::field))];
                collisions(model, id, "properties", "field", &per_language, &mut errors);
            }
            TypeKind::Enum(values) => {
                let at = def.origin.pointer.as_str();
                let variants = values.iter().map(|v| (v.value.as_str(), crate::naming::type_name(&v.word), at)).collect();
                collisions(model, id, "enum values", "variant", &[("Rust", variants)], &mut errors);
            }
            TypeKind::Union(_) => {
                if self_containing[id.0] {
                    errors.push(
                        &def.origin.file,
                        &def.origin.pointer,
                        format!("`{}` is a union that is one of its own branches, with no array, map or object in between: no value of it is finite", def.name),
                    );
                }
            }
            TypeKind::OpenEnum(open) => {
                // The catch-all's word is chosen apart from the values' words.
                let at = def.origin.pointer.as_str();
                let variants = open.values.iter().map(|v| (v.value.as_str(), crate::naming::type_name(&v.word), at)).collect();
                collisions(model, id, "enum values", "variant", &[("Rust", variants)], &mut errors);
            }
            TypeKind::TypedId(_) => {}
            TypeKind::Alias(_) => {
                if self_containing[id.0] {
                    errors.push(
                        &def.origin.file,
                        &def.origin.pointer,
                        format!("`{}` contains itself with no array, map or object in between: no value of it is finite", def.name),
                    );
                }
            }
        }
    }
    errors.finish(())
}

/// Two types of one module may not take the same name in either language;
/// nor may two modules, nor two roots (re-exported side by side at the top).
fn type_names(model: &Model, errors: &mut Errors) {
    // One name in every language (`naming::type_name`): one pass finds every collision.
    let mut seen: HashMap<(usize, String), TypeId> = HashMap::new();
    let mut roots: HashMap<String, TypeId> = HashMap::new();
    for id in model.ids() {
        let def = model.get(id);
        let name = naming::type_name(&def.name);
        let first = match seen.get(&(def.module, name.clone())) {
            Some(first) => Some(*first),
            None if def.is_root => roots.get(&name).copied(),
            None => None,
        };
        if let Some(first) = first {
            let first = &model.get(first).origin;
            errors.push(
                &def.origin.file,
                &def.origin.pointer,
                format!("type name `{name}` collides with the type from {} at {:?}; rename a `$defs` key or a property", first.file.display(), first.pointer),
            );
            continue;
        }
        seen.insert((def.module, name.clone()), id);
        if def.is_root {
            roots.insert(name, id);
        }
    }
    let mut modules: HashMap<String, usize> = HashMap::new();
    for (index, module) in model.modules.iter().enumerate() {
        let name = crate::naming::module_name(&module.word);
        match modules.get(&name) {
            Some(first) => errors.push(
                &module.file,
                "",
                format!("registry entries `{}` and `{}` both become the module `{name}`; rename one", model.modules[*first].name, module.name),
            ),
            None => {
                modules.insert(name, index);
            }
        }
    }
}

/// A name as the schema spells it, the identifier it became, and where.
type Named<'a> = (&'a str, String, &'a str);

/// Reports names that collide once made identifiers, once for all the
/// languages in which the same two names collide.
fn collisions(model: &Model, owner: TypeId, what: &str, becomes: &str, per_language: &[(&str, Vec<Named>)], errors: &mut Errors) {
    let def = model.get(owner);
    let mut found: Vec<(String, String, String, &str, Vec<&str>)> = Vec::new();
    for (language, names) in per_language {
        let mut seen: HashMap<&str, &str> = HashMap::new();
        for (json, ident, pointer) in names {
            match seen.get(ident.as_str()) {
                Some(first) => {
                    let key = (first.to_string(), json.to_string(), ident.clone());
                    match found.iter_mut().find(|f| (&f.0, &f.1, &f.2) == (&key.0, &key.1, &key.2)) {
                        Some(entry) => entry.4.push(language),
                        None => found.push((key.0, key.1, key.2, pointer, vec![language])),
                    }
                }
                None => {
                    seen.insert(ident, json);
                }
            }
        }
    }
    for (first, second, ident, pointer, languages) in found {
        errors.push(
            &def.origin.file,
            pointer,
            format!("{what} {first:?} and {second:?} of `{}` both become the {becomes} `{ident}` in {}", def.name, languages.join(" and ")),
        );
    }
}

/// Refuses the types whose values nest deeper than [`MAX_NESTING`] before an
/// object or enum type, each where the nesting first passes the limit: an
/// alias over a chain of 200 `$ref`s to arrays, say. Linear in the number of
/// types (a type's depth is its own layers plus the depth of the alias or
/// union it names, found once).
fn nesting(model: &Model, errors: &mut Errors) {
    let is_inline = |id: &TypeId| matches!(model.get(*id).kind, TypeKind::Alias(_) | TypeKind::Union(_));
    let inline = |id: TypeId| -> Vec<TypeId> { model.references(id).into_iter().filter(is_inline).collect() };
    let mut depth = vec![0usize; model.types.len()];
    let mut component_of = vec![usize::MAX; model.types.len()];
    // Each component after the ones it reaches: their depths are known. Inside a
    // component (a union that holds itself) each language refers, not nests.
    for (number, component) in model::components(model.types.len(), model.ids(), inline).into_iter().enumerate() {
        for id in &component {
            component_of[id.0] = number;
        }
        for id in &component {
            let named = |target: TypeId| if component_of[target.0] == number { 0 } else { depth[target.0] };
            let def = model.get(*id);
            // A struct's fields nest in it, but the struct is a type of its own in both languages.
            let (own, passed_on) = match &def.kind {
                TypeKind::Alias(shape) => (layers(shape, &named), true),
                TypeKind::Union(union) => (1 + union.branches.iter().map(|branch| layers(&branch.shape, &named)).max().unwrap_or(0), true),
                TypeKind::Struct(body) => {
                    let typed = match &body.unknown_keys {
                        crate::model::UnknownKeys::Typed(shape) => Some(shape),
                        _ => None,
                    };
                    (body.fields.iter().map(|field| &field.shape).chain(typed).map(|shape| layers(shape, &named)).max().unwrap_or(0), false)
                }
                TypeKind::Enum(_) | TypeKind::OpenEnum(_) | TypeKind::TypedId(_) => (0, false),
            };
            if passed_on {
                depth[id.0] = own;
            }
            // Reported where the nesting first passes the limit, not again by every type that holds that one.
            let first = inline(*id).iter().all(|target| component_of[target.0] == number || depth[target.0] <= MAX_NESTING);
            if own > MAX_NESTING && first {
                errors.push(
                    &def.origin.file,
                    &def.origin.pointer,
                    format!(
                        "`{}` nests arrays, maps, nullables and unions {own} deep through `$ref`s; concord allows {MAX_NESTING} (docs/limits.md): the bindings would not compile",
                        def.name
                    ),
                );
            }
        }
    }
}

/// How many arrays, maps, tuples and nullables a shape nests, and the depth of
/// the type it names (`named`) below them.
fn layers(shape: &Shape, named: &impl Fn(TypeId) -> usize) -> usize {
    match shape {
        Shape::Array(inner) | Shape::Map(inner) | Shape::Nullable(inner) => 1 + layers(inner, named),
        Shape::Tuple(items) => 1 + items.iter().map(|item| layers(item, named)).max().unwrap_or(0),
        Shape::Checked(inner, _) => layers(inner, named),
        Shape::Named(id) => named(*id),
        Shape::Any | Shape::Null | Shape::Bool | Shape::Integer | Shape::Number | Shape::String => 0,
    }
}
