//! Throughput of the generated Rust types (`concord::ClsArtifact`,
//! `concord::Evidence`) against the serde structs a user would write by hand
//! for the same schemas, on a deterministic JSON Lines set (≥ 20 MiB by
//! default) of both root types.
//!
//!     cargo bench -p concord --bench bindings
//!     CONCORD_BENCH_MIB=4 cargo bench -p concord --bench bindings   # a smaller set
//!     CONCORD_BENCH_DUMP=/tmp/set.jsonl cargo bench ...              # also write the set out
//!
//! - read: every line through `Record::from_json` (strict profile, then the
//!   schema) against `serde_json::from_slice::<hand::T>` (no strict checks);
//! - write: every record through `Record::to_json` against
//!   `serde_json::to_vec(&hand_written)`.
//!
//! Criterion reports each benchmark in MiB/s. Then the bench times 11
//! *paired rounds* (each round runs every benchmark once, concord and
//! hand-written in turn) and prints a summary, one `bindings ...` line per
//! comparison: the median MiB/s of each side and the ratio concord /
//! hand-written (higher is better, 1.0 = as fast). Pairing keeps the ratios
//! steady on a noisy shared machine; compare ratios, not MiB/s. Issue 6's
//! targets: read ≥ 0.8x, write ≥ 0.95x.
//!
//! The data: one line in ~20 is a `ClsArtifact` (1-120 kernels, an optional
//! call tree up to 4 levels deep), the rest `Evidence` rows. Growth points
//! (`ClsArtifact`, `Session`, `ExtensionEnvelope`) carry unknown keys with
//! nested objects and arrays, sometimes between the declared properties;
//! default-policy types sometimes carry unknown keys too (read, then dropped
//! on write by both sides). Strings hold escapes (`\n`, `\t`, `"`, `\\`,
//! control characters) and non-ASCII text; floats span plain, integral and
//! exponent layouts; optionals are absent, `null` and present. Everything
//! stays inside the strict profile (safe integers, no `-0`, shallow nesting),
//! so concord reads every line.

mod common;

use common::{lines, median, record_set_from_env, MIB};
use concord::runtime::Record;
use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, SamplingMode, Throughput};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// The serde structs a user would write by hand for `registry/`: the same
/// fields and types as the generated ones, serde's derive, nothing checked
/// beyond what serde_json does. Choices, one per schema feature:
///
/// - optional property: `Option<T>` with `#[serde(default, skip_serializing_if
///   = "Option::is_none")]`;
/// - optional *nullable* property (absent, `null`, value: three states):
///   `Option<Option<T>>` with serde_with's `double_option` (written out below,
///   five lines, to add no dependency), so `null` is written back as `null`;
/// - required nullable property: a plain `Option<T>` (always written);
/// - growth point (`x-growth-point`): `#[serde(flatten)] unknown:
///   IndexMap<String, Value>`, written back after the declared properties;
/// - closed type (`additionalProperties: false`): `#[serde(deny_unknown_fields)]`;
/// - any other type: serde's default (unknown keys read and dropped);
/// - enums: unit variants with `rename_all`; an open enum (`x-open-enum`)
///   adds an `#[serde(untagged)] Unrecognized(String)` variant;
/// - a union tagged by `kind`: `#[serde(tag = "kind")]` over the closed
///   payload structs; free-form objects: `IndexMap<String, Value>`; any
///   value: `Value`;
/// - a versioned envelope: the version as a plain `i64` (serde has no
///   allow-list; checking it would be one more pass the user writes).
///
/// With serde_json's `preserve_order` (the workspace enables it), these write
/// the same bytes as the generated types: the bench checks it on every record
/// and says so if they ever differ.
mod hand {
    use indexmap::IndexMap;
    use serde::{Deserialize, Deserializer, Serialize};
    use serde_json::Value;

    /// serde_with's `double_option`: absent → `None` (by `default`), `null` →
    /// `Some(None)`, a value → `Some(Some(v))`.
    fn double_option<'de, T: Deserialize<'de>, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Option<T>>, D::Error> {
        Option::<T>::deserialize(deserializer).map(Some)
    }

    #[derive(Serialize, Deserialize)]
    pub struct ClsArtifact {
        pub format_version: i64,
        pub session: Session,
        pub compile_config: CompileConfig,
        pub kernels: Vec<Kernel>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub extra: Option<IndexMap<String, Value>>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub call_tree: Option<CallNode>,
        #[serde(flatten)]
        pub unknown: IndexMap<String, Value>,
    }

