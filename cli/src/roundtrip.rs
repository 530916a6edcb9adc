//! `concord roundtrip`: generates a registry's bindings into a scratch
//! folder, builds them in both languages, and runs every fixture through
//! both. A fixture passes when Rust and Python agree with each other and with
//! the expectation beside the fixture.
//!
//! Fixtures: `<fixtures>/<RootName>/<case>.json` holds input bytes;
//! `<case>.out.json` the expected output when it differs from the input;
//! `<case>.reject` marks an input both languages must refuse. A `.reject`
//! file that is not empty holds text both refusals must contain (an error
//! kind such as `duplicate-key`, or a location such as `at "/session"`).
//! `<case>.agree` asks only that both languages agree, for generated inputs:
//! both write the same bytes and digest, or both refuse the same way (the
//! same strict-profile error; a schema error of the same kind); an `.agree`
//! file holding `pointer` asks for the same pointer too (an input with one
//! problem, as `concord fuzz` writes its findings). `<case>.accept`
//! asks that both languages read the input and write the same bytes and
//! digest, whatever those bytes are (they may differ from the input, e.g.
//! when unknown keys are dropped): for inputs known to be valid, such as the
//! JSON-Schema-Test-Suite's and the corpus's instances.
//!
//! A fixture folder must name a registry entry. A folder named after an
//! entry that has no root type of that name (a `$defs`-only document, say)
//! is skipped and counted in the report; a folder that names no entry is an
//! error (a typo must not pass as a skipped folder).
//!
//! Scale: one Rust binary and one Python process ([`Worker`]s) answer every
//! fixture through pipes. When either harness crashes on a fixture, that
//! fixture is reported as a crash in that language and the harness is
//! restarted on the fixtures after it; a harness that keeps dying before
//! any answer (a Python package that does not import) ends the run.

use concord_codegen::error::Errors;
use concord_codegen::model::Model;
use concord_codegen::{emit, write_files, Config, GeneratedFile};
use serde_json::Value;
use std::collections::HashSet;
use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

const HARNESS: &str = "concord-roundtrip";

/// `$CONCORD_PYTHON`, else `.venv/bin/python` when it exists (the project's
/// virtual environment, where concord_runtime is installed), else `python3`.
pub fn default_python() -> PathBuf {
    if let Some(python) = std::env::var_os("CONCORD_PYTHON") {
        return PathBuf::from(python);
    }
    let venv = Path::new(".venv/bin/python");
    if venv.exists() {
        venv.to_path_buf()
    } else {
        PathBuf::from("python3")
    }
}

/// Where the harness is built unless told: `concord-roundtrip` in cargo's
/// target folder (`$CARGO_TARGET_DIR`, else `target`), as cargo would.
pub fn default_work_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| PathBuf::from("target"), PathBuf::from).join("concord-roundtrip")
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The record was read and written back; `digest` is its record digest,
    /// or why it has none (a float), which both languages must also agree on.
    Written {
        output: String,
        digest: String,
    },
    Refused(String),
    /// The harness failed on this input (an exception that is not a
    /// refusal, a panic, a dead process): never meets an expectation.
    Crashed(String),
    /// The record type and its pinned schema's `validate` gave different
    /// verdicts on the input, in one language: never meets an expectation.
    Disagreed(String),
}

#[derive(Clone, Debug)]
pub struct Case {
    /// `<RootName>/<case>.json`
    pub name: String,
    /// The input file, whose line a strict-profile refusal shows; none for cases made in memory.
    pub input: Option<PathBuf>,
    pub expected: Expected,
    pub rust: Outcome,
    pub python: Outcome,
    /// TypeScript's outcome, when the run includes it ([`Languages`]).
    pub typescript: Option<Outcome>,
}

/// The languages a run compares: Rust, the reference, and Python always;
/// TypeScript unless left out (`--languages rust,python`), for a machine
/// without Node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Languages {
    pub typescript: bool,
}

impl Default for Languages {
    fn default() -> Self {
        Languages { typescript: true }
    }
}

impl Languages {
    /// `rust,python,typescript`, or a part of it that keeps Rust and Python.
    pub fn parse(list: &str) -> Result<Languages, String> {
        let mut named = Vec::new();
        for language in list.split(',').map(str::trim).filter(|language| !language.is_empty()) {
            match language {
                "rust" | "python" | "typescript" => named.push(language),
                other => return Err(format!("{other:?} is not a language concord binds: rust, python or typescript")),
            }
        }
        if !named.contains(&"rust") || !named.contains(&"python") {
            return Err("rust and python always run (Rust is the reference, Python the first language compared with it): list them, and typescript if it should run too".to_owned());
        }
        Ok(Languages { typescript: named.contains(&"typescript") })
    }
}

/// What a fixture expects of both languages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expected {
    /// These output bytes.
    Output(Vec<u8>),
    /// A refusal whose message contains this text (empty: any refusal).
    Refusal(String),
    /// Whatever the verdict, the same in both languages (`<case>.agree`):
    /// for generated inputs whose right answer nobody wrote down. With
    /// `pointer`, a refusal's pointer must be the same too.
    Agreement { pointer: bool },
    /// Read by both, written back as the same bytes (`<case>.accept`),
    /// whatever those bytes are: for inputs known to be valid.
    Acceptance,
}

impl Case {
    /// The outcomes of every language that ran, Rust's first.
    pub fn outcomes(&self) -> Vec<&Outcome> {
        [Some(&self.rust), Some(&self.python), self.typescript.as_ref()].into_iter().flatten().collect()
    }

    pub fn passed(&self) -> bool {
        let outcomes = self.outcomes();
        if let Expected::Agreement { pointer } = self.expected {
            return outcomes.iter().all(|other| agree(&self.rust, other, pointer));
        }
        let meets = |outcome: &Outcome| match (&self.expected, outcome) {
            (Expected::Output(expected), Outcome::Written { output, .. }) => output.as_bytes() == expected.as_slice(),
            (Expected::Refusal(text), Outcome::Refused(why)) => why.contains(text.as_str()),
            (Expected::Acceptance, Outcome::Written { output, .. }) => {
                matches!(&self.rust, Outcome::Written { output: other, .. } if other == output)
            }
            _ => false,
        };
        let same_digest = outcomes.iter().all(|outcome| match (&self.rust, outcome) {
            (Outcome::Written { digest: rust, .. }, Outcome::Written { digest: other, .. }) => rust == other,
            _ => true,
        });
        outcomes.iter().all(|outcome| meets(outcome)) && same_digest
    }
}

