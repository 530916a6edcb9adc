//! `concord diff`: what a change from one registry to another breaks, by
//! type and direction (docs/compatibility.md). Both registries are read into
//! the model the emitters read, so the checker judges what the bindings do;
//! types are paired by the names the bindings give them and walked in
//! parallel from each root.

pub mod git;
pub mod report;
pub mod rules;

pub use rules::{Rule, RuleInfo, RULES};

use concord_codegen::error::pointer_push;
use concord_codegen::model::{Check, Choice, EnumValue, Model, Shape, Struct, TypeId, TypeKind, UnknownKeys};
use std::collections::{HashMap, HashSet, VecDeque};
use std::fmt;
use std::path::{Path, PathBuf};

/// How much a finding matters; `--fail-on` compares against it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Who meets whom when a change breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Direction {
    /// A new reader meets old data.
    Backward,
    /// An old reader meets new data.
    Forward,
    /// An old binding reads new data and writes it back.
    Relay,
}

impl Direction {
    pub fn as_str(self) -> &'static str {
        match self {
            Direction::Backward => "backward",
            Direction::Forward => "forward",
            Direction::Relay => "relay",
        }
    }
}

/// One change and what it breaks.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    /// The rule (docs/compatibility.md); the severity and the directions
    /// are its row's.
    pub rule: Rule,
    pub severity: Severity,
    pub breaks: Vec<Direction>,
    /// The type holding the change, `Entry.Type` (the new one's name, or the
    /// old one's for what was removed).
    pub type_label: String,
    /// Where in a record: a JSON pointer from the root, `*` for any array
    /// item or map value; empty for the record.
    pub path: String,
    /// The schema file and the JSON pointer into it of what changed (in the
    /// new registry, or the old one for what was removed).
    pub file: PathBuf,
    pub pointer: String,
    pub message: String,
    /// The root entry's place, for ordering the report.
    order: usize,
}

/// Every finding of a change from `old` to `new`, in report order: by root
/// (new registry order, then removed ones), by path, by rule.
pub fn diff(old: &Model, new: &Model) -> Vec<Finding> {
    let mut walk = Walk { old, new, findings: Vec::new(), seen: HashSet::new(), queue: VecDeque::new(), order: 0 };
    walk.entries();
    let mut findings = walk.findings;
    findings.sort_by(|a, b| (a.order, &a.path, a.rule.id()).cmp(&(b.order, &b.path, b.rule.id())));
    findings.dedup();
    findings
}

struct Walk<'m> {
    old: &'m Model,
    new: &'m Model,
    findings: Vec<Finding>,
    /// Type pairs already compared (a shared or recursive type once).
    seen: HashSet<(TypeId, TypeId)>,
    queue: VecDeque<(TypeId, TypeId, String)>,
    order: usize,
}

/// Where a finding is: the type that holds the change, the record path, and
/// the schema location.
#[derive(Clone)]
struct At {
    type_label: String,
    path: String,
    file: PathBuf,
    pointer: String,
}

impl<'m> Walk<'m> {
    fn report(&mut self, rule: Rule, at: &At, message: String) {
        self.findings.push(Finding {
            rule,
            severity: rule.severity(),
            breaks: rule.breaks().to_vec(),
            type_label: at.type_label.clone(),
            path: at.path.clone(),
            file: at.file.clone(),
            pointer: at.pointer.clone(),
            message,
            order: self.order,
        });
    }

