//! One test runs the same vector files through the Rust, the Python and the
//! TypeScript runtime (strict reading, canonical JSON, digests) and fails on
//! any difference between the three, or from the expected result.
//!
//! Python runs `tests/python/conformance_runner.py` (`CONCORD_PYTHON`, else
//! `.venv/bin/python`); TypeScript runs `tests/typescript/conformance_runner.mjs`
//! with `node` (`CONCORD_NODE`, else `node` on the `PATH`) against the built
//! runtime (`npm ci && npx tsc -p runtime/typescript`). A missing or stale
//! one fails the test, saying so: never a silent skip.
//!
//! Set CONCORD_BLESS=1 to rewrite the JSONTestSuite verdict table after a
//! deliberate change of the profile; review the diff.

use concord_runtime::{canonical, read, strict};
use serde_json::{json, Value};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The workspace: the vectors and the Python and TypeScript runtimes live there.
fn root() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// Checks one input's answer against what its vector expects.
type Expectation = Box<dyn Fn(&Value) -> Result<(), String>>;

struct Input {
    name: String,
    bytes: Vec<u8>,
    max_bytes: Option<usize>,
}

/// `value` written compact with the canonical string escaping, as `to_json` writes.
fn compact(value: &Value) -> Vec<u8> {
    serde_json::to_vec(value).unwrap()
}

/// What one runtime did with one input; the same shape both languages answer.
fn rust_answer(input: &Input) -> Value {
    let limits = strict::Limits { max_bytes: input.max_bytes.unwrap_or(strict::DEFAULT_MAX_BYTES) };
    let reference = strict::read_with(&input.bytes, limits);
    // The one-pass reader behind every from_json must decide as the reference reader does.
    let fast = read::from_slice::<Value>(&input.bytes, limits);
    if fast.as_ref().ok().map(Value::to_string) != reference.as_ref().ok().map(Value::to_string) {
        return json!({"read": format!("the one-pass reader gave {fast:?}, the reference reader {reference:?}")});
    }
    // So must it when a generated type drops the value (the fast scanner, else a full read).
    let skipped = read::from_slice::<concord_runtime::serde::de::IgnoredAny>(&input.bytes, limits);
    if skipped.is_ok() != reference.is_ok() {
        return json!({"read": format!("skipping gave {skipped:?}, the reference reader {reference:?}")});
    }
    match reference {
        Err(error) => json!({"read": error.to_string()}),
        // `value`: what was read, written back the serde_json way, so that
        // floats are compared too.
        // The fast canonical path (from compact JSON, what digest() takes) must
        // give the reference writer's bytes, or decline.
        Ok(value) if canonical::from_compact(&compact(&value)).is_some_and(|fast| canonical::to_bytes(&value).ok() != Some(fast)) => {
            json!({"read": "the canonical fast path (from compact JSON) differs from the reference writer"})
        }
        Ok(value) => match canonical::to_bytes(&value) {
            Err(error) => json!({"read": "ok", "value": value.to_string(), "canonical_error": error.to_string()}),
            Ok(bytes) => json!({
                "read": "ok",
                "value": value.to_string(),
                "canonical_hex": hex(&bytes),
                "digest": canonical::digest(&value).unwrap(),
            }),
        },
    }
}

fn python_answers(inputs: &[Input]) -> Vec<Value> {
    let python = std::env::var("CONCORD_PYTHON").unwrap_or_else(|_| root().join(".venv/bin/python").display().to_string());
    assert!(Path::new(&python).exists(), "no Python at {python}: run scripts/test, which creates .venv");
    let mut command = Command::new(python);
    command.arg(root().join("tests/python/conformance_runner.py")).env("PYTHONPATH", root().join("runtime/python"));
    runner_answers("Python", command, inputs)
}

fn typescript_answers(inputs: &[Input]) -> Vec<Value> {
    let node = std::env::var("CONCORD_NODE").unwrap_or_else(|_| "node".into());
    let version = Command::new(&node).arg("--version").output();
    assert!(
        version.as_ref().is_ok_and(|output| output.status.success()),
        "no Node.js (`{node} --version` failed: {version:?}): the conformance test runs the TypeScript runtime too; install Node 20 or set CONCORD_NODE"
    );
    let package = root().join("runtime/typescript");
    let built = package.join("dist/src/index.js");
    assert!(built.exists(), "the TypeScript runtime is not built ({} is missing): run `npm ci && npx tsc -p runtime/typescript`", built.display());
    // A build older than its sources would test yesterday's runtime.
    let modified = |path: &Path| std::fs::metadata(path).and_then(|metadata| metadata.modified()).unwrap();
    for source in typescript_sources(&package.join("src")) {
        let relative = source.strip_prefix(package.join("src")).unwrap();
        let output = package.join("dist/src").join(relative.with_extension("js"));
        assert!(
            output.exists() && modified(&output) >= modified(&source),
            "the TypeScript runtime's build is older than {}: run `npx tsc -p runtime/typescript`",
            source.display()
        );
    }
    let mut command = Command::new(node);
    command.arg(root().join("tests/typescript/conformance_runner.mjs"));
    runner_answers("TypeScript", command, inputs)
}

