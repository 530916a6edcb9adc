//! The loop of `concord-lab fuzz-schemas`: each case of [`super::case`] is
//! written as a registry of its own and generated in-process, under
//! `catch_unwind` and a watchdog; the accepted ones are built in batches
//! (one registry, one cargo build, one Python import), and a batch that
//! fails is bisected to the cases at fault.
//!
//! A finding is a panic, a hang, bindings that do not build or import, a
//! batch of accepted cases that is refused together, or a refusal that does
//! not name the file and the JSON pointer. Each is shrunk (a greedy pass
//! that drops keywords and subschemas while the failure stays the same),
//! written below the findings folder as a registry with a note, and printed.

use super::Case;
use crate::panics::caught;
use crate::registry::{self, bindings, remove_dir, write, Failure, Listed, Stage};
use concord_cli::fuzz::random::Rng;
use concord_codegen::error::{Diagnostic, Errors};
use concord_codegen::Config;
use serde_json::{json, Value};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// What `concord-lab fuzz-schemas` was asked to do.
#[derive(Clone, Debug)]
pub struct Options {
    pub seed: u64,
    /// Stop drawing cases after this long (the batch in hand is still built).
    pub time: Option<Duration>,
    /// Stop after this many cases.
    pub schemas: Option<u64>,
    /// Accepted cases per compiled batch; 0 generates only.
    pub batch: usize,
    pub findings: PathBuf,
    /// Scratch: the registry of the case at hand (`case/`, left in place when
    /// the process dies: it is the reproducer), the batch's (`batch/`).
    pub work_dir: PathBuf,
    /// The round-trip harness's folder: its cargo target is shared.
    pub harness_dir: PathBuf,
    pub python: PathBuf,
    /// A generation that takes longer is a hang.
    pub hang: Duration,
    /// Builds a build or import failure may spend on shrinking its case.
    pub shrink_builds: usize,
    /// Print progress every so often (and each finding as it is found).
    pub progress: Option<Duration>,
    /// Also hold each batch's Python package to `ruff check`, `ruff format`
    /// and `mypy --strict` (the repository's settings).
    pub lint: bool,
}

/// What one kind of finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Panic,
    Hang,
    /// Refused, but a diagnostic names no file of the registry, or no pointer
    /// where the problem has a place.
    Unlocated,
    /// A batch, or a case of it, failed at this stage; at
    /// [`Stage::Generate`], cases accepted alone were refused (or a panic)
    /// together.
    Build(Stage),
}

impl Kind {
    pub fn label(self) -> &'static str {
        match self {
            Kind::Panic => "panic",
            Kind::Hang => "hang",
            Kind::Unlocated => "unlocated-refusal",
            Kind::Build(Stage::Generate) => "batch-refusal",
            Kind::Build(Stage::RustBuild) => "rust-build",
            Kind::Build(Stage::RustWarnings) => "rust-warnings",
            Kind::Build(Stage::PythonImport) => "python-import",
            Kind::Build(Stage::PythonLint) => "python-lint",
            Kind::Build(Stage::Harness) => "harness",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Finding {
    pub kind: Kind,
    /// The cases at fault (one, unless only together they fail), shrunk.
    pub entries: Vec<Entry>,
    /// What happened: the panic, the diagnostic, the compiler's words.
    pub what: String,
    /// Where it was written.
    pub dir: PathBuf,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let seeds: Vec<String> = self.entries.iter().map(|entry| format!("{:#018x}", entry.seed)).collect();
        let first = self.what.lines().find(|line| !line.trim().is_empty()).unwrap_or_default();
        write!(f, "FINDING {} (case seed {}): {first}\n  written to {}", self.kind.label(), seeds.join(", "), self.dir.display())
    }
}

/// Counts, for the progress line and the summary.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub generated: u64,
    pub accepted: u64,
    pub refused: u64,
    pub batches: u64,
    /// Cases in batches that built and imported.
    pub built: u64,
    pub findings: Vec<Finding>,
    pub elapsed: Duration,
    /// A generation hung: its thread is still running, so the process must end.
    pub hung: bool,
    /// Why cases were refused: each refusal's first diagnostic, its quoted
    /// parts left out, and how often.
    pub reasons: std::collections::BTreeMap<String, u64>,
}

