//! `concord-lab survey --corpus DIR`: the schemas of a corpus laid
//! out as `fixtures/vectors/corpus` is (`MANIFEST.tsv`, `schemas/<name>.schema.json`
//! with its bundle under `schemas/<name>/`, `instances/<name>/<n>.json` and
//! `SOURCES.tsv`), as survey candidates, and the survey as a markdown table.
//!
//! Each schema is one candidate. Its main document sits at its path in its
//! repository (`path_in_repo`), and each bundled document at the repository
//! path `_refmap.json`'s folder layout gives it (`_parent_/` is `../` from
//! the main document's folder), so relative `$ref`s between them resolve as
//! in the repository; every bundled document is an entry of its own. An
//! instance whose `target` is a pointer into the schema (`#/$defs/Tool`) is
//! read by an entry of its own beside the main document,
//! `{"$ref": "<main>#/$defs/Tool"}` (by the main's `$id` when it has one).
//!
//! Every dialect concord reads is surveyed. A document without `$schema` is
//! declared in registry.json, as a user would: in its main document's
//! dialect (a bundle's files are one schema set), or, for a main document
//! without one, in 2020-12 (what validators assume; the corpus's own check
//! of each schema against its meta-schema did too).

use super::{first_reason, Build, Candidate, Document, Expect, Instance, Survey, Verdict};
use crate::registry::Stage;
use concord_codegen::error::Errors;
use concord_codegen::naming::words::{pascal, Numbering};
use std::fmt::Write as _;
use std::path::{Component, Path, PathBuf};

use concord_codegen::schema::DRAFT_2020_12;
use concord_codegen::vocabulary::Dialect;

/// The corpus's schemas, in `MANIFEST.tsv` order.
pub fn candidates(corpus: &Path) -> Result<Vec<Candidate>, Errors> {
    let manifest_file = corpus.join("MANIFEST.tsv");
    let manifest = read_text(&manifest_file)?;
    let mut lines = manifest.lines();
    let header: Vec<&str> = lines.next().unwrap_or_default().split('\t').collect();
    let column =
        |name: &str| header.iter().position(|c| *c == name).ok_or_else(|| Errors::one(&manifest_file, "", format!("no column {name:?} in the header")));
    let (name_at, path_at) = (column("short_name")?, column("path_in_repo")?);
    let mut declared = entries_declared(corpus)?;
    let mut names = Numbering::default();
    let mut candidates = Vec::new();
    for line in lines.filter(|line| !line.trim().is_empty()) {
        let cells: Vec<&str> = line.split('\t').collect();
        let cell = |at: usize| cells.get(at).copied().unwrap_or_default();
        let keys = declared.remove(cell(name_at)).unwrap_or_default();
        candidates.push(candidate(corpus, cell(name_at), cell(path_at), keys, &mut names)?);
    }
    if let Some(name) = declared.keys().next() {
        return Err(Errors::one(&corpus.join(ENTRIES), "", format!("{name:?} is no schema of MANIFEST.tsv")));
    }
    Ok(candidates)
}

/// What a user declares in registry.json for some schemas that are not
/// theirs, each with the reason (`annotations` for a misspelt keyword the
/// project's validator ignores, `read_as`, `dialect`): `ENTRIES.json`
/// beside the manifest, `{"<short_name>": {"entry": {...}, "why": "..."}}`,
/// the keys of the entry of each of the schema's documents.
const ENTRIES: &str = "ENTRIES.json";

fn entries_declared(corpus: &Path) -> Result<std::collections::BTreeMap<String, serde_json::Map<String, serde_json::Value>>, Errors> {
    let file = corpus.join(ENTRIES);
    let mut declared = std::collections::BTreeMap::new();
    if !file.exists() {
        return Ok(declared);
    }
    let text = read_text(&file)?;
    let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| Errors::one(&file, "", format!("not JSON: {e}")))?;
    for (name, item) in value.as_object().into_iter().flatten() {
        let entry = item.get("entry").and_then(serde_json::Value::as_object);
        let why = item.get("why").and_then(serde_json::Value::as_str).filter(|why| !why.trim().is_empty());
        match (entry, why) {
            (Some(entry), Some(_)) => {
                declared.insert(name.clone(), entry.clone());
            }
            _ => return Err(Errors::one(&file, format!("/{name}"), "each schema declares `entry` (the keys of its registry.json entry) and `why`")),
        }
    }
    Ok(declared)
}