/// Each input's answer from another language's runner: one JSON request a
/// line on its standard input, one answer a line on its standard output.
fn runner_answers(language: &str, mut command: Command, inputs: &[Input]) -> Vec<Value> {
    let mut child = command.stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap_or_else(|error| panic!("the {language} runner did not start: {error}"));
    let requests: String = inputs.iter().map(|input| json!({"hex": hex(&input.bytes), "max_bytes": input.max_bytes}).to_string() + "\n").collect();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(requests.as_bytes()).unwrap());
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert!(output.status.success(), "the {language} runner failed");
    let answers: Vec<Value> = String::from_utf8(output.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(answers.len(), inputs.len(), "the {language} runner answered {} of {} inputs", answers.len(), inputs.len());
    answers
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Vec<u8> {
    (0..text.len()).step_by(2).map(|i| u8::from_str_radix(&text[i..i + 2], 16).unwrap()).collect()
}

/// The TypeScript sources below `dir`, in its folders too.
fn typescript_sources(dir: &Path) -> Vec<PathBuf> {
    let mut sources = Vec::new();
    for path in sorted_files(dir) {
        if path.is_dir() {
            sources.extend(typescript_sources(&path));
        } else if path.extension().is_some_and(|extension| extension == "ts") {
            sources.push(path);
        }
    }
    sources
}

fn sorted_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    files
}

/// What a case of `strict.json` expects, in the answer's own shape.
fn expected_answer(case: &Value) -> Value {
    if let Some(error) = case.get("read_error") {
        return json!({"read": error});
    }
    if let Some(error) = case.get("canonical_error") {
        return json!({"read": "ok", "canonical_error": error});
    }
    json!({
        "read": "ok",
        "canonical_hex": hex(case["canonical"].as_str().unwrap().as_bytes()),
        "digest": case["digest"],
    })
}

#[test]
fn rust_python_and_typescript_agree_on_every_vector() {
    let vectors = root().join("fixtures/vectors");
    let mut inputs = Vec::new();
    let mut expectations: Vec<Expectation> = Vec::new();

    // Our own vectors: every rule of the profile, exact messages included.
    let strict_cases: Value = serde_json::from_slice(&std::fs::read(vectors.join("strict.json")).unwrap()).unwrap();
    for case in strict_cases["cases"].as_array().unwrap() {
        let mut bytes = match (case.get("input"), case.get("input_hex"), case.get("input_parts")) {
            (Some(text), None, None) => text.as_str().unwrap().as_bytes().to_vec(),
            (None, Some(hex), None) => unhex(hex.as_str().unwrap()),
            (None, None, Some(parts)) => {
                parts.as_array().unwrap().iter().flat_map(|part| part[0].as_str().unwrap().repeat(part[1].as_u64().unwrap() as usize).into_bytes()).collect()
            }
            _ => panic!("case {case} needs one of input, input_hex, input_parts"),
        };
        if let Some(times) = case.get("repeat") {
            bytes = bytes.repeat(times.as_u64().unwrap() as usize);
        }
        let max_bytes = case.get("max_bytes").map(|n| n.as_u64().unwrap() as usize);
        inputs.push(Input { name: format!("strict.json: {}", case["name"].as_str().unwrap()), bytes, max_bytes });
        let expected = expected_answer(case);
        expectations.push(Box::new(move |answer| {
            let mut answer = answer.clone();
            answer.as_object_mut().unwrap().remove("value");
            if answer == expected {
                Ok(())
            } else {
                Err(format!("expected {expected}"))
            }
        }));
    }

    // RFC 8785's reference vectors: the integer and string files byte for byte; the float files refused.
    for input in sorted_files(&vectors.join("jcs/input")) {
        let name = input.file_name().unwrap().to_str().unwrap().to_owned();
        let output = std::fs::read(vectors.join("jcs/output").join(&name)).unwrap();
        inputs.push(Input { name: format!("jcs/{name}"), bytes: std::fs::read(&input).unwrap(), max_bytes: None });
        let floats = matches!(name.as_str(), "structures.json" | "values.json");
        expectations.push(Box::new(move |answer| {
            let ok = if floats {
                answer["canonical_error"].as_str().is_some_and(|e| e.starts_with("not-canonical at "))
            } else {
                answer["canonical_hex"] == json!(hex(&output))
            };
            if ok {
                Ok(())
            } else if floats {
                Err("expected a not-canonical refusal".into())
            } else {
                Err(format!("expected canonical {}", String::from_utf8_lossy(&output)))
            }
        }));
    }

    // JSONTestSuite: every file, with the committed verdict table.
    let suite = sorted_files(&vectors.join("json-test-suite/test_parsing"));
    let first_suite = inputs.len();
    for file in &suite {
        let name = file.file_name().unwrap().to_str().unwrap().to_owned();
        inputs.push(Input { name: format!("json-test-suite/{name}"), bytes: std::fs::read(file).unwrap(), max_bytes: None });
        expectations.push(Box::new(move |answer| {
            let read = answer["read"].as_str().unwrap();
            let kind = read.split(' ').next().unwrap();
            match name.as_bytes()[0] {
                b'n' if read == "ok" => Err("an n_ file must be refused".into()),
                // A y_ file may only be refused for a reason the profile names, never as malformed JSON.
                b'y' if matches!(kind, "syntax" | "invalid-utf8" | "byte-order-mark" | "too-large") => {
                    Err("a y_ file must be accepted or refused for a reason the profile names".into())
                }
                _ => Ok(()),
            }
        }));
    }

    let python = python_answers(&inputs);
    let typescript = typescript_answers(&inputs);
    let mut failures = Vec::new();
    let mut verdicts = String::from("# file\tverdict of both strict readers (ok, or the first error)\n");
    for (index, input) in inputs.iter().enumerate() {
        let rust = rust_answer(input);
        if rust != python[index] || rust != typescript[index] {
            failures.push(format!(
                "{}: the languages differ\n  rust:       {rust}\n  python:     {}\n  typescript: {}",
                input.name, python[index], typescript[index]
            ));
        } else if let Err(why) = expectations[index](&rust) {
            failures.push(format!("{}: {why}\n  all three:  {rust}", input.name));
        }
        if index >= first_suite {
            verdicts.push_str(&format!("{}\t{}\n", input.name.trim_start_matches("json-test-suite/"), rust["read"].as_str().unwrap()));
        }
    }

    let table = vectors.join("json-test-suite.verdicts.tsv");
    if std::env::var_os("CONCORD_BLESS").is_some() {
        std::fs::write(&table, &verdicts).unwrap();
    }
    let committed = std::fs::read_to_string(&table).unwrap_or_default();
    if committed != verdicts {
        let changed: Vec<String> =
            verdicts.lines().filter(|line| !committed.lines().any(|c| c == *line)).take(10).map(|line| format!("  now: {line}")).collect();
        failures.push(format!("{} differs from the verdicts (CONCORD_BLESS=1 rewrites it):\n{}", table.display(), changed.join("\n")));
    }
    assert!(failures.is_empty(), "{} of {} vectors failed:\n{}", failures.len(), inputs.len(), failures.join("\n"));
}

