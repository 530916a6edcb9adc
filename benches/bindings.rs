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
//! Criterion reports each benchmark in MiB/s; at the end the bench prints a
//! summary with the median MiB/s of each side and the ratio concord /
//! hand-written (higher is better, 1.0 = as fast), from the samples of this
//! very run: compare ratios, the machine is noisy. Issue 6's targets: read ≥
//! 0.8x, write ≥ 0.95x.
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

use concord::runtime::Record;
use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, SamplingMode, Throughput};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Value};
use std::cell::RefCell;
use std::collections::BTreeMap;
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
/// - enums: unit variants with `rename_all`; free-form objects:
///   `IndexMap<String, Value>`; any value: `Value`.
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
        pub canonical: Option<CanonicalPayloads>,
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
    }

    #[derive(Serialize, Deserialize)]
    pub struct CanonicalPayloads {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub exit_code: Option<ExitCodePayload>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub tool_result: Option<ToolResultPayload>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub file_diff: Option<FileDiffPayload>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub process_observation: Option<ProcessObservationPayload>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub transcript_excerpt: Option<TranscriptExcerptPayload>,
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
        pub content_class: String,
        pub fields: IndexMap<String, Value>,
        #[serde(flatten)]
        pub unknown: IndexMap<String, Value>,
    }

    #[derive(Serialize, Deserialize)]
    #[serde(rename_all = "lowercase")]
    pub enum ExtensionEnvelopeProvider {
        Claude,
        Codex,
    }
}

// ---------------------------------------------------------------- the data

/// xorshift64: deterministic, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }
    /// Floats in every layout serde_json writes: plain (`12.375`), integral
    /// (`3.0`), small and large exponents (`1.5e-7`, `2.5e+17`).
    fn float(&mut self) -> f64 {
        match self.below(10) {
            0 => self.below(1000) as f64,
            1 => (self.below(9000) + 1000) as f64 * 1e-10,
            2 => (self.below(9000) + 1000) as f64 * 1e14,
            _ => self.below(10_000_000) as f64 / 997.0,
        }
    }
    /// `min` to `min + spread - 1` words, with escapes and non-ASCII
    /// characters in some of them.
    fn text(&mut self, min: u64, spread: u64) -> String {
        let words = min + self.below(spread);
        let mut text = String::new();
        for i in 0..words {
            if i > 0 {
                text.push(' ');
            }
            text.push_str(self.pick(WORDS));
        }
        text
    }
}

const WORDS: &[&str] = &[
    "kernel",
    "launch",
    "grid",
    "the",
    "of",
    "and",
    "cargo",
    "test",
    "error",
    "ok",
    "Grüße",
    "naïve",
    "café",
    "日本語",
    "Ελληνικά",
    "🙂",
    "line\nbreak",
    "tab\there",
    "say \"hi\"",
    "C:\\path\\to",
    "bell\u{7}",
    "nul\u{1}",
    "\u{2028}sep",
];

fn object(entries: Vec<(&str, Value)>) -> Value {
    Value::Object(entries.into_iter().map(|(key, value)| (key.to_owned(), value)).collect::<Map<_, _>>())
}

/// Inserts unknown keys: at the end, or (sometimes) between the declared ones.
fn with_unknown(mut declared: Vec<(&'static str, Value)>, unknown: Vec<(&'static str, Value)>, rng: &mut Rng) -> Value {
    for entry in unknown {
        let at = if rng.chance(30) { rng.below(declared.len() as u64 + 1) as usize } else { declared.len() };
        declared.insert(at, entry);
    }
    object(declared)
}

/// A free-form JSON value: nested objects and arrays, every scalar kind.
fn any_value(rng: &mut Rng, depth: u32) -> Value {
    match if depth >= 3 { rng.below(5) } else { rng.below(7) } {
        0 => Value::Null,
        1 => Value::Bool(rng.chance(50)),
        2 => Value::from(rng.below(1 << 40) as i64 - (1 << 39)),
        3 if rng.chance(30) => Value::from(-1.0 - rng.float()),
        3 => Value::from(rng.float()),
        4 => Value::String(rng.text(1, 6)),
        5 => Value::Array((0..rng.below(5)).map(|_| any_value(rng, depth + 1)).collect()),
        _ => {
            let keys = ["alpha", "beta", "gamma", "δ", "env", "argv", "cwd", "x-trace"];
            let count = rng.below(5) as usize;
            let mut map = Map::new();
            for (i, key) in keys.iter().take(count).enumerate() {
                map.insert(format!("{key}{i}"), any_value(rng, depth + 1));
            }
            Value::Object(map)
        }
    }
}

