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
//! `<case>.agree` asks only that both languages agree (both refuse, or both
//! write the same bytes and digest), for generated inputs.

use crate::error::Errors;
use crate::{emit, write_files, Config, GeneratedFile};
use serde_json::Value;
use std::fmt;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The runtimes' sources, which the scratch builds use.
const RUNTIME_RUST: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../runtime/rust");
const RUNTIME_PYTHON: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../runtime/python");
/// The workspace lock file: the scratch crate builds with the same versions.
const LOCK_FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../Cargo.lock");
const HARNESS: &str = "concord-roundtrip";

/// `$CONCORD_PYTHON`, else `.venv/bin/python` when it exists, else `python3`.
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

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The record was read and written back; `digest` is its record digest,
    /// or why it has none (a float), which both languages must also agree on.
    Written { output: String, digest: String },
    Refused(String),
}

#[derive(Clone, Debug)]
pub struct Case {
    /// `<RootName>/<case>.json`
    pub name: String,
    pub expected: Expected,
    pub rust: Outcome,
    pub python: Outcome,
}

/// What a fixture expects of both languages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expected {
    /// These output bytes.
    Output(Vec<u8>),
    /// A refusal whose message contains this text (empty: any refusal).
    Refusal(String),
    /// Whatever the verdict, the same in both languages (`<case>.agree`):
    /// for generated inputs whose right answer nobody wrote down.
    Agreement,
}

impl Case {
    pub fn passed(&self) -> bool {
        let meets = |outcome: &Outcome| match (&self.expected, outcome) {
            (Expected::Output(expected), Outcome::Written { output, .. }) => output.as_bytes() == expected.as_slice(),
            (Expected::Refusal(text), Outcome::Refused(why)) => why.contains(text.as_str()),
            (Expected::Agreement, Outcome::Written { output, .. }) => {
                matches!(&self.python, Outcome::Written { output: other, .. } if other == output)
            }
            (Expected::Agreement, Outcome::Refused(_)) => matches!(self.python, Outcome::Refused(_)),
            _ => false,
        };
        let same_digest = match (&self.rust, &self.python) {
            (Outcome::Written { digest: rust, .. }, Outcome::Written { digest: python, .. }) => rust == python,
            _ => true,
        };
        meets(&self.rust) && meets(&self.python) && same_digest
    }
}

#[derive(Clone, Debug, Default)]
pub struct Report {
    pub cases: Vec<Case>,
}

impl Report {
    pub fn failed(&self) -> usize {
        self.cases.iter().filter(|case| !case.passed()).count()
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let show = |outcome: &Outcome| match outcome {
            Outcome::Written { output, digest } => format!("wrote   {output}\n            digest  {digest}"),
            Outcome::Refused(why) => format!("refused {why}"),
        };
        for case in self.cases.iter().filter(|case| !case.passed()) {
            writeln!(f, "FAIL {}", case.name)?;
            match &case.expected {
                Expected::Refusal(text) if text.is_empty() => writeln!(f, "  expected: refused")?,
                Expected::Refusal(text) => writeln!(f, "  expected: refused ...{text}...")?,
                Expected::Output(bytes) => writeln!(f, "  expected: wrote   {}", String::from_utf8_lossy(bytes))?,
                Expected::Agreement => writeln!(f, "  expected: the same verdict and bytes in both")?,
            }
            writeln!(f, "  rust:     {}", show(&case.rust))?;
            writeln!(f, "  python:   {}", show(&case.python))?;
        }
        let failed = self.failed();
        writeln!(f, "{} passed, {} failed", self.cases.len() - failed, failed)
    }
}

struct Fixture {
    root: String,
    name: String,
    input: PathBuf,
    expected: Expected,
}

