//! Writes the model as a Python package of pydantic v2 models built on
//! `concord_runtime.Model`.

mod layout;

use crate::naming::python as ident;

use crate::model::{self, Check, Choice, Field, Model, OpenEnum, Presence, Shape, Struct, TypeDef, TypeId, TypeKind, Union, UnknownKeys};
use layout::{assignment, LINE_WIDTH};
use std::fmt::Write as _;

/// The package's files: (path inside the package folder, contents): a
/// module per registry entry, and `__init__.py` re-exporting each root.
pub fn package(model: &Model) -> Vec<(String, String)> {
    let mut files = vec![("__init__.py".to_owned(), layout::excuse_long_lines(&init(model)))];
    for index in 0..model.modules.len() {
        files.push((format!("{}.py", ident::module(&model.modules[index].word)), layout::excuse_long_lines(&module(model, index))));
    }
    files.push(("_schemas.py".to_owned(), schemas(model)));
    files.push(("_runtime.py".to_owned(), runtime()));
    files.push(("py.typed".to_owned(), String::new()));
    files
}

/// `_schemas.py`: every entry's schema file as pinned (base URI, digest,
/// text), in registry order; the record types' `SCHEMA`s name them.
fn schemas(model: &Model) -> String {
    let mut out = format!("# {}\n", super::HEADER);
    out.push_str("\"\"\"The registry's schema files as pinned (base URI, digest, text), in registry order.\"\"\"\n\n");
    out.push_str("import concord_runtime\n\n");
    out.push_str("PINNED_SCHEMAS: tuple[concord_runtime.PinnedDocument, ...] = (\n");
    // A text too long for a line is written a line of the file at a time.
    let argument = |name: &str, value: &str| format!("        {name}={},\n", layout::string(&string_literal(value), 8, 9 + name.len(), 1));
    for module in &model.modules {
        out.push_str("    concord_runtime.PinnedDocument(\n");
        out.push_str(&argument("uri", &module.base));
        out.push_str(&argument("digest", &module.digest));
        out.push_str(&argument("text", &module.text));
        if let Some(dialect) = &module.declared_dialect {
            out.push_str(&argument("dialect", dialect));
        }
        out.push_str("    ),\n");
    }
    out.push_str(")\n");
    // What `python -m concord_runtime validate` names, as `concord validate` does.
    out.push_str("\nRECORDS: dict[str, str] = {\n");
    for id in model.ids().filter(|id| model.get(*id).pinned()) {
        let path = string_literal(&record_path(model, id));
        let mut names = vec![model.label(id)];
        if model.get(id).is_root {
            names.insert(0, model.get(id).name.clone());
        }
        for name in names {
            // The key leaves room for `: (`; the value starts after its last line.
            let key = layout::string(&string_literal(&name), 4, 4, 3);
            let column = layout::width(key.rsplit('\n').next().unwrap_or(&key)) + if key.contains('\n') { 2 } else { 6 };
            out.push_str(&format!("    {key}: {},\n", layout::string(&path, 4, column, 1)));
        }
    }
    out.push_str("}\n\"\"\"The record types with a pinned schema, by root name and by `Entry.Type`: their path in the package.\"\"\"\n");
    layout::excuse_long_lines(&out)
}

/// `_runtime.py`, which `__init__.py` imports first: a concord_runtime that
/// does not run bindings of this version says so before any class is built.
fn runtime() -> String {
    format!(
        "# {}\n\"\"\"The concord_runtime these bindings were written for: imported first, so that another is named plainly.\"\"\"\n\n\
         import concord_runtime\n\nconcord_runtime.bindings_for({})\n",
        super::HEADER,
        string_literal(super::VERSION)
    )
}

fn init(model: &Model) -> String {
    let mut out = format!("# {}\n", super::HEADER);
    out.push_str("\"\"\"Pydantic models of a concord registry: a module per registry entry, each root also here.\n\nRead with `Model.from_json`, write with `record.to_json()`.\"\"\"\n");
    let mut names = Vec::new();
    // First of all (isort sorts it first too): the runtime's version check.
    let mut imports = vec!["from . import _runtime as _runtime".to_owned()];
    for module in &model.modules {
        let word = ident::module(&module.word);
        match module.root {
            Some(root) => {
                let root = class_name(model, root);
                imports.push(format!("from .{word} import {root}"));
                names.push(root);
            }
            None => imports.push(format!("from . import {word}")),
        }
        names.push(word);
    }
    // isort's order: `from . import x` before `from .x import Y`, then by module.
    // Module names in natural order, as isort compares them (`v2` before `v10`).
    imports.sort_by(|a, b| (!a.starts_with("from . import")).cmp(&!b.starts_with("from . import")).then_with(|| natural_order(a, b)));
    if !imports.is_empty() {
        out.push('\n');
        out.extend(imports.iter().map(|line| layout::import(line)));
    }
    names.sort_by(|a, b| isort_order(a, b));
    names.dedup();
    let names: Vec<String> = names.iter().map(|name| string_literal(name)).collect();
    out.push('\n');
    out.push_str(&assignment(0, "__all__", None, Some(&format!("[{}]", names.join(", ")))));
    out
}