    #[derive(Serialize, Deserialize)]
    pub struct Session {
        pub gpu_arch: String,
        pub driver_version: String,
        pub cuda_version: String,
        #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "double_option")]
        pub nccl_version: Option<Option<String>>,
        pub cudnn_version: Option<i64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub hostname: Option<String>,
        pub world_size: i64,
        #[serde(flatten)]
        pub unknown: IndexMap<String, Value>,
    }

    #[derive(Serialize, Deserialize)]
    pub struct CompileConfig {
        pub backend: String,
        pub mode: CompileConfigMode,
        pub fullgraph: bool,
        pub dynamic: Option<bool>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub options: Option<IndexMap<String, Value>>,
    }

    #[derive(Serialize, Deserialize)]
    #[serde(rename_all = "kebab-case")]
    pub enum CompileConfigMode {
        Default,
        ReduceOverhead,
        MaxAutotune,
        MaxAutotuneNoCudagraphs,
    }

    #[derive(Serialize, Deserialize)]
    pub struct Kernel {
        pub name: String,
        #[serde(rename = "type")]
        pub kind: KernelType,
        pub duration_ms: f64,
        pub launch: LaunchDims,
        #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "double_option")]
        pub occupancy: Option<Option<f64>>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub counters: Option<IndexMap<String, i64>>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub source_path: Option<String>,
    }

    #[derive(Serialize, Deserialize)]
    #[serde(rename_all = "lowercase")]
    pub enum KernelType {
        Triton,
        Cuda,
        Cpp,
        Extern,
    }

    #[derive(Serialize, Deserialize)]
    pub struct LaunchDims {
        pub grid: Vec<i64>,
        pub block: Vec<i64>,
        pub shared_mem_bytes: i64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub num_warps: Option<i64>,
    }

    #[derive(Serialize, Deserialize)]
    pub struct CallNode {
        pub name: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub class: Option<String>,
        pub self_ms: f64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub children: Option<Vec<CallNode>>,
    }

    #[derive(Serialize, Deserialize)]
    pub struct Evidence {
        pub id: String,
        pub session_id: String,
        pub kind: EvidenceKind,
        pub payload: Value,
        #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "double_option")]
        pub source: Option<Option<String>>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub canonical: Option<CanonicalPayload>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub extension: Option<ExtensionEnvelope>,
    }

    #[derive(Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum EvidenceKind {
        ExitCode,
        ToolResult,
        FileDiff,
        ProcessObservation,
        TranscriptExcerpt,
        #[serde(untagged)]
        Unrecognized(String),
    }

    #[derive(Serialize, Deserialize)]
    #[serde(tag = "kind", rename_all = "snake_case")]
    pub enum CanonicalPayload {
        ExitCode(ExitCodePayload),
        ToolResult(ToolResultPayload),
        FileDiff(FileDiffPayload),
        ProcessObservation(ProcessObservationPayload),
        TranscriptExcerpt(TranscriptExcerptPayload),
    }

    #[derive(Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct ExitCodePayload {
        pub command: Value,
        pub exit_code: i64,
        pub heuristic: bool,
    }

    #[derive(Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct ToolResultPayload {
        pub summary: String,
    }

    #[derive(Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct FileDiffPayload {
        pub path: String,
        pub diff: String,
    }

    #[derive(Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct ProcessObservationPayload {
        pub description: String,
    }

    #[derive(Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct TranscriptExcerptPayload {
        pub text: String,
    }

    #[derive(Serialize, Deserialize)]
    pub struct ExtensionEnvelope {
        pub schema_version: i64,
        pub provider: ExtensionEnvelopeProvider,
        pub adapter_version: String,
        pub content_class: ContentClass,
        pub fields: IndexMap<String, Value>,
        #[serde(flatten)]
        pub unknown: IndexMap<String, Value>,
    }

    #[derive(Serialize, Deserialize)]
    #[serde(rename_all = "lowercase")]
    pub enum ExtensionEnvelopeProvider {
        Claude,
        Codex,
        #[serde(untagged)]
        Unrecognized(String),
    }

    #[derive(Serialize, Deserialize)]
    pub enum ContentClass {
        ToolTelemetry,
        ProviderDiagnostic,
        ExperimentalSignal,
        RawProviderMetadata,
        #[serde(untagged)]
        Unrecognized(String),
    }
}

// ---------------------------------------------------------------- the benchmarks

/// One pass over a root's whole set: every line read, or every record written.
struct Pass<'a> {
    operation: &'static str,
    concord: bool,
    label: &'static str,
    run: Box<dyn Fn() + 'a>,
}

/// One root type's lines, read by both sides, and what each writes back.
struct Root<'a, C, H> {
    name: &'static str,
    lines: Vec<&'a [u8]>,
    concord: Vec<C>,
    hand: Vec<H>,
    read_bytes: usize,
    written_bytes: usize,
}

