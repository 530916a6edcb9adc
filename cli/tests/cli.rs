//! The `concord` command line on the shipped registry and on copies of it.

use std::path::Path;
use std::process::Command;

mod common;
use common::*;

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

#[test]
fn check_passes_on_the_repository() {
    let output = concord(&["check"]);
    assert!(output.status.success(), "{}", text(&output));
    assert!(text(&output).contains("ok: every pin holds and generated is up to date"));
}

#[test]
fn one_changed_byte_fails_check_until_repinned_and_regenerated() {
    let scratch = tempfile::tempdir().unwrap();
    let registry = scratch.path().join("registry");
    let out = scratch.path().join("generated");
    copy_dir(&workspace().join("registry"), &registry);
    copy_dir(&workspace().join("generated"), &out);
    let (registry_arg, out_arg) = (registry.to_str().unwrap(), out.to_str().unwrap());
    let check = || concord(&["check", "--registry", registry_arg, "--out", out_arg]);
    assert!(check().status.success(), "{}", text(&check()));

    let schema = registry.join("cls_artifact.schema.json");
    let old = concord_codegen::registry::digest(&std::fs::read(&schema).unwrap());
    let mut bytes = std::fs::read(&schema).unwrap();
    let last = bytes.len() - 1;
    bytes[last] = b' ';
    std::fs::write(&schema, &bytes).unwrap();
    let new = concord_codegen::registry::digest(&bytes);

    let drift = check();
    assert!(!drift.status.success());
    let expected = format!(
        "{}: digest drift: registry.json pins {old} but the file's bytes hash to {new}; if the change is deliberate, re-pin with `concord pin --registry {registry_arg}` (the `concord` command: `cargo install concord-cli`, or `pip install concord-cli`)",
        schema.display()
    );
    assert!(text(&drift).contains(&expected), "{}", text(&drift));

    let pin = concord(&["pin", "--registry", registry_arg]);
    assert!(pin.status.success(), "{}", text(&pin));
    assert_eq!(text(&pin), format!("cls_artifact.schema.json: {old} -> {new}\n"));

    // The digest is part of the generated code, so the bindings are stale now.
    let stale = check();
    assert!(!stale.status.success());
    assert!(text(&stale).contains("concord_registry.rs: stale: this file does not match what"), "{}", text(&stale));
    assert!(text(&stale).contains("run `concord generate"), "{}", text(&stale));

    let generate = concord(&["generate", "--registry", registry_arg, "--out", out_arg]);
    assert!(generate.status.success(), "{}", text(&generate));
    assert!(check().status.success(), "{}", text(&check()));
}

