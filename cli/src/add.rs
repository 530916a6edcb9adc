//! `concord add SOURCE...`: lists schemas in a registry's index with their
//! digests, together with every document their `$ref`s reach, so a schema
//! of several files (CycloneDX: a main file, SPDX's, a cryptography file)
//! is one command. A SOURCE is a file in the registry folder or a URL: a
//! URL's document, and every document it references by URL, is downloaded
//! once into the registry folder (`<host>/<path>`), listed with the URL
//! `$ref`s name it by and where it came from (`source`), and never fetched
//! again but by `concord add --update NAME`, which shows what changed as
//! `concord diff` does. What the registry then fails to load is refused,
//! and the index and the folder are left as they were.

use crate::fetch;
use concord_codegen::error::{shown, Errors};
use concord_codegen::naming::words;
use concord_codegen::registry::{self, INDEX};
use concord_codegen::schema;
use concord_codegen::vocabulary::Dialect;
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
    /// The URL it was downloaded from (the index's `source`).
    pub source: Option<String>,
    /// Where a redirect finally led, when one was followed (`fetched_from`).
    pub fetched_from: Option<String>,
    /// The entry's `dialect` and `read_as`, as the command gave them.
    pub dialect: Option<Dialect>,
    pub read_as: Option<Dialect>,
}

/// What the command says of the one source it is given, written into its
/// entry: its `name`, and the `dialect` of a document without `$schema`,
/// the later dialect to `read_as`, or the `uri` other documents name it by
/// (docs/dialects.md).
#[derive(Clone, Debug, Default)]
pub struct EntryOptions {
    pub name: Option<String>,
    pub dialect: Option<Dialect>,
    pub read_as: Option<Dialect>,
    pub uri: Option<String>,
}

impl EntryOptions {
    fn given(&self) -> bool {
        self.name.is_some() || self.dialect.is_some() || self.read_as.is_some() || self.uri.is_some()
    }
}

/// Where a document to list is.
#[derive(Clone, Debug, PartialEq)]
enum Origin {
    File(PathBuf),
    Url(String),
}

/// A document to list: where it is, and which `$ref` reached it.
struct Wanted {
    origin: Origin,
    /// Named on the command line: the entry options are its.
    named: bool,
    referenced_by: Option<Reached>,
}

struct Reached {
    /// The path of the entry that holds the `$ref`.
    by: String,
    /// The `$ref` as written.
    target: String,
    /// What it resolves to: the URI the document must be known by.
    uri: String,
}

impl Reached {
    /// What a problem with the document reached says of where it was named.
    fn named_by(&self) -> String {
        format!("`$ref` {:?} in {}", self.target, self.by)
    }
}

/// The index as read, and what each listed entry is known by.
struct Listing {
    index_file: PathBuf,
    before: Option<Vec<u8>>,
    index: Value,
    paths: Vec<String>,
    taken: Vec<(String, String)>,
    /// The base URI of every listed document: a `$ref` to one of them needs nothing added.
    bases: Vec<String>,
    /// The `source` of every entry downloaded before, with its path.
    sources: Vec<(String, String)>,
    registry_dialect: Option<Dialect>,
}

fn field(entry: &Value, key: &str) -> Option<String> {
    entry.get(key).and_then(Value::as_str).map(str::to_owned)
}

