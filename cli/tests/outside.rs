//! concord outside this repository, as its users install it: the
//! `concord` command `cargo install`ed from a copy of this checkout that is
//! then deleted, and the wheels in a fresh virtual environment with no Rust
//! toolchain (docs/packaging.md).

use serde_json::json;
use std::path::Path;
use std::process::Command;

mod common;
use common::*;

const SCHEMA: &str = r##"{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "title": "Note",
  "description": "A note passed between the Rust and Python programs.",
  "type": "object",
  "x-growth-point": true,
  "properties": {
    "id": {"type": "string", "description": "The note's id."},
    "author": {"$ref": "#/$defs/Author"},
    "tags": {"type": "array", "items": {"type": "string"}},
    "priority": {"type": "integer", "minimum": 0}
  },
  "required": ["id", "author"],
  "$defs": {
    "Author": {
      "type": "object",
      "description": "Who wrote it.",
      "properties": {"name": {"type": "string"}, "email": {"type": "string"}},
      "required": ["name"],
      "additionalProperties": false
    }
  }
}
"##;

/// A project folder with `registry/` holding the note schema, not pinned yet.
fn project(dir: &Path) {
    std::fs::create_dir_all(dir.join("registry")).unwrap();
    std::fs::write(dir.join("registry/note.schema.json"), SCHEMA).unwrap();
    std::fs::write(dir.join("registry/registry.json"), json!({"format": 1, "schemas": [{"name": "Note", "path": "note.schema.json"}]}).to_string()).unwrap();
}