impl Summary {
    /// The most common reasons for a refusal, most common first.
    pub fn top_reasons(&self, n: usize) -> Vec<(&str, u64)> {
        let mut reasons: Vec<(&str, u64)> = self.reasons.iter().map(|(reason, count)| (reason.as_str(), *count)).collect();
        reasons.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        reasons.truncate(n);
        reasons
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let seconds = self.elapsed.as_secs_f64().max(0.001);
        write!(
            f,
            "[{}] generated {} ({:.0}/s), accepted {}, refused {}, batches built {} ({} schemas), findings {}",
            clock(self.elapsed),
            self.generated,
            self.generated as f64 / seconds,
            self.accepted,
            self.refused,
            self.batches,
            self.built,
            self.findings.len()
        )
    }
}

fn clock(elapsed: Duration) -> String {
    let seconds = elapsed.as_secs();
    format!("{}m{:02}s", seconds / 60, seconds % 60)
}

/// A registry entry's files: a case, or a file kept as a regression test.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The main document's entry name (the others get `B`, `C`, ... after it);
    /// its lowercase form is the entry's folder.
    pub name: String,
    /// The case's seed (0 for files that are no case).
    pub seed: u64,
    pub files: Vec<File>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct File {
    /// The file name inside the entry's folder.
    pub name: String,
    pub uri: Option<String>,
    pub bytes: Vec<u8>,
}

impl Entry {
    pub fn of_case(name: &str, case: &Case) -> Entry {
        let files = case.documents.iter().map(|document| File { name: document.file.clone(), uri: document.uri.clone(), bytes: document.bytes() }).collect();
        Entry { name: name.to_owned(), seed: case.seed, files }
    }

    fn folder(&self) -> String {
        self.name.to_ascii_lowercase()
    }

    /// The registry name of its `index`th file.
    fn entry_name(&self, index: usize) -> String {
        match index {
            0 => self.name.clone(),
            n => format!("{}{}", self.name, (b'A' + n as u8) as char),
        }
    }
}

/// Writes a registry of `entries` in `dir` (cleared first), every file pinned.
pub fn write_registry(dir: &Path, entries: &[Entry]) -> Result<(), Errors> {
    remove_dir(dir)?;
    let documents = entries.iter().flat_map(|entry| {
        entry.files.iter().enumerate().map(|(position, file)| Listed {
            name: entry.entry_name(position),
            path: format!("{}/{}", entry.folder(), file.name),
            bytes: &file.bytes,
            uri: file.uri.as_deref(),
            dialect: None,
            declared: None,
        })
    });
    registry::write_registry(dir, documents)
}

/// What generating a registry came to.
#[derive(Clone, Debug)]
pub enum Generation {
    /// Both languages' files were made.
    Accepted,
    Refused(Errors),
    /// The panic's message and where it was raised.
    Panicked(String),
}

/// Loads and generates the registry in `dir`, in memory, catching a panic
/// (its message and place).
pub fn generate(dir: &Path) -> Generation {
    match caught(|| files(dir)) {
        Ok(Ok(_)) => Generation::Accepted,
        Ok(Err(errors)) => Generation::Refused(errors),
        Err(panic) => Generation::Panicked(panic),
    }
}

/// What `concord generate` writes for the registry in `dir`, with every
/// check the command runs (the assertion engine's too).
fn files(dir: &Path) -> Result<Vec<concord_codegen::GeneratedFile>, Errors> {
    let model = concord_cli::load(dir)?;
    Ok(Config::new().registry(dir).files(&model))
}