fn kernel(rng: &mut Rng, index: u64) -> Value {
    let mut launch = vec![
        ("grid", Value::from(vec![1 + rng.below(4096), 1 + rng.below(64), 1])),
        ("block", Value::from(vec![32 * (1 + rng.below(32)), 1, 1])),
        ("shared_mem_bytes", Value::from(rng.below(1 << 17))),
    ];
    if rng.chance(60) {
        launch.push(("num_warps", Value::from(1u64 << rng.below(4))));
    }
    let mut fields = vec![
        ("name", Value::String(format!("triton_poi_fused_{}_{index}", rng.pick(&["add", "mul", "relu", "cat", "gelu_ß"])))),
        ("type", Value::from(rng.pick(&["triton", "cuda", "cpp", "extern"]))),
        ("duration_ms", Value::from(rng.float())),
        ("launch", object(launch)),
    ];
    match rng.below(3) {
        0 => {}
        1 => fields.push(("occupancy", Value::Null)),
        _ => fields.push(("occupancy", Value::from(rng.below(1000) as f64 / 1000.0))),
    }
    if rng.chance(50) {
        let names = ["flops", "bytes_read", "bytes_written", "l2_hits", "spills"];
        let counters =
            names.iter().take(1 + rng.below(5) as usize).map(|name| ((*name).to_owned(), Value::from(rng.below(1 << 50))));
        fields.push(("counters", Value::Object(counters.collect())));
    }
    if rng.chance(40) {
        fields.push(("source_path", Value::String(format!("/tmp/torchinductor_ü/{:x}/k{index}.py", rng.next() >> 16))));
    }
    let unknown = if rng.chance(10) { vec![("x_debug", any_value(rng, 1))] } else { vec![] };
    with_unknown(fields, unknown, rng)
}

fn call_node(rng: &mut Rng, depth: u32) -> Value {
    let mut fields =
        vec![("name", Value::String(format!("model.layers.{}.{}", rng.below(48), rng.pick(&["attn", "mlp", "norm", "ëmbed"]))))];
    if rng.chance(70) {
        fields.push(("class", Value::from(rng.pick(&["torch.nn.Linear", "torch.nn.LayerNorm", "MyBlock\t(v2)"]))));
    }
    fields.push(("self_ms", Value::from(rng.float())));
    if depth < 4 && rng.chance(60) {
        fields.push(("children", Value::Array((0..1 + rng.below(3)).map(|_| call_node(rng, depth + 1)).collect())));
    }
    object(fields)
}

fn cls_artifact(rng: &mut Rng) -> Value {
    let mut session = vec![
        ("gpu_arch", Value::from(rng.pick(&["sm_80", "sm_90", "sm_100"]))),
        ("driver_version", Value::String(format!("550.{}.{}", rng.below(200), rng.below(10)))),
        ("cuda_version", Value::from(rng.pick(&["12.4", "12.8", "13.0"]))),
    ];
    match rng.below(3) {
        0 => {}
        1 => session.push(("nccl_version", Value::Null)),
        _ => session.push(("nccl_version", Value::from("2.21.5"))),
    }
    session.push(("cudnn_version", if rng.chance(30) { Value::Null } else { Value::from(90100) }));
    if rng.chance(50) {
        session.push(("hostname", Value::String(format!("gpu-node-{}.clüster", rng.below(512)))));
    }
    session.push(("world_size", Value::from(1u64 << rng.below(4))));
    let session_unknown = vec![
        ("torch_version", Value::from("2.6.0+cu124")),
        (
            "env",
            object(vec![
                ("CUDA_VISIBLE_DEVICES", Value::from("0,1")),
                ("PYTHONHASHSEED", Value::from(0)),
                ("note", Value::String(rng.text(4, 1))),
            ]),
        ),
        ("gpu_names", Value::from(vec!["NVIDIA H100 80GB HBM3"; 1 + rng.below(4) as usize])),
    ];
    let session = with_unknown(session, session_unknown, rng);

    let mut config = vec![
        ("backend", Value::from(rng.pick(&["inductor", "cudagraphs", "aot_eager"]))),
        ("mode", Value::from(rng.pick(&["default", "reduce-overhead", "max-autotune", "max-autotune-no-cudagraphs"]))),
        ("fullgraph", Value::Bool(rng.chance(50))),
        ("dynamic", if rng.chance(50) { Value::Null } else { Value::Bool(rng.chance(50)) }),
    ];
    if rng.chance(60) {
        config.push((
            "options",
            object(vec![
                ("triton.cudagraphs", Value::Bool(true)),
                ("max_autotune_gemm_backends", Value::from("ATEN,TRITON")),
                ("epilogue_fusion", any_value(rng, 1)),
            ]),
        ));
    }
    let config_unknown = if rng.chance(20) { vec![("x_cache", Value::Bool(true))] } else { vec![] };
    let config = with_unknown(config, config_unknown, rng);

    let count = 1 + rng.below(120);
    let mut fields = vec![
        ("format_version", Value::from(3)),
        ("session", session),
        ("compile_config", config),
        ("kernels", Value::Array((0..count).map(|index| kernel(rng, index)).collect())),
    ];
    if rng.chance(50) {
        fields.push((
            "extra",
            object(vec![("collector", Value::from("cls-collect 0.9")), ("comment", Value::String(rng.text(8, 1)))]),
        ));
    }
    if rng.chance(50) {
        fields.push(("call_tree", call_node(rng, 0)));
    }
    let unknown = vec![
        (
            "collector",
            object(vec![
                ("name", Value::from("cls")),
                ("version", Value::from("1.4.2")),
                ("flags", Value::from(vec!["--fast", "--ünïcode"])),
            ]),
        ),
        ("x_run_id", Value::String(format!("run_{:016x}", rng.next()))),
        (
            "metrics",
            object(vec![
                ("p50_ms", Value::from(rng.float())),
                ("p99_ms", Value::from(rng.float())),
                ("samples", any_value(rng, 1)),
            ]),
        ),
        ("notes", Value::String(rng.text(10, 1))),
    ];
    let keep = rng.below(unknown.len() as u64 + 1) as usize;
    with_unknown(fields, unknown.into_iter().take(keep.max(1)).collect(), rng)
}

