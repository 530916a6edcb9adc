//! What the round-trip harness builds and runs against, wherever `concord`
//! was installed: the concord-runtime source this command carries (of its
//! own version, written below the work folder), and the concord_runtime
//! installed for the Python interpreter it is given.

use concord_codegen::{write_files, Errors, GeneratedFile};
use std::path::{Path, PathBuf};
use std::process::Command;

/// This command's version, which is the runtime's it carries.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Writes the carried concord-runtime below `work_dir` (once per version;
/// files that already match are left alone, so builds stay incremental)
/// and returns its folder.
pub fn write_runtime(work_dir: &Path) -> Result<PathBuf, Errors> {
    let dir = work_dir.join(format!("concord-runtime-{}", concord_runtime::VERSION));
    let mut files = vec![GeneratedFile { path: "Cargo.toml".into(), contents: manifest()? }];
    files.extend(concord_runtime::source::FILES.iter().map(|(path, text)| GeneratedFile { path: path.into(), contents: (*text).to_owned() }));
    write_files(&dir, &files)?;
    Ok(dir.canonicalize().unwrap_or(dir))
}

/// The carried runtime's manifest: its package, dependencies and features,
/// as its own manifest says them (a packaged one, or this workspace's,
/// which writes them out in full), and nothing that needs files it does not
/// carry (benches, dev-dependencies).
fn manifest() -> Result<String, Errors> {
    manifest_from(concord_runtime::source::MANIFEST)
}

fn manifest_from(original: &str) -> Result<String, Errors> {
    let failed = |why: String| {
        Errors::one(Path::new("concord-runtime/Cargo.toml"), "", format!("the carried runtime's manifest {why} (a bug in this build of concord)"))
    };
    let original: toml::Table = original.parse().map_err(|error| failed(format!("does not parse: {error}")))?;
    let mut package = toml::Table::new();
    if let Some(toml::Value::Table(from)) = original.get("package") {
        for key in ["name", "version", "edition", "rust-version", "license"] {
            if let Some(value) = from.get(key) {
                package.insert(key.to_owned(), value.clone());
            }
        }
    }
    package.insert("publish".to_owned(), toml::Value::Boolean(false));
    let mut manifest = toml::Table::new();
    manifest.insert("package".to_owned(), toml::Value::Table(package));
    for key in ["dependencies", "features"] {
        if let Some(value) = original.get(key) {
            manifest.insert(key.to_owned(), value.clone());
        }
    }
    // Its own workspace root: never a member of the folder it is written in.
    manifest.insert("workspace".to_owned(), toml::Value::Table(toml::Table::new()));
    let text = toml::to_string(&manifest).map_err(|error| failed(format!("cannot be written: {error}")))?;
    if text.contains("workspace = true") {
        return Err(failed("inherits from its workspace".to_owned()));
    }
    Ok(format!("# concord-runtime {VERSION}, as the concord command carries it.\n{text}"))
}

/// The lock file of the project `concord` runs in (the current folder or
/// one above it), if any: the harness builds with its versions, as the
/// project's own build does.
pub fn project_lock_file() -> Option<PathBuf> {
    let here = std::env::current_dir().ok()?;
    here.ancestors().map(|dir| dir.join("Cargo.lock")).find(|lock| lock.is_file())
}

/// Checks that `python` runs and imports a concord_runtime that serves
/// bindings of this version (its own `bindings_for`, which the generated
/// package calls too), before anything is built; else says what to install.
pub fn check_python(python: &Path) -> Result<(), Errors> {
    let script = format!("import concord_runtime; concord_runtime.bindings_for({VERSION:?})");
    let output = Command::new(python).args(["-c", &script]).output().map_err(|error| {
        Errors::one(python, "", format!("cannot run this Python ({error}): pass --python with an interpreter that has concord_runtime installed"))
    })?;
    if output.status.success() {
        return Ok(());
    }
    let stderr = String::from_utf8_lossy(&output.stderr);
    let last = stderr.trim_end().lines().last().unwrap_or("it exited with an error").to_owned();
    let message = if last.starts_with("ModuleNotFoundError") {
        format!(
            "this Python has no concord_runtime ({last}): install it with `{} -m pip install concord-runtime=={VERSION}`, or pass --python with an interpreter that has it",
            python.display()
        )
    } else {
        format!("this Python's concord_runtime cannot run the bindings of concord {VERSION}: {last}")
    };
    Err(Errors::one(python, "", message))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Installed from crates.io, the carried manifest is the one `cargo
    /// package` normalized (tables per dependency, targets listed): the
    /// harness's manifest keeps what it needs of it all the same.
    #[test]
    fn a_packaged_manifest_gives_the_same_dependencies() {
        let packaged = r#"
[package]
edition = "2021"
rust-version = "1.86"
name = "concord-runtime"
version = "0.1.0"
build = false
readme = "README.md"
license = "MIT OR Apache-2.0"

[features]
source = []
validate = ["dep:jsonschema", "dep:referencing"]

[lib]
name = "concord_runtime"
path = "src/lib.rs"

[[bench]]
name = "canonical"
path = "benches/canonical.rs"
harness = false

[dependencies.jsonschema]
version = "0.61.2"
optional = true
default-features = false

[dependencies.referencing]
version = "0.61.2"
optional = true
default-features = false

[dependencies.serde_json]
version = "1.0.154"
features = ["preserve_order", "float_roundtrip"]

[dev-dependencies.criterion]
version = "0.8"
"#;
        let written: toml::Table = manifest_from(packaged).unwrap().parse().unwrap();
        let ours: toml::Table = manifest().unwrap().parse().unwrap();
        assert_eq!(written["features"], ours["features"]);
        assert_eq!(written["dependencies"]["serde_json"], ours["dependencies"]["serde_json"]);
        assert_eq!(written["dependencies"]["jsonschema"], ours["dependencies"]["jsonschema"]);
        assert_eq!(written["package"]["version"].as_str(), Some(VERSION));
        for absent in ["bench", "dev-dependencies", "lib"] {
            assert!(!written.contains_key(absent), "{absent}");
        }
        assert!(manifest_from("[package]\nname = \"concord-runtime\"\n[dependencies]\nserde.workspace = true\n").is_err());
    }
}