#[derive(Clone, Debug, Default)]
pub struct Report {
    pub cases: Vec<Case>,
    /// Fixture folders not run: `(folder, why)`.
    pub skipped: Skipped,
}

impl Report {
    pub fn failed(&self) -> usize {
        self.cases.iter().filter(|case| !case.passed()).count()
    }
}

impl fmt::Display for Case {
    /// What was expected and what each language did, on four lines or more.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let show = |outcome: &Outcome| match outcome {
            Outcome::Written { output, digest } => format!("wrote   {output}\n            digest  {digest}"),
            Outcome::Refused(why) => format!("refused {why}"),
            Outcome::Crashed(why) => format!("CRASHED {why}"),
            Outcome::Disagreed(why) => format!("TYPES AND VALIDATOR DISAGREE {why}"),
        };
        writeln!(f, "{} {}", if self.passed() { "PASS" } else { "FAIL" }, self.name)?;
        match &self.expected {
            Expected::Refusal(text) if text.is_empty() => writeln!(f, "  expected: refused")?,
            Expected::Refusal(text) => writeln!(f, "  expected: refused ...{text}...")?,
            Expected::Output(bytes) => writeln!(f, "  expected: wrote   {}", String::from_utf8_lossy(bytes))?,
            Expected::Agreement { pointer: false } => writeln!(f, "  expected: the same verdict and bytes in every language")?,
            Expected::Agreement { pointer: true } => writeln!(f, "  expected: the same verdict and bytes in every language, a refusal at the same pointer")?,
            Expected::Acceptance => writeln!(f, "  expected: read by every language, the same bytes written")?,
        }
        writeln!(f, "  rust:     {}", show(&self.rust))?;
        writeln!(f, "  python:   {}", show(&self.python))?;
        if let Some(typescript) = &self.typescript {
            writeln!(f, "  typescript: {}", show(typescript))?;
        }
        // A strict-profile refusal (`<kind> at byte N: ...`): where it is in the input.
        let offset = self.outcomes().into_iter().find_map(|outcome| match outcome {
            Outcome::Refused(why) => strict_offset(why),
            _ => None,
        });
        if let (Some(offset), Some(input)) = (offset, &self.input) {
            if let Ok(bytes) = std::fs::read(input) {
                let name = concord_codegen::error::shown(&input.display().to_string());
                for line in concord_runtime::location::at_offset(&bytes, offset, &name).lines() {
                    writeln!(f, "  {line}")?;
                }
            }
        }
        if let Expected::Output(expected) = &self.expected {
            let spaced = self
                .outcomes()
                .into_iter()
                .any(|outcome| matches!(outcome, Outcome::Written { output, .. } if differ_only_in_white_space(output.as_bytes(), expected)));
            if spaced {
                writeln!(f, "  note:     the output differs from the expected bytes only in white space: concord writes compact JSON, and the expected file holds those bytes exactly (one final line break aside)")?;
            }
        }
        Ok(())
    }
}

/// The byte offset of a strict-profile error as both runtimes word it
/// (`duplicate-key at byte 23: duplicate key "a"`).
fn strict_offset(why: &str) -> Option<usize> {
    let (_, rest) = why.split_once(" at byte ")?;
    let digits: &str = &rest[..rest.find(|c: char| !c.is_ascii_digit())?];
    rest[digits.len()..].starts_with(':').then(|| digits.parse().ok()).flatten()
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for case in self.cases.iter().filter(|case| !case.passed()) {
            write!(f, "{case}")?;
        }
        for (folder, why) in &self.skipped {
            writeln!(f, "skipped {folder}: {why}")?;
        }
        let failed = self.failed();
        writeln!(f, "{} passed, {} failed", self.cases.len() - failed, failed)
    }
}

/// One input and what both languages must make of it.
#[derive(Clone, Debug)]
pub struct Fixture {
    /// The root type that reads it.
    pub root: String,
    /// The file name, for the report.
    pub name: String,
    /// An absolute path without tab or line break (one request line each).
    pub input: PathBuf,
    pub expected: Expected,
}

/// Runs every fixture through freshly built bindings of every language of `languages`.
pub fn run(config: &Config, fixtures: &Path, work_dir: &Path, python: &Path, languages: Languages) -> Result<Report, Errors> {
    crate::harness::check_python(python)?;
    let mut harness = Harness::prepare(config, work_dir)?;
    harness.typescript = languages.typescript;
    if harness.typescript {
        harness.check_typescript()?;
    }
    let (fixtures, skipped) = collect(fixtures, &harness.roots, &harness.entries)?;
    harness.build_rust()?;
    let mut report = harness.run(&fixtures, python)?;
    report.skipped = skipped;
    Ok(report)
}

/// A registry's bindings written into a scratch folder, ready to build and
/// run: [`run`] in steps, so a caller (the survey) can tell a registry that
/// does not generate from bindings that do not compile or import.
pub struct Harness {
    package: String,
    scratch: String,
    rust_dir: PathBuf,
    python_dir: PathBuf,
    /// The generated npm package's folder.
    typescript_dir: PathBuf,
    target_dir: PathBuf,
    /// The names a fixture folder may have: each root's name, and every
    /// record type's label (`Entry.Type`, as `concord fuzz` writes findings).
    pub roots: HashSet<String>,
    /// Build and run the Rust harness optimized (for long fuzzing runs).
    pub release: bool,
    /// Each record type's label, and its path in the Python package.
    python_paths: std::collections::HashMap<String, String>,
    /// Each record type's label and root name, and its path in the npm package (`entry.Type`).
    typescript_paths: std::collections::HashMap<String, String>,
    /// Whether [`Harness::run`] runs the TypeScript bindings too.
    pub typescript: bool,
    /// Every entry of the registry's index, by name.
    pub entries: HashSet<String>,
}

