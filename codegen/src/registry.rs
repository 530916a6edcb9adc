//! The registry: an index (`registry.json`) naming each schema file and
//! pinning it by the SHA-256 digest of its exact bytes. An entry may carry a
//! `version`: several versions of one name may be listed, each frozen once
//! pinned (docs/registry-versions.md). The index may declare the dialect of
//! documents without `$schema`, for the whole registry or for one entry
//! (docs/dialects.md).

use crate::error::{pointer_push, Errors};
use crate::output::write_atomically;
use crate::uri::outside_uri;
use crate::vocabulary::{dialect, keywords, Dialect};
use concord_runtime::strict;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};

/// The index file's name inside a registry folder.
pub const INDEX: &str = "registry.json";

/// Where the command a message names comes from, for a build script's user
/// who has only this crate.
pub const GET_CONCORD: &str = "(the `concord` command: `cargo install concord-cli`, or `pip install concord-cli`)";

/// The largest index or schema file concord reads: 16 MiB, 36 times the
/// largest schema of the corpus (CycloneDX, 445 KB). Checked before a byte
/// is read (docs/limits.md).
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// The largest `version` an entry may carry: a counter, not a date or a
/// packed major/minor (docs/decisions/frozen-versions.md), and safe in both languages.
pub const MAX_VERSION: u64 = 1_000_000;

/// A registry whose every pin held: each schema file read and verified.
#[derive(Clone, Debug)]
pub struct Registry {
    pub dir: PathBuf,
    pub schemas: Vec<SchemaFile>,
}

/// One schema file of the registry, with the bytes its pin vouches for.
#[derive(Clone, Debug)]
pub struct SchemaFile {
    /// The root type's name in both languages: the entry's `name`, or, for
    /// a version older than its name's newest, `<name>V<version>`.
    pub name: String,
    /// The entry's `name` as the index spells it.
    pub entry: String,
    /// The entry's `version`, if it has one (then its pin is frozen).
    pub version: Option<u64>,
    /// The path as the index spells it, relative to the registry folder.
    pub path: String,
    /// The file on disk (registry folder joined with `path`).
    pub file: PathBuf,
    pub digest: String,
    pub bytes: Vec<u8>,
    /// The URI other documents `$ref` it by, when it has no `$id` (its
    /// retrieval URI upstream): the index's optional `uri`.
    pub uri: Option<String>,
    /// The dialect the index declares for the document, if any: its entry's
    /// `dialect`, else the registry's. It is the dialect of a document
    /// without `$schema`; one the entry declares must agree with the
    /// document's own `$schema`.
    pub dialect: Option<Dialect>,
    /// Whether [`SchemaFile::dialect`] is the entry's own, not the registry's.
    pub dialect_of_entry: bool,
    /// The later dialect the entry reads the document in despite its
    /// `$schema` (the entry's `read_as`): for a document written against a
    /// validator that applies a later dialect's keywords (docs/dialects.md).
    pub read_as: Option<Dialect>,
    /// Keys of the document read as annotations, as its validators read
    /// them, where concord would refuse them as misspelt keywords or as
    /// draft-04's `id` (the entry's `annotations`, docs/dialects.md).
    pub annotations: Vec<String>,
}

/// One digest that `pin` rewrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PinChange {
    pub path: String,
    pub old: Option<String>,
    pub new: String,
}

/// `sha256:<64 lowercase hex>` over a file's exact bytes.
pub use concord_runtime::canonical::digest_bytes as digest;

