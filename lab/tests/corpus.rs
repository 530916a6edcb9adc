//! The corpus survey as a test: the 50 real-world schemas of
//! `fixtures/vectors/corpus` (copied unchanged from `../shared/corpus`, source
//! and license per schema in its `MANIFEST.tsv`), in every dialect, go
//! through `concord survey`'s machinery, one combined registry compiled
//! once, and every instance of a bound schema must be read by both
//! languages with equal bytes, each language's types giving its pinned
//! schema's validator's verdict (`Outcome::Disagreed` otherwise). No fewer
//! schemas may bind, no fewer generate a typed root and no fewer instances
//! agree than docs/proof.md records.
//!
//! The corpus is read from `$CONCORD_CORPUS`, else `fixtures/vectors/corpus`;
//! a missing folder fails the test. The report and the table:
//! `cargo nextest run -p concord-lab --test corpus --no-capture`.

mod common;

use common::{python, workspace};
use concord_cli::roundtrip::Outcome;
use concord_lab::survey::{self, Build};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Instant;

/// docs/proof.md, "The corpus survey": schemas that generate, compile and
/// import in the combined registry, those of them whose root is typed (or
/// that hold definitions alone), and instances that agree in it.
const BOUND_AT_LEAST: usize = 49;
const TYPED_AT_LEAST: usize = 44;
const AGREEING_AT_LEAST: usize = 135;
/// Fuzzed cases per record type of the combined registry (about 1,400
/// types: some 70,000 cases, a minute and a half in a debug build).
const FUZZ_CASES: u64 = 50;

fn corpus_dir() -> PathBuf {
    let dir = std::env::var_os("CONCORD_CORPUS").map(PathBuf::from).unwrap_or_else(|| workspace().join("fixtures/vectors/corpus"));
    assert!(dir.join("MANIFEST.tsv").is_file(), "no corpus at {}: set CONCORD_CORPUS to a folder laid out as fixtures/vectors/corpus", dir.display());
    dir
}

/// What a survey must reach: docs/proof.md's figures.
struct Floors {
    bound: usize,
    typed: usize,
    agreeing: usize,
    /// Fuzzed cases per record type of the combined registry.
    fuzz_cases: u64,
    /// Whether the fuzzing pass runs TypeScript too (the instances always do).
    fuzz_typescript: bool,
}

/// Surveys the corpus in `dir` as one combined registry (in
/// `target/<work>`), fuzzes it, and returns what falls short of `floors`
/// (empty when nothing does), the report, and the survey.
fn survey_corpus(dir: &std::path::Path, work: &str, floors: &Floors, keep: fn(&survey::Candidate) -> bool) -> (String, String, survey::Survey) {
    let started = Instant::now();
    let python = PathBuf::from(python());
    let candidates: Vec<survey::Candidate> = survey::corpus::candidates(dir).unwrap().into_iter().filter(keep).collect();
    // Its own scratch (`concord-lab survey` uses target/concord-survey), the
    // round trip's cargo target: a rerun compiles nothing new.
    let work_dir = workspace().join("target").join(work);
    let harness_dir = workspace().join("target/concord-roundtrip");
    let options = survey::Options { work_dir: &work_dir, harness_dir: &harness_dir, python: &python, isolate_failures: false };
    let plan = survey::plan(candidates, &work_dir).unwrap();
    let planned = started.elapsed();
    let result = survey::build(plan, &options);

    let mut problems = String::new();
    if let Build::Failed { stage, message } = &result.build {
        let _ =
            writeln!(problems, "the combined registry {}:\n{message}\n(`concord survey --corpus` builds each schema alone to find which)", stage.describe());
    }
    let in_combined: Vec<&survey::Entry> = result.entries.iter().filter(|entry| entry.in_combined()).collect();
    let bound = if matches!(result.build, Build::Ran(_)) { in_combined.len() } else { 0 };
    let expected_cases: usize = in_combined.iter().map(|entry| entry.candidate.instances.len()).sum();
    let checked = result.checked();
    if bound > 0 && checked.len() != expected_cases {
        let _ = writeln!(problems, "{} of the {expected_cases} instances of bound schemas were checked", checked.len());
    }
    let failing: Vec<&survey::Checked> = checked.iter().filter(|c| !c.case.passed()).collect();
    let disagreed = |outcome: &Outcome| matches!(outcome, Outcome::Disagreed(_));
    let with_validator =
        failing.iter().filter(|c| disagreed(&c.case.rust) || disagreed(&c.case.python) || c.case.typescript.as_ref().is_some_and(disagreed)).count();
    for failure in &failing {
        let _ = write!(problems, "{} {} ({}):\n{}", failure.entry.candidate.label, failure.instance.file, failure.instance.description, failure.case);
    }
    let agreeing = checked.len() - failing.len();
    let total_instances: usize = result.entries.iter().map(|entry| entry.candidate.instances.len()).sum();
    let typed = in_combined.iter().filter(|entry| entry.typed.is_some_and(|typed| typed.root_is_typed())).count();
    let report = format!(
        "{}: {bound} of {} schemas generate, compile and import as one registry, {typed} with a typed root; {agreeing} of {} instances checked \
         agree ({total_instances} in the corpus); {} disagreements, {with_validator} of them types against validator; {:.1}s (plan {:.1}s)",
        dir.display(),
        result.entries.len(),
        checked.len(),
        failing.len(),
        started.elapsed().as_secs_f64(),
        planned.as_secs_f64()
    );
    eprintln!("{}\n{report}", survey::corpus::markdown(&result));
    if bound < floors.bound {
        let _ = writeln!(problems, "{bound} schemas bound, fewer than the {} docs/proof.md records", floors.bound);
    }
    if typed < floors.typed {
        let _ = writeln!(problems, "{typed} schemas generate a typed root, fewer than the {} docs/proof.md records", floors.typed);
    }
    // Beyond the corpus's own instances: every record type of the combined
    // registry fuzzed, both languages and each type's own validator alike.
    if matches!(result.build, Build::Ran(_)) {
        let (cases, disagreements, shown) = common::fuzz(&result.registry, floors.fuzz_cases, &work_dir.join("findings"), floors.fuzz_typescript);
        eprintln!("fuzz: {cases} cases over the combined registry, {disagreements} disagreements");
        if disagreements > 0 {
            let _ = writeln!(problems, "concord fuzz found {disagreements} disagreements over the combined registry:\n{shown}");
        }
    }
    if agreeing < floors.agreeing {
        let _ = writeln!(problems, "{agreeing} instances agree, fewer than the {} docs/proof.md records", floors.agreeing);
    }
    (problems, report, result)
}

