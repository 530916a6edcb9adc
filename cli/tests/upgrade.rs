//! `concord upgrade`: every rewrite and refusal with its exact message; the
//! JSON-Schema-Test-Suite's groups of draft4, draft6, draft7 and
//! draft2019-09 upgraded, each upgraded schema's validator giving every
//! instance the original's verdict; glTF 2.0 (a 2020-12 schema set that
//! still uses draft-07's `dependencies`) upgraded in place, then added,
//! pinned and generated; and the command's files, output and exit codes.

mod common;

use common::{concord, text, workspace};
use concord_cli::upgrade::{upgrade, Upgraded, TARGET};
use concord_codegen::uri::document_base;
use concord_codegen::vocabulary::Dialect;
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
            let Upgraded { document, .. } = match upgrade(&name, schema, Some(dialect), None) {
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

    // Roots: every one is typed but extras (any JSON, as glTF says), those
    // that inherit another file's schema (`allOf: [{"$ref":
    // "glTFProperty.schema.json"}]`) too: the reader merges parts across
    // documents (compose.rs `part_of_other_entry`).
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
    assert!(typed.iter().any(|name| name == "GlTfProperty") && typed.len() == 32, "typed {typed:?}, untyped inheriting across files {across:?}");
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

// ---------------------------------------------------------------------------
// Each rewrite and each refusal, with its exact message.

const D4: &str = "http://json-schema.org/draft-04/schema#";
const D6: &str = "http://json-schema.org/draft-06/schema#";
const D7: &str = "http://json-schema.org/draft-07/schema#";
const D2019: &str = "https://json-schema.org/draft/2019-09/schema";
const D2020: &str = "https://json-schema.org/draft/2020-12/schema";

/// The upgrade of a document (read as s.json), and its report's lines.
fn upgraded(document: Value) -> (Value, Vec<String>) {
    match upgrade(Path::new("s.json"), &document, None, None) {
        Ok(Upgraded { document, rewrites, .. }) => (document, rewrites.iter().map(ToString::to_string).collect()),
        Err(errors) => panic!("refused:\n{errors}"),
    }
}

/// The refusals of a document (read as s.json).
fn refused(document: Value) -> Vec<String> {
    match upgrade(Path::new("s.json"), &document, None, None) {
        Ok(upgraded) => panic!("upgraded: {:#}", upgraded.document),
        Err(errors) => errors.diagnostics.iter().map(ToString::to_string).collect(),
    }
}

#[test]
fn schema_is_rewritten_or_added_and_a_2020_12_document_is_left_as_it_is() {
    let (document, report) = upgraded(json!({"$schema": D7, "type": "string"}));
    assert_eq!(document, json!({"$schema": D2020, "type": "string"}));
    assert_eq!(report, ["s.json at /$schema: `$schema` draft-07 → 2020-12"]);

    let read = upgrade(Path::new("s.json"), &json!({"type": "string"}), Some(Dialect::Draft6), None).unwrap();
    assert_eq!(serde_json::to_string(&read.document).unwrap(), format!(r#"{{"$schema":"{D2020}","type":"string"}}"#), "`$schema` comes first");
    assert_eq!(
        read.rewrites.iter().map(ToString::to_string).collect::<Vec<_>>(),
        ["s.json: added `$schema` 2020-12 (the document was read as draft-06; a registry entry declaring its dialect no longer needs to)"]
    );

    let same = json!({"$schema": "http://json-schema.org/draft/2020-12/schema#", "$defs": {"a": {"type": "integer"}}, "$ref": "#/$defs/a"});
    assert_eq!(upgraded(same.clone()), (same, vec![]));
    let undeclared = upgrade(Path::new("s.json"), &json!({"type": "string"}), Some(Dialect::Draft202012), None).unwrap();
    assert_eq!((undeclared.document, undeclared.rewrites.len()), (json!({"type": "string"}), 0), "nothing is added to a declared 2020-12 document");
}

#[test]
fn draft_04_id_is_spelt_dollar_id_and_a_fragment_alone_is_an_anchor() {
    let (document, report) = upgraded(json!({
        "$schema": D4, "id": "http://example.com/root.json",
        "properties": {"id": {"type": "string"}, "a": {"$ref": "#item"}},
        "definitions": {"item": {"id": "#item", "type": "integer"}, "other": {"id": "other.json", "type": "string"}}
    }));
    assert_eq!(
        document,
        json!({
            "$schema": D2020, "$id": "http://example.com/root.json",
            "properties": {"id": {"type": "string"}, "a": {"$ref": "#item"}},
            "definitions": {"item": {"$anchor": "item", "type": "integer"}, "other": {"$id": "other.json", "type": "string"}}
        })
    );
    assert_eq!(
        report,
        [
            "s.json at /$schema: `$schema` draft-04 → 2020-12",
            "s.json at /id: `id` → `$id`",
            "s.json at /definitions/item/id: `id` \"#item\" → `$anchor` \"item\"",
            "s.json at /definitions/other/id: `id` → `$id`",
        ]
    );
    // Draft-06 and draft-07 spell it `$id`, and name places the same way.
    let (document, report) = upgraded(json!({"$schema": D7, "definitions": {"a": {"$id": "#a"}}, "$ref": "#a"}));
    assert_eq!(document, json!({"$schema": D2020, "definitions": {"a": {"$anchor": "a"}}, "$ref": "#a"}));
    assert_eq!(report[1], "s.json at /definitions/a/$id: `$id` \"#a\" → `$anchor` \"a\"");
}

#[test]
fn ids_with_no_2020_12_spelling_are_refused() {
    assert_eq!(
        refused(json!({"$schema": D4, "definitions": {"a": {"id": "#/x"}, "b": {"id": "http://example.com/b.json#b"}, "c": {"id": 5}}})),
        [
            "s.json at /definitions/a/id: `id` \"#/x\" is not a plain name: a 2020-12 `$anchor` is a letter or `_`, then letters, digits, `-`, `.` or `_`",
            "s.json at /definitions/b/id: `id` \"http://example.com/b.json#b\" has both a URI and a fragment: write the URI as `$id` and the name as `$anchor`",
            "s.json at /definitions/c/id: a draft-04 `id` must be a string (a URI)",
        ]
    );
    assert_eq!(refused(json!({"$schema": D2020, "id": "a.json", "$id": "b.json"})), ["s.json at /id: both `id` (draft-04's) and `$id`: keep one of them"]);
    assert_eq!(
        refused(json!({"$schema": D4, "$id": "a.json"})),
        ["s.json at /$id: `$id` is no draft-04 keyword, so draft-04 validators ignore it, but 2020-12 would apply it: remove it, or, where its author meant it (their validator applied it), read the document as draft-06 (`--read-as draft-06`, as a registry entry's `read_as`)"]
    );
}

#[test]
fn draft_04_boolean_exclusive_bounds_become_the_bound() {
    let (document, report) = upgraded(json!({"$schema": D4, "properties": {
        "a": {"maximum": 10, "exclusiveMaximum": true, "minimum": 0, "exclusiveMinimum": false},
        "b": {"exclusiveMinimum": true}
    }}));
    assert_eq!(document, json!({"$schema": D2020, "properties": {"a": {"exclusiveMaximum": 10, "minimum": 0}, "b": {}}}));
    assert_eq!(
        report[1..],
        [
            "s.json at /properties/a/exclusiveMaximum: `exclusiveMaximum: true` and `maximum: 10` → `exclusiveMaximum: 10`",
            "s.json at /properties/a/exclusiveMinimum: `exclusiveMinimum: false` dropped: it says nothing",
            "s.json at /properties/b/exclusiveMinimum: `exclusiveMinimum: true` dropped: without `minimum` it bounds nothing",
        ]
    );
    assert_eq!(
        refused(json!({"$schema": D4, "exclusiveMaximum": 3})),
        ["s.json at /exclusiveMaximum: a draft-04 `exclusiveMaximum` is a boolean (`true` makes `maximum` exclusive)"]
    );
    // A boolean one kept in a later document meant draft-04's rule.
    let (document, report) = upgraded(json!({"$schema": D2020, "minimum": 1, "exclusiveMinimum": true}));
    assert_eq!(document, json!({"$schema": D2020, "exclusiveMinimum": 1}));
    assert_eq!(
        report,
        ["s.json at /exclusiveMinimum: `exclusiveMinimum: true` and `minimum: 1` → `exclusiveMinimum: 1` (draft-04's `exclusiveMinimum`, which 2020-12 validators ignore: rewritten as its author meant it)"]
    );
}

#[test]
fn keywords_beside_ref_are_dropped_before_2019_09_except_annotations_and_definitions() {
    let (document, report) = upgraded(json!({
        "$schema": D7,
        "$ref": "#/definitions/a",
        "title": "kept", "x-note": "kept", "$comment": "kept",
        "type": "object", "maxProperties": 1, "$id": "http://example.com/ignored.json",
        "definitions": {"a": {"type": "object"}}
    }));
    assert_eq!(
        document,
        json!({"$schema": D2020, "$ref": "#/definitions/a", "title": "kept", "x-note": "kept", "$comment": "kept", "definitions": {"a": {"type": "object"}}})
    );
    assert_eq!(
        report[1..],
        [
            "s.json at /type: `type` beside `$ref` dropped: draft-07 ignores it, and 2020-12 would apply it",
            "s.json at /maxProperties: `maxProperties` beside `$ref` dropped: draft-07 ignores it, and 2020-12 would apply it",
            "s.json at /$id: `$id` beside `$ref` dropped: draft-07 ignores it, and 2020-12 would apply it",
        ]
    );
    // From 2019-09 on they apply, and stay.
    let applied = json!({"$schema": D2019, "$ref": "#/$defs/a", "maxProperties": 1, "$defs": {"a": {"type": "object"}}});
    assert_eq!(upgraded(applied).0["maxProperties"], json!(1));
}

#[test]
fn a_ref_to_what_the_upgrade_drops_is_refused() {
    assert_eq!(
        refused(json!({"$schema": D6, "properties": {"a": {"$ref": "#/definitions/x", "properties": {"b": {"type": "string"}}}, "c": {"$ref": "#/properties/a/properties/b"}}, "definitions": {"x": {}}})),
        ["s.json at /properties/c/$ref: `$ref` \"#/properties/a/properties/b\" names a place the upgrade drops: /properties/a/properties is beside a `$ref`, which draft-06 ignores"]
    );
    assert_eq!(
        refused(json!({"$schema": D7, "definitions": {"a": {"$id": "#a", "$ref": "#/definitions/b"}, "b": {}}, "$ref": "#a"})),
        ["s.json at /$ref: `$ref` \"#a\" names the place `$id` \"#a\" beside a `$ref` at /definitions/a, which draft-07 ignores (so the upgrade drops it)"]
    );
    assert_eq!(
        refused(json!({"$schema": D7, "x-shared": {"a": {"type": "string"}}, "$ref": "#/x-shared/a"})),
        ["s.json at /$ref: `$ref` \"#/x-shared/a\" names a place that is no schema by its position: move it under `$defs` (or `definitions`)"]
    );
}

#[test]
fn a_tuple_of_items_is_prefix_items_and_refs_into_it_follow() {
    let (document, report) = upgraded(json!({
        "$schema": D2019,
        "items": [{"type": "integer"}, {"$ref": "#/items/0"}],
        "additionalItems": {"$ref": "#/items/1"},
        "properties": {"a": {"items": {"type": "string"}, "additionalItems": false}, "b": {"additionalItems": false}, "c": {"items": [], "additionalItems": false}}
    }));
    assert_eq!(
        document,
        json!({
            "$schema": D2020,
            "prefixItems": [{"type": "integer"}, {"$ref": "#/prefixItems/0"}],
            "items": {"$ref": "#/prefixItems/1"},
            "properties": {"a": {"items": {"type": "string"}}, "b": {}, "c": {"items": false}}
        })
    );
    assert_eq!(
        report[1..],
        [
            "s.json at /items: `items` (an array: a tuple) → `prefixItems`",
            "s.json at /items/1/$ref: `$ref` \"#/items/0\" → \"#/prefixItems/0\" (the place it names moved)",
            "s.json at /additionalItems: `additionalItems` → `items` (the items after `prefixItems`)",
            "s.json at /additionalItems/$ref: `$ref` \"#/items/1\" → \"#/prefixItems/1\" (the place it names moved)",
            "s.json at /properties/a/additionalItems: `additionalItems` dropped: beside a schema `items` it constrains nothing, in every dialect",
            "s.json at /properties/b/additionalItems: `additionalItems` dropped: beside no `items` it constrains nothing, in every dialect",
            "s.json at /properties/c/items: `items` [] dropped: an empty tuple constrains nothing",
            "s.json at /properties/c/additionalItems: `additionalItems` → `items` (the items after `prefixItems`)",
        ]
    );
    assert_eq!(
        refused(json!({"$schema": D2020, "prefixItems": [{}], "items": [{}]})),
        ["s.json at /items: an array of `items` (a tuple before 2020-12) beside `prefixItems`: keep one of them"]
    );
    assert_eq!(
        refused(json!({"$schema": D2020, "prefixItems": [{}], "additionalItems": false})),
        ["s.json at /additionalItems: `additionalItems` beside `prefixItems`: 2020-12 ignores it there; write `items` for the items after `prefixItems`"]
    );
}

#[test]
fn dependencies_split_into_dependent_required_and_dependent_schemas() {
    let (document, report) = upgraded(json!({"$schema": D7, "dependencies": {"a": ["b"], "c": {"required": ["d"]}, "e": []}, "title": "t"}));
    assert_eq!(
        serde_json::to_string(&document).unwrap(),
        format!(r#"{{"$schema":"{D2020}","dependentRequired":{{"a":["b"],"e":[]}},"dependentSchemas":{{"c":{{"required":["d"]}}}},"title":"t"}}"#)
    );
    assert_eq!(report[1], "s.json at /dependencies: `dependencies` → `dependentRequired` (\"a\", \"e\") and `dependentSchemas` (\"c\")");
    // Kept in a 2019-09 or 2020-12 document (glTF 2.0's): merged with the keywords it has.
    let (document, report) = upgraded(json!({"$schema": D2019, "dependentRequired": {"x": ["y"]}, "dependencies": {"a": ["b"]}}));
    assert_eq!(document, json!({"$schema": D2020, "dependentRequired": {"x": ["y"], "a": ["b"]}}));
    assert_eq!(
        report[1],
        "s.json at /dependencies: `dependencies` → `dependentRequired` (\"a\") (draft-07's `dependencies`, which 2019-09 validators ignore: rewritten as its author meant it)"
    );
    assert_eq!(
        refused(json!({"$schema": D2020, "dependentSchemas": {"a": {}}, "dependencies": {"a": {"required": ["b"]}, "c": "d"}})),
        [
            "s.json at /dependencies/a: \"a\" is in both `dependencies` and `dependentSchemas`: merge them by hand",
            "s.json at /dependencies/c: `dependencies` of \"c\" is neither a list of names nor a schema (draft-03's string form?)",
        ]
    );
}

#[test]
fn recursive_ref_becomes_dynamic_ref_where_it_is_provably_the_same() {
    let tree = json!({
        "$schema": D2019, "$id": "https://example.com/tree", "$recursiveAnchor": true,
        "type": "object", "properties": {"children": {"type": "array", "items": {"$recursiveRef": "#"}}},
        "$defs": {"leaf": {"$id": "leaf", "$recursiveAnchor": false, "properties": {"next": {"$recursiveRef": "#"}}}}
    });
    let (document, report) = upgraded(tree);
    assert_eq!(
        document,
        json!({
            "$schema": D2020, "$id": "https://example.com/tree", "$dynamicAnchor": "meta",
            "type": "object", "properties": {"children": {"type": "array", "items": {"$dynamicRef": "#meta"}}},
            "$defs": {"leaf": {"$id": "leaf", "properties": {"next": {"$ref": "#"}}}}
        })
    );
    assert_eq!(
        report[1..],
        [
            "s.json at /$recursiveAnchor: `$recursiveAnchor: true` → `$dynamicAnchor` \"meta\"",
            "s.json at /properties/children/items/$recursiveRef: `$recursiveRef` \"#\" → `$dynamicRef` \"#meta\"",
            "s.json at /$defs/leaf/$recursiveAnchor: `$recursiveAnchor: false` dropped: it is the default",
            "s.json at /$defs/leaf/properties/next/$recursiveRef: `$recursiveRef` \"#\" → `$ref` \"#\": its resource has no `$recursiveAnchor: true`, so it always meant the resource's root",
        ]
    );
    assert_eq!(
        refused(json!({"$schema": D2019, "$anchor": "meta", "$recursiveAnchor": true, "$defs": {"a": {"$recursiveAnchor": true}, "b": {"$recursiveRef": "#/$defs"}}})),
        [
            "s.json: the anchor name \"meta\" is taken here, and `$recursiveAnchor: true` becomes `$dynamicAnchor` \"meta\": rename this one",
            "s.json at /$defs/a/$recursiveAnchor: `$recursiveAnchor` away from a resource's root (no `$id` here): 2020-12's `$dynamicAnchor` would name this place, not its resource, so the rewrite is not provably the same",
            "s.json at /$defs/b/$recursiveRef: `$recursiveRef` \"#/$defs\" : 2019-09 defines it only for \"#\"",
        ]
    );
    // The dynamic scope may leave the document: an outer resource elsewhere could hold the anchor.
    assert_eq!(
        refused(json!({"$schema": D2019, "$defs": {"node": {"$id": "node", "$recursiveAnchor": true, "items": {"$recursiveRef": "#"}}}, "$ref": "https://example.com/other.json"})),
        ["s.json at /$defs/node/items/$recursiveRef: `$recursiveRef` as `$dynamicRef` is not provably the same: the root has no `$recursiveAnchor: true`, and the `$ref` at /$ref leaves the document, whose dynamic scope this upgrade cannot see"]
    );
}

#[test]
fn what_only_one_dialect_reads_is_refused() {
    assert_eq!(
        refused(json!({"$schema": D4, "const": 1, "properties": {"a": {"contains": {}}}})),
        [
            "s.json at /const: `const` is no draft-04 keyword, so draft-04 validators ignore it, but 2020-12 would apply it: remove it, or, where its author meant it (their validator applied it), read the document as draft-06 (`--read-as draft-06`, as a registry entry's `read_as`)",
            "s.json at /properties/a/contains: `contains` is no draft-04 keyword, so draft-04 validators ignore it, but 2020-12 would apply it: remove it, or, where its author meant it (their validator applied it), read the document as draft-06 (`--read-as draft-06`, as a registry entry's `read_as`)",
        ]
    );
    assert_eq!(
        refused(json!({"$schema": D6, "if": {}}))[0],
        "s.json at /if: `if` is no draft-06 keyword, so draft-06 validators ignore it, but 2020-12 would apply it: remove it, or, where its author meant it (their validator applied it), read the document as draft-07 (`--read-as draft-07`, as a registry entry's `read_as`)"
    );
    assert_eq!(refused(json!({"$schema": D7, "$anchor": "a"}))[0], "s.json at /$anchor: `$anchor` is no draft-07 keyword, so draft-07 validators ignore it, but 2020-12 would apply it: remove it, or, where its author meant it (their validator applied it), read the document as 2019-09 (`--read-as 2019-09`, as a registry entry's `read_as`)");
    assert_eq!(
        refused(json!({"$schema": D2019, "prefixItems": [{}]}))[0],
        "s.json at /prefixItems: `prefixItems` is no 2019-09 keyword, so 2019-09 validators ignore it, but 2020-12 would apply it: remove it, or, where its author meant it (their validator applied it), read the document as 2020-12 (`--read-as 2020-12`, as a registry entry's `read_as`)"
    );
    // `contentEncoding`/`contentMediaType` are annotations in every dialect
    // as concord reads them (as `format` is): kept, nothing to refuse.
    let content = json!({"$schema": D7, "contentMediaType": "application/json", "contentEncoding": "base64"});
    assert_eq!(upgraded(content).0, json!({"$schema": D2020, "contentMediaType": "application/json", "contentEncoding": "base64"}));
    assert_eq!(
        refused(json!({"$schema": D2019, "items": {"contains": {"type": "string"}}, "unevaluatedItems": false})),
        ["s.json at /unevaluatedItems: 2020-12's `unevaluatedItems` also passes the items a `contains` matched, and 2019-09's does not; this document has `contains` (at /items/contains): not provably the same"]
    );
    assert_eq!(
        refused(json!({"$schema": D2019, "$anchor": "a:b"})),
        ["s.json at /$anchor: `$anchor` \"a:b\" is a 2019-09 name 2020-12 does not allow (a letter or `_`, then letters, digits, `-`, `.` or `_`)"]
    );
    assert_eq!(
        refused(json!({"$schema": D2019, "$vocabulary": {"https://json-schema.org/draft/2019-09/vocab/core": true}})),
        ["s.json at /$vocabulary: `$vocabulary` declares a 2019-09 meta-schema's vocabularies: upgrade a meta-schema by hand"]
    );
    assert_eq!(
        refused(json!({"$schema": D7, "definitions": {"a": {"$schema": D4, "type": "string"}}})),
        ["s.json at /definitions/a/$schema: a subschema in draft-04 in a draft-07 document: upgrade it as a document of its own"]
    );
}

/// A document read as a later dialect (`--read-as`, a registry entry's
/// `read_as`) is upgraded from that one: its `const` kept, its draft-04 `id`
/// spelt `$id`, and the report says what it was read as.
#[test]
fn a_document_read_as_a_later_dialect_is_upgraded_from_that_one() {
    let document = json!({"$schema": D4, "id": "https://x.example/f.json", "properties": {"v": {"const": "2"}}});
    let read = upgrade(Path::new("s.json"), &document, None, Some(Dialect::Draft6)).unwrap();
    assert_eq!(read.document, json!({"$schema": D2020, "$id": "https://x.example/f.json", "properties": {"v": {"const": "2"}}}));
    assert_eq!(read.rewrites[0].to_string(), "s.json at /$schema: `$schema` draft-04, read as draft-06, → 2020-12");
    let errors = upgrade(Path::new("s.json"), &document, None, Some(Dialect::Draft4)).err().unwrap().to_string();
    assert!(errors.contains("which is not later than the draft-04 its `$schema` names"), "{errors}");
}

/// Where the naive upgrade (only `$schema` changed) would change a verdict,
/// the upgrade refuses, or rewrites so that it does not: the engine on one
/// instance, for the original, the naive and the upgraded document.
#[test]
fn the_naive_upgrade_changes_verdicts_where_the_upgrade_refuses_or_rewrites() {
    let cases = [
        (json!({"$schema": D4, "const": 1}), json!(2), false),
        (json!({"$schema": D7, "dependentRequired": {"a": ["b"]}}), json!({"a": 1}), false),
        // Not here, as the jsonschema crate does not make the spec's
        // difference: 2019-09's `unevaluatedItems` beside `contains` (it
        // counts `contains` in 2019-09 as 2020-12 does), and `dependencies`
        // (which it applies in 2020-12 too).
        (json!({"$schema": D7, "$ref": "#/definitions/a", "maxLength": 1, "definitions": {"a": {"type": "string"}}}), json!("ab"), true),
        (json!({"$schema": D4, "maximum": 1, "exclusiveMaximum": true}), json!(1), true),
        (json!({"$schema": D2019, "items": [{"type": "string"}], "additionalItems": false}), json!(["a", 1]), true),
    ];
    let uri = "https://example.com/s.json";
    for (schema, instance, rewritten) in cases {
        let dialect = Dialect::of(schema["$schema"].as_str().unwrap()).unwrap();
        let mut naive = schema.clone();
        naive["$schema"] = json!(D2020);
        let before = checker(uri, &schema, dialect).unwrap().is_valid(&instance);
        // The engine may refuse to build the naive document (a draft-04 boolean bound): a change too.
        let naive = checker(uri, &naive, TARGET).map(|naive| naive.is_valid(&instance));
        assert_ne!(naive, Ok(before), "{schema}: the naive upgrade keeps the verdict: no rule is needed here");
        match upgrade(Path::new("s.json"), &schema, None, None) {
            Ok(upgraded) => {
                assert!(rewritten, "{schema}: upgraded, and expected refused");
                assert_eq!(checker(uri, &upgraded.document, TARGET).unwrap().is_valid(&instance), before, "{schema}");
            }
            Err(errors) => assert!(!rewritten, "{schema}: refused, and expected rewritten: {errors}"),
        }
    }
}

#[test]
fn dialects_concord_does_not_read_and_other_documents_are_refused() {
    assert_eq!(
        refused(json!({"$schema": "http://json-schema.org/draft-03/schema#"})),
        ["s.json at /$schema: unsupported dialect \"http://json-schema.org/draft-03/schema#\": concord reads draft-04, draft-06, draft-07, 2019-09 and 2020-12"]
    );
    assert_eq!(
        refused(json!({"type": "string"})),
        ["s.json: missing \"$schema\": say which dialect the document is written in with --dialect (draft-04, draft-06, draft-07, 2019-09 or 2020-12)"]
    );
    assert_eq!(refused(json!([1])), ["s.json: a schema file must hold a JSON object or a boolean"]);
    assert_eq!(
        upgrade(Path::new("s.json"), &json!(true), Some(Dialect::Draft4), None).unwrap_err().to_string(),
        "error: s.json: a boolean schema is a draft-06 form: a draft-04 schema file must hold a JSON object\n1 error"
    );
    let boolean = upgrade(Path::new("s.json"), &json!(false), Some(Dialect::Draft7), None).unwrap();
    assert_eq!((boolean.document, boolean.rewrites.len()), (json!(false), 0));
}

#[test]
fn only_schema_positions_are_walked() {
    // Data (`enum`, `const`, `default`, `examples`) and property names are
    // never keywords, whatever they look like.
    let data = json!({"id": "x.json", "items": [1], "dependencies": {"a": ["b"]}, "exclusiveMaximum": true});
    let (document, report) = upgraded(json!({
        "$schema": D7, "enum": [data], "const": data, "default": data, "examples": [data],
        "properties": {"id": {"type": "string"}, "$ref": {"type": "string"}, "items": {"type": "array"}, "dependencies": {"type": "object"}}
    }));
    assert_eq!(report, ["s.json at /$schema: `$schema` draft-07 → 2020-12"]);
    assert_eq!(document["enum"][0], data);
    assert_eq!(document["properties"]["$ref"], json!({"type": "string"}));
}

#[test]
fn nesting_beyond_the_limit_is_refused_not_a_crash() {
    let mut deep = json!({"type": "string"});
    for _ in 0..300 {
        deep = json!({"not": deep});
    }
    deep["$schema"] = json!(D7);
    let refusals = refused(deep);
    assert_eq!(refusals.len(), 1);
    assert!(refusals[0].ends_with(": schemas nested deeper than 64 levels"), "{refusals:?}");
}

// ---------------------------------------------------------------------------
// The command: standard output, the report, --in-place, exit codes.

fn run(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_concord")).args(args).current_dir(dir).output().unwrap();
    (output.status.code().unwrap(), String::from_utf8(output.stdout).unwrap(), String::from_utf8(output.stderr).unwrap())
}

#[test]
fn one_file_is_printed_in_its_own_layout_with_the_report_on_standard_error() {
    let dir = tempfile::tempdir().unwrap();
    let text = "{\n\t\"$schema\": \"http://json-schema.org/draft-04/schema#\",\n\t\"properties\": {\"n\": {\"maximum\": 5, \"exclusiveMaximum\": true}}\n}\n";
    std::fs::write(dir.path().join("a.json"), text).unwrap();
    let (code, stdout, stderr) = run(dir.path(), &["upgrade", "a.json"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stdout,
        "{\n\t\"$schema\": \"https://json-schema.org/draft/2020-12/schema\",\n\t\"properties\": {\n\t\t\"n\": {\n\t\t\t\"exclusiveMaximum\": 5\n\t\t}\n\t}\n}\n"
    );
    assert_eq!(
        stderr,
        "a.json at /$schema: `$schema` draft-04 → 2020-12\na.json at /properties/n/exclusiveMaximum: `exclusiveMaximum: true` and `maximum: 5` → `exclusiveMaximum: 5`\n"
    );
    assert_eq!(std::fs::read_to_string(dir.path().join("a.json")).unwrap(), text, "not --in-place: the file stays");

    // One line stays one line; standard input is `-`; --dialect reads a document without `$schema`.
    let piped = std::process::Command::new(env!("CARGO_BIN_EXE_concord"))
        .args(["upgrade", "--dialect", "draft-07", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write as _;
    piped.stdin.as_ref().unwrap().write_all(br#"{"items": [{"type": "string"}]}"#).unwrap();
    let output = piped.wait_with_output().unwrap();
    assert_eq!(String::from_utf8(output.stdout).unwrap(), format!("{{\"$schema\":\"{D2020}\",\"prefixItems\":[{{\"type\":\"string\"}}]}}\n"));
    assert!(output.status.success());
    assert_eq!(
        String::from_utf8(output.stderr).unwrap(),
        "-: added `$schema` 2020-12 (the document was read as draft-07; a registry entry declaring its dialect no longer needs to)\n- at /items: `items` (an array: a tuple) → `prefixItems`\n"
    );
}

#[test]
fn a_2020_12_file_is_left_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let text = "{ \"$schema\": \"https://json-schema.org/draft/2020-12/schema\",\n  \"type\":\"string\" }";
    std::fs::write(dir.path().join("s.json"), text).unwrap();
    let (code, stdout, stderr) = run(dir.path(), &["upgrade", "s.json"]);
    assert_eq!((code, stdout.as_str(), stderr.as_str()), (0, text, "s.json: already 2020-12, nothing to rewrite\n"));
    let (code, stdout, _) = run(dir.path(), &["upgrade", "--in-place", "s.json"]);
    assert_eq!((code, stdout.as_str()), (0, ""), "nothing written");
    assert_eq!(std::fs::read_to_string(dir.path().join("s.json")).unwrap(), text);
}

#[test]
fn in_place_writes_every_file_or_none() {
    let dir = tempfile::tempdir().unwrap();
    let good = "{\n  \"$schema\": \"http://json-schema.org/draft-07/schema#\",\n  \"dependencies\": {\"a\": [\"b\"]}\n}\n";
    let bad = "{\n  \"$schema\": \"http://json-schema.org/draft-04/schema#\",\n  \"properties\": {\"k\": {\"const\": 1}}\n}\n";
    let worse = "{\"$schema\": \"http://json-schema.org/draft-03/schema#\"}";
    for (name, text) in [("good.json", good), ("bad.json", bad), ("worse.json", worse)] {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    let (code, stdout, stderr) = run(dir.path(), &["upgrade", "--in-place", "good.json", "bad.json", "worse.json", "missing.json"]);
    assert_eq!(code, 1);
    assert_eq!(stdout, "");
    let missing = stderr.lines().find(|line| line.starts_with("error: missing.json: cannot read: ")).map(str::to_owned);
    assert!(missing.is_some(), "{stderr}");
    assert_eq!(
        stderr.replace(&format!("{}\n", missing.unwrap()), ""),
        "error: bad.json at /properties/k/const: `const` is no draft-04 keyword, so draft-04 validators ignore it, but 2020-12 would apply it: remove it, or, where its author meant it (their validator applied it), read the document as draft-06 (`--read-as draft-06`, as a registry entry's `read_as`)\n\
         \x20--> bad.json:3:24\n  |\n3 |   \"properties\": {\"k\": {\"const\": 1}}\n  |                        ^^^^^^^\n\
         error: worse.json at /$schema: unsupported dialect \"http://json-schema.org/draft-03/schema#\": concord reads draft-04, draft-06, draft-07, 2019-09 and 2020-12\n\
         \x20--> worse.json:1:2\n  |\n1 | {\"$schema\": \"http://json-schema.org/draft-03/schema#\"}\n  |  ^^^^^^^^^\n\
         3 errors\nnothing was written\n"
    );
    for (name, text) in [("good.json", good), ("bad.json", bad), ("worse.json", worse)] {
        assert_eq!(std::fs::read_to_string(dir.path().join(name)).unwrap(), text, "{name} was written");
    }

    let (code, stdout, stderr) = run(dir.path(), &["upgrade", "--in-place", "good.json"]);
    assert_eq!((code, stdout.as_str()), (0, "wrote good.json\n"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("good.json")).unwrap(),
        format!("{{\n  \"$schema\": \"{D2020}\",\n  \"dependentRequired\": {{\n    \"a\": [\n      \"b\"\n    ]\n  }}\n}}\n")
    );
    let leftovers: Vec<_> =
        std::fs::read_dir(dir.path()).unwrap().map(|entry| entry.unwrap().file_name()).filter(|name| name.to_string_lossy().starts_with('.')).collect();
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");
}

#[test]
fn bad_input_is_refused_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("dup.json"), r#"{"$schema": "x", "$schema": "y"}"#).unwrap();
    let (code, _, stderr) = run(dir.path(), &["upgrade", "dup.json"]);
    assert_eq!(code, 1);
    assert!(stderr.starts_with("error: dup.json: refused by the strict JSON profile (docs/strict-json.md): duplicate-key at byte "), "{stderr}");
    let large = format!(r#"{{"$schema": "{D7}", "description": "{}"}}"#, "x".repeat(17 << 20));
    std::fs::write(dir.path().join("large.json"), &large).unwrap();
    let (code, _, stderr) = run(dir.path(), &["upgrade", "large.json"]);
    assert_eq!(
        (code, stderr),
        (1, format!("error: large.json: too large: {} bytes, and concord reads files of at most 16777216 bytes (16 MiB; docs/limits.md)\n1 error\nnothing was written\n", large.len()))
    );
    let (code, _, stderr) = run(dir.path(), &["upgrade", "dup.json", "other.json"]);
    assert_eq!((code, stderr.as_str()), (2, "error: several files are upgraded with --in-place (standard output holds one document)\n"));
    let (code, _, stderr) = run(dir.path(), &["upgrade", "--in-place", "-"]);
    assert_eq!((code, stderr.as_str()), (2, "error: standard input cannot be upgraded --in-place\n"));
    let (code, _, stderr) = run(dir.path(), &["upgrade", "--dialect", "draft-03", "dup.json"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("unknown dialect \"draft-03\": concord reads draft-04, draft-06, draft-07, 2019-09 and 2020-12"), "{stderr}");
}

#[test]
fn a_ref_into_another_file_upgraded_with_it_follows_the_place() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    let a =
        format!(r#"{{"$schema": "{D7}", "properties": {{"first": {{"$ref": "sub/b.json#/items/0"}}, "rest": {{"$ref": "sub/b.json#/additionalItems"}}}}}}"#);
    let b = format!(
        r#"{{"$schema": "{D7}", "items": [{{"type": "string"}}], "additionalItems": {{"type": "integer"}}, "properties": {{"x": {{"$ref": "../a.json"}}}}}}"#
    );
    std::fs::write(dir.path().join("a.json"), &a).unwrap();
    std::fs::write(dir.path().join("sub/b.json"), &b).unwrap();
    let (code, stdout, stderr) = run(dir.path(), &["upgrade", "--in-place", "a.json", "sub/b.json"]);
    assert_eq!((code, stdout.as_str()), (0, "wrote a.json\nwrote sub/b.json\n"), "{stderr}");
    assert!(
        stderr.contains("a.json at /properties/first/$ref: `$ref` \"sub/b.json#/items/0\" → \"sub/b.json#/prefixItems/0\" (the place it names moved)\n"),
        "{stderr}"
    );
    assert!(
        stderr.contains("a.json at /properties/rest/$ref: `$ref` \"sub/b.json#/additionalItems\" → \"sub/b.json#/items\" (the place it names moved)\n"),
        "{stderr}"
    );
    let upgraded: Value = serde_json::from_slice(&std::fs::read(dir.path().join("a.json")).unwrap()).unwrap();
    assert_eq!(upgraded["properties"]["first"]["$ref"], "sub/b.json#/prefixItems/0");

    // Into a place the other file's upgrade drops: refused, naming that file; nothing written.
    let c = format!(r#"{{"$schema": "{D7}", "$ref": "d.json#/properties/p/items"}}"#);
    let d = format!(
        r##"{{"$schema": "{D7}", "properties": {{"p": {{"$ref": "#/definitions/q", "items": {{"type": "string"}}}}}}, "definitions": {{"q": {{}}}}}}"##
    );
    std::fs::write(dir.path().join("c.json"), &c).unwrap();
    std::fs::write(dir.path().join("d.json"), &d).unwrap();
    let (code, _, stderr) = run(dir.path(), &["upgrade", "--in-place", "c.json", "d.json"]);
    assert_eq!(code, 1);
    assert_eq!(
        stderr,
        "error: c.json at /$ref: `$ref` \"d.json#/properties/p/items\" names a place the upgrade drops: d.json at /properties/p/items is beside a `$ref`, which draft-07 ignores\n\
         \x20--> c.json:1:56\n  |\n1 | {\"$schema\": \"http://json-schema.org/draft-07/schema#\", \"$ref\": \"d.json#/properties/p/items\"}\n  |                                                        ^^^^^^\n\
         1 error\nnothing was written\n"
    );
    assert_eq!(std::fs::read_to_string(dir.path().join("c.json")).unwrap(), c);
}
