//! Bulk registries: how much of a large set of schemas concord binds, and
//! whether what it binds agrees in both languages.
//!
//! Given candidates (a schema, the documents it needs, and instances), a
//! survey writes one registry per candidate and reads each alone through
//! [`concord_cli::load`] (read and check, no compile: fast, in-process) to class it
//! as bindable or refused, keeping its first diagnostics. Then it writes
//! **one** registry of every bindable candidate, builds it once in both
//! languages, and runs every instance through the round-trip harness
//! (`.accept` for instances that must be valid, `.reject` for those that must
//! be refused, `.agree` where nobody knows). When the combined registry does
//! not load (entries that collide), the candidates its diagnostics name are
//! dropped, and reported. Used by `concord-lab survey` (the corpus) and by
//! `lab/tests/test_suite.rs` (JSON-Schema-Test-Suite).

pub mod corpus;

use crate::panics::caught;
use crate::registry::{self, bindings, remove_dir, write, Listed, Stage};
use concord_cli::roundtrip::{self, Expected, Fixture, Outcome, Report};
use concord_codegen::error::{Diagnostic, Errors};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// A registry entry's file: its name (PascalCase, the root type's name) and
/// its path below the candidate's own folder.
#[derive(Clone, Debug)]
pub struct Document {
    pub name: String,
    pub path: String,
    pub bytes: Vec<u8>,
    /// The URI other documents `$ref` it by, when it has no `$id`.
    pub uri: Option<String>,
    /// The dialect registry.json declares for it (a document without `$schema`).
    pub dialect: Option<String>,
    /// More keys of its registry.json entry, as a user declares them for a
    /// schema that is not theirs (`annotations`, `read_as`, `dialect`).
    pub declared: serde_json::Map<String, serde_json::Value>,
}

/// What an instance must make of its root in both languages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    /// Valid: both read it and write the same bytes (`.accept`).
    Valid,
    /// Invalid: both refuse it (`.reject`).
    Invalid,
    /// Nobody knows: both agree (`.agree`).
    Unknown,
}

#[derive(Clone, Debug)]
pub struct Instance {
    /// The entry (of this candidate) whose root reads it.
    pub root: String,
    /// Its file name among the fixtures, `<case>.json`.
    pub file: String,
    /// What it is, for reports (a test's description, a source).
    pub description: String,
    pub bytes: Vec<u8>,
    pub expect: Expect,
}

/// One schema to survey: its main document, the documents it needs (each an
/// entry of its own, in the same registry), and its instances.
#[derive(Clone, Debug)]
pub struct Candidate {
    /// A label for reports (a corpus short name, a test file and group).
    pub label: String,
    pub main: Document,
    pub extras: Vec<Document>,
    pub instances: Vec<Instance>,
}

impl Candidate {
    fn documents(&self) -> impl Iterator<Item = &Document> {
        std::iter::once(&self.main).chain(&self.extras)
    }

    /// The candidate's folder inside a registry: its main entry's name.
    fn folder(&self) -> &str {
        &self.main.name
    }
}

/// How a candidate fared read alone.
#[derive(Clone, Debug)]
pub enum Verdict {
    Bindable,
    /// Refused at generation time: the first diagnostics, file paths
    /// relative to the registry folder.
    Refused(Vec<Diagnostic>),
    /// The generator panicked.
    Failed(String),
}

/// How the combined registry's bindings fared.
#[derive(Clone, Debug)]
pub enum Build {
    /// Nothing was bindable.
    NotRun,
    /// Generation, the Rust build, the Python import or the harness failed:
    /// the stage and the message.
    Failed {
        stage: Stage,
        message: String,
    },
    Ran(Report),
}

/// How much of a bindable candidate is typed: what its main entry's root
/// is, and how many structs, enums and unions its entries make.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Typed {
    /// `struct`, `enum`, `union`, `array`, `map`, `string`, ...,
    /// `definitions` (a document of definitions alone, whose root asserts
    /// nothing), or `any` (one untyped JSON value, which only the engine checks).
    pub root: &'static str,
    pub structs: usize,
    pub enums: usize,
    pub unions: usize,
}