    fn entries(&mut self) {
        let (old, new) = (self.old, self.new);
        // A version listed in both registries must have the same bytes.
        let versions: HashMap<(&str, u64), usize> =
            old.modules.iter().enumerate().filter_map(|(index, module)| Some(((module.entry.as_str(), module.version?), index))).collect();
        for (index, module) in new.modules.iter().enumerate() {
            self.order = index;
            let Some(version) = module.version else { continue };
            let Some(&before) = versions.get(&(module.entry.as_str(), version)) else { continue };
            if old.modules[before].digest != module.digest {
                let type_label = module.root.map_or_else(|| module.name.clone(), |root| new.label(root));
                let at = At { type_label, path: String::new(), file: module.file.clone(), pointer: String::new() };
                let message = format!(
                    "version {version} of {} was pinned {} and is now {}: a pinned version is frozen, so data written under it may no longer read; list the change as a new version",
                    module.entry, old.modules[before].digest, module.digest
                );
                self.report(Rule::PinnedVersionChanged, &at, message);
            }
        }
        let roots = |model: &'m Model| -> HashMap<&'m str, (usize, TypeId)> {
            model.modules.iter().enumerate().filter_map(|(index, module)| Some((module.name.as_str(), (index, module.root?)))).collect()
        };
        let (old_roots, new_roots) = (roots(old), roots(new));
        for (index, module) in new.modules.iter().enumerate() {
            self.order = index;
            let Some(root) = module.root else { continue };
            let at = At { type_label: new.label(root), path: String::new(), file: module.file.clone(), pointer: String::new() };
            let Some(&(before, old_root)) = old_roots.get(module.name.as_str()) else {
                self.report(Rule::EntryAdded, &at, format!("a new record type {}", module.name));
                continue;
            };
            let was = &old.modules[before];
            if was.version != module.version {
                let shown = |version: Option<u64>| version.map_or_else(|| "no version".to_owned(), |v| format!("version {v}"));
                let message = format!(
                    "{} now binds {} of {} (it bound {}); what follows compares the two",
                    module.name,
                    shown(module.version),
                    module.entry,
                    shown(was.version)
                );
                self.report(Rule::NewestVersionChanged, &at, message);
            }
            self.queue.push_back((old_root, root, String::new()));
            while let Some((a, b, path)) = self.queue.pop_front() {
                self.types(a, b, path);
            }
        }
        for (index, module) in old.modules.iter().enumerate() {
            self.order = new.modules.len() + index;
            let Some(root) = module.root else { continue };
            if !new_roots.contains_key(module.name.as_str()) {
                let at = At { type_label: old.label(root), path: String::new(), file: module.file.clone(), pointer: String::new() };
                self.report(Rule::EntryRemoved, &at, format!("the record type {} is gone: its data has no reader", module.name));
            }
        }
    }

    /// Compares two named types met at `path`.
    fn types(&mut self, a: TypeId, b: TypeId, path: String) {
        if !self.seen.insert((a, b)) {
            return;
        }
        let (old, new) = (self.old.get(a), self.new.get(b));
        let at = At { type_label: self.new.label(b), path: path.clone(), file: new.origin.file.clone(), pointer: new.origin.pointer.clone() };
        match (&old.kind, &new.kind) {
            (TypeKind::Struct(x), TypeKind::Struct(y)) => self.structs(x, y, &at, &old.origin.file),
            (TypeKind::Enum(x), TypeKind::Enum(y)) => self.enum_values((x, false), (y, false), &at),
            (TypeKind::OpenEnum(x), TypeKind::OpenEnum(y)) => self.enum_values((&x.values, true), (&y.values, true), &at),
            (TypeKind::Enum(x), TypeKind::OpenEnum(y)) => {
                self.report(Rule::EnumOpened, &at, "the enum now keeps any string: an older reader refuses strings it does not list".to_owned());
                self.enum_values((x, false), (&y.values, true), &at);
            }
            (TypeKind::OpenEnum(x), TypeKind::Enum(y)) => {
                self.report(Rule::EnumClosed, &at, "the enum no longer keeps other strings: old data may hold one".to_owned());
                self.enum_values((&x.values, true), (y, false), &at);
            }
            (TypeKind::Union(x), TypeKind::Union(y)) => {
                if x.choice != y.choice {
                    let message = format!("the union picks its branch {} (it picked {})", choice(&y.choice), choice(&x.choice));
                    self.report(Rule::UnionTagChanged, &at, message);
                    return;
                }
                for branch in &y.branches {
                    match x.branches.iter().find(|other| other.key == branch.key) {
                        Some(before) => self.shapes(&before.shape, &branch.shape, &at),
                        None => self.report(Rule::UnionBranchAdded, &at, format!("a new branch {:?}: an older reader refuses it", branch.key)),
                    }
                }
                for branch in x.branches.iter().filter(|before| !y.branches.iter().any(|branch| branch.key == before.key)) {
                    self.report(Rule::UnionBranchRemoved, &at, format!("the branch {:?} is gone: old data of it is refused", branch.key));
                }
            }
            (TypeKind::TypedId(x), TypeKind::TypedId(y)) if x != y => {
                self.report(Rule::TypedIdPrefixChanged, &at, format!("the id prefix is {y:?} (it was {x:?}): neither reads the other's ids"));
            }
            (TypeKind::TypedId(_), TypeKind::TypedId(_)) => {}
            // An alias on either side: compare what it stands for.
            (TypeKind::Alias(x), _) => self.shapes(x, &Shape::Named(b), &at),
            (_, TypeKind::Alias(y)) => self.shapes(&Shape::Named(a), y, &at),
            _ => self.shapes_changed(&Shape::Named(a), &Shape::Named(b), &at),
        }
    }