/// The first diagnostic that does not say where the problem is: it names
/// no file of the registry in `dir`; or its pointer is empty (the document
/// root) for a refusal by the assertion engine, which concord narrows down
/// to a subschema; or its pointer names no place of the document, and no
/// place on its way is one that merges schemas (an `allOf`, a `$ref` with
/// keywords beside it, a union spreading them into its branches, a list of
/// types): below such a place the pointer walks the merged schema, which
/// the document does not hold as such (docs/fuzzing.md).
pub fn unlocated(errors: &Errors, dir: &Path) -> Option<Diagnostic> {
    let dir = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    errors.diagnostics.iter().find(|diagnostic| !located(diagnostic, &dir)).cloned()
}

fn located(diagnostic: &Diagnostic, dir: &Path) -> bool {
    let file = diagnostic.file.canonicalize().unwrap_or_else(|_| diagnostic.file.clone());
    if !file.starts_with(dir) || !file.is_file() {
        return false;
    }
    if diagnostic.pointer.is_empty() {
        return !diagnostic.message.starts_with("the assertion engine cannot check");
    }
    let Some(document) = std::fs::read(&file).ok().and_then(|bytes| serde_json::from_slice::<Value>(&bytes).ok()) else { return true };
    if document.pointer(&diagnostic.pointer).is_some() {
        return true;
    }
    let mut prefix = diagnostic.pointer.as_str();
    while let Some((head, _)) = prefix.rsplit_once('/') {
        prefix = head;
        if let Some(place) = document.pointer(prefix) {
            let merges = ["allOf", "$ref", "oneOf", "anyOf"].iter().any(|k| place.get(k).is_some()) || place.get("type").is_some_and(Value::is_array);
            let branch = prefix.rsplit('/').nth(1).is_some_and(|parent| matches!(parent, "oneOf" | "anyOf"));
            if merges || branch {
                return true;
            }
        }
    }
    false
}

/// Runs [`generate`] on another thread, and gives up after a timeout. A
/// generation that never ends cannot be stopped: its thread is abandoned
/// and a new one serves the next request.
struct Watchdog {
    requests: mpsc::Sender<PathBuf>,
    answers: mpsc::Receiver<Generation>,
}

impl Watchdog {
    fn start() -> Watchdog {
        let (requests, jobs) = mpsc::channel::<PathBuf>();
        let (reply, answers) = mpsc::channel();
        // The main thread's stack: a generation that overflows it would overflow `concord generate`'s too.
        std::thread::Builder::new()
            .name("fuzz-generate".into())
            .stack_size(8 << 20)
            .spawn(move || {
                for dir in jobs {
                    if reply.send(generate(&dir)).is_err() {
                        break;
                    }
                }
            })
            .expect("a thread can be started");
        Watchdog { requests, answers }
    }

    /// `None` when the generation took longer than `limit`.
    fn generate(&mut self, dir: &Path, limit: Duration) -> Option<Generation> {
        if self.requests.send(dir.to_path_buf()).is_err() {
            *self = Watchdog::start();
            self.requests.send(dir.to_path_buf()).ok()?;
        }
        match self.answers.recv_timeout(limit) {
            Ok(generation) => Some(generation),
            Err(_) => {
                *self = Watchdog::start();
                None
            }
        }
    }
}

/// The repository's settings for ruff and mypy.
const PYPROJECT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../pyproject.toml");

/// Generates the registry of `entries` in `dir` through the round-trip
/// harness, builds its Rust bindings once (warnings about them fail too)
/// and imports its Python package; with `lint`, also runs `ruff check`,
/// `ruff format --diff` and `mypy --strict` on the package.
pub fn build(entries: &[Entry], dir: &Path, harness_dir: &Path, python: &Path, lint: bool) -> Result<(), Failure> {
    write_registry(dir, entries).map_err(|errors| (Stage::Generate, errors.to_string()))?;
    bindings(dir, harness_dir, python, true)?;
    if lint {
        lint_python(dir, python)?;
    }
    Ok(())
}

