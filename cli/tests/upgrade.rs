//! `concord upgrade`: every rewrite and refusal with its exact message; the
//! JSON-Schema-Test-Suite's groups of draft4, draft6, draft7 and
//! draft2019-09 upgraded, each upgraded schema's validator giving every
//! instance the original's verdict; glTF 2.0 (a 2020-12 schema set that
//! still uses draft-07's `dependencies`) upgraded in place, then added,
//! pinned and generated; and the command's files, output and exit codes.

mod common;

use common::{concord, text, workspace};
use concord_cli::upgrade::{upgrade, Upgraded, TARGET};
use concord_codegen::schema::{document_base, Dialect};
use concord_runtime::pinned::{Checker, Source};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

// ---------------------------------------------------------------------------
// The JSON-Schema-Test-Suite: the upgraded schema gives the original's verdicts.

const SUITE: &str = "fixtures/vectors/json-schema-test-suite/tests";

/// Each draft's folder, its dialect, and how many of its groups must
/// upgrade at least (measured, then set just below: a ratchet).
const DRAFTS: &[(&str, Dialect, usize)] =
    &[("draft4", Dialect::Draft4, 158), ("draft6", Dialect::Draft6, 230), ("draft7", Dialect::Draft7, 255), ("draft2019-09", Dialect::Draft201909, 368)];

#[derive(Default)]
struct Tally {
    groups: usize,
    upgraded: usize,
    /// Refusal messages (without the file), and how many groups gave each.
    refused: BTreeMap<String, usize>,
    refused_groups: usize,
    /// Upgraded, but not checkable here: the engine cannot build the original offline.
    not_checkable: Vec<String>,
    checked_groups: usize,
    verdicts: usize,
    /// Where the upgraded schema's verdict differs from the original's.
    differences: Vec<String>,
    /// Instances whose original verdict is not the suite's (the engine's own, both sides alike).
    original_off_suite: usize,
}

fn checker(uri: &str, document: &Value, dialect: Dialect) -> Result<Checker, String> {
    let text = document.to_string();
    Checker::build(&[Source { uri, text: &text, dialect: Some(dialect.uri()) }], "")
}

/// Every `$ref`, `$recursiveRef` and `$dynamicRef` string in a JSON value.
fn references(value: &Value) -> Vec<&str> {
    match value {
        Value::Object(members) => members
            .iter()
            .flat_map(|(key, item)| match (key.as_str(), item) {
                ("$ref" | "$recursiveRef" | "$dynamicRef", Value::String(target)) => vec![target.as_str()],
                _ => references(item),
            })
            .collect(),
        Value::Array(items) => items.iter().flat_map(references).collect(),
        _ => Vec::new(),
    }
}

fn tally_draft(folder: &str, dialect: Dialect) -> Tally {
    let mut tally = Tally::default();
    let dir = workspace().join(SUITE).join(folder);
    let mut files: Vec<PathBuf> =
        std::fs::read_dir(&dir).unwrap().map(|entry| entry.unwrap().path()).filter(|path| path.extension().is_some_and(|e| e == "json")).collect();
    files.sort();
    for path in files {
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        let Value::Array(groups) = serde_json::from_slice::<Value>(&std::fs::read(&path).unwrap()).unwrap() else { panic!("{file}: not an array") };
        for (index, group) in groups.iter().enumerate() {
            tally.groups += 1;
            let label = format!("{folder}/{file}#{index} ({})", group["description"].as_str().unwrap_or_default());
            let name = PathBuf::from(format!("{file}#{index}"));
            let schema = &group["schema"];
            let Upgraded { document, .. } = match upgrade(&name, schema, Some(dialect)) {
                Ok(upgraded) => upgraded,
                Err(errors) => {
                    tally.refused_groups += 1;
                    for diagnostic in errors.diagnostics {
                        *tally.refused.entry(format!("at {}: {}", diagnostic.pointer, diagnostic.message)).or_default() += 1;
                    }
                    continue;
                }
            };
            tally.upgraded += 1;
            // The URI the registry would give it (its `$id`, else its path).
            let uri = document_base(&format!("{folder}/{index}.json"), None, Some(schema), Some(dialect));
            if file == "refRemote.json" {
                tally.not_checkable.push(format!("{label}: remote references (refRemote.json)"));
                continue;
            }
            // The engine has each meta-schema, but reaches an older one
            // only from a document of that draft: not from the upgrade.
            if references(schema).iter().any(|target| target.contains("json-schema.org/")) {
                tally.not_checkable.push(format!("{label}: a `$ref` to a meta-schema"));
                continue;
            }
            let original = match checker(&uri, schema, dialect) {
                Ok(original) => original,
                Err(why) => {
                    tally.not_checkable.push(format!("{label}: {why}"));
                    continue;
                }
            };
            let upgraded = match checker(&uri, &document, TARGET) {
                Ok(upgraded) => upgraded,
                Err(why) => {
                    tally.differences.push(format!("{label}: the original builds, the upgrade does not: {why}\n{document:#}"));
                    continue;
                }
            };
            tally.checked_groups += 1;
            for test in group["tests"].as_array().unwrap() {
                let data = &test["data"];
                let (before, after) = (original.is_valid(data), upgraded.is_valid(data));
                tally.verdicts += 1;
                tally.original_off_suite += usize::from(Some(before) != test["valid"].as_bool());
                if before != after {
                    let what = test["description"].as_str().unwrap_or_default();
                    tally.differences.push(format!("{label}: {what:?}: {before} before, {after} after\n{document:#}"));
                }
            }
        }
    }
    tally
}