thread_local! {
    /// The entry whose module is being written: a type of another entry is
    /// named through its module (set by `module`, read by `python_type`).
    static CURRENT_MODULE: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

fn module(model: &Model, index: usize) -> String {
    CURRENT_MODULE.set(index);
    let in_module = |id: &TypeId| model.get(*id).module == index;
    // Top-level blocks, separated by two blank lines, each type after the
    // types it names: an alias is evaluated where it stands, and a class
    // whose annotations all resolve is complete (validator built) at once,
    // so nothing is built twice and no chain is walked recursively at import.
    let mut blocks: Vec<String> = Vec::new();
    let alias_rank = alias_ranks(model);
    // A versioned envelope's constants stand before its class, which reads them.
    let defined = |id: TypeId, pending: &[TypeId]| versions(model, id).map(|(block, _)| block).into_iter().chain([definition(model, id, pending)]);
    for component in model::components(model.types.len(), model.ids().filter(in_module), |id| model.references(id)) {
        if !in_module(&component[0]) {
            continue;
        }
        let cyclic = component.len() > 1 || model.references(component[0]).contains(&component[0]);
        if !cyclic {
            blocks.extend(defined(component[0], &[]));
            continue;
        }
        // A recursion cycle: its classes first, their annotations naming the
        // cycle quoted (resolved by the rebuild), then its aliases, which name
        // the classes, in their own order; then the rebuilds.
        let is_class = |id: &TypeId| is_class(model, *id);
        let (classes, mut aliases): (Vec<TypeId>, Vec<TypeId>) = component.iter().partition(|id| is_class(id));
        aliases.sort_by_key(|id| alias_rank[id.0]);
        blocks.extend(classes.iter().chain(&aliases).flat_map(|id| defined(*id, &component)));
        if !classes.is_empty() {
            blocks.push(classes.iter().map(|id| format!("{}.model_rebuild()\n", class_name(model, *id))).collect());
        }
    }
    let mut names: Vec<String> = model.ids().filter(in_module).map(|id| class_name(model, id)).collect();
    names.extend(model.ids().filter(in_module).filter_map(|id| versions(model, id)).flat_map(|(_, constants)| constants));
    names.sort_by(|a, b| isort_order(a, b));
    let names: Vec<String> = names.iter().map(|name| string_literal(name)).collect();
    blocks.push(plan(model, index));
    blocks.push(assignment(0, "__all__", None, Some(&format!("[{}]", names.join(", ")))));

    let mut out = format!("# {}\n", super::HEADER);
    out.push_str(&docstring(&Some(format!("The types of {}.", model.modules[index].describe())), ""));
    out.push('\n');
    // No `from __future__ import annotations`: every annotation but those in
    // a cycle can be evaluated where it stands, which spares pydantic
    // compiling each one from a string at import.
    let pinned = model.ids().any(|id| model.get(id).module == index && model.get(id).pinned());
    if pinned {
        let documents: Vec<String> = model.documents(index).iter().map(|other| format!("PINNED_SCHEMAS[{other}]")).collect();
        let value = assignment(0, "_DOCUMENTS", None, Some(&format!("[{}]", documents.join(", "))));
        blocks.insert(0, value + "\"\"\"This entry's schema file as pinned, then those its `$ref`s reach.\"\"\"\n");
    }
    // Only the modules the code names: an unused import fails `ruff check`.
    let body = blocks.join("\n\n");
    let used = |name: &str| layout::uses_module(&body, name);
    // isort's sections: the standard library, then the third-party packages.
    let mut sections: Vec<String> = [&["typing"][..], &["concord_runtime", "pydantic"]]
        .iter()
        .map(|section| section.iter().filter(|name| used(name)).map(|name| format!("import {name}\n")).collect())
        .filter(|section: &String| !section.is_empty())
        .collect();
    // Then the package's own: the entries whose types it names, and the
    // pinned documents the assertion engine reads.
    let mut local = String::new();
    let mut others: Vec<String> = model
        .ids()
        .filter(|id| model.get(*id).module == index)
        .flat_map(|id| model.references(id))
        .map(|id| model.get(id).module)
        .filter(|module| *module != index)
        // Imported as `_name`: a field may bear the module's name, and a field's
        // default is bound before its annotation is read.
        .map(|module| format!("{word} as _{word}", word = ident::module(&model.modules[module].word)))
        .collect();
    others.sort_by(|a, b| natural_order(a, b));
    others.dedup();
    // isort's rule: one `as` import a line.
    for other in &others {
        local.push_str(&format!("from . import {other}\n"));
    }
    if pinned {
        local.push_str("from ._schemas import PINNED_SCHEMAS\n");
    }
    if !local.is_empty() {
        sections.push(local);
    }
    out.push_str(&sections.join("\n"));
    // isort's spacing: one blank line before a statement, two before a class.
    out.push_str(if blocks[0].starts_with("class ") { "\n\n" } else { "\n" });
    out.push_str(&body);
    out
}

/// Python's names in the plan: a field's attribute where it is not its
/// JSON name, and another entry's module as the package names it.
struct PythonNames;

impl crate::plan::Names for PythonNames {
    fn field(&self, field: &Field) -> Option<String> {
        let name = ident::field(&field.word);
        (name != field.json_name).then_some(name)
    }

    fn module(&self, model: &Model, module: usize) -> String {
        ident::module(&model.modules[module].word)
    }
}

/// The entry's plan (`crate::plan`) as `_PLAN`, the JSON text the compiled
/// core's one-pass reader and writer read: a type a line, for a diff.
fn plan(model: &Model, index: usize) -> String {
    let plan = crate::plan::module(model, index, &PythonNames);
    let whole = plan.to_string();
    let doc = docstring(&Some("How the runtime reads and writes this entry's types, as JSON (docs/architecture.md, the plan).".into()), "");
    let literal = string_literal(&whole);
    // ruff joins the parts wherever the whole fits: on the line, else alone inside the parentheses.
    if layout::width(&literal) + "_PLAN = ".len() <= LINE_WIDTH {
        return format!("_PLAN = {literal}\n") + &doc;
    }
    if layout::width(&literal) + 4 <= LINE_WIDTH {
        return format!("_PLAN = (\n    {literal}\n)\n") + &doc;
    }
    let mut parts = vec![format!("{{\"plan\":{},\"types\":{{", plan["plan"])];
    let types = plan["types"].as_object().map(|types| types.iter().collect::<Vec<_>>()).unwrap_or_default();
    for (at, (name, body)) in types.iter().enumerate() {
        let comma = if at + 1 < types.len() { "," } else { "" };
        parts.push(format!("{}:{body}{comma}", serde_json::Value::from(name.as_str())));
    }
    parts.push("}}".to_owned());
    let lines: Vec<String> = parts.iter().map(|part| format!("    {}", layout::string_lines(&string_literal(part), 4))).collect();
    format!("_PLAN = (\n{}\n)\n", lines.join("\n")) + &doc
}

/// A versioned envelope's constants (`SUPPORTED_..._VERSIONS`,
/// docs/decisions/versioned-envelopes.md): their block, and their names.
fn versions(model: &Model, id: TypeId) -> Option<(String, [String; 2])> {
    let TypeKind::Struct(Struct { version: Some(version), .. }) = &model.get(id).kind else { return None };
    let name = &model.get(id).name;
    let (all, current) = crate::naming::version_constants(name);
    let listed: Vec<String> = version.supported.iter().map(i64::to_string).collect();
    let mut block = assignment(0, &all, Some("tuple[int, ...]"), Some(&format!("({},)", listed.join(", "))));
    block.push_str(&docstring(
        &Some(format!("The versions of `{name}` this binding reads (`{}`); any other is refused as `unsupported-version`.", version.field)),
        "",
    ));
    block.push_str(&assignment(0, &current, Some("int"), Some(&version.current().to_string())));
    block.push_str(&docstring(&Some(format!("The current version of `{name}`: the largest supported, for new envelopes.")), ""));
    Some((block, [all, current]))
}

/// Whether a type is written as a class (an object type, or a registry
/// root, which is a record of its own).
fn is_class(model: &Model, id: TypeId) -> bool {
    model.is_record(id)
}

/// One type's top-level block: a `typing.Literal` alias, a class, or a type
/// alias. `pending` holds the types not defined yet where it stands.
fn definition(model: &Model, id: TypeId, pending: &[TypeId]) -> String {
    let def = model.get(id);
    let pending: Vec<String> = pending.iter().map(|id| class_name(model, *id)).collect();
    let pending = &pending[..];
    if let Some(inner) = root_value(model, def, pending) {
        return root_class(model, id, def, &inner);
    }
    match &def.kind {
        TypeKind::Union(body) => {
            assignment(0, &class_name(model, id), Some("typing.TypeAlias"), Some(&union_type(model, body, pending))) + &docstring(&def.doc, "")
        }
        TypeKind::Enum(values) => {
            let values: Vec<String> = values.iter().map(|v| string_literal(&v.value)).collect();
            let literal = format!("typing.Literal[{}]", values.join(", "));
            assignment(0, &class_name(model, id), None, Some(&literal)) + &docstring(&def.doc, "")
        }
        TypeKind::OpenEnum(open) => open_enum_alias(&class_name(model, id), open) + &docstring(&def.doc, ""),
        TypeKind::TypedId(prefix) => {
            let annotated = format!("typing.Annotated[str, {}]", typed_id_validator(prefix));
            assignment(0, &class_name(model, id), Some("typing.TypeAlias"), Some(&annotated)) + &docstring(&def.doc, "")
        }
        TypeKind::Struct(body) => class(model, id, def, body, pending),
        TypeKind::Alias(shape) => {
            // `TypeAlias`: mypy reads `X = None` as a variable, not as the type of null.
            assignment(0, &class_name(model, id), Some("typing.TypeAlias"), Some(&python_type(model, shape))) + &docstring(&def.doc, "")
        }
    }
}

/// What a registry root that is not an object type holds, as the
/// parameter of its `RootModel`; `None` for any other type.
fn root_value(model: &Model, def: &TypeDef, pending: &[String]) -> Option<String> {
    if !def.wrapped {
        return None;
    }
    Some(match &def.kind {
        TypeKind::Enum(values) => {
            let values: Vec<String> = values.iter().map(|v| string_literal(&v.value)).collect();
            format!("typing.Literal[{}]", values.join(", "))
        }
        TypeKind::Alias(shape) => layout::quote_pending(&python_type(model, shape), pending),
        TypeKind::Union(body) => union_type(model, body, pending),
        TypeKind::OpenEnum(open) => format!("concord_runtime.OpenEnum[{}]", literal(&open.values)),
        TypeKind::TypedId(prefix) => format!("typing.Annotated[str, {}]", typed_id_validator(prefix)),
        TypeKind::Struct(_) => return None,
    })
}

/// A registry root that is not an object type: a `RootModel` of what it
/// holds, so that it is a record of its own.
fn root_class(model: &Model, id: TypeId, def: &TypeDef, inner: &str) -> String {
    let mut out = layout::class_head(&class_name(model, id), &format!("concord_runtime.RootModel[{inner}]"));
    if def.doc.is_some() {
        out.push_str(&docstring(&def.doc, "    "));
        out.push('\n');
    }
    out.push_str(&record_constants(def));
    out
}

/// The `NAME` and `SCHEMA_DIGEST` of a record class; its `SCHEMA` when it
/// has a place of its own in its schema file; and `ASSERTED` when its
/// module needs the engine, which then checks each record `from_json` reads.
fn record_constants(def: &TypeDef) -> String {
    let constant = |name: &str, value: &str| assignment(4, name, Some("typing.ClassVar[str]"), Some(&string_literal(value)));
    let mut out = constant("NAME", &def.name) + &constant("SCHEMA_DIGEST", &def.schema_digest);
    if def.pinned() {
        let value = format!("concord_runtime.PinnedSchema(_DOCUMENTS, {})", string_literal(&def.origin.pointer));
        out.push_str(&assignment(4, "SCHEMA", Some("typing.ClassVar[concord_runtime.PinnedSchema]"), Some(&value)));
    }
    if def.asserted() {
        out.push_str(&assignment(4, "ASSERTED", Some("typing.ClassVar[bool]"), Some("True")));
    }
    out
}

/// A union as pydantic's tagged union: a callable discriminator from the
/// runtime reads the tag (or the JSON type) as the Rust bindings do, and
/// each branch carries its key as a `pydantic.Tag`. The runtime leaves the
/// tag out of a refusal's JSON pointer by its place in the core schema
/// (`concord_runtime.unions.without_tags`), so a key spelled alike stays.
fn union_type(model: &Model, body: &Union, pending: &[String]) -> String {
    let branches: Vec<String> = body
        .branches
        .iter()
        .map(|branch| {
            let ty = layout::quote_pending(&python_type(model, &branch.shape), pending);
            format!("typing.Annotated[{ty}, pydantic.Tag({})]", string_literal(&branch.key))
        })
        .collect();
    let keys: Vec<String> = body.branches.iter().map(|branch| string_literal(&branch.key)).collect();
    let keys = if keys.len() == 1 { format!("{},", keys[0]) } else { keys.join(", ") };
    let discriminator = match &body.choice {
        Choice::Tag(property) => format!("concord_runtime.unions.tag({}, ({keys}))", string_literal(property)),
        Choice::JsonType => format!("concord_runtime.unions.json_type(({keys}))"),
    };
    // Each branch inside `Annotated`, so that a quoted forward reference never stands beside `|`.
    format!("typing.Annotated[{}, pydantic.Discriminator({discriminator})]", branches.join(" | "))
}

/// An open enum (`"x-open-enum": true`): any string, the known ones listed
/// (`concord_runtime.OpenEnum[typing.Literal[...]]`); a value is the `str`
/// read, known or not, so it is written back unchanged.
fn open_enum_alias(name: &str, open: &OpenEnum) -> String {
    assignment(0, name, Some("typing.TypeAlias"), Some(&format!("concord_runtime.OpenEnum[{}]", literal(&open.values))))
}

/// `typing.Literal[...]` of enum values, on one line.
fn literal(values: &[model::EnumValue]) -> String {
    let values: Vec<String> = values.iter().map(|v| string_literal(&v.value)).collect();
    format!("typing.Literal[{}]", values.join(", "))
}

/// The validator of a typed id (`"x-typed-id": prefix`), the Rust runtime's check.
fn typed_id_validator(prefix: &str) -> String {
    format!("pydantic.AfterValidator(concord_runtime.checks.typed_id({}))", string_literal(prefix))
}

/// Each alias's position in an order where every alias comes after the
/// aliases it names (aliases never form a cycle on their own: see `check`).
fn alias_ranks(model: &Model) -> Vec<usize> {
    let aliased = |id: TypeId| match &model.get(id).kind {
        TypeKind::Alias(_) | TypeKind::Union(_) => model.references(id),
        _ => vec![],
    };
    let mut rank = vec![0; model.types.len()];
    for (position, id) in model::components(model.types.len(), model.ids(), aliased).into_iter().flatten().enumerate() {
        rank[id.0] = position;
    }
    rank
}

fn class(model: &Model, id: TypeId, def: &TypeDef, body: &Struct, pending: &[String]) -> String {
    let mut out = layout::class_head(&class_name(model, id), "concord_runtime.Model");
    if def.doc.is_some() {
        out.push_str(&docstring(&def.doc, "    "));
        out.push('\n');
    }
    let extra = match body.unknown_keys {
        UnknownKeys::Drop => "ignore",
        UnknownKeys::Refuse => "forbid",
        UnknownKeys::Keep | UnknownKeys::Typed(_) | UnknownKeys::Matching(_) => "allow",
    };
    // pydantic warns at import when a field starts like its own methods
    // (`model_dump_x`); the exact names are escaped (`ident::field`).
    let protected = if body.fields.iter().any(|f| ident::field(&f.word).starts_with("model_")) { ", protected_namespaces=()" } else { "" };
    out.push_str(&assignment(4, "model_config", None, Some(&format!("pydantic.ConfigDict(extra={}{protected})", string_literal(extra)))));
    out.push_str(&record_constants(def));
    for field in &body.fields {
        out.push('\n');
        out.push_str(&field_lines(model, field, pending));
    }
    // Counts every key of the input, dropped ones too: only the input has them.
    if let Some(count) = &body.property_count {
        let bound = |bound: &Option<u64>| bound.map_or_else(|| "None".to_owned(), |bound| bound.to_string());
        // Around the read, as Rust counts: after the keys' own refusals, before a missing property's.
        let check = format!("concord_runtime.checks.property_count({}, {})", bound(&count.min), bound(&count.max));
        out.push('\n');
        out.push_str(&assignment(4, "_check_properties", None, Some(&check)));
    }
    if let Some(version) = &body.version {
        // Before anything else, as the Rust bindings read it (docs/decisions/versioned-envelopes.md).
        let (all, _) = crate::naming::version_constants(&def.name);
        let check = format!("concord_runtime.checks.version_check({}, {all}, {})", string_literal(&version.field), string_literal(&def.name));
        out.push('\n');
        out.push_str(&assignment(4, "_check_version", None, Some(&check)));
    }
    if let UnknownKeys::Matching(patterns) = &body.unknown_keys {
        // Keys `patternProperties` matches are data; the other unknown keys are dropped, as Rust drops them.
        let patterns: Vec<String> = patterns.iter().map(|pattern| string_literal(pattern)).collect();
        out.push_str("\n    @pydantic.model_validator(mode=\"after\")\n");
        out.push_str("    def _keep_matching_keys(self) -> typing.Self:\n");
        let call = format!("concord_runtime.checks.keep_matching(self, ({},))", patterns.join(", "));
        out.push_str(&layout::return_statement(8, &call));
    }
    if let UnknownKeys::Typed(shape) = &body.unknown_keys {
        let annotation = layout::quote_pending(&format!("dict[str, {}]", python_type(model, shape)), pending);
        out.push('\n');
        out.push_str(&assignment(4, "__pydantic_extra__", Some(&annotation), Some("pydantic.Field(init=False)")));
        out.push_str(&docstring(&Some("Entries beyond the declared properties (`additionalProperties`), in the order read.".into()), "    "));
    }
    out
}

fn field_lines(model: &Model, field: &Field, pending: &[String]) -> String {
    let name = ident::field(&field.word);
    let ty = python_type(model, &field.shape);
    let alias = (name != field.json_name).then(|| format!("alias={}", string_literal(&field.json_name)));
    let (annotation, arguments) = match field.presence {
        Presence::Required => (ty, alias.map(|alias| vec![alias])),
        // Absent stays absent (unset, so not written); null is a value, and
        // the type holds it already (`Nothing | None` would be `None | None`).
        Presence::OptionalNullable if holds_none(model, &field.shape) => (ty, Some(default_none(alias))),
        // Null is a value, but of a registry root's class (`RootModel`), which
        // `None` is not an instance of: `| None` lets the default be `None`
        // (an explicit null is then `None`, written back as null all the same).
        Presence::OptionalNullable => (format!("{ty} | None"), Some(default_none(alias))),
        // Absent stays absent; an explicit null is refused.
        Presence::Optional => (format!("concord_runtime.NotNull[{ty}]"), Some(default_none(alias))),
    };
    let annotation = layout::quote_pending(&annotation, pending);
    let value = match arguments {
        None => None,
        Some(arguments) if arguments == ["default=None"] => Some("None".to_owned()),
        Some(arguments) => Some(format!("pydantic.Field({})", arguments.join(", "))),
    };
    let mut out = assignment(4, &name, Some(&annotation), value.as_deref());
    out.push_str(&docstring(&field.doc, "    "));
    out
}

/// Whether `None` is a value of a shape's annotation, as mypy reads it: as
/// [`Shape::admits_null`], except that a registry root is a class of its own
/// (a `RootModel`), whatever it holds.
fn holds_none(model: &Model, shape: &Shape) -> bool {
    let mut shape = shape;
    loop {
        match shape {
            Shape::Any | Shape::Null | Shape::Nullable(_) => return true,
            Shape::Checked(inner, _) => shape = inner,
            Shape::Named(id) if model.get(*id).wrapped => return false,
            Shape::Named(id) => match &model.get(*id).kind {
                TypeKind::Alias(aliased) => shape = aliased,
                TypeKind::Union(union) => return union.branches.iter().any(|branch| branch.key == "null"),
                _ => return false,
            },
            _ => return false,
        }
    }
}

fn default_none(alias: Option<String>) -> Vec<String> {
    std::iter::once("default=None".to_owned()).chain(alias).collect()
}

/// A record type's path in the package, `module.Class`.
pub fn record_path(model: &Model, id: TypeId) -> String {
    format!("{}.{}", ident::module(&model.modules[model.get(id).module].word), class_name(model, id))
}

fn class_name(model: &Model, id: TypeId) -> String {
    crate::naming::type_name(&model.get(id).name)
}

fn python_type(model: &Model, shape: &Shape) -> String {
    match shape {
        Shape::Any => "typing.Any".to_owned(),
        Shape::Null => "None".to_owned(),
        Shape::Bool => "bool".to_owned(),
        Shape::Integer => "concord_runtime.Int64".to_owned(),
        Shape::Number => "float".to_owned(),
        Shape::String => "str".to_owned(),
        Shape::Array(item) => format!("list[{}]", python_type(model, item)),
        // Not strict as a container: behind a before-validator (`NotNull`) a JSON
        // array reaches it as a list, which a strict tuple refuses whole; its
        // elements stay strict, and a JSON string or object is still refused.
        Shape::Tuple(items) => {
            format!("typing.Annotated[tuple[{}], pydantic.Strict(False)]", items.iter().map(|item| python_type(model, item)).collect::<Vec<_>>().join(", "))
        }
        Shape::Map(value) => format!("dict[str, {}]", python_type(model, value)),
        // A shape that holds null already (an alias of `None`, a union with a
        // null branch) takes no `| None`: `None | None` is a TypeError.
        Shape::Nullable(inner) if holds_none(model, inner) => python_type(model, inner),
        Shape::Nullable(inner) => format!("{} | None", python_type(model, inner)),
        // Another entry's type: by its module, which the module imports.
        Shape::Named(id) if model.get(*id).module != CURRENT_MODULE.get() => {
            format!("_{}.{}", ident::module(&model.modules[model.get(*id).module].word), class_name(model, *id))
        }
        Shape::Named(id) => class_name(model, *id),
        Shape::Checked(inner, checks) => format!("typing.Annotated[{}, {}]", python_type(model, inner), constraints(checks).join(", ")),
    }
}

/// A shape's assertions as `Annotated` metadata: pydantic's own constraints
/// where its rule is JSON Schema's (code-point lengths, bounds, the `regex`
/// crate), else the runtime's checks, which run the Rust runtime's code.
fn constraints(checks: &[Check]) -> Vec<String> {
    let mut field: Vec<String> = Vec::new();
    let mut validators: Vec<String> = Vec::new();
    let count = |min: &Option<u64>, max: &Option<u64>, field: &mut Vec<String>| {
        field.extend(min.map(|min| format!("min_length={min}")));
        field.extend(max.map(|max| format!("max_length={max}")));
    };
    for check in checks {
        match check {
            Check::Length { min, max } | Check::Items { min, max } | Check::Properties { min, max } => count(min, max, &mut field),
            Check::Pattern { regex, .. } => field.push(format!("pattern={}", string_literal(regex))),
            Check::IntegerRange { min, max } => field.push(format!("ge={min}, le={max}")),
            Check::IntegerMultipleOf(divisor) => field.push(format!("multiple_of={divisor}")),
            Check::NumberRange { minimum, exclusive_minimum, maximum, exclusive_maximum } => {
                for (name, bound) in [("ge", minimum), ("gt", exclusive_minimum), ("le", maximum), ("lt", exclusive_maximum)] {
                    field.extend(bound.map(|bound| format!("{name}={}", float_literal(bound))));
                }
            }
            Check::NumberMultipleOf(divisor) => {
                validators.push(format!("pydantic.AfterValidator(concord_runtime.checks.multiple_of({}))", string_literal(divisor)))
            }
            Check::UniqueItems => validators.push("pydantic.AfterValidator(concord_runtime.checks.unique_items)".to_owned()),
        }
    }
    let field = (!field.is_empty()).then(|| format!("pydantic.Field({})", field.join(", ")));
    field.into_iter().chain(validators).collect()
}

/// A Python float literal for a finite `f64` that reads back as the same value.
fn float_literal(value: f64) -> String {
    let text = format!("{value:?}");
    if text.contains(['.', 'e', 'E']) {
        text
    } else {
        format!("{text}.0")
    }
}

/// The order ruff (RUF022) wants `__all__` in: all-capitals names (`S000`)
/// first, then capitalized ones, then the rest; digit runs compared as numbers.
fn isort_order(a: &str, b: &str) -> std::cmp::Ordering {
    let group = |name: &str| {
        let cased = name.chars().any(|c| c.is_ascii_alphabetic());
        if name.len() > 1 && cased && !name.chars().any(|c| c.is_ascii_lowercase()) {
            0
        } else if name.starts_with(|c: char| c.is_ascii_uppercase()) {
            1
        } else {
            2
        }
    };
    group(a).cmp(&group(b)).then_with(|| natural_order(a, b))
}

fn natural_order(a: &str, b: &str) -> std::cmp::Ordering {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if a[i].is_ascii_digit() && b[j].is_ascii_digit() {
            let run = |s: &[u8], k: usize| k + s[k..].iter().take_while(|c| c.is_ascii_digit()).count();
            let (end_a, end_b) = (run(a, i), run(b, j));
            let (x, y) = (&a[i..end_a], &b[j..end_b]);
            // natord's rule: a run with a leading zero reads as a fraction.
            let order = if x[0] == b'0' || y[0] == b'0' { x.cmp(y) } else { x.len().cmp(&y.len()).then_with(|| x.cmp(y)) };
            if order.is_ne() {
                return order;
            }
            (i, j) = (end_a, end_b);
        } else if a[i] != b[j] {
            return a[i].cmp(&b[j]);
        } else {
            (i, j) = (i + 1, j + 1);
        }
    }
    (a.len() - i).cmp(&(b.len() - j)).then_with(|| a.cmp(b))
}

