//! `validate` in both languages (docs/validation.md). The shared set in
//! `fixtures/validation` (every keyword family, a pattern, nested errors,
//! several at once, the strict profile) gets the same verdict and the same
//! notes, byte for byte, from `concord validate` and `python -m
//! concord_runtime validate`, and from the Python API on parsed values; no
//! note repeats a refused value; the types refuse exactly what the validator
//! refuses. A remote `$ref` fails closed when the bindings are generated,
//! and nothing is fetched.

mod common;
use common::*;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The shared set's inputs and, beside them in `notes/`, what `validate` prints for each.
fn cases() -> Vec<(String, PathBuf, String)> {
    let instances = workspace().join("fixtures/validation/instances/Checked");
    let mut cases: Vec<(String, PathBuf, String)> = std::fs::read_dir(&instances)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|extension| extension == "json"))
        .map(|path| {
            let name = path.file_stem().unwrap().to_str().unwrap().to_owned();
            let notes = workspace().join("fixtures/validation/notes/Checked").join(format!("{name}.txt"));
            // `{input}`: the input's path, where a strict-profile refusal shows its line.
            let expected = std::fs::read_to_string(&notes).unwrap_or_else(|error| panic!("{}: {error}", notes.display()));
            let expected = expected.replace("{input}", &path.display().to_string());
            (name, path, expected)
        })
        .collect();
    cases.sort();
    cases
}

/// Exit code, and standard output then standard error.
fn run(command: &mut Command) -> (Option<i32>, String) {
    let output = command.output().unwrap();
    (output.status.code(), text(&output))
}

#[test]
fn both_languages_give_the_same_notes_and_never_the_value() {
    let python = python();
    let registry = workspace().join("fixtures/validation/registry");
    let generated = tempfile::tempdir().unwrap();
    let files = concord_codegen::Config::new().registry(&registry).generate().unwrap();
    concord_codegen::write_files(generated.path(), &files).unwrap();
    let python_path = format!("{}:{}", generated.path().join("python").display(), workspace().join("runtime/python").display());
    let cases = cases();
    // Python: the command's `main` and the API on values already parsed
    // (dict, list, int, ...), as a consumer checks a payload before it is a
    // record, in one process (a process a case would cost seconds).
    let script = r#"
import contextlib, io, json, sys
import concord_registry, concord_runtime
from concord_runtime.__main__ import main
for path in sys.argv[1:]:
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
        code = main(["validate", "concord_registry", "Checked", path])
    as_json = io.StringIO()
    with contextlib.redirect_stdout(as_json):
        main(["validate", "concord_registry", "Checked", path, "--format", "json"])
    with open(path, "rb") as file:
        data = file.read()
    try:
        concord_registry.Checked.SCHEMA.validate(json.loads(data))
        parsed = "ok\n"
    except concord_runtime.Refusal as refusal:
        parsed = f"{refusal}\n"
    except ValueError as error:
        parsed = f"not a value: {error}\n"
    print(json.dumps([code, printed.getvalue(), parsed, as_json.getvalue()]))
"#;
    let output = Command::new(&python).args(["-c", script]).args(cases.iter().map(|(_, input, _)| input)).env("PYTHONPATH", &python_path).output().unwrap();
    assert!(output.status.success(), "{}", text(&output));
    let answers: Vec<(Option<i32>, String, String, String)> =
        String::from_utf8(output.stdout).unwrap().lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    assert_eq!(answers.len(), cases.len(), "one answer a case");
    let (mut valid, mut more) = (0, 0);
    for ((name, input, expected), (code, printed, parsed, as_json)) in cases.iter().zip(answers) {
        let rust = run(Command::new(env!("CARGO_BIN_EXE_concord")).args(["validate", "--registry"]).arg(&registry).arg("Checked").arg(input));
        assert_eq!(rust, (code, printed), "{name}: Rust, then Python");
        // For tools, `--format json`: the same object from both.
        let rust_json = Command::new(env!("CARGO_BIN_EXE_concord"))
            .args(["validate", "--format", "json", "--registry"])
            .arg(&registry)
            .arg("Checked")
            .arg(input)
            .output()
            .unwrap();
        assert_eq!(String::from_utf8(rust_json.stdout).unwrap(), as_json, "{name}: Rust, then Python, as JSON");
        let report: serde_json::Value = serde_json::from_str(&as_json).unwrap();
        assert_eq!(report.get("ok").is_some(), expected == "ok\n", "{name}: {as_json}");
        assert_eq!(&rust.1, expected, "{name}: what validate prints is fixtures/validation/notes/Checked/{name}.txt");
        let refused = expected != "ok\n";
        assert_eq!(rust.0, Some(if refused { 1 } else { 0 }), "{name}");
        // A document outside the strict profile is no value to parse; every other gets the same notes.
        if !expected.starts_with("error:") {
            assert_eq!(&parsed, expected, "{name}: SCHEMA.validate on the parsed value");
        }
        // Every refused value of the set is marked: no note may show one.
        assert!(!refused || !(expected.contains("SECRET") || expected.contains("987654")), "{name}: a note repeats the value:\n{expected}");
        valid += usize::from(!refused);
        more += usize::from(expected.ends_with("\n...\n"));
    }
    assert!(cases.len() >= 35 && valid >= 6 && more >= 1, "{} cases, {valid} valid, {more} with more than three notes", cases.len());
}