/// Reads the registry in `dir` and verifies every pin; reports every problem.
pub fn load(dir: &Path) -> Result<Registry, Errors> {
    let (_, entries, mut errors) = read_index(dir)?;
    let mut schemas = Vec::new();
    for entry in entries {
        let dialect_of_entry = entry.dialect.is_some();
        let dialect = entry.dialect.or(entry.registry_dialect);
        let file = dir.join(&entry.path);
        let Some(bytes) = read_confined(dir, &entry, &mut errors) else { continue };
        let actual = digest(&bytes);
        match &entry.digest {
            Some(pinned) if *pinned == actual => schemas.push(SchemaFile {
                name: entry.binding,
                entry: entry.name,
                version: entry.version,
                path: entry.path,
                file,
                digest: actual,
                bytes,
                uri: entry.uri,
                dialect,
                dialect_of_entry,
                read_as: entry.read_as,
                annotations: entry.annotations,
            }),
            Some(pinned) if entry.version.is_some() => errors.push(&file, "", frozen(&entry, pinned, &actual)),
            Some(pinned) => errors.push(
                &file,
                "",
                format!(
                    "digest drift: {INDEX} pins {pinned} but the file's bytes hash to {actual}; \
                     if the change is deliberate, re-pin with `concord pin --registry {}` {GET_CONCORD}",
                    dir.display()
                ),
            ),
            None => {
                errors.push(&file, "", format!("not pinned: {INDEX} gives no digest; pin it with `concord pin --registry {}` {GET_CONCORD}", dir.display()))
            }
        }
    }
    errors.finish(Registry { dir: dir.to_path_buf(), schemas })
}

/// Why a pinned version's changed bytes are refused, by `load` and `pin` alike.
fn frozen(entry: &IndexEntry, pinned: &str, actual: &str) -> String {
    let version = entry.version.unwrap_or_default();
    let next = entry.newest.unwrap_or(version) + 1;
    format!(
        "version {version} of {} is frozen: {INDEX} pins {pinned} but the file's bytes hash to {actual}; \
         data written under a version must keep reading, so a revision is a new version: restore this file \
         and list the changed schema as version {} (a version never published may be re-pinned by deleting its digest)",
        entry.name, next
    )
}

/// Rewrites the index's digests to the files' current bytes: every entry
/// without a version, and every versioned entry not yet pinned. A pinned
/// version whose bytes changed is refused, and nothing is written.
pub fn pin(dir: &Path) -> Result<Vec<PinChange>, Errors> {
    let (mut index, entries, mut errors) = read_index(dir)?;
    let mut changes = Vec::new();
    for entry in &entries {
        let Some(bytes) = read_confined(dir, entry, &mut errors) else { continue };
        let actual = digest(&bytes);
        match entry.digest.as_deref() {
            Some(pinned) if pinned == actual => {}
            Some(pinned) if entry.version.is_some() => errors.push(&dir.join(&entry.path), "", frozen(entry, pinned, &actual)),
            _ => changes.push(PinChange { path: entry.path.clone(), old: entry.digest.clone(), new: actual }),
        }
    }
    // Nothing is written while any entry is wrong.
    errors.finish(())?;
    for (entry, change) in entries.iter().filter(|entry| changes.iter().any(|change| change.path == entry.path)).zip(&changes) {
        if let Some(slot) = index.pointer_mut(&format!("/schemas/{}", entry.position)).and_then(Value::as_object_mut) {
            slot.insert("digest".to_owned(), Value::String(change.new.clone()));
        }
    }
    if !changes.is_empty() {
        let index_file = dir.join(INDEX);
        let mut text = serde_json::to_string_pretty(&index).expect("a JSON value always serializes");
        text.push('\n');
        write_atomically(&index_file, text.as_bytes()).map_err(|e| Errors::one(&index_file, "", e))?;
    }
    Ok(changes)
}

struct IndexEntry {
    /// Its index in the index's `schemas` array (entries refused are skipped).
    position: usize,
    name: String,
    version: Option<u64>,
    /// The newest version listed for the entry's name.
    newest: Option<u64>,
    /// The root type's name in the bindings (`SchemaFile::name`).
    binding: String,
    path: String,
    digest: Option<String>,
    uri: Option<String>,
    /// The entry's own `dialect`.
    dialect: Option<Dialect>,
    /// The entry's `read_as`.
    read_as: Option<Dialect>,
    /// The entry's `annotations`.
    annotations: Vec<String>,
    /// The registry's `dialect`.
    registry_dialect: Option<Dialect>,
}

