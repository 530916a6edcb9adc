//! Validation throughput of the shipped registry's types (`concord::ClsArtifact`,
//! `concord::Evidence`) against their pinned schemas, next to `from_json` on
//! the same lines: the record set of `benches/bindings.rs` (`benches/common`).
//!
//!     cargo bench -p concord --bench validation
//!     CONCORD_BENCH_MIB=4 cargo bench -p concord --bench validation   # a smaller set
//!     CONCORD_BENCH_DUMP=/tmp/set.jsonl cargo bench ...                # also write the set out
//!
//! Per root type, every line through:
//! - `from_json`: `Record::from_json(line)`, the baseline of every ratio;
//! - `validate_json`: `Pinned::validate_json(line)`: the typed read, and the
//!   engine only for a line the types refuse (docs/validation.md);
//! - `engine validate_json`: `Pinned::schema().validate_json(line)`, the
//!   strict-profile read into a `Value`, then the engine (the `jsonschema`
//!   crate): what `validate_json` was before issue 19;
//! - `validate (parsed)`: `Pinned::validate(&value)` on values read before
//!   timing: the engine alone;
//! - `read (Value)`: `concord::runtime::read::value(line, ..)`, the
//!   strict-profile read into a `Value` that `validate_json` does first, for
//!   reference.
//!
//! Before timing, every line must pass all of them. Criterion reports each
//! in MiB/s; then 11 rounds, each timing one pass of every benchmark (the
//! order turns round by round), give the summary: one `validation ...` line
//! per root and pass, with records/s and MiB/s of the median round and the
//! ratio to `from_json` (the median of the rounds' own ratios; throughput,
//! higher is better).

mod common;

use common::{lines, median, record_set_from_env, MIB};
use concord::runtime::{read, strict, Pinned, Value};
use criterion::{Criterion, SamplingMode, Throughput};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// One pass over a root's lines.
struct Pass<'a> {
    label: &'static str,
    run: Box<dyn Fn() + 'a>,
}

/// One root type's lines, and each read before timing as a `Value`.
struct Root<'a> {
    name: &'static str,
    lines: Vec<&'a [u8]>,
    values: Vec<Value>,
    bytes: usize,
}

impl<'a> Root<'a> {
    /// Checks that every line passes every benchmark, and that the one-pass
    /// reader reads it as the reference reader does.
    fn new<T: Pinned>(name: &'static str, bytes: &'a [u8], ranges: &[std::ops::Range<usize>]) -> Self {
        let lines = lines(bytes, ranges);
        let values: Vec<Value> = lines.iter().map(|line| strict::read(line).expect("a strict-profile line")).collect();
        for (line, value) in lines.iter().zip(&values) {
            T::from_json(line).expect("concord reads the line");
            assert_eq!(read::value(line, strict::Limits::default()).as_ref(), Ok(value), "both readers read the line alike");
            T::validate_json(line).expect("the line passes validate_json");
            T::schema().validate_json(line).expect("the line passes the engine");
            T::validate(value).expect("the value passes validate");
        }
        let bytes = lines.iter().map(|line| line.len()).sum();
        println!("{name}: {} lines, {:.1} MiB", lines.len(), bytes as f64 / MIB);
        Root { name, lines, values, bytes }
    }

    /// `from_json` first: the baseline of the ratios.
    fn passes<T: Pinned>(&self) -> Vec<Pass<'_>> {
        vec![
            Pass {
                label: "from_json",
                run: Box::new(|| {
                    for line in &self.lines {
                        black_box(T::from_json(black_box(line)).unwrap());
                    }
                }),
            },
            Pass {
                label: "validate_json",
                run: Box::new(|| {
                    for line in &self.lines {
                        T::validate_json(black_box(line)).unwrap();
                    }
                }),
            },
            Pass {
                label: "engine validate_json",
                run: Box::new(|| {
                    for line in &self.lines {
                        T::schema().validate_json(black_box(line)).unwrap();
                    }
                }),
            },
            Pass {
                label: "validate (parsed)",
                run: Box::new(|| {
                    for value in &self.values {
                        T::validate(black_box(value)).unwrap();
                    }
                }),
            },
            Pass {
                label: "read (Value)",
                run: Box::new(|| {
                    for line in &self.lines {
                        black_box(read::value(black_box(line), strict::Limits::default()).unwrap());
                    }
                }),
            },
        ]
    }
}

/// Criterion: one group per root (`validate <root>`), flat sampling, 10
/// samples in about 3 s after a 1 s warm-up.
fn criterion_group(criterion: &mut Criterion, root: &Root<'_>, passes: &[Pass<'_>]) {
    let mut group = criterion.benchmark_group(format!("validate {}", root.name));
    group
        .throughput(Throughput::Bytes(root.bytes as u64))
        .sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    for pass in passes {
        group.bench_function(pass.label, |bencher| bencher.iter(|| (pass.run)()));
    }
    group.finish();
}

