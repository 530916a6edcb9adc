//! The official JSON-Schema-Test-Suite (draft2020-12, required tests), each
//! test group's schema a registry root: the groups concord binds must give
//! every instance the suite's verdict in both languages, with equal bytes;
//! the groups it refuses must be refused at generation time, naming a file
//! and a pointer. One combined registry, compiled once.
//!
//! `fixtures/vectors/json-schema-test-suite.tsv` records which groups bind: a
//! ratchet, so the count can only go up. After the generator binds more,
//! record it with `CONCORD_RECORD_SUITE=1 cargo nextest run -p concord-lab
//! --test test_suite` (the count is quoted in docs/proof.md).
//!
//! The suite is read from `$CONCORD_TEST_SUITE`, else
//! `fixtures/vectors/json-schema-test-suite` (copied from the suite, MIT, see its LICENSE).

mod common;

use common::{python, workspace};
use concord_cli::roundtrip::{Case, Outcome};
use concord_lab::survey::{self, Build, Candidate, Document, Expect, Instance, Verdict};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

const DRAFT: &str = "https://json-schema.org/draft/2020-12/schema";
const RECORD: &str = "fixtures/vectors/json-schema-test-suite.tsv";

fn suite_dir() -> PathBuf {
    let dir = std::env::var_os("CONCORD_TEST_SUITE").map(PathBuf::from).unwrap_or_else(|| workspace().join("fixtures/vectors/json-schema-test-suite"));
    assert!(dir.is_dir(), "no JSON-Schema-Test-Suite at {}: set CONCORD_TEST_SUITE to its tests/draft2020-12 folder", dir.display());
    dir
}

/// One test group: where it comes from.
struct Group {
    file: String,
    index: usize,
    description: String,
}

/// Whether a JSON value holds a float with no fraction (`1.0`) anywhere.
fn integral_float(value: &Value) -> bool {
    match value {
        Value::Number(number) => number.is_f64() && number.as_f64().is_some_and(|f| f.fract() == 0.0),
        Value::Array(items) => items.iter().any(integral_float),
        Value::Object(members) => members.values().any(integral_float),
        _ => false,
    }
}

/// Every group of every file (not `optional/`) as a candidate, in file
/// order; and how many valid instances are outside the strict profile
/// (concord refuses those whatever the schema: they are expected refused).
fn candidates(dir: &Path) -> (Vec<Group>, Vec<Candidate>, usize) {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|e| e == "json")).collect();
    files.sort();
    let (mut groups, mut candidates, mut outside_profile) = (Vec::new(), Vec::new(), 0);
    let mut names = concord_codegen::names::Numbering::default();
    for path in files {
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        let stem = file.trim_end_matches(".json");
        let Value::Array(tests) = serde_json::from_slice::<Value>(&std::fs::read(&path).unwrap()).unwrap() else { panic!("{file}: not an array") };
        for (index, group) in tests.into_iter().enumerate() {
            let description = group["description"].as_str().unwrap_or_default().to_owned();
            let schema = match group["schema"].clone() {
                Value::Object(object) if !object.contains_key("$schema") => {
                    let mut with = Map::new();
                    with.insert("$schema".into(), Value::String(DRAFT.into()));
                    with.extend(object);
                    Value::Object(with)
                }
                schema => schema,
            };
            let name = names.unique(&format!("Ts{}{index}", concord_codegen::names::pascal(stem, "N")), str::to_owned);
            let mut instances = Vec::new();
            for (number, test) in group["tests"].as_array().unwrap().iter().enumerate() {
                let bytes = serde_json::to_vec(&test["data"]).unwrap();
                let mut expect = if test["valid"] == Value::Bool(true) { Expect::Valid } else { Expect::Invalid };
                // Outside concord's strict reading profile (docs/strict-json.md): refused whatever the schema.
                // And concord's integers are written without a fraction
                // (docs/schema-subset.md): `1.0` is refused where an integer is
                // expected, though JSON Schema calls it one.
                let integer_rule = integral_float(&test["data"]) && schema.to_string().contains("\"integer\"");
                if concord_runtime::strict::read(&bytes).is_err() || integer_rule {
                    outside_profile += usize::from(expect == Expect::Valid);
                    expect = Expect::Invalid;
                }
                let description = test["description"].as_str().unwrap_or_default().to_owned();
                instances.push(Instance { root: name.clone(), file: format!("{number}.json"), description, bytes, expect });
            }
            let mut bytes = serde_json::to_vec_pretty(&schema).unwrap();
            bytes.push(b'\n');
            candidates.push(Candidate {
                label: format!("{file} #{index} ({description})"),
                main: Document { name, path: "schema.json".into(), bytes, uri: None },
                extras: Vec::new(),
                instances,
            });
            groups.push(Group { file: file.clone(), index, description });
        }
    }
    (groups, candidates, outside_profile)
}

