//! One version for everything a user installs (docs/versions.md): the
//! crates, the wheels, the Python runtime, and what generated code names;
//! and bindings written for another runtime fail to compile saying so.

use std::process::Command;

mod common;
use common::*;

fn read(path: &str) -> String {
    std::fs::read_to_string(workspace().join(path)).unwrap()
}

/// The value of `key = "..."` in the first line that has it.
fn field(text: &str, key: &str) -> String {
    let line = text.lines().find(|line| line.starts_with(&format!("{key} = \""))).unwrap_or_else(|| panic!("no {key}"));
    line.split('"').nth(1).unwrap().to_owned()
}

#[test]
fn every_package_and_every_generated_file_names_one_version() {
    let version = field(&read("Cargo.toml"), "version");
    assert_eq!(version, env!("CARGO_PKG_VERSION"));
    assert_eq!(field(&read("runtime/rust/Cargo.toml"), "version"), version, "runtime/rust/Cargo.toml");
    assert_eq!(field(&read("runtime/python/pyproject.toml"), "version"), version, "runtime/python/pyproject.toml");
    assert_eq!(field(&read("cli/pyproject.toml"), "version"), version, "cli/pyproject.toml");
    assert_eq!(field(&read("runtime/python/concord_runtime/__init__.py"), "__version__"), version, "concord_runtime.__version__");
    // The crates a user depends on pin each other exactly.
    for name in ["concord-cli", "concord-codegen", "concord-runtime"] {
        assert!(read("Cargo.toml").contains(&format!("{name} = {{ path = ")) && read("Cargo.toml").contains(&format!("version = \"={version}\" }}")), "{name}");
    }
    // The runtime serves its own version, in both languages.
    assert!(read("runtime/rust/src/lib.rs").contains(&format!("(\"{version}\") => {{}};")), "bindings_for! serves {version}");
    assert!(read("runtime/python/concord_runtime/__init__.py").contains(&format!("_SERVES = (\"{version}\",")), "_SERVES holds {version}");
    // And the bindings say which they were written for.
    assert!(read("generated/rust/concord_registry.rs").contains(&format!("::concord_runtime::bindings_for!(\"{version}\");")));
    assert!(read("generated/python/concord_registry/_runtime.py").contains(&format!("concord_runtime.bindings_for(\"{version}\")")));
    // The changelog has an entry for it.
    assert!(read("CHANGELOG.md").contains(&format!("## {version}")), "CHANGELOG.md has no section for {version}");
}

/// Bindings of another concord, or needing a feature that is off, fail to
/// compile at their first line, with a message that says what goes with what.
#[test]
fn bindings_for_another_runtime_fail_to_compile_saying_which_versions_go_together() {
    let work = workspace().join("target/concord-roundtrip");
    let runtime = concord_cli::harness::write_runtime(&work).unwrap();
    let krate = work.join("concord-version-mismatch");
    std::fs::create_dir_all(krate.join("src")).unwrap();
    std::fs::write(
        krate.join("Cargo.toml"),
        format!(
            "[package]\nname = \"mismatch\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\n[dependencies]\nconcord-runtime = {{ path = {:?} }}\n\n[workspace]\n",
            runtime.display().to_string()
        ),
    )
    .unwrap();
    std::fs::write(krate.join("src/lib.rs"), "::concord_runtime::bindings_for!(\"0.0.9\");\n::concord_runtime::requires_feature!(\"validate\");\n").unwrap();
    let output = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["check", "--quiet", "--manifest-path"])
        .arg(krate.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(work.join("target"))
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    let version = env!("CARGO_PKG_VERSION");
    assert!(
        stderr
            .contains(&format!("these bindings were written by concord 0.0.9, and this concord-runtime ({version}) serves bindings of concord {version} only")),
        "{stderr}"
    );
    assert!(stderr.contains("turn on concord-runtime's `validate` feature"), "{stderr}");
}