/// `ruff check`, `ruff format --diff` and `mypy --strict` (the repository's
/// settings) on the registry's package, written afresh (as `fuzz_lint`)
/// beside the registry.
fn lint_python(registry: &Path, python: &Path) -> Result<(), Failure> {
    let failed = |message: String| (Stage::PythonLint, message);
    let files = caught(|| files(registry)).map_err(failed)?.map_err(|errors| failed(errors.to_string()))?;
    let scratch = registry.with_extension("lint");
    let package = scratch.join("fuzz_lint");
    let _ = std::fs::remove_dir_all(&scratch);
    let python_files: Vec<concord_codegen::GeneratedFile> = files
        .into_iter()
        .filter_map(|file| {
            let path = file.path.strip_prefix(Path::new("python").join(concord_codegen::PYTHON_PACKAGE)).ok()?.to_path_buf();
            Some(concord_codegen::GeneratedFile { path, contents: file.contents })
        })
        .collect();
    concord_codegen::write_files(&package, &python_files).map_err(|errors| failed(errors.to_string()))?;
    let package = package.to_string_lossy().into_owned();
    let mut problems = String::new();
    for args in [
        &["-m", "ruff", "check", "--no-cache", "--config", PYPROJECT, &package][..],
        &["-m", "ruff", "format", "--no-cache", "--diff", "--config", PYPROJECT, &package],
        &["-m", "mypy", "--config-file", PYPROJECT, "--no-incremental", "--cache-dir", "/dev/null", &package],
    ] {
        let output = std::process::Command::new(python)
            .args(args)
            .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
            .output()
            .map_err(|e| failed(format!("cannot run {}: {e}", python.display())))?;
        if !output.status.success() {
            problems.push_str(&format!("$ {}\n{}{}\n", args[1..].join(" "), String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr)));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(failed(problems))
    }
}

/// The runner's state.
struct Runner<'a> {
    options: &'a Options,
    summary: Summary,
    watchdog: Watchdog,
    start: Instant,
    last_progress: Instant,
    report: &'a mut dyn FnMut(&str),
}

/// Runs the fuzzing loop; `report` receives each progress line and finding.
pub fn run(options: &Options, report: &mut dyn FnMut(&str)) -> Result<Summary, Errors> {
    let start = Instant::now();
    let mut runner = Runner { options, summary: Summary::default(), watchdog: Watchdog::start(), start, last_progress: start, report };
    let case_dir = options.work_dir.join("case");
    (runner.report)(&format!(
        "fuzz-schemas: seed {:#x}; the case in progress is always at {} (the reproducer, should the process die)",
        options.seed,
        case_dir.display()
    ));
    let mut seeds = Rng::new(options.seed);
    let mut pending: Vec<Entry> = Vec::new();
    let mut index: u64 = 0;
    loop {
        let out_of_time = options.time.is_some_and(|time| start.elapsed() >= time);
        let out_of_cases = options.schemas.is_some_and(|schemas| runner.summary.generated >= schemas);
        if out_of_time || out_of_cases {
            break;
        }
        index += 1;
        let case = super::case(seeds.next_u64());
        let entry = Entry::of_case(&format!("Fuzz{index:04}"), &case);
        write_registry(&case_dir, std::slice::from_ref(&entry))?;
        runner.summary.generated += 1;
        match runner.watchdog.generate(&case_dir, options.hang) {
            None => {
                runner.summary.hung = true;
                runner.finding(
                    Kind::Hang,
                    vec![entry],
                    format!("generation took longer than {:?}; its thread cannot be stopped, so the run ends", options.hang),
                )?;
                break;
            }
            Some(Generation::Panicked(message)) => {
                runner.summary.refused += 1;
                let shrunk = runner.shrink(entry, &case_dir, |generation| matches!(generation, Generation::Panicked(other) if same_panic(other, &message)));
                runner.finding(Kind::Panic, vec![shrunk], message)?;
            }
            Some(Generation::Refused(errors)) => {
                runner.summary.refused += 1;
                if let Some(first) = errors.diagnostics.first() {
                    *runner.summary.reasons.entry(unquoted(&first.message)).or_default() += 1;
                }
                if let Some(diagnostic) = unlocated(&errors, &case_dir) {
                    let message = diagnostic.message.clone();
                    let shrunk = runner.shrink(entry, &case_dir, |generation| match generation {
                        Generation::Refused(errors) => unlocated(errors, &case_dir).is_some_and(|d| same_start(&d.message, &message)),
                        _ => false,
                    });
                    runner.finding(Kind::Unlocated, vec![shrunk], format!("a refusal that does not say where: {diagnostic}\n\nall diagnostics:\n{errors}"))?;
                }
            }
            Some(Generation::Accepted) => {
                runner.summary.accepted += 1;
                if options.batch > 0 {
                    pending.push(entry);
                    if pending.len() >= options.batch {
                        runner.batch(std::mem::take(&mut pending))?;
                    }
                }
            }
        }
        runner.progress(false);
    }
    if !runner.summary.hung && !pending.is_empty() {
        runner.batch(pending)?;
    }
    runner.summary.elapsed = start.elapsed();
    runner.progress(true);
    Ok(runner.summary)
}

