//! What the lab's tests share: the workspace, and the Python that has the
//! pinned packages.

#![allow(dead_code)] // each test file uses its own part

use std::path::{Path, PathBuf};

pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// The Python that has the pinned packages and concord_runtime: `scripts/test` makes `.venv`.
pub fn python() -> String {
    let python = std::env::var("CONCORD_PYTHON").unwrap_or_else(|_| workspace().join(".venv/bin/python").display().to_string());
    assert!(Path::new(&python).exists(), "no Python at {python}: run scripts/test, which creates .venv with the pinned packages");
    python
}

/// A short fixed-seed `concord fuzz` pass over a registry the test built
/// (its bindings are the survey's, compiled already): instances of every
/// record type and near-misses of them, which both languages must judge
/// alike, each type as its own pinned validator does. The disagreements,
/// shown, and how many cases ran.
pub fn fuzz(registry: &Path, cases: u64, findings: &Path, typescript: bool) -> (u64, u64, String) {
    let options = concord_cli::fuzz::runner::Options {
        cases,
        seed: 13,
        time: None,
        only: None,
        work_dir: workspace().join("target/concord-roundtrip"),
        python: PathBuf::from(python()),
        findings: findings.to_path_buf(),
        progress: false,
        release: false,
        // Three ways where the time allows: real schemas reach what the construct registries do not.
        languages: concord_cli::roundtrip::Languages { typescript },
    };
    let summary = concord_cli::fuzz::runner::run(concord_codegen::Config::new().registry(registry), &options).unwrap_or_else(|errors| panic!("{errors}"));
    // The findings and the last line, not the table of every type.
    let shown = summary
        .to_string()
        .lines()
        .filter(|line| line.starts_with("DISAGREE") || line.starts_with("  ") || line.starts_with("seed "))
        .collect::<Vec<_>>()
        .join("\n");
    (summary.cases(), summary.disagreements, shown)
}

/// The bindings of `registry` held to the linters users run on theirs:
/// the Rust included in a crate of its own (at `krate`) under `cargo clippy
/// -- -D warnings`, the Python package under `ruff check`, `ruff format
/// --check` and `mypy --strict` with the repository's settings. What each
/// reported, or nothing.
pub fn lint_bindings(registry: &Path, krate: &Path) -> String {
    use std::process::Command;
    let _ = std::fs::remove_dir_all(krate);
    let files = match concord_codegen::Config::new().registry(registry).generate() {
        Ok(files) => files,
        Err(errors) => return format!("the bindings did not generate:\n{errors}\n"),
    };
    concord_codegen::write_files(&krate.join("generated"), &files).unwrap();
    std::fs::create_dir_all(krate.join("src")).unwrap();
    std::fs::write(
        krate.join("Cargo.toml"),
        format!(
            "[package]\nname = \"lint\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n[dependencies]\nconcord-runtime = {{ path = {:?}, features = [\"validate\"] }}\n\n[workspace]\n",
            workspace().join("runtime/rust").display().to_string()
        ),
    )
    .unwrap();
    std::fs::write(krate.join("src/lib.rs"), "include!(\"../generated/rust/concord_registry.rs\");\n").unwrap();
    let config = workspace().join("pyproject.toml");
    let package = krate.join("generated/python/concord_registry");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut clippy = Command::new(cargo);
    clippy
        .args(["clippy", "--quiet", "--manifest-path"])
        .arg(krate.join("Cargo.toml"))
        .args(["--", "-D", "warnings"])
        .env("CARGO_TARGET_DIR", workspace().join("target/concord-consumers"));
    let python = python();
    let mut ruff = Command::new(&python);
    ruff.args(["-m", "ruff", "check", "--no-cache", "--config"]).arg(&config).arg(&package);
    let mut format = Command::new(&python);
    format.args(["-m", "ruff", "format", "--no-cache", "--check", "--config"]).arg(&config).arg(&package);
    let mut mypy = Command::new(&python);
    mypy.args(["-m", "mypy", "--no-incremental", "--cache-dir", "/dev/null", "--config-file"])
        .arg(&config)
        .arg(&package)
        .env("PYTHONPATH", workspace().join("runtime/python"));
    let mut problems = String::new();
    for (name, command) in
        [("cargo clippy -- -D warnings", &mut clippy), ("ruff check", &mut ruff), ("ruff format --check", &mut format), ("mypy --strict", &mut mypy)]
    {
        let output = command.current_dir(workspace()).output().unwrap();
        if !output.status.success() {
            let text = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
            // The first findings and the count: enough to see the kind.
            let shown: Vec<&str> = text.lines().take(60).collect();
            problems.push_str(&format!("{name} refused the bindings ({} lines):\n{}\n", text.lines().count(), shown.join("\n")));
        }
    }
    problems
}
