//! `concord add FILE...`: lists schema files in a registry's index with
//! their digests, together with every local file their `$ref`s reach, so a
//! schema of several files (CycloneDX: a main file, SPDX's, a cryptography
//! file) is one command. What the registry then fails to load is refused,
//! and the index is left as it was.

use concord_codegen::error::{shown, Errors};
use concord_codegen::registry::{self, INDEX};
use concord_codegen::{names, schema};
use serde_json::{json, Value};
use std::collections::VecDeque;
use std::path::{Component, Path, PathBuf};

/// One entry `add` listed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Added {
    pub name: String,
    /// Its path in the index, relative to the registry folder.
    pub path: String,
    pub digest: String,
    /// The URI the entry is known by, when its document has no `$id` and a
    /// `$ref` names it by another than its path in the registry.
    pub uri: Option<String>,
    /// The entry whose `$ref` reached it, if it was not named on the command line.
    pub referenced_by: Option<String>,
}

/// A file to list: where it is, and which `$ref` reached it.
struct Wanted {
    file: PathBuf,
    name: Option<String>,
    referenced_by: Option<Reached>,
}

struct Reached {
    /// The path of the entry that holds the `$ref`.
    by: String,
    /// The `$ref` as written.
    target: String,
    /// What it resolves to: the URI the file must be known by.
    uri: String,
}

