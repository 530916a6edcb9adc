//! The official JSON-Schema-Test-Suite (required tests of draft4, draft6,
//! draft7, draft2019-09 and draft2020-12), each test group's schema a
//! registry root read in its draft: a schema without `$schema` is declared
//! in its draft in registry.json, as a user would, and pinned as the suite
//! writes it. The groups concord binds must give every instance the suite's
//! verdict in both languages, with equal bytes; the groups it refuses must
//! be refused at generation time, naming a file and a pointer. One combined
//! registry per draft, compiled once (the drafts' groups share `$id`s).
//!
//! `fixtures/vectors/test-suite-records/<draft>.tsv` records which groups
//! of each draft bind: a ratchet, so no draft's count can go down. After
//! the generator binds more, record them with `CONCORD_RECORD_SUITE=1 cargo
//! nextest run -p concord-lab --test test_suite` (the counts are quoted in
//! docs/proof.md).
//!
//! The suite is read from `$CONCORD_TEST_SUITE` (its `tests` folder), else
//! `fixtures/vectors/json-schema-test-suite/tests` (copied from the suite,
//! MIT, see its LICENSE).

mod common;

use common::{python, workspace};
use concord_cli::roundtrip::{Case, Outcome};
use concord_codegen::vocabulary::Dialect;
use concord_lab::survey::{self, Build, Candidate, Document, Expect, Instance, Verdict};
use serde_json::Value;
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Each draft's folder in the suite, its dialect, and the tag its entries' names carry.
const DRAFTS: &[(&str, Dialect, &str)] = &[
    ("draft4", Dialect::Draft4, "D4"),
    ("draft6", Dialect::Draft6, "D6"),
    ("draft7", Dialect::Draft7, "D7"),
    ("draft2019-09", Dialect::Draft201909, "D2019"),
    ("draft2020-12", Dialect::Draft202012, "D2020"),
];
const RECORDS: &str = "fixtures/vectors/test-suite-records";
/// Fuzzed cases per record type of each draft's registry.
const FUZZ_CASES: u64 = 200;

