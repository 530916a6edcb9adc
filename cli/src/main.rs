//! `concord`: generate, check and pin a registry's bindings, and run the
//! shared round-trip suite through both languages.

use clap::{Parser, Subcommand};
use concord_cli::{fuzz, roundtrip};
use concord_codegen::vocabulary::Dialect;
use concord_codegen::{registry, stale_files, write_files, Config, Errors};
use concord_runtime::{canonical, strict};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "concord", version, about = "Compile a digest-pinned JSON Schema registry into Rust serde types and Python pydantic models that agree")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Write the Rust, Python and TypeScript bindings of a registry.
    Generate {
        #[arg(long, default_value = "registry")]
        registry: PathBuf,
        /// The output folder: `rust/concord_registry.rs`, `python/<package>/` and `typescript/<package>/` below it.
        #[arg(long, default_value = "generated")]
        out: PathBuf,
        /// The Python package's name.
        #[arg(long, default_value = concord_codegen::PYTHON_PACKAGE)]
        python_package: String,
        /// The npm package's name of the TypeScript bindings (`typescript/<name>/` below the output folder).
        #[arg(long, default_value = concord_codegen::emit::typescript::PACKAGE)]
        typescript_package: String,
        /// The languages to write, a comma-separated list of rust, python and typescript.
        #[arg(long, default_value = "rust,python,typescript", value_parser = concord_codegen::Language::parse_list)]
        languages: Languages,
        /// `text` for people, `json` for tools: one JSON object on standard output (docs/diagnostics.md).
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Fail when a pin drifted or the generated bindings are stale.
    Check {
        #[arg(long, default_value = "registry")]
        registry: PathBuf,
        /// The output folder: `rust/concord_registry.rs`, `python/<package>/` and `typescript/<package>/` below it.
        #[arg(long, default_value = "generated")]
        out: PathBuf,
        /// The Python package's name.
        #[arg(long, default_value = concord_codegen::PYTHON_PACKAGE)]
        python_package: String,
        /// The npm package's name of the TypeScript bindings (`typescript/<name>/` below the output folder).
        #[arg(long, default_value = concord_codegen::emit::typescript::PACKAGE)]
        typescript_package: String,
        /// The languages to write, a comma-separated list of rust, python and typescript.
        #[arg(long, default_value = "rust,python,typescript", value_parser = concord_codegen::Language::parse_list)]
        languages: Languages,
        /// `text` for people, `json` for tools: one JSON object on standard output (docs/diagnostics.md).
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// List schema files in the registry's index with their digests, and every
    /// local file their `$ref`s reach (the index is created if there is none).
    /// Refused, and nothing written, when the registry would not then load.
    Add {
        #[arg(long, default_value = "registry")]
        registry: PathBuf,
        /// The entry's name, for one SOURCE [default: its `title` when PascalCase, else its file name in PascalCase].
        #[arg(long)]
        name: Option<String>,
        /// The dialect of one SOURCE without `$schema`, written into its entry: draft-04, draft-06, draft-07, 2019-09 or 2020-12.
        #[arg(long, value_parser = parse_dialect)]
        dialect: Option<Dialect>,
        /// Read one SOURCE as this later dialect than its `$schema` names, written into its entry as `read_as` (docs/dialects.md).
        #[arg(long, value_parser = parse_dialect, conflicts_with = "dialect")]
        read_as: Option<Dialect>,
        /// The URI other documents `$ref` one SOURCE by, written into its entry as `uri`.
        #[arg(long)]
        uri: Option<String>,
        /// Download the entry NAME again from its `source`, with every downloaded document it references, and show what changed.
        #[arg(long, value_name = "NAME", conflicts_with_all = ["name", "dialect", "read_as", "uri"])]
        update: Option<String>,
        /// Schema files inside the registry folder, or URLs to download into it (with every document they reference).
        #[arg(required_unless_present = "update", conflicts_with = "update")]
        sources: Vec<String>,
        /// `text` for people, `json` for tools: one JSON object on standard output (docs/diagnostics.md).
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Re-pin every schema to its current bytes, after a deliberate change.
    Pin {
        #[arg(long, default_value = "registry")]
        registry: PathBuf,
        /// `text` for people, `json` for tools: one JSON object on standard output (docs/diagnostics.md).
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Build the bindings of a registry in both languages and run every fixture through both.
    Roundtrip {
        #[arg(long, default_value = "registry")]
        registry: PathBuf,
        /// The fixtures: a folder per root type, `<Root>/<case>.json` and what it expects beside it.
        #[arg(long)]
        fixtures: PathBuf,
        /// Scratch folder for the generated crate and package (kept, so rebuilds are incremental)
        /// [default: $CARGO_TARGET_DIR/concord-roundtrip, else target/concord-roundtrip].
        #[arg(long)]
        work_dir: Option<PathBuf>,
        /// The Python with pydantic installed [default: $CONCORD_PYTHON, else .venv/bin/python, else python3].
        #[arg(long)]
        python: Option<PathBuf>,
        /// The languages to run: rust and python always, typescript unless left out (Node.js with concord-runtime; `$CONCORD_NODE`, else `node`).
        #[arg(long, default_value = "rust,python,typescript", value_parser = roundtrip::Languages::parse)]
        languages: roundtrip::Languages,
    },
    /// Differential fuzzing: instances of every record type drawn from the
    /// model, and near-misses of them, go as the same bytes to the Rust, the
    /// Python and the TypeScript bindings, which must agree on verdict, error kind,
    /// pointer, output bytes and digest. Exits 1 on any disagreement, each
    /// shrunk and written as a round-trip fixture.
    Fuzz {
        #[arg(long, default_value = "registry")]
        registry: PathBuf,
        /// Cases per record type.
        #[arg(long, default_value_t = 10_000)]
        cases: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Stop after this long (`90s`, `30m`, `2h`), whatever the count.
        #[arg(long, value_parser = fuzz::runner::parse_duration)]
        time: Option<std::time::Duration>,
        /// Only record types whose `Entry.Type` label contains this.
        #[arg(long)]
        only: Option<String>,
        /// Build the Rust bindings optimized (slower to build, faster to run).
        #[arg(long)]
        release: bool,
        /// Where each disagreement's reproducer is written, as a fixture.
        #[arg(long, default_value = "concord-findings")]
        findings: PathBuf,
        /// [default: $CARGO_TARGET_DIR/concord-roundtrip, else target/concord-roundtrip].
        #[arg(long)]
        work_dir: Option<PathBuf>,
        /// [default: $CONCORD_PYTHON, else .venv/bin/python, else python3].
        #[arg(long)]
        python: Option<PathBuf>,
        /// The languages to compare: rust and python always, typescript unless left out (Node.js with concord-runtime).
        #[arg(long, default_value = "rust,python,typescript", value_parser = roundtrip::Languages::parse)]
        languages: roundtrip::Languages,
    },
    /// Strict reading and canonical JSON (jcs-rfc8785-integer-v1), as
    /// `python -m concord_runtime json` does them: same bytes, same exit codes.
    #[command(subcommand)]
    Json(JsonCommand),
    /// What a registry change breaks: every change between two registries,
    /// by record type and direction (backward: new readers, old data;
    /// forward: old readers, new data; relay: an old binding reads and
    /// writes back new data), with a rule, a severity and where it is
    /// (docs/compatibility.md). Exit 0, 1 when a finding is at or above
    /// --fail-on, 2 when a registry cannot be read.
    #[command(group = clap::ArgGroup::new("old_side").required(true).args(["old", "against"]))]
    Diff {
        /// The old registry folder.
        old: Option<PathBuf>,
        /// The new registry folder [default: --registry].
        new: Option<PathBuf>,
        /// Compare the registry at this git revision with the working tree's (--registry).
        #[arg(long, conflicts_with = "old")]
        against: Option<String>,
        #[arg(long, default_value = "registry")]
        registry: PathBuf,
        #[arg(long, value_enum, default_value = "table")]
        format: DiffFormat,
        /// The least severity that makes the exit status 1.
        #[arg(long, value_enum, default_value = "error")]
        fail_on: FailOn,
    },
    /// Check a JSON file against a record type's pinned schema, all of it,
    /// as `validate` in the bindings does (and `python -m concord_runtime
    /// validate PACKAGE NAME FILE`, with the same output and exit codes):
    /// exit 0 with `ok`, 1 with at most three notes on standard error, 2
    /// when the registry, the name or the file cannot be used.
    Validate {
        #[arg(long, default_value = "registry")]
        registry: PathBuf,
        /// A root's name (`ClsArtifact`), or any record type's `Entry.Type` (`ClsArtifact.Session`).
        name: String,
        /// A path, or - for standard input.
        file: PathBuf,
        #[arg(long, default_value_t = strict::DEFAULT_MAX_BYTES)]
        max_bytes: usize,
        /// `text` for people, `json` for tools: one JSON object on standard output (docs/diagnostics.md).
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Rewrite schemas written in an older dialect (draft-04, draft-06,
    /// draft-07, 2019-09), or 2020-12 schemas that still use an older
    /// keyword, as Draft 2020-12 (docs/upgrade.md). Every rewrite is
    /// reported on standard error at its JSON pointer; what 2020-12 cannot
    /// say alike is refused, for every file at once, and then nothing is
    /// written. Exit 0, or 1 when anything is refused.
    /// Print the plan of every registry entry's types (what each runtime reads
    /// to read, refuse and write records, as versioned JSON: docs/plan.md), or,
    /// with --schema, the JSON Schema of the plan format.
    Plan {
        #[arg(long, default_value = "registry")]
        registry: PathBuf,
        /// The JSON Schema of the plan format instead (`plan/plan.schema.json`).
        #[arg(long)]
        schema: bool,
    },
    Upgrade {
        /// Schema files; one may be - for standard input, without --in-place.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Rewrite the files (each through a temporary file and a rename)
        /// instead of printing the one file's upgrade on standard output.
        #[arg(long)]
        in_place: bool,
        /// The dialect of a document without `$schema`: draft-04, draft-06, draft-07, 2019-09 or 2020-12.
        #[arg(long, value_parser = parse_dialect)]
        dialect: Option<Dialect>,
        /// Read a document as this later dialect despite its `$schema`, as a
        /// registry entry's `read_as` does: for one written against a validator
        /// that applied a later dialect's keywords (docs/dialects.md).
        #[arg(long, value_parser = parse_dialect, conflicts_with = "dialect")]
        read_as: Option<Dialect>,
    },
}

/// A dialect as `--dialect` gives it: a short name or a meta-schema URI.
fn parse_dialect(name: &str) -> Result<Dialect, String> {
    Dialect::named(name).ok_or_else(|| format!("unknown dialect {name:?}: concord reads {}", concord_codegen::vocabulary::dialect::READ))
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum DiffFormat {
    Table,
    Json,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum FailOn {
    Error,
    Warning,
    Info,
}

#[derive(Subcommand)]
enum JsonCommand {
    /// Strict-read FILE: exit 0, or 1 with the first problem.
    Check(JsonArgs),
    /// Write the canonical bytes of FILE.
    Canon(JsonArgs),
    /// Write sha256:<hex> over the canonical bytes of FILE.
    Digest(JsonArgs),
}

#[derive(clap::Args)]
struct JsonArgs {
    /// A path, or - for standard input.
    file: PathBuf,
    #[arg(long, default_value_t = strict::DEFAULT_MAX_BYTES)]
    max_bytes: usize,
    /// `text` for people, `json` for tools: one JSON object on standard output (docs/diagnostics.md).
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
}

/// How a command reports: for people, or one JSON object for tools.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    Text,
    Json,
}

impl Command {
    /// The report format a command was given (`text` where it has none).
    fn format(&self) -> Format {
        match self {
            Command::Generate { format, .. } | Command::Check { format, .. } | Command::Add { format, .. } | Command::Pin { format, .. } => *format,
            _ => Format::Text,
        }
    }
}

/// `concord plan`: every entry's plan, by the entry's module name, or the
/// format's JSON Schema; pretty, as a reader wants it.
fn run_plan(registry: &Path, schema: bool) -> ExitCode {
    let value = if schema {
        serde_json::from_str(concord_plan::SCHEMA).expect("the checked-in plan schema is JSON")
    } else {
        match concord_cli::load(registry) {
            Ok(model) => concord_codegen::plan::registry(&model),
            Err(errors) => {
                eprintln!("{errors}");
                return ExitCode::FAILURE;
            }
        }
    };
    // A reader that stops early (`| head`) is no failure of ours, and no panic.
    let _ = writeln!(std::io::stdout().lock(), "{}", serde_json::to_string_pretty(&value).expect("a JSON value always serializes"));
    ExitCode::SUCCESS
}

/// Writes one JSON object and a line break to standard output.
fn print_json(value: &serde_json::Value) {
    println!("{}", serde_json::to_string(value).expect("a JSON value always serializes"));
}

fn main() -> ExitCode {
    let command = Cli::parse().command;
    if let Command::Json(json) = command {
        return run_json(json);
    }
    if let Command::Validate { registry, name, file, max_bytes, format } = command {
        return run_validate(&registry, &name, &file, max_bytes, format);
    }
    if let Command::Diff { old, new, against, registry, format, fail_on } = command {
        return run_diff(old, new, against, registry, format, fail_on);
    }
    if let Command::Plan { registry, schema } = command {
        return run_plan(&registry, schema);
    }
    if let Command::Upgrade { files, in_place, dialect, read_as } = command {
        return run_upgrade(&files, in_place, dialect, read_as);
    }
    let format = command.format();
    match run(command) {
        Ok(code) => code,
        Err(errors) if format == Format::Json => {
            print_json(&concord_cli::report::errors(&errors));
            ExitCode::FAILURE
        }
        Err(errors) => {
            eprintln!("{errors}");
            ExitCode::FAILURE
        }
    }
}

fn run(command: Command) -> Result<ExitCode, Errors> {
    match command {
        Command::Generate { registry, out, python_package, typescript_package, languages, format } => {
            let files = generate(&registry, &python_package, &typescript_package, &languages)?;
            write_files(&out, &files)?;
            let written: Vec<String> = files.iter().map(|file| out.join(&file.path).display().to_string()).collect();
            match format {
                Format::Json => print_json(&serde_json::json!({ "wrote": written })),
                Format::Text => written.iter().for_each(|path| println!("wrote {path}")),
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Check { registry, out, python_package, typescript_package, languages, format } => {
            let files = generate(&registry, &python_package, &typescript_package, &languages)?;
            let stale = stale_files(&out, &files);
            if stale.is_empty() {
                match format {
                    Format::Json => print_json(&serde_json::json!({ "ok": true })),
                    Format::Text => println!("ok: every pin holds and {} is up to date", out.display()),
                }
                return Ok(ExitCode::SUCCESS);
            }
            let mut errors = Errors::default();
            for file in stale {
                let mut package = if python_package == concord_codegen::PYTHON_PACKAGE { String::new() } else { format!(" --python-package {python_package}") };
                if typescript_package != concord_codegen::emit::typescript::PACKAGE {
                    package.push_str(&format!(" --typescript-package {typescript_package}"));
                }
                if languages.len() != concord_codegen::LANGUAGES.len() {
                    let names: Vec<&str> = languages.iter().map(|language| language.name).collect();
                    package.push_str(&format!(" --languages {}", names.join(",")));
                }
                let message = format!(
                    "stale: this file does not match what {} generates; run `concord generate --registry {} --out {}{package}`",
                    registry.display(),
                    registry.display(),
                    out.display()
                );
                errors.push(&file, "", message);
            }
            Err(errors)
        }
        Command::Add { registry, update: Some(name), format, .. } => {
            let before = concord_cli::load(&registry)?;
            let updated = concord_cli::add::update(&registry, &name)?;
            let after = if updated.changed.is_empty() && updated.added.is_empty() { None } else { Some(concord_cli::load(&registry)?) };
            let findings = after.as_ref().map(|after| concord_cli::diff::diff(&before, after)).unwrap_or_default();
            let (old_label, new_label) = (format!("{} before the update", registry.display()), registry.display().to_string());
            let sides = concord_cli::diff::report::Sides { old_label: &old_label, old_dir: &registry, new_label: &new_label, new_dir: &registry };
            if format == Format::Json {
                let changed: Vec<_> = updated.changed.iter().map(|(path, digest)| serde_json::json!({"path": path, "digest": digest})).collect();
                let diff: serde_json::Value = serde_json::from_str(&concord_cli::diff::report::json(&findings, &sides)).expect("the diff report is JSON");
                print_json(&serde_json::json!({"updated": changed, "added": concord_cli::report::added(&updated.added), "findings": diff["findings"]}));
                return Ok(ExitCode::SUCCESS);
            }
            if after.is_none() {
                println!("{name}: every downloaded document is as it was");
                return Ok(ExitCode::SUCCESS);
            }
            for (path, digest) in &updated.changed {
                println!("updated {path}: {digest}");
            }
            print_added(&updated.added);
            print!("{}", concord_cli::diff::report::table(&findings, &sides, concord_cli::diff::Severity::Error));
            Ok(ExitCode::SUCCESS)
        }
        Command::Add { registry, name, dialect, read_as, uri, sources, update: None, format } => {
            let options = concord_cli::add::EntryOptions { name, dialect, read_as, uri };
            let added = concord_cli::add::add(&registry, &sources, &options)?;
            if format == Format::Json {
                print_json(&serde_json::json!({ "added": concord_cli::report::added(&added) }));
                return Ok(ExitCode::SUCCESS);
            }
            if added.is_empty() {
                println!("every file is listed already");
            }
            print_added(&added);
            Ok(ExitCode::SUCCESS)
        }
        Command::Pin { registry: dir, format } => {
            let changes = pin(&dir)?;
            if format == Format::Json {
                let changes: Vec<_> = changes.iter().map(|change| serde_json::json!({"path": change.path, "old": change.old, "new": change.new})).collect();
                print_json(&serde_json::json!({ "changes": changes }));
                return Ok(ExitCode::SUCCESS);
            }
            if changes.is_empty() {
                println!("every pin already matches its file");
            }
            for change in changes {
                println!("{}: {} -> {}", change.path, change.old.as_deref().unwrap_or("(none)"), change.new);
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Roundtrip { registry, fixtures, work_dir, python, languages } => {
            let python = python.unwrap_or_else(roundtrip::default_python);
            let work_dir = work_dir.unwrap_or_else(roundtrip::default_work_dir);
            let report = roundtrip::run(Config::new().registry(&registry), &fixtures, &work_dir, &python, languages)?;
            print!("{report}");
            Ok(if report.failed() == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE })
        }
        Command::Fuzz { registry, cases, seed, time, only, release, findings, work_dir, python, languages } => {
            let python = python.unwrap_or_else(roundtrip::default_python);
            let work_dir = work_dir.unwrap_or_else(roundtrip::default_work_dir);
            let options = fuzz::runner::Options { cases, seed, time, only, work_dir, python, findings, progress: true, release, languages };
            eprintln!("{}", fuzz::runner::describe(&options));
            let summary = fuzz::runner::run(Config::new().registry(&registry), &options)?;
            print!("{summary}");
            Ok(if summary.disagreements == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE })
        }
        Command::Json(_) | Command::Validate { .. } | Command::Diff { .. } | Command::Plan { .. } | Command::Upgrade { .. } => {
            unreachable!("handled by run_json, run_validate, run_diff and run_upgrade")
        }
    }
}

fn print_added(added: &[concord_cli::add::Added]) {
    for entry in added {
        let by = entry.referenced_by.as_ref().map(|by| format!(", which {by} references")).unwrap_or_default();
        let uri = entry.uri.as_ref().map(|uri| format!(" as {uri}")).unwrap_or_default();
        let from = match (&entry.source, &entry.fetched_from) {
            (Some(source), Some(to)) => format!(", downloaded from {source} (redirected to {to})"),
            (Some(source), None) => format!(", downloaded from {source}"),
            _ => String::new(),
        };
        println!("added {} ({}{uri}{by}{from}): {}", entry.name, entry.path, entry.digest);
    }
}

/// Every file `concord generate` writes: the bindings of the registry as a
/// build script writes them, once the command's own checks passed.
/// The languages `--languages` names.
type Languages = Vec<&'static concord_codegen::Language>;

fn generate(
    registry: &std::path::Path,
    python_package: &str,
    typescript_package: &str,
    languages: &[&'static concord_codegen::Language],
) -> Result<Vec<concord_codegen::GeneratedFile>, Errors> {
    let mut config = Config::new();
    config.registry(registry).python_package(python_package).typescript_package(typescript_package).languages(languages);
    config.check_languages()?;
    let model = concord_cli::load(registry)?;
    Ok(config.files(&model))
}

/// Re-pins the registry, and keeps the new pins only if the registry then
/// loads with every check the command runs: a schema that is pinned is one
/// that generates (a build script trusts what its pins say).
fn pin(dir: &std::path::Path) -> Result<Vec<registry::PinChange>, Errors> {
    let index = dir.join(registry::INDEX);
    let before = std::fs::read(&index).map_err(|error| Errors::one(&index, "", format!("cannot read: {error}")))?;
    let changes = registry::pin(dir)?;
    if changes.is_empty() {
        return Ok(changes);
    }
    if let Err(mut errors) = concord_cli::load(dir) {
        concord_codegen::output::write_atomically(&index, &before).map_err(|error| Errors::one(&index, "", error))?;
        errors.push(&index, "", "nothing was pinned: the schemas above must load first");
        return Err(errors);
    }
    Ok(changes)
}

/// Exit codes: 0 nothing at or above `fail_on`, 1 something, 2 a registry
/// that cannot be read (or a git revision that cannot be found).
fn run_diff(old: Option<PathBuf>, new: Option<PathBuf>, against: Option<String>, registry: PathBuf, format: DiffFormat, fail_on: FailOn) -> ExitCode {
    use concord_cli::diff::{self, report, Severity};
    let fail_on = match fail_on {
        FailOn::Error => Severity::Error,
        FailOn::Warning => Severity::Warning,
        FailOn::Info => Severity::Info,
    };
    let failed = |errors: Errors| {
        eprintln!("{errors}");
        ExitCode::from(2)
    };
    // With --against, the old registry is a checkout, removed when this ends.
    let (checkout, old_label) = match (&old, &against) {
        (_, Some(revision)) => match diff::git::checkout(&registry, revision) {
            Ok(checkout) => (Some(checkout), format!("{}@{revision}", registry.display())),
            Err(errors) => return failed(errors),
        },
        (Some(old), None) => (None, old.display().to_string()),
        (None, None) => unreachable!("clap requires OLD or --against"),
    };
    let old_dir = checkout.as_ref().map_or_else(|| old.clone().unwrap_or_default(), |checkout| checkout.dir().to_path_buf());
    let new_dir = if against.is_some() { registry.clone() } else { new.unwrap_or(registry) };
    // A checkout's problems are named by revision, not by its temporary folder.
    let old_loaded = concord_cli::load(&old_dir).map_err(|mut errors| {
        for diagnostic in &mut errors.diagnostics {
            if let Ok(relative) = diagnostic.file.strip_prefix(&old_dir) {
                diagnostic.file = PathBuf::from(&old_label).join(relative);
            }
        }
        errors
    });
    let (old_model, new_model) = match (old_loaded, concord_cli::load(&new_dir)) {
        (Ok(old), Ok(new)) => (old, new),
        (old, new) => {
            let mut errors = Errors::default();
            for result in [old, new] {
                if let Err(more) = result {
                    errors.extend(more);
                }
            }
            return failed(errors);
        }
    };
    let findings = diff::diff(&old_model, &new_model);
    let new_label = new_dir.display().to_string();
    let sides = report::Sides { old_label: &old_label, old_dir: &old_dir, new_label: &new_label, new_dir: &new_dir };
    let text = match format {
        DiffFormat::Table => report::table(&findings, &sides, fail_on),
        DiffFormat::Json => report::json(&findings, &sides),
    };
    print!("{text}");
    if findings.iter().any(|finding| finding.severity >= fail_on) {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// The bytes of FILE, or of standard input for `-`; else the message to show.
fn read_input(file: &std::path::Path) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    let read = if file.as_os_str() == "-" { std::io::stdin().read_to_end(&mut bytes).map(|_| ()) } else { std::fs::read(file).map(|read| bytes = read) };
    read.map(|()| bytes).map_err(|error| {
        // The OS's words only, as Python's strerror gives them.
        let reason = error.to_string();
        let reason = reason.split(" (os error").next().unwrap_or_default().to_owned();
        format!("error: cannot read {}: {reason}", file.display())
    })
}

/// Exit codes: 0 upgraded (or nothing to rewrite), 1 something refused or
/// not written, 2 a use of the command it cannot serve.
fn run_upgrade(files: &[PathBuf], in_place: bool, dialect: Option<Dialect>, read_as: Option<Dialect>) -> ExitCode {
    use concord_codegen::error::shown;
    if files.len() > 1 && !in_place {
        eprintln!("error: several files are upgraded with --in-place (standard output holds one document)");
        return ExitCode::from(2);
    }
    if in_place && files.iter().any(|file| file.as_os_str() == "-") {
        eprintln!("error: standard input cannot be upgraded --in-place");
        return ExitCode::from(2);
    }
    let upgraded = match concord_cli::upgrade::upgrade_files(files, dialect, read_as) {
        Ok(upgraded) => upgraded,
        Err(errors) => {
            eprintln!("{errors}");
            eprintln!("nothing was written");
            return ExitCode::FAILURE;
        }
    };
    for file in &upgraded {
        for rewrite in &file.upgraded.rewrites {
            eprintln!("{rewrite}");
        }
        if !file.changed() {
            let why = if file.upgraded.dialect == concord_cli::upgrade::TARGET { "already 2020-12" } else { "a boolean schema means the same in 2020-12" };
            eprintln!("{}: {why}, nothing to rewrite", shown(&file.path.display().to_string()));
        }
    }
    if !in_place {
        let mut stdout = std::io::stdout().lock();
        let bytes = upgraded.first().map(|file| file.bytes()).unwrap_or_default();
        return if stdout.write_all(&bytes).and_then(|()| stdout.flush()).is_ok() { ExitCode::SUCCESS } else { ExitCode::FAILURE };
    }
    match concord_cli::upgrade::write_in_place(&upgraded) {
        Ok(written) => {
            for path in written {
                println!("wrote {}", path.display());
            }
            ExitCode::SUCCESS
        }
        Err(errors) => {
            eprintln!("{errors}");
            ExitCode::FAILURE
        }
    }
}

/// Exit codes: 0 valid, 1 refused (the notes on standard error), 2 the
/// registry, the name or the file cannot be used.
fn run_validate(registry: &std::path::Path, name: &str, file: &std::path::Path, max_bytes: usize, format: Format) -> ExitCode {
    let json = format == Format::Json;
    let schema = match concord_cli::load(registry).and_then(|model| concord_cli::RecordSchema::find(&model, name)) {
        Ok(schema) => schema,
        Err(errors) if json => {
            print_json(&concord_cli::report::errors(&errors));
            return ExitCode::from(2);
        }
        Err(errors) => {
            eprintln!("{errors}");
            return ExitCode::from(2);
        }
    };
    let bytes = match read_input(file) {
        Ok(bytes) => bytes,
        Err(message) => return unreadable(&message, json),
    };
    let value = match strict::read_with(&bytes, strict::Limits { max_bytes }) {
        Ok(value) => value,
        Err(error) if json => {
            print_json(&concord_cli::report::input_error(error.kind.name(), &error.message, Some(error.offset), None, &bytes));
            return ExitCode::FAILURE;
        }
        Err(error) => {
            eprint!("error: {error}\n{}", concord_runtime::location::at_offset(&bytes, error.offset, &input_name(file)));
            return ExitCode::FAILURE;
        }
    };
    match schema.validate(&value) {
        Ok(()) if json => {
            print_json(&serde_json::json!({ "ok": true }));
            ExitCode::SUCCESS
        }
        Ok(()) => {
            println!("ok");
            ExitCode::SUCCESS
        }
        Err(refusal) if json => {
            let notes: Vec<_> = refusal
                .notes
                .iter()
                .map(|note| serde_json::json!({"pointer": note.pointer, "keyword": note.keyword, "schema_path": note.schema_path, "message": note.message}))
                .collect();
            print_json(&serde_json::json!({ "notes": notes, "more": refusal.more }));
            ExitCode::FAILURE
        }
        Err(refusal) => {
            eprintln!("{refusal}");
            ExitCode::FAILURE
        }
    }
}

/// An input that cannot be read: exit 2, said on standard error, or as JSON.
fn unreadable(message: &str, json: bool) -> ExitCode {
    if json {
        let message = message.strip_prefix("error: ").unwrap_or(message);
        print_json(&serde_json::json!({ "error": { "kind": "unreadable", "message": message } }));
    } else {
        eprintln!("{message}");
    }
    ExitCode::from(2)
}

/// Exit codes: 0 done, 1 the input was refused, 2 the file could not be read.
fn run_json(command: JsonCommand) -> ExitCode {
    let (JsonCommand::Check(args) | JsonCommand::Canon(args) | JsonCommand::Digest(args)) = &command;
    let json = args.format == Format::Json;
    let bytes = match read_input(&args.file) {
        Ok(bytes) => bytes,
        Err(message) => return unreadable(&message, json),
    };
    let limits = strict::Limits { max_bytes: args.max_bytes };
    let output = match command {
        JsonCommand::Check(_) => strict::check_with(&bytes, limits).map(|()| Output::Ok).map_err(canonical::CanonicalError::from),
        JsonCommand::Canon(_) => {
            strict::read_with(&bytes, limits).map_err(canonical::CanonicalError::from).and_then(|value| canonical::to_bytes(&value)).map(Output::Canonical)
        }
        JsonCommand::Digest(_) => {
            strict::read_with(&bytes, limits).map_err(canonical::CanonicalError::from).and_then(|value| canonical::digest(&value)).map(Output::Digest)
        }
    };
    match output {
        Ok(output) => {
            let written = match (output, json) {
                (Output::Ok, false) => b"ok\n".to_vec(),
                (Output::Canonical(bytes), false) => bytes,
                (Output::Digest(digest), false) => format!("{digest}\n").into_bytes(),
                (Output::Ok, true) => b"{\"ok\":true}\n".to_vec(),
                (Output::Canonical(bytes), true) => {
                    let text = String::from_utf8(bytes).expect("canonical JSON is UTF-8");
                    format!("{}\n", serde_json::json!({ "canonical": text })).into_bytes()
                }
                (Output::Digest(digest), true) => format!("{}\n", serde_json::json!({ "digest": digest })).into_bytes(),
            };
            let mut stdout = std::io::stdout().lock();
            if stdout.write_all(&written).and_then(|()| stdout.flush()).is_err() {
                return ExitCode::from(2);
            }
            ExitCode::SUCCESS
        }
        Err(error) if json => {
            let report = match &error {
                canonical::CanonicalError::Read(error) => concord_cli::report::input_error(error.kind.name(), &error.message, Some(error.offset), None, &bytes),
                canonical::CanonicalError::NotCanonical { pointer, message } => {
                    concord_cli::report::input_error("not-canonical", message, None, Some(pointer), &bytes)
                }
            };
            print_json(&report);
            ExitCode::FAILURE
        }
        Err(error) => {
            // Where it is, as a person reads the file: line, column and the line.
            let name = input_name(&args.file);
            let place = match &error {
                canonical::CanonicalError::Read(error) => Some(concord_runtime::location::at_offset(&bytes, error.offset, &name)),
                canonical::CanonicalError::NotCanonical { pointer, .. } => concord_runtime::location::at_pointer(&bytes, pointer, &name),
            };
            eprint!("error: {error}\n{}", place.unwrap_or_default());
            ExitCode::FAILURE
        }
    }
}

/// What `concord json` computed.
enum Output {
    Ok,
    Canonical(Vec<u8>),
    Digest(String),
}

/// How an input is named where its lines are shown: its path as given, `<stdin>` for `-`.
fn input_name(file: &std::path::Path) -> String {
    if file.as_os_str() == "-" {
        "<stdin>".to_owned()
    } else {
        concord_codegen::error::shown(&file.display().to_string())
    }
}
