//! Registries the lab writes to scratch folders and turns into bindings:
//! the survey's candidates and the generator fuzzer's cases alike.

use crate::panics::caught;
use concord_cli::roundtrip::Harness;
use concord_codegen::error::Errors;
use concord_codegen::registry::{digest, INDEX};
use concord_codegen::Config;
use serde_json::json;
use std::path::Path;

/// One document of a registry to write.
pub(crate) struct Listed<'a> {
    /// Its entry name.
    pub name: String,
    /// Its path below the registry's folder.
    pub path: String,
    pub bytes: &'a [u8],
    /// The index's `uri` for it, when it has one.
    pub uri: Option<&'a str>,
    /// The index's `dialect` for it, when it declares one.
    pub dialect: Option<&'a str>,
    /// More keys of its entry, declared by hand; a `dialect` or `read_as`
    /// among them takes the place of the one the lab would write.
    pub declared: Option<&'a serde_json::Map<String, serde_json::Value>>,
}

/// Writes each document at its path below `dir`, and `registry.json`
/// listing them in order, each pinned by its digest.
pub(crate) fn write_registry<'a>(dir: &Path, documents: impl IntoIterator<Item = Listed<'a>>) -> Result<(), Errors> {
    let mut index = Vec::new();
    for document in documents {
        write(&dir.join(&document.path), document.bytes)?;
        let mut item = json!({"name": document.name, "path": document.path, "digest": digest(document.bytes)});
        if let Some(uri) = document.uri {
            item["uri"] = json!(uri);
        }
        if let Some(dialect) = document.dialect {
            item["dialect"] = json!(dialect);
        }
        // The version-less `$schema` names no draft: read as 2020-12, the
        // latest, as validators read it (and as a user declares it, docs/dialects.md).
        if versionless(document.bytes) {
            item["read_as"] = json!("2020-12");
        }
        for (key, value) in document.declared.into_iter().flatten() {
            if let (Some(item), "dialect" | "read_as") = (item.as_object_mut(), key.as_str()) {
                item.remove("dialect");
                item.remove("read_as");
            }
            item[key] = value.clone();
        }
        index.push(item);
    }
    let mut text = serde_json::to_string_pretty(&json!({"format": 1, "schemas": index})).expect("a JSON value always serializes");
    text.push('\n');
    write(&dir.join(INDEX), text.as_bytes())
}

/// Whether a document's `$schema` is `http://json-schema.org/schema#` (or
/// its `https` spelling), which names whichever draft is the latest.
fn versionless(bytes: &[u8]) -> bool {
    let document = serde_json::from_slice::<serde_json::Value>(bytes).ok();
    let schema = document.as_ref().and_then(|document| document.get("$schema")).and_then(serde_json::Value::as_str);
    schema.is_some_and(|uri| matches!(uri.trim_end_matches('#'), "http://json-schema.org/schema" | "https://json-schema.org/schema"))
}

/// Writes a file, making its folder first.
pub(crate) fn write(file: &Path, bytes: &[u8]) -> Result<(), Errors> {
    if let Some(parent) = file.parent() {
        std::fs::create_dir_all(parent).map_err(|e| Errors::one(parent, "", format!("cannot create folder: {e}")))?;
    }
    std::fs::write(file, bytes).map_err(|e| Errors::one(file, "", format!("cannot write: {e}")))
}

/// Removes a scratch folder, if it is there.
pub(crate) fn remove_dir(dir: &Path) -> Result<(), Errors> {
    match std::fs::remove_dir_all(dir) {
        Ok(()) => Ok(()),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(error) => Err(Errors::one(dir, "", format!("cannot clear the scratch folder: {error}"))),
    }
}

/// The step at which a registry's bindings failed, in the order they run.
/// The survey runs fixtures after the import; the fuzzer denies warnings
/// and lints instead.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Loading or generating: refused, or a panic.
    Generate,
    RustBuild,
    /// The Rust bindings built with warnings about them (a crate that
    /// denies warnings would not build them).
    RustWarnings,
    PythonImport,
    /// `ruff` or `mypy --strict` refused the Python package.
    PythonLint,
    /// The round-trip harness could not run the fixtures.
    Harness,
}

impl Stage {
    pub fn describe(self) -> &'static str {
        match self {
            Stage::Generate => "did not generate",
            Stage::RustBuild => "did not compile (Rust)",
            Stage::RustWarnings => "compiled with warnings (Rust)",
            Stage::PythonImport => "did not import (Python)",
            Stage::PythonLint => "was refused by ruff or mypy (Python)",
            Stage::Harness => "the harness failed",
        }
    }
}

/// A stage that failed, and what it said.
pub type Failure = (Stage, String);

/// Generates the registry in `dir` into the round-trip harness's folder
/// `harness_dir` (catching a panic), builds its Rust bindings and imports
/// its Python package; with `deny_warnings`, warnings about the bindings
/// fail the build.
pub fn bindings(dir: &Path, harness_dir: &Path, python: &Path, deny_warnings: bool) -> Result<Harness, Failure> {
    let harness = match caught(|| Harness::prepare(Config::new().registry(dir), harness_dir)) {
        Ok(Ok(harness)) => harness,
        Ok(Err(errors)) => return Err((Stage::Generate, errors.to_string())),
        Err(panic) => return Err((Stage::Generate, format!("the generator panicked: {panic}"))),
    };
    let warnings = harness.build_rust_warnings().map_err(|errors| (Stage::RustBuild, errors.to_string()))?;
    if deny_warnings && !warnings.is_empty() {
        return Err((Stage::RustWarnings, warnings.join("\n")));
    }
    harness.import_python(python).map_err(|errors| (Stage::PythonImport, errors.to_string()))?;
    Ok(harness)
}