impl<'a, C: Record, H: Serialize + DeserializeOwned> Root<'a, C, H> {
    /// Reads every line with both sides (each must accept it) and checks
    /// that both write the same bytes back (a note if they ever differ).
    fn new(name: &'static str, bytes: &'a [u8], ranges: &[std::ops::Range<usize>]) -> Self {
        let lines = lines(bytes, ranges);
        let concord: Vec<C> = lines.iter().map(|line| C::from_json(line).expect("concord reads the line")).collect();
        let hand: Vec<H> = lines.iter().map(|line| serde_json::from_slice(line).expect("serde reads the line")).collect();
        let mut written_bytes = 0;
        let mut differing = 0;
        for (concord, hand) in concord.iter().zip(&hand) {
            let (concord, hand) = (concord.to_json().expect("concord writes"), serde_json::to_vec(hand).expect("serde writes"));
            written_bytes += hand.len();
            differing += usize::from(concord != hand);
        }
        let read_bytes = lines.iter().map(|line| line.len()).sum();
        println!("{name}: {} lines, {:.1} MiB read, {:.1} MiB written", lines.len(), read_bytes as f64 / MIB, written_bytes as f64 / MIB);
        if differing > 0 {
            println!("NOTE: concord and the hand-written structs write different bytes for {differing} {name} records");
        }
        Root { name, lines, concord, hand, read_bytes, written_bytes }
    }

    fn passes(&self) -> Vec<Pass<'_>> {
        vec![
            Pass {
                operation: "read",
                concord: true,
                label: "concord from_json",
                run: Box::new(|| {
                    for line in &self.lines {
                        black_box(C::from_json(black_box(line)).unwrap());
                    }
                }),
            },
            Pass {
                operation: "read",
                concord: false,
                label: "hand-written serde_json::from_slice",
                run: Box::new(|| {
                    for line in &self.lines {
                        black_box(serde_json::from_slice::<H>(black_box(line)).unwrap());
                    }
                }),
            },
            Pass {
                operation: "write",
                concord: true,
                label: "concord to_json",
                run: Box::new(|| {
                    for record in &self.concord {
                        black_box(black_box(record).to_json().unwrap());
                    }
                }),
            },
            Pass {
                operation: "write",
                concord: false,
                label: "hand-written serde_json::to_vec",
                run: Box::new(|| {
                    for record in &self.hand {
                        black_box(serde_json::to_vec(black_box(record)).unwrap());
                    }
                }),
            },
        ]
    }

    fn bytes(&self, operation: &str) -> usize {
        if operation == "read" {
            self.read_bytes
        } else {
            self.written_bytes
        }
    }
}

/// Criterion: two groups per root, `read <root>` and `write <root>`, each
/// concord beside hand-written; flat sampling, 10 samples in about 3 s after
/// a 1 s warm-up, so the whole bench stays near a minute and a half.
fn criterion_groups(criterion: &mut Criterion, name: &str, bytes: impl Fn(&str) -> usize, passes: &[Pass<'_>]) {
    for operation in ["read", "write"] {
        let mut group: BenchmarkGroup<'_, WallTime> = criterion.benchmark_group(format!("{operation} {name}"));
        group
            .throughput(Throughput::Bytes(bytes(operation) as u64))
            .sampling_mode(SamplingMode::Flat)
            .sample_size(10)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(3));
        for pass in passes.iter().filter(|pass| pass.operation == operation) {
            group.bench_function(pass.label, |bencher| bencher.iter(|| (pass.run)()));
        }
        group.finish();
    }
}

/// The summary's numbers: `ROUNDS` rounds, each timing one pass of every
/// benchmark, concord and hand-written in turn (which goes first alternates),
/// so load that comes and goes on a shared machine falls on both sides of a
/// ratio alike. Criterion's groups measure each side in its own window.
const ROUNDS: usize = 11;

/// One comparison's times, one per round.
struct Row {
    root: &'static str,
    operation: &'static str,
    bytes: usize,
    concord: Vec<f64>,
    hand: Vec<f64>,
}

fn paired_rounds(roots: &[(&'static str, usize, usize, Vec<Pass<'_>>)]) -> Vec<Row> {
    let mut rows = Vec::new();
    for (root, read, written, _) in roots {
        for (operation, bytes) in [("read", *read), ("write", *written)] {
            rows.push(Row { root, operation, bytes, concord: Vec::new(), hand: Vec::new() });
        }
    }
    for round in 0..ROUNDS {
        let order = if round % 2 == 0 { [true, false] } else { [false, true] };
        for ((_, _, _, passes), rows) in roots.iter().zip(rows.chunks_mut(2)) {
            for row in rows {
                for concord in order {
                    let pass = passes.iter().find(|pass| pass.operation == row.operation && pass.concord == concord).expect("a pass");
                    let start = Instant::now();
                    (pass.run)();
                    let seconds = start.elapsed().as_secs_f64();
                    if concord {
                        row.concord.push(seconds)
                    } else {
                        row.hand.push(seconds)
                    }
                }
            }
        }
    }
    rows
}

