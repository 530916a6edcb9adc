//! The differential runner: the same bytes to the Rust, the Python and the
//! TypeScript bindings (`Options::languages`), each a long-lived worker
//! process answering cases through a pipe, and every answer compared with
//! Rust's. A disagreement is shrunk to a small reproducer and written as a
//! round-trip fixture.
//!
//! Two answers agree when both wrote the same bytes and digest, or both
//! refused the same way: the same strict-profile error (kind, byte offset,
//! message), or a schema error of the same kind (a type's or the assertion
//! engine's, whose message must then be the same too) at the same pointer.
//! Pointers are compared where the input has one problem: a mutant of an
//! instance both languages accepted. (With several problems, each language
//! may name a different one first.)

use super::guided::Documents;
use super::instances::{Expects, Generator, Instance};
use super::mutate::{mutate, Mutant};
use super::random::Rng;
use crate::roundtrip::{agree, rebuildable, Harness, Languages, Outcome, Worker};
use concord_codegen::error::Errors;
use concord_codegen::model::{Model, TypeId};
use concord_codegen::Config;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

pub struct Options {
    /// Cases per record type.
    pub cases: u64,
    pub seed: u64,
    /// Stop when this much time has passed, whatever the count.
    pub time: Option<Duration>,
    /// Only the record types whose label (`Entry.Type`) contains this.
    pub only: Option<String>,
    pub work_dir: PathBuf,
    pub python: PathBuf,
    /// Where reproducers are written, one fixture folder per record type.
    pub findings: PathBuf,
    /// Print progress every so often.
    pub progress: bool,
    /// Build the Rust bindings optimized, as users run them.
    pub release: bool,
    /// Which languages answer beside Rust.
    pub languages: Languages,
}

/// Mutants drawn from each generated instance.
const MUTANTS_PER_INSTANCE: u64 = 7;
/// Cases sent to the workers at once.
const BATCH: usize = 512;
/// Reproducers kept per run: past these, disagreements are counted only.
const MAX_FINDINGS: usize = 8;

#[derive(Default)]
pub struct Summary {
    /// Per record type label: cases, both accepted, both refused.
    pub types: BTreeMap<String, Tally>,
    /// How many generated instances passed through each named type.
    pub visits: BTreeMap<String, u64>,
    pub disagreements: u64,
    pub findings: Vec<Finding>,
    pub elapsed: Duration,
    pub seed: u64,
}

#[derive(Clone, Copy, Debug, Default)]
pub struct Tally {
    pub cases: u64,
    pub accepted: u64,
    pub refused: u64,
}

pub struct Finding {
    pub label: String,
    pub case: u64,
    pub what: String,
    pub input: Vec<u8>,
    pub rust: Outcome,
    pub python: Outcome,
    pub typescript: Option<Outcome>,
    pub fixture: Option<PathBuf>,
}

impl Summary {
    pub fn cases(&self) -> u64 {
        self.types.values().map(|tally| tally.cases).sum()
    }

    pub fn rate(&self) -> f64 {
        self.cases() as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for finding in &self.findings {
            writeln!(f, "DISAGREE {} case {} ({})", finding.label, finding.case, finding.what)?;
            writeln!(f, "  input:  {}", String::from_utf8_lossy(&finding.input))?;
            writeln!(f, "  rust:   {:?}", finding.rust)?;
            writeln!(f, "  python: {:?}", finding.python)?;
            if let Some(typescript) = &finding.typescript {
                writeln!(f, "  typescript: {typescript:?}")?;
            }
            if let Some(fixture) = &finding.fixture {
                writeln!(f, "  fixture: {}", fixture.display())?;
            }
        }
        writeln!(f, "{:<48} {:>10} {:>10} {:>10}", "record type", "cases", "accepted", "refused")?;
        for (label, tally) in &self.types {
            writeln!(f, "{label:<48} {:>10} {:>10} {:>10}", tally.cases, tally.accepted, tally.refused)?;
        }
        let unvisited: Vec<&String> = self.visits.iter().filter(|(_, count)| **count == 0).map(|(label, _)| label).collect();
        if !unvisited.is_empty() {
            writeln!(f, "types no instance reached: {unvisited:?}")?;
        }
        writeln!(
            f,
            "seed {}: {} cases in {:.1} s ({:.0} cases/s), {} disagreements",
            self.seed,
            self.cases(),
            self.elapsed.as_secs_f64(),
            self.rate(),
            self.disagreements
        )
    }
}

