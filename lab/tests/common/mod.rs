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