    fn structs(&mut self, old: &Struct, new: &Struct, at: &At, old_file: &Path) {
        self.policy(&old.unknown_keys, &new.unknown_keys, at);
        // `minProperties`/`maxProperties`.
        self.bounds(&old.checks(), &new.checks(), at);
        if let (UnknownKeys::Typed(x), UnknownKeys::Typed(y)) = (&old.unknown_keys, &new.unknown_keys) {
            self.shapes(x, y, &At { path: format!("{}/*", at.path), ..at.clone() });
        }
        self.versions(old, new, at);
        for field in &new.fields {
            let here = At { path: pointer_push(&at.path, &field.json_name), pointer: field.pointer.clone(), ..at.clone() };
            match old.fields.iter().find(|before| before.json_name == field.json_name) {
                Some(before) => {
                    match (before.presence.is_required(), field.presence.is_required()) {
                        (false, true) => self.report(Rule::PropertyRequired, &here, "the property is now required: old data may lack it".to_owned()),
                        (true, false) => {
                            self.report(Rule::PropertyOptional, &here, "the property is now optional: an older reader refuses new data without it".to_owned())
                        }
                        _ => {}
                    }
                    self.shapes(&before.shape, &field.shape, &here);
                }
                None => {
                    let name = &field.json_name;
                    match &old.unknown_keys {
                        UnknownKeys::Refuse => {
                            self.report(Rule::PropertyAddedClosed, &here, format!("{name:?} is new at a closed type: an older reader refuses it"))
                        }
                        // Beside `patternProperties`, a key no pattern matches is dropped too.
                        UnknownKeys::Drop | UnknownKeys::Matching(_) => self.report(
                            Rule::PropertyAddedDefault,
                            &here,
                            format!("{name:?} is new at a default type: an older reader drops it, so a relay loses it"),
                        ),
                        // An old reader reads the key as one of its typed entries.
                        UnknownKeys::Typed(entries) => self.shapes(entries, &field.shape, &here),
                        UnknownKeys::Keep => self.report(
                            Rule::PropertyAddedGrowthPoint,
                            &here,
                            format!("{name:?} is new at a growth point: an older reader keeps it, but old data may hold {name:?}, kept, with another shape"),
                        ),
                    }
                    if field.presence.is_required() {
                        self.report(Rule::RequiredPropertyAdded, &here, format!("{name:?} is new and required: old data lacks it"));
                    }
                }
            }
        }
        for before in old.fields.iter().filter(|before| !new.fields.iter().any(|field| field.json_name == before.json_name)) {
            // The old registry's location: the property is not in the new one.
            let here = At { path: pointer_push(&at.path, &before.json_name), pointer: before.pointer.clone(), file: old_file.to_path_buf(), ..at.clone() };
            let name = &before.json_name;
            match &new.unknown_keys {
                UnknownKeys::Refuse => {
                    self.report(Rule::PropertyRemovedClosed, &here, format!("{name:?} is gone from a closed type: old data holding it is refused"))
                }
                UnknownKeys::Drop | UnknownKeys::Matching(_) => {
                    self.report(Rule::PropertyRemovedDefault, &here, format!("{name:?} is gone: a new reader drops it from old data"))
                }
                UnknownKeys::Keep | UnknownKeys::Typed(_) => self.report(
                    Rule::PropertyRemovedGrowthPoint,
                    &here,
                    format!("{name:?} is gone from a growth point: old data's key is kept as an unknown key"),
                ),
            }
            if before.presence.is_required() {
                self.report(Rule::RequiredPropertyRemoved, &here, format!("{name:?} was required: an older reader refuses new data without it"));
            }
        }
    }