/// Two panics are one finding when raised at the same place.
fn same_panic(a: &str, b: &str) -> bool {
    let place = |text: &str| text.split(": ").next().unwrap_or_default().to_owned();
    place(a) == place(b)
}

/// Two messages are one problem when they read alike once what they quote
/// (names, values) is left out.
fn same_start(a: &str, b: &str) -> bool {
    unquoted(a) == unquoted(b)
}

/// A message's first words, with what it quotes (in `"` or backticks) left out.
fn unquoted(text: &str) -> String {
    let mut out = String::new();
    let mut quoted = None;
    for c in text.chars() {
        match quoted {
            Some(end) if c == end => quoted = None,
            Some(_) => {}
            None if c == '"' || c == '`' => {
                quoted = Some(c);
                out.push('_');
            }
            None => out.push(c),
        }
    }
    out.split_whitespace().take(20).collect::<Vec<_>>().join(" ")
}

impl Runner<'_> {
    fn progress(&mut self, last: bool) {
        let Some(every) = self.options.progress else { return };
        if last || self.last_progress.elapsed() >= every {
            self.last_progress = Instant::now();
            self.summary.elapsed = self.start.elapsed();
            let line = self.summary.to_string();
            (self.report)(&line);
        }
    }

    /// Builds a batch; when it fails, finds the cases at fault by bisection.
    fn batch(&mut self, entries: Vec<Entry>) -> Result<(), Errors> {
        let options = self.options;
        let dir = options.work_dir.join("batch");
        let built = |entries: &[Entry]| build(entries, &dir, &options.harness_dir, &options.python, options.lint);
        let Err(failure) = built(&entries) else {
            self.summary.batches += 1;
            self.summary.built += entries.len() as u64;
            return Ok(());
        };
        // Bisecting needs no stage after the one that failed (mypy is the slowest).
        let through_lint = failure.0 == Stage::PythonLint;
        let built_until = |entries: &[Entry]| build(entries, &dir, &options.harness_dir, &options.python, options.lint && through_lint);
        let mut faults = Vec::new();
        bisect(&entries, failure, &built_until, &mut faults);
        let faulty: usize = faults.iter().map(|(set, _, _)| set.len()).sum();
        // The rest of the batch built, or would have: counted as built once rebuilt.
        let rest: Vec<Entry> = entries.iter().filter(|entry| !faults.iter().any(|(set, _, _)| set.contains(entry))).cloned().collect();
        if !rest.is_empty() && built(&rest).is_ok() {
            self.summary.batches += 1;
            self.summary.built += (entries.len() - faulty) as u64;
        }
        for (set, stage, message) in faults {
            let set = if set.len() == 1 && stage != Stage::Generate {
                let entry = set.into_iter().next().expect("one entry");
                let mut budget = options.shrink_builds;
                let alone = options.work_dir.join("shrink");
                let lint = options.lint && stage == Stage::PythonLint;
                // Only shapes that still generate are worth a build; none once the builds are spent.
                let case_dir = options.work_dir.join("case");
                let watchdog = &mut self.watchdog;
                let hang = options.hang;
                vec![shrink_entry(entry, &mut |candidate| {
                    if budget == 0 || write_registry(&case_dir, std::slice::from_ref(candidate)).is_err() {
                        return None;
                    }
                    if !matches!(watchdog.generate(&case_dir, hang), Some(Generation::Accepted)) {
                        return Some(false);
                    }
                    budget -= 1;
                    let built = build(std::slice::from_ref(candidate), &alone, &options.harness_dir, &options.python, lint);
                    Some(matches!(built, Err((other, _)) if other == stage))
                })]
            } else {
                set
            };
            self.finding(Kind::Build(stage), set, message)?;
        }
        Ok(())
    }

    /// Shrinks a case with in-process generation as the judge.
    fn shrink(&mut self, entry: Entry, case_dir: &Path, still: impl Fn(&Generation) -> bool) -> Entry {
        let hang = self.options.hang;
        let watchdog = &mut self.watchdog;
        let mut attempts = 0;
        shrink_entry(entry, &mut |candidate| {
            attempts += 1;
            if attempts > 2000 || write_registry(case_dir, std::slice::from_ref(candidate)).is_err() {
                return None;
            }
            Some(watchdog.generate(case_dir, hang).is_some_and(|generation| still(&generation)))
        })
    }

    fn finding(&mut self, kind: Kind, entries: Vec<Entry>, what: String) -> Result<(), Errors> {
        let seed = entries.first().map_or(0, |entry| entry.seed);
        let dir = self.options.findings.join(format!("{}-{seed:016x}", kind.label()));
        write_registry(&dir, &entries)?;
        let cases: Vec<String> = entries.iter().map(|entry| format!("{} = concord_lab::schemas::case({:#018x})", entry.name, entry.seed)).collect();
        let note = format!(
            "{}\n\nrun seed {:#x}; the case{}: {}\n(shrunk: the registry here is smaller than the case drawn)\n\
             reproduce: concord generate --registry {} --out <scratch>\n\n{what}\n",
            kind.label(),
            self.options.seed,
            if cases.len() == 1 { "" } else { "s" },
            cases.join(", "),
            dir.display()
        );
        write(&dir.join("NOTE.txt"), note.as_bytes())?;
        let finding = Finding { kind, entries, what, dir };
        (self.report)(&finding.to_string());
        self.summary.findings.push(finding);
        Ok(())
    }
}