fn evidence(rng: &mut Rng) -> Value {
    let n = rng.next();
    let kinds = ["exit_code", "tool_result", "file_diff", "process_observation", "transcript_excerpt"];
    let kind = kinds[(n % 5) as usize];
    let mut fields = vec![
        ("id", Value::String(format!("ev_{n:016x}"))),
        ("session_id", Value::String(format!("ses_{:08x}", n >> 40))),
        ("kind", Value::from(kind)),
        (
            "payload",
            object(vec![
                ("command", Value::from(vec!["cargo", "test", rng.pick(WORDS)])),
                ("exit_code", Value::from(rng.below(256))),
                ("output", Value::String(rng.text(3, 30))),
                ("detail", any_value(rng, 1)),
            ]),
        ),
    ];
    match rng.below(3) {
        0 => {}
        1 => fields.push(("source", Value::Null)),
        _ => fields.push(("source", Value::from(rng.pick(&["sensor.exec", "sensor.fs", "sensör.tty"])))),
    }
    if rng.chance(60) {
        let payload = match kind {
            "exit_code" => object(vec![
                ("command", Value::from(vec!["bash", "-c", "make test"])),
                ("exit_code", Value::from(rng.below(256))),
                ("heuristic", Value::Bool(rng.chance(20))),
            ]),
            "tool_result" => object(vec![("summary", Value::String(rng.text(12, 1)))]),
            "file_diff" => object(vec![
                ("path", Value::from("src/lïb.rs")),
                ("diff", Value::String(format!("@@ -1,3 +1,4 @@\n-{}\n+{}\n", rng.text(6, 1), rng.text(6, 1)))),
            ]),
            "process_observation" => object(vec![("description", Value::String(rng.text(10, 1)))]),
            _ => object(vec![("text", Value::String(rng.text(20, 40)))]),
        };
        fields.push(("canonical", object(vec![(kind, payload)])));
    }
    if rng.chance(30) {
        let envelope = vec![
            ("schema_version", Value::from(1)),
            ("provider", Value::from(rng.pick(&["claude", "codex"]))),
            ("adapter_version", Value::from("0.3.1")),
            ("content_class", Value::from(rng.pick(&["ToolTelemetry", "Transcript", "Diagnostics"]))),
            (
                "fields",
                object(vec![
                    ("tool", Value::from("bash")),
                    ("elapsed_ms", Value::from(rng.float())),
                    ("meta", any_value(rng, 1)),
                ]),
            ),
        ];
        let unknown = vec![
            ("trace", object(vec![("span_id", Value::String(format!("{:x}", rng.next()))), ("attrs", any_value(rng, 1))])),
            ("retries", Value::from(rng.below(4))),
        ];
        fields.push(("extension", with_unknown(envelope, unknown, rng)));
    }
    let unknown = if rng.chance(10) { vec![("seq", Value::from(rng.below(1 << 40)))] } else { vec![] };
    with_unknown(fields, unknown, rng)
}