    fn policy(&mut self, old: &UnknownKeys, new: &UnknownKeys, at: &At) {
        let (from, to) = (policy_name(old), policy_name(new));
        if from == to {
            return;
        }
        let message = format!("the type is now {to} (it was {from})");
        match (old, new) {
            (UnknownKeys::Typed(_), UnknownKeys::Typed(_)) => {}
            (UnknownKeys::Keep | UnknownKeys::Drop | UnknownKeys::Matching(_), UnknownKeys::Typed(_)) => {
                self.report(Rule::PolicyTypedMap, at, format!("{message}: old data's unknown keys, of any shape, are now typed entries"));
            }
            (UnknownKeys::Typed(_), UnknownKeys::Keep) => {
                self.report(
                    Rule::PolicyTypedMapToGrowthPoint,
                    at,
                    format!("{message}: new data may carry unknown keys of any shape, which an older reader refuses as entries of its type"),
                );
            }
            (UnknownKeys::Typed(_), UnknownKeys::Drop | UnknownKeys::Matching(_)) => {
                let message = format!("{message}: new data may carry unknown keys of any shape, which an older reader refuses as entries of its type, and an older relay keeps the entries new readers drop");
                self.report(Rule::PolicyTypedMapToDefault, at, message);
            }
            (_, UnknownKeys::Refuse) => self.report(Rule::PolicyClosed, at, format!("{message}: old data with unknown keys is refused")),
            (UnknownKeys::Refuse, _) => self.report(
                if matches!(new, UnknownKeys::Drop) { Rule::PolicyDefaultFromClosed } else { Rule::PolicyGrowthPointFromClosed },
                at,
                format!("{message}: new data may carry unknown keys, which an older, closed reader refuses"),
            ),
            // Beside `patternProperties`, the keys no pattern matches are dropped as at a default type.
            (UnknownKeys::Drop | UnknownKeys::Matching(_), _) => {
                self.report(Rule::PolicyGrowthPointFromDefault, at, format!("{message}: an older relay drops the unknown keys new writers keep here"))
            }
            (_, UnknownKeys::Drop | UnknownKeys::Matching(_)) => {
                self.report(Rule::PolicyDefaultFromGrowthPoint, at, format!("{message}: an older relay keeps unknown keys that new readers drop"))
            }
            // The rest are the same policy on both sides, which returned above.
            _ => {}
        }
    }

    fn versions(&mut self, old: &Struct, new: &Struct, at: &At) {
        match (&old.version, &new.version) {
            (None, None) => {}
            (Some(x), Some(y)) if x.field == y.field => {
                let added: Vec<String> = y.supported.iter().filter(|v| !x.supported.contains(v)).map(i64::to_string).collect();
                let removed: Vec<String> = x.supported.iter().filter(|v| !y.supported.contains(v)).map(i64::to_string).collect();
                let here = At { path: pointer_push(&at.path, &y.field), ..at.clone() };
                if !added.is_empty() {
                    let message = format!("version {} added: an older reader refuses it as unsupported", added.join(", "));
                    self.report(Rule::EnvelopeVersionAdded, &here, message);
                }
                if !removed.is_empty() {
                    let message = format!("version {} dropped: its data is refused as unsupported", removed.join(", "));
                    self.report(Rule::EnvelopeVersionRemoved, &here, message);
                }
            }
            (x, y) => {
                let shown =
                    |version: &Option<concord_codegen::model::Version>| version.as_ref().map_or_else(|| "none".to_owned(), |v| format!("{:?}", v.field));
                let message = format!("the version property is {} (it was {})", shown(y), shown(x));
                let field = y.as_ref().or(x.as_ref()).map(|version| version.field.as_str()).unwrap_or_default();
                let here = At { path: pointer_push(&at.path, field), ..at.clone() };
                // Versioned now: old data may hold a version outside the set.
                // No longer: new data may hold one an older reader refuses.
                // (An `enum` only the assertion engine checked is not in the model.)
                let rule = match (x, y) {
                    (None, _) => Rule::EnvelopeVersionFieldAdded,
                    (_, None) => Rule::EnvelopeVersionFieldRemoved,
                    _ => Rule::EnvelopeVersionFieldRenamed,
                };
                self.report(rule, &here, message);
            }
        }
    }