/// A Python string literal that holds `text` exactly; nothing in `text` can
/// end it early. Double quotes unless single ones need fewer escapes, as
/// `ruff format` prefers.
fn string_literal(text: &str) -> String {
    let quote = if text.matches('"').count() > text.matches('\'').count() { '\'' } else { '"' };
    let mut out = String::with_capacity(text.len() + 2);
    out.push(quote);
    let ambiguous = ambiguous(text);
    for (at, c) in text.char_indices() {
        match c {
            '"' | '\'' if c != quote => out.push(c),
            '\'' => out.push_str("\\'"),
            c if ambiguous.binary_search(&at).is_ok() => escape_code_point(&mut out, c),
            c => escape_into(&mut out, c),
        }
    }
    out.push(quote);
    out
}

/// Where `text` holds a character a reader (and ruff's RUF001 to RUF003)
/// could take for another: one outside ASCII that is no letter or digit
/// (an en dash, a curly quote, a no-break space, a fullwidth comma), or a
/// letter outside ASCII in a word that also holds ASCII letters or stands
/// alone (a Cyrillic `а` in `pаss`). Written as an escape, it is the same
/// string to Python and plain to see; words of other scripts stay as they
/// are (`да`, `Описание`, `中文`).
fn ambiguous(text: &str) -> Vec<usize> {
    let mut found = Vec::new();
    let mut word: Vec<(usize, char)> = Vec::new();
    let flush = |word: &mut Vec<(usize, char)>, found: &mut Vec<usize>| {
        let mixed = word.iter().any(|(_, c)| c.is_ascii()) || word.len() == 1;
        if mixed {
            found.extend(word.iter().filter(|(_, c)| !c.is_ascii()).map(|(at, _)| *at));
        }
        word.clear();
    };
    for (at, c) in text.char_indices() {
        if c.is_alphanumeric() {
            word.push((at, c));
            continue;
        }
        flush(&mut word, &mut found);
        if !c.is_ascii() && !matches!(c, '\u{2028}' | '\u{2029}' | '\u{85}') {
            found.push(at);
        }
    }
    flush(&mut word, &mut found);
    found.sort_unstable();
    found
}