/// One line per comparison and one for the whole set (both roots), as
/// `bindings <what> concord X MiB/s  hand-written Y MiB/s  ratio R`: MiB/s
/// from the median round, the ratio (concord / hand-written throughput,
/// higher is better) the median of the rounds' own ratios.
fn summary(rows: &[Row]) {
    println!("\nsummary: {ROUNDS} paired rounds; ratio = concord / hand-written throughput, higher is better");
    for (operation, target) in [("read", 0.8), ("write", 0.95)] {
        let rows: Vec<&Row> = rows.iter().filter(|row| row.operation == operation).collect();
        for row in &rows {
            print_ratio(&format!("{operation} {}", row.root), row.bytes, &row.concord, &row.hand, target);
        }
        let total = Row {
            root: "all",
            operation,
            bytes: rows.iter().map(|row| row.bytes).sum(),
            concord: (0..ROUNDS).map(|round| rows.iter().map(|row| row.concord[round]).sum()).collect(),
            hand: (0..ROUNDS).map(|round| rows.iter().map(|row| row.hand[round]).sum()).collect(),
        };
        print_ratio(&format!("{operation} all"), total.bytes, &total.concord, &total.hand, target);
    }
}

fn print_ratio(what: &str, bytes: usize, concord: &[f64], hand: &[f64], target: f64) {
    let mib = bytes as f64 / MIB;
    let ratio = median(concord.iter().zip(hand).map(|(concord, hand)| hand / concord).collect());
    println!(
        "bindings {what:<17} concord {:>7.1} MiB/s  hand-written {:>7.1} MiB/s  ratio {ratio:.2}x (target >= {target}x)",
        mib / median(concord.to_vec()),
        mib / median(hand.to_vec()),
    );
}

#[inline(never)]
fn run_once(pass: &Pass<'_>) {
    (pass.run)();
}

fn main() {
    let set = record_set_from_env();
    let cls = Root::<concord::ClsArtifact, hand::ClsArtifact>::new("ClsArtifact", &set.bytes, &set.cls_artifact);
    let evidence = Root::<concord::Evidence, hand::Evidence>::new("Evidence", &set.bytes, &set.evidence);
    let roots = [(cls.name, cls.read_bytes, cls.written_bytes, cls.passes()), (evidence.name, evidence.read_bytes, evidence.written_bytes, evidence.passes())];
    // `CONCORD_BENCH_PROFILE="write ClsArtifact concord"` runs that pass
    // once and stops (`setup …` runs none): for a profiler, or for
    // valgrind's instruction counts, which are the same on a busy machine as
    // on a quiet one (`valgrind --tool=callgrind --toggle-collect='bindings::run_once'`).
    if let Ok(routine) = std::env::var("CONCORD_BENCH_PROFILE") {
        let [operation, root, side] = routine.split(' ').collect::<Vec<_>>()[..] else {
            panic!("CONCORD_BENCH_PROFILE is `read|write|setup ClsArtifact|Evidence concord|hand`, not {routine:?}")
        };
        let passes = roots.iter().filter(|entry| entry.0 == root).flat_map(|entry| &entry.3);
        // `CONCORD_BENCH_REPEAT=N` runs it N times, so that a sampling profiler sees the pass, not the set-up.
        let repeat = std::env::var("CONCORD_BENCH_REPEAT").map_or(1, |n| n.parse().expect("CONCORD_BENCH_REPEAT is a count"));
        if let Some(pass) = passes.into_iter().find(|pass| pass.operation == operation && pass.concord == (side == "concord")) {
            for _ in 0..repeat {
                run_once(pass);
            }
        }
        return;
    }

    let mut criterion = Criterion::default().configure_from_args();
    criterion_groups(&mut criterion, cls.name, |operation| cls.bytes(operation), &roots[0].3);
    criterion_groups(&mut criterion, evidence.name, |operation| evidence.bytes(operation), &roots[1].3);
    criterion.final_summary();

    // Not under `cargo test --benches` / `-- --test` or `--list`: those only check that everything runs.
    if std::env::args().any(|arg| arg == "--test" || arg == "--list") {
        return;
    }
    summary(&paired_rounds(&roots));
}