    /// Values added and removed. An added value breaks only a closed old
    /// reader; a removed one only a closed new reader (an open one keeps it).
    fn enum_values(&mut self, (old, old_open): (&[EnumValue], bool), (new, new_open): (&[EnumValue], bool), at: &At) {
        let added: Vec<&str> = new.iter().filter(|v| !old.iter().any(|o| o.value == v.value)).map(|v| v.value.as_str()).collect();
        let removed: Vec<&str> = old.iter().filter(|o| !new.iter().any(|v| v.value == o.value)).map(|o| o.value.as_str()).collect();
        let list = |values: &[&str]| values.iter().map(|v| format!("{v:?}")).collect::<Vec<_>>().join(", ");
        if !added.is_empty() {
            if old_open {
                self.report(Rule::OpenEnumValueAdded, at, format!("{} added: an older reader keeps it as unrecognized", list(&added)));
            } else {
                self.report(Rule::EnumValueAdded, at, format!("{} added: an older reader refuses it", list(&added)));
            }
        }
        if !removed.is_empty() {
            if new_open {
                self.report(Rule::OpenEnumValueRemoved, at, format!("{} removed: old data holding it reads as unrecognized", list(&removed)));
            } else {
                self.report(Rule::EnumValueRemoved, at, format!("{} removed: old data holding it is refused", list(&removed)));
            }
        }
    }

    /// Compares the shapes of one value (a field's, an item's, a branch's).
    fn shapes(&mut self, old: &Shape, new: &Shape, at: &At) {
        let (old_checks, old_null, old) = self.normal(old, Side::Old);
        let (new_checks, new_null, new) = self.normal(new, Side::New);
        self.bounds(&old_checks, &new_checks, at);
        match (old_null, new_null) {
            (false, true) => self.report(Rule::NullableAdded, at, "the value may now be null: an older reader refuses null".to_owned()),
            (true, false) => self.report(Rule::NullableRemoved, at, "the value may no longer be null: old data may hold null".to_owned()),
            _ => {}
        }
        match (old, new) {
            (Shape::Any, Shape::Any) | (Shape::Null, Shape::Null) | (Shape::Bool, Shape::Bool) => {}
            (Shape::Integer, Shape::Integer) | (Shape::Number, Shape::Number) | (Shape::String, Shape::String) => {}
            (Shape::Any, _) => self.report(Rule::TypeNarrowed, at, format!("the value is now {} (it was any JSON value)", self.named(new, Side::New))),
            (_, Shape::Any) => self.report(Rule::TypeWidened, at, format!("the value is now any JSON value (it was {})", self.named(old, Side::Old))),
            (Shape::Integer, Shape::Number) => self.report(Rule::TypeWidened, at, "the value is now a number (it was an integer)".to_owned()),
            (Shape::Number, Shape::Integer) => self.report(Rule::TypeNarrowed, at, "the value is now an integer (it was a number)".to_owned()),
            (Shape::Array(x), Shape::Array(y)) | (Shape::Map(x), Shape::Map(y)) => {
                let here = At { path: format!("{}/*", at.path), ..at.clone() };
                self.shapes(x, y, &here);
            }
            (Shape::Tuple(x), Shape::Tuple(y)) if x.len() == y.len() => {
                for (index, (x, y)) in x.iter().zip(y).enumerate() {
                    let here = At { path: format!("{}/{index}", at.path), ..at.clone() };
                    self.shapes(x, y, &here);
                }
            }
            (Shape::Named(a), Shape::Named(b)) => self.queue.push_back((*a, *b, at.path.clone())),
            (Shape::String, Shape::Named(b)) if self.is_string_like(*b, Side::New) => {
                if !matches!(self.new.get(*b).kind, TypeKind::OpenEnum(_)) {
                    self.report(Rule::TypeNarrowed, at, format!("the string is now {} (it was any string)", self.named(new, Side::New)));
                }
            }
            (Shape::Named(a), Shape::String) if self.is_string_like(*a, Side::Old) => {
                if !matches!(self.old.get(*a).kind, TypeKind::OpenEnum(_)) {
                    self.report(Rule::TypeWidened, at, format!("the value is now any string (it was {})", self.named(old, Side::Old)));
                }
            }
            _ => self.shapes_changed(old, new, at),
        }
    }

