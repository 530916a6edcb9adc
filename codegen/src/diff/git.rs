//! `concord diff --against <revision>`: the registry folder as git holds it
//! at a revision, copied out to compare with the working tree's.

use crate::error::Errors;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A registry folder copied from a git revision into a temporary folder,
/// removed when dropped.
pub struct Checkout {
    pub dir: PathBuf,
}

impl Drop for Checkout {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Copies the files below `registry` (a folder in a git work tree) as they
/// are at `revision`.
pub fn checkout(registry: &Path, revision: &str) -> Result<Checkout, Errors> {
    let fail = |message: String| Errors::one(registry, "", message);
    if revision.starts_with('-') {
        return Err(fail(format!("{revision:?} is not a git revision")));
    }
    let git = |args: &[&str]| -> Result<Vec<u8>, Errors> {
        let output = Command::new("git")
            .arg("-C")
            .arg(registry)
            .args(args)
            .output()
            .map_err(|error| fail(format!("cannot run git: {error}")))?;
        if !output.status.success() {
            return Err(fail(format!("git {} failed: {}", args.join(" "), String::from_utf8_lossy(&output.stderr).trim())));
        }
        Ok(output.stdout)
    };
    let prefix = String::from_utf8_lossy(&git(&["rev-parse", "--show-prefix"])?).trim().to_owned();
    let commit = String::from_utf8_lossy(&git(&["rev-parse", "--verify", "--end-of-options", &format!("{revision}^{{commit}}")])?).trim().to_owned();
    let mut args = vec!["ls-tree", "-r", "-z", "--name-only", "--full-tree", &commit];
    if !prefix.is_empty() {
        args.extend(["--", prefix.as_str()]);
    }
    let listing = git(&args)?;
    let dir = std::env::temp_dir().join(format!("concord-diff-{}-{}", std::process::id(), &commit[..12.min(commit.len())]));
    let checkout = Checkout { dir: dir.clone() };
    std::fs::create_dir_all(&dir).map_err(|error| fail(format!("cannot create {}: {error}", dir.display())))?;
    let mut found = false;
    for path in listing.split(|&b| b == 0).filter(|p| !p.is_empty()) {
        let path = String::from_utf8_lossy(path).into_owned();
        let Some(relative) = path.strip_prefix(&prefix) else { continue };
        let bytes = git(&["cat-file", "blob", &format!("{commit}:{path}")])?;
        let target = dir.join(relative);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(|error| fail(format!("cannot create {}: {error}", parent.display())))?;
        }
        std::fs::write(&target, bytes).map_err(|error| fail(format!("cannot write {}: {error}", target.display())))?;
        found |= relative == crate::registry::INDEX;
    }
    if !found {
        return Err(fail(format!("no {} in {} at {revision}", crate::registry::INDEX, if prefix.is_empty() { "the repository's root" } else { &prefix })));
    }
    Ok(checkout)
}