/// A pinned version is frozen: `check` and `pin` refuse its changed bytes,
/// and `pin` writes nothing; a version not yet pinned is pinned.
#[test]
fn a_pinned_version_is_frozen() {
    let scratch = tempfile::tempdir().unwrap();
    let registry = scratch.path().join("registry");
    copy_dir(&workspace().join("registry"), &registry);
    let registry_arg = registry.to_str().unwrap();
    let index = registry.join("registry.json");
    let before = std::fs::read(&index).unwrap();

    let schema = registry.join("evidence.v1.schema.json");
    let pinned = concord_codegen::registry::digest(&std::fs::read(&schema).unwrap());
    let mut bytes = std::fs::read(&schema).unwrap();
    bytes.extend_from_slice(b" ");
    std::fs::write(&schema, &bytes).unwrap();
    let changed = concord_codegen::registry::digest(&bytes);
    let expected = format!(
        "{}: version 1 of Evidence is frozen: registry.json pins {pinned} but the file's bytes hash to {changed}; \
         data written under a version must keep reading, so a revision is a new version: restore this file and \
         list the changed schema as version 3 (a version never published may be re-pinned by deleting its digest)",
        schema.display()
    );
    for command in ["check", "pin"] {
        let output =
            concord(&[command, "--registry", registry_arg, "--out", scratch.path().join("out").to_str().unwrap()][..if command == "pin" { 3 } else { 5 }]);
        assert_eq!(output.status.code(), Some(1), "{command}: {}", text(&output));
        assert!(text(&output).contains(&expected), "{command}: {}", text(&output));
        assert_eq!(std::fs::read(&index).unwrap(), before, "{command} wrote the index");
    }

    // A new version is pinned by `pin`, and the older ones stay as they were.
    std::fs::write(&schema, std::fs::read(workspace().join("registry/evidence.v1.schema.json")).unwrap()).unwrap();
    std::fs::write(registry.join("evidence.v3.schema.json"), &bytes).unwrap();
    let mut listed: serde_json::Value = serde_json::from_slice(&before).unwrap();
    listed["schemas"].as_array_mut().unwrap().push(serde_json::json!({"name": "Evidence", "version": 3, "path": "evidence.v3.schema.json"}));
    std::fs::write(&index, serde_json::to_vec_pretty(&listed).unwrap()).unwrap();
    let pin = concord(&["pin", "--registry", registry_arg]);
    assert!(pin.status.success(), "{}", text(&pin));
    assert_eq!(text(&pin), format!("evidence.v3.schema.json: (none) -> {changed}\n"));

    // Index mistakes are named where they stand.
    for (entry, message) in [
        (
            serde_json::json!({"name": "Evidence", "version": 0, "path": "x.json"}),
            "/schemas/3/version: `version` must be a positive integer of at most 1000000",
        ),
        (serde_json::json!({"name": "Evidence", "version": 1.0, "path": "x.json"}), "/schemas/3/version: `version` must be a positive integer"),
        (serde_json::json!({"name": "Evidence", "version": 2, "path": "x.json"}), "/schemas/3: version 2 of \"Evidence\" is also listed at /schemas/2"),
        (
            serde_json::json!({"name": "Evidence", "path": "x.json"}),
            "/schemas/3: name \"Evidence\" is listed with a version elsewhere: give every entry of a name a version",
        ),
        (serde_json::json!({"name": "EvidenceV1", "path": "x.json"}), "its types would be named \"EvidenceV1\", as those of the entry at /schemas/1"),
    ] {
        let mut listed: serde_json::Value = serde_json::from_slice(&before).unwrap();
        listed["schemas"].as_array_mut().unwrap().push(entry);
        std::fs::write(&index, serde_json::to_vec_pretty(&listed).unwrap()).unwrap();
        let output = concord(&["pin", "--registry", registry_arg]);
        assert_eq!(output.status.code(), Some(1), "{}", text(&output));
        assert!(text(&output).contains(message), "{message}: {}", text(&output));
        // One problem, one error: the entries that are fine are not refused with it.
        assert_eq!(text(&output).matches("error: ").count(), 1, "{}", text(&output));
    }
}

/// A machine without Node, or a folder where Node finds no concord-runtime,
/// is told so, with what to install and how to leave TypeScript out;
/// `--languages rust,python` then runs the other two.
#[test]
fn roundtrip_without_node_says_what_to_install_or_how_to_leave_typescript_out() {
    let python = python();
    let scratch = tempfile::tempdir().unwrap();
    let run = |node: &str, work: &Path, languages: &str| {
        Command::new(env!("CARGO_BIN_EXE_concord"))
            .args(["roundtrip", "--registry", "registry", "--fixtures", "fixtures/roundtrip", "--python", &python, "--languages", languages])
            .arg("--work-dir")
            .arg(work)
            .env("CONCORD_NODE", node)
            .current_dir(workspace())
            .output()
            .unwrap()
    };
    let outside = scratch.path().join("work");
    let no_node = run("/nonexistent/node", &outside, "rust,python,typescript");
    assert!(!no_node.status.success());
    assert!(text(&no_node).contains("Node.js does not run here") && text(&no_node).contains("--languages rust,python"), "{}", text(&no_node));
    let no_runtime = run("node", &outside, "rust,python,typescript");
    assert!(!no_runtime.status.success());
    assert!(text(&no_runtime).contains("cannot import concord-runtime") && text(&no_runtime).contains("npm install concord-runtime@"), "{}", text(&no_runtime));
    let without = run("/nonexistent/node", &workspace().join("target/concord-roundtrip"), "rust,python");
    assert!(without.status.success() && !text(&without).contains("typescript:"), "{}", text(&without));
    let unknown = run("node", &outside, "rust,go");
    assert!(!unknown.status.success() && text(&unknown).contains("\"go\" is not a language"), "{}", text(&unknown));
}