    fn shapes_changed(&mut self, old: &Shape, new: &Shape, at: &At) {
        let message = format!("the value is now {} (it was {}): neither reads the other's", self.named(new, Side::New), self.named(old, Side::Old));
        self.report(Rule::TypeChanged, at, message);
    }

    /// A value's shape below its assertions, nullability and aliases: the
    /// assertions met on the way (at every level), whether `null` is allowed
    /// (`[X, "null"]`), and the shape that is left.
    fn normal<'s>(&self, mut shape: &'s Shape, side: Side) -> (Vec<Check>, bool, &'s Shape)
    where
        'm: 's,
    {
        let model = self.model(side);
        let (mut found, mut null) = (Vec::new(), false);
        // Bounded: each step goes one alias, wrapper or check further down.
        for _ in 0..=model.types.len() + 64 {
            match shape {
                Shape::Checked(inner, checks) => {
                    found.extend(checks.iter().cloned());
                    shape = inner;
                }
                Shape::Nullable(inner) => {
                    null = true;
                    shape = inner;
                }
                Shape::Named(id) => match &model.get(*id).kind {
                    TypeKind::Alias(inner) => shape = inner,
                    _ => break,
                },
                _ => break,
            }
        }
        (found, null, shape)
    }

    fn model(&self, side: Side) -> &'m Model {
        match side {
            Side::Old => self.old,
            Side::New => self.new,
        }
    }

    /// A shape as the report names it, a named type by what it is.
    fn named(&self, shape: &Shape, side: Side) -> String {
        let model = self.model(side);
        let Shape::Named(id) = shape else { return shape_name(shape) };
        let def = model.get(*id);
        let what = match &def.kind {
            TypeKind::Struct(_) => "an object",
            TypeKind::Enum(_) => "an enum",
            TypeKind::OpenEnum(_) => "an open enum",
            TypeKind::Union(_) => "a union",
            TypeKind::TypedId(_) => "a typed id",
            TypeKind::Alias(inner) => return shape_name(inner),
        };
        format!("{what} {}", def.name)
    }

    fn is_string_like(&self, id: TypeId, side: Side) -> bool {
        let model = self.model(side);
        matches!(model.get(id).kind, TypeKind::Enum(_) | TypeKind::OpenEnum(_) | TypeKind::TypedId(_))
    }

    fn bounds(&mut self, old: &[Check], new: &[Check], at: &At) {
        // Each kind of bound: (narrowed, widened) descriptions.
        let mut narrowed = Vec::new();
        let mut widened = Vec::new();
        let pattern = |checks: &[Check]| -> Vec<String> {
            let mut found: Vec<String> = checks.iter().filter_map(|c| if let Check::Pattern { ecma, .. } = c { Some(ecma.clone()) } else { None }).collect();
            found.sort();
            found
        };
        let (before, after) = (pattern(old), pattern(new));
        if before != after {
            // Added: a narrowing; removed: a widening; changed: concord does
            // not compare regular languages, so either way.
            let (rule, message) = match (before.is_empty(), after.is_empty()) {
                (true, _) => (Rule::PatternAdded, format!("a pattern {after:?} where there was none: old data may not match it")),
                (_, true) => (Rule::PatternRemoved, format!("the pattern {before:?} is gone: an older reader refuses new data that does not match it")),
                _ => (Rule::PatternChanged, format!("the pattern is {after:?} (it was {before:?}): concord does not compare regular languages")),
            };
            self.report(rule, at, message);
        }
        let range = |checks: &[Check], which: Family| -> Range {
            checks.iter().filter_map(which).fold((None, None), |(lo, hi), (l, h)| {
                (
                    lo.max(l),
                    match (hi, h) {
                        (Some(a), Some(b)) => Some(a.min(b)),
                        (a, b) => a.or(b),
                    },
                )
            })
        };
        let families: [(&str, Family); 3] = [
            ("length", |c| if let Check::Length { min, max } = c { Some((min.map(i128::from), max.map(i128::from))) } else { None }),
            ("number of items", |c| if let Check::Items { min, max } = c { Some((min.map(i128::from), max.map(i128::from))) } else { None }),
            ("number of properties", |c| if let Check::Properties { min, max } = c { Some((min.map(i128::from), max.map(i128::from))) } else { None }),
        ];
        for (what, which) in families {
            let (old_lo, old_hi) = range(old, which);
            let (new_lo, new_hi) = range(new, which);
            let (old_lo, new_lo) = (old_lo.unwrap_or(i128::MIN), new_lo.unwrap_or(i128::MIN));
            let (old_hi, new_hi) = (old_hi.unwrap_or(i128::MAX), new_hi.unwrap_or(i128::MAX));
            let shown = |bound: i128| if bound == i128::MIN || bound == i128::MAX { "none".to_owned() } else { bound.to_string() };
            if new_lo > old_lo {
                narrowed.push(format!("least {what} {} (it was {})", shown(new_lo), shown(old_lo)));
            } else if new_lo < old_lo {
                widened.push(format!("least {what} {} (it was {})", shown(new_lo), shown(old_lo)));
            }
            if new_hi < old_hi {
                narrowed.push(format!("greatest {what} {} (it was {})", shown(new_hi), shown(old_hi)));
            } else if new_hi > old_hi {
                widened.push(format!("greatest {what} {} (it was {})", shown(new_hi), shown(old_hi)));
            }
        }
        // Integer and number bounds as one range, so that integer → number
        // with the same bounds changes no bound.
        let ((old_lo, old_hi), (new_lo, new_hi)) = (value_bounds(old), value_bounds(new));
        match compare_lower(new_lo, old_lo) {
            std::cmp::Ordering::Greater => narrowed.push(format!("least value {} (it was {})", shown_bound(new_lo), shown_bound(old_lo))),
            std::cmp::Ordering::Less => widened.push(format!("least value {} (it was {})", shown_bound(new_lo), shown_bound(old_lo))),
            std::cmp::Ordering::Equal => {}
        }
        match compare_upper(new_hi, old_hi) {
            std::cmp::Ordering::Less => narrowed.push(format!("greatest value {} (it was {})", shown_bound(new_hi), shown_bound(old_hi))),
            std::cmp::Ordering::Greater => widened.push(format!("greatest value {} (it was {})", shown_bound(new_hi), shown_bound(old_hi))),
            std::cmp::Ordering::Equal => {}
        }
        let multiple = |checks: &[Check]| -> Option<String> {
            checks.iter().find_map(|c| match c {
                Check::IntegerMultipleOf(m) => Some(m.to_string()),
                Check::NumberMultipleOf(m) => Some(m.clone()),
                _ => None,
            })
        };
        match (multiple(old), multiple(new)) {
            (x, y) if x == y => {}
            (None, Some(y)) => narrowed.push(format!("a multiple of {y}")),
            (Some(x), None) => widened.push(format!("no longer a multiple of {x}")),
            (Some(x), Some(y)) => match (x.parse::<u64>(), y.parse::<u64>()) {
                (Ok(a), Ok(b)) if b % a == 0 => narrowed.push(format!("a multiple of {y} (it was {x})")),
                (Ok(a), Ok(b)) if a % b == 0 => widened.push(format!("a multiple of {y} (it was {x})")),
                _ => {
                    narrowed.push(format!("a multiple of {y} (it was {x})"));
                    widened.push(format!("a multiple of {y} (it was {x})"));
                }
            },
            _ => {}
        }
        let unique = |checks: &[Check]| checks.contains(&Check::UniqueItems);
        match (unique(old), unique(new)) {
            (false, true) => narrowed.push("items must be unique".to_owned()),
            (true, false) => widened.push("items need no longer be unique".to_owned()),
            _ => {}
        }
        if !narrowed.is_empty() {
            self.report(Rule::BoundNarrowed, at, format!("{}: old data may be outside it", narrowed.join("; ")));
        }
        if !widened.is_empty() {
            self.report(Rule::BoundWidened, at, format!("{}: new data may be outside what an older reader accepts", widened.join("; ")));
        }
    }
}