#[test]
fn upgraded_test_suite_schemas_give_the_originals_verdicts() {
    let mut report = String::from("draft          groups  upgraded  refused  not checkable  checked  verdicts  differences\n");
    let mut failures = Vec::new();
    for &(folder, dialect, floor) in DRAFTS {
        let tally = tally_draft(folder, dialect);
        report.push_str(&format!(
            "{folder:<14} {:>6}  {:>8}  {:>7}  {:>13}  {:>7}  {:>8}  {:>11}\n",
            tally.groups,
            tally.upgraded,
            tally.refused_groups,
            tally.not_checkable.len(),
            tally.checked_groups,
            tally.verdicts,
            tally.differences.len()
        ));
        for (why, count) in &tally.refused {
            report.push_str(&format!("    refused x{count} {why}\n"));
        }
        for what in &tally.not_checkable {
            report.push_str(&format!("    not checkable: {}\n", what.lines().next().unwrap_or_default()));
        }
        report.push_str(&format!("    (original verdicts differing from the suite's, the engine's own: {})\n", tally.original_off_suite));
        if tally.upgraded < floor {
            failures.push(format!("{folder}: {} groups upgraded, fewer than the {floor} recorded", tally.upgraded));
        }
        failures.extend(tally.differences);
    }
    println!("{report}");
    assert!(failures.is_empty(), "{report}\n{}", failures.join("\n\n"));
}

// ---------------------------------------------------------------------------
// glTF 2.0: a 2020-12 schema set that still uses draft-07's `dependencies`.

const CORPUS: &str = "fixtures/vectors/corpus";

/// glTF's 33 files laid out below `registry` as in their repository, as
/// the corpus survey lays a bundle out (`MANIFEST.tsv`'s `path_in_repo`
/// for the main document, `_refmap.json`'s `source.files` for the others):
/// their relative `$id`s and `$ref`s resolve as upstream. The paths, main first.
fn lay_out_gltf(registry: &Path) -> Vec<PathBuf> {
    let corpus = workspace().join(CORPUS);
    let manifest = std::fs::read_to_string(corpus.join("MANIFEST.tsv")).unwrap();
    let header: Vec<&str> = manifest.lines().next().unwrap().split('\t').collect();
    let column = |name: &str| header.iter().position(|cell| *cell == name).unwrap();
    let row: Vec<&str> = manifest.lines().map(|line| line.split('\t').collect::<Vec<_>>()).find(|cells| cells[column("short_name")] == "gltf_2_0").unwrap();
    let mut placed = vec![(corpus.join("schemas/gltf_2_0.schema.json"), row[column("path_in_repo")].to_owned())];
    let refmap: Value = serde_json::from_slice(&std::fs::read(corpus.join("schemas/gltf_2_0/_refmap.json")).unwrap()).unwrap();
    for (local, in_repo) in refmap["source"]["files"].as_object().unwrap() {
        placed.push((corpus.join("schemas/gltf_2_0").join(local), in_repo.as_str().unwrap().to_owned()));
    }
    placed
        .into_iter()
        .map(|(from, in_repo)| {
            let to = registry.join(in_repo);
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::copy(&from, &to).unwrap();
            to
        })
        .collect()
}

/// The engine's check of the first of `files` (read from disk), with the
/// others for its `$ref`s, each at the URI the registry gives it.
fn gltf_checker(registry: &Path, files: &[PathBuf]) -> Checker {
    let documents: Vec<(String, String)> = files
        .iter()
        .map(|file| {
            let text = std::fs::read_to_string(file).unwrap();
            let path = file.strip_prefix(registry).unwrap().to_string_lossy().into_owned();
            (document_base(&path, None, Some(&serde_json::from_str(&text).unwrap()), None), text)
        })
        .collect();
    let sources: Vec<Source<'_>> = documents.iter().map(|(uri, text)| Source::new(uri, text)).collect();
    Checker::build(&sources, "").unwrap()
}