impl Typed {
    /// What the model makes of a candidate's entries (`modules`, its main first).
    fn of(model: &concord_codegen::model::Model, modules: &[usize]) -> Typed {
        use concord_codegen::model::{Shape, TypeKind};
        let mut typed = Typed::default();
        for def in model.types.iter().filter(|def| modules.contains(&def.module)) {
            match def.kind {
                TypeKind::Struct(_) => typed.structs += 1,
                TypeKind::Enum(_) | TypeKind::OpenEnum(_) => typed.enums += 1,
                TypeKind::Union(_) => typed.unions += 1,
                TypeKind::Alias(_) | TypeKind::TypedId(_) => {}
            }
        }
        fn word(shape: &Shape) -> &'static str {
            match shape {
                Shape::Any => "any",
                Shape::Null => "null",
                Shape::Bool => "boolean",
                Shape::Integer => "integer",
                Shape::Number => "number",
                Shape::String => "string",
                Shape::Array(_) | Shape::Tuple(_) => "array",
                Shape::Map(_) => "map",
                Shape::Nullable(inner) | Shape::Checked(inner, _) => word(inner),
                Shape::Named(_) => "named",
            }
        }
        let root = modules.first().and_then(|&module| model.modules[module].root).map(|id| &model.get(id).kind);
        // A document of definitions alone asserts nothing of its root: its
        // types are its definitions.
        let definitions_only = modules.first().is_some_and(|&module| {
            let text = serde_json::from_str::<serde_json::Value>(&model.modules[module].text).unwrap_or_default();
            text.as_object().is_some_and(|root| {
                root.keys().any(|key| matches!(key.as_str(), "$defs" | "definitions"))
                    && root.keys().all(|key| {
                        matches!(key.as_str(), "$schema" | "$id" | "$defs" | "definitions")
                            || matches!(
                                concord_codegen::vocabulary::keywords::role(key, concord_codegen::vocabulary::Dialect::Draft202012),
                                concord_codegen::vocabulary::keywords::Role::Annotation(_)
                            )
                    })
            })
        });
        typed.root = match root {
            _ if definitions_only => "definitions",
            None => "any",
            Some(TypeKind::Struct(_)) => "struct",
            Some(TypeKind::Enum(_) | TypeKind::OpenEnum(_)) => "enum",
            Some(TypeKind::Union(_)) => "union",
            Some(TypeKind::TypedId(_)) => "string",
            Some(TypeKind::Alias(shape)) => word(shape),
        };
        typed
    }

    /// Whether the root is a type of its own, not one untyped JSON value.
    pub fn root_is_typed(&self) -> bool {
        self.root != "any"
    }
}

/// A candidate's outcome end to end.
#[derive(Clone, Debug)]
pub struct Entry {
    pub candidate: Candidate,
    pub verdict: Verdict,
    /// For a bindable candidate read alone, how much of it is typed.
    pub typed: Option<Typed>,
    /// Bindable alone but dropped from the combined registry: why.
    pub dropped: Option<Vec<Diagnostic>>,
    /// For bindable candidates built alone (after the combined build
    /// failed), that build; else `None`.
    pub alone: Option<Build>,
}

impl Entry {
    pub fn bindable(&self) -> bool {
        matches!(self.verdict, Verdict::Bindable)
    }

    pub fn in_combined(&self) -> bool {
        self.bindable() && self.dropped.is_none()
    }
}

/// The result of a survey.
#[derive(Clone, Debug)]
pub struct Survey {
    pub entries: Vec<Entry>,
    /// The combined registry of every bindable candidate not dropped.
    pub registry: PathBuf,
    pub fixtures: PathBuf,
    pub build: Build,
}

/// One instance's case in a report, with the candidate it belongs to.
pub struct Checked<'a> {
    pub entry: &'a Entry,
    pub instance: &'a Instance,
    pub case: &'a roundtrip::Case,
}

impl Survey {
    /// The report the instances of an entry were checked in: the combined
    /// build, or the entry's own when the combined one failed.
    fn report_of<'a>(&'a self, entry: &'a Entry) -> Option<&'a Report> {
        match (&entry.alone, &self.build) {
            (Some(Build::Ran(report)), _) => Some(report),
            (None, Build::Ran(report)) if entry.in_combined() => Some(report),
            _ => None,
        }
    }

