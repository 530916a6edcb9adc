//! concord's generator: reads a digest-pinned registry of JSON Schema files
//! of any dialect (draft-04, draft-06, draft-07, 2019-09, 2020-12; each read
//! as its `$schema` or the registry says) into one model, checks it, and
//! writes Rust serde types and Python pydantic models from that same model,
//! with the plan each runtime reads (`plan`). What no type expresses is
//! checked by the assertion engine against the pinned text, in both
//! languages alike.
//!
//! The pipeline: `registry` (the index and its pins) → `schema` (each
//! document into the `model`, by the keyword table in `vocabulary`) →
//! `check` → `emit::rust`, `emit::python` and `plan`, each reading the
//! finished model only (docs/architecture.md).
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
pub mod naming;
pub mod output;
pub mod plan;
pub mod registry;
pub mod schema;
pub mod uri;
pub mod vocabulary;

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
    typescript_package: String,
    rust_file: String,
    include_file: String,
    attributes: emit::rust::Attributes,
    languages: Vec<&'static Language>,
}

/// A language concord writes bindings in: an entry of [`LANGUAGES`], the
/// list that [`Config::generate`], `concord generate` and `concord check`
/// go through. A new language is an entry here and its emitter's folder.
#[derive(Debug)]
pub struct Language {
    /// Its name on the command line (`--languages`), and its folder below the output folder.
    pub name: &'static str,
    /// Refuses settings whose files this language could not use (a package name it cannot import).
    check: fn(&Config) -> Result<(), Errors>,
    /// Its files of a loaded model, their paths below the output folder.
    files: fn(&Config, &model::Model) -> Vec<GeneratedFile>,
}

/// Every language concord writes, in the order files are written and reported.
pub const LANGUAGES: &[Language] = &[
    Language {
        name: "rust",
        check: |_| Ok(()),
        files: |_, model| vec![GeneratedFile { path: Path::new("rust").join(RUST_FILE), contents: emit::rust::module(model) }],
    },
    Language {
        name: "python",
        check: Config::check_python_package,
        files: |config, model| {
            emit::python::package(model)
                .into_iter()
                .map(|(name, contents)| GeneratedFile { path: Path::new("python").join(&config.python_package).join(name), contents })
                .collect()
        },
    },
    Language {
        name: "typescript",
        check: Config::check_typescript_package,
        files: |config, model| {
            // A scoped name (`@team/contracts`) is a folder per part, as in node_modules.
            let folder = config.typescript_package.split('/').fold(Path::new("typescript").to_path_buf(), |path, part| path.join(part));
            emit::typescript::package(model, &config.typescript_package)
                .into_iter()
                .map(|(name, contents)| GeneratedFile { path: folder.join(name), contents })
                .collect()
        },
    },
];

impl Language {
    /// The languages a comma-separated list names (`rust,typescript`), in
    /// [`LANGUAGES`]' order, or what is wrong with the list.
    pub fn parse_list(list: &str) -> Result<Vec<&'static Language>, String> {
        let names: Vec<&str> = list.split(',').map(str::trim).filter(|name| !name.is_empty()).collect();
        let known = || LANGUAGES.iter().map(|language| language.name).collect::<Vec<_>>().join(", ");
        if let Some(unknown) = names.iter().find(|name| !LANGUAGES.iter().any(|language| language.name == **name)) {
            return Err(format!("{unknown:?} is not a language concord writes: {}", known()));
        }
        if names.is_empty() {
            return Err(format!("no language named: list one or more of {}", known()));
        }
        Ok(LANGUAGES.iter().filter(|language| names.contains(&language.name)).collect())
    }
}

impl Default for Config {
    fn default() -> Self {
        Config {
            registry: PathBuf::from("registry"),
            out_dir: None,
            python_package: PYTHON_PACKAGE.to_owned(),
            typescript_package: emit::typescript::PACKAGE.to_owned(),
            rust_file: RUST_FILE.to_owned(),
            include_file: INCLUDE_FILE.to_owned(),
            attributes: emit::rust::Attributes::default(),
            languages: LANGUAGES.iter().collect(),
        }
    }
}