/// Builds a registry's bindings and fuzzes every record type.
pub fn run(config: &Config, options: &Options) -> Result<Summary, Errors> {
    let model = crate::load(config.registry_dir())?;
    let mut harness = Harness::prepare(config, &options.work_dir)?;
    harness.release = options.release;
    harness.typescript = options.languages.typescript;
    if harness.typescript {
        harness.check_typescript()?;
    }
    harness.build_rust()?;
    let mut workers = vec![
        Worker::start("Rust", Box::new(rebuildable(&harness.rust_harness())))?,
        Worker::start("Python", Box::new(rebuildable(&harness.python_harness(&options.python)?)))?,
    ];
    if harness.typescript {
        workers.push(Worker::start("TypeScript", Box::new(rebuildable(&harness.typescript_harness())))?);
    }
    let targets: Vec<Target> = model
        .ids()
        .filter(|id| model.is_record(*id))
        .map(|id| {
            let label = model.label(id);
            let mut names = vec![label.clone(), concord_codegen::emit::python::record_path(&model, id)];
            if harness.typescript {
                names.push(harness.typescript_name(&label));
            }
            Target { id, label, names, next: 0 }
        })
        .filter(|target| options.only.as_ref().is_none_or(|only| target.label.contains(only.as_str())))
        .collect();
    if targets.is_empty() {
        return Err(Errors::one(config.registry_dir(), "", "no record type to fuzz"));
    }
    let documents = Documents::new(&model);
    let mut fuzz = Fuzz { model: &model, documents: &documents, options, workers: &mut workers, summary: Summary { seed: options.seed, ..Summary::default() } };
    for id in model.ids() {
        fuzz.summary.visits.insert(model.label(id), 0);
    }
    fuzz.run(targets)?;
    Ok(fuzz.summary)
}

struct Target {
    id: TypeId,
    label: String,
    /// How each worker names the type, in the workers' order.
    names: Vec<String>,
    /// The next case index.
    next: u64,
}

struct Fuzz<'a, 'm> {
    model: &'m Model,
    documents: &'m Documents,
    options: &'a Options,
    /// Rust's first: every other answer is compared with it.
    workers: &'a mut Vec<Worker>,
    summary: Summary,
}

/// Each language's answers to a batch, in the workers' order: `answers[language][case]`.
type Answers = Vec<Vec<Outcome>>;

/// Whether every language answered case `i` as Rust did.
fn all_agree(answers: &Answers, i: usize, one_problem: bool) -> bool {
    answers[1..].iter().all(|other| agree(&answers[0][i], &other[i], one_problem))
}

/// One input, and what is known of it.
struct Case {
    index: u64,
    bytes: Vec<u8>,
    what: String,
    /// The position in the batch of the instance this mutates, whose verdict
    /// says whether the input has one problem.
    base: Option<usize>,
    one_value: bool,
}

