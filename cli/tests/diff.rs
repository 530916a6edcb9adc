//! `concord diff`: each rule's pair of tiny registries gives the findings
//! written beside it (fixtures/diff/<case>/expected.json), every row of the
//! rule table is reported by some case, the doc's table is the code's, and
//! the command line's report, exit status and `--against` work as documented.

use concord_cli::diff::{report, Finding, Rule, RULES};
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

mod common;
use common::*;

fn diff(old: &Path, new: &Path) -> Vec<Finding> {
    let load = |dir: &Path| concord_cli::load(dir).unwrap_or_else(|errors| panic!("{}: {errors}", dir.display()));
    concord_cli::diff::diff(&load(old), &load(new))
}

/// The findings of a case, as expected.json spells them: the JSON report
/// without the words and the schema location.
fn findings(old: &Path, new: &Path) -> Vec<Value> {
    as_expected(&diff(old, new), old, new)
}

fn as_expected(found: &[Finding], old: &Path, new: &Path) -> Vec<Value> {
    let sides = report::Sides { old_label: "old", old_dir: old, new_label: "new", new_dir: new };
    let report: Value = serde_json::from_str(&report::json(found, &sides)).unwrap();
    let mut findings = report["findings"].as_array().unwrap().clone();
    for finding in &mut findings {
        let finding = finding.as_object_mut().unwrap();
        finding.remove("message");
        finding.remove("location");
    }
    findings
}

fn sorted(mut values: Vec<Value>) -> Vec<Value> {
    values.sort_by_key(|value| value.to_string());
    values
}

#[test]
fn every_rule_gives_its_findings() {
    let cases = workspace().join("fixtures/diff");
    let mut names: Vec<String> = std::fs::read_dir(&cases)
        .unwrap()
        .filter_map(|entry| {
            let entry = entry.unwrap();
            entry.file_type().unwrap().is_dir().then(|| entry.file_name().to_string_lossy().into_owned())
        })
        .collect();
    names.sort();
    let mut failures = Vec::new();
    let mut rules_seen = BTreeSet::new();
    for name in &names {
        let case = cases.join(name);
        let expected: Vec<Value> = serde_json::from_slice(&std::fs::read(case.join("expected.json")).unwrap()).unwrap();
        let found = diff(&case.join("old"), &case.join("new"));
        rules_seen.extend(found.iter().map(|finding| finding.rule));
        let actual = as_expected(&found, &case.join("old"), &case.join("new"));
        if sorted(actual.clone()) != sorted(expected.clone()) {
            failures.push(format!("{name}:\n  expected {}\n  actual   {}", Value::from(expected), Value::from(actual)));
        }
    }
    assert!(failures.is_empty(), "{} of {} cases differ:\n{}", failures.len(), names.len(), failures.join("\n"));
    rules_seen.extend(situations_no_case_has());
    // Every row of the rule table (an id in each of its situations) has a case that reports it.
    let missing: Vec<String> = RULES.iter().filter(|row| !rules_seen.contains(&row.rule)).map(|row| format!("{}: {}", row.id, row.when)).collect();
    assert!(missing.is_empty(), "rules no case reports: {missing:?}");
}