/// `\uXXXX`, or `\UXXXXXXXX` beyond the Basic Multilingual Plane.
fn escape_code_point(out: &mut String, c: char) {
    let code = c as u32;
    let _ = if code > 0xFFFF { write!(out, "\\U{code:08x}") } else { write!(out, "\\u{code:04x}") };
}

/// A docstring: triple-quoted, wrapped to [`LINE_WIDTH`], newlines kept,
/// everything else that could close or bend the literal escaped.
fn docstring(doc: &Option<String>, indent: &str) -> String {
    let Some(doc) = doc else { return String::new() };
    // Room for the indent and the quotes on either side.
    let width = LINE_WIDTH - indent.len() - 6;
    let mut lines = Vec::new();
    for line in doc.lines() {
        let mut escaped = String::new();
        let line = line.trim_end();
        let ambiguous = ambiguous(line);
        for (at, c) in line.char_indices() {
            if ambiguous.binary_search(&at).is_ok() {
                escape_code_point(&mut escaped, c);
            } else {
                escape_into(&mut escaped, c);
            }
        }
        lines.extend(wrap(&escaped, width));
    }
    let last = lines.len().saturating_sub(1);
    let body = lines
        .iter()
        .enumerate()
        .map(|(n, line)| {
            let line = if n == 0 || line.is_empty() { line.clone() } else { format!("{indent}{line}") };
            // A word longer than the line: continued, as it is, on the next.
            layout::continued(&line, if n == 0 { indent.len() + 3 } else { 0 }, if n == last { 3 } else { 0 })
        })
        .collect::<Vec<_>>()
        .join("\n");
    format!("{indent}\"\"\"{body}\"\"\"\n")
}