/// Lists `files` (and what their `$ref`s reach) in the registry in `dir`,
/// creating its index if there is none; `name` names the one file given
/// (default: its `title` when that is a PascalCase name, else its file
/// name in PascalCase). Files already listed are left as they are.
pub fn add(dir: &Path, files: &[PathBuf], name: Option<&str>) -> Result<Vec<Added>, Errors> {
    let index_file = dir.join(INDEX);
    let mut errors = Errors::default();
    if name.is_some() && files.len() != 1 {
        return Err(Errors::one(&index_file, "", "--name names one file: give one FILE with it"));
    }
    let root = dir.canonicalize().map_err(|error| Errors::one(dir, "", format!("the registry folder cannot be resolved: {error}")))?;
    let before = match std::fs::read(&index_file) {
        Ok(bytes) => Some(bytes),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => None,
        Err(error) => return Err(Errors::one(&index_file, "", format!("cannot read: {error}"))),
    };
    let mut index = match &before {
        Some(bytes) => {
            concord_runtime::strict::read(bytes).map_err(|error| Errors::one(&index_file, "", format!("refused by the strict JSON profile: {error}")))?
        }
        None => json!({"format": 1, "schemas": []}),
    };
    let Some(listed) = index.get("schemas").and_then(Value::as_array).cloned() else {
        return Err(Errors::one(&index_file, "/schemas", "`schemas` must be an array of entries"));
    };
    let field = |entry: &Value, key: &str| entry.get(key).and_then(Value::as_str).map(str::to_owned);
    // The dialect the index declares for documents without `$schema`, the whole registry's and each entry's.
    let registry_dialect = index.get("dialect").and_then(Value::as_str).and_then(schema::Dialect::named);
    let dialect_of = |entry: &Value| field(entry, "dialect").and_then(|name| schema::Dialect::named(&name)).or(registry_dialect);
    let mut paths: Vec<String> = listed.iter().filter_map(|entry| field(entry, "path")).collect();
    let mut taken: Vec<(String, String)> = listed.iter().filter_map(|entry| Some((field(entry, "name")?, field(entry, "path")?))).collect();
    // The base URI of every listed document: a `$ref` to one of them needs nothing added.
    let mut bases: Vec<String> = listed
        .iter()
        .filter_map(|entry| {
            let path = field(entry, "path")?;
            let document = registry::read_file(dir, &dir.join(&path)).ok().and_then(|bytes| concord_runtime::strict::read_schema(&bytes).ok());
            Some(schema::document_base(&path, field(entry, "uri").as_deref(), document.as_ref(), dialect_of(entry)))
        })
        .collect();

    let mut queue: VecDeque<Wanted> = files.iter().map(|file| Wanted { file: file.clone(), name: name.map(str::to_owned), referenced_by: None }).collect();
    let mut added = Vec::new();
    while let Some(wanted) = queue.pop_front() {
        let Some(path) = inside(&root, &wanted.file) else {
            let why = match &wanted.referenced_by {
                Some(Reached { by, target, .. }) => {
                    format!("`$ref` {target:?} in {by} names this file, which is not in the registry folder {}: put it there", dir.display())
                }
                None => format!("not in the registry folder {}: registry paths are relative to it; copy the file there first", dir.display()),
            };
            errors.push(&wanted.file, "", why);
            continue;
        };
        if paths.contains(&path) {
            continue;
        }
        let file = dir.join(&path);
        let bytes = match registry::read_file(dir, &file) {
            Ok(bytes) => bytes,
            Err(why) => {
                let why = match &wanted.referenced_by {
                    Some(Reached { by, target, .. }) => format!("{why} (`$ref` {target:?} in {by} names it: download it into the registry folder)"),
                    None => why,
                };
                errors.push(&file, "", why);
                continue;
            }
        };
        let document = match concord_runtime::strict::read_schema(&bytes) {
            Ok(document) => document,
            Err(error) => {
                errors.push(&file, "", format!("refused by the strict JSON profile (docs/strict-json.md): {error}"));
                continue;
            }
        };
        let name = wanted.name.clone().unwrap_or_else(|| default_name(&document, &path));
        if !registry::is_type_name(&name) {
            errors.push(&file, "", format!("name {:?} must be a PascalCase identifier: pass --name", shown(&name)));
            continue;
        }
        if let Some((_, other)) = taken.iter().find(|(taken, _)| *taken == name) {
            errors.push(&file, "", format!("name {name:?} is taken by {other}: add this file alone with --name"));
            continue;
        }
        // Reached by a `$ref` under another URI than its path here: known by that URI.
        let own = schema::document_base(&path, None, Some(&document), registry_dialect);
        let dialect = schema::Dialect::of_document(&document, registry_dialect).unwrap_or(schema::Dialect::Draft202012);
        let has_id = document.as_object().and_then(|object| schema::id_of(object, dialect)).is_some();
        let uri = match &wanted.referenced_by {
            Some(Reached { uri, .. }) if *uri != own && !has_id => Some(uri.clone()),
            _ => None,
        };
        let base = uri.clone().unwrap_or(own);
        // Resources the document embeds (`"$id": "node.json"` below the root): a `$ref` to one names no file.
        let embedded: Vec<String> = identifiers(&document, dialect).iter().map(|id| schema::resolve_uri(&base, id)).collect();
        for target in references(&document) {
            let reference = target.split('#').next().unwrap_or_default();
            if reference.is_empty() {
                continue;
            }
            let resolved = schema::resolve_uri(&base, reference);
            if bases.contains(&resolved)
                || embedded.contains(&resolved)
                || queue.iter().any(|queued| queued.referenced_by.as_ref().is_some_and(|reached| reached.uri == resolved))
            {
                continue;
            }
            // A remote `$ref` is the registry's to refuse; a relative one names a file beside this one.
            if reference.split('/').next().is_some_and(|head| head.contains(':')) {
                continue;
            }
            let Some(local) = file.parent().map(|folder| folder.join(percent_decoded(reference))) else { continue };
            queue.push_back(Wanted { file: local, name: None, referenced_by: Some(Reached { by: path.clone(), target: target.clone(), uri: resolved }) });
        }
        bases.push(base);
        paths.push(path.clone());
        taken.push((name.clone(), path.clone()));
        added.push(Added { name, path, digest: registry::digest(&bytes), uri, referenced_by: wanted.referenced_by.map(|reached| reached.by) });
    }
    errors.finish(())?;
    if added.is_empty() {
        return Ok(added);
    }
    let schemas = index.get_mut("schemas").and_then(Value::as_array_mut).expect("checked above");
    for entry in &added {
        let mut listed = json!({"name": entry.name, "path": entry.path, "digest": entry.digest});
        if let Some(uri) = &entry.uri {
            listed["uri"] = json!(uri);
        }
        schemas.push(listed);
    }
    let mut text = serde_json::to_string_pretty(&index).expect("a JSON value always serializes");
    text.push('\n');
    registry::write_atomically(&index_file, text.as_bytes()).map_err(|error| Errors::one(&index_file, "", error))?;
    // What does not load is not added: the index goes back to what it was.
    if let Err(mut errors) = crate::load(dir) {
        let restored = match &before {
            Some(bytes) => registry::write_atomically(&index_file, bytes),
            None => std::fs::remove_file(&index_file).map_err(|error| error.to_string()),
        };
        restored.map_err(|error| Errors::one(&index_file, "", error))?;
        errors.push(&index_file, "", "nothing was added: the registry must load with these schemas first");
        return Err(errors);
    }
    Ok(added)
}