#[test]
fn roundtrip_passes_on_the_shipped_fixtures_and_reports_failures() {
    let python = python();
    let work_dir = workspace().join("target/concord-roundtrip");
    let work = work_dir.to_str().unwrap();
    let output = concord(&["roundtrip", "--registry", "registry", "--fixtures", "fixtures/roundtrip", "--work-dir", work, "--python", &python]);
    assert!(output.status.success(), "{}", text(&output));
    let summary = text(&output);
    let last = summary.lines().last().unwrap();
    assert!(last.ends_with(" passed, 0 failed"), "{summary}");
    let passed: usize = last.split(' ').next().unwrap().parse().unwrap();
    assert!(passed >= 70, "{summary}");

    // A wrong expectation and a wrong refusal are both reported, with both languages' outputs.
    let fixtures = tempfile::tempdir().unwrap();
    let cases = fixtures.path().join("Evidence");
    std::fs::create_dir_all(&cases).unwrap();
    let minimal = std::fs::read(workspace().join("fixtures/roundtrip/Evidence/minimal.json")).unwrap();
    std::fs::write(cases.join("same.json"), &minimal).unwrap();
    std::fs::write(cases.join("changed.json"), &minimal).unwrap();
    std::fs::write(cases.join("changed.out.json"), b"{}").unwrap();
    std::fs::write(cases.join("accepted.json"), &minimal).unwrap();
    std::fs::write(cases.join("accepted.reject"), b"").unwrap();
    // .accept: any output, as long as both read it and write the same bytes.
    let minimal_text = String::from_utf8_lossy(&minimal);
    let unknown_key = format!("{}, \"unknown key\": [1]}}", minimal_text.trim_end().strip_suffix('}').unwrap());
    std::fs::write(cases.join("valid.json"), &unknown_key).unwrap();
    std::fs::write(cases.join("valid.accept"), b"").unwrap();
    std::fs::write(cases.join("invalid.json"), b"[]").unwrap();
    std::fs::write(cases.join("invalid.accept"), b"").unwrap();
    let fixtures_arg = fixtures.path().to_str().unwrap();
    let output = concord(&["roundtrip", "--registry", "registry", "--fixtures", fixtures_arg, "--work-dir", work, "--python", &python]);
    assert!(!output.status.success());
    let report = text(&output);
    let minimal = String::from_utf8(minimal).unwrap();
    for expected in [
        "FAIL Evidence/accepted.json\n  expected: refused\n",
        &format!("  rust:     wrote   {minimal}\n            digest  sha256:"),
        &format!("  python:   wrote   {minimal}\n            digest  sha256:"),
        "FAIL Evidence/changed.json\n  expected: wrote   {}\n",
        "FAIL Evidence/invalid.json\n  expected: read by every language, the same bytes written\n  rust:     refused ",
        "2 passed, 3 failed",
    ] {
        assert!(report.contains(expected), "expected {expected:?} in:\n{report}");
    }
    assert!(!report.contains("FAIL Evidence/valid.json"), "{report}");

    // A folder that names no registry entry is a mistake, not a skipped folder.
    std::fs::create_dir_all(fixtures.path().join("Evidense")).unwrap();
    let output = concord(&["roundtrip", "--registry", "registry", "--fixtures", fixtures_arg, "--work-dir", work, "--python", &python]);
    assert!(!output.status.success());
    assert!(
        text(&output).contains("Evidense: no registry entry \"Evidense\" (roots: ClsArtifact, Evidence, EvidenceV1; any record type as Entry.Type)"),
        "{}",
        text(&output)
    );
}