fn stdout(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn the_wheels_install_generate_and_read_records_without_rust() {
    let scratch = tempfile::tempdir().unwrap();
    let wheels = wheels();
    let names: Vec<String> = std::fs::read_dir(&wheels).unwrap().map(|entry| entry.unwrap().file_name().into_string().unwrap()).collect();
    let version = env!("CARGO_PKG_VERSION");
    assert!(
        names.iter().any(|name| name.starts_with(&format!("concord_runtime-{version}-cp311-abi3-manylinux_2_17_x86_64"))
            || name.contains("abi3") && name.contains("manylinux_2_17")),
        "{names:?}"
    );
    assert!(names.iter().any(|name| name.starts_with(&format!("concord_cli-{version}-py3-none-")) && name.contains("manylinux_2_17")), "{names:?}");
    let venv = Venv::without_rust(&scratch.path().join("venv"), &wheels);
    assert_eq!(stdout(&run_ok(venv.command("concord").arg("--version"))), format!("concord {version}\n"));

    let work = scratch.path().join("project");
    project(&work);
    run_ok(venv.command("concord").args(["pin", "--registry", "registry"]).current_dir(&work));
    run_ok(venv.command("concord").args(["generate", "--registry", "registry", "--out", "generated", "--python-package", "notes"]).current_dir(&work));
    run_ok(venv.command("concord").args(["check", "--registry", "registry", "--out", "generated", "--python-package", "notes"]).current_dir(&work));

    let script = r#"
import sys
from notes import Note
from concord_runtime import RecordError

data = b'{"priority":2,"id":"n1","author":{"name":"Ada"},"kept":[1,{"b":true}]}'
note = Note.from_json(data)
assert note.author.name == "Ada" and note.priority == 2, note
assert note.model_extra == {"kept": [1, {"b": True}]}, note.model_extra
sys.stdout.write(note.to_json().decode() + "\n" + note.digest() + "\n")
try:
    Note.from_json(b'{"id":"n1","author":{"name":"Ada","age":3}}')
except RecordError as error:
    sys.stdout.write(error.pointer + "\n")
"#;
    let output = run_ok(venv.command("python").args(["-c", script]).env("PYTHONPATH", work.join("generated/python")));
    let lines: Vec<String> = stdout(&output).lines().map(str::to_owned).collect();
    assert_eq!(lines[0], r#"{"id":"n1","author":{"name":"Ada"},"priority":2,"kept":[1,{"b":true}]}"#);
    // The same digest the command computes over the same bytes.
    std::fs::write(work.join("written.json"), &lines[0]).unwrap();
    let digest = stdout(&run_ok(venv.command("concord").args(["json", "digest", "written.json"]).current_dir(&work)));
    assert_eq!(format!("{}\n", lines[1]), digest);
    let python_digest = stdout(&run_ok(venv.command("python").args(["-m", "concord_runtime", "json", "digest", "written.json"]).current_dir(&work)));
    assert_eq!(python_digest, digest);
    assert_eq!(lines[2], "/author/age", "a closed type refuses an unknown key where it stands");
}

/// A schema with a rule no type expresses (`if`/`then`): an `ASSERTED`
/// type, which TypeScript reads through the engine addon.
const SETTINGS: &str = r##"{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "title": "Settings",
  "type": "object",
  "properties": {"port": {"type": "integer"}, "mode": {"type": "string"}},
  "if": {"properties": {"mode": {"const": "server"}}, "required": ["mode"]},
  "then": {"required": ["port"]}
}
"##;

#[test]
fn the_npm_packages_install_generate_and_read_records_with_node_alone() {
    let scratch = tempfile::tempdir().unwrap();
    let packages = npm_packages();
    let path = node_alone(&scratch.path().join("bin"));
    let cache = scratch.path().join("npm-cache");
    for tool in ["cargo", "rustc", "python3", "python"] {
        let found = Command::new(Path::new(&path).join("sh")).args(["-c", &format!("command -v {tool}")]).env("PATH", &path).output().unwrap();
        assert!(!found.status.success(), "{tool} is on the PATH: {}", text(&found));
    }

    let work = scratch.path().join("project");
    project(&work);
    std::fs::write(work.join("registry/settings.schema.json"), SETTINGS).unwrap();
    std::fs::write(
        work.join("registry/registry.json"),
        json!({"format": 1, "schemas": [{"name": "Note", "path": "note.schema.json"}, {"name": "Settings", "path": "settings.schema.json"}]}).to_string(),
    )
    .unwrap();
    // What a user's `npm install concord-runtime concord-engine concord-cli`
    // fetches: the three, and the platform packages their optionalDependencies name.
    let names = ["concord-runtime", "concord-engine", "concord-engine-linux-x64-gnu", "concord-cli", "concord-cli-linux-x64-gnu"];
    run_ok(npm_offline("npm", &work, &path, &cache).args(["install", "--loglevel=error"]).args(names.map(|name| tarball(&packages, name))));
    let version = env!("CARGO_PKG_VERSION");
    let npx = |args: &[&str]| run_ok(npm_offline("npx", &work, &path, &cache).arg("concord").args(args));
    assert_eq!(stdout(&npx(&["--version"])), format!("concord {version}\n"));
    npx(&["pin", "--registry", "registry"]);
    npx(&["generate", "--registry", "registry", "--out", "generated", "--typescript-package", "notes"]);
    npx(&["check", "--registry", "registry", "--out", "generated", "--typescript-package", "notes"]);
    let settings = std::fs::read_to_string(work.join("generated/typescript/notes/settings.js")).unwrap();
    assert!(settings.contains(r#""pinning": "asserted""#), "Settings is to be ASSERTED:\n{settings}");
    // The generated package names concord-runtime@<version>: npm takes the one installed.
    run_ok(npm_offline("npm", &work, &path, &cache).args(["install", "--loglevel=error", "./generated/typescript/notes"]));

    let script = r#"
import { Note, Settings } from "notes";
import { unknownKeys } from "concord-runtime";
const out = [];
const note = Note.fromJson('{"priority":2,"id":"n1","author":{"name":"Ada"},"kept":[1,{"b":true}]}');
if (note.author.name !== "Ada" || note.priority !== 2n && note.priority !== 2) throw new Error(`read ${JSON.stringify(Object.keys(note))}`);
out.push([...note[unknownKeys].keys()].join(","), Note.toJson(note), Note.digest(note));
try { Note.fromJson('{"id":"n1","author":{"name":"Ada","age":3}}'); out.push("accepted"); } catch (error) { out.push(`${error.name} ${error.kind} ${error.pointer}`); }
const settings = Settings.fromJson('{"port":8080,"mode":"server"}');
Settings.validate(settings);
out.push(Settings.toJson(settings));
try { Settings.fromJson('{"mode":"server"}'); out.push("accepted"); } catch (error) { out.push(`${error.name} ${error.kind}: ${error.message}`); }
console.log(out.join("\n"));
"#;
    std::fs::write(work.join("read.mjs"), script).unwrap();
    let mut node = npm_offline("node", &work, &path, &cache);
    let output = stdout(&run_ok(node.arg("read.mjs")));
    let lines: Vec<&str> = output.lines().collect();
    assert_eq!(lines[0], "kept", "{output}");
    assert_eq!(lines[1], r#"{"id":"n1","author":{"name":"Ada"},"priority":2,"kept":[1,{"b":true}]}"#);
    std::fs::write(work.join("written.json"), lines[1]).unwrap();
    assert_eq!(format!("{}\n", lines[2]), stdout(&npx(&["json", "digest", "written.json"])), "the digest the command computes over the same bytes");
    assert_eq!(lines[3], "SchemaError schema /author/age", "a closed type refuses an unknown key where it stands");
    assert_eq!(lines[4], r#"{"port":8080,"mode":"server"}"#);
    // The engine's verdict, with the schema keyword that gave it, as Rust and Python word it.
    assert_eq!(lines[5], r#"SchemaError schema: at "": lacks the required property "port" (schema /then/required)"#);
}

#[test]
fn every_command_works_installed_from_a_deleted_checkout() {
    let scratch = tempfile::tempdir().unwrap();
    let concord = install_from_a_deleted_copy();
    let run = |args: &[&str], dir: &Path| Command::new(&concord).args(args).current_dir(dir).output().unwrap();
    let work = scratch.path().join("project");
    project(&work);

    let pinned = run(&["pin"], &work);
    assert!(pinned.status.success(), "{}", text(&pinned));
    assert!(text(&pinned).starts_with("note.schema.json: (none) -> sha256:"), "{}", text(&pinned));
    assert!(run(&["generate"], &work).status.success());
    assert!(work.join("generated/rust/concord_registry.rs").is_file() && work.join("generated/python/concord_registry/__init__.py").is_file());
    let check = run(&["check"], &work);
    assert!(check.status.success(), "{}", text(&check));

    // validate and json, on one record.
    std::fs::write(work.join("note.json"), br#"{"id":"n1","author":{"name":"Ada"},"priority":-1}"#).unwrap();
    let refused = run(&["validate", "Note", "note.json"], &work);
    assert_eq!(refused.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&refused.stderr), "/priority: is less than the minimum of 0\n");
    let canon = run(&["json", "canon", "note.json"], &work);
    assert_eq!(stdout(&canon), r#"{"author":{"name":"Ada"},"id":"n1","priority":-1}"#);

    // roundtrip, on the project's own fixtures (the harness builds against the carried runtime).
    let fixtures = work.join("fixtures/Note");
    std::fs::create_dir_all(&fixtures).unwrap();
    std::fs::write(fixtures.join("kept.json"), "{\"id\":\"n1\",\"author\":{\"name\":\"Ada\"},\"x\":1}\n").unwrap();
    std::fs::write(fixtures.join("closed.json"), br#"{"id":"n1","author":{"name":"Ada","age":3}}"#).unwrap();
    std::fs::write(fixtures.join("closed.reject"), br#"at "/author/age""#).unwrap();
    let harness = workspace().join("target/concord-roundtrip");
    let (python, harness) = (python(), harness.to_str().unwrap().to_owned());
    // TypeScript installed from npm, as users will, is not there yet: Rust and Python here.
    let roundtrip = run(&["roundtrip", "--fixtures", "fixtures", "--work-dir", &harness, "--python", &python, "--languages", "rust,python"], &work);
    assert!(roundtrip.status.success(), "{}", text(&roundtrip));
    assert!(stdout(&roundtrip).ends_with("2 passed, 0 failed\n"), "{}", text(&roundtrip));
    let fuzz = run(&["fuzz", "--cases", "200", "--work-dir", &harness, "--python", &python, "--findings", "findings", "--languages", "rust,python"], &work);
    assert!(fuzz.status.success(), "{}", text(&fuzz));

    // diff: a required property added to a closed type breaks old data.
    let old = scratch.path().join("old");
    std::fs::create_dir_all(&old).unwrap();
    for file in ["registry.json", "note.schema.json"] {
        std::fs::copy(work.join("registry").join(file), old.join(file)).unwrap();
    }
    let changed = SCHEMA.replace(r#""required": ["name"],"#, r#""required": ["name", "email"],"#);
    std::fs::write(work.join("registry/note.schema.json"), changed).unwrap();
    let drift = run(&["check"], &work);
    assert!(!drift.status.success() && text(&drift).contains("re-pin with `concord pin --registry registry`"), "{}", text(&drift));
    assert!(run(&["pin"], &work).status.success());
    let diff = run(&["diff", old.to_str().unwrap(), "registry"], &work);
    assert_eq!(diff.status.code(), Some(1), "{}", text(&diff));
    assert!(stdout(&diff).contains("property-required") && stdout(&diff).contains("Note.Author"), "{}", text(&diff));

    // A Python without concord_runtime is named, with what to install.
    let bare = scratch.path().join("bare");
    run_ok(Command::new("python3").args(["-m", "venv"]).arg(&bare));
    let missing = run(
        &["roundtrip", "--fixtures", "fixtures", "--work-dir", &harness, "--python", bare.join("bin/python").to_str().unwrap(), "--languages", "rust,python"],
        &work,
    );
    assert!(!missing.status.success());
    assert!(
        text(&missing).contains("this Python has no concord_runtime")
            && text(&missing).contains(&format!("-m pip install concord-runtime=={}", env!("CARGO_PKG_VERSION"))),
        "{}",
        text(&missing)
    );
}