impl<'m> Fuzz<'_, 'm> {
    fn run(&mut self, mut targets: Vec<Target>) -> Result<(), Errors> {
        let start = Instant::now();
        let mut last_report = Instant::now();
        let out_of_time = |start: &Instant| self.options.time.is_some_and(|time| start.elapsed() >= time);
        loop {
            let mut progressed = false;
            for target in targets.iter_mut() {
                if target.next >= self.options.cases || out_of_time(&start) {
                    continue;
                }
                progressed = true;
                let count = (self.options.cases - target.next).min(BATCH as u64);
                let cases = self.cases(target, count);
                self.check(target, &cases)?;
                target.next += count;
                self.summary.elapsed = start.elapsed();
                if self.options.progress && last_report.elapsed() >= Duration::from_secs(30) {
                    last_report = Instant::now();
                    eprintln!("  {} cases, {:.0} cases/s, {} disagreements", self.summary.cases(), self.summary.rate(), self.summary.disagreements);
                }
            }
            if !progressed {
                break;
            }
        }
        self.summary.elapsed = start.elapsed();
        Ok(())
    }

    /// `count` cases of a type from its next index on: an instance, then its mutants.
    fn cases(&mut self, target: &Target, count: u64) -> Vec<Case> {
        let type_seed = self.options.seed ^ (target.id.0 as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let mut cases = Vec::with_capacity(count as usize);
        let mut base: Option<(usize, Instance<'m>)> = None;
        for index in target.next..target.next + count {
            let group = index / (MUTANTS_PER_INSTANCE + 1);
            let within = index % (MUTANTS_PER_INSTANCE + 1);
            let fresh = base.is_none() || within == 0;
            if fresh {
                let instance = Generator::instance(self.model, self.documents, target.id, Rng::fork(type_seed, group));
                for site in &instance.sites {
                    if let Expects::Type(id) = site.expects {
                        *self.summary.visits.entry(self.model.label(id)).or_default() += 1;
                    }
                }
                if within == 0 {
                    cases.push(Case { index, bytes: instance.node.to_bytes(), what: "generated".into(), base: None, one_value: false });
                    base = Some((cases.len() - 1, instance));
                    continue;
                }
                // A batch that starts among an instance's mutants: its instance is not in the batch.
                base = Some((usize::MAX, instance));
            }
            let (position, instance) = base.as_ref().expect("made above");
            let Mutant { bytes, what, one_value } = mutate(instance, self.model, &mut Rng::fork(type_seed ^ 0x5555, index));
            cases.push(Case { index, bytes, what, base: (*position != usize::MAX).then_some(*position), one_value });
        }
        cases
    }

    /// Runs cases through every worker and compares each answer with Rust's.
    fn check(&mut self, target: &Target, cases: &[Case]) -> Result<(), Errors> {
        let answers = self.ask(target, cases.iter().map(|case| case.bytes.as_slice()))?;
        let tally = self.summary.types.entry(target.label.clone()).or_default();
        tally.cases += cases.len() as u64;
        let every = |i: usize, what: fn(&Outcome) -> bool| answers.iter().all(|language| what(&language[i]));
        for i in 0..cases.len() {
            if every(i, |outcome| matches!(outcome, Outcome::Written { .. })) {
                tally.accepted += 1;
            } else if every(i, |outcome| matches!(outcome, Outcome::Refused(_))) {
                tally.refused += 1;
            }
        }
        for (i, case) in cases.iter().enumerate() {
            let one_problem = case.one_value && case.base.is_some_and(|base| every(base, |outcome| matches!(outcome, Outcome::Written { .. })));
            if all_agree(&answers, i, one_problem) {
                continue;
            }
            self.summary.disagreements += 1;
            if self.summary.findings.len() >= MAX_FINDINGS {
                continue;
            }
            let input = self.shrink(target, case.bytes.clone(), one_problem)?;
            let last = self.ask(target, std::iter::once(input.as_slice()))?;
            let fixture = self.write_fixture(target, case.index, &input, one_problem);
            let answer = |language: usize| {
                last.get(language).and_then(|outcomes| outcomes.first().cloned()).or_else(|| answers.get(language).map(|outcomes| outcomes[i].clone()))
            };
            self.summary.findings.push(Finding {
                label: target.label.clone(),
                case: case.index,
                what: case.what.clone(),
                input,
                rust: answer(0).unwrap_or_else(|| answers[0][i].clone()),
                python: answer(1).unwrap_or_else(|| answers[1][i].clone()),
                typescript: answer(2),
                fixture,
            });
        }
        Ok(())
    }

    /// Every worker's answers to `inputs`, asked at once.
    fn ask<'b>(&mut self, target: &Target, inputs: impl Iterator<Item = &'b [u8]> + Clone) -> Result<Answers, Errors> {
        let requests: Vec<Vec<String>> = target.names.iter().map(|name| inputs.clone().map(|bytes| request(name, bytes)).collect()).collect();
        std::thread::scope(|scope| {
            let running: Vec<_> = self.workers.iter_mut().zip(&requests).map(|(worker, requests)| scope.spawn(move || worker.ask(requests))).collect();
            running.into_iter().map(|thread| thread.join().map_err(|_| Errors::one(Path::new("fuzz"), "", "a worker thread panicked"))?).collect()
        })
    }

    /// The smallest input found, by removing members, items and bytes, on
    /// which the languages still disagree.
    fn shrink(&mut self, target: &Target, mut input: Vec<u8>, one_problem: bool) -> Result<Vec<u8>, Errors> {
        // A disagreement on the pointer alone needs one problem to be one: a
        // smaller input may hold two, so keep only disagreements of more.
        let answers = self.ask(target, std::iter::once(input.as_slice()))?;
        if one_problem && all_agree(&answers, 0, false) {
            return Ok(input);
        }
        let mut budget = 200;
        while budget > 0 {
            budget -= 1;
            let candidates = smaller(&input);
            if candidates.is_empty() {
                break;
            }
            let answers = self.ask(target, candidates.iter().map(Vec::as_slice))?;
            match (0..candidates.len()).find(|&i| !all_agree(&answers, i, false)) {
                Some(i) => input = candidates[i].clone(),
                None => break,
            }
        }
        Ok(input)
    }

    fn write_fixture(&self, target: &Target, index: u64, input: &[u8], one_problem: bool) -> Option<PathBuf> {
        let folder = self.options.findings.join(&target.label);
        std::fs::create_dir_all(&folder).ok()?;
        let path = folder.join(format!("seed{}-case{index}.json", self.options.seed));
        std::fs::write(&path, input).ok()?;
        // A mutant of an accepted instance has one problem: both must name it.
        std::fs::write(path.with_extension("agree"), if one_problem { "pointer" } else { "" }).ok()?;
        Some(path)
    }
}