#[test]
fn corpus_instances_agree_in_both_languages_and_with_the_validator() {
    let floors = Floors { bound: BOUND_AT_LEAST, typed: TYPED_AT_LEAST, agreeing: AGREEING_AT_LEAST, fuzz_cases: FUZZ_CASES, fuzz_typescript: true };
    let (problems, report, _) = survey_corpus(&corpus_dir(), "concord-corpus", &floors, |_| true);
    assert!(problems.is_empty(), "{problems}\n{report}");
}

/// docs/proof.md, "The second corpus": schemas that public projects ship in
/// their npm and PyPI packages (`fixtures/vectors/realworld`, collected for
/// concord, kept apart from SchemaStore's catalog, which issue 25 measured
/// concord on), with the examples and negative tests the packages ship.
const REALWORLD_BOUND_AT_LEAST: usize = 281;
const REALWORLD_TYPED_AT_LEAST: usize = 272;
const REALWORLD_AGREEING_AT_LEAST: usize = 167;
/// The same floors for its schemas that ship instances.
const WITH_INSTANCES_BOUND_AT_LEAST: usize = 45;
const WITH_INSTANCES_TYPED_AT_LEAST: usize = 44;

/// The second corpus as the first, over its schemas that ship instances:
/// each binds, generates, compiles and imports in one registry, every
/// shipped example is read by all three languages with equal bytes and
/// every shipped negative test refused by all three, each as the validator
/// says; its record types are fuzzed (Rust and Python); and the bindings
/// pass the linters users run: `cargo clippy -- -D warnings` on a crate
/// that includes the Rust, `ruff check`, `ruff format --check` and `mypy
/// --strict` on the package (the repository's settings).
#[test]
fn realworld_schemas_with_instances_bind_agree_and_pass_the_linters() {
    let floors = Floors {
        bound: WITH_INSTANCES_BOUND_AT_LEAST,
        typed: WITH_INSTANCES_TYPED_AT_LEAST,
        agreeing: REALWORLD_AGREEING_AT_LEAST,
        fuzz_cases: 20,
        fuzz_typescript: false,
    };
    realworld(&floors, "concord-realworld-instances", |candidate| !candidate.instances.is_empty());
}

/// Every schema of the second corpus, all 290 (some 4,000 record types,
/// 29 MB of Rust; docs/proof.md): beyond the test above, the schemas
/// without instances bind, compile, lint and fuzz too. Compiling that much
/// generated Rust twice (the harness, then clippy) takes some twenty
/// minutes here.
#[test]
fn realworld_schemas_all_bind_agree_and_pass_the_linters() {
    let floors = Floors {
        bound: REALWORLD_BOUND_AT_LEAST,
        typed: REALWORLD_TYPED_AT_LEAST,
        agreeing: REALWORLD_AGREEING_AT_LEAST,
        fuzz_cases: 10,
        fuzz_typescript: false,
    };
    realworld(&floors, "concord-realworld", |_| true);
}

fn realworld(floors: &Floors, work: &str, keep: fn(&survey::Candidate) -> bool) {
    let dir = workspace().join("fixtures/vectors/realworld");
    let (mut problems, report, result) = survey_corpus(&dir, work, floors, keep);
    if matches!(result.build, Build::Ran(_)) {
        problems.push_str(&common::lint_bindings(&result.registry, &workspace().join("target").join(work).join("lint")));
    }
    assert!(problems.is_empty(), "{problems}\n{report}");
}