impl Harness {
    /// Loads the registry and writes its bindings and both harnesses below
    /// `work_dir`: one scratch folder per registry, one cargo target folder
    /// for all, so runs on different registries may go at once and still
    /// share compiled crates.
    pub fn prepare(config: &Config, work_dir: &Path) -> Result<Harness, Errors> {
        let model = crate::load(config.registry_dir())?;
        let entries = concord_codegen::registry::load(config.registry_dir())?.schemas.into_iter().map(|schema| schema.name).collect();
        // Every record type by label, each root by its name too: the class's
        // path in the package (a root named `DOCUMENTS` is the class `DOCUMENTS_`).
        let python_paths: std::collections::HashMap<String, String> = model
            .ids()
            .filter(|id| model.is_record(*id))
            .flat_map(|id| {
                let path = emit::python::record_path(&model, id);
                let root = model.get(id).is_root.then(|| (model.get(id).name.clone(), path.clone()));
                std::iter::once((model.label(id), path)).chain(root)
            })
            .collect();
        let typescript_paths: std::collections::HashMap<String, String> = model
            .ids()
            .filter(|id| model.is_record(*id))
            .flat_map(|id| {
                let def = model.get(id);
                let root = def.is_root.then(|| (def.name.clone(), concord_codegen::naming::type_name(&def.name)));
                std::iter::once((model.label(id), emit::typescript::record_path(&model, id))).chain(root)
            })
            .collect();
        let roots = python_paths.keys().cloned().collect();
        let files = config.files(&model);

        let registry = config.registry_dir().canonicalize().unwrap_or_else(|_| config.registry_dir().to_path_buf());
        let scratch = format!("{HARNESS}-{}", &concord_codegen::registry::digest(registry.to_string_lossy().as_bytes())[7..19]);
        let rust_dir = work_dir.join(&scratch).join("rust");
        let runtime = crate::harness::write_runtime(work_dir)?;
        let bindings = files.iter().find(|f| f.path.starts_with("rust")).map_or_else(String::new, |f| f.contents.clone());
        let mut rust_files = vec![GeneratedFile { path: "Cargo.toml".into(), contents: harness_manifest(&scratch, &runtime) }];
        rust_files.extend(harness_sources(&model, bindings));
        // A new harness starts from the project's lock file, if any; an
        // existing one keeps its own (cargo keeps it current).
        if let Some(lock) = crate::harness::project_lock_file().filter(|_| !rust_dir.join("Cargo.lock").exists()) {
            if let Ok(lock) = std::fs::read_to_string(lock) {
                rust_files.push(GeneratedFile { path: "Cargo.lock".into(), contents: lock });
            }
        }
        write_files(&rust_dir, &rust_files)?;
        let python_files: Vec<GeneratedFile> = files
            .iter()
            .filter_map(|f| f.path.strip_prefix("python").ok().map(|path| GeneratedFile { path: path.into(), contents: f.contents.clone() }))
            .collect();
        let python_dir = work_dir.join(&scratch).join("python");
        write_files(&python_dir, &python_files)?;
        let typescript_files: Vec<GeneratedFile> = files
            .iter()
            .filter_map(|f| f.path.strip_prefix("typescript").ok().map(|path| GeneratedFile { path: path.into(), contents: f.contents.clone() }))
            .collect();
        let typescript_root = work_dir.join(&scratch).join("typescript");
        write_files(&typescript_root, &typescript_files)?;
        let typescript_dir = typescript_files
            .iter()
            .find(|file| file.path.ends_with("package.json"))
            .and_then(|file| file.path.parent())
            .map_or_else(|| typescript_root.clone(), |folder| typescript_root.join(folder));
        let typescript_dir = typescript_dir.canonicalize().unwrap_or(typescript_dir);
        Ok(Harness {
            package: config.package_name().to_owned(),
            scratch,
            rust_dir,
            python_dir,
            typescript_dir,
            target_dir: work_dir.join("target"),
            roots,
            release: false,
            python_paths,
            typescript_paths,
            typescript: false,
            entries,
        })
    }

    /// Builds the Rust harness (the bindings and a main that answers fixtures).
    pub fn build_rust(&self) -> Result<(), Errors> {
        self.build_rust_warnings().map(drop)
    }

    /// Builds the Rust harness, and returns the compiler's warnings about the
    /// bindings (`src/bindings.rs`), one block of text each.
    pub fn build_rust_warnings(&self) -> Result<Vec<String>, Errors> {
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let build = Command::new(cargo)
            .args(["build", "--quiet"])
            .args(self.release.then_some("--release"))
            .arg("--manifest-path")
            .arg(self.rust_dir.join("Cargo.toml"))
            .arg("--target-dir")
            .arg(&self.target_dir)
            .output()
            .map_err(|e| Errors::one(&self.rust_dir, "", format!("cannot run cargo: {e}")))?;
        let stderr = String::from_utf8_lossy(&build.stderr);
        if !build.status.success() {
            let message = format!("the Rust bindings did not build:\n{stderr}");
            return Err(Errors::one(&self.rust_dir, "", message));
        }
        // rustc's diagnostics start at column 0; their notes and snippets are indented.
        let mut blocks: Vec<String> = Vec::new();
        for line in stderr.lines() {
            match blocks.last_mut() {
                Some(block) if !line.starts_with(|c: char| c.is_ascii_alphabetic()) => {
                    block.push('\n');
                    block.push_str(line);
                }
                _ => blocks.push(line.to_owned()),
            }
        }
        Ok(blocks.into_iter().filter(|block| block.starts_with("warning") && block.contains("src/bindings.rs")).collect())
    }

    /// Imports the generated Python package, every entry of it (the
    /// package alone would load none: each loads on first use), and nothing else.
    pub fn import_python(&self, python: &Path) -> Result<(), Errors> {
        let output = self
            .python_command(python)?
            .args(["-c", &format!("from {} import *", self.package)])
            .output()
            .map_err(|e| Errors::one(python, "", format!("cannot run Python: {e}")))?;
        if !output.status.success() {
            let message = format!("the Python package {} does not import:\n{}", self.package, String::from_utf8_lossy(&output.stderr));
            return Err(Errors::one(&self.python_dir, "", message));
        }
        Ok(())
    }