/// One-step smaller variants of a JSON input: each member or item removed,
/// each string emptied and each number made 0; for bytes that are not JSON,
/// halves, quarters and eighths cut out.
fn smaller(input: &[u8]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    if let Ok(value) = serde_json::from_slice::<serde_json::Value>(input) {
        let mut paths = Vec::new();
        containers(&value, &mut Vec::new(), &mut paths);
        for path in &paths {
            let Some(container) = pointer_mut(&mut value.clone(), path).cloned() else { continue };
            let children: Vec<serde_json::Value> = match &container {
                serde_json::Value::Array(items) => (0..items.len()).map(|i| serde_json::json!(i)).collect(),
                serde_json::Value::Object(map) => map.keys().map(|key| serde_json::json!(key)).collect(),
                _ => continue,
            };
            for child in children {
                let mut copy = value.clone();
                let step = [path.clone(), vec![child]].concat();
                let Some(target) = pointer_mut(&mut copy, &step) else { continue };
                let simpler = match target {
                    serde_json::Value::String(text) if !text.is_empty() => serde_json::json!(""),
                    serde_json::Value::Number(number) if number.as_i64() != Some(0) => serde_json::json!(0),
                    _ => continue,
                };
                *target = simpler;
                out.push(serde_json::to_vec(&copy).expect("a value writes"));
            }
        }
        for path in paths {
            let mut parent = value.clone();
            let Some(container) = pointer_mut(&mut parent, &path) else { continue };
            let len = match container {
                serde_json::Value::Array(items) => items.len(),
                serde_json::Value::Object(map) => map.len(),
                _ => 0,
            };
            for i in 0..len {
                let mut copy = parent.clone();
                match pointer_mut(&mut copy, &path) {
                    Some(serde_json::Value::Array(items)) => {
                        items.remove(i);
                    }
                    Some(serde_json::Value::Object(map)) => {
                        let key = map.keys().nth(i).cloned().unwrap_or_default();
                        map.remove(&key);
                    }
                    _ => continue,
                }
                let bytes = serde_json::to_vec(&copy).expect("a value writes");
                if bytes.len() < input.len() {
                    out.push(bytes);
                }
            }
        }
        return out;
    }
    let len = input.len();
    for parts in [2, 4, 8] {
        let chunk = len.div_ceil(parts);
        if chunk == 0 {
            break;
        }
        for start in (0..len).step_by(chunk) {
            let mut copy = input.to_vec();
            copy.drain(start..(start + chunk).min(len));
            out.push(copy);
        }
    }
    out
}