/// The dialect registry.json declares for a document: none when it has a
/// `$schema` of its own, else `dialect`.
fn declared(bytes: &[u8], dialect: Dialect) -> Option<String> {
    let document = serde_json::from_slice::<serde_json::Value>(bytes).ok();
    document.is_some_and(|document| document.get("$schema").is_none()).then(|| dialect.name().to_owned())
}

/// The dialect a candidate's main document is written in (2020-12 when it says none).
pub fn dialect_of(candidate: &Candidate) -> Option<Dialect> {
    let document = serde_json::from_slice::<serde_json::Value>(&candidate.main.bytes).ok()?;
    match document.get("$schema") {
        None => Some(Dialect::Draft202012),
        Some(uri) => Dialect::of(uri.as_str()?),
    }
}

fn candidate(
    corpus: &Path,
    short_name: &str,
    path_in_repo: &str,
    entry_keys: serde_json::Map<String, serde_json::Value>,
    names: &mut Numbering<String>,
) -> Result<Candidate, Errors> {
    let schemas = corpus.join("schemas");
    let main_file = schemas.join(format!("{short_name}.schema.json"));
    let bytes = std::fs::read(&main_file).map_err(|e| Errors::one(&main_file, "", format!("cannot read: {e}")))?;
    // `schema.json (ref 2020-12)`, `pages/x.md [## Block]`: the path alone, and a .json name.
    let repo_path = path_in_repo.split(" (ref ").next().unwrap_or_default().split(" [").next().unwrap_or_default();
    let main_path = match repo_path {
        path if path.ends_with(".json") => path.to_owned(),
        path => Path::new(path).with_file_name(format!("{short_name}.schema.json")).to_string_lossy().into_owned(),
    };
    let main_dir = Path::new(&main_path).parent().unwrap_or(Path::new("")).to_path_buf();
    let base = names.unique(&pascal(short_name, "N"), str::to_owned);
    let bundle = schemas.join(short_name);
    let uris = retrieval_uris(&bundle);
    let main_dialect = serde_json::from_slice::<serde_json::Value>(&bytes)
        .ok()
        .and_then(|document| document.get("$schema").and_then(|uri| uri.as_str()).and_then(Dialect::of))
        .unwrap_or(Dialect::Draft202012);
    let dialect = declared(&bytes, main_dialect);
    let main = Document {
        name: base.clone(),
        path: main_path.clone(),
        bytes,
        uri: uris.get(&format!("../{short_name}.schema.json")).cloned(),
        dialect,
        declared: entry_keys.clone(),
    };

    let mut extras = Vec::new();
    for file in files_below(&bundle)? {
        let local = file.strip_prefix(&bundle).unwrap_or(&file).to_string_lossy().replace('\\', "/");
        if local == "_refmap.json" {
            continue;
        }
        let path = in_repo(&main_dir, &local).unwrap_or_else(|| main_dir.join(&local).to_string_lossy().into_owned());
        let stem = local.rsplit('/').next().unwrap_or_default().trim_end_matches(".json").trim_end_matches(".schema");
        let bytes = std::fs::read(&file).map_err(|e| Errors::one(&file, "", format!("cannot read: {e}")))?;
        let uri = uris.get(&local).cloned();
        let dialect = declared(&bytes, main_dialect);
        extras.push(Document {
            name: names.unique(&format!("{base}{}", pascal(stem, "N")), str::to_owned),
            path,
            bytes,
            uri,
            dialect,
            declared: entry_keys.clone(),
        });
    }

    let mut instances = Vec::new();
    let instance_dir = corpus.join("instances").join(short_name);
    let sources_file = instance_dir.join("SOURCES.tsv");
    if sources_file.exists() {
        let id =
            serde_json::from_slice::<serde_json::Value>(&main.bytes).ok().and_then(|schema| schema.get("$id").and_then(|id| id.as_str()).map(str::to_owned));
        let main_name = Path::new(&main_path).file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let sources = read_text(&sources_file)?;
        for line in sources.lines().skip(1).filter(|line| !line.trim().is_empty()) {
            let cells: Vec<&str> = line.split('\t').collect();
            let (file, source, target, valid) = (cells[0], cells.get(1).copied().unwrap_or_default(), cells.get(3).copied().unwrap_or("#"), cells.get(4));
            let path = instance_dir.join(file);
            let bytes = std::fs::read(&path).map_err(|e| Errors::one(&path, "", format!("cannot read: {e}")))?;
            let root = match target.strip_prefix('#').filter(|pointer| !pointer.is_empty()) {
                None => main.name.clone(),
                Some(pointer) => target_entry(&mut extras, &main, &main_dir, &main_name, id.as_deref(), pointer, names),
            };
            // The validator's verdict, and what the project ships the file as
            // (`shipped_as`, in a corpus that records it): a negative test the
            // validator refuses too is an instance both languages must refuse.
            let expect = match (valid.copied(), cells.get(5).copied()) {
                (Some("true"), _) => Expect::Valid,
                (Some("false"), Some("invalid")) => Expect::Invalid,
                _ => Expect::Unknown,
            };
            instances.push(Instance { root, file: file.to_owned(), description: source.to_owned(), bytes, expect });
        }
    }
    Ok(Candidate { label: short_name.to_owned(), main, extras, instances })
}

