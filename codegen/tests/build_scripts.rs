//! `Config` as a build script uses it: the user's attributes on types and
//! fields, several registries in one crate, and the settings refused with
//! what is wrong (docs/build-scripts.md).

use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::Command;

const DRAFT: &str = "https://json-schema.org/draft/2020-12/schema";

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// A registry with one entry `name`: a growth point holding a closed
/// `Author`, pinned.
fn registry(dir: &Path, name: &str) {
    let schema = json!({
        "$schema": DRAFT, "type": "object", "x-growth-point": true,
        "properties": {"id": {"type": "string"}, "author": {"$ref": "#/$defs/Author"}, "tags": {"type": "array", "items": {"type": "string"}}},
        "required": ["id"],
        "$defs": {"Author": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"], "additionalProperties": false}}
    });
    let bytes = serde_json::to_vec_pretty(&schema).unwrap();
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("entry.schema.json"), &bytes).unwrap();
    let index = json!({"format": 1, "schemas": [{"name": name, "path": "entry.schema.json", "digest": concord_codegen::registry::digest(&bytes)}]});
    std::fs::write(dir.join("registry.json"), index.to_string()).unwrap();
}

/// The crate of docs/build-scripts.md: two registries in one module tree,
/// a derive on one type and an attribute on one field, built and linted as
/// a user's crate is (`cargo clippy -- -D warnings`), with a test that uses
/// the derive.
#[test]
fn attributes_and_two_registries_build_pass_clippy_and_work() {
    let krate = workspace().join("target/concord-build-scripts/consumer");
    let _ = std::fs::remove_dir_all(&krate);
    registry(&krate.join("schemas/orders"), "Order");
    registry(&krate.join("schemas/notes"), "Note");
    std::fs::create_dir_all(krate.join("src")).unwrap();
    let (codegen, runtime) = (workspace().join("codegen"), workspace().join("runtime/rust"));
    std::fs::write(
        krate.join("Cargo.toml"),
        format!(
            "[package]\nname = \"consumer\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n[dependencies]\nconcord-runtime = {{ path = {:?} }}\n\n\
             [build-dependencies]\nconcord-codegen = {{ path = {:?} }}\n\n[workspace]\n",
            runtime.display().to_string(),
            codegen.display().to_string()
        ),
    )
    .unwrap();
    std::fs::write(
        krate.join("build.rs"),
        r##"fn main() {
    let result = concord_codegen::Config::new()
        .type_attribute("Order.Author", "#[derive(Eq, Hash)]")
        .field_attribute("Note.Note.id", r#"#[doc(alias = "identifier")]"#)
        .compile_registries(&[("orders", "schemas/orders"), ("notes", "schemas/notes")]);
    if let Err(errors) = result {
        eprintln!("{errors}");
        std::process::exit(1);
    }
}
"##,
    )
    .unwrap();
    std::fs::write(
        krate.join("src/lib.rs"),
        r##"include!(concat!(env!("OUT_DIR"), "/concord_registries.rs"));

#[cfg(test)]
mod tests {
    use concord_runtime::Record;

    #[test]
    fn the_derive_is_there_and_both_registries_read() {
        let order = crate::orders::Order::from_json(br#"{"id":"o1","author":{"name":"Ada"}}"#).unwrap();
        let authors: std::collections::HashSet<crate::orders::order::Author> = order.author.into_iter().collect();
        assert_eq!(authors.len(), 1);
        let note = crate::notes::Note::from_json(br#"{"id":"n1","x":1}"#).unwrap();
        assert_eq!(note.to_json().unwrap(), br#"{"id":"n1","x":1}"#);
    }
}
"##,
    )
    .unwrap();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    // One cargo target for every crate a test builds as a user would (the disk is shared).
    let target = workspace().join("target/concord-consumers");
    for args in [&["clippy", "--quiet", "--all-targets", "--", "-D", "warnings"][..], &["test", "--quiet"]] {
        let output = Command::new(&cargo)
            .arg(args[0])
            .arg("--manifest-path")
            .arg(krate.join("Cargo.toml"))
            .args(&args[1..])
            .env("CARGO_TARGET_DIR", &target)
            .output()
            .unwrap();
        assert!(output.status.success(), "cargo {args:?}:\n{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    }
    // This crate's build output (the target is shared with other crates the tests build).
    let include = std::fs::read_dir(target.join("debug/build"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.file_name().is_some_and(|name| name.to_string_lossy().starts_with("consumer-")))
        .filter_map(|path| std::fs::read_to_string(path.join("out/concord_registries.rs")).ok())
        .next()
        .unwrap();
    assert!(include.contains("pub mod orders {\n    include!(\"orders.rs\");\n}"), "{include}");
}

/// Every setting that cannot be honoured is refused, all together, naming
/// the setting and why; nothing is written.
#[test]
fn settings_that_cannot_apply_are_refused_together() {
    let scratch = tempfile::tempdir().unwrap();
    registry(&scratch.path().join("registry"), "Order");
    let out = scratch.path().join("out");
    std::fs::create_dir_all(&out).unwrap();
    let errors = concord_codegen::Config::new()
        .registry(scratch.path().join("registry"))
        .out_dir(&out)
        .type_attribute("Order.Author", r#"#[serde(rename_all = "camelCase")]"#)
        .type_attribute("Order", "#[derive(serde::Serialize)]")
        .type_attribute("Order.Order", "#[derive(Clone)]")
        .type_attribute("Order.Nobody", "#[derive(Hash)]")
        .type_attribute(".", "derive(Hash)")
        .type_attribute("Order.Author", "#[derive(Hash")
        .field_attribute("Order.Order.missing", "#[doc(hidden)]")
        .field_attribute("Order.Order.id", "#[serde(default)]")
        .compile()
        .unwrap_err()
        .to_string();
    for expected in [
        r#"type_attribute("Order.Author"): #[serde(rename_all = "camelCase")] on Order.Author: concord writes each type's serialization itself, so `#[serde(...)]` has no effect"#,
        r#"type_attribute("Order"): #[derive(serde::Serialize)] on Order.Order: concord implements `Serialize` itself"#,
        r#"type_attribute("Order.Order"): #[derive(Clone)] on Order.Order: `Clone` is derived already"#,
        r#"type_attribute("Order.Nobody"): it names no type of the registry"#,
        r#"type_attribute("."): derive(Hash) is not a Rust attribute"#,
        r#"type_attribute("Order.Author"): #[derive(Hash is not a Rust attribute"#,
        r#"field_attribute("Order.Order.missing"): it names no field of the registry"#,
        r#"field_attribute("Order.Order.id"): #[serde(default)]: concord writes each type's serialization itself"#,
    ] {
        assert!(errors.contains(expected), "missing {expected:?} in:\n{errors}");
    }
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 0, "nothing is written");
    let errors = concord_codegen::Config::new().out_dir(&out).rust_file("../escape.rs").compile().unwrap_err().to_string();
    assert!(errors.contains(r#"rust_file: "../escape.rs" must be a file name, with no folder in it"#), "{errors}");
    let errors = concord_codegen::Config::new()
        .out_dir(&out)
        .compile_registries(&[("type", scratch.path().join("registry")), ("Orders", scratch.path().join("registry"))])
        .unwrap_err()
        .to_string();
    assert!(errors.contains(r#"module "type" must be a snake_case Rust identifier"#) && errors.contains(r#"module "Orders" must be"#), "{errors}");
}

/// The generated Rust of every fixture registry (constructs, quirks with
/// the texts linters flag, dialects, validation) compiled into one user's
/// crate through `compile_registries` and linted as users lint theirs:
/// `cargo clippy -- -D warnings` (large union branches, tabs and lazy
/// Markdown continuations in docs, names of every kind).
#[test]
fn every_fixture_registry_passes_clippy_in_a_users_crate() {
    let krate = workspace().join("target/concord-build-scripts/fixtures");
    let _ = std::fs::remove_dir_all(&krate);
    std::fs::create_dir_all(krate.join("src")).unwrap();
    let (codegen, runtime) = (workspace().join("codegen"), workspace().join("runtime/rust"));
    std::fs::write(
        krate.join("Cargo.toml"),
        format!(
            "[package]\nname = \"fixtures\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n[dependencies]\nconcord-runtime = {{ path = {:?}, features = [\"validate\"] }}\n\n\
             [build-dependencies]\nconcord-codegen = {{ path = {:?} }}\n\n[workspace]\n",
            runtime.display().to_string(),
            codegen.display().to_string()
        ),
    )
    .unwrap();
    let registries: Vec<String> = ["constructs", "quirks", "dialects", "validation"]
        .iter()
        .map(|name| format!("({name:?}, {:?})", workspace().join("fixtures").join(name).join("registry").display().to_string()))
        .collect();
    std::fs::write(
        krate.join("build.rs"),
        format!(
            "fn main() {{\n    if let Err(errors) = concord_codegen::Config::new().compile_registries(&[{}]) {{\n        eprintln!(\"{{errors}}\");\n        std::process::exit(1);\n    }}\n}}\n",
            registries.join(", ")
        ),
    )
    .unwrap();
    std::fs::write(krate.join("src/lib.rs"), "include!(concat!(env!(\"OUT_DIR\"), \"/concord_registries.rs\"));\n").unwrap();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let output = Command::new(&cargo)
        .args(["clippy", "--quiet", "--manifest-path"])
        .arg(krate.join("Cargo.toml"))
        .args(["--", "-D", "warnings"])
        .env("CARGO_TARGET_DIR", workspace().join("target/concord-consumers"))
        .output()
        .unwrap();
    assert!(output.status.success(), "cargo clippy:\n{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
}