fn containers(value: &serde_json::Value, path: &mut Vec<serde_json::Value>, out: &mut Vec<Vec<serde_json::Value>>) {
    match value {
        serde_json::Value::Array(items) => {
            out.push(path.clone());
            for (i, item) in items.iter().enumerate() {
                path.push(serde_json::json!(i));
                containers(item, path, out);
                path.pop();
            }
        }
        serde_json::Value::Object(map) => {
            out.push(path.clone());
            for (key, item) in map {
                path.push(serde_json::json!(key));
                containers(item, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

fn pointer_mut<'v>(value: &'v mut serde_json::Value, path: &[serde_json::Value]) -> Option<&'v mut serde_json::Value> {
    path.iter().try_fold(value, |value, step| match step {
        serde_json::Value::String(key) => value.get_mut(key.as_str()),
        index => value.get_mut(index.as_u64()? as usize),
    })
}

/// `Name\t:hex\n`.
fn request(name: &str, bytes: &[u8]) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut line = String::with_capacity(name.len() + 2 + bytes.len() * 2 + 1);
    line.push_str(name);
    line.push_str("\t:");
    for byte in bytes {
        line.push(HEX[usize::from(byte >> 4)] as char);
        line.push(HEX[usize::from(byte & 15)] as char);
    }
    line.push('\n');
    line
}

/// A duration as `--time` takes it: `90s`, `30m`, `2h`, or plain seconds.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let (number, unit) = text.split_at(text.find(|c: char| !c.is_ascii_digit()).unwrap_or(text.len()));
    let number: u64 = number.parse().map_err(|_| format!("{text:?} is not a duration such as 30s, 60m or 2h"))?;
    let seconds = match unit {
        "" | "s" => number,
        "m" => number * 60,
        "h" => number * 3600,
        _ => return Err(format!("{text:?} is not a duration such as 30s, 60m or 2h")),
    };
    Ok(Duration::from_secs(seconds))
}

/// A line for the report: how the run's inputs were spread.
pub fn describe(options: &Options) -> String {
    let mut out = String::new();
    let _ = write!(out, "fuzzing with seed {}: {} cases per record type", options.seed, options.cases);
    if let Some(time) = options.time {
        let _ = write!(out, ", at most {} s", time.as_secs());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_agree_on_verdict_kind_pointer_bytes_and_digest() {
        let written = |output: &str, digest: &str| Outcome::Written { output: output.into(), digest: digest.into() };
        let refused = |why: &str| Outcome::Refused(why.into());
        assert!(agree(&written("{}", "d"), &written("{}", "d"), true));
        assert!(!agree(&written("{}", "d"), &written("{}", "e"), false));
        assert!(!agree(&written("{}", "d"), &refused("at \"\": no"), false));
        assert!(agree(&refused("at \"/a\": invalid type"), &refused("at \"/a\": Input should be"), true));
        assert!(!agree(&refused("at \"/a\": invalid type"), &refused("at \"/b\": Input should be"), true));
        assert!(agree(&refused("at \"/a\": invalid type"), &refused("at \"/b\": Input should be"), false));
        assert!(!agree(&refused("at \"/a\": fails not (schema /not)"), &refused("at \"/a\": Input should be"), true));
        assert!(agree(&refused("duplicate-key at byte 7: duplicate key \"a\""), &refused("duplicate-key at byte 7: duplicate key \"a\""), false));
        assert!(!agree(&refused("duplicate-key at byte 7: duplicate key \"a\""), &refused("duplicate-key at byte 8: duplicate key \"a\""), false));
        assert!(!agree(&Outcome::Crashed("x".into()), &Outcome::Crashed("x".into()), false));
    }

    #[test]
    fn requests_carry_the_bytes_in_hex() {
        assert_eq!(request("A.B", b"{\"\xff\"}"), "A.B\t:7b22ff227d\n");
    }
}