fn listing(dir: &Path) -> Result<Listing, Errors> {
    let index_file = dir.join(INDEX);
    let before = match std::fs::read(&index_file) {
        Ok(bytes) => Some(bytes),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => None,
        Err(error) => return Err(Errors::one(&index_file, "", format!("cannot read: {error}"))),
    };
    let index = match &before {
        Some(bytes) => {
            concord_runtime::strict::read(bytes).map_err(|error| Errors::one(&index_file, "", format!("refused by the strict JSON profile: {error}")))?
        }
        None => json!({"format": 1, "schemas": []}),
    };
    let Some(listed) = index.get("schemas").and_then(Value::as_array).cloned() else {
        return Err(Errors::one(&index_file, "/schemas", "`schemas` must be an array of entries"));
    };
    // The dialect the index declares for documents without `$schema`, the whole registry's and each entry's.
    let registry_dialect = index.get("dialect").and_then(Value::as_str).and_then(Dialect::named);
    let dialect_of = |entry: &Value| field(entry, "dialect").and_then(|name| Dialect::named(&name)).or(registry_dialect);
    let bases = listed
        .iter()
        .filter_map(|entry| {
            let path = field(entry, "path")?;
            let document = registry::read_file(dir, &dir.join(&path)).ok().and_then(|bytes| concord_runtime::strict::read_schema(&bytes).ok());
            Some(concord_codegen::uri::document_base(&path, field(entry, "uri").as_deref(), document.as_ref(), dialect_of(entry)))
        })
        .collect();
    Ok(Listing {
        index_file,
        before,
        paths: listed.iter().filter_map(|entry| field(entry, "path")).collect(),
        taken: listed.iter().filter_map(|entry| Some((field(entry, "name")?, field(entry, "path")?))).collect(),
        sources: listed.iter().filter_map(|entry| Some((field(entry, "source")?, field(entry, "path")?))).collect(),
        bases,
        index,
        registry_dialect,
    })
}

/// Lists `sources` (files in the registry folder, or URLs) and what their
/// `$ref`s reach in the registry in `dir`, creating its index if there is
/// none; `options` are the one source's entry (default name: its `title`
/// when that is a PascalCase name, else its file name in PascalCase).
/// Documents already listed are left as they are.
pub fn add(dir: &Path, sources: &[String], options: &EntryOptions) -> Result<Vec<Added>, Errors> {
    let listing = listing(dir)?;
    if options.given() && sources.len() != 1 {
        return Err(Errors::one(&listing.index_file, "", "--name, --dialect, --read-as and --uri describe one entry: give one SOURCE with them"));
    }
    let queue = sources
        .iter()
        .map(|source| {
            let origin = if fetch::is_url(source) { Origin::Url(source.clone()) } else { Origin::File(PathBuf::from(source)) };
            Wanted { origin, named: true, referenced_by: None }
        })
        .collect();
    let adding = Adding { dir, options, refresh: false, listing, fetched: Vec::new(), refreshed: Vec::new(), downloads: 0 };
    adding.run(queue).map(|done| done.added)
}

/// What `add --update` changed: the entries downloaded again whose bytes
/// differ, and the entries their new versions reference that were added.
pub struct Updated {
    pub changed: Vec<(String, String)>,
    pub added: Vec<Added>,
}

/// `concord add --update NAME`: downloads the entry `name` again from its
/// `source`, and every downloaded document it references, replaces what
/// changed (re-pinned), and lists what the new versions reference that the
/// registry lacks; what then fails to load is refused and nothing changes.
pub fn update(dir: &Path, name: &str) -> Result<Updated, Errors> {
    let listing = listing(dir)?;
    let entries = listing.index.get("schemas").and_then(Value::as_array).cloned().unwrap_or_default();
    let Some(entry) = entries.iter().find(|entry| field(entry, "name").as_deref() == Some(name)) else {
        return Err(Errors::one(&listing.index_file, "", format!("no entry is named {name:?}")));
    };
    let Some(source) = field(entry, "source") else {
        return Err(Errors::one(
            &listing.index_file,
            "",
            format!("{name} was not downloaded (it has no `source`): change its file and `concord pin`, or add it again by URL"),
        ));
    };
    let queue = VecDeque::from([Wanted { origin: Origin::Url(source), named: true, referenced_by: None }]);
    let options = EntryOptions::default();
    let adding = Adding { dir, options: &options, refresh: true, listing, fetched: Vec::new(), refreshed: Vec::new(), downloads: 0 };
    let done = adding.run(queue)?;
    Ok(Updated { changed: done.refreshed, added: done.added })
}

struct Adding<'a> {
    dir: &'a Path,
    options: &'a EntryOptions,
    /// `--update`: a downloaded entry's `source` is fetched again, not skipped.
    refresh: bool,
    listing: Listing,
    /// Documents downloaded, to write: (path in the registry folder, bytes).
    fetched: Vec<(String, Vec<u8>)>,
    /// Entries downloaded again whose bytes changed: (path, new digest).
    refreshed: Vec<(String, String)>,
    downloads: usize,
}

