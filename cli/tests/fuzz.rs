//! `concord fuzz`: a short fixed-seed pass over the shipped registry and
//! the constructs registry (the long runs are in docs/fuzzing.md), and
//! proof that the runner sees a disagreement, shrinks it and writes it down.

mod common;
use common::*;
use std::os::unix::fs::PermissionsExt;

fn fuzz(registry: &str, cases: &str, python: &str, findings: &std::path::Path, more: &[&str]) -> std::process::Output {
    let work = workspace().join("target/concord-roundtrip");
    let args = [
        "fuzz",
        "--registry",
        registry,
        "--cases",
        cases,
        "--seed",
        "20261130",
        "--python",
        python,
        "--work-dir",
        work.to_str().unwrap(),
        "--findings",
        findings.to_str().unwrap(),
    ];
    concord(&[&args[..], more].concat())
}

#[test]
fn the_shipped_registry_and_the_constructs_agree_under_a_short_fuzzing_pass() {
    let findings = tempfile::tempdir().unwrap();
    for (registry, types) in [("registry", 21), ("fixtures/constructs/registry", 63)] {
        let output = fuzz(registry, "600", &python(), findings.path(), &[]);
        assert!(output.status.success(), "{}", text(&output));
        let report = String::from_utf8_lossy(&output.stdout);
        let last = report.lines().last().unwrap();
        assert!(last.contains(&format!(": {} cases in ", 600 * types)) && last.ends_with(" 0 disagreements"), "{last}");
        // Every record type had instances both languages accepted and near-misses both refused.
        for line in report.lines().filter(|line| line.contains('.') && line.split_whitespace().count() == 4) {
            let counts: Vec<u64> = line.split_whitespace().skip(1).map(|n| n.parse().unwrap()).collect();
            assert!(counts[0] == 600 && counts[1] > 0 && counts[2] > 0, "{line}");
        }
    }
    assert_eq!(std::fs::read_dir(findings.path()).unwrap().count(), 0, "no reproducer written");
}

/// A Python worker that lies (it refuses every `ClsArtifact` record it
/// accepted) must be caught: the run fails, and each disagreement is shrunk
/// to the smallest record the liar still refuses and written as a round-trip
/// fixture that fails the same way.
#[test]
fn a_disagreement_is_found_shrunk_and_written_as_a_fixture() {
    let scratch = tempfile::tempdir().unwrap();
    let liar = scratch.path().join("python");
    let script = format!("#!/bin/sh\n\"{}\" \"$@\" | sed -u 's/^{{\"ok\": \"{{\\\\\"format_version.*$/{{\"error\": \"at \\\\\"\\\\\": a lie\"}}/'\n", python());
    std::fs::write(&liar, script).unwrap();
    std::fs::set_permissions(&liar, std::fs::Permissions::from_mode(0o755)).unwrap();
    let findings = scratch.path().join("findings");
    let output = fuzz("registry", "24", liar.to_str().unwrap(), &findings, &["--only", "ClsArtifact.ClsArtifact"]);
    let text = text(&output);
    assert_eq!(output.status.code(), Some(1), "{text}");
    assert!(text.contains("DISAGREE ") && !text.contains(" 0 disagreements"), "{text}");
    let fixtures: Vec<_> = walk(&findings).into_iter().filter(|path| path.extension().is_some_and(|e| e == "json")).collect();
    assert!(!fixtures.is_empty(), "{text}");
    for fixture in &fixtures {
        assert!(fixture.with_extension("agree").exists());
        // Shrunk: only the required properties are left, with empty strings and zeros.
        let shrunk = std::fs::read_to_string(fixture).unwrap();
        assert!(fixture.to_string_lossy().contains("ClsArtifact.ClsArtifact") && shrunk.len() < 260 && !shrunk.contains(r#"[{"#), "{shrunk}");
    }
    // The findings folder is a fixtures folder: it fails `concord roundtrip`
    // with the same liar, and passes with the real Python.
    let work = workspace().join("target/concord-roundtrip");
    let run = |python: &str| {
        concord(&["roundtrip", "--registry", "registry", "--fixtures", findings.to_str().unwrap(), "--work-dir", work.to_str().unwrap(), "--python", python])
    };
    let lied = run(liar.to_str().unwrap());
    assert!(!lied.status.success(), "{}", self::text(&lied));
    let honest = run(&python());
    assert!(honest.status.success(), "{}", self::text(&honest));
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}