    /// The build that decides an entry's compile and import columns.
    pub fn build_of<'a>(&'a self, entry: &'a Entry) -> Option<&'a Build> {
        if !entry.in_combined() {
            return None;
        }
        Some(entry.alone.as_ref().unwrap_or(&self.build))
    }

    /// Every instance checked, with its case.
    pub fn checked(&self) -> Vec<Checked<'_>> {
        let mut checked = Vec::new();
        for entry in &self.entries {
            let Some(report) = self.report_of(entry) else { continue };
            let cases: HashMap<&str, &roundtrip::Case> = report.cases.iter().map(|case| (case.name.as_str(), case)).collect();
            for instance in &entry.candidate.instances {
                if let Some(case) = cases.get(format!("{}/{}", instance.root, instance.file).as_str()) {
                    checked.push(Checked { entry, instance, case });
                }
            }
        }
        checked
    }
}

/// Where a survey works and what it runs.
pub struct Options<'a> {
    /// Scratch folder: `alone/`, `registry/` and `fixtures/`.
    pub work_dir: &'a Path,
    /// The round-trip harness's work folder (`target/concord-roundtrip`:
    /// its cargo target is shared with every other round trip).
    pub harness_dir: &'a Path,
    pub python: &'a Path,
    /// When the combined build fails, build each bindable candidate alone to
    /// find which (one build each: for a few dozen candidates, not hundreds).
    pub isolate_failures: bool,
}

/// Classes each candidate alone, then builds and runs one registry of every
/// bindable candidate. Errors are for the survey's own failures (a folder
/// it cannot write, duplicate names); what the generator does is reported.
pub fn run(candidates: Vec<Candidate>, options: &Options) -> Result<Survey, Errors> {
    let plan = plan(candidates, options.work_dir)?;
    Ok(build(plan, options))
}

/// A survey before anything is compiled: every candidate classed alone, the
/// combined registry and its fixtures written.
pub struct Plan {
    pub entries: Vec<Entry>,
    pub registry: PathBuf,
    pub fixtures: PathBuf,
    written: Vec<Fixture>,
    alone_dir: PathBuf,
}

/// Reads each candidate alone (in-process, no compile), then writes the
/// combined registry of the bindable ones (dropping those that collide) and
/// their instances as fixtures, below `work_dir`.
pub fn plan(candidates: Vec<Candidate>, work_dir: &Path) -> Result<Plan, Errors> {
    check_names(&candidates)?;
    let alone_dir = work_dir.join("alone");
    remove_dir(&alone_dir)?;
    let mut entries = Vec::with_capacity(candidates.len());
    for candidate in candidates {
        let dir = alone_dir.join(candidate.folder());
        write_registry(&dir, std::slice::from_ref(&candidate))?;
        let (verdict, typed) = match caught(|| concord_cli::load(&dir)) {
            Ok(Ok(model)) => {
                let names: Vec<&str> = candidate.documents().map(|document| document.name.as_str()).collect();
                let modules: Vec<usize> = names.iter().filter_map(|name| model.modules.iter().position(|module| module.name == *name)).collect();
                (Verdict::Bindable, Some(Typed::of(&model, &modules)))
            }
            Ok(Err(errors)) => (Verdict::Refused(relative(errors.diagnostics.into_iter().take(3).collect(), &dir)), None),
            Err(panic) => (Verdict::Failed(panic), None),
        };
        entries.push(Entry { candidate, verdict, typed, dropped: None, alone: None });
    }
    let registry = work_dir.join("registry");
    combine(&mut entries, &registry)?;
    let fixtures = work_dir.join("fixtures");
    remove_dir(&fixtures)?;
    let mut written = Vec::new();
    for entry in entries.iter().filter(|entry| entry.in_combined()) {
        written.extend(write_fixtures(&entry.candidate, &fixtures)?);
    }
    Ok(Plan { entries, registry, fixtures, written, alone_dir })
}