/// `file`'s path below the registry folder `root`, with `/` between its
/// parts, if it is inside it (symlinks followed).
fn inside(root: &Path, file: &Path) -> Option<String> {
    let resolved = file.canonicalize().unwrap_or_else(|_| normalized(file));
    let relative = resolved.strip_prefix(root).ok()?;
    let parts: Option<Vec<&str>> = relative.components().map(|part| part.as_os_str().to_str()).collect();
    Some(parts?.join("/")).filter(|path| !path.is_empty())
}

/// `path` made absolute with `.` and `..` resolved, for a file that does not exist.
fn normalized(path: &Path) -> PathBuf {
    let absolute = std::env::current_dir().map(|here| here.join(path)).unwrap_or_else(|_| path.to_path_buf());
    let mut out = PathBuf::new();
    for part in absolute.components() {
        match part {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// A document's `title` when it is a PascalCase name, else its file name
/// (without `.schema.json` or `.json`) in PascalCase: `bom-1.6.schema.json`
/// is `Bom16`.
fn default_name(document: &Value, path: &str) -> String {
    if let Some(title) = document.get("title").and_then(Value::as_str).filter(|title| registry::is_type_name(title)) {
        return title.to_owned();
    }
    let file = path.rsplit('/').next().unwrap_or(path);
    let stem = file.strip_suffix(".schema.json").or_else(|| file.strip_suffix(".json")).unwrap_or(file);
    names::pascal(stem, "Schema")
}

/// Every `$ref` of a document (not inside values: `enum`, `const`, `default`, `examples`).
fn references(document: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![document];
    while let Some(value) = stack.pop() {
        match value {
            Value::Object(object) => {
                if let Some(Value::String(target)) = object.get("$ref") {
                    out.push(target.clone());
                }
                for (key, item) in object.iter().rev() {
                    if !matches!(key.as_str(), "enum" | "const" | "default" | "examples") {
                        stack.push(item);
                    }
                }
            }
            Value::Array(items) => stack.extend(items.iter().rev()),
            _ => {}
        }
    }
    out
}

/// Every `$id` (draft-04's `id`) below a document's root.
fn identifiers(document: &Value, dialect: schema::Dialect) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack: Vec<&Value> = match document {
        Value::Object(object) => {
            object.iter().filter(|(key, _)| !matches!(key.as_str(), "enum" | "const" | "default" | "examples")).map(|(_, item)| item).collect()
        }
        _ => Vec::new(),
    };
    while let Some(value) = stack.pop() {
        match value {
            Value::Object(object) => {
                if let Some(id) = schema::id_of(object, dialect) {
                    out.push(id.to_owned());
                }
                stack.extend(object.iter().filter(|(key, _)| !matches!(key.as_str(), "enum" | "const" | "default" | "examples")).map(|(_, item)| item));
            }
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    out
}

/// A relative reference's path with its percent-escapes decoded (as a file name).
fn percent_decoded(reference: &str) -> String {
    let path = reference.split('?').next().unwrap_or(reference);
    schema::percent_decode(path).unwrap_or_else(|| path.to_owned())
}