fn show(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Written { output, .. } => format!("accepted, wrote {output}"),
        Outcome::Refused(why) => format!("refused: {why}"),
        Outcome::Crashed(why) => format!("CRASHED: {why}"),
        Outcome::Disagreed(why) => format!("TYPES AND VALIDATOR DISAGREE: {why}"),
    }
}

#[test]
fn bound_groups_give_the_suites_verdicts_and_refused_groups_name_file_and_pointer() {
    let started = Instant::now();
    let python = PathBuf::from(python());
    let (groups, candidates, outside_profile) = candidates(&suite_dir());
    let work_dir = workspace().join("target/concord-test-suite");
    let harness_dir = workspace().join("target/concord-roundtrip");
    let options = survey::Options { work_dir: &work_dir, harness_dir: &harness_dir, python: &python, isolate_failures: false };
    let plan = survey::plan(candidates, &work_dir).unwrap();
    let planned = started.elapsed();
    let result = survey::build(plan, &options);

    let mut problems = String::new();
    // Refused groups name a file of their own and a JSON pointer; nothing panics.
    for (group, entry) in groups.iter().zip(&result.entries) {
        match &entry.verdict {
            Verdict::Bindable => {}
            Verdict::Refused(why) => {
                let first = &why[0];
                let folder = &entry.candidate.main.name;
                if !first.file.starts_with(folder) || !(first.pointer.is_empty() || first.pointer.starts_with('/')) || first.message.is_empty() {
                    let _ = writeln!(problems, "{}: refused without a file of its own and a pointer: {first}", entry.candidate.label);
                }
            }
            Verdict::Failed(panic) => {
                let _ = writeln!(problems, "{}: the generator panicked: {panic}", entry.candidate.label);
            }
        }
        // concord never fetches: a group that needs a remote document stays refused.
        if group.file == "refRemote.json" && entry.bindable() {
            let _ = writeln!(problems, "{}: bound, but it needs documents from http://localhost:1234", entry.candidate.label);
        }
    }
    for entry in result.entries.iter().filter(|e| e.dropped.is_some()) {
        let _ = writeln!(problems, "{}: bindable alone, but not beside the others: {:?}", entry.candidate.label, entry.dropped);
    }

    // Bound groups: every instance checked, every verdict the suite's, equal bytes.
    let checked = result.checked();
    let bound = result.entries.iter().filter(|e| e.in_combined()).count();
    let expected_cases: usize = result.entries.iter().filter(|e| e.in_combined()).map(|e| e.candidate.instances.len()).sum();
    match &result.build {
        Build::Failed { stage, message } => {
            let _ = writeln!(problems, "the combined registry of the {bound} bound groups {}:\n{message}", stage.describe());
        }
        Build::Ran(_) | Build::NotRun if checked.len() != expected_cases => {
            let _ = writeln!(problems, "{} of the {expected_cases} instances of bound groups were checked", checked.len());
        }
        _ => {}
    }
    let failing: Vec<&survey::Checked> = checked.iter().filter(|c| !c.case.passed()).collect();
    let wrong = failing.iter().filter(|c| survey::wrong_verdict(c.case)).count();
    for failure in &failing {
        let Case { rust, python, .. } = failure.case;
        let kind = if survey::wrong_verdict(failure.case) { "WRONG VERDICT" } else { "DISAGREEMENT" };
        let expected = match failure.instance.expect {
            Expect::Valid => "valid (accepted, equal bytes in both)",
            Expect::Invalid => "invalid (refused by both)",
            Expect::Unknown => "the same in both",
        };
        let _ = writeln!(
            problems,
            "{kind}: {}\n  instance {}: {} = {}\n  expected: {expected}\n  rust:     {}\n  python:   {}",
            failure.entry.candidate.label,
            failure.instance.file,
            failure.instance.description,
            String::from_utf8_lossy(&failure.instance.bytes),
            show(rust),
            show(python)
        );
    }

    // The report, by file.
    let mut by_file: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for (group, entry) in groups.iter().zip(&result.entries) {
        let counts = by_file.entry(&group.file).or_default();
        counts.0 += usize::from(entry.in_combined());
        counts.1 += 1;
    }
    let mut report = format!(
        "JSON-Schema-Test-Suite draft2020-12: {bound} of {} groups bound; {} instances checked in both languages, {} wrong verdicts, {} disagreements; {outside_profile} valid instances are outside the strict profile or concord's integer rule (refused by design); {:.1}s (plan {:.1}s)\n",
        groups.len(),
        checked.len(),
        wrong,
        failing.len() - wrong,
        started.elapsed().as_secs_f64(),
        planned.as_secs_f64()
    );
    for (file, (bound, total)) in &by_file {
        let _ = writeln!(report, "  {file}: {bound} / {total}");
    }
    eprintln!("{report}");

    // The ratchet: no fewer groups bind than recorded.
    let record_file = workspace().join(RECORD);
    let now: Vec<String> = groups
        .iter()
        .zip(&result.entries)
        .map(|(group, entry)| {
            let verdict = match (&entry.verdict, entry.in_combined()) {
                (_, true) => "bound".to_owned(),
                (Verdict::Refused(why), _) => format!("refused\t{}", survey::first_reason(why).replace(['\t', '\n'], " ")),
                (Verdict::Failed(panic), _) => format!("failed\t{}", panic.replace(['\t', '\n'], " ")),
                (Verdict::Bindable, false) => "dropped".to_owned(),
            };
            format!("{}\t{}\t{}\t{verdict}", group.file, group.index, group.description.replace(['\t', '\n'], " "))
        })
        .collect();
    let recorded = std::fs::read_to_string(&record_file).unwrap_or_default();
    let bound_in = |rows: &mut dyn Iterator<Item = &str>| -> BTreeSet<String> {
        rows.filter_map(|row| {
            let cells: Vec<&str> = row.split('\t').collect();
            (cells.get(3) == Some(&"bound")).then(|| format!("{} #{} ({})", cells[0], cells[1], cells[2]))
        })
        .collect()
    };
    let was = bound_in(&mut recorded.lines().skip(1));
    let is = bound_in(&mut now.iter().map(String::as_str));
    if std::env::var_os("CONCORD_RECORD_SUITE").is_some() {
        let text = format!("file\tgroup\tdescription\tverdict\tfirst reason\n{}\n", now.join("\n"));
        std::fs::write(&record_file, text).unwrap();
    } else if is.len() < was.len() {
        let lost: Vec<&String> = was.difference(&is).collect();
        let _ = writeln!(problems, "{} groups bind, fewer than the {} recorded in {RECORD}; no longer bound: {lost:#?}", is.len(), was.len());
    } else if is != was {
        eprintln!(
            "{} groups bind, {} recorded in {RECORD}: record them with\n  CONCORD_RECORD_SUITE=1 cargo nextest run -p concord-lab --test test_suite\nand update the figures in docs/proof.md",
            is.len(),
            was.len()
        );
    }
    assert!(problems.is_empty(), "{problems}\n{report}");
    assert!(recorded.lines().count() > 1 || std::env::var_os("CONCORD_RECORD_SUITE").is_some(), "no record at {RECORD}: run once with CONCORD_RECORD_SUITE=1");
}
