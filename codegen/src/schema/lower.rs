//! Decisions taken once every type is read: how each union tells its
//! branches apart. serde's untagged enums and pydantic's unions would each
//! try the branches their own way (and pydantic's "smart" mode picks by
//! exactness), so concord types only unions where the value itself names
//! its branch: by a tag property, or by its JSON type. Any other union is
//! any JSON value, kept whole, which the assertion engine checks against
//! the union in both languages.

use crate::model::{Branch, Choice, Model, Presence, Shape, TypeId, TypeKind, Union};
use crate::naming::words;
use std::collections::BTreeSet;

/// A union as the reader found it: its branches' shapes, and whether at
/// most one may match (`oneOf`). Not in the model: it holds the type as any
/// JSON value until [`unions`] decides.
#[derive(Clone, Debug)]
pub struct Pending {
    pub branches: Vec<Shape>,
    pub exclusive: bool,
}

pub(super) fn unions(model: &mut Model, unions: Vec<(TypeId, Pending)>, entries: &mut [super::Entry]) {
    for (id, pending) in unions {
        let decided = tag(model, &pending.branches)
            .map(|(property, keys)| (Choice::Tag(property), keys))
            .or_else(|| by_type(model, &pending.branches, pending.exclusive).map(|keys| (Choice::JsonType, keys)));
        if decided.is_none() && nullable_tagged(model, id, &pending, entries) {
            continue;
        }
        let Some((choice, keys)) = decided else {
            // No branch can be named by the value: bound as any JSON value (as
            // the reader left it), kept whole, and the assertion engine checks
            // it against the union.
            let at = &model.get(id).origin.pointer;
            entries[model.get(id).module]
                .needs_engine
                .get_or_insert_with(|| format!("a union at {} whose branches no tag and no JSON type tell apart", super::shown_pointer(at)));
            continue;
        };
        // Two keys may make one word (`a-b`, `a_b`): a key that already is its
        // variant name keeps it, a rewritten one is numbered.
        let words = words::unique_words(keys.iter().map(String::as_str), |key| words::pascal(key, "V"));
        let branches = pending.branches.into_iter().zip(keys).zip(words).map(|((shape, key), word)| Branch { word, shape, key }).collect();
        model.types[id.0].kind = TypeKind::Union(Union { branches, choice });
    }
}

/// An alias or a union that contains itself through arrays or maps (a JSON
/// tree, `{"type": "array", "items": {"$ref": "#"}}`) is a type of its own
/// in both languages, a Rust newtype or enum and a Python `RootModel`: an
/// alias cannot name itself in either. One that contains itself with
/// nothing between holds no finite value, and `check` refuses it.
pub fn wrappers(model: &mut Model) {
    let trees = model.alias_cycles(true);
    for (def, tree) in model.types.iter_mut().zip(trees) {
        def.wrapped |= tree;
    }
}

/// `null` beside branches a tag tells apart (GeoJSON's `"geometry": {"oneOf":
/// [{"type": "null"}, Point, LineString, ...]}`): a union of those branches,
/// a type of its own (`<Name>Value`, as the non-null part of a nullable
/// object is), and the type is that union or null. Whether it was so.
fn nullable_tagged(model: &mut Model, id: TypeId, pending: &Pending, entries: &mut [super::Entry]) -> bool {
    let is_null = |model: &Model, branch: &Shape| *resolve(model, branch) == Shape::Null;
    let rest: Vec<Shape> = pending.branches.iter().filter(|branch| !is_null(model, branch)).cloned().collect();
    if rest.len() + 1 != pending.branches.len() || rest.len() < 2 {
        return false;
    }
    let Some((property, keys)) = tag(model, &rest) else { return false };
    let words = words::unique_words(keys.iter().map(String::as_str), |key| words::pascal(key, "V"));
    let branches = rest.into_iter().zip(keys).zip(words).map(|((shape, key), word)| Branch { word, shape, key }).collect();
    let def = model.get(id).clone();
    let name = entries[def.module].names.unique(&format!("{}Value", def.name), crate::naming::type_name);
    model.types.push(crate::model::TypeDef {
        name,
        doc: None,
        is_root: false,
        wrapped: false,
        pinning: Default::default(),
        kind: TypeKind::Union(Union { branches, choice: Choice::Tag(property) }),
        ..def
    });
    let inner = TypeId(model.types.len() - 1);
    model.types[id.0].kind = TypeKind::Alias(Shape::Nullable(Box::new(Shape::Named(inner))));
    true
}