/// `concord json` and `python -m concord_runtime json`: same stdout bytes,
/// same stderr, same exit code, for files and for standard input.
#[test]
fn json_commands_match_the_python_runtime() {
    let python = python();
    let scratch = tempfile::tempdir().unwrap();
    let inputs: [(&str, &[u8]); 6] = [
        ("ok", br#" {"b":[1,"\u00e9"],"a":null} "#),
        ("duplicate", br#"{"a":1,"a":2}"#),
        ("float", br#"{"a":1.5}"#),
        ("utf8", b"[\"\xff\"]"),
        ("bom", b"\xef\xbb\xbf[]"),
        ("deep", &[b'['; 1000]),
    ];
    let run = |program: &str, args: &[&str], stdin: Option<&[u8]>| {
        let mut command = if program == "rust" {
            Command::new(env!("CARGO_BIN_EXE_concord"))
        } else {
            let mut command = Command::new(&python);
            command.args(["-m", "concord_runtime"]).env("PYTHONPATH", workspace().join("runtime/python"));
            command
        };
        command.args(args).stdin(std::process::Stdio::piped()).stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::piped());
        let mut child = command.spawn().unwrap();
        let mut pipe = child.stdin.take().unwrap();
        if let Some(bytes) = stdin {
            std::io::Write::write_all(&mut pipe, bytes).unwrap();
        }
        drop(pipe);
        let output = child.wait_with_output().unwrap();
        (output.status.code(), output.stdout, String::from_utf8_lossy(&output.stderr).into_owned())
    };
    let mut compared = 0;
    for (name, bytes) in inputs {
        let file = scratch.path().join(format!("{name}.json"));
        std::fs::write(&file, bytes).unwrap();
        for action in ["check", "canon", "digest"] {
            for (path, stdin) in [(file.to_str().unwrap(), None), ("-", Some(bytes))] {
                for format in ["text", "json"] {
                    let args = ["json", action, path, "--format", format];
                    let rust = run("rust", &args, stdin);
                    assert_eq!(rust, run("python", &args, stdin), "{action} {name} ({path}, {format})");
                    compared += 1;
                }
            }
        }
    }
    let missing = scratch.path().join("missing.json");
    for format in ["text", "json"] {
        let args = ["json", "check", missing.to_str().unwrap(), "--format", format];
        let rust = run("rust", &args, None);
        assert_eq!(rust.0, Some(2));
        assert_eq!(rust, run("python", &args, None));
    }
    // For tools: the same facts as one JSON object, on standard output.
    let duplicate = run("rust", &["json", "check", scratch.path().join("duplicate.json").to_str().unwrap(), "--format", "json"], None);
    assert_eq!(
        (duplicate.0, String::from_utf8(duplicate.1).unwrap()),
        (Some(1), "{\"error\":{\"kind\":\"duplicate-key\",\"message\":\"duplicate key \\\"a\\\"\",\"offset\":7,\"line\":1,\"column\":8}}\n".to_owned())
    );
    // The verdicts themselves, spot-checked: the comparison above must not pass on two empty outputs.
    let ok = scratch.path().join("ok.json");
    assert_eq!(run("rust", &["json", "canon", ok.to_str().unwrap()], None).1, "{\"a\":null,\"b\":[1,\"é\"]}".as_bytes());
    let duplicate = run("rust", &["json", "check", scratch.path().join("duplicate.json").to_str().unwrap()], None);
    let file = scratch.path().join("duplicate.json");
    let place = format!(" --> {}:1:8\n  |\n1 | {{\"a\":1,\"a\":2}}\n  |        ^\n", file.display());
    assert_eq!((duplicate.0, duplicate.2), (Some(1), format!("error: duplicate-key at byte 7: duplicate key \"a\"\n{place}")));
    assert_eq!(compared, 72);
}

/// Prints the class docstring of `Hostile` and the attribute docstring of its
/// field `type`, as the generated module's source holds them.
const FIELD_DOCSTRING: &str = r#"
import ast, importlib, inspect, concord_registry
m = importlib.import_module(concord_registry.Hostile.__module__)
tree = ast.parse(open(m.__file__, encoding="utf-8").read())
cls = next(node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == "Hostile")
body = cls.body
at = next(i for i, node in enumerate(body) if isinstance(node, ast.AnnAssign) and node.target.id == "type")
print(repr(m.Hostile.__doc__))
print(repr(inspect.cleandoc(body[at + 1].value.value)))
"#;

/// Schema strings land in code only as escaped literals and docs: a hostile
/// registry generates bindings that build, import and round-trip in both
/// languages, and its texts come back verbatim as documentation.
#[test]
fn hostile_names_and_texts_cannot_inject_code() {
    use concord_codegen::registry::digest;
    use serde_json::json;
    let python = python();
    let scratch = tempfile::tempdir().unwrap();
    let registry = scratch.path().join("registry");
    std::fs::create_dir_all(&registry).unwrap();
    let root_doc = "*/ fn evil() {} /* \"\"\" + __import__('os').system('exit 3') # \\";
    let field_doc = "\"\"\"\nimport os\n\"\"\"\n#[doc = \"x\"] } fn f() {";
    let names = [
        "type",
        "class",
        "self",
        "None",
        "1st",
        "é",
        "",
        "model_config",
        "json",
        "foo-bar",
        "\"quoted\"",
        "extra",
        "r#raw",
        "digest",
        "to_json",
        "from_json",
        "NAME",
        "bind",
        "__map",
        "deserializer",
    ];
    let mut properties = serde_json::Map::new();
    for name in names {
        properties.insert(name.to_owned(), json!({"type": "string"}));
    }
    properties.insert("type".to_owned(), json!({"type": "string", "enum": ["\"; panic!(); \"", "a\\b", "\"\"\"", "é", ""], "description": field_doc}));
    // Optional, and spelled so that its Python attribute (`camel_case`) is a
    // different key: an unknown key of that spelling must stay unknown.
    properties.insert("camelCase".to_owned(), json!({"type": "integer"}));
    let schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "description": root_doc,
        "type": "object",
        "x-growth-point": true,
        "properties": properties,
        "required": names,
    });
    let bytes = serde_json::to_vec_pretty(&schema).unwrap();
    std::fs::write(registry.join("hostile.schema.json"), &bytes).unwrap();
    let index = json!({"format": 1, "schemas": [{"name": "Hostile", "path": "hostile.schema.json", "digest": digest(&bytes)}]});
    std::fs::write(registry.join("registry.json"), serde_json::to_vec(&index).unwrap()).unwrap();

    let fixtures = scratch.path().join("fixtures/Hostile");
    std::fs::create_dir_all(&fixtures).unwrap();
    let mut record = serde_json::Map::new();
    for name in names {
        record.insert(name.to_owned(), json!(format!("value of {name}")));
    }
    record.insert("type".to_owned(), json!("\"; panic!(); \""));
    record.insert("unknown \u{2028} key".to_owned(), json!({"z": 1, "a": [true]}));
    for python_attribute in ["camel_case", "class_", "none", "model_config_"] {
        record.insert(python_attribute.to_owned(), json!(python_attribute));
    }
    std::fs::write(fixtures.join("all.json"), serde_json::to_vec(&record).unwrap()).unwrap();

    let work = workspace().join("target/concord-roundtrip");
    let output = concord(&[
        "roundtrip",
        "--registry",
        registry.to_str().unwrap(),
        "--fixtures",
        fixtures.parent().unwrap().to_str().unwrap(),
        "--work-dir",
        work.to_str().unwrap(),
        "--python",
        &python,
    ]);
    assert!(output.status.success(), "{}", text(&output));
    assert!(text(&output).ends_with("1 passed, 0 failed\n"), "{}", text(&output));

    // The texts come back as documentation, verbatim.
    let files = concord_codegen::Config::new().registry(&registry).generate().unwrap();
    let rust: syn::File = syn::parse_str(&files[0].contents).unwrap();
    // The items of every entry's module.
    let items: Vec<&syn::Item> = rust
        .items
        .iter()
        .flat_map(|item| match item {
            syn::Item::Mod(module) => module.content.as_ref().map(|(_, items)| items.iter().collect()).unwrap_or_default(),
            item => vec![item],
        })
        .collect();
    let docs: Vec<String> = items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Struct(item) => Some(&item.attrs),
            _ => None,
        })
        .flat_map(|attrs| {
            attrs.iter().filter_map(|attr| match &attr.meta {
                syn::Meta::NameValue(doc) if doc.path.is_ident("doc") => match &doc.value {
                    syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(text), .. }) => Some(text.value()),
                    _ => None,
                },
                _ => None,
            })
        })
        .collect();
    assert_eq!(docs, [format!(" {root_doc}")]);
    assert_eq!(items.iter().filter(|item| matches!(item, syn::Item::Fn(_))).count(), 0);

    let package = scratch.path().join("python");
    concord_codegen::write_files(&package, &files).unwrap();
    let check = Command::new(&python)
        .args(["-c", FIELD_DOCSTRING])
        .env("PYTHONPATH", format!("{}:{}", package.join("python").display(), workspace().join("runtime/python").display()))
        .output()
        .unwrap();
    assert!(check.status.success(), "{}", text(&check));
    let shown = String::from_utf8(check.stdout).unwrap();
    let repr = |text: &str| format!("'{}'", text.replace('\\', "\\\\").replace('\'', "\\'").replace('\n', "\\n"));
    assert_eq!(shown, format!("{}\n{}\n", repr(root_doc), repr(field_doc)));
}

