//! The checker against what happens to data. Every case of fixtures/diff (but
//! those about entries and versions, which have no pair of types) becomes
//! one entry of an old and of a new registry; both are generated and built
//! in both languages, and each side's records go through the other side's
//! bindings:
//!
//! - backward: a record the old bindings read is refused by the new ones;
//! - forward: a record the new bindings read is refused by the old ones;
//! - relay: the old bindings read a new record but write it back other than
//!   the new ones do (keys lost or changed).
//!
//! For each case, the directions the data shows broken must be exactly those
//! `concord diff` reports (errors and warnings). Records: instances drawn
//! from each side's model (every branch, optional properties absent, null
//! or set, unknown keys at growth points and default types), and the hand-
//! written records in `<case>/old-data.jsonl` / `new-data.jsonl` for what
//! random data cannot hit (a key kept at a growth point, named like a
//! property added later).

use concord_cli::diff::{self, Direction, Severity};
use concord_cli::fuzz::guided::Documents;
use concord_cli::fuzz::instances::Generator;
use concord_cli::fuzz::random::Rng;
use concord_cli::roundtrip::{Expected, Fixture, Harness, Outcome};
use concord_codegen::model::Model;
use concord_codegen::Config;
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

mod common;
use common::*;

/// Instances drawn per side and case.
const INSTANCES: u64 = 60;

/// Cases without a type on both sides: about entries and versions only.
fn paired(case: &Path) -> bool {
    let index = |side: &str| -> Value { serde_json::from_slice(&std::fs::read(case.join(side).join("registry.json")).unwrap()).unwrap() };
    let names = |index: &Value| -> BTreeSet<String> { index["schemas"].as_array().unwrap().iter().map(|e| e["name"].as_str().unwrap().to_owned()).collect() };
    let versioned = |index: &Value| index["schemas"].as_array().unwrap().iter().any(|e| e.get("version").is_some());
    let (old, new) = (index("old"), index("new"));
    names(&old) == names(&new) && !versioned(&old) && !versioned(&new)
}

/// The case's name as an entry name prefix: `property-added-default` → `PropertyAddedDefault`.
fn pascal(case: &str) -> String {
    case.split('-').map(|word| word[..1].to_uppercase() + &word[1..]).collect()
}

/// One registry of every case's `side`, each case's entries renamed
/// `<Case><Entry>`, each schema copied as `<case>.<file>`.
fn combined(cases: &[(String, PathBuf)], side: &str, dir: &Path) {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).unwrap();
    let mut schemas = Vec::new();
    for (name, case) in cases {
        let index: Value = serde_json::from_slice(&std::fs::read(case.join(side).join("registry.json")).unwrap()).unwrap();
        for entry in index["schemas"].as_array().unwrap() {
            let path = format!("{name}.{}", entry["path"].as_str().unwrap());
            std::fs::copy(case.join(side).join(entry["path"].as_str().unwrap()), dir.join(&path)).unwrap();
            schemas.push(json!({"name": format!("{}{}", pascal(name), entry["name"].as_str().unwrap()), "path": path}));
        }
    }
    std::fs::write(dir.join("registry.json"), serde_json::to_vec_pretty(&json!({"format": 1, "schemas": schemas})).unwrap()).unwrap();
    concord_codegen::registry::pin(dir).unwrap();
}

/// Records of each root: drawn from the model, and the case's hand-written ones.
fn records(model: &Model, cases: &[(String, PathBuf)], side: &str) -> Vec<(String, Vec<u8>)> {
    let documents = Documents::new(model);
    let mut records = Vec::new();
    for module in &model.modules {
        let Some(root) = module.root else { continue };
        for index in 0..INSTANCES {
            let instance = Generator::instance(model, &documents, root, Rng::fork(0x5eed, index));
            records.push((module.name.clone(), instance.node.to_bytes()));
        }
    }
    for (name, case) in cases {
        let Ok(text) = std::fs::read_to_string(case.join(format!("{side}-data.jsonl"))) else { continue };
        let root = model.modules.iter().find(|m| m.name.starts_with(&pascal(name))).unwrap().name.clone();
        records.extend(text.lines().filter(|line| !line.is_empty()).map(|line| (root.clone(), line.as_bytes().to_vec())));
    }
    records
}

/// Each record's outcome in a harness, Rust's, after checking that Python agrees.
fn read(harness: &Harness, records: &[(String, Vec<u8>)], dir: &Path, python: &Path) -> Vec<Outcome> {
    std::fs::create_dir_all(dir).unwrap();
    let fixtures: Vec<Fixture> = records
        .iter()
        .enumerate()
        .map(|(index, (root, bytes))| {
            let input = dir.join(format!("{index}.json"));
            std::fs::write(&input, bytes).unwrap();
            Fixture { root: root.clone(), name: format!("{index}.json"), input, expected: Expected::Agreement { pointer: false } }
        })
        .collect();
    let report = harness.run(&fixtures, python).unwrap();
    let disagreements: Vec<String> = report.cases.iter().filter(|case| !case.passed()).map(ToString::to_string).collect();
    assert!(disagreements.is_empty(), "Rust and Python disagree:\n{}", disagreements.join("\n"));
    report.cases.into_iter().map(|case| case.rust).collect()
}

