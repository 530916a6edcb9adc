// Validation throughput of the generated TypeScript (`ClsArtifact`,
// `Evidence`) next to `fromJson` on the same lines, as
// benchmarks/python_validation.py measures Python's: `T.schema.validateJson(line)`
// and `T.validate(record)` (the assertion engine, the Node addon),
// `T["~standard"].validate(value)` (Standard Schema, `value` from `JSON.parse`
// before timing), and an ajv 8.20 validator compiled from the same pinned
// schema files, on values parsed before timing and from the bytes
// (`JSON.parse` then `validate`); `JSON.parse` alone for reference. The
// lines are the JSON Lines set of the Rust benches (benches/common), the same
// bytes in all three languages: `--set FILE`, made with `cargo bench` when it
// does not exist. Records/s and MiB/s of the median round, and each pass's
// ratio to `fromJson` (throughput, higher is faster): the median of the
// rounds' own ratios; each round runs every pass once, starting one further
// on than the round before.
//
//   node --expose-gc benchmarks/typescript/validation.mjs [--set FILE] [--mib N] [--runs N]

import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import Ajv2020 from "ajv/dist/2020.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const MIB = 1024 * 1024;
const { values: options } = parseArgs({
  options: {
    set: { type: "string", default: join(root, "target/bench/records.jsonl") },
    mib: { type: "string", default: "24" },
    runs: { type: "string", default: "7" },
  },
});
const runs = Number(options.runs);

if (!existsSync(options.set)) {
  console.log(`writing the record set (${options.mib} MiB) to ${options.set} with cargo bench`);
  mkdirSync(dirname(options.set), { recursive: true });
  execFileSync("cargo", ["bench", "--quiet", "-p", "concord", "--bench", "validation"], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...process.env,
      CONCORD_BENCH_DUMP: options.set,
      CONCORD_BENCH_PROFILE: "setup",
      CONCORD_BENCH_MIB: options.mib,
    },
  });
}

const bindings = await import(pathToFileURL(join(root, "generated/typescript/concord-registry/index.js")).href);
const { PINNED } = await import(pathToFileURL(join(root, "generated/typescript/concord-registry/_schemas.js")).href);
const { engine } = await import(pathToFileURL(join(root, "runtime/typescript/dist/src/index.js")).href);
if (!engine.available) {
  console.error(
    "the engine addon is missing: build it with scripts/build-node-engine (validateJson and validate need it)",
  );
  process.exit(2);
}

const ajv = new Ajv2020({ strict: false, allErrors: false });
for (const document of PINNED) ajv.addSchema(JSON.parse(document.text), document.uri);
const decoder = new TextDecoder("utf-8", { fatal: true });

// The lines of each root, as `Uint8Array`s of the set (no copy), and their values parsed once.
const set = readFileSync(options.set);
const roots = { ClsArtifact: { lines: [], values: [] }, Evidence: { lines: [], values: [] } };
let start = 0;
while (start < set.length) {
  let end = set.indexOf(0x0a, start);
  if (end < 0) end = set.length;
  if (end > start) {
    const line = set.subarray(start, end);
    const value = JSON.parse(decoder.decode(line));
    const entry = roots["kernels" in value ? "ClsArtifact" : "Evidence"];
    entry.lines.push(line);
    entry.values.push(value);
  }
  start = end + 1;
}

/** Every line through each; `fromJson` first, the baseline of the ratios. */
function passes(type, validate, lines, values, records) {
  const schema = type.schema;
  const standard = type["~standard"];
  return {
    fromJson() {
      for (const line of lines) type.fromJson(line);
    },
    validateJson() {
      for (const line of lines) schema.validateJson(line);
    },
    "validate (record)"() {
      for (const record of records) type.validate(record);
    },
    "~standard.validate (parsed)"() {
      for (const value of values) if (standard.validate(value).issues !== undefined) throw new Error("refused");
    },
    "JSON.parse + ~standard.validate"() {
      for (const line of lines) {
        if (standard.validate(JSON.parse(decoder.decode(line))).issues !== undefined) throw new Error("refused");
      }
    },
    // ajv's verdict is not concord's (see below): every line is timed whatever it says.
    "ajv validate (parsed)"() {
      let refused = 0;
      for (const value of values) if (!validate(value)) refused++;
      return refused;
    },
    "JSON.parse + ajv validate"() {
      let refused = 0;
      for (const line of lines) if (!validate(JSON.parse(decoder.decode(line)))) refused++;
      return refused;
    },
    "JSON.parse"() {
      for (const line of lines) JSON.parse(decoder.decode(line));
    },
  };
}

/** Seconds of each action per round; the collector runs before each action when `--expose-gc` allows it. */
function timedRounds(actions) {
  const times = actions.map(() => []);
  for (const action of actions) action();
  for (let round = 0; round < runs; round++) {
    for (let turn = 0; turn < actions.length; turn++) {
      const index = (round + turn) % actions.length;
      globalThis.gc?.();
      const began = process.hrtime.bigint();
      actions[index]();
      times[index].push(Number(process.hrtime.bigint() - began) / 1e9);
    }
  }
  return times;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const results = {};
for (const [name, { lines, values }] of Object.entries(roots)) {
  const type = bindings[name];
  const validate = ajv.getSchema(type.schema.documents[0].uri);
  // Every line passes each of concord's before anything is timed; ajv reads the pinned schema
  // without concord's keywords, so it refuses an `x-open-enum` value its `enum` does not list.
  const records = lines.map((line) => type.fromJson(line));
  let ajvRefuses = 0;
  for (const [index, line] of lines.entries()) {
    type.schema.validateJson(line);
    type.validate(records[index]);
    const result = type["~standard"].validate(values[index]);
    if (result.issues !== undefined)
      throw new Error(`~standard refuses line ${index} of ${name}: ${result.issues[0].message}`);
    if (!validate(values[index])) ajvRefuses++;
  }
  const size = lines.reduce((total, line) => total + line.length, 0);
  console.log(
    `${name}: ${lines.length} lines, ${(size / MIB).toFixed(1)} MiB; ajv refuses ${ajvRefuses} of them (concord accepts all)`,
  );
  const actions = passes(type, validate, lines, values, records);
  const rounds = timedRounds(Object.values(actions));
  results[name] = {
    records: lines.length,
    size,
    byPass: Object.fromEntries(Object.keys(actions).map((label, index) => [label, rounds[index]])),
  };
}
// Both roots together: each round's times added.
const perRoot = Object.values(results);
results.all = {
  records: perRoot.reduce((total, root) => total + root.records, 0),
  size: perRoot.reduce((total, root) => total + root.size, 0),
  byPass: Object.fromEntries(
    Object.keys(perRoot[0].byPass).map((label) => [
      label,
      Array.from({ length: runs }, (_, round) => perRoot.reduce((total, root) => total + root.byPass[label][round], 0)),
    ]),
  ),
};

console.log(`\nsummary: median of ${runs} rounds; ratio = throughput / fromJson's in the same round`);
for (const [name, { records, size, byPass }] of Object.entries(results)) {
  for (const [label, seconds] of Object.entries(byPass)) {
    const ratio = median(byPass.fromJson.map((baseline, round) => baseline / seconds[round]));
    const time = median(seconds);
    console.log(
      `validation (TypeScript) ${name.padEnd(11)} ${label.padEnd(31)} ${(records / time).toFixed(0).padStart(9)} records/s` +
        ` ${(size / MIB / time).toFixed(1).padStart(7)} MiB/s  ratio ${ratio.toFixed(2)}x of fromJson`,
    );
  }
}
