//! This crate's own source, carried by the `concord` command (the `source`
//! feature): `concord roundtrip` and `concord fuzz` build a registry's
//! bindings against exactly the runtime of the command's own version, with
//! no checkout of concord and no package registry to find it in.

/// The crate's manifest, as packaged (its dependencies and features; the
/// command writes a manifest of its own from them).
pub const MANIFEST: &str = include_str!("../Cargo.toml");

/// Every file of `src/` a build needs, by its path below the crate (its
/// tests are left out).
pub const FILES: &[(&str, &str)] = &[
    ("src/batch.rs", include_str!("batch.rs")),
    ("src/bind.rs", include_str!("bind.rs")),
    ("src/canonical.rs", include_str!("canonical.rs")),
    ("src/canonical/compact.rs", include_str!("canonical/compact.rs")),
    ("src/checks.rs", include_str!("checks.rs")),
    ("src/document.rs", include_str!("document.rs")),
    ("src/engine.rs", include_str!("engine.rs")),
    ("src/failure.rs", include_str!("failure.rs")),
    ("src/float.rs", include_str!("float.rs")),
    ("src/impls.rs", include_str!("impls.rs")),
    ("src/lib.rs", include_str!("lib.rs")),
    ("src/location.rs", include_str!("location.rs")),
    ("src/notes.rs", include_str!("notes.rs")),
    ("src/number.rs", include_str!("number.rs")),
    ("src/pattern.rs", include_str!("pattern.rs")),
    ("src/pinned.rs", include_str!("pinned.rs")),
    ("src/pointer.rs", include_str!("pointer.rs")),
    ("src/profile.rs", include_str!("profile.rs")),
    ("src/profile/limits.rs", include_str!("profile/limits.rs")),
    ("src/profile/number.rs", include_str!("profile/number.rs")),
    ("src/profile/refusal.rs", include_str!("profile/refusal.rs")),
    ("src/profile/string.rs", include_str!("profile/string.rs")),
    ("src/profile/text.rs", include_str!("profile/text.rs")),
    ("src/read.rs", include_str!("read.rs")),
    ("src/references.rs", include_str!("references.rs")),
    ("src/scan.rs", include_str!("scan.rs")),
    ("src/source.rs", include_str!("source.rs")),
    ("src/strict.rs", include_str!("strict.rs")),
    ("src/typed_id.rs", include_str!("typed_id.rs")),
    ("src/value.rs", include_str!("value.rs")),
    ("src/write.rs", include_str!("write.rs")),
];

#[cfg(test)]
mod tests {
    /// A file added to `src/` and not listed would make the carried copy
    /// fail to build: every file but the tests is listed.
    #[test]
    fn every_source_file_is_carried() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut found = Vec::new();
        let mut folders = vec![root.join("src")];
        while let Some(folder) = folders.pop() {
            for entry in std::fs::read_dir(&folder).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    folders.push(path);
                } else {
                    let relative = path.strip_prefix(root).unwrap().to_str().unwrap().to_owned();
                    if !relative.ends_with("tests.rs") && relative != "src/test_suite.rs" {
                        found.push(relative);
                    }
                }
            }
        }
        found.sort();
        let listed: Vec<&str> = super::FILES.iter().map(|(path, _)| *path).collect();
        assert_eq!(found, listed);
        for (path, text) in super::FILES {
            assert_eq!(std::fs::read_to_string(root.join(path)).unwrap(), *text, "{path}");
        }
    }
}
