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
pub fn fuzz(registry: &Path, cases: u64, findings: &Path) -> (u64, u64, String) {
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