fn suite_dir() -> PathBuf {
    let dir = std::env::var_os("CONCORD_TEST_SUITE").map(PathBuf::from).unwrap_or_else(|| workspace().join("fixtures/vectors/json-schema-test-suite/tests"));
    assert!(dir.join("draft2020-12").is_dir(), "no JSON-Schema-Test-Suite at {}: set CONCORD_TEST_SUITE to its tests folder", dir.display());
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

/// Every group of a draft's files (not `optional/`) as a candidate, in
/// file order; and how many valid instances are outside the strict profile
/// (concord refuses those whatever the schema: they are expected refused).
fn candidates(dir: &Path, (draft, dialect, tag): (&'static str, Dialect, &str)) -> (Vec<Group>, Vec<Candidate>, usize) {
    let (mut groups, mut candidates, mut outside_profile) = (Vec::new(), Vec::new(), 0);
    let mut names = concord_codegen::naming::words::Numbering::default();
    let mut files: Vec<PathBuf> =
        std::fs::read_dir(dir.join(draft)).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|e| e == "json")).collect();
    files.sort();
    for path in files {
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        let stem = file.trim_end_matches(".json");
        let Value::Array(tests) = serde_json::from_slice::<Value>(&std::fs::read(&path).unwrap()).unwrap() else { panic!("{file}: not an array") };
        for (index, group) in tests.into_iter().enumerate() {
            let description = group["description"].as_str().unwrap_or_default().to_owned();
            let schema = group["schema"].clone();
            // The group's draft, declared for a schema that does not say its own.
            let declared = schema.get("$schema").is_none().then(|| dialect.name().to_owned());
            let name = names.unique(&format!("Ts{tag}{}{index}", concord_codegen::naming::words::pascal(stem, "N")), str::to_owned);
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
                label: format!("{draft}/{file} #{index} ({description})"),
                main: Document { name, path: "schema.json".into(), bytes, uri: None, dialect: declared, declared: Default::default() },
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
fn bound_groups_give_the_suites_verdicts_in_every_draft_and_refused_groups_name_file_and_pointer() {
    let started = Instant::now();
    let python = PathBuf::from(python());
    let harness_dir = workspace().join("target/concord-roundtrip");
    let mut problems = String::new();
    let mut report = String::new();
    for &draft in DRAFTS {
        check_draft(draft, &python, &harness_dir, &mut problems, &mut report);
    }
    eprintln!("JSON-Schema-Test-Suite, {:.1}s:\n{report}", started.elapsed().as_secs_f64());
    assert!(problems.is_empty(), "{problems}\n{report}");
}

/// One draft's groups as one registry: its problems and its report line.
fn check_draft((draft, dialect, tag): (&'static str, Dialect, &str), python: &Path, harness_dir: &Path, problems: &mut String, report: &mut String) {
    let started = Instant::now();
    let (groups, candidates, outside_profile) = candidates(&suite_dir(), (draft, dialect, tag));
    let work_dir = workspace().join("target/concord-test-suite").join(draft);
    let options = survey::Options { work_dir: &work_dir, harness_dir, python, isolate_failures: false };
    let plan = survey::plan(candidates, &work_dir).unwrap();
    let result = survey::build(plan, &options);

    // Refused groups name a file of their own and a JSON pointer; nothing panics.
    for (group, entry) in groups.iter().zip(&result.entries) {
        match &entry.verdict {
            Verdict::Bindable => {}
            Verdict::Refused(why) => {
                let first = &why[0];
                let folder = &entry.candidate.main.name;
                if !first.file.starts_with(folder) || !(first.pointer.is_empty() || first.pointer.starts_with('/')) || first.message.is_empty() {
                    let _ = writeln!(*problems, "{}: refused without a file of its own and a pointer: {first}", entry.candidate.label);
                }
            }
            Verdict::Failed(panic) => {
                let _ = writeln!(*problems, "{}: the generator panicked: {panic}", entry.candidate.label);
            }
        }
        // concord never fetches: a group that needs a remote document stays refused.
        if group.file == "refRemote.json" && entry.bindable() {
            let _ = writeln!(*problems, "{}: bound, but it needs documents from http://localhost:1234", entry.candidate.label);
        }
    }
    for entry in result.entries.iter().filter(|e| e.dropped.is_some()) {
        let _ = writeln!(*problems, "{}: bindable alone, but not beside the others: {:?}", entry.candidate.label, entry.dropped);
    }

    // Bound groups: every instance checked, every verdict the suite's, equal bytes.
    let checked = result.checked();
    let bound = result.entries.iter().filter(|e| e.in_combined()).count();
    let expected_cases: usize = result.entries.iter().filter(|e| e.in_combined()).map(|e| e.candidate.instances.len()).sum();
    match &result.build {
        Build::Failed { stage, message } => {
            let _ = writeln!(*problems, "the combined registry of the {bound} bound groups {}:\n{message}", stage.describe());
        }
        Build::Ran(_) | Build::NotRun if checked.len() != expected_cases => {
            let _ = writeln!(*problems, "{} of the {expected_cases} instances of bound groups were checked", checked.len());
        }
        _ => {}
    }
    let failing: Vec<&survey::Checked> = checked.iter().filter(|c| !c.case.passed()).collect();
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

    // Beyond the suite's instances: every record type fuzzed, in every
    // language and with each type's own validator alike.
    let (cases, disagreements, shown) = if matches!(result.build, Build::Ran(_)) {
        common::fuzz(&result.registry, FUZZ_CASES, &work_dir.join("findings"), true)
    } else {
        (0, 0, String::new())
    };
    if disagreements > 0 {
        let _ = writeln!(*problems, "{draft}: concord fuzz found {disagreements} disagreements:\n{shown}");
    }
    let wrong = failing.iter().filter(|c| survey::wrong_verdict(c.case)).count();
    let total = groups.len();
    let _ = writeln!(
        report,
        "  {draft}: {bound} of {total} groups bound ({:.0}%), {} instances checked in both languages, {wrong} wrong verdicts, {} disagreements; {outside_profile} valid instances outside the strict profile or concord's integer rule (refused by design); fuzzed: {cases} cases, {disagreements} disagreements; {:.1}s",
        100.0 * bound as f64 / total.max(1) as f64,
        checked.len(),
        failing.len() - wrong,
        started.elapsed().as_secs_f64()
    );

    // The ratchet: no fewer groups bind than recorded.
    let bound_in = |rows: &mut dyn Iterator<Item = &str>| -> BTreeSet<String> {
        rows.filter_map(|row| {
            let cells: Vec<&str> = row.split('\t').collect();
            (cells.get(3) == Some(&"bound")).then(|| format!("{} #{} ({})", cells[0], cells[1], cells[2]))
        })
        .collect()
    };
    let record_file = workspace().join(RECORDS).join(format!("{draft}.tsv"));
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
    let was = bound_in(&mut recorded.lines().skip(1));
    let is = bound_in(&mut now.iter().map(String::as_str));
    if std::env::var_os("CONCORD_RECORD_SUITE").is_some() {
        let text = format!("file\tgroup\tdescription\tverdict\tfirst reason\n{}\n", now.join("\n"));
        std::fs::create_dir_all(record_file.parent().unwrap()).unwrap();
        std::fs::write(&record_file, text).unwrap();
    } else if recorded.lines().count() <= 1 {
        let _ = writeln!(*problems, "no record at {}: run once with CONCORD_RECORD_SUITE=1", record_file.display());
    } else if is.len() < was.len() {
        let lost: Vec<&String> = was.difference(&is).collect();
        let _ = writeln!(
            *problems,
            "{draft}: {} groups bind, fewer than the {} recorded in {RECORDS}/{draft}.tsv; no longer bound: {lost:#?}",
            is.len(),
            was.len()
        );
    } else if is != was {
        eprintln!(
            "{draft}: {} groups bind, {} recorded in {RECORDS}/{draft}.tsv: record them with\n  CONCORD_RECORD_SUITE=1 cargo nextest run -p concord-lab --test test_suite\nand update the figures in docs/proof.md",
            is.len(),
            was.len()
        );
    }
}