#[derive(Clone, Copy)]
enum Side {
    Old,
    New,
}

fn policy_name(policy: &UnknownKeys) -> &'static str {
    match policy {
        UnknownKeys::Drop => "default (unknown keys dropped)",
        UnknownKeys::Refuse => "closed (unknown keys refused)",
        UnknownKeys::Keep => "a growth point (unknown keys kept)",
        UnknownKeys::Typed(_) => "a typed map beside its properties (unknown keys kept)",
        UnknownKeys::Matching(_) => "default beside patternProperties (keys a pattern matches kept, others dropped)",
    }
}

fn choice(choice: &Choice) -> String {
    match choice {
        Choice::Tag(tag) => format!("by its {tag:?} property"),
        Choice::JsonType => "by JSON type".to_owned(),
    }
}

fn shape_name(shape: &Shape) -> String {
    match shape {
        Shape::Any => "any JSON value".to_owned(),
        Shape::Null => "null".to_owned(),
        Shape::Bool => "a boolean".to_owned(),
        Shape::Integer => "an integer".to_owned(),
        Shape::Number => "a number".to_owned(),
        Shape::String => "a string".to_owned(),
        Shape::Array(_) => "an array".to_owned(),
        Shape::Map(_) => "an object of values".to_owned(),
        Shape::Nullable(inner) => format!("{} or null", shape_name(inner)),
        Shape::Named(_) => "a named type".to_owned(),
        Shape::Checked(inner, _) => shape_name(inner),
        Shape::Tuple(items) => format!("a tuple of {}", items.len()),
    }
}