/// The JSON Lines set (each line without its newline), at least `target`
/// bytes, and each root's lines.
struct RecordSet {
    bytes: Vec<u8>,
    cls_artifact: Vec<std::ops::Range<usize>>,
    evidence: Vec<std::ops::Range<usize>>,
}

fn record_set(target: usize) -> RecordSet {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut set = RecordSet { bytes: Vec::with_capacity(target + (1 << 20)), cls_artifact: Vec::new(), evidence: Vec::new() };
    while set.bytes.len() < target {
        let (lines, value) =
            if rng.chance(5) { (&mut set.cls_artifact, cls_artifact(&mut rng)) } else { (&mut set.evidence, evidence(&mut rng)) };
        let start = set.bytes.len();
        serde_json::to_writer(&mut set.bytes, &value).expect("a Value serializes");
        lines.push(start..set.bytes.len());
        set.bytes.push(b'\n');
    }
    set
}

// ---------------------------------------------------------------- the benchmarks

/// Samples per benchmark (flat sampling: one iteration count for all), after
/// a 1 s warm-up, in about 3 s: the whole bench takes about a minute.
const SAMPLES: usize = 10;

/// `(iterations, elapsed)` of every call criterion made, per benchmark; the
/// last `SAMPLES` are the measured samples (the warm-up calls come first).
type Timings = RefCell<BTreeMap<String, Vec<(u64, Duration)>>>;

fn timed<'a>(timings: &'a Timings, name: String, mut routine: impl FnMut() + 'a) -> impl FnMut(&mut criterion::Bencher) + 'a {
    move |bencher| {
        bencher.iter_custom(|iterations| {
            let start = Instant::now();
            for _ in 0..iterations {
                routine();
            }
            let elapsed = start.elapsed();
            timings.borrow_mut().entry(name.clone()).or_default().push((iterations, elapsed));
            elapsed
        })
    }
}

fn median_seconds(timings: &Timings, name: &str) -> Option<f64> {
    let timings = timings.borrow();
    let calls = timings.get(name).filter(|calls| calls.len() >= SAMPLES)?; // not so under `--test`
    let mut per_iteration: Vec<f64> =
        calls[calls.len() - SAMPLES..].iter().map(|(iterations, elapsed)| elapsed.as_secs_f64() / *iterations as f64).collect();
    per_iteration.sort_by(f64::total_cmp);
    let middle = per_iteration.len() / 2;
    Some(if per_iteration.len() % 2 == 1 {
        per_iteration[middle]
    } else {
        (per_iteration[middle - 1] + per_iteration[middle]) / 2.0
    })
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
        let lines: Vec<&[u8]> = ranges.iter().map(|range| &bytes[range.clone()]).collect();
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
        println!(
            "{name}: {} lines, {:.1} MiB read, {:.1} MiB written",
            lines.len(),
            read_bytes as f64 / MIB,
            written_bytes as f64 / MIB
        );
        if differing > 0 {
            println!("NOTE: concord and the hand-written structs write different bytes for {differing} {name} records");
        }
        Root { name, lines, concord, hand, read_bytes, written_bytes }
    }

    #[inline(never)]
    fn profile(&self, operation: &str, side: &str) {
        match (operation, side) {
            ("read", "concord") => self.lines.iter().for_each(|line| drop(black_box(C::from_json(line).unwrap()))),
            ("read", "hand") => self.lines.iter().for_each(|line| drop(black_box(serde_json::from_slice::<H>(line).unwrap()))),
            ("write", "concord") => self.concord.iter().for_each(|record| drop(black_box(record.to_json().unwrap()))),
            ("write", "hand") => self.hand.iter().for_each(|record| drop(black_box(serde_json::to_vec(record).unwrap()))),
            ("setup", _) => {}
            ("write-via-serde_json", "concord") => self.concord.iter().for_each(|record| drop(black_box(serde_json::to_vec(record).unwrap()))),
            _ => panic!("no routine {operation} {side}"),
        }
    }

    /// Two groups, `read <name>` and `write <name>`, each concord beside hand-written.
    fn bench(&self, criterion: &mut Criterion, timings: &Timings) {
        let name = self.name;
        let mut group = criterion.benchmark_group(format!("read {name}"));
        configure(&mut group, self.read_bytes);
        group.bench_function(
            "concord from_json",
            timed(timings, format!("read {name} concord"), || {
                for line in &self.lines {
                    black_box(C::from_json(black_box(line)).unwrap());
                }
            }),
        );
        group.bench_function(
            "hand-written serde_json::from_slice",
            timed(timings, format!("read {name} hand"), || {
                for line in &self.lines {
                    black_box(serde_json::from_slice::<H>(black_box(line)).unwrap());
                }
            }),
        );
        group.finish();

        let mut group = criterion.benchmark_group(format!("write {name}"));
        configure(&mut group, self.written_bytes);
        group.bench_function(
            "concord to_json",
            timed(timings, format!("write {name} concord"), || {
                for record in &self.concord {
                    black_box(black_box(record).to_json().unwrap());
                }
            }),
        );
        group.bench_function(
            "hand-written serde_json::to_vec",
            timed(timings, format!("write {name} hand"), || {
                for record in &self.hand {
                    black_box(serde_json::to_vec(black_box(record)).unwrap());
                }
            }),
        );
        group.finish();
    }
}