/// Builds the combined registry once and runs every fixture; when that
/// fails and `isolate_failures` is set, builds each candidate alone.
pub fn build(plan: Plan, options: &Options) -> Survey {
    let Plan { mut entries, registry, fixtures, written, alone_dir } = plan;
    let build = if entries.iter().any(Entry::in_combined) { build_and_run(&registry, &written, options) } else { Build::NotRun };
    if options.isolate_failures && matches!(build, Build::Failed { .. }) {
        for entry in entries.iter_mut().filter(|entry| entry.in_combined()) {
            let dir = alone_dir.join(entry.candidate.folder());
            let mine: Vec<Fixture> = written.iter().filter(|f| entry.candidate.documents().any(|d| d.name == f.root)).cloned().collect();
            entry.alone = Some(build_and_run(&dir, &mine, options));
        }
    }
    Survey { entries, registry, fixtures, build }
}

/// Writes the combined registry of every bindable candidate; when it does
/// not load, drops the candidates its diagnostics name and tries again.
fn combine(entries: &mut [Entry], registry: &Path) -> Result<(), Errors> {
    loop {
        let included: Vec<Candidate> = entries.iter().filter(|e| e.in_combined()).map(|e| e.candidate.clone()).collect();
        remove_dir(registry)?;
        if included.is_empty() {
            return write_registry(registry, &[]);
        }
        write_registry(registry, &included)?;
        let diagnostics = match caught(|| concord_cli::load(registry)) {
            Ok(Ok(_)) => return Ok(()),
            Ok(Err(errors)) => relative(errors.diagnostics, registry),
            Err(panic) => vec![Diagnostic { file: PathBuf::new(), pointer: String::new(), message: format!("the generator panicked: {panic}") }],
        };
        // Each diagnostic names a file, and the file's first folder is its candidate.
        let mut named: HashMap<String, Vec<Diagnostic>> = HashMap::new();
        for diagnostic in &diagnostics {
            if let Some(folder) = diagnostic.file.components().next().and_then(|c| c.as_os_str().to_str()) {
                if included.iter().any(|candidate| candidate.folder() == folder) {
                    named.entry(folder.to_owned()).or_default().push(diagnostic.clone());
                }
            }
        }
        if named.is_empty() {
            // Nothing to blame: add the candidates one at a time instead.
            return combine_one_by_one(entries, registry, diagnostics);
        }
        for entry in entries.iter_mut() {
            if let Some(diagnostics) = named.remove(entry.candidate.folder()) {
                entry.dropped = Some(diagnostics.into_iter().take(3).collect());
            }
        }
    }
}

fn combine_one_by_one(entries: &mut [Entry], registry: &Path, first: Vec<Diagnostic>) -> Result<(), Errors> {
    let mut kept: Vec<Candidate> = Vec::new();
    for entry in entries.iter_mut().filter(|e| e.in_combined()) {
        kept.push(entry.candidate.clone());
        remove_dir(registry)?;
        write_registry(registry, &kept)?;
        if !matches!(caught(|| concord_cli::load(registry)), Ok(Ok(_))) {
            kept.pop();
            let mut why = vec![Diagnostic {
                file: PathBuf::from(entry.candidate.folder()),
                pointer: String::new(),
                message: "does not load beside the candidates before it".to_owned(),
            }];
            why.extend(first.iter().take(2).cloned());
            entry.dropped = Some(why);
        }
    }
    remove_dir(registry)?;
    write_registry(registry, &kept)
}

/// Generates, builds, imports and runs; the first stage that fails ends it.
fn build_and_run(registry: &Path, fixtures: &[Fixture], options: &Options) -> Build {
    let mut harness = match bindings(registry, options.harness_dir, options.python, false) {
        Ok(harness) => harness,
        Err((stage, message)) => return Build::Failed { stage, message },
    };
    // Every instance three ways: the TypeScript bindings of schemas nobody wrote for concord too.
    harness.typescript = true;
    let (run, skipped): (Vec<Fixture>, Vec<Fixture>) = fixtures.iter().cloned().partition(|f| harness.roots.contains(&f.root));
    match harness.run(&run, options.python) {
        Ok(mut report) => {
            let mut roots: Vec<String> = skipped.into_iter().map(|f| f.root).collect();
            roots.dedup();
            report.skipped = roots.into_iter().map(|root| (root, "no root type of that name".to_owned())).collect();
            Build::Ran(report)
        }
        Err(errors) => Build::Failed { stage: Stage::Harness, message: errors.to_string() },
    }
}