/// Whether two written records hold the same data: the same keys with the
/// same values, in any order, numbers compared by value (an old integer
/// field writes `2` where a new number field writes `2.0`: no key is lost).
fn same_record(a: &str, b: &str) -> bool {
    fn same(a: &Value, b: &Value) -> bool {
        match (a, b) {
            (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
            (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y)),
            (Value::Object(x), Value::Object(y)) => x.len() == y.len() && x.iter().all(|(key, x)| y.get(key).is_some_and(|y| same(x, y))),
            _ => a == b,
        }
    }
    match (serde_json::from_str::<Value>(a), serde_json::from_str::<Value>(b)) {
        (Ok(a), Ok(b)) => same(&a, &b),
        _ => a == b,
    }
}

#[test]
fn old_and_new_bindings_do_to_data_what_the_checker_says() {
    let root = workspace().join("fixtures/diff");
    let mut cases: Vec<(String, PathBuf)> = std::fs::read_dir(&root)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.is_dir() && paired(path))
        .map(|path| (path.file_name().unwrap().to_string_lossy().into_owned(), path))
        .collect();
    cases.sort();
    assert!(cases.len() > 40, "{} cases", cases.len());

    let work = workspace().join("target/concord-evolution");
    let (old_dir, new_dir) = (work.join("old"), work.join("new"));
    combined(&cases, "old", &old_dir);
    combined(&cases, "new", &new_dir);
    let (old_model, new_model) = (concord_cli::load(&old_dir).unwrap(), concord_cli::load(&new_dir).unwrap());

    // What the checker says, by case: the directions of its errors and warnings.
    let mut predicted: BTreeMap<String, BTreeSet<Direction>> = cases.iter().map(|(name, _)| (pascal(name), BTreeSet::new())).collect();
    for finding in diff::diff(&old_model, &new_model).iter().filter(|f| f.severity >= Severity::Warning) {
        let entry = finding.type_label.split('.').next().unwrap();
        let case = predicted.keys().filter(|case| entry.starts_with(case.as_str())).max_by_key(|case| case.len()).unwrap().clone();
        predicted.get_mut(&case).unwrap().extend(finding.breaks.iter().copied());
    }

    // What happens to the data.
    let python = PathBuf::from(python());
    let harness_work = workspace().join("target/concord-roundtrip");
    let build = |dir: &Path| {
        let harness = Harness::prepare(Config::new().registry(dir), &harness_work).unwrap();
        harness.build_rust().unwrap();
        harness
    };
    let (old_bindings, new_bindings) = (build(&old_dir), build(&new_dir));
    let case_of = |root: &str| predicted.keys().filter(|case| root.starts_with(case.as_str())).max_by_key(|case| case.len()).unwrap().clone();
    let mut observed: BTreeMap<String, BTreeSet<Direction>> = predicted.keys().map(|case| (case.clone(), BTreeSet::new())).collect();
    let mut examples: BTreeMap<(String, Direction), String> = BTreeMap::new();
    let mut note = |case: String, direction: Direction, record: &[u8], what: String| {
        examples.entry((case.clone(), direction)).or_insert_with(|| format!("{} {what}", String::from_utf8_lossy(record)));
        observed.get_mut(&case).unwrap().insert(direction);
    };

    // Old records: those the old bindings read, through the new ones.
    let old_records: Vec<(String, Vec<u8>)> = {
        let all = records(&old_model, &cases, "old");
        let outcomes = read(&old_bindings, &all, &work.join("data/old-by-old"), &python);
        all.into_iter().zip(outcomes).filter(|(_, outcome)| matches!(outcome, Outcome::Written { .. })).map(|(record, _)| record).collect()
    };
    for ((root, bytes), outcome) in old_records.iter().zip(read(&new_bindings, &old_records, &work.join("data/old-by-new"), &python)) {
        if let Outcome::Refused(why) = outcome {
            note(case_of(root), Direction::Backward, bytes, why);
        }
    }
    // New records: those the new bindings read, through the old ones.
    let all = records(&new_model, &cases, "new");
    let written_by_new = read(&new_bindings, &all, &work.join("data/new-by-new"), &python);
    let new_records: Vec<((String, Vec<u8>), String)> = all
        .into_iter()
        .zip(written_by_new)
        .filter_map(|(record, outcome)| match outcome {
            Outcome::Written { output, .. } => Some((record, output)),
            _ => None,
        })
        .collect();
    let inputs: Vec<(String, Vec<u8>)> = new_records.iter().map(|(record, _)| record.clone()).collect();
    for (((root, bytes), by_new), outcome) in new_records.iter().zip(read(&old_bindings, &inputs, &work.join("data/new-by-old"), &python)) {
        match outcome {
            Outcome::Refused(why) => note(case_of(root), Direction::Forward, bytes, why),
            Outcome::Written { output, .. } if !same_record(&output, by_new) => {
                note(case_of(root), Direction::Relay, bytes, format!("written back as {output}, by the new bindings as {by_new}"));
            }
            _ => {}
        }
    }

    let mut mismatches = Vec::new();
    for (case, predicted) in &predicted {
        let seen = &observed[case];
        if predicted != seen {
            let shown: Vec<String> = seen.iter().map(|d| format!("{}: {}", d.as_str(), examples[&(case.clone(), *d)])).collect();
            mismatches.push(format!("{case}: the checker says {predicted:?}, the data shows {seen:?}\n    {}", shown.join("\n    ")));
        }
    }
    assert!(mismatches.is_empty(), "{} of {} cases:\n{}", mismatches.len(), predicted.len(), mismatches.join("\n"));
}