/// The index and its well-formed entries, with the problems of the others:
/// the entries that are fine are still checked, so one run reports all.
fn read_index(dir: &Path) -> Result<(Value, Vec<IndexEntry>, Errors), Errors> {
    let index_file = dir.join(INDEX);
    let bytes = read_inside(dir, &index_file).map_err(|why| {
        let why = match why {
            Unreadable::Missing(error) => format!("cannot read the registry index: {error}"),
            Unreadable::Refused(why) => format!("the registry index is refused: {why}"),
        };
        Errors::one(&index_file, "", why)
    })?;
    let index =
        strict::read(&bytes).map_err(|error| Errors::one(&index_file, "", format!("refused by the strict JSON profile (docs/strict-json.md): {error}")))?;
    let mut errors = Errors::default();
    let Some(object) = index.as_object() else {
        return Err(Errors::one(&index_file, "", "the index must be a JSON object"));
    };
    for key in object.keys().filter(|key| !matches!(key.as_str(), "format" | "schemas" | "dialect")) {
        errors.push(&index_file, pointer_push("", key), format!("unknown key {key:?}: the index has `format`, `schemas` and, optionally, `dialect`"));
    }
    let registry_dialect = object.get("dialect").and_then(|value| declared_dialect(&index_file, "/dialect", value, &mut errors));
    if object.get("format") != Some(&json!(1)) {
        errors.push(&index_file, "/format", "`format` must be 1");
    }
    let mut entries: Vec<IndexEntry> = Vec::new();
    // Where each (name, version) and path was first listed: a large index stays linear.
    let (mut names, mut paths) = (HashMap::new(), HashMap::new());
    match object.get("schemas").and_then(Value::as_array) {
        None => errors.push(&index_file, "/schemas", "`schemas` must be an array of {name, path, digest}"),
        Some(items) => {
            for (position, item) in items.iter().enumerate() {
                let pointer = format!("/schemas/{position}");
                if let Some(mut entry) = read_entry(&index_file, &pointer, item, position, &mut errors) {
                    entry.registry_dialect = registry_dialect;
                    let listed =
                        |version: Option<u64>| version.map_or_else(|| format!("name {:?}", entry.name), |v| format!("version {v} of {:?}", entry.name));
                    if let Some(other) = names.get(&(entry.name.clone(), entry.version)) {
                        errors.push(&index_file, &pointer, format!("{} is also listed at {other}", listed(entry.version)));
                    } else if let Some(other) = paths.get(&entry.path) {
                        errors.push(&index_file, &pointer, format!("path {:?} is also listed at {other}", entry.path));
                    } else {
                        names.insert((entry.name.clone(), entry.version), pointer.clone());
                        paths.insert(entry.path.clone(), pointer);
                        entries.push(entry);
                    }
                }
            }
        }
    }
    name_versions(&index_file, &mut entries, &mut errors);
    Ok((index, entries, errors))
}