const ROUNDS: usize = 11;

/// Seconds per round, `[root][pass][round]`; each round runs every pass of
/// every root, starting one pass further on than the round before.
fn rounds(roots: &[(&Root<'_>, Vec<Pass<'_>>)]) -> Vec<Vec<Vec<f64>>> {
    let mut times: Vec<Vec<Vec<f64>>> = roots.iter().map(|(_, passes)| vec![Vec::new(); passes.len()]).collect();
    for round in 0..ROUNDS {
        for ((_, passes), times) in roots.iter().zip(&mut times) {
            for turn in 0..passes.len() {
                let index = (round + turn) % passes.len();
                let start = Instant::now();
                (passes[index].run)();
                times[index].push(start.elapsed().as_secs_f64());
            }
        }
    }
    times
}

/// `validation <root> <pass>  R records/s  M MiB/s  ratio X of from_json`,
/// per root and for both together (`all`: the rounds' times added).
fn summary(roots: &[(&Root<'_>, Vec<Pass<'_>>)], times: &[Vec<Vec<f64>>]) {
    println!("\nsummary: {ROUNDS} rounds; ratio = throughput / from_json's in the same round, higher is better");
    let labels: Vec<&str> = roots[0].1.iter().map(|pass| pass.label).collect();
    let mut rows: Vec<(&str, usize, usize, &[Vec<f64>])> =
        roots.iter().zip(times).map(|((root, _), times)| (root.name, root.lines.len(), root.bytes, &times[..])).collect();
    let total: Vec<Vec<f64>> = (0..labels.len()).map(|pass| (0..ROUNDS).map(|round| times.iter().map(|times| times[pass][round]).sum()).collect()).collect();
    rows.push(("all", rows.iter().map(|row| row.1).sum(), rows.iter().map(|row| row.2).sum(), &total));
    for (name, records, bytes, times) in rows {
        for (label, seconds) in labels.iter().zip(times) {
            let ratio = median(times[0].iter().zip(seconds).map(|(baseline, seconds)| baseline / seconds).collect());
            let seconds = median(seconds.clone());
            println!(
                "validation {name:<11} {label:<17} {:>9.0} records/s {:>7.1} MiB/s  ratio {ratio:.2}x of from_json",
                records as f64 / seconds,
                bytes as f64 / MIB / seconds,
            );
        }
    }
}

#[inline(never)]
fn run_once(pass: &Pass<'_>) {
    (pass.run)();
}

fn main() {
    let set = record_set_from_env();
    let cls = Root::new::<concord::ClsArtifact>("ClsArtifact", &set.bytes, &set.cls_artifact);
    let evidence = Root::new::<concord::Evidence>("Evidence", &set.bytes, &set.evidence);
    let roots = [(&cls, cls.passes::<concord::ClsArtifact>()), (&evidence, evidence.passes::<concord::Evidence>())];
    // `CONCORD_BENCH_PROFILE="validate_json ClsArtifact"` runs that pass
    // (`setup` runs none) `CONCORD_BENCH_REPEAT` times (1 when unset) and
    // stops: for a profiler (`perf record`, `valgrind --tool=callgrind
    // --toggle-collect='validation::run_once'`).
    if let Ok(routine) = std::env::var("CONCORD_BENCH_PROFILE") {
        let repeat = std::env::var("CONCORD_BENCH_REPEAT").ok().and_then(|n| n.parse().ok()).unwrap_or(1);
        let (label, root) = routine.rsplit_once(' ').unwrap_or((&routine, ""));
        let passes = roots.iter().filter(|(entry, _)| entry.name == root).flat_map(|(_, passes)| passes);
        if let Some(pass) = passes.into_iter().find(|pass| pass.label == label) {
            for _ in 0..repeat {
                run_once(pass);
            }
        } else if label != "setup" {
            panic!("CONCORD_BENCH_PROFILE is `<pass> ClsArtifact|Evidence` or `setup`, not {routine:?}");
        }
        return;
    }

    let mut criterion = Criterion::default().configure_from_args();
    for (root, passes) in &roots {
        criterion_group(&mut criterion, root, passes);
    }
    criterion.final_summary();
    // Not under `cargo test --benches` / `-- --test` or `--list`: those only check that everything runs.
    if std::env::args().any(|arg| arg == "--test" || arg == "--list") {
        return;
    }
    let times = rounds(&roots);
    summary(&roots, &times);
}