/// Writes `registry.json` and every document of the candidates, each below
/// its candidate's folder, pinned.
pub fn write_registry(dir: &Path, candidates: &[Candidate]) -> Result<(), Errors> {
    let documents = candidates.iter().flat_map(|candidate| {
        candidate.documents().map(|document| Listed {
            name: document.name.clone(),
            path: format!("{}/{}", candidate.folder(), document.path),
            bytes: &document.bytes,
            uri: document.uri.as_deref(),
            dialect: document.dialect.as_deref(),
            declared: Some(&document.declared),
        })
    });
    registry::write_registry(dir, documents)
}

/// Writes a candidate's instances as fixtures, `<root>/<case>.json` and
/// the expectation beside it.
fn write_fixtures(candidate: &Candidate, dir: &Path) -> Result<Vec<Fixture>, Errors> {
    let mut fixtures = Vec::new();
    for instance in &candidate.instances {
        let folder = dir.join(&instance.root);
        let input = folder.join(&instance.file);
        write(&input, &instance.bytes)?;
        let stem = instance.file.strip_suffix(".json").unwrap_or(&instance.file);
        let (marker, expected) = match instance.expect {
            Expect::Valid => ("accept", Expected::Acceptance),
            Expect::Invalid => ("reject", Expected::Refusal(String::new())),
            Expect::Unknown => ("agree", Expected::Agreement { pointer: false }),
        };
        write(&folder.join(format!("{stem}.{marker}")), b"")?;
        let input = input.canonicalize().map_err(|e| Errors::one(&input, "", e.to_string()))?;
        fixtures.push(Fixture { root: instance.root.clone(), name: instance.file.clone(), input, expected });
    }
    Ok(fixtures)
}

/// Every entry name is a registry name, used once; every instance targets
/// an entry of its own candidate and has a distinct `<case>.json` name.
fn check_names(candidates: &[Candidate]) -> Result<(), Errors> {
    let mut errors = Errors::default();
    let mut names = HashSet::new();
    for candidate in candidates {
        let here = Path::new(&candidate.label);
        for document in candidate.documents() {
            if !concord_codegen::registry::is_type_name(&document.name) {
                errors.push(here, "", format!("entry name {:?} is not PascalCase", document.name));
            }
            if !names.insert(document.name.as_str()) {
                errors.push(here, "", format!("entry name {:?} is used twice", document.name));
            }
        }
        let mut files = HashSet::new();
        for instance in &candidate.instances {
            if !candidate.documents().any(|document| document.name == instance.root) {
                errors.push(here, "", format!("instance {} targets {:?}, not an entry of this candidate", instance.file, instance.root));
            }
            let plain = !instance.file.contains(['/', '\\']) && instance.file.ends_with(".json") && !instance.file.ends_with(".out.json");
            if !plain || !files.insert((instance.root.as_str(), instance.file.as_str())) {
                errors.push(here, "", format!("instance file {:?} must be a distinct <case>.json", instance.file));
            }
        }
    }
    errors.finish(())
}

/// Diagnostics with their files relative to `dir` (the registry folder).
fn relative(diagnostics: Vec<Diagnostic>, dir: &Path) -> Vec<Diagnostic> {
    diagnostics
        .into_iter()
        .map(|diagnostic| Diagnostic { file: diagnostic.file.strip_prefix(dir).map(Path::to_path_buf).unwrap_or(diagnostic.file), ..diagnostic })
        .collect()
}

/// A verdict in one line: `bindable`, or the first reason with file and pointer.
pub fn first_reason(diagnostics: &[Diagnostic]) -> String {
    diagnostics.first().map_or_else(|| "refused without a diagnostic".to_owned(), |d| d.to_string())
}

/// Whether a case is a wrong verdict (read when it must be refused, or
/// refused when it must be read) rather than a disagreement on bytes.
pub fn wrong_verdict(case: &roundtrip::Case) -> bool {
    let written = |outcome: &Outcome| matches!(outcome, Outcome::Written { .. });
    match case.expected {
        Expected::Acceptance => !written(&case.rust) || !written(&case.python),
        Expected::Refusal(_) => written(&case.rust) || written(&case.python),
        _ => false,
    }
}