/// A count or integer range's (least, greatest) bounds, each optional.
type Range = (Option<i128>, Option<i128>);

/// The range a check sets for one family of bounds (lengths, item counts...), if it is one of them.
type Family = fn(&Check) -> Option<Range>;

/// A number range's (lower, upper) bounds: each the value and whether it is exclusive.
type Bound = Option<(f64, bool)>;

/// The value bounds of integer and number checks together, each the
/// tightest met. An integer range's ends at the safe-integer limits are no
/// bound of the schema's (the reader narrows every integer range to them).
fn value_bounds(checks: &[Check]) -> (Bound, Bound) {
    const SAFE: i64 = (1 << 53) - 1;
    let mut lower: Bound = None;
    let mut upper: Bound = None;
    for check in checks {
        if let Check::IntegerRange { min, max } = check {
            if *min > -SAFE && compare_lower(Some((*min as f64, false)), lower) == std::cmp::Ordering::Greater {
                lower = Some((*min as f64, false));
            }
            if *max < SAFE && compare_upper(Some((*max as f64, false)), upper) == std::cmp::Ordering::Less {
                upper = Some((*max as f64, false));
            }
        }
        if let Check::NumberRange { minimum, exclusive_minimum, maximum, exclusive_maximum } = check {
            for bound in [minimum.map(|v| (v, false)), exclusive_minimum.map(|v| (v, true))].into_iter().flatten() {
                if compare_lower(Some(bound), lower) == std::cmp::Ordering::Greater {
                    lower = Some(bound);
                }
            }
            for bound in [maximum.map(|v| (v, false)), exclusive_maximum.map(|v| (v, true))].into_iter().flatten() {
                if compare_upper(Some(bound), upper) == std::cmp::Ordering::Less {
                    upper = Some(bound);
                }
            }
        }
    }
    (lower, upper)
}

fn shown_bound(bound: Bound) -> String {
    match bound {
        None => "none".to_owned(),
        Some((value, true)) => format!("{value} (exclusive)"),
        Some((value, false)) => value.to_string(),
    }
}

/// Orders lower bounds by how much they refuse (none refuses least).
fn compare_lower(a: Bound, b: Bound) -> std::cmp::Ordering {
    let key = |bound: Bound| bound.map(|(value, exclusive)| (value, u8::from(exclusive)));
    match (key(a), key(b)) {
        (None, None) => std::cmp::Ordering::Equal,
        (None, Some(_)) => std::cmp::Ordering::Less,
        (Some(_), None) => std::cmp::Ordering::Greater,
        (Some(x), Some(y)) => x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)),
    }
}

/// Orders upper bounds by how much they allow (none allows most).
fn compare_upper(a: Bound, b: Bound) -> std::cmp::Ordering {
    let key = |bound: Bound| bound.map(|(value, exclusive)| (value, u8::from(!exclusive)));
    match (key(a), key(b)) {
        (None, None) => std::cmp::Ordering::Equal,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (Some(_), None) => std::cmp::Ordering::Less,
        (Some(x), Some(y)) => x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)),
    }
}