/// Cases for the rows no pair of fixtures/diff/ reports, written here rather
/// than there (every pair there is also an end-to-end case of
/// cli/tests/evolution.rs): checks each case's findings, and returns the
/// rules they report.
fn situations_no_case_has() -> Vec<Rule> {
    let mut seen = Vec::new();
    // A typed map becoming a growth point: the pair of a growth point becoming one, read the other way.
    let case = workspace().join("fixtures/diff/policy-typed-map-from-growth-point");
    let (old, new) = (case.join("new"), case.join("old"));
    let found = diff(&old, &new);
    let expected = json!([{"rule": "policy-typed-map", "severity": "error", "breaks": ["forward"], "type": "Thing.Inner", "path": "/inner"}]);
    assert_eq!(Value::from(as_expected(&found, &old, &new)), expected);
    seen.extend(found.iter().map(|finding| finding.rule));

    // An envelope's version property renamed: both properties on both sides, `x-version-field` names another.
    let scratch = tempfile::tempdir().unwrap();
    let write = |side: &str, field: &str| {
        let dir = scratch.path().join(side);
        std::fs::create_dir_all(&dir).unwrap();
        let schema = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": {"inner": {"$ref": "#/$defs/Inner"}},
            "required": ["inner"],
            "$defs": {"Inner": {
                "type": "object",
                "x-version-field": field,
                "properties": {"v": {"type": "integer", "enum": [1]}, "w": {"type": "integer", "enum": [1]}, "name": {"type": "string"}},
                "required": ["v", "w", "name"]
            }}
        });
        let bytes = serde_json::to_vec_pretty(&schema).unwrap();
        let digest = concord_codegen::registry::digest(&bytes);
        std::fs::write(dir.join("thing.schema.json"), bytes).unwrap();
        let index = json!({"format": 1, "schemas": [{"name": "Thing", "path": "thing.schema.json", "digest": digest}]});
        std::fs::write(dir.join("registry.json"), serde_json::to_vec_pretty(&index).unwrap()).unwrap();
        dir
    };
    let (old, new) = (write("old", "v"), write("new", "w"));
    let found = diff(&old, &new);
    let expected = json!([
        {"rule": "envelope-version-field-changed", "severity": "error", "breaks": ["backward", "forward"], "type": "Thing.Inner", "path": "/inner/w"}
    ]);
    assert_eq!(Value::from(as_expected(&found, &old, &new)), expected);
    seen.extend(found.iter().map(|finding| finding.rule));
    seen
}

/// docs/compatibility.md's table of rules is the code's table, row for row:
/// id, the line on when it applies, the directions it breaks, its severity.
#[test]
fn the_documented_rules_are_the_table() {
    let page = std::fs::read_to_string(workspace().join("docs/compatibility.md")).unwrap();
    let header = "| rule | when | breaks | severity |";
    let start = page.find(header).expect("docs/compatibility.md has a table of rules");
    let documented: String = page[start..].lines().take_while(|line| line.starts_with('|')).map(|line| format!("{line}\n")).collect();
    let table = concord_cli::diff::rules::markdown();
    assert!(documented == table, "docs/compatibility.md's table of rules is not the code's (cli/src/diff/rules.rs); the code's:\n{table}");
    // One table: each rule's row is its own, and a finding's severity and directions are its row's.
    for (index, row) in RULES.iter().enumerate() {
        assert_eq!(row.rule as usize, index);
        assert_eq!((row.rule.id(), row.rule.severity(), row.rule.breaks(), row.rule.when()), (row.id, row.severity, row.breaks, row.when));
    }
}

#[test]
fn an_unchanged_registry_has_no_findings_and_a_registry_diffed_with_itself_passes() {
    let registry = workspace().join("registry");
    assert_eq!(findings(&registry, &registry), Vec::<Value>::new());
    let output = concord(&["diff", "registry", "registry"]);
    assert!(output.status.success(), "{}", text(&output));
    assert_eq!(text(&output), "concord diff registry → registry\nno changes that concord's bindings see\n");
}