/// `concord roundtrip` on the set: each language reads exactly the inputs its
/// validator accepts (the harnesses compare `from_json` with `validate_json`
/// on every input, and report a difference as a failure).
#[test]
fn the_types_refuse_exactly_what_the_validator_refuses() {
    assert_eq!(roundtrip_passes("fixtures/validation/registry", "fixtures/validation/instances"), cases().len());
}

fn write_registry(dir: &Path, schema: &serde_json::Value) {
    let bytes = serde_json::to_vec_pretty(schema).unwrap();
    std::fs::write(dir.join("remote.schema.json"), &bytes).unwrap();
    let digest = concord_codegen::registry::digest(&bytes);
    let index = serde_json::json!({"format": 1, "schemas": [{"name": "Remote", "path": "remote.schema.json", "digest": digest}]});
    std::fs::write(dir.join("registry.json"), serde_json::to_vec(&index).unwrap()).unwrap();
}

/// A remote `$ref`, where the types read it and where only the engine does,
/// is refused when the bindings are generated, naming the file and the
/// pointer; a server listening at its address is never called, neither by
/// the generator nor by either runtime's engine given the same document.
#[test]
fn a_remote_ref_fails_closed_at_generation_and_is_never_fetched() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let remote = format!("http://{}/schema.json", listener.local_addr().unwrap());
    let registry = tempfile::tempdir().unwrap();
    for (place, schema) in [
        ("/properties/a/$ref", serde_json::json!({"type": "object", "properties": {"a": {"$ref": remote}}})),
        ("/properties/a/not", serde_json::json!({"type": "object", "properties": {"a": {"not": {"$ref": remote}}}})),
    ] {
        let mut schema = schema;
        schema["$schema"] = "https://json-schema.org/draft/2020-12/schema".into();
        write_registry(registry.path(), &schema);
        let refused = concord_codegen::Config::new().registry(registry.path()).generate().unwrap_err().to_string();
        assert!(refused.contains("remote.schema.json at /properties/a"), "{place}: {refused}");
        assert!(refused.contains("fetch") || refused.contains("cannot be"), "{place}: {refused}");
    }

    // The runtimes, handed the document all the same, refuse it unbuilt.
    let text = serde_json::json!({"$ref": remote}).to_string();
    let document: &'static concord_runtime::pinned::Document = Box::leak(Box::new(concord_runtime::pinned::Document {
        uri: "https://registry.concord.invalid/r.json",
        digest: "sha256:0",
        dialect: None,
        text: Box::leak(text.clone().into_boxed_str()),
    }));
    let schema = Box::leak(Box::new(concord_runtime::pinned::Schema::new(Box::leak(vec![document].into_boxed_slice()), "")));
    let refusal = schema.validate(&serde_json::json!(1)).unwrap_err().to_string();
    assert!(refusal.contains("cannot be checked"), "{refusal}");
    let script = "import sys, concord_runtime as c\ntry:\n    c.PinnedSchema([c.PinnedDocument('https://registry.concord.invalid/r.json', 'sha256:0', sys.argv[1])], '').validate(1)\nexcept ValueError as error:\n    print(error)\n";
    let output = Command::new(python()).args(["-c", script, &text]).env("PYTHONPATH", workspace().join("runtime/python")).output().unwrap();
    assert!(String::from_utf8_lossy(&output.stdout).contains("does not fetch"), "{}", text_of(&output));
    match listener.accept() {
        Err(error) if error.kind() == std::io::ErrorKind::WouldBlock => {}
        other => panic!("something connected to the remote schema's address: {other:?}"),
    }
}

fn text_of(output: &std::process::Output) -> String {
    text(output)
}