/// The entries at fault in `entries`, which failed with `failure`: one at a
/// time when each fails alone, else the smallest set that fails together.
fn bisect(entries: &[Entry], failure: Failure, built: &dyn Fn(&[Entry]) -> Result<(), Failure>, faults: &mut Vec<(Vec<Entry>, Stage, String)>) {
    if entries.len() == 1 {
        faults.push((entries.to_vec(), failure.0, failure.1));
        return;
    }
    let (left, right) = entries.split_at(entries.len() / 2);
    let before = faults.len();
    for half in [left, right] {
        if let Err(failure) = built(half) {
            bisect(half, failure, built, faults);
        }
    }
    if faults.len() == before {
        // Only together: the whole set is the finding.
        faults.push((entries.to_vec(), failure.0, failure.1));
    }
}

/// A greedy shrink: drops other documents, then keywords, array items and
/// subschemas, while `still` says the failure stays; keeps every edit that
/// does. `still` gives `None` when the shrinking must end (its budget spent).
pub fn shrink_entry(entry: Entry, still: &mut dyn FnMut(&Entry) -> Option<bool>) -> Entry {
    let mut best = entry;
    // Whole documents other than the main one.
    let mut position = 1;
    while position < best.files.len() {
        let mut candidate = best.clone();
        candidate.files.remove(position);
        match still(&candidate) {
            None => return best,
            Some(true) => best = candidate,
            Some(false) => position += 1,
        }
    }
    for document in 0..best.files.len() {
        let Ok(mut value) = serde_json::from_slice::<Value>(&best.files[document].bytes) else { continue };
        // Re-serialized, the document must still fail (a finding about exact bytes keeps them).
        match still(&with_document(&best, document, &value)) {
            None => return best,
            Some(false) => continue,
            Some(true) => {}
        }
        let mut edit = 0;
        while let Some(candidate) = nth_edit(&value, edit) {
            let entry = with_document(&best, document, &candidate);
            match still(&entry) {
                None => return best,
                Some(true) => {
                    value = candidate;
                    best = entry;
                }
                Some(false) => edit += 1,
            }
        }
    }
    best
}