/// The include file [`Config::compile_registries`] writes by default.
pub const INCLUDE_FILE: &str = "concord_registries.rs";

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

    /// The npm package name of the TypeScript bindings (default:
    /// `concord-registry`), written under `<out>/typescript/<name>/`.
    pub fn typescript_package(&mut self, name: impl Into<String>) -> &mut Self {
        self.typescript_package = name.into();
        self
    }

    /// The languages [`generate`](Self::generate) and [`files`](Self::files)
    /// write (default: every one of [`LANGUAGES`]).
    pub fn languages(&mut self, languages: &[&'static Language]) -> &mut Self {
        self.languages = languages.to_vec();
        self
    }

    /// The file [`compile`](Self::compile) writes in the output folder
    /// (default: `concord_registry.rs`): two registries in one crate, each
    /// compiled by a `Config` of its own, need a file each.
    pub fn rust_file(&mut self, name: impl Into<String>) -> &mut Self {
        self.rust_file = name.into();
        self
    }

    /// The file [`compile_registries`](Self::compile_registries) writes,
    /// declaring a module per registry (default: `concord_registries.rs`).
    pub fn include_file(&mut self, name: impl Into<String>) -> &mut Self {
        self.include_file = name.into();
        self
    }

    /// Adds attributes to the generated types `path` names (as
    /// `prost_build::Config::type_attribute`): `.` every type, `Entry` every
    /// type of a registry entry, `Entry.Type` one. For derives concord does
    /// not write (`#[derive(Eq, Hash)]`), `#[non_exhaustive]`, lints. concord
    /// writes each type's (de)serialization itself, so `#[serde(...)]` and a
    /// derived `Serialize` or `Deserialize` are refused, as is a derive of
    /// what concord derives already (docs/build-scripts.md).
    pub fn type_attribute(&mut self, path: impl Into<String>, attribute: impl Into<String>) -> &mut Self {
        self.attributes.types.push((path.into(), attribute.into()));
        self
    }

    /// Adds attributes to the generated field of the property `path` names:
    /// `Entry.Type.property`, by the property's JSON name.
    pub fn field_attribute(&mut self, path: impl Into<String>, attribute: impl Into<String>) -> &mut Self {
        self.attributes.fields.push((path.into(), attribute.into()));
        self
    }

    /// For build scripts: verifies the pins and writes the Rust bindings to
    /// `OUT_DIR/concord_registry.rs` (see [`rust_file`](Self::rust_file)),
    /// and tells cargo to rerun when any registry file changes.
    pub fn compile(&self) -> Result<(), Errors> {
        for line in self.rerun_directives() {
            println!("{line}");
        }
        let out_dir = self.output_folder()?;
        let file = out_dir.join(checked_file_name(&self.rust_file, "rust_file")?);
        let model = load(&self.registry)?;
        let (code, matched) = emit::rust::module_with(&model, &self.attributes);
        let mut errors = self.attributes.unmatched(&[matched]);
        let code = match code {
            Ok(code) => errors.finish(code)?,
            Err(more) => {
                errors.extend(more);
                return Err(errors);
            }
        };
        output::write_atomically(&file, code.as_bytes()).map_err(|e| Errors::one(&file, "", e))
    }

    /// Several registries in one crate, in one module tree: each registry
    /// `(module, folder)` compiled into `<module>.rs`, and an include file
    /// (see [`include_file`](Self::include_file)) declaring `pub mod
    /// <module>` for each, to `include!` once. Every registry's problems are
    /// reported together; nothing is written while there is one.
    pub fn compile_registries<P: AsRef<Path>>(&self, registries: &[(&str, P)]) -> Result<(), Errors> {
        let out_dir = self.output_folder()?;
        let include = checked_file_name(&self.include_file, "include_file")?;
        let mut errors = Errors::default();
        let mut written = Vec::new();
        let mut matches = Vec::new();
        for (module, dir) in registries {
            let config = Config { registry: dir.as_ref().to_path_buf(), ..self.clone() };
            for line in config.rerun_directives() {
                println!("{line}");
            }
            if !is_module_name(module) || written.iter().any(|(other, _)| other == module) {
                errors.push(dir.as_ref(), "", format!("module {:?} must be a snake_case Rust identifier, not a keyword, and named once", error::shown(module)));
                continue;
            }
            let model = match load(dir.as_ref()) {
                Ok(model) => model,
                Err(more) => {
                    errors.extend(more);
                    continue;
                }
            };
            let (code, matched) = emit::rust::module_with(&model, &self.attributes);
            matches.push(matched);
            match code {
                Ok(code) => written.push((module.to_string(), code)),
                Err(more) => errors.extend(more),
            }
        }
        // A registry that did not load cannot say what its types are called.
        if matches.len() == registries.len() {
            errors.extend(self.attributes.unmatched(&matches));
        }
        errors.finish(())?;
        let mut modules = format!("// {}\n", emit::HEADER);
        for (module, code) in &written {
            let file = out_dir.join(format!("{module}.rs"));
            output::write_atomically(&file, code.as_bytes()).map_err(|e| Errors::one(&file, "", e))?;
            // A registry named as one of its entries (`quirks::quirks`) is what the user chose.
            let inception = if code.contains(&format!("\npub mod {module} {{")) { "#[allow(clippy::module_inception)]\n" } else { "" };
            modules.push_str(&format!("\n{inception}pub mod {module} {{\n    include!(\"{module}.rs\");\n}}\n"));
        }
        let file = out_dir.join(include);
        output::write_atomically(&file, modules.as_bytes()).map_err(|e| Errors::one(&file, "", e))
    }

    fn output_folder(&self) -> Result<PathBuf, Errors> {
        match &self.out_dir {
            Some(dir) => Ok(dir.clone()),
            None => std::env::var_os("OUT_DIR")
                .map(PathBuf::from)
                .ok_or_else(|| Errors::one(&self.registry, "", "OUT_DIR is not set: call compile() from a build script, or set out_dir()")),
        }
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

    /// Every file of `concord generate`, in memory: `rust/concord_registry.rs`,
    /// `python/<package>/...` and `typescript/<package>/...`, of the
    /// [`languages`](Self::languages) chosen.
    pub fn generate(&self) -> Result<Vec<GeneratedFile>, Errors> {
        self.check_languages()?;
        let model = load(&self.registry)?;
        Ok(self.files(&model))
    }

    /// Refuses settings the chosen languages' files could not use, every problem at once.
    pub fn check_languages(&self) -> Result<(), Errors> {
        let mut errors = Errors::default();
        for language in &self.languages {
            if let Err(more) = (language.check)(self) {
                errors.extend(more);
            }
        }
        errors.finish(())
    }

    /// The Python package name must be one Python imports: a snake_case
    /// identifier, no keyword.
    pub fn check_python_package(&self) -> Result<(), Errors> {
        if is_module_name(&self.python_package) {
            return Ok(());
        }
        Err(Errors::one(
            Path::new("python_package"),
            "",
            format!("{:?} must be a snake_case identifier that is no keyword, for Python to import it", error::shown(&self.python_package)),
        ))
    }

    /// The npm package name must be one npm accepts: lowercase and URL-safe,
    /// with an optional `@scope/`.
    pub fn check_typescript_package(&self) -> Result<(), Errors> {
        if emit::typescript::is_package_name(&self.typescript_package) {
            return Ok(());
        }
        Err(Errors::one(
            Path::new("typescript_package"),
            "",
            format!(
                "{:?} must be an npm package name: lowercase letters, digits, `-`, `.`, `_`, `~`, with an optional `@scope/`",
                error::shown(&self.typescript_package)
            ),
        ))
    }

    /// Every generated file of a loaded model (see [`load`]), of the
    /// [`languages`](Self::languages) chosen, without the Rust attributes
    /// (those are for build scripts).
    pub fn files(&self, model: &model::Model) -> Vec<GeneratedFile> {
        self.languages.iter().flat_map(|language| (language.files)(self, model)).collect()
    }

    pub fn registry_dir(&self) -> &Path {
        &self.registry
    }

    pub fn package_name(&self) -> &str {
        &self.python_package
    }
}

/// A file name for the output folder: a plain name, no folder in it.
fn checked_file_name<'a>(name: &'a str, setting: &str) -> Result<&'a str, Errors> {
    let plain = !name.is_empty() && !name.contains(['/', '\\', '\0']) && name != "." && name != "..";
    if plain {
        Ok(name)
    } else {
        Err(Errors::one(Path::new(setting), "", format!("{:?} must be a file name, with no folder in it", error::shown(name))))
    }
}

/// Whether `name` may name a module of generated code in both languages.
pub fn is_module_name(name: &str) -> bool {
    naming::words::snake(name) == name && naming::module_name(name) == name
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
            if let Err(error) = output::write_atomically(&target, file.contents.as_bytes()) {
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