    /// The command that starts the built Rust harness.
    pub fn rust_harness(&self) -> Command {
        Command::new(self.target_dir.join(if self.release { "release" } else { "debug" }).join(&self.scratch))
    }

    /// The command that starts the Python harness on the generated package.
    pub fn python_harness(&self, python: &Path) -> Result<Command, Errors> {
        let mut command = self.python_command(python)?;
        command.args(["-m", "concord_runtime.roundtrip", &self.package]);
        Ok(command)
    }

    /// Runs fixtures through the built Rust harness, the Python package and,
    /// when [`Harness::typescript`] says so, the npm package.
    pub fn run(&self, fixtures: &[Fixture], python: &Path) -> Result<Report, Errors> {
        let rust = answers(rebuildable(&self.rust_harness()), fixtures, |root| root.to_owned(), "Rust")?;
        let python_name = |root: &str| self.python_paths.get(root).cloned().unwrap_or_else(|| root.to_owned());
        let python = answers(rebuildable(&self.python_harness(python)?), fixtures, python_name, "Python")?;
        let typescript = if self.typescript {
            let typescript_name = |root: &str| self.typescript_name(root);
            answers(rebuildable(&self.typescript_harness()), fixtures, typescript_name, "TypeScript")?.into_iter().map(Some).collect()
        } else {
            vec![None; fixtures.len()]
        };
        let cases = fixtures
            .iter()
            .zip(rust.into_iter().zip(python).zip(typescript))
            .map(|(fixture, ((rust, python), typescript))| Case {
                name: format!("{}/{}", fixture.root, fixture.name),
                input: Some(fixture.input.clone()),
                expected: fixture.expected.clone(),
                rust,
                python,
                typescript,
            })
            .collect();
        Ok(Report { cases, skipped: Vec::new() })
    }

    /// How the npm package names a record type a fixture folder names.
    pub fn typescript_name(&self, root: &str) -> String {
        self.typescript_paths.get(root).cloned().unwrap_or_else(|| root.to_owned())
    }

    /// The command that starts the TypeScript harness (`concord-runtime/roundtrip`)
    /// on the generated npm package, run in its folder so that Node finds
    /// the runtime as the package itself does.
    pub fn typescript_harness(&self) -> Command {
        let mut command = Command::new(node());
        command
            .args(["--input-type=module", "-e", "import { main } from \"concord-runtime/roundtrip\"; await main(process.argv[1]);"])
            .arg(&self.typescript_dir)
            .current_dir(&self.typescript_dir);
        command
    }

    /// Checks that Node runs and that the generated package finds a
    /// concord-runtime of this version, before anything runs; else says
    /// what to install, or how to leave TypeScript out.
    pub fn check_typescript(&self) -> Result<(), Errors> {
        let node = node();
        let leave_out = "or pass --languages rust,python to leave TypeScript out";
        let version = Command::new(&node).arg("--version").output();
        match version {
            Ok(output) if output.status.success() => {}
            Ok(output) => {
                return Err(Errors::one(
                    Path::new(&node),
                    "",
                    format!("`node --version` failed: {}; install Node.js 20 or later, {leave_out}", String::from_utf8_lossy(&output.stderr).trim()),
                ));
            }
            Err(error) => {
                return Err(Errors::one(
                    Path::new(&node),
                    "",
                    format!("Node.js does not run here ({error}): install Node.js 20 or later (or set CONCORD_NODE), {leave_out}"),
                ));
            }
        }
        let script = format!(
            "const runtime = await import(\"concord-runtime\"); if (runtime.VERSION !== {:?}) {{ console.error(`concord-runtime ${{runtime.VERSION}} is installed; these bindings need {}`); process.exit(3); }}",
            VERSION_OF_BINDINGS, VERSION_OF_BINDINGS
        );
        let output = Command::new(&node)
            .args(["--input-type=module", "-e", &script])
            .current_dir(&self.typescript_dir)
            .output()
            .map_err(|error| Errors::one(Path::new(&node), "", format!("cannot run Node.js: {error}")))?;
        if output.status.success() {
            return Ok(());
        }
        let stderr = String::from_utf8_lossy(&output.stderr);
        let why = stderr.lines().find(|line| line.contains("concord-runtime")).unwrap_or(stderr.trim());
        Err(Errors::one(
            &self.typescript_dir,
            "",
            format!(
                "the TypeScript bindings cannot import concord-runtime {VERSION_OF_BINDINGS} from here ({why}): install it where the work folder is (`npm install concord-runtime@{VERSION_OF_BINDINGS}`), {leave_out}"
            ),
        ))
    }

    /// `python` with the generated package first on its path; the runtime
    /// is the interpreter's own (and whatever `PYTHONPATH` already adds).
    fn python_command(&self, python: &Path) -> Result<Command, Errors> {
        let inherited = std::env::var_os("PYTHONPATH").unwrap_or_default();
        let python_path = std::env::join_paths(std::iter::once(self.python_dir.clone()).chain(std::env::split_paths(&inherited)))
            .map_err(|e| Errors::one(&self.python_dir, "", e.to_string()))?;
        let mut command = Command::new(python);
        command.env("PYTHONPATH", python_path);
        Ok(command)
    }
}

/// The concord version whose runtime the generated TypeScript needs.
const VERSION_OF_BINDINGS: &str = crate::harness::VERSION;

/// `$CONCORD_NODE`, else `node` from `PATH`.
pub fn node() -> std::ffi::OsString {
    std::env::var_os("CONCORD_NODE").unwrap_or_else(|| "node".into())
}