fn configure(group: &mut BenchmarkGroup<'_, WallTime>, bytes: usize) {
    group
        .throughput(Throughput::Bytes(bytes as u64))
        .sampling_mode(SamplingMode::Flat)
        .sample_size(SAMPLES)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
}

fn main() {
    let target = std::env::var("CONCORD_BENCH_MIB").ok().and_then(|mib| mib.parse::<f64>().ok()).unwrap_or(24.0);
    let set = record_set((target * 1024.0 * 1024.0) as usize);
    println!("record set: {:.1} MiB of JSON Lines", set.bytes.len() as f64 / MIB);
    if let Some(path) = std::env::var_os("CONCORD_BENCH_DUMP") {
        std::fs::write(&path, &set.bytes).expect("the dump path is writable");
    }
    let cls = Root::<concord::ClsArtifact, hand::ClsArtifact>::new("ClsArtifact", &set.bytes, &set.cls_artifact);
    let evidence = Root::<concord::Evidence, hand::Evidence>::new("Evidence", &set.bytes, &set.evidence);
    // `CONCORD_BENCH_PROFILE="write ClsArtifact concord"` runs one routine
    // once and stops: for a profiler, or for valgrind's instruction counts,
    // which are the same on a busy machine as on a quiet one.
    if let Ok(routine) = std::env::var("CONCORD_BENCH_PROFILE") {
        match routine.split(' ').collect::<Vec<_>>().as_slice() {
            [operation, "ClsArtifact", side] => cls.profile(operation, side),
            [operation, "Evidence", side] => evidence.profile(operation, side),
            _ => panic!("CONCORD_BENCH_PROFILE is `read|write|setup ClsArtifact|Evidence concord|hand`, not {routine:?}"),
        }
        return;
    }

    let timings = Timings::default();
    let mut criterion = Criterion::default().configure_from_args();
    cls.bench(&mut criterion, &timings);
    evidence.bench(&mut criterion, &timings);
    criterion.final_summary();
    summary(
        &timings,
        &[(cls.name, cls.read_bytes, cls.written_bytes), (evidence.name, evidence.read_bytes, evidence.written_bytes)],
    );
}

const MIB: f64 = 1024.0 * 1024.0;

/// One line per comparison, and one for the whole set (both roots: the sum
/// of their times): `bindings <what> concord X MiB/s  hand-written Y MiB/s  ratio R`.
fn summary(timings: &Timings, roots: &[(&str, usize, usize)]) {
    println!(
        "\nsummary (median of {SAMPLES} samples each, this run; ratio = concord / hand-written throughput, higher is better)"
    );
    for (operation, target) in [("read", 0.8), ("write", 0.95)] {
        let mut total = Some((0.0, 0.0, 0usize));
        for (root, read, written) in roots {
            let size = if operation == "read" { *read } else { *written };
            let concord = median_seconds(timings, &format!("{operation} {root} concord"));
            let hand = median_seconds(timings, &format!("{operation} {root} hand"));
            let (Some(concord), Some(hand)) = (concord, hand) else {
                total = None;
                continue;
            };
            print_ratio(&format!("{operation} {root}"), size, concord, hand, target);
            total = total.map(|(c, h, s)| (c + concord, h + hand, s + size));
        }
        if let Some((concord, hand, size)) = total {
            print_ratio(&format!("{operation} all"), size, concord, hand, target);
        }
    }
}

fn print_ratio(what: &str, bytes: usize, concord: f64, hand: f64, target: f64) {
    let mib = bytes as f64 / MIB;
    println!(
        "bindings {what:<17} concord {:>7.1} MiB/s  hand-written {:>7.1} MiB/s  ratio {:.2}x (target >= {target}x)",
        mib / concord,
        mib / hand,
        hand / concord
    );
}