/// The entry that reads instances of `#<pointer>`: made once per pointer.
fn target_entry(
    extras: &mut Vec<Document>,
    main: &Document,
    main_dir: &Path,
    main_name: &str,
    id: Option<&str>,
    pointer: &str,
    names: &mut Numbering<String>,
) -> String {
    let last = pointer.rsplit('/').next().unwrap_or_default();
    let path = main_dir.join(format!("{main_name}.target.{}.json", pascal(pointer, "N"))).to_string_lossy().into_owned();
    if let Some(existing) = extras.iter().find(|document| document.path == path) {
        return existing.name.clone();
    }
    let reference = format!("{}#{pointer}", id.unwrap_or(main_name));
    let schema = serde_json::json!({"$schema": DRAFT_2020_12, "$ref": reference});
    let mut bytes = serde_json::to_vec_pretty(&schema).unwrap_or_default();
    bytes.push(b'\n');
    let name = names.unique(&format!("{}{}", main.name, pascal(last, "N")), str::to_owned);
    extras.push(Document { name: name.clone(), path, bytes, uri: None, dialect: None, declared: Default::default() });
    name
}

/// Each bundled file's URI upstream, from the bundle's `_refmap.json`
/// (local path -> URI): its published one where there is one, else its
/// retrieval URI at the recorded commit. Documents `$ref` each other by
/// these, so each registry entry is given its own.
fn retrieval_uris(bundle: &Path) -> std::collections::HashMap<String, String> {
    let mut uris = std::collections::HashMap::new();
    let Ok(bytes) = std::fs::read(bundle.join("_refmap.json")) else { return uris };
    let Ok(map) = serde_json::from_slice::<serde_json::Value>(&bytes) else { return uris };
    if let (Some(main), Some(uri)) = (map["main"].as_str(), map["root_retrieval_uri"].as_str()) {
        uris.insert(main.to_owned(), uri.trim_end_matches('#').to_owned());
    }
    // URIs the `$ref`s use where they disagree with the target's `$id`:
    // the engine knows a document by its `$id` already, so these come first.
    for (uri, local) in map["aliases_not_matching_target_id"].as_object().into_iter().flatten() {
        let Some(local) = map["resources"].get(uri).and_then(|local| local.as_str()).or(local.as_str()) else { continue };
        uris.insert(local.to_owned(), uri.trim_end_matches('#').to_owned());
    }
    for (uri, local) in map["resources"].as_object().into_iter().flatten() {
        let Some(local) = local.as_str() else { continue };
        let published = !uri.contains("raw.githubusercontent.com");
        match uris.get(local) {
            Some(existing) if !existing.contains("raw.githubusercontent.com") || !published => {}
            _ => {
                uris.insert(local.to_owned(), uri.trim_end_matches('#').to_owned());
            }
        }
    }
    uris
}