/// Gives each entry its name in the bindings: the newest version of a name
/// keeps the name, an older one is `<name>V<version>`. Refuses a name listed
/// both with and without a version, and a binding name used twice (an entry
/// named `EvidenceV1` beside version 1 of `Evidence`).
fn name_versions(index_file: &Path, entries: &mut Vec<IndexEntry>, errors: &mut Errors) {
    let mut newest: HashMap<&str, Option<u64>> = HashMap::new();
    for entry in entries.iter() {
        let slot = newest.entry(&entry.name).or_insert(entry.version);
        *slot = (*slot).max(entry.version);
    }
    let mut refused: Vec<(usize, String)> = entries
        .iter()
        .filter(|entry| entry.version.is_none() && newest[entry.name.as_str()].is_some())
        .map(|entry| (entry.position, format!("name {:?} is listed with a version elsewhere: give every entry of a name a version", entry.name)))
        .collect();
    let mut out: std::collections::HashSet<usize> = refused.iter().map(|(position, _)| *position).collect();
    let bindings: Vec<String> = entries
        .iter()
        .map(|entry| match entry.version {
            Some(version) if Some(version) != newest[entry.name.as_str()] => format!("{}V{version}", entry.name),
            _ => entry.name.clone(),
        })
        .collect();
    // Entries refused already take no name.
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for (entry, binding) in entries.iter().zip(&bindings) {
        if out.contains(&entry.position) {
            continue;
        }
        if let Some(other) = seen.insert(binding, entry.position) {
            refused.push((entry.position, format!("its types would be named {binding:?}, as those of the entry at /schemas/{other}: rename one")));
            out.insert(entry.position);
        }
    }
    let newest: Vec<Option<u64>> = entries.iter().map(|entry| newest[entry.name.as_str()]).collect();
    for ((entry, binding), newest) in entries.iter_mut().zip(bindings).zip(newest) {
        entry.binding = binding;
        entry.newest = newest;
    }
    for (position, why) in &refused {
        errors.push(index_file, format!("/schemas/{position}"), why);
    }
    entries.retain(|entry| !out.contains(&entry.position));
}

fn read_entry(index_file: &Path, pointer: &str, item: &Value, position: usize, errors: &mut Errors) -> Option<IndexEntry> {
    let Some(object) = item.as_object() else {
        errors.push(index_file, pointer, "a schema entry must be an object {name, path, digest}");
        return None;
    };
    let before = errors.diagnostics.len();
    for key in object.keys().filter(|key| {
        !matches!(key.as_str(), "name" | "version" | "path" | "digest" | "uri" | "dialect" | "read_as" | "annotations" | "source" | "fetched_from")
    }) {
        errors.push(
            index_file,
            pointer_push(pointer, key),
            format!(
                "unknown key {key:?}: an entry has `name`, `path`, `digest` and, optionally, `version`, `uri`, `dialect`, `read_as`, `annotations`, `source` and `fetched_from`"
            ),
        );
    }
    let annotations = declared_annotations(index_file, pointer, object.get("annotations"), errors);
    // Where `concord add URL` downloaded the document from, and where a
    // redirect led: for `concord add --update` and for readers; nothing is
    // ever fetched from them while reading.
    for key in ["source", "fetched_from"] {
        match object.get(key) {
            None => {}
            Some(Value::String(url)) if url.starts_with("http://") || url.starts_with("https://") => {}
            Some(_) => errors.push(index_file, pointer_push(pointer, key), format!("`{key}` must be the http or https URL the document was downloaded from")),
        }
    }
    let dialect = object.get("dialect").and_then(|value| declared_dialect(index_file, &pointer_push(pointer, "dialect"), value, errors));
    let read_as = object.get("read_as").and_then(|value| declared_dialect(index_file, &pointer_push(pointer, "read_as"), value, errors));
    if dialect.is_some() && read_as.is_some() {
        errors.push(
            index_file,
            pointer_push(pointer, "read_as"),
            "an entry has `dialect` (for a document without `$schema`) or `read_as` (for one whose `$schema` names an earlier dialect), not both",
        );
    }
    let version = match object.get("version") {
        None => None,
        Some(value) => match value.as_u64() {
            Some(version @ 1..=MAX_VERSION) => Some(version),
            _ => {
                errors.push(index_file, pointer_push(pointer, "version"), format!("`version` must be a positive integer of at most {MAX_VERSION}"));
                None
            }
        },
    };
    let text = |key: &str, errors: &mut Errors| match object.get(key) {
        Some(Value::String(text)) => Some(text.clone()),
        Some(_) => {
            errors.push(index_file, pointer_push(pointer, key), format!("`{key}` must be a string"));
            None
        }
        None => None,
    };
    let name = text("name", errors);
    let path = text("path", errors);
    let digest = text("digest", errors);
    let uri = text("uri", errors);
    if let Some(uri) = &uri {
        if let Some(character) = outside_uri(uri) {
            errors.push(index_file, pointer_push(pointer, "uri"), format!("uri {uri:?} is not a URI (RFC 3986 does not allow {character:?} in one)"));
        } else if !uri.split('/').next().is_some_and(|scheme| scheme.contains(':')) || uri.contains('#') {
            errors.push(index_file, pointer_push(pointer, "uri"), format!("uri {uri:?} must be an absolute URI without a fragment"));
        }
    }
    match &name {
        None => errors.push(index_file, pointer, "missing `name`"),
        Some(name) if !is_type_name(name) => errors.push(
            index_file,
            pointer_push(pointer, "name"),
            format!("name {name:?} must be a PascalCase identifier (an ASCII capital letter, then letters and digits), e.g. \"ClsArtifact\""),
        ),
        Some(_) => {}
    }
    match &path {
        None => errors.push(index_file, pointer, "missing `path`"),
        Some(path) => {
            if let Err(why) = check_relative(path) {
                errors.push(index_file, pointer_push(pointer, "path"), format!("path {path:?} {why}"));
            }
        }
    }
    if let Some(digest) = &digest {
        if !is_digest(digest) {
            errors.push(index_file, pointer_push(pointer, "digest"), format!("digest {digest:?} must be \"sha256:\" and 64 lowercase hex digits"));
        }
    }
    if errors.diagnostics.len() > before {
        return None;
    }
    let name = name?;
    Some(IndexEntry {
        position,
        binding: name.clone(),
        name,
        version,
        newest: version,
        path: path?,
        digest,
        uri,
        dialect,
        read_as,
        annotations,
        registry_dialect: None,
    })
}