/// Drops the types nothing uses: a union no value names the branch of is
/// any JSON value, and the types its branches were read into (each
/// property's merged copy, in a large `oneOf` of `allOf`s) are left with no
/// one to hold them. Every root and every definition (`$defs`,
/// `definitions`: the module's own types, for its users) is kept, and
/// whatever they reach.
pub fn prune(model: &mut Model) {
    let definition = |pointer: &str| {
        let mut tokens = pointer.split('/').skip(1);
        matches!(tokens.next(), Some("$defs" | "definitions")) && tokens.next().is_some() && tokens.next().is_none()
    };
    let mut keep: Vec<bool> = model.types.iter().map(|def| def.is_root || definition(&def.origin.pointer)).collect();
    let mut next: Vec<TypeId> = model.ids().filter(|id| keep[id.0]).collect();
    while let Some(id) = next.pop() {
        for used in model.references(id) {
            if !keep[used.0] {
                keep[used.0] = true;
                next.push(used);
            }
        }
    }
    if keep.iter().all(|kept| *kept) {
        return;
    }
    let mut renumbered = vec![None; model.types.len()];
    let mut count = 0;
    for (old, kept) in keep.iter().enumerate() {
        if *kept {
            renumbered[old] = Some(TypeId(count));
            count += 1;
        }
    }
    let types = std::mem::take(&mut model.types);
    model.types = types.into_iter().zip(&keep).filter(|(_, kept)| **kept).map(|(def, _)| def).collect();
    let map = |id: TypeId| renumbered[id.0].expect("a kept type names kept types only");
    for def in &mut model.types {
        match &mut def.kind {
            TypeKind::Struct(body) => {
                for field in &mut body.fields {
                    field.shape.renumber(&map);
                }
                if let crate::model::UnknownKeys::Typed(shape) = &mut body.unknown_keys {
                    shape.renumber(&map);
                }
            }
            TypeKind::Alias(shape) => shape.renumber(&map),
            TypeKind::Union(union) => union.branches.iter_mut().for_each(|branch| branch.shape.renumber(&map)),
            TypeKind::Enum(_) | TypeKind::OpenEnum(_) | TypeKind::TypedId(_) => {}
        }
    }
    for module in &mut model.modules {
        module.root = module.root.map(map);
    }
}

/// An optional property whose shape admits null takes null as a value
/// (absent and null stay apart in both languages): known once unions are
/// decided, as a union's null branch is one way to admit it.
pub fn presence(model: &mut Model) {
    let nullable: Vec<(usize, usize)> = model
        .types
        .iter()
        .enumerate()
        .filter_map(|(index, def)| match &def.kind {
            TypeKind::Struct(body) => Some(
                body.fields
                    .iter()
                    .enumerate()
                    .filter(|(_, field)| field.presence == Presence::Optional && field.shape.admits_null(model))
                    .map(move |(at, _)| (index, at)),
            ),
            _ => None,
        })
        .flatten()
        .collect();
    for (index, at) in nullable {
        if let TypeKind::Struct(body) = &mut model.types[index].kind {
            body.fields[at].presence = Presence::OptionalNullable;
        }
    }
}

/// The shape behind aliases and assertions.
fn resolve<'a>(model: &'a Model, mut shape: &'a Shape) -> &'a Shape {
    // Aliases may form a cycle (refused later, by `check`): stop after
    // as many steps as there are types.
    for _ in 0..=model.types.len() {
        match shape {
            Shape::Checked(inner, _) => shape = inner,
            Shape::Named(id) => match &model.get(*id).kind {
                TypeKind::Alias(aliased) => shape = aliased,
                _ => return shape,
            },
            _ => return shape,
        }
    }
    shape
}

/// The property every branch requires with its own constant string, and
/// each branch's value of it.
fn tag(model: &Model, branches: &[Shape]) -> Option<(String, Vec<String>)> {
    let structs: Vec<_> = branches
        .iter()
        .map(|branch| match resolve(model, branch) {
            Shape::Named(id) => match &model.get(*id).kind {
                TypeKind::Struct(body) => Some(body),
                _ => None,
            },
            _ => None,
        })
        .collect::<Option<_>>()?;
    let constant = |body: &crate::model::Struct, property: &str| -> Option<String> {
        let field = body.fields.iter().find(|field| field.json_name == property && field.presence.is_required())?;
        match resolve(model, &field.shape) {
            Shape::Named(id) => match &model.get(*id).kind {
                TypeKind::Enum(values) if values.len() == 1 => Some(values[0].value.clone()),
                _ => None,
            },
            _ => None,
        }
    };
    structs[0].fields.iter().find_map(|candidate| {
        let keys: Vec<String> = structs.iter().map(|body| constant(body, &candidate.json_name)).collect::<Option<_>>()?;
        let distinct: BTreeSet<&String> = keys.iter().collect();
        (distinct.len() == keys.len()).then(|| (candidate.json_name.clone(), keys))
    })
}

/// Each branch's JSON type, when no two branches share one. `integer` and
/// `number` may stand side by side in an `anyOf` (an integer goes to the
/// `integer` branch); in a `oneOf` an integer would match both.
fn by_type(model: &Model, branches: &[Shape], exclusive: bool) -> Option<Vec<String>> {
    let mut keys = Vec::new();
    for branch in branches {
        let key = match resolve(model, branch) {
            Shape::Null => "null",
            Shape::Bool => "boolean",
            Shape::Integer => "integer",
            Shape::Number => "number",
            Shape::String => "string",
            Shape::Array(_) | Shape::Tuple(_) => "array",
            Shape::Map(_) => "object",
            Shape::Named(id) => match &model.get(*id).kind {
                TypeKind::Struct(_) => "object",
                TypeKind::Enum(_) | TypeKind::OpenEnum(_) | TypeKind::TypedId(_) => "string",
                _ => return None,
            },
            Shape::Any | Shape::Nullable(_) | Shape::Checked(..) => return None,
        };
        if keys.contains(&key) || (exclusive && matches!(key, "integer" | "number") && keys.iter().any(|k| matches!(*k, "integer" | "number"))) {
            return None;
        }
        keys.push(key);
    }
    debug_assert!(keys.iter().all(|key| crate::vocabulary::keywords::JSON_TYPES.contains(key)));
    Some(keys.into_iter().map(str::to_owned).collect())
}