/// Greedy word wrap; a word longer than `width` keeps a line of its own.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = vec![String::new()];
    for word in text.split(' ') {
        let line = lines.last_mut().expect("starts with one line");
        if !line.is_empty() && line.len() + 1 + word.len() > width {
            lines.push(word.to_owned());
        } else {
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
    }
    // Where a run of spaces met a wrap, the line would end in one (W291).
    lines.iter().map(|line| line.trim_end().to_owned()).collect()
}

fn escape_into(out: &mut String, c: char) {
    match c {
        '\\' => out.push_str("\\\\"),
        '"' => out.push_str("\\\""),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        c if (c as u32) < 0x20 || c == '\u{7f}' => {
            let _ = write!(out, "\\x{:02x}", c as u32);
        }
        // Line and paragraph separators end a line in some editors; keep the source unambiguous.
        '\u{2028}' | '\u{2029}' | '\u{85}' => {
            let _ = write!(out, "\\u{:04x}", c as u32);
        }
        c => out.push(c),
    }
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    fn registries(dir: &Path, found: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap().map(Result::unwrap) {
            let path = entry.path();
            if path.is_dir() {
                registries(&path, found);
            } else if path.file_name().is_some_and(|name| name == "registry.json") {
                found.push(dir.to_owned());
            }
        }
    }

    /// Every statement the layout breaks over lines means, to Python's own
    /// parser, exactly what the emitter's one line means: a tuple of one
    /// pattern broken without its comma was a string (SchemaStore's
    /// pm2-ecosystem: each character of the pattern read as a pattern).
    /// Every registry the fixtures hold is generated, and each laid-out
    /// statement compared with its line by `ast.dump`.
    /// A run of spaces where a docstring wraps leaves no space at a line's end (W291).
    #[test]
    fn wrapped_docstring_lines_end_without_spaces() {
        assert_eq!(super::wrap("first.  second  third", 7), ["first.", "second", "third"]);
    }

    #[test]
    fn the_layout_never_changes_what_a_statement_means() {
        let mut found = Vec::new();
        registries(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures"), &mut found);
        found.sort();
        let mut generated = 0;
        for registry in &found {
            // The fixtures hold registries that are refused on purpose.
            if let Ok(model) = crate::load(registry) {
                super::package(&model);
                generated += 1;
            }
        }
        let from_fixtures = super::layout::LAID_OUT.with_borrow(|laid| laid.iter().filter(|(flat, laid)| flat != laid).count());
        // And every shape the emitter writes, at every depth, around strings that cannot fit.
        let long = |n: usize| super::string_literal(&"pattern-".repeat(n));
        for indent in (0..=48).step_by(4) {
            for n in [1, 6, 12, 15, 30] {
                let values = [
                    format!("({},)", long(n)),
                    format!("({}, {})", long(n), long(1)),
                    format!("concord_runtime.checks.keep_matching(self, ({},))", long(n)),
                    format!("pydantic.Field(alias={}, pattern={})", long(n), long(n / 2)),
                    format!("[{}, ({},), {}]", long(1), long(n), long(n)),
                    format!("typing.Literal[{}] | None", long(n)),
                ];
                for value in &values {
                    super::layout::assignment(indent, "a_target", None, Some(value));
                    super::layout::assignment(indent, "a_target", Some("tuple[str, ...]"), Some(value));
                    super::layout::return_statement(indent, value);
                }
            }
        }
        let statements: Vec<(String, String)> =
            super::layout::LAID_OUT.take().into_iter().filter(|(flat, laid)| flat != laid).collect::<std::collections::BTreeSet<_>>().into_iter().collect();
        assert!(generated > 100 && from_fixtures > 100 && statements.len() > 900, "{generated} registries, {} statements broken over lines", statements.len());
        let python = std::env::var_os("CONCORD_PYTHON").unwrap_or_else(|| "python3".into());
        let script = r#"
import ast, json, sys
def tree(statement):
    code = statement.lstrip(" ")
    if code.rstrip().endswith(":"):
        code = code.rstrip() + " pass\n"
    return ast.dump(ast.parse(code))
differ = [(flat, laid) for flat, laid in json.load(sys.stdin) if tree(flat) != tree(laid)]
for flat, laid in differ[:5]:
    print(f"one line:\n{flat}laid out:\n{laid}")
sys.exit(1 if differ else 0)
"#;
        let mut child = std::process::Command::new(python)
            .args(["-c", script])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("a Python to parse with (CONCORD_PYTHON, else python3)");
        serde_json::to_writer(child.stdin.take().unwrap(), &statements).unwrap();
        let output = child.wait_with_output().unwrap();
        assert!(output.status.success(), "{} of them change meaning:\n{}", statements.len(), String::from_utf8_lossy(&output.stdout));
    }
}