/// An entry's `annotations`: keys its document uses that no dialect has
/// (`"item"` for `items` in nbformat 4.2, cfn-lint's own `"requiredOr"`)
/// or draft-04's `"id"` in a later dialect, read as annotations, checking
/// nothing, as the document's validators read them. A keyword concord reads
/// cannot be one: the engine would still apply it.
fn declared_annotations(index_file: &Path, pointer: &str, value: Option<&Value>, errors: &mut Errors) -> Vec<String> {
    let at = pointer_push(pointer, "annotations");
    let Some(value) = value else { return Vec::new() };
    let Some(keys) = value.as_array().filter(|keys| !keys.is_empty()) else {
        errors.push(index_file, at, "`annotations` must be a list of the document's keys to read as annotations, e.g. [\"item\"]");
        return Vec::new();
    };
    let mut declared: Vec<String> = Vec::new();
    for (position, key) in keys.iter().enumerate() {
        let at = pointer_push(&at, &position.to_string());
        match key.as_str() {
            None | Some("") => errors.push(index_file, at, "an annotation is a key of the document: a non-empty string"),
            Some(key) if declared.iter().any(|other| other == key) => errors.push(index_file, at, format!("{key:?} is listed twice")),
            Some(key) if key != "id" && keywords::lookup(key).is_some() => errors.push(
                index_file,
                at,
                format!("{key:?} is a keyword concord reads, and the assertion engine would still apply it: only keys no dialect has (and draft-04's `id` in a later dialect) can be read as annotations"),
            ),
            Some(key) => declared.push(key.to_owned()),
        }
    }
    declared
}

/// A `dialect` the index declares: a dialect's short name or URI.
fn declared_dialect(index_file: &Path, pointer: &str, value: &Value, errors: &mut Errors) -> Option<Dialect> {
    let dialect = value.as_str().and_then(Dialect::named);
    if dialect.is_none() {
        let names: Vec<String> = dialect::ALL.iter().map(|dialect| format!("{:?}", dialect.name())).collect();
        let key = pointer.rsplit('/').next().unwrap_or("dialect");
        errors.push(index_file, pointer, format!("`{key}` {value} is not a dialect concord reads: one of {} (or its meta-schema's URI)", names.join(", ")));
    }
    dialect
}

pub fn is_type_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_uppercase()) && chars.all(|c| c.is_ascii_alphanumeric())
}

