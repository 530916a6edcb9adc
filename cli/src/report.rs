//! The command's reports for tools (`--format json`): one JSON object on
//! standard output, with the same facts the text shows people
//! (docs/diagnostics.md).

use crate::add::Added;
use concord_codegen::error::Errors;
use concord_runtime::location;
use serde_json::{json, Map, Value};
use std::path::Path;

/// `{"errors": [{"file", "pointer", "line"?, "column"?, "message"}]}`: every
/// diagnostic, with the line and column its pointer stands at where its
/// file is JSON that holds it.
pub fn errors(errors: &Errors) -> Value {
    let mut texts: Vec<(&Path, Option<Vec<u8>>)> = Vec::new();
    let listed: Vec<Value> = errors
        .diagnostics
        .iter()
        .map(|diagnostic| {
            let mut entry = Map::new();
            entry.insert("file".into(), json!(diagnostic.file.display().to_string()));
            entry.insert("pointer".into(), json!(diagnostic.pointer));
            if !diagnostic.pointer.is_empty() {
                let at = texts.iter().position(|(file, _)| *file == diagnostic.file.as_path()).unwrap_or_else(|| {
                    texts.push((&diagnostic.file, std::fs::read(&diagnostic.file).ok()));
                    texts.len() - 1
                });
                if let Some((text, (offset, _))) = texts[at].1.as_ref().and_then(|text| Some((text, location::pointer_place(text, &diagnostic.pointer)?))) {
                    let (line, column) = location::line_and_column(text, offset);
                    entry.insert("line".into(), json!(line));
                    entry.insert("column".into(), json!(column));
                }
            }
            entry.insert("message".into(), json!(diagnostic.message));
            Value::Object(entry)
        })
        .collect();
    json!({ "errors": listed })
}

/// What `concord add` listed, an object per entry with the keys it has.
pub fn added(added: &[Added]) -> Value {
    let entries: Vec<Value> = added
        .iter()
        .map(|entry| {
            let mut out = Map::new();
            out.insert("name".into(), json!(entry.name));
            out.insert("path".into(), json!(entry.path));
            out.insert("digest".into(), json!(entry.digest));
            let optional = [
                ("uri", entry.uri.clone()),
                ("dialect", entry.dialect.map(|dialect| dialect.name().to_owned())),
                ("read_as", entry.read_as.map(|dialect| dialect.name().to_owned())),
                ("source", entry.source.clone()),
                ("fetched_from", entry.fetched_from.clone()),
                ("referenced_by", entry.referenced_by.clone()),
            ];
            for (key, value) in optional {
                if let Some(value) = value {
                    out.insert(key.into(), json!(value));
                }
            }
            Value::Object(out)
        })
        .collect();
    Value::Array(entries)
}

/// A refusal of an input by the strict profile or the canonical form, as
/// `{"error": {"kind", "message", "offset" | "pointer", "line"?, "column"?}}`
/// (`python -m concord_runtime json --format json` writes the same).
pub fn input_error(kind: &str, message: &str, offset: Option<usize>, pointer: Option<&str>, text: &[u8]) -> Value {
    let mut error = Map::new();
    error.insert("kind".into(), json!(kind));
    error.insert("message".into(), json!(message));
    let place = match (offset, pointer) {
        (Some(offset), _) => {
            error.insert("offset".into(), json!(offset));
            Some(offset)
        }
        (None, Some(pointer)) => {
            error.insert("pointer".into(), json!(pointer));
            location::pointer_place(text, pointer).map(|(offset, _)| offset)
        }
        (None, None) => None,
    };
    if let Some(offset) = place {
        let (line, column) = location::line_and_column(text, offset);
        error.insert("line".into(), json!(line));
        error.insert("column".into(), json!(column));
    }
    json!({ "error": error })
}
