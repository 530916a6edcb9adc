//! Writes the model as a Python package of pydantic v2 models built on
//! `concord_runtime.Model`.

pub mod ident;

use crate::model::{Field, Model, Shape, Struct, TypeDef, TypeId, TypeKind, UnknownKeys};
use std::fmt::Write as _;

/// The package's files: (path inside the package folder, contents).
pub fn package(model: &Model) -> Vec<(&'static str, String)> {
    vec![("__init__.py", module(model)), ("py.typed", String::new())]
}

fn module(model: &Model) -> String {
    // Top-level blocks, separated by two blank lines. Literal aliases come
    // first and aliases last: classes read their annotations lazily, but an
    // alias is evaluated where it stands.
    let mut blocks: Vec<String> = Vec::new();
    for id in model.ids() {
        if let TypeKind::Enum(values) = &model.get(id).kind {
            let values: Vec<String> = values.iter().map(|v| string_literal(&v.value)).collect();
            let head = format!("{} = typing.Literal[", class_name(model, id));
            blocks.push(call(&head, &values, "]", "") + &docstring(&model.get(id).doc, ""));
        }
    }
    for id in model.ids() {
        if let TypeKind::Struct(body) = &model.get(id).kind {
            blocks.push(class(model, id, model.get(id), body));
        }
    }
    for id in aliases_in_order(model) {
        if let TypeKind::Alias(shape) = &model.get(id).kind {
            let line = format!("{} = {}\n", class_name(model, id), python_type(model, shape));
            blocks.push(line + &docstring(&model.get(id).doc, ""));
        }
    }
    let rebuilds: String = model
        .ids()
        .filter(|id| matches!(model.get(*id).kind, TypeKind::Struct(_)))
        .map(|id| format!("{}.model_rebuild()\n", class_name(model, id)))
        .collect();
    if !rebuilds.is_empty() {
        blocks.push(rebuilds);
    }
    let mut names: Vec<String> = model.ids().map(|id| string_literal(&class_name(model, id))).collect();
    names.sort();
    blocks.push(call("__all__ = [", &names, "]", ""));

    let mut out = format!("# {}\n", super::HEADER);
    out.push_str("\"\"\"Pydantic models of a concord registry: read with `Model.from_json`, write with `record.to_json()`.\"\"\"\n\n");
    out.push_str("from __future__ import annotations\n\nimport typing\n\nimport concord_runtime\nimport pydantic\n");
    // isort's spacing: one blank line before a statement, two before a class.
    out.push_str(if blocks[0].starts_with("class ") { "\n\n" } else { "\n" });
    out.push_str(&blocks.join("\n\n"));
    out
}

/// `head` + comma-separated `items` + `tail` on one line when it fits in
/// [`LINE_WIDTH`], else one item per line with a trailing comma (the layout
/// `ruff format` keeps).
fn call(head: &str, items: &[String], tail: &str, indent: &str) -> String {
    let one_line = format!("{indent}{head}{}{tail}", items.join(", "));
    if one_line.len() <= LINE_WIDTH && !items.is_empty() {
        return one_line + "\n";
    }
    let mut out = format!("{indent}{head}\n");
    for item in items {
        out.push_str(&format!("{indent}    {item},\n"));
    }
    out + indent + tail + "\n"
}

fn class(model: &Model, id: TypeId, def: &TypeDef, body: &Struct) -> String {
    let mut out = format!("class {}(concord_runtime.Model):\n", class_name(model, id));
    if def.doc.is_some() {
        out.push_str(&docstring(&def.doc, "    "));
        out.push('\n');
    }
    let extra = match body.unknown_keys {
        UnknownKeys::Drop => "ignore",
        UnknownKeys::Refuse => "forbid",
        UnknownKeys::Keep | UnknownKeys::Typed(_) => "allow",
    };
    let _ = writeln!(out, "    model_config = pydantic.ConfigDict(extra={})", string_literal(extra));
    let _ = writeln!(out, "    NAME: typing.ClassVar[str] = {}", string_literal(&def.name));
    let _ = writeln!(out, "    SCHEMA_DIGEST: typing.ClassVar[str] = {}", string_literal(&def.schema_digest));
    for field in &body.fields {
        out.push('\n');
        out.push_str(&field_lines(model, field));
    }
    if let UnknownKeys::Typed(shape) = &body.unknown_keys {
        let _ = write!(
            out,
            "\n    __pydantic_extra__: dict[str, {}] = pydantic.Field(init=False)\n",
            python_type(model, shape)
        );
        out.push_str(&docstring(&Some("Entries beyond the declared properties (`additionalProperties`), in the order read.".into()), "    "));
    }
    out
}