/// Differential check beyond the vectors: thousands of deterministic
/// mutations of the vector inputs (bytes flipped, inserted, deleted, cut)
/// must get the same answer from all three runtimes, errors included.
#[test]
fn rust_python_and_typescript_agree_on_mutated_inputs() {
    let vectors = root().join("fixtures/vectors");
    let mut seeds: Vec<Vec<u8>> = sorted_files(&vectors.join("json-test-suite/test_parsing"))
        .iter()
        .chain(sorted_files(&vectors.join("jcs/input")).iter())
        .map(|file| std::fs::read(file).unwrap())
        .filter(|bytes| bytes.len() < 4096)
        .collect();
    seeds.push(br#"{"a":[1,-2,3.5e2,"\u00e9\ud83d\ude00",{"b":null,"c":true}],"d":"x\ny"}"#.to_vec());

    let mut state: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = move |bound: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % bound.max(1) as u64) as usize
    };
    const INTERESTING: &[u8] = b"{}[]\",:\\-+.eE0123456789 \t\nuntrfalsNI\x00\x1f\x7f\xc3\xa9\xed\xa0\x80\xef\xbb\xbf\xff";
    let mut inputs = Vec::new();
    for (index, seed) in seeds.iter().enumerate() {
        for variant in 0..30 {
            let mut bytes = seed.clone();
            for _ in 0..1 + next(3) {
                let at = next(bytes.len() + 1);
                match next(4) {
                    0 if at < bytes.len() => bytes[at] = INTERESTING[next(INTERESTING.len())],
                    1 => bytes.insert(at, INTERESTING[next(INTERESTING.len())]),
                    2 if at < bytes.len() => {
                        bytes.remove(at);
                    }
                    _ => bytes.truncate(at),
                }
            }
            inputs.push(Input { name: format!("seed {index} variant {variant}"), bytes, max_bytes: None });
        }
    }
    let python = python_answers(&inputs);
    let typescript = typescript_answers(&inputs);
    let differences: Vec<String> = inputs
        .iter()
        .zip(python.iter().zip(&typescript))
        .filter_map(|(input, (python, typescript))| {
            let rust = rust_answer(input);
            (rust != *python || rust != *typescript)
                .then(|| format!("{} ({}):\n  rust:       {rust}\n  python:     {python}\n  typescript: {typescript}", input.name, hex(&input.bytes)))
        })
        .take(10)
        .collect();
    assert!(differences.is_empty(), "{} inputs:\n{}", inputs.len(), differences.join("\n"));
    // The mutations must reach both verdicts, or they prove little.
    let accepted = python.iter().filter(|answer| answer["read"] == "ok").count();
    assert!(accepted >= 100 && inputs.len() - accepted >= 100, "{accepted} of {} accepted", inputs.len());
    let mut kinds: Vec<&str> = python.iter().filter_map(|answer| answer["read"].as_str()?.split(' ').next()).collect();
    kinds.sort_unstable();
    kinds.dedup();
    assert!(kinds.len() >= 9, "the mutations reached only {kinds:?}");
}