#[test]
fn gltf_upgrades_in_place_then_pins_and_generates_typed_roots() {
    let scratch = tempfile::tempdir().unwrap();
    let registry = scratch.path().join("registry");
    let files = lay_out_gltf(&registry);
    assert_eq!(files.len(), 33);
    let original = gltf_checker(&registry, &files);
    // Refused before the upgrade, for draft-07's `dependencies` in a 2020-12 document.
    let main = files[0].strip_prefix(&registry).unwrap().to_str().unwrap().to_owned();
    let refused = concord(&["add", "--registry", registry.to_str().unwrap(), &format!("{}/{main}", registry.display())]);
    assert!(!refused.status.success() && text(&refused).contains("`dependencies`"), "{}", text(&refused));
    std::fs::remove_file(registry.join("registry.json")).ok();

    let mut args = vec!["upgrade".to_owned(), "--in-place".to_owned()];
    args.extend(files.iter().map(|file| file.display().to_string()));
    let upgraded = concord(&args.iter().map(String::as_str).collect::<Vec<_>>());
    let report = text(&upgraded);
    assert!(upgraded.status.success(), "{report}");
    // The five files that use `dependencies`, and nothing else to rewrite.
    let rewrites: Vec<&str> = report.lines().filter(|line| line.contains(" at /")).collect();
    assert_eq!(rewrites.len(), 5, "{report}");
    assert!(rewrites.iter().all(|line| line.contains(": `dependencies` → `dependentRequired` (")), "{report}");
    assert!(report.contains("node.schema.json at /dependencies: `dependencies` → `dependentRequired` (\"weights\", \"skin\") (draft-07's `dependencies`, which 2020-12 validators ignore: rewritten as its author meant it)\n"), "{report}");
    assert_eq!(report.lines().filter(|line| line.ends_with(": already 2020-12, nothing to rewrite")).count(), 28, "{report}");
    assert_eq!(report.lines().filter(|line| line.starts_with("wrote ")).count(), 5, "{report}");
    // Rewritten in their own layout: 4 spaces, as upstream writes them.
    let node = std::fs::read_to_string(registry.join("specification/2.0/schema/node.schema.json")).unwrap();
    assert!(node.contains("\n    \"dependentRequired\": {\n        \"weights\": [") && !node.contains("\"dependencies\""), "{node}");

    let dir = registry.to_str().unwrap();
    let added = concord(&["add", "--registry", dir, &format!("{dir}/{main}")]);
    assert!(added.status.success(), "{}", text(&added));
    assert_eq!(text(&added).lines().filter(|line| line.starts_with("added ")).count(), 33, "{}", text(&added));
    let pinned = concord(&["pin", "--registry", dir]);
    assert!(pinned.status.success() && text(&pinned).contains("every pin already matches its file"), "{}", text(&pinned));
    let out = scratch.path().join("generated");
    let generated = concord(&["generate", "--registry", dir, "--out", out.to_str().unwrap()]);
    assert!(generated.status.success(), "{}", text(&generated));

    // Roots: every one is typed except extras (any JSON, as glTF says) and
    // those that inherit another file's schema (`allOf: [{"$ref":
    // "glTFProperty.schema.json"}]`), which the reader does not merge across
    // documents today (compose.rs `flatten`: the engine checks the whole).
    let model = concord_cli::load(&registry).unwrap();
    let roots: Vec<_> = model.ids().filter(|&id| model.get(id).is_root).collect();
    assert_eq!(roots.len(), 33);
    let (mut typed, mut across) = (Vec::new(), Vec::new());
    for &id in &roots {
        let module = &model.modules[model.get(id).module];
        let document: Value = serde_json::from_str(&module.text).unwrap();
        let inherits =
            document["allOf"].as_array().is_some_and(|parts| parts.iter().any(|part| part["$ref"].as_str().is_some_and(|target| !target.starts_with('#'))));
        match &model.get(id).kind {
            concord_codegen::model::TypeKind::Alias(concord_codegen::model::Shape::Any) if inherits => across.push(module.name.clone()),
            concord_codegen::model::TypeKind::Alias(concord_codegen::model::Shape::Any) => assert!(document.get("type").is_none(), "{}: untyped", module.name),
            _ => typed.push(module.name.clone()),
        }
    }
    assert!(typed.iter().any(|name| name == "GlTfProperty") && typed.len() + across.len() == 32, "typed {typed:?}, inheriting across files {across:?}");
    let root = roots.iter().find(|&&id| model.modules[model.get(id).module].file.ends_with("glTF.schema.json")).unwrap();

    // The corpus's glTF samples: accepted by the upgrade's engine, as by the original's.
    let upgraded = gltf_checker(&registry, &files);
    let schema = concord_cli::RecordSchema::find(&model, &model.get(*root).name).unwrap();
    let instances = workspace().join(CORPUS).join("instances/gltf_2_0");
    let mut checked = 0;
    for entry in std::fs::read_dir(&instances).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let value: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        assert!(original.is_valid(&value), "{}: the original refuses it", path.display());
        assert!(upgraded.is_valid(&value), "{}: the upgrade refuses it", path.display());
        assert_eq!(schema.validate(&value), Ok(()), "{}: the registry's own check refuses it", path.display());
        checked += 1;
    }
    assert_eq!(checked, 5);
    // glTF's `dependencies` (a node with a `skin` needs a `mesh`), now
    // written as 2020-12 reads it. The jsonschema crate checked it before too,
    // though 2020-12 has no `dependencies`: the verdict stays the engine's.
    let broken = json!({"asset": {"version": "2.0"}, "nodes": [{"skin": 0}]});
    let notes = upgraded.notes(&broken, 3).0;
    assert!(notes.len() == 1 && notes[0].schema_path.ends_with("/dependentRequired"), "{notes:?}");
    assert!(!original.is_valid(&broken));
}
