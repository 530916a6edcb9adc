//! The generated code of a registry that holds every construct, and its
//! plan (`concord_codegen::plan`), checked in
//! (`fixtures/constructs/expected/`), as prost-build keeps its
//! `_expected_*.rs`: a change to an emitter shows, in the diff a reviewer
//! reads, what it does to users' code. After an intended change, write them
//! anew with `CONCORD_BLESS=1 cargo nextest run -p concord-codegen goldens`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the workspace").to_path_buf()
}

/// Every file below `dir`, by its path relative to `dir`.
fn files_below(dir: &Path) -> BTreeSet<PathBuf> {
    let mut found = BTreeSet::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(folder) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else { continue };
        for entry in entries.map(|entry| entry.expect("a readable folder")) {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else {
                found.insert(path.strip_prefix(dir).expect("below dir").to_path_buf());
            }
        }
    }
    found
}

#[test]
fn every_construct_generates_the_checked_in_code() {
    let root = root();
    let expected = root.join("fixtures/constructs/expected");
    let config = concord_codegen::Config::new().registry(root.join("fixtures/constructs/registry")).clone();
    let model = concord_codegen::load(config.registry_dir()).expect("the constructs registry loads");
    let mut files = config.files(&model);
    // The plan every runtime reads, language-neutral, as a reviewer reads it.
    let plan = serde_json::to_string_pretty(&concord_codegen::plan::registry(&model)).expect("JSON") + "\n";
    files.push(concord_codegen::GeneratedFile { path: "plan.json".into(), contents: plan });
    if std::env::var_os("CONCORD_BLESS").is_some() {
        let _ = std::fs::remove_dir_all(&expected);
        concord_codegen::write_files(&expected, &files).expect("the goldens are written");
    }
    let generated: BTreeSet<PathBuf> = files.iter().map(|file| file.path.clone()).collect();
    assert_eq!(files_below(&expected), generated, "the checked-in files are not the generated ones: run with CONCORD_BLESS=1 and review the diff");
    let stale = concord_codegen::stale_files(&expected, &files);
    assert!(
        stale.is_empty(),
        "generated code differs from the checked-in goldens in {stale:?}: if the change is intended, run with CONCORD_BLESS=1 and review the diff"
    );
}
