//! What the command-line tests share: the workspace, the `concord` command,
//! and the Python that has the pinned packages.

#![allow(dead_code)] // each test file uses its own part

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// Runs `concord` in the workspace.
pub fn concord(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_concord")).args(args).current_dir(workspace()).output().unwrap()
}

/// Standard output and standard error, together.
pub fn text(output: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr))
}

/// The Python that has the pinned packages: `scripts/test` makes `.venv`.
pub fn python() -> String {
    let python = std::env::var("CONCORD_PYTHON").unwrap_or_else(|_| workspace().join(".venv/bin/python").display().to_string());
    assert!(Path::new(&python).exists(), "no Python at {python}: run scripts/test, which creates .venv with the pinned packages");
    python
}
