//! concord's generator: reads a digest-pinned registry of JSON Schema
//! (Draft 2020-12) files into one model, checks it, and writes Rust serde
//! types and Python pydantic models from that same model.
//!
//! This crate is what a build script compiles, and nothing more: the
//! `concord` command (crate `concord-cli`) adds the assertion engine's check,
//! pinning, `diff` and the round-trip suite on top of it (docs/crates.md).
//!
//! From a build script (`build.rs`), the prost-build way:
//!
//! ```no_run
//! if let Err(errors) = concord_codegen::Config::new().registry("registry").compile() {
//!     eprintln!("{errors}");
//!     std::process::exit(1);
//! }
//! ```
//! and in the crate: `include!(concat!(env!("OUT_DIR"), "/concord_registry.rs"));`

pub mod check;
pub mod emit;
pub mod error;
pub mod model;
pub mod names;
pub mod registry;
pub mod schema;

pub use error::{Diagnostic, Errors};

use std::path::{Path, PathBuf};

/// The Rust file's name, in `OUT_DIR` and under `<out>/rust/`.
pub const RUST_FILE: &str = "concord_registry.rs";
/// The default Python package name, under `<out>/python/`.
pub const PYTHON_PACKAGE: &str = "concord_registry";

/// Reads, verifies and checks a registry: the model both emitters read.
pub fn load(registry_dir: &Path) -> Result<model::Model, Errors> {
    let registry = registry::load(registry_dir)?;
    let model = schema::read(&registry)?;
    check::check(&model)?;
    Ok(model)
}

/// One generated file: where it goes below the output folder, and its bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeneratedFile {
    pub path: PathBuf,
    pub contents: String,
}

/// Generation settings, in the style of `prost_build::Config`.
#[derive(Clone, Debug)]
pub struct Config {
    registry: PathBuf,
    out_dir: Option<PathBuf>,
    python_package: String,
}

impl Default for Config {
    fn default() -> Self {
        Config { registry: PathBuf::from("registry"), out_dir: None, python_package: PYTHON_PACKAGE.to_owned() }
    }
}

impl Config {
    pub fn new() -> Self {
        Self::default()
    }

    /// The registry folder, holding `registry.json` (default: `registry`).
    pub fn registry(&mut self, dir: impl Into<PathBuf>) -> &mut Self {
        self.registry = dir.into();
        self
    }

    /// Where [`compile`](Self::compile) writes (default: `$OUT_DIR`).
    pub fn out_dir(&mut self, dir: impl Into<PathBuf>) -> &mut Self {
        self.out_dir = Some(dir.into());
        self
    }

    /// The Python package name (default: `concord_registry`).
    pub fn python_package(&mut self, name: impl Into<String>) -> &mut Self {
        self.python_package = name.into();
        self
    }

    /// For build scripts: verifies the pins and writes the Rust bindings to
    /// `OUT_DIR/concord_registry.rs`, and tells cargo to rerun when any
    /// registry file changes.
    pub fn compile(&self) -> Result<(), Errors> {
        for line in self.rerun_directives() {
            println!("{line}");
        }
        let out_dir = match &self.out_dir {
            Some(dir) => dir.clone(),
            None => std::env::var_os("OUT_DIR")
                .map(PathBuf::from)
                .ok_or_else(|| Errors::one(&self.registry, "", "OUT_DIR is not set: call compile() from a build script, or set out_dir()"))?,
        };
        let model = load(&self.registry)?;
        let file = out_dir.join(RUST_FILE);
        registry::write_atomically(&file, emit::rust::module(&model).as_bytes()).map_err(|e| Errors::one(&file, "", e))
    }

    /// The `cargo:rerun-if-changed` lines [`compile`](Self::compile)
    /// prints: the registry folder, its index and every file in it.
    #[doc(hidden)]
    pub fn rerun_directives(&self) -> Vec<String> {
        let index = self.registry.join(registry::INDEX);
        let mut lines = vec![format!("cargo:rerun-if-changed={}", self.registry.display()), format!("cargo:rerun-if-changed={}", index.display())];
        if let Ok(entries) = std::fs::read_dir(&self.registry) {
            let mut files: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
            files.sort();
            for file in files.iter().filter(|file| **file != index) {
                // A file name with a line break would start a cargo directive
                // of its own (`cargo:rustc-link-arg=...`), and one that is not
                // UTF-8 cannot be named exactly: the folder's line covers them.
                match file.to_str() {
                    Some(name) if !name.contains(['\n', '\r']) => lines.push(format!("cargo:rerun-if-changed={name}")),
                    _ => {}
                }
            }
        }
        lines
    }

    /// Every file of `concord generate`, in memory: `rust/concord_registry.rs`
    /// and `python/<package>/...`.
    pub fn generate(&self) -> Result<Vec<GeneratedFile>, Errors> {
        let model = load(&self.registry)?;
        Ok(self.files(&model))
    }

    /// Every generated file of a loaded model (see [`load`]).
    pub fn files(&self, model: &model::Model) -> Vec<GeneratedFile> {
        let mut files = vec![GeneratedFile { path: Path::new("rust").join(RUST_FILE), contents: emit::rust::module(model) }];
        for (name, contents) in emit::python::package(model) {
            files.push(GeneratedFile { path: Path::new("python").join(&self.python_package).join(name), contents });
        }
        files
    }

    pub fn registry_dir(&self) -> &Path {
        &self.registry
    }

    pub fn package_name(&self) -> &str {
        &self.python_package
    }
}

/// Writes generated files below `out`, each one atomically.
pub fn write_files(out: &Path, files: &[GeneratedFile]) -> Result<(), Errors> {
    let mut errors = Errors::default();
    for file in files {
        let target = out.join(&file.path);
        if let Some(parent) = target.parent() {
            if let Err(error) = std::fs::create_dir_all(parent) {
                errors.push(parent, "", format!("cannot create folder: {error}"));
                continue;
            }
        }
        let unchanged = std::fs::read(&target).is_ok_and(|bytes| bytes == file.contents.as_bytes());
        if !unchanged {
            if let Err(error) = registry::write_atomically(&target, file.contents.as_bytes()) {
                errors.push(&target, "", error);
            }
        }
    }
    errors.finish(())
}

/// The generated files under `out` that are missing or differ.
pub fn stale_files(out: &Path, files: &[GeneratedFile]) -> Vec<PathBuf> {
    files
        .iter()
        .map(|file| out.join(&file.path))
        .zip(files)
        .filter(|(target, file)| std::fs::read(target).map_or(true, |bytes| bytes != file.contents.as_bytes()))
        .map(|(target, _)| target)
        .collect()
}