fn is_digest(text: &str) -> bool {
    text.strip_prefix("sha256:").is_some_and(|hex| hex.len() == 64 && hex.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)))
}

/// A path may only name a file below the registry folder.
fn check_relative(path: &str) -> Result<(), &'static str> {
    let components: Vec<_> = Path::new(path).components().collect();
    if path.is_empty() || components.is_empty() {
        return Err("is empty");
    }
    if path.contains('\\') {
        return Err("must use `/` as separator");
    }
    for component in components {
        match component {
            Component::Normal(_) | Component::CurDir => {}
            Component::ParentDir => return Err("leaves the registry folder (`..` is not allowed)"),
            Component::RootDir | Component::Prefix(_) => return Err("must be relative to the registry folder"),
        }
    }
    Ok(())
}

/// Reads an entry's file after making sure it resolves (symlinks included)
/// to a regular file inside the registry folder.
fn read_confined(dir: &Path, entry: &IndexEntry, errors: &mut Errors) -> Option<Vec<u8>> {
    let file = dir.join(&entry.path);
    let pinned = entry.digest.as_deref().unwrap_or("no digest");
    match read_inside(dir, &file) {
        Ok(bytes) => Some(bytes),
        Err(Unreadable::Missing(_)) => {
            errors.push(&file, "", format!("missing: {INDEX} lists this file (pinned {pinned}) but it does not exist"));
            None
        }
        Err(Unreadable::Refused(why)) => {
            errors.push(&file, "", why);
            None
        }
    }
}

/// The bytes of a file in the registry folder `dir`, read as the registry's
/// own files are (inside the folder, a regular file, within the size
/// limit), or why not.
pub fn read_file(dir: &Path, file: &Path) -> Result<Vec<u8>, String> {
    read_inside(dir, file).map_err(|unreadable| match unreadable {
        Unreadable::Missing(_) => "missing: no such file".to_owned(),
        Unreadable::Refused(why) => why,
    })
}

/// Why a registry file was not read.
enum Unreadable {
    /// Nothing at the path (a symlink to nothing included).
    Missing(std::io::Error),
    /// Why it is refused: a sentence.
    Refused(String),
}

/// The bytes of `file` (the index or a schema), which must resolve, through
/// any symlinks, to a regular file of at most [`MAX_FILE_BYTES`] inside the
/// registry folder `dir`.
fn read_inside(dir: &Path, file: &Path) -> Result<Vec<u8>, Unreadable> {
    use std::io::Read as _;
    let refused = |why: String| Unreadable::Refused(why);
    let resolved = file.canonicalize().map_err(|error| match error.kind() {
        std::io::ErrorKind::NotFound => Unreadable::Missing(error),
        // A symlink loop, a path through a file, a NUL byte, no permission: the OS says which.
        _ => refused(format!("cannot be resolved: {error}")),
    })?;
    let root = dir.canonicalize().map_err(|error| refused(format!("the registry folder cannot be resolved: {error}")))?;
    if !resolved.starts_with(&root) {
        return Err(refused(format!("resolves to {} outside the registry folder; a path or a link may not leave it", resolved.display())));
    }
    // A FIFO or a device would block or never end: only regular files.
    let metadata = resolved.metadata().map_err(|error| refused(format!("cannot read: {error}")))?;
    if !metadata.is_file() {
        return Err(refused("not a regular file: it must be a file (not a FIFO, a device or a folder)".to_owned()));
    }
    let too_large = |size: u64| refused(format!("too large: {size} bytes, and concord reads files of at most {MAX_FILE_BYTES} bytes (16 MiB; docs/limits.md)"));
    if metadata.len() > MAX_FILE_BYTES {
        return Err(too_large(metadata.len()));
    }
    // The limit holds even for a file that grows while it is read.
    let mut bytes = Vec::with_capacity(metadata.len() as usize);
    std::fs::File::open(&resolved)
        .and_then(|opened| opened.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|error| refused(format!("cannot read: {error}")))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(too_large(bytes.len() as u64));
    }
    Ok(bytes)
}
