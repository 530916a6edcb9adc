//! The record set the benches read (`bindings`, `validation`): a seeded,
//! deterministic JSON Lines set of the shipped registry's two root types,
//! `ClsArtifact` and `Evidence` (what it holds: `benches/bindings.rs`'s
//! header). Included by each bench as `mod common;`; `benches/common/` is a
//! folder so that cargo does not take it for a bench of its own.

use serde_json::{Map, Value};

pub const MIB: f64 = 1024.0 * 1024.0;

pub fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    let middle = values.len() / 2;
    if values.len() % 2 == 1 {
        values[middle]
    } else {
        (values[middle - 1] + values[middle]) / 2.0
    }
}

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
        let counters = names.iter().take(1 + rng.below(5) as usize).map(|name| ((*name).to_owned(), Value::from(rng.below(1 << 50))));
        fields.push(("counters", Value::Object(counters.collect())));
    }
    if rng.chance(40) {
        fields.push(("source_path", Value::String(format!("/tmp/torchinductor_ü/{:x}/k{index}.py", rng.next() >> 16))));
    }
    let unknown = if rng.chance(10) { vec![("x_debug", any_value(rng, 1))] } else { vec![] };
    with_unknown(fields, unknown, rng)
}

fn call_node(rng: &mut Rng, depth: u32) -> Value {
    let mut fields = vec![("name", Value::String(format!("model.layers.{}.{}", rng.below(48), rng.pick(&["attn", "mlp", "norm", "ëmbed"]))))];
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
        ("env", object(vec![("CUDA_VISIBLE_DEVICES", Value::from("0,1")), ("PYTHONHASHSEED", Value::from(0)), ("note", Value::String(rng.text(4, 1)))])),
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
        fields.push(("extra", object(vec![("collector", Value::from("cls-collect 0.9")), ("comment", Value::String(rng.text(8, 1)))])));
    }
    if rng.chance(50) {
        fields.push(("call_tree", call_node(rng, 0)));
    }
    let unknown = vec![
        ("collector", object(vec![("name", Value::from("cls")), ("version", Value::from("1.4.2")), ("flags", Value::from(vec!["--fast", "--ünïcode"]))])),
        ("x_run_id", Value::String(format!("run_{:016x}", rng.next()))),
        ("metrics", object(vec![("p50_ms", Value::from(rng.float())), ("p99_ms", Value::from(rng.float())), ("samples", any_value(rng, 1))])),
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
        let tag = ("kind", Value::from(kind));
        let payload = match kind {
            "exit_code" => object(vec![
                tag,
                ("command", Value::from(vec!["bash", "-c", "make test"])),
                ("exit_code", Value::from(rng.below(256))),
                ("heuristic", Value::Bool(rng.chance(20))),
            ]),
            "tool_result" => object(vec![tag, ("summary", Value::String(rng.text(12, 1)))]),
            "file_diff" => object(vec![
                tag,
                ("path", Value::from("src/lïb.rs")),
                ("diff", Value::String(format!("@@ -1,3 +1,4 @@\n-{}\n+{}\n", rng.text(6, 1), rng.text(6, 1)))),
            ]),
            "process_observation" => object(vec![tag, ("description", Value::String(rng.text(10, 1)))]),
            _ => object(vec![tag, ("text", Value::String(rng.text(20, 40)))]),
        };
        fields.push(("canonical", payload));
    }
    if rng.chance(30) {
        let envelope = vec![
            // Both envelope versions, without a draw of their own: the set
            // stays the one earlier measurements used (docs/performance.md).
            ("schema_version", Value::from(if kind == "exit_code" { 1 } else { 2 })),
            ("provider", Value::from(rng.pick(&["claude", "codex"]))),
            ("adapter_version", Value::from("0.3.1")),
            ("content_class", Value::from(rng.pick(&["ToolTelemetry", "Transcript", "Diagnostics"]))),
            ("fields", object(vec![("tool", Value::from("bash")), ("elapsed_ms", Value::from(rng.float())), ("meta", any_value(rng, 1))])),
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
pub struct RecordSet {
    pub bytes: Vec<u8>,
    pub cls_artifact: Vec<std::ops::Range<usize>>,
    pub evidence: Vec<std::ops::Range<usize>>,
}

fn record_set(target: usize) -> RecordSet {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut set = RecordSet { bytes: Vec::with_capacity(target + (1 << 20)), cls_artifact: Vec::new(), evidence: Vec::new() };
    while set.bytes.len() < target {
        let (lines, value) = if rng.chance(5) { (&mut set.cls_artifact, cls_artifact(&mut rng)) } else { (&mut set.evidence, evidence(&mut rng)) };
        let start = set.bytes.len();
        serde_json::to_writer(&mut set.bytes, &value).expect("a Value serializes");
        lines.push(start..set.bytes.len());
        set.bytes.push(b'\n');
    }
    set
}

/// The set of `CONCORD_BENCH_MIB` MiB (24 when unset), written to the file
/// `CONCORD_BENCH_DUMP` names when it is set (the Python validation bench
/// reads that file: the same bytes in both languages).
pub fn record_set_from_env() -> RecordSet {
    let target = std::env::var("CONCORD_BENCH_MIB").ok().and_then(|mib| mib.parse::<f64>().ok()).unwrap_or(24.0);
    let set = record_set((target * MIB) as usize);
    println!("record set: {:.1} MiB of JSON Lines", set.bytes.len() as f64 / MIB);
    if let Some(path) = std::env::var_os("CONCORD_BENCH_DUMP") {
        std::fs::write(&path, &set.bytes).expect("the dump path is writable");
    }
    set
}

/// Each line of `ranges`, without its newline.
pub fn lines<'a>(bytes: &'a [u8], ranges: &[std::ops::Range<usize>]) -> Vec<&'a [u8]> {
    ranges.iter().map(|range| &bytes[range.clone()]).collect()
}