fn field_lines(model: &Model, field: &Field) -> String {
    let name = ident::field(&field.word);
    let ty = python_type(model, &field.shape);
    let alias = (name != field.json_name).then(|| format!("alias={}", string_literal(&field.json_name)));
    let (annotation, arguments) = match (field.required, field.shape.admits_null(model)) {
        (true, _) => (ty, alias.map(|alias| vec![alias])),
        // Absent stays absent (unset, so not written); null is a value.
        (false, true) if matches!(field.shape, Shape::Nullable(_) | Shape::Null | Shape::Any) => (ty, Some(default_none(alias))),
        (false, true) => (format!("{ty} | None"), Some(default_none(alias))),
        // Absent stays absent; an explicit null is refused.
        (false, false) => (format!("concord_runtime.NotNull[{ty}]"), Some(default_none(alias))),
    };
    let mut out = match arguments {
        None => format!("    {name}: {annotation}\n"),
        Some(arguments) if arguments == ["default=None"] => format!("    {name}: {annotation} = None\n"),
        Some(arguments) => call(&format!("{name}: {annotation} = pydantic.Field("), &arguments, ")", "    "),
    };
    out.push_str(&docstring(&field.doc, "    "));
    out
}

fn default_none(alias: Option<String>) -> Vec<String> {
    std::iter::once("default=None".to_owned()).chain(alias).collect()
}

fn class_name(model: &Model, id: TypeId) -> String {
    ident::type_name(&model.get(id).name)
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
        Shape::Map(value) => format!("dict[str, {}]", python_type(model, value)),
        Shape::Nullable(inner) => format!("{} | None", python_type(model, inner)),
        Shape::Named(id) => class_name(model, *id),
    }
}

/// Aliases ordered so that each comes after the aliases it names.
fn aliases_in_order(model: &Model) -> Vec<TypeId> {
    fn visit(model: &Model, id: TypeId, order: &mut Vec<TypeId>) {
        if order.contains(&id) {
            return;
        }
        if let TypeKind::Alias(shape) = &model.get(id).kind {
            for named in named_in(shape) {
                visit(model, named, order);
            }
            order.push(id);
        }
    }
    let mut order = Vec::new();
    for id in model.ids() {
        visit(model, id, &mut order);
    }
    order
}

fn named_in(shape: &Shape) -> Vec<TypeId> {
    match shape {
        Shape::Array(inner) | Shape::Map(inner) | Shape::Nullable(inner) => named_in(inner),
        Shape::Named(id) => vec![*id],
        _ => vec![],
    }
}

/// A Python string literal that holds `text` exactly; nothing in `text` can
/// end it early.
fn string_literal(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        escape_into(&mut out, c);
    }
    out.push('"');
    out
}

/// Longest generated line (ruff's E501 at the repository's setting).
const LINE_WIDTH: usize = 120;

/// A docstring: triple-quoted, wrapped to [`LINE_WIDTH`], newlines kept,
/// everything else that could close or bend the literal escaped.
fn docstring(doc: &Option<String>, indent: &str) -> String {
    let Some(doc) = doc else { return String::new() };
    // Room for the indent and the quotes on either side.
    let width = LINE_WIDTH - indent.len() - 6;
    let mut lines = Vec::new();
    for line in doc.lines() {
        let mut escaped = String::new();
        for c in line.trim_end().chars() {
            escape_into(&mut escaped, c);
        }
        lines.extend(wrap(&escaped, width));
    }
    let body = lines
        .iter()
        .enumerate()
        .map(|(n, line)| if n == 0 || line.is_empty() { line.clone() } else { format!("{indent}{line}") })
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
    lines
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