fn with_document(entry: &Entry, document: usize, value: &Value) -> Entry {
    let mut entry = entry.clone();
    let mut bytes = serde_json::to_vec_pretty(value).expect("a JSON value always serializes");
    bytes.push(b'\n');
    entry.files[document].bytes = bytes;
    entry
}

/// The `n`th smaller variant of `value`, in a fixed order: for each node
/// (pre-order), the node removed from its parent, then (for a non-empty
/// object or array) the node replaced by `{}`.
fn nth_edit(value: &Value, n: usize) -> Option<Value> {
    let mut paths: Vec<Vec<PathStep>> = Vec::new();
    collect_paths(value, &mut Vec::new(), &mut paths);
    let mut edits = Vec::new();
    for path in &paths {
        if path.is_empty() {
            continue;
        }
        edits.push((path, false));
        if pointer(value, path).is_some_and(|node| matches!(node, Value::Object(m) if !m.is_empty()) || matches!(node, Value::Array(a) if !a.is_empty())) {
            edits.push((path, true));
        }
    }
    let (path, replace) = edits.get(n)?;
    let mut copy = value.clone();
    let (last, parent_path) = path.split_last()?;
    let parent = pointer_mut(&mut copy, parent_path)?;
    match (parent, last, replace) {
        (Value::Object(map), PathStep::Key(key), false) => {
            map.shift_remove(key);
        }
        (Value::Array(items), PathStep::Index(index), false) => {
            items.remove(*index);
        }
        (Value::Object(map), PathStep::Key(key), true) => {
            map.insert(key.clone(), json!({}));
        }
        (Value::Array(items), PathStep::Index(index), true) => {
            items[*index] = json!({});
        }
        _ => return None,
    }
    Some(copy)
}

#[derive(Clone, Debug)]
enum PathStep {
    Key(String),
    Index(usize),
}

fn collect_paths(value: &Value, path: &mut Vec<PathStep>, out: &mut Vec<Vec<PathStep>>) {
    out.push(path.clone());
    match value {
        Value::Object(map) => {
            for (key, item) in map {
                path.push(PathStep::Key(key.clone()));
                collect_paths(item, path, out);
                path.pop();
            }
        }
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                path.push(PathStep::Index(index));
                collect_paths(item, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

fn pointer<'a>(value: &'a Value, path: &[PathStep]) -> Option<&'a Value> {
    path.iter().try_fold(value, |node, step| match step {
        PathStep::Key(key) => node.get(key),
        PathStep::Index(index) => node.get(index),
    })
}

fn pointer_mut<'a>(value: &'a mut Value, path: &[PathStep]) -> Option<&'a mut Value> {
    path.iter().try_fold(value, |node, step| match step {
        PathStep::Key(key) => node.get_mut(key),
        PathStep::Index(index) => node.get_mut(index),
    })
}