/// `dir/local` with `_parent_` read as `..`, normalized; `None` if it
/// leaves the repository.
fn in_repo(dir: &Path, local: &str) -> Option<String> {
    let mut parts: Vec<String> = dir
        .components()
        .filter_map(|c| match c {
            Component::Normal(part) => Some(part.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect();
    for part in local.split('/') {
        match part {
            "_parent_" | ".." => {
                parts.pop()?;
            }
            "" | "." => {}
            part => parts.push(part.to_owned()),
        }
    }
    Some(parts.join("/"))
}

fn files_below(dir: &Path) -> Result<Vec<PathBuf>, Errors> {
    let mut files = Vec::new();
    if !dir.is_dir() {
        return Ok(files);
    }
    let mut pending = vec![dir.to_path_buf()];
    while let Some(folder) = pending.pop() {
        let listing = std::fs::read_dir(&folder).map_err(|e| Errors::one(&folder, "", format!("cannot read: {e}")))?;
        for entry in listing.filter_map(Result::ok) {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else {
                files.push(path);
            }
        }
    }
    files.sort();
    Ok(files)
}

fn read_text(file: &Path) -> Result<String, Errors> {
    std::fs::read_to_string(file).map_err(|e| Errors::one(file, "", format!("cannot read: {e}")))
}

/// The survey as a markdown table, one row per schema, then the totals.
pub fn markdown(survey: &Survey) -> String {
    let checked = survey.checked();
    let mut out = String::from(
        "| schema | dialect | entries | generated | root | structs, enums, unions | reason (first) | Rust compiles | Python imports | instances agreeing |\n|---|---|---|---|---|---|---|---|---|---|\n",
    );
    let (mut generated, mut compiled, mut imported, mut agreeing, mut instances, mut typed_roots) = (0, 0, 0, 0, 0, 0);
    for entry in &survey.entries {
        let candidate = &entry.candidate;
        let (verdict, reason) = match (&entry.verdict, &entry.dropped) {
            // What the registry entry declares for a schema that is not the user's (ENTRIES.json).
            (Verdict::Bindable, None) if !candidate.main.declared.is_empty() => {
                ("generated", format!("declared in its entry: {}", serde_json::Value::Object(candidate.main.declared.clone())))
            }
            (Verdict::Bindable, None) => ("generated", String::new()),
            (Verdict::Bindable, Some(why)) => ("dropped from the combined registry", first_reason(why)),
            (Verdict::Refused(why), _) => ("refused", first_reason(why)),
            (Verdict::Failed(panic), _) => ("failed (generator panicked)", panic.clone()),
        };
        let (rust, python) = match survey.build_of(entry) {
            None => ("", ""),
            Some(Build::Failed { stage: Stage::Generate, .. }) => ("failed: did not generate", ""),
            Some(Build::Failed { stage: Stage::RustBuild, .. }) => ("**no**", ""),
            Some(Build::Failed { stage: Stage::PythonImport, .. }) => ("yes", "**no**"),
            Some(_) => ("yes", "yes"),
        };
        generated += usize::from(entry.in_combined());
        compiled += usize::from(rust == "yes");
        imported += usize::from(python == "yes");
        let mine: Vec<_> = checked.iter().filter(|c| std::ptr::eq(c.entry, entry)).collect();
        let agree = mine.iter().filter(|c| c.case.passed()).count();
        instances += candidate.instances.len();
        agreeing += agree;
        let column = if mine.is_empty() { format!("0 of {} checked", candidate.instances.len()) } else { format!("{agree} / {}", candidate.instances.len()) };
        let dialect = dialect_of(candidate).map_or("?", Dialect::name);
        let (root, types) = match (&entry.typed, entry.in_combined()) {
            (Some(typed), true) => {
                typed_roots += usize::from(typed.root_is_typed());
                let root = if typed.root_is_typed() { typed.root.to_owned() } else { "**any**".to_owned() };
                (root, format!("{}, {}, {}", typed.structs, typed.enums, typed.unions))
            }
            _ => (String::new(), String::new()),
        };
        let _ = writeln!(
            out,
            "| {} | {dialect} | {} | {verdict} | {root} | {types} | {} | {rust} | {python} | {column} |",
            candidate.label,
            1 + candidate.extras.len(),
            cell(&reason)
        );
    }
    let total = survey.entries.len();
    let _ = writeln!(
        out,
        "| **total** | | | **{generated} / {total}** | **{typed_roots} typed** | | | **{compiled}** | **{imported}** | **{agreeing} / {instances}** |"
    );
    let _ = writeln!(out);
    let combined = match &survey.build {
        Build::NotRun => "no schema is bindable, so there is no combined registry".to_owned(),
        Build::Ran(report) => format!(
            "all {generated} bindable schemas generate as one registry; {} of {} instances agree in it",
            report.cases.len() - report.failed(),
            report.cases.len()
        ),
        Build::Failed { stage, message } => format!("the combined registry {}: {}", stage.describe(), message.lines().next().unwrap_or_default()),
    };
    let dropped = survey.entries.iter().filter(|e| e.dropped.is_some()).count();
    let _ = writeln!(out, "Combined: {combined}{}.", if dropped > 0 { format!(" ({dropped} dropped from it, above)") } else { String::new() });
    for failure in checked.iter().filter(|c| !c.case.passed()) {
        let _ = writeln!(
            out,
            "\nDisagreement: {} {} ({}): {}",
            failure.entry.candidate.label,
            failure.instance.file,
            failure.instance.description,
            cell(&failure.case.to_string())
        );
    }
    out
}

/// Text fit for one table cell.
fn cell(text: &str) -> String {
    let one_line = text.replace('\n', " ").replace('|', "\\|");
    if one_line.chars().count() > 160 {
        format!("{}…", one_line.chars().take(160).collect::<String>())
    } else {
        one_line
    }
}
