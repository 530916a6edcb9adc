//! `concord diff --against <revision>`: the registry folder as git holds it
//! at a revision, copied out to compare with the working tree's.

use concord_codegen::error::Errors;
use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A registry copied from a git revision into a fresh temporary folder,
/// removed when dropped.
pub struct Checkout {
    folder: PathBuf,
}

impl Checkout {
    /// The registry folder of the copy.
    pub fn dir(&self) -> &Path {
        &self.folder
    }

    /// A folder this call created (`create_dir` fails on one that exists,
    /// so nobody else's folder or link is ever written into).
    fn create() -> std::io::Result<Checkout> {
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
        for attempt in 0u32..100 {
            let name = format!("concord-diff-{}-{nanos:x}-{attempt}", std::process::id());
            let folder = std::env::temp_dir().join(name);
            match std::fs::create_dir(&folder) {
                Ok(()) => return Ok(Checkout { folder }),
                Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(error) => return Err(error),
            }
        }
        Err(std::io::Error::other("no free name for a temporary folder"))
    }
}

impl Drop for Checkout {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.folder);
    }
}

/// Copies the index of `registry` (a folder in a git work tree) as it is
/// at `revision`, and the schema files it lists: as `git checkout` would
/// write them (`cat-file --filters`, so line-ending conversion applies and
/// the pins hold). A symlink or a submodule where a file is listed is refused.
pub fn checkout(registry: &Path, revision: &str) -> Result<Checkout, Errors> {
    let fail = |message: String| Errors::one(registry, "", message);
    if revision.starts_with('-') {
        return Err(fail(format!("{revision:?} is not a git revision")));
    }
    let git = |args: &[&str]| -> Result<Vec<u8>, Errors> {
        let output = Command::new("git").arg("-C").arg(registry).args(args).output().map_err(|error| fail(format!("cannot run git: {error}")))?;
        if !output.status.success() {
            return Err(fail(format!("git {} failed: {}", args.join(" "), String::from_utf8_lossy(&output.stderr).trim())));
        }
        Ok(output.stdout)
    };
    let prefix = String::from_utf8_lossy(&git(&["rev-parse", "--show-prefix"])?).trim_end_matches('\n').to_owned();
    let commit = String::from_utf8_lossy(&git(&["rev-parse", "--verify", "--end-of-options", &format!("{revision}^{{commit}}")])?).trim().to_owned();
    // Each path's mode below the registry folder (metadata only).
    let mut args = vec!["ls-tree", "-r", "-z", "--full-tree", &commit];
    if !prefix.is_empty() {
        args.extend(["--", prefix.as_str()]);
    }
    let listing = git(&args)?;
    let modes: HashMap<String, String> = listing
        .split(|&b| b == 0)
        .filter_map(|line| {
            let line = String::from_utf8_lossy(line);
            let (meta, path) = line.split_once('\t')?;
            Some((path.to_owned(), meta.split(' ').next()?.to_owned()))
        })
        .collect();
    let checkout = Checkout::create().map_err(|error| fail(format!("cannot create a temporary folder: {error}")))?;
    let copy = |relative: &str| -> Result<(), Errors> {
        let path = format!("{prefix}{relative}");
        match modes.get(&path).map(String::as_str) {
            // Not at that revision: `load` says the file is missing.
            None => return Ok(()),
            Some("100644" | "100755") => {}
            Some("120000") => return Err(fail(format!("{path} is a symlink at {revision}: a registry file must be a regular file"))),
            Some(mode) => return Err(fail(format!("{path} is not a file at {revision} (mode {mode})"))),
        }
        let bytes = git(&["cat-file", "--filters", &format!("{commit}:{path}")])?;
        let target = checkout.dir().join(relative);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(|error| fail(format!("cannot create {}: {error}", parent.display())))?;
        }
        std::fs::write(&target, bytes).map_err(|error| fail(format!("cannot write {}: {error}", target.display())))
    };
    let index = concord_codegen::registry::INDEX;
    if !modes.contains_key(&format!("{prefix}{index}")) {
        let place = if prefix.is_empty() { "the repository's root".to_owned() } else { prefix.clone() };
        return Err(fail(format!("no {index} in {place} at {revision}")));
    }
    copy(index)?;
    // The files the index lists; a path the registry reader would refuse
    // (`..`, absolute) is not fetched, and `load` says why.
    let listed = std::fs::read(checkout.dir().join(index)).ok().and_then(|bytes| serde_json::from_slice::<Value>(&bytes).ok());
    let paths = listed.as_ref().and_then(|index| index.get("schemas")?.as_array()).into_iter().flatten().filter_map(|entry| entry.get("path")?.as_str());
    for path in paths {
        let plain = Path::new(path).components().all(|part| matches!(part, std::path::Component::Normal(_) | std::path::Component::CurDir));
        if plain && !path.contains('\\') {
            copy(path.trim_start_matches("./"))?;
        }
    }
    Ok(checkout)
}