/// The harness crate, with the runtime's engine: every record type is also
/// validated against its pinned schema.
fn harness_manifest(name: &str, runtime: &Path) -> String {
    format!(
        "[package]\nname = \"{name}\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
         [dependencies]\nconcord-runtime = {{ path = {:?}, features = [\"validate\"] }}\n\n[workspace]\n\n\
         [profile.dev]\ndebug = false\nincremental = false\n",
        runtime.display().to_string()
    )
}

/// The harness's fixed source, `cli/harness/main.rs`: it reads fixtures
/// and answers them (the protocol is in its header), and includes the two
/// files [`harness_sources`] generates beside it.
const HARNESS_MAIN: &str = include_str!("../harness/main.rs");

/// The harness crate's `src/`: the fixed `main.rs`, the registry's bindings
/// (`bindings.rs`, in a `mod bindings`) and `answer.rs`, which maps each
/// record type's name to its answer ([`harness_answer`]).
fn harness_sources(model: &Model, bindings: String) -> Vec<GeneratedFile> {
    vec![
        GeneratedFile { path: "src/main.rs".into(), contents: HARNESS_MAIN.to_owned() },
        GeneratedFile { path: "src/bindings.rs".into(), contents: bindings },
        GeneratedFile { path: "src/answer.rs".into(), contents: harness_answer(model) },
    ]
}

/// The harness's `answer.rs`: `fn answer(name, bytes)`, one arm per record
/// type, named by its label (`Entry.Type`) and, for a root, by its name too,
/// answered by main.rs's `roundtrip`, and `validated` around it for a type
/// with a pinned schema.
fn harness_answer(model: &Model) -> String {
    let mut arms = String::new();
    for id in model.ids().filter(|id| model.is_record(*id)) {
        let def = model.get(id);
        let mut names = format!("{:?}", model.label(id));
        if def.is_root {
            names.push_str(&format!(" | {:?}", def.name));
        }
        // A root by its re-export at the top, as users name it (which also
        // keeps the binary's `pub use`s from being unused).
        let path = emit::rust::record_path(model, id);
        let path = if def.is_root { format!("bindings::{}", path.rsplit("::").next().unwrap_or(&path)) } else { format!("bindings::{path}") };
        let answer = if def.pinned() { format!("validated::<{path}>(bytes, roundtrip::<{path}>(bytes))") } else { format!("roundtrip::<{path}>(bytes)") };
        arms.push_str(&format!("        {names} => Some({answer}),\n"));
    }
    format!(
        "// @generated by concord: which record type answers each name, for the round-trip\n\
         // harness of a registry's Rust bindings (its main.rs includes this file).\n\n\
         /// The answer of the record type `name` names (a root's name or any record\n\
         /// type's label) to `bytes`; none for a name the registry does not have.\n\
         fn answer(name: &str, bytes: &[u8]) -> Option<Value> {{\n    match name {{\n{arms}        _ => None,\n    }}\n}}\n"
    )
}

/// A maker of copies of `command` (program, arguments, environment and
/// folder), for a worker to restart its process with.
pub fn rebuildable(command: &Command) -> impl Fn() -> Result<Command, Errors> + Send + 'static {
    let program = command.get_program().to_owned();
    let args: Vec<_> = command.get_args().map(ToOwned::to_owned).collect();
    let envs: Vec<_> = command.get_envs().map(|(key, value)| (key.to_owned(), value.map(ToOwned::to_owned))).collect();
    let dir = command.get_current_dir().map(ToOwned::to_owned);
    move || {
        let mut copy = Command::new(&program);
        copy.args(&args);
        for (key, value) in &envs {
            match value {
                Some(value) => copy.env(key, value),
                None => copy.env_remove(key),
            };
        }
        if let Some(dir) = &dir {
            copy.current_dir(dir);
        }
        Ok(copy)
    }
}

/// Runs a harness on every fixture, one request line each: a harness that
/// dies on a fixture is restarted on the fixtures after it, and that
/// fixture is answered with the crash.
fn answers(
    command: impl Fn() -> Result<Command, Errors> + Send + 'static,
    fixtures: &[Fixture],
    name: impl Fn(&str) -> String,
    language: &'static str,
) -> Result<Vec<Outcome>, Errors> {
    let requests: Vec<String> = fixtures.iter().map(|fixture| format!("{}\t{}\n", name(&fixture.root), fixture.input.display())).collect();
    Worker::start(language, Box::new(command))?.ask(&requests)
}

/// A harness process kept running across cases; restarted when it dies, the
/// case it died on answered as a crash.
pub struct Worker {
    language: &'static str,
    command: Box<dyn Fn() -> Result<Command, Errors> + Send>,
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    stderr: Arc<Mutex<String>>,
    /// Whether any of its processes answered a request.
    answered: bool,
}

impl Worker {
    pub fn start(language: &'static str, command: Box<dyn Fn() -> Result<Command, Errors> + Send>) -> Result<Worker, Errors> {
        let failed = |message: String| Errors::one(Path::new(language), "", message);
        let mut child = command()?
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| failed(format!("cannot start the {language} worker: {e}")))?;
        let stdin = child.stdin.take().ok_or_else(|| failed("no stdin".into()))?;
        let stdout = BufReader::new(child.stdout.take().ok_or_else(|| failed("no stdout".into()))?);
        let mut stderr_pipe = BufReader::new(child.stderr.take().ok_or_else(|| failed("no stderr".into()))?);
        let stderr = Arc::new(Mutex::new(String::new()));
        let kept = Arc::clone(&stderr);
        std::thread::spawn(move || {
            let mut line = String::new();
            while stderr_pipe.read_line(&mut line).is_ok_and(|read| read > 0) {
                let mut kept = kept.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                kept.push_str(&line);
                if kept.len() > 8192 {
                    let cut = kept.len() - 4096;
                    let cut = (cut..kept.len()).find(|&i| kept.is_char_boundary(i)).unwrap_or(kept.len());
                    kept.drain(..cut);
                }
                line.clear();
            }
        });
        Ok(Worker { language, command, child, stdin, stdout, stderr, answered: false })
    }

    /// One answer per request; a worker that dies is restarted after the
    /// request it died on, which is answered as a crash.
    pub fn ask(&mut self, requests: &[String]) -> Result<Vec<Outcome>, Errors> {
        let mut outcomes = Vec::with_capacity(requests.len());
        while outcomes.len() < requests.len() {
            let rest = &requests[outcomes.len()..];
            let before = outcomes.len();
            let stdin = &mut self.stdin;
            let stdout = &mut self.stdout;
            std::thread::scope(|scope| {
                scope.spawn(move || {
                    let mut writer = std::io::BufWriter::with_capacity(1 << 16, stdin);
                    for request in rest {
                        if writer.write_all(request.as_bytes()).is_err() {
                            return;
                        }
                    }
                    let _ = writer.write_all(b"\n");
                    let _ = writer.flush();
                });
                let mut line = String::new();
                for _ in rest {
                    line.clear();
                    match stdout.read_line(&mut line) {
                        Ok(read) if read > 0 => outcomes.push(parse_answer(line.trim_end_matches('\n'))),
                        _ => break,
                    }
                }
            });
            self.answered |= outcomes.len() > before;
            if outcomes.len() < requests.len() {
                // The worker died (its stdout closed) on the next request.
                let _ = self.child.kill();
                let status = self.child.wait().map(|status| status.to_string()).unwrap_or_default();
                // (Let the stderr reader take the last lines the process wrote.)
                std::thread::sleep(Duration::from_millis(50));
                let stderr = self.stderr.lock().map(|text| text.trim_end().to_owned()).unwrap_or_default();
                if !self.answered {
                    // It cannot start (a package that does not import): restarting would die again.
                    let message = format!("the {} harness exited with {status} before its first answer:\n{stderr}", self.language);
                    return Err(Errors::one(Path::new(self.language), "", message));
                }
                let last = stderr.lines().last().unwrap_or_default();
                outcomes.push(Outcome::Crashed(format!("crashed the {} harness ({status}): {last}", self.language)));
                let command = std::mem::replace(&mut self.command, Box::new(|| Err(Errors::default())));
                *self = Worker::start(self.language, command)?;
                self.answered = true;
            }
        }
        Ok(outcomes)
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn parse_answer(line: &str) -> Outcome {
    let outcome = parse_outcome(line);
    // A pinned type's answer carries `validate`'s verdict on the same bytes:
    // the types must refuse exactly what the validator refuses.
    let validated = serde_json::from_str::<Value>(line).ok().and_then(|answer| answer.get("validated").cloned());
    match (validated, &outcome) {
        (Some(Value::String(why)), _) if why.starts_with("crashed: ") => Outcome::Crashed(format!("validate {why}")),
        (Some(Value::Bool(true)), Outcome::Refused(why)) => Outcome::Disagreed(format!("from_json refused ({why}), validate accepted")),
        (Some(Value::String(notes)), Outcome::Written { .. }) => {
            Outcome::Disagreed(format!("from_json read it, validate refused: {}", notes.replace('\n', "; ")))
        }
        _ => outcome,
    }
}

fn parse_outcome(line: &str) -> Outcome {
    match serde_json::from_str::<Value>(line) {
        Ok(Value::Object(answer)) => match (answer.get("ok"), answer.get("error")) {
            (Some(Value::String(output)), _) => {
                Outcome::Written { output: output.clone(), digest: answer.get("digest").and_then(Value::as_str).unwrap_or("(no digest answered)").to_owned() }
            }
            // The Python harness answers an exception that is not a refusal so.
            (_, Some(Value::String(why))) if why.starts_with("crashed: ") => Outcome::Crashed(why.clone()),
            (_, Some(Value::String(why))) => Outcome::Refused(why.clone()),
            _ => Outcome::Refused(format!("malformed harness answer: {line}")),
        },
        _ => Outcome::Refused(format!("malformed harness answer: {line}")),
    }
}

/// How a language refused, as far as the other must match it.
#[derive(Debug, PartialEq)]
enum Refusal<'a> {
    /// The strict profile's error, in full: kind, byte offset, message.
    Json(&'a str),
    /// A schema error: its pointer, and the assertion engine's message, which both languages word alike.
    Schema {
        pointer: &'a str,
        engine: Option<&'a str>,
    },
    Other(&'a str),
}

fn refusal(why: &str) -> Refusal<'_> {
    if let Some(rest) = why.strip_prefix("at \"") {
        if let Some((pointer, message)) = rest.split_once("\": ") {
            return Refusal::Schema { pointer, engine: message.contains(" (schema ").then_some(message) };
        }
    }
    if why.contains(" at byte ") {
        return Refusal::Json(why);
    }
    Refusal::Other(why)
}

/// Whether two answers to one input agree: the same bytes and digest, or
/// the same refusal (the same strict-profile error in full; a schema error
/// at the same pointer when `one_problem`, with the same engine message).
pub fn agree(rust: &Outcome, python: &Outcome, one_problem: bool) -> bool {
    match (rust, python) {
        (Outcome::Written { output: a, digest: x }, Outcome::Written { output: b, digest: y }) => a == b && x == y,
        (Outcome::Refused(a), Outcome::Refused(b)) => match (refusal(a), refusal(b)) {
            (Refusal::Schema { pointer: p, engine: e }, Refusal::Schema { pointer: q, engine: f }) => (!one_problem || p == q) && e == f,
            (Refusal::Json(a), Refusal::Json(b)) => a == b,
            (Refusal::Other(a), Refusal::Other(b)) => a == b,
            _ => false,
        },
        _ => false,
    }
}

/// A fixture's bytes without the one line break an editor puts at the end
/// of a file (LF or CRLF): not part of the record, which concord writes
/// compact. The input itself goes to the bindings as it is (JSON allows
/// white space after the value).
fn without_final_newline(mut bytes: Vec<u8>) -> Vec<u8> {
    if bytes.ends_with(b"\r\n") {
        bytes.truncate(bytes.len() - 2);
    } else if bytes.ends_with(b"\n") {
        bytes.pop();
    }
    bytes
}

/// Whether two texts differ, and only in white space.
fn differ_only_in_white_space(a: &[u8], b: &[u8]) -> bool {
    let dense = |text: &[u8]| -> Vec<u8> { text.iter().copied().filter(|byte| !byte.is_ascii_whitespace()).collect() };
    a != b && dense(a) == dense(b)
}

/// Fixture folders not run, each with the reason.
pub type Skipped = Vec<(String, String)>;

/// The fixtures below `dir`, and the folders skipped with the reason.
pub fn collect(dir: &Path, roots: &HashSet<String>, entries: &HashSet<String>) -> Result<(Vec<Fixture>, Skipped), Errors> {
    let mut errors = Errors::default();
    let mut fixtures = Vec::new();
    let mut skipped = Vec::new();
    let listing = |dir: &Path| -> Result<Vec<PathBuf>, Errors> {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(|e| Errors::one(dir, "", format!("cannot read the fixtures folder: {e}")))?
            .filter_map(|entry| entry.ok().map(|entry| entry.path()))
            .collect();
        paths.sort();
        Ok(paths)
    };
    for type_dir in listing(dir)? {
        if !type_dir.is_dir() {
            continue;
        }
        let root = type_dir.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_owned();
        if !roots.contains(&root) {
            if entries.contains(&root) {
                skipped.push((root, "the registry entry has no root type of that name".to_owned()));
            } else {
                let mut known: Vec<&String> = roots.iter().filter(|name| !name.contains('.')).collect();
                known.sort();
                let shown: Vec<&str> = known.iter().take(8).map(|name| name.as_str()).collect();
                let more = if known.len() > shown.len() { format!(" and {} more", known.len() - shown.len()) } else { String::new() };
                errors.push(&type_dir, "", format!("no registry entry {root:?} (roots: {}{more}; any record type as Entry.Type)", shown.join(", ")));
            }
            continue;
        }
        let files = listing(&type_dir)?;
        let present: HashSet<&PathBuf> = files.iter().collect();
        for input in &files {
            let Some(name) = input.file_name().and_then(|n| n.to_str()) else { continue };
            let Some(stem) = name.strip_suffix(".json").filter(|stem| !stem.ends_with(".out")) else {
                let stem = [".out.json", ".reject", ".agree", ".accept"].iter().find_map(|suffix| name.strip_suffix(suffix));
                match stem {
                    None => errors.push(input, "", "not a fixture file: expected <case>.json, <case>.out.json, <case>.reject, <case>.agree or <case>.accept"),
                    Some(stem) if !present.contains(&type_dir.join(format!("{stem}.json"))) => {
                        errors.push(input, "", format!("expects an input {stem}.json beside it"));
                    }
                    Some(_) => {}
                }
                continue;
            };
            let beside = |suffix: &str| type_dir.join(format!("{stem}{suffix}"));
            let (out, reject) = (beside(".out.json"), beside(".reject"));
            let read = |path: &Path| std::fs::read(path).map_err(|e| Errors::one(path, "", e.to_string()));
            let marks = [&out, &reject, &beside(".agree"), &beside(".accept")].map(|path| present.contains(path));
            let expected = match marks {
                [false, true, false, false] => Expected::Refusal(String::from_utf8_lossy(&read(&reject)?).trim().to_owned()),
                [true, false, false, false] => Expected::Output(without_final_newline(read(&out)?)),
                [false, false, true, false] => match String::from_utf8_lossy(&read(&beside(".agree"))?).trim() {
                    "" => Expected::Agreement { pointer: false },
                    "pointer" => Expected::Agreement { pointer: true },
                    other => {
                        errors.push(&beside(".agree"), "", format!("an .agree file holds nothing or `pointer`, not {other:?}"));
                        continue;
                    }
                },
                [false, false, false, true] => Expected::Acceptance,
                [false, false, false, false] => Expected::Output(without_final_newline(read(input)?)),
                _ => {
                    errors.push(input, "", "has more than one of .out.json, .reject, .agree and .accept: keep one");
                    continue;
                }
            };
            let input = input.canonicalize().map_err(|e| Errors::one(input, "", e.to_string()))?;
            if input.to_string_lossy().contains(['\t', '\n', '\r']) {
                errors.push(&input, "", "a fixture path may not hold a tab or a line break (the harnesses read one path per line)");
                continue;
            }
            fixtures.push(Fixture { root: root.clone(), name: name.to_owned(), input, expected });
        }
    }
    if fixtures.is_empty() && errors.is_empty() {
        let why = if skipped.is_empty() { "no fixtures found".to_owned() } else { format!("no fixtures to run ({} folders skipped)", skipped.len()) };
        errors.push(dir, "", why);
    }
    errors.finish((fixtures, skipped))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixtures(names: &[&str]) -> Vec<Fixture> {
        let fixture =
            |name: &&str| Fixture { root: "R".into(), name: name.to_string(), input: PathBuf::from(name), expected: Expected::Agreement { pointer: false } };
        names.iter().map(fixture).collect()
    }

    /// A harness that answers each line, and dies on a path holding "boom".
    fn shell(script: &'static str) -> impl Fn() -> Result<Command, Errors> {
        move || {
            let mut command = Command::new("sh");
            command.args(["-c", script]);
            Ok(command)
        }
    }

    const DIES_ON_BOOM: &str =
        r#"while IFS= read -r line; do case "$line" in "") continue;; *boom*) echo "died on $line" >&2; exit 3;; esac; echo '{"ok":"1","digest":"d"}'; done"#;

    /// `cli/harness/` holds the harness crate's `src/` for the one-schema
    /// registry in `cli/harness/registry/`, so that concord-cli's example `roundtrip-harness` builds
    /// the fixed main.rs there, and `cargo fmt` and clippy check it: the
    /// files beside it are what the command writes for that registry (a
    /// pinned root and a record type that is not pinned, the object half
    /// of a nullable object). `CONCORD_BLESS=1` rewrites them.
    #[test]
    fn the_checked_in_harness_is_what_the_command_writes() {
        let harness = Path::new(env!("CARGO_MANIFEST_DIR")).join("harness");
        let model = crate::load(&harness.join("registry")).unwrap();
        assert!(model.ids().any(|id| model.is_record(id) && !model.get(id).pinned()), "the registry has a record type that is not pinned");
        for file in harness_sources(&model, emit::rust::module(&model)) {
            let path = harness.join(file.path.strip_prefix("src").unwrap());
            if std::env::var_os("CONCORD_BLESS").is_some() {
                std::fs::write(&path, &file.contents).unwrap();
            }
            let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
            assert!(checked_in == file.contents, "{} is not what the command writes: run with CONCORD_BLESS=1 and review the diff", path.display());
        }
    }

    #[test]
    fn a_harness_that_dies_on_one_fixture_is_restarted_after_it() {
        let outcomes = answers(shell(DIES_ON_BOOM), &fixtures(&["a", "boom1", "b", "c", "boom2"]), str::to_owned, "Test").unwrap();
        assert_eq!(outcomes.len(), 5);
        let written = Outcome::Written { output: "1".into(), digest: "d".into() };
        assert_eq!([&outcomes[0], &outcomes[2], &outcomes[3]], [&written; 3]);
        for (position, name) in [(1, "boom1"), (4, "boom2")] {
            let Outcome::Crashed(why) = &outcomes[position] else { panic!("{:?}", outcomes[position]) };
            assert!(why.contains("crashed the Test harness") && why.contains(&format!("died on R\t{name}")), "{why}");
        }
    }

    #[test]
    fn a_harness_that_dies_before_any_answer_ends_the_run() {
        let errors = answers(shell("echo 'ImportError: no module' >&2; exit 1"), &fixtures(&["a", "b"]), str::to_owned, "Test").unwrap_err();
        assert!(errors.to_string().contains("before its first answer:\nImportError: no module"), "{errors}");
        // Dying on the first fixture looks the same, and is reported, not skipped.
        let errors = answers(shell(DIES_ON_BOOM), &fixtures(&["boom", "b"]), str::to_owned, "Test").unwrap_err();
        assert!(errors.to_string().contains("died on R\tboom"), "{errors}");
    }

    /// A fixture saved by an editor ends in a line break, LF or CRLF: one is
    /// not part of the record, two are; and output that differs from the
    /// expectation in white space alone says so.
    #[test]
    fn one_final_line_break_is_not_part_of_a_fixture() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("R");
        std::fs::create_dir_all(&root).unwrap();
        for (name, bytes) in [
            ("lf.json", &b"{\"a\":1}\n"[..]),
            ("crlf.json", b"{\"a\":1}\r\n"),
            ("two.json", b"{\"a\":1}\n\n"),
            ("out.json", b"{\"a\": 1}"),
            ("out.out.json", b"{\"a\":1}\r\n"),
        ] {
            std::fs::write(root.join(name), bytes).unwrap();
        }
        let roots: HashSet<String> = ["R".to_owned()].into();
        let (fixtures, _) = collect(dir.path(), &roots, &roots).unwrap();
        let expected: Vec<(&str, &Expected)> = fixtures.iter().map(|fixture| (fixture.name.as_str(), &fixture.expected)).collect();
        let output = |text: &str| Expected::Output(text.as_bytes().to_vec());
        assert_eq!(
            expected,
            [("crlf.json", &output("{\"a\":1}")), ("lf.json", &output("{\"a\":1}")), ("out.json", &output("{\"a\":1}")), ("two.json", &output("{\"a\":1}\n"))]
        );

        let written = Outcome::Written { output: "{\"a\":1}".into(), digest: "d".into() };
        let case = Case {
            name: "R/spaced.json".into(),
            input: None,
            expected: output("{\"a\": 1}"),
            rust: written.clone(),
            python: written.clone(),
            typescript: None,
        };
        assert!(!case.passed());
        assert!(case.to_string().contains("differs from the expected bytes only in white space"), "{case}");
        let case = Case { expected: output("{\"a\":2}"), ..case };
        assert!(!case.to_string().contains("white space"), "{case}");
    }

    /// A strict-profile refusal of a failing case shows the input's line,
    /// with its line and column, as `concord json` does.
    #[test]
    fn a_strict_refusal_shows_where_it_is_in_the_input() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("dup.json");
        std::fs::write(&input, "{\"a\":1,\n\"a\":2}").unwrap();
        let refused = Outcome::Refused("duplicate-key at byte 8: duplicate key \"a\"".into());
        let case = Case {
            name: "R/dup.json".into(),
            input: Some(input.clone()),
            expected: Expected::Acceptance,
            rust: refused.clone(),
            python: refused,
            typescript: None,
        };
        assert!(case.to_string().contains(&format!("   --> {}:2:1\n    |\n  2 | \"a\":2}}\n    | ^\n", input.display())), "{case}");
        assert_eq!((strict_offset("too-deep at byte 12: nesting"), strict_offset("at \"/a\": no byte")), (Some(12), None));
    }

    #[test]
    fn a_crash_meets_no_expectation() {
        let crashed = Outcome::Crashed("crashed: KeyError".into());
        let refused = Outcome::Refused("refused".into());
        for expected in [Expected::Refusal(String::new()), Expected::Agreement { pointer: false }, Expected::Acceptance] {
            let case = Case { name: "R/a.json".into(), input: None, expected, rust: refused.clone(), python: crashed.clone(), typescript: None };
            assert!(!case.passed(), "{case:?}");
            let case = Case { rust: crashed.clone(), python: crashed.clone(), ..case };
            assert!(!case.passed(), "{case:?}");
        }
        assert_eq!(parse_answer(r#"{"error":"crashed: KeyError: 'x'"}"#), Outcome::Crashed("crashed: KeyError: 'x'".into()));
    }

    #[test]
    fn acceptance_needs_both_to_write_the_same_bytes_and_digest() {
        let written = |output: &str, digest: &str| Outcome::Written { output: output.into(), digest: digest.into() };
        let case = |rust, python| Case { name: "R/a.json".into(), input: None, expected: Expected::Acceptance, rust, python, typescript: None };
        assert!(case(written("{}", "d"), written("{}", "d")).passed());
        assert!(!case(written("{}", "d"), written("{ }", "d")).passed());
        assert!(!case(written("{}", "d"), written("{}", "e")).passed());
        assert!(!case(written("{}", "d"), Outcome::Refused("no".into())).passed());
        assert!(!case(Outcome::Refused("no".into()), Outcome::Refused("no".into())).passed());
        // A third language is held to the same.
        let three = |typescript| Case { typescript: Some(typescript), ..case(written("{}", "d"), written("{}", "d")) };
        assert!(three(written("{}", "d")).passed());
        assert!(!three(written("{}", "e")).passed());
        assert!(!three(written("{ }", "d")).passed());
        assert!(!three(Outcome::Refused("no".into())).passed());
    }

    #[test]
    fn languages_keep_rust_and_python_and_name_what_they_refuse() {
        assert_eq!(Languages::parse("rust,python,typescript"), Ok(Languages { typescript: true }));
        assert_eq!(Languages::parse("python, rust"), Ok(Languages { typescript: false }));
        assert!(Languages::parse("rust,typescript").unwrap_err().contains("rust and python always run"));
        assert!(Languages::parse("rust,python,go").unwrap_err().contains("\"go\" is not a language"));
    }
}