/// A root whose name either language escapes (`PINNED` is a static of the
/// Rust bindings, so the type is `PINNED_` in both) is still named by its
/// registry name in a fixture folder: the Python harness finds its class by
/// path, not by that name.
#[test]
fn a_root_with_an_escaped_name_round_trips() {
    let python = python();
    let scratch = tempfile::tempdir().unwrap();
    let (registry, all, fixtures) = (scratch.path().join("registry"), scratch.path().join("fixtures"), scratch.path().join("fixtures/PINNED"));
    std::fs::create_dir_all(&registry).unwrap();
    std::fs::create_dir_all(&fixtures).unwrap();
    let schema = br#"{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "string", "maxLength": 3}"#;
    std::fs::write(registry.join("pinned.schema.json"), schema).unwrap();
    let index =
        serde_json::json!({"format": 1, "schemas": [{"name": "PINNED", "path": "pinned.schema.json", "digest": concord_codegen::registry::digest(schema)}]});
    std::fs::write(registry.join("registry.json"), index.to_string()).unwrap();
    std::fs::write(fixtures.join("short.json"), br#""abc""#).unwrap();
    std::fs::write(fixtures.join("short.accept"), b"").unwrap();
    std::fs::write(fixtures.join("long.json"), br#""abcd""#).unwrap();
    std::fs::write(fixtures.join("long.reject"), b"").unwrap();
    let work = workspace().join("target/concord-roundtrip");
    let args =
        ["roundtrip", "--registry", registry.to_str().unwrap(), "--fixtures", all.to_str().unwrap(), "--work-dir", work.to_str().unwrap(), "--python", &python];
    let output = concord(&args);
    assert!(output.status.success(), "{}", text(&output));
    assert!(text(&output).ends_with("2 passed, 0 failed\n"), "{}", text(&output));
}

/// `concord add` lists a schema of several files in one command: each file
/// its `$ref`s reach, with its digest, and the URI a `$ref` names it by
/// when it has no `$id` of its own; the registry then generates.
#[test]
fn add_lists_a_schema_and_every_local_file_its_refs_reach() {
    let scratch = tempfile::tempdir().unwrap();
    let registry = scratch.path().join("registry");
    std::fs::create_dir_all(registry.join("common")).unwrap();
    let draft = "https://json-schema.org/draft/2020-12/schema";
    let write = |path: &str, schema: serde_json::Value| std::fs::write(registry.join(path), serde_json::to_vec_pretty(&schema).unwrap()).unwrap();
    write(
        "bom.schema.json",
        serde_json::json!({"$schema": draft, "$id": "http://example.com/schema/bom.schema.json", "title": "Bom", "type": "object",
        "properties": {"license": {"$ref": "spdx.schema.json"}, "algorithm": {"$ref": "common/crypto-defs.schema.json#/$defs/Algorithm"}}}),
    );
    write(
        "spdx.schema.json",
        serde_json::json!({"$schema": draft, "$id": "http://example.com/schema/spdx.schema.json", "type": "string", "enum": ["MIT", "Apache-2.0"]}),
    );
    write("common/crypto-defs.schema.json", serde_json::json!({"$schema": draft, "$defs": {"Algorithm": {"type": "string", "enum": ["ES256"]}}}));
    let arg = registry.to_str().unwrap();
    let added = concord(&["add", "--registry", arg, registry.join("bom.schema.json").to_str().unwrap()]);
    assert!(added.status.success(), "{}", text(&added));
    let digest = |path: &str| concord_codegen::registry::digest(&std::fs::read(registry.join(path)).unwrap());
    assert_eq!(
        text(&added),
        format!(
            "added Bom (bom.schema.json): {}\nadded Spdx (spdx.schema.json, which bom.schema.json references): {}\n\
             added CryptoDefs (common/crypto-defs.schema.json as http://example.com/schema/common/crypto-defs.schema.json, which bom.schema.json references): {}\n",
            digest("bom.schema.json"),
            digest("spdx.schema.json"),
            digest("common/crypto-defs.schema.json")
        )
    );
    let out = scratch.path().join("out");
    assert!(concord(&["generate", "--registry", arg, "--out", out.to_str().unwrap()]).status.success());
    // Listed already: nothing changes.
    let index = std::fs::read(registry.join("registry.json")).unwrap();
    let again = concord(&["add", "--registry", arg, registry.join("bom.schema.json").to_str().unwrap()]);
    assert_eq!(text(&again), "every file is listed already\n");
    assert_eq!(std::fs::read(registry.join("registry.json")).unwrap(), index);
}

/// What would not load is not added: the index is left as it was (here, not
/// created), and every problem is named.
#[test]
fn add_refuses_what_the_registry_would_refuse_and_writes_nothing() {
    let scratch = tempfile::tempdir().unwrap();
    let registry = scratch.path().join("registry");
    std::fs::create_dir_all(&registry).unwrap();
    let draft = "https://json-schema.org/draft/2020-12/schema";
    std::fs::write(
        registry.join("a.schema.json"),
        serde_json::to_vec(&serde_json::json!({"$schema": draft, "type": "object", "properties": {"x": {"type": "string", "dependencies": {}}}})).unwrap(),
    )
    .unwrap();
    std::fs::write(
        registry.join("b.schema.json"),
        serde_json::to_vec(&serde_json::json!({"$schema": draft, "properties": {"y": {"$ref": "missing.schema.json"}}})).unwrap(),
    )
    .unwrap();
    std::fs::write(scratch.path().join("outside.schema.json"), b"{}").unwrap();
    let arg = registry.to_str().unwrap();
    let refused = concord(&["add", "--registry", arg, registry.join("a.schema.json").to_str().unwrap()]);
    assert!(!refused.status.success());
    assert!(text(&refused).contains("a.schema.json at /properties/x/dependencies: `dependencies` is refused"), "{}", text(&refused));
    assert!(text(&refused).contains("nothing was added"), "{}", text(&refused));
    assert!(!registry.join("registry.json").exists(), "the index it created is removed again");
    let refused =
        concord(&["add", "--registry", arg, registry.join("b.schema.json").to_str().unwrap(), scratch.path().join("outside.schema.json").to_str().unwrap()]);
    assert!(
        text(&refused).contains(
            "missing.schema.json: missing: no such file (`$ref` \"missing.schema.json\" in b.schema.json names it: download it into the registry folder, or add it by URL)"
        ),
        "{}",
        text(&refused)
    );
    assert!(text(&refused).contains("outside.schema.json: not in the registry folder"), "{}", text(&refused));
    assert!(!registry.join("registry.json").exists());
}

/// `--format json` on `check`, `generate`, `pin` and `add`: one JSON object
/// on standard output, the diagnostics with their file, pointer, line and
/// column, for tools that read them.
#[test]
fn the_commands_report_as_json_for_tools() {
    let scratch = tempfile::tempdir().unwrap();
    let registry = scratch.path().join("registry");
    std::fs::create_dir_all(&registry).unwrap();
    let schema =
        "{\n  \"$schema\": \"https://json-schema.org/draft/2020-12/schema\",\n  \"type\": \"object\",\n  \"properties\": {\"n\": {\"type\": \"integr\"}}\n}\n";
    std::fs::write(registry.join("a.schema.json"), schema).unwrap();
    let (arg, out) = (registry.to_str().unwrap(), scratch.path().join("out"));
    let json = |output: &std::process::Output| -> serde_json::Value { serde_json::from_slice(&output.stdout).unwrap_or_else(|_| panic!("{}", text(output))) };

    let refused = concord(&["add", "--registry", arg, "--format", "json", registry.join("a.schema.json").to_str().unwrap()]);
    assert_eq!(refused.status.code(), Some(1));
    let errors = json(&refused)["errors"].clone();
    assert_eq!(errors[0]["pointer"], "/properties/n/type", "{errors}");
    assert_eq!((&errors[0]["line"], &errors[0]["column"]), (&serde_json::json!(4), &serde_json::json!(24)), "{errors}");
    assert!(errors[0]["message"].as_str().unwrap().contains("did you mean \"integer\"?"), "{errors}");

    std::fs::write(registry.join("a.schema.json"), schema.replace("integr", "integer")).unwrap();
    let added = json(&concord(&["add", "--registry", arg, "--format", "json", registry.join("a.schema.json").to_str().unwrap()]));
    assert_eq!(added["added"][0]["name"], "A", "{added}");
    let written = json(&concord(&["generate", "--registry", arg, "--out", out.to_str().unwrap(), "--format", "json"]));
    assert!(written["wrote"].as_array().unwrap().iter().any(|path| path.as_str().unwrap().ends_with("concord_registry.rs")), "{written}");
    assert_eq!(json(&concord(&["check", "--registry", arg, "--out", out.to_str().unwrap(), "--format", "json"])), serde_json::json!({"ok": true}));
    assert_eq!(json(&concord(&["pin", "--registry", arg, "--format", "json"])), serde_json::json!({"changes": []}));
}

/// A pattern the crate's meta-schema check refuses (`(?i)`, no ECMA-262
/// syntax: tilecloud-chain's schema has one) is refused when the registry
/// is generated, at the pattern, as the root record's engine would refuse
/// it when built from the whole document; never a record type whose every
/// read then fails ("cannot be checked").
#[test]
fn a_pattern_the_engine_refuses_is_refused_when_generated() {
    let scratch = tempfile::tempdir().unwrap();
    let registry = scratch.path().join("registry");
    std::fs::create_dir_all(&registry).unwrap();
    let schema = serde_json::json!({
        "$schema": "http://json-schema.org/draft-07/schema",
        "type": "object",
        "properties": {"name": {"$ref": "#/definitions/name"}},
        "definitions": {"name": {"type": "string", "pattern": "(?i)^(?!(SERVICE|VERSION))[a-z0-9_]+$"}}
    });
    let bytes = serde_json::to_vec_pretty(&schema).unwrap();
    std::fs::write(registry.join("c.schema.json"), &bytes).unwrap();
    let index = serde_json::json!({"format": 1, "schemas": [{"name": "C", "path": "c.schema.json", "digest": concord_codegen::registry::digest(&bytes)}]});
    std::fs::write(registry.join("registry.json"), index.to_string()).unwrap();
    let out = scratch.path().join("out");
    let refused = concord(&["generate", "--registry", registry.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(refused.status.code(), Some(1), "{}", text(&refused));
    assert!(text(&refused).contains("c.schema.json at /definitions/name/pattern: the assertion engine cannot check this schema"), "{}", text(&refused));
    assert!(!out.exists());
}

/// `--languages` writes and checks the languages it names alone: a
/// TypeScript team's output holds no Rust and no Python, and `check` holds
/// it to what it asked for; a language concord does not write is named.
#[test]
fn generate_and_check_write_the_languages_named() {
    let scratch = tempfile::tempdir().unwrap();
    let out = scratch.path().join("generated");
    let out_arg = out.to_str().unwrap();
    let generated = concord(&["generate", "--out", out_arg, "--languages", "typescript"]);
    assert!(generated.status.success(), "{}", text(&generated));
    let folders: Vec<String> = std::fs::read_dir(&out).unwrap().map(|entry| entry.unwrap().file_name().into_string().unwrap()).collect();
    assert_eq!(folders, ["typescript"]);
    let checked = concord(&["check", "--out", out_arg, "--languages", "typescript"]);
    assert!(checked.status.success(), "{}", text(&checked));
    // Asked for Python too, it is missing, and the fix names both.
    let stale = concord(&["check", "--out", out_arg, "--languages", "typescript,python"]);
    assert_eq!(stale.status.code(), Some(1), "{}", text(&stale));
    assert!(text(&stale).contains(&format!("run `concord generate --registry registry --out {out_arg} --languages python,typescript`")), "{}", text(&stale));
    let unknown = concord(&["generate", "--out", out_arg, "--languages", "rust,go"]);
    assert!(!unknown.status.success());
    assert!(text(&unknown).contains("\"go\" is not a language concord writes: rust, python, typescript"), "{}", text(&unknown));
}