struct Done {
    added: Vec<Added>,
    refreshed: Vec<(String, String)>,
}

impl Adding<'_> {
    fn run(mut self, mut queue: VecDeque<Wanted>) -> Result<Done, Errors> {
        let dir = self.dir;
        let root = dir.canonicalize().map_err(|error| Errors::one(dir, "", format!("the registry folder cannot be resolved: {error}")))?;
        let mut errors = Errors::default();
        let mut added = Vec::new();
        // URLs downloaded in this run, each once.
        let mut seen: Vec<String> = Vec::new();
        while let Some(wanted) = queue.pop_front() {
            let (path, file, bytes, source, fetched_from) = match &wanted.origin {
                Origin::File(given) => {
                    let Some(path) = inside(&root, given) else {
                        let why = match &wanted.referenced_by {
                            Some(reached) => {
                                format!("{} names this file, which is not in the registry folder {}: put it there", reached.named_by(), dir.display())
                            }
                            None => format!("not in the registry folder {}: registry paths are relative to it; copy the file there first", dir.display()),
                        };
                        errors.push(given, "", why);
                        continue;
                    };
                    if self.listing.paths.contains(&path) {
                        continue;
                    }
                    let file = dir.join(&path);
                    let bytes = match registry::read_file(dir, &file) {
                        Ok(bytes) => bytes,
                        Err(why) => {
                            let why = match &wanted.referenced_by {
                                Some(reached) => format!("{why} ({} names it: download it into the registry folder, or add it by URL)", reached.named_by()),
                                None => why,
                            };
                            errors.push(&file, "", why);
                            continue;
                        }
                    };
                    (path, file, bytes, None, None)
                }
                Origin::Url(url) => {
                    let url = url.split('#').next().unwrap_or(url).to_owned();
                    let listed_source = self.listing.sources.iter().find(|(source, _)| *source == url).map(|(_, path)| path.clone());
                    let listed = listed_source.is_some() || self.listing.bases.contains(&url);
                    if seen.contains(&url) || (listed && !(self.refresh && listed_source.is_some())) {
                        continue;
                    }
                    seen.push(url.clone());
                    self.downloads += 1;
                    if self.downloads > fetch::MAX_DOCUMENTS {
                        errors.push(&self.listing.index_file, "", format!("more than {} documents to download: concord stops there", fetch::MAX_DOCUMENTS));
                        break;
                    }
                    let fetched = match fetch::fetch(&url) {
                        Ok(fetched) => fetched,
                        Err(why) => {
                            let why = match &wanted.referenced_by {
                                Some(reached) => format!("{why} ({} names it)", reached.named_by()),
                                None => why,
                            };
                            errors.push(&self.listing.index_file, "", why);
                            continue;
                        }
                    };
                    let path = listed_source.unwrap_or_else(|| fetch::local_path(&url));
                    let file = dir.join(&path);
                    match std::fs::read(&file) {
                        // Downloaded before: the entry is replaced in place.
                        Ok(old) if self.refresh && self.listing.paths.contains(&path) => {
                            if old != fetched.bytes {
                                self.refreshed.push((path.clone(), registry::digest(&fetched.bytes)));
                                self.fetched.push((path.clone(), fetched.bytes.clone()));
                            }
                            if let Ok(document) = concord_runtime::strict::read_schema(&fetched.bytes) {
                                let dialect = Dialect::of_document(&document, self.listing.registry_dialect).unwrap_or(Dialect::Draft202012);
                                self.follow(&mut queue, &path, &document, dialect, &url, &file);
                            }
                            continue;
                        }
                        Ok(old) if old != fetched.bytes => {
                            errors.push(&file, "", format!("{url} would be kept here, where another file is: move that file, or add it by its path"));
                            continue;
                        }
                        _ => {}
                    }
                    if self.listing.paths.contains(&path) {
                        continue;
                    }
                    self.fetched.push((path.clone(), fetched.bytes.clone()));
                    (path, file, fetched.bytes, Some(url), fetched.redirected_to)
                }
            };
            let document = match concord_runtime::strict::read_schema(&bytes) {
                Ok(document) => document,
                Err(error) => {
                    errors.push(&file, "", format!("refused by the strict JSON profile (docs/strict-json.md): {error}"));
                    continue;
                }
            };
            let options = if wanted.named { self.options.clone() } else { EntryOptions::default() };
            let name = options.name.clone().unwrap_or_else(|| default_name(&document, &path));
            if !registry::is_type_name(&name) {
                errors.push(&file, "", format!("name {:?} must be a PascalCase identifier: pass --name", shown(&name)));
                continue;
            }
            if let Some((_, other)) = self.listing.taken.iter().find(|(taken, _)| *taken == name) {
                errors.push(&file, "", format!("name {name:?} is taken by {other}: add this file alone with --name"));
                continue;
            }
            let declared = options.dialect.or(self.listing.registry_dialect);
            if document.is_object() && document.get("$schema").is_none() && declared.is_none() {
                errors.push(
                    &file,
                    "",
                    "it has no \"$schema\" and the registry declares no dialect: say which with --dialect (draft-04, draft-06, draft-07, 2019-09 or 2020-12), which writes it into the entry",
                );
                continue;
            }
            // Reached by a `$ref`, or downloaded, under another URI than its path here: known by that URI.
            let own = concord_codegen::uri::document_base(&path, None, Some(&document), declared);
            let dialect = Dialect::of_entry(&document, declared, options.read_as).unwrap_or(Dialect::Draft202012);
            let has_id = document.as_object().and_then(|object| concord_codegen::uri::id_of(object, dialect)).is_some();
            let named_by = wanted.referenced_by.as_ref().map(|reached| reached.uri.clone()).or_else(|| source.clone());
            let uri = match (&options.uri, named_by) {
                (Some(uri), _) => Some(uri.clone()),
                (None, Some(uri)) if uri != own && !has_id => Some(uri),
                _ => None,
            };
            let base = uri.clone().unwrap_or(own);
            self.follow(&mut queue, &path, &document, dialect, &base, &file);
            self.listing.bases.push(base);
            self.listing.paths.push(path.clone());
            self.listing.taken.push((name.clone(), path.clone()));
            added.push(Added {
                name,
                path,
                digest: registry::digest(&bytes),
                uri,
                referenced_by: wanted.referenced_by.map(|reached| reached.by),
                source,
                fetched_from,
                dialect: options.dialect,
                read_as: options.read_as,
            });
        }
        errors.finish(())?;
        if added.is_empty() && self.refreshed.is_empty() {
            return Ok(Done { added, refreshed: self.refreshed });
        }
        self.write(&added)?;
        Ok(Done { added, refreshed: self.refreshed })
    }

    /// Queues what the `$ref`s of the document at `path` (based at `base`)
    /// name that the registry lacks: a relative reference in a file names
    /// a file beside it, any other an absolute URL, downloaded.
    fn follow(&self, queue: &mut VecDeque<Wanted>, path: &str, document: &Value, dialect: Dialect, base: &str, file: &Path) {
        let downloaded = self.fetched.iter().any(|(fetched, _)| fetched == path) || self.listing.sources.iter().any(|(_, listed)| listed == path);
        // Resources the document embeds (`"$id": "node.json"` below the root): a `$ref` to one names no document.
        let embedded: Vec<String> = identifiers(document, dialect).iter().map(|id| concord_codegen::uri::resolve_uri(base, id)).collect();
        for target in references(document) {
            let reference = target.split('#').next().unwrap_or_default();
            if reference.is_empty() {
                continue;
            }
            let resolved = concord_codegen::uri::resolve_uri(base, reference);
            let queued = |queue: &VecDeque<Wanted>| queue.iter().any(|queued| queued.referenced_by.as_ref().is_some_and(|reached| reached.uri == resolved));
            if resolved == base || (self.listing.bases.contains(&resolved) && !self.refresh) || embedded.contains(&resolved) || queued(queue) {
                continue;
            }
            let reached = Reached { by: path.to_owned(), target: target.clone(), uri: resolved.clone() };
            let absolute = reference.split('/').next().is_some_and(|head| head.contains(':'));
            let origin = if downloaded || absolute {
                if !fetch::is_url(&resolved) {
                    // A `urn:` or a `file:` names nothing to download: the registry refuses it where it stands.
                    continue;
                }
                Origin::Url(resolved)
            } else {
                let Some(local) = file.parent().map(|folder| folder.join(percent_decoded(reference))) else { continue };
                Origin::File(local)
            };
            queue.push_back(Wanted { origin, named: false, referenced_by: Some(reached) });
        }
    }

    /// Writes the downloaded documents and the index, and keeps them only
    /// if the registry then loads: else the folder and the index go back
    /// to what they were.
    fn write(&self, added: &[Added]) -> Result<(), Errors> {
        let dir = self.dir;
        let index_file = &self.listing.index_file;
        let mut index = self.listing.index.clone();
        let schemas = index.get_mut("schemas").and_then(Value::as_array_mut).expect("checked when read");
        for (path, digest) in &self.refreshed {
            if let Some(entry) = schemas.iter_mut().find(|entry| field(entry, "path").as_deref() == Some(path)) {
                entry["digest"] = json!(digest);
            }
        }
        for entry in added {
            let mut listed = json!({"name": entry.name, "path": entry.path, "digest": entry.digest});
            if let Some(uri) = &entry.uri {
                listed["uri"] = json!(uri);
            }
            if let Some(dialect) = entry.dialect {
                listed["dialect"] = json!(dialect.name());
            }
            if let Some(read_as) = entry.read_as {
                listed["read_as"] = json!(read_as.name());
            }
            if let Some(source) = &entry.source {
                listed["source"] = json!(source);
            }
            if let Some(fetched_from) = &entry.fetched_from {
                listed["fetched_from"] = json!(fetched_from);
            }
            schemas.push(listed);
        }
        // What was there before each downloaded file, to put back.
        let mut previous: Vec<(PathBuf, Option<Vec<u8>>)> = Vec::new();
        let restore = |previous: &[(PathBuf, Option<Vec<u8>>)]| {
            for (file, bytes) in previous.iter().rev() {
                let _ = match bytes {
                    Some(bytes) => concord_codegen::output::write_atomically(file, bytes).map_err(|_| ()),
                    None => std::fs::remove_file(file).map_err(|_| ()),
                };
            }
        };
        for (path, bytes) in &self.fetched {
            let file = dir.join(path);
            previous.push((file.clone(), std::fs::read(&file).ok()));
            let written = file
                .parent()
                .map_or(Ok(()), |folder| std::fs::create_dir_all(folder).map_err(|error| error.to_string()))
                .and_then(|()| concord_codegen::output::write_atomically(&file, bytes));
            if let Err(error) = written {
                restore(&previous);
                return Err(Errors::one(&file, "", format!("cannot write: {error}")));
            }
        }
        let mut text = serde_json::to_string_pretty(&index).expect("a JSON value always serializes");
        text.push('\n');
        if let Err(error) = concord_codegen::output::write_atomically(index_file, text.as_bytes()) {
            restore(&previous);
            return Err(Errors::one(index_file, "", error));
        }
        // What does not load is not added: the index goes back to what it was.
        if let Err(mut errors) = crate::load(dir) {
            restore(&previous);
            let restored = match &self.listing.before {
                Some(bytes) => concord_codegen::output::write_atomically(index_file, bytes),
                None => std::fs::remove_file(index_file).map_err(|error| error.to_string()),
            };
            restored.map_err(|error| Errors::one(index_file, "", error))?;
            let what = if self.refresh { "nothing was updated" } else { "nothing was added" };
            errors.push(index_file, "", format!("{what}: the registry must load with these schemas first"));
            return Err(errors);
        }
        Ok(())
    }
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
    words::pascal(stem, "Schema")
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
fn identifiers(document: &Value, dialect: concord_codegen::vocabulary::Dialect) -> Vec<String> {
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
                if let Some(id) = concord_codegen::uri::id_of(object, dialect) {
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