/// Runs every fixture through freshly built Rust and Python bindings.
pub fn run(config: &Config, fixtures: &Path, work_dir: &Path, python: &Path) -> Result<Report, Errors> {
    let model = crate::load(config.registry_dir())?;
    let roots: Vec<String> = model.types.iter().filter(|t| t.is_root).map(|t| t.name.clone()).collect();
    let fixtures = collect(fixtures, &roots)?;
    let files = config.files(&model);

    // One scratch folder per registry, one target folder for all: runs on
    // different registries may go at once and still share compiled crates.
    let registry = config.registry_dir().canonicalize().unwrap_or_else(|_| config.registry_dir().to_path_buf());
    let scratch = format!("{HARNESS}-{}", &crate::registry::digest(registry.to_string_lossy().as_bytes())[7..19]);
    let rust_dir = work_dir.join(&scratch).join("rust");
    let mut rust_files = vec![
        GeneratedFile { path: "Cargo.toml".into(), contents: harness_manifest(&scratch) },
        GeneratedFile { path: "src/main.rs".into(), contents: emit::rust::roundtrip_main(&model) },
    ];
    rust_files.extend(files.iter().filter(|f| f.path.starts_with("rust")).map(|f| GeneratedFile {
        path: "src/bindings.rs".into(),
        contents: f.contents.clone(),
    }));
    if let Ok(lock) = std::fs::read_to_string(LOCK_FILE) {
        rust_files.push(GeneratedFile { path: "Cargo.lock".into(), contents: lock });
    }
    write_files(&rust_dir, &rust_files)?;
    let python_files: Vec<GeneratedFile> = files
        .iter()
        .filter_map(|f| f.path.strip_prefix("python").ok().map(|path| GeneratedFile { path: path.into(), contents: f.contents.clone() }))
        .collect();
    let python_dir = work_dir.join(&scratch).join("python");
    write_files(&python_dir, &python_files)?;

    let target_dir = work_dir.join("target");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let build = Command::new(cargo)
        .args(["build", "--quiet", "--manifest-path"])
        .arg(rust_dir.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(&target_dir)
        .output()
        .map_err(|e| Errors::one(&rust_dir, "", format!("cannot run cargo: {e}")))?;
    if !build.status.success() {
        return Err(Errors::one(&rust_dir, "", format!("the Rust bindings did not build:\n{}", String::from_utf8_lossy(&build.stderr))));
    }

    let requests: String = fixtures
        .iter()
        .map(|fixture| format!("{}\t{}\n", fixture.root, fixture.input.display()))
        .collect();
    let rust = answers(Command::new(target_dir.join("debug").join(&scratch)), &requests, fixtures.len(), "Rust")?;
    let mut python_command = Command::new(python);
    let python_path = std::env::join_paths([python_dir.as_path(), Path::new(RUNTIME_PYTHON)])
        .map_err(|e| Errors::one(&python_dir, "", e.to_string()))?;
    python_command.args(["-m", "concord_runtime.roundtrip", config.package_name()]).env("PYTHONPATH", python_path);
    let python = answers(python_command, &requests, fixtures.len(), "Python")?;

    let cases = fixtures
        .into_iter()
        .zip(rust.into_iter().zip(python))
        .map(|(fixture, (rust, python))| Case { name: format!("{}/{}", fixture.root, fixture.name), expected: fixture.expected, rust, python })
        .collect();
    Ok(Report { cases })
}

fn harness_manifest(name: &str) -> String {
    let runtime = Path::new(RUNTIME_RUST).canonicalize().unwrap_or_else(|_| PathBuf::from(RUNTIME_RUST));
    format!(
        "[package]\nname = \"{name}\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
         [dependencies]\nconcord-runtime = {{ path = {:?} }}\n\n[workspace]\n",
        runtime.display().to_string()
    )
}

/// Runs a harness with the requests on stdin and reads one answer per line.
fn answers(mut command: Command, requests: &str, count: usize, language: &str) -> Result<Vec<Outcome>, Errors> {
    let failed = |message: String| Errors::one(Path::new(language), "", message);
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| failed(format!("cannot start the {language} harness: {e}")))?;
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let writer = {
        let requests = requests.to_owned();
        std::thread::spawn(move || stdin.write_all(requests.as_bytes()))
    };
    let output = child.wait_with_output().map_err(|e| failed(format!("the {language} harness failed: {e}")))?;
    let _ = writer.join();
    if !output.status.success() {
        return Err(failed(format!("the {language} harness exited with {}:\n{}", output.status, String::from_utf8_lossy(&output.stderr))));
    }
    let outcomes: Vec<Outcome> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| match serde_json::from_str::<Value>(line) {
            Ok(Value::Object(answer)) => match (answer.get("ok"), answer.get("error")) {
                (Some(Value::String(output)), _) => Outcome::Written {
                    output: output.clone(),
                    digest: answer.get("digest").and_then(Value::as_str).unwrap_or("(no digest answered)").to_owned(),
                },
                (_, Some(Value::String(why))) => Outcome::Refused(why.clone()),
                _ => Outcome::Refused(format!("malformed harness answer: {line}")),
            },
            _ => Outcome::Refused(format!("malformed harness answer: {line}")),
        })
        .collect();
    if outcomes.len() != count {
        return Err(failed(format!(
            "the {language} harness answered {} of {count} fixtures:\n{}",
            outcomes.len(),
            String::from_utf8_lossy(&output.stderr)
        )));
    }
    Ok(outcomes)
}

fn collect(dir: &Path, roots: &[String]) -> Result<Vec<Fixture>, Errors> {
    let mut errors = Errors::default();
    let mut fixtures = Vec::new();
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
            errors.push(&type_dir, "", format!("no root type {root:?} in the registry (roots: {})", roots.join(", ")));
            continue;
        }
        let files = listing(&type_dir)?;
        for input in &files {
            let Some(name) = input.file_name().and_then(|n| n.to_str()) else { continue };
            let Some(stem) = name.strip_suffix(".json").filter(|stem| !stem.ends_with(".out")) else {
                let stem = name.strip_suffix(".out.json").or_else(|| name.strip_suffix(".reject")).or_else(|| name.strip_suffix(".agree"));
                match stem {
                    None => errors.push(input, "", "not a fixture file: expected <case>.json, <case>.out.json, <case>.reject or <case>.agree"),
                    Some(stem) if !files.contains(&type_dir.join(format!("{stem}.json"))) => {
                        errors.push(input, "", format!("expects an input {stem}.json beside it"));
                    }
                    Some(_) => {}
                }
                continue;
            };
            let out = type_dir.join(format!("{stem}.out.json"));
            let reject = type_dir.join(format!("{stem}.reject"));
            let read = |path: &Path| std::fs::read(path).map_err(|e| Errors::one(path, "", e.to_string()));
            let agree = type_dir.join(format!("{stem}.agree"));
            let expected = match (out.exists(), reject.exists(), agree.exists()) {
                (false, true, false) => Expected::Refusal(String::from_utf8_lossy(&read(&reject)?).trim().to_owned()),
                (true, false, false) => Expected::Output(read(&out)?),
                (false, false, true) => Expected::Agreement,
                (false, false, false) => Expected::Output(read(input)?),
                _ => {
                    errors.push(input, "", "has more than one of .out.json, .reject and .agree: keep one");
                    continue;
                }
            };
            let input = input.canonicalize().map_err(|e| Errors::one(input, "", e.to_string()))?;
            fixtures.push(Fixture { root: root.clone(), name: name.to_owned(), input, expected });
        }
    }
    if fixtures.is_empty() && errors.is_empty() {
        errors.push(dir, "", "no fixtures found");
    }
    errors.finish(fixtures)
}