/// The table, `--format json`, and the exit status against `--fail-on`.
#[test]
fn the_report_and_the_exit_status_follow_fail_on() {
    let case = workspace().join("fixtures/diff/property-added-default");
    let (old, new) = (case.join("old"), case.join("new"));
    let (old, new) = (old.to_str().unwrap(), new.to_str().unwrap());
    // A warning: passes at the default --fail-on error, fails at warning.
    let table = concord(&["diff", old, new]);
    assert_eq!(table.status.code(), Some(0), "{}", text(&table));
    let report = text(&table);
    let lines: Vec<&str> = report.lines().collect();
    assert_eq!(lines[0], format!("concord diff {old} → {new}"));
    assert_eq!(lines[1], "SEVERITY  RULE                    BREAKS  TYPE         PATH");
    assert_eq!(lines[2], "warning   property-added-default  relay   Thing.Inner  /inner/note");
    assert_eq!(lines[3], "    \"note\" is new at a default type: an older reader drops it, so a relay loses it");
    assert_eq!(lines[4], format!("    at {new}/thing.schema.json#/$defs/Inner/properties/note"));
    assert_eq!(lines[5], "0 errors, 1 warning, 0 info: passes (--fail-on error)");
    assert_eq!(concord(&["diff", old, new, "--fail-on", "warning"]).status.code(), Some(1));

    let json = concord(&["diff", old, new, "--format", "json"]);
    let report: Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(report["findings"][0]["rule"], "property-added-default");
    assert_eq!(report["findings"][0]["location"], format!("{new}/thing.schema.json#/$defs/Inner/properties/note"));

    // An error fails at the default; a registry that cannot be read exits 2.
    let case = workspace().join("fixtures/diff/property-added-closed");
    let output = concord(&["diff", case.join("old").to_str().unwrap(), case.join("new").to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output));
    let output = concord(&["diff", "no/such/registry", new]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert!(text(&output).contains("cannot read the registry index"), "{}", text(&output));
}

/// `--against <revision>`: the registry as git holds it at a revision,
/// against the working tree's.
#[test]
fn against_a_git_revision() {
    let scratch = tempfile::tempdir().unwrap();
    let repository = scratch.path();
    let git = |args: &[&str]| {
        let output = Command::new("git").arg("-C").arg(repository).args(args).output().unwrap();
        assert!(output.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&output.stderr));
    };
    git(&["init", "-q"]);
    let case = workspace().join("fixtures/diff/enum-value-added");
    let registry = repository.join("schemas");
    let copy = |side: &str| {
        std::fs::create_dir_all(&registry).unwrap();
        for entry in std::fs::read_dir(case.join(side)).unwrap() {
            let entry = entry.unwrap();
            std::fs::copy(entry.path(), registry.join(entry.file_name())).unwrap();
        }
    };
    copy("old");
    git(&["add", "."]);
    git(&["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "old"]);
    copy("new");
    let registry_arg = registry.to_str().unwrap();
    let output = concord(&["diff", "--against", "HEAD", "--registry", registry_arg, "--format", "json"]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output));
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["old"], format!("{registry_arg}@HEAD"));
    let expected: Vec<Value> = serde_json::from_slice(&std::fs::read(case.join("expected.json")).unwrap()).unwrap();
    assert_eq!(report["findings"].as_array().unwrap().len(), expected.len(), "{report}");
    assert_eq!(report["findings"][0]["rule"], expected[0]["rule"]);
    // The copy of the old registry is gone afterwards.
    let copies = || -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(std::env::temp_dir())
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|name| name.starts_with("concord-diff-"))
            .collect();
        names.sort();
        names
    };
    let before = copies();
    assert_eq!(concord(&["diff", "--against", "HEAD", "--registry", registry_arg]).status.code(), Some(1));
    assert_eq!(copies(), before);

    let output = concord(&["diff", "--against", "no-such-revision", "--registry", registry_arg]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert!(text(&output).contains("git rev-parse"), "{}", text(&output));

    // A schema file committed as a symlink is refused, not read as its target's name.
    let schema = registry.join("thing.schema.json");
    std::fs::rename(&schema, registry.join("target.json")).unwrap();
    std::os::unix::fs::symlink("target.json", &schema).unwrap();
    git(&["add", "-A"]);
    git(&["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "link"]);
    let output = concord(&["diff", "--against", "HEAD", "--registry", registry_arg]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert!(text(&output).contains("schemas/thing.schema.json is a symlink at HEAD"), "{}", text(&output));
}
