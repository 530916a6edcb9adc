// Strict reading and canonical JSON throughput of the TypeScript runtime on a
// record set shaped like evidence rows (benchmarks/canonical.py's shape:
// integers, nested objects, non-ASCII and escaped strings, no floats),
// beside what JavaScript gives for free on the same bytes: `JSON.parse`
// (after a `TextDecoder`, which is counted) and `JSON.stringify`. Medians of
// repeated runs; compare the ratios, which hold on a noisy machine better
// than the absolute numbers.
//
//     npx tsc -p runtime/typescript && node benchmarks/typescript/strict.mjs [--runs N] [--megabytes M]

import { parseArgs } from "node:util";
import {
  canonicalBytes,
  canonicalize,
  canonicalOf,
  check,
  digest,
  digestJson,
  Output,
  read,
  writeValue,
  writeValueTo,
} from "../../runtime/typescript/dist/src/index.js";

const WORDS = [
  "exit_code",
  "tool_result",
  "stdout",
  "Grüße",
  "naïve café",
  "日本語",
  "line\nbreak",
  'tab\tquote"',
  "🙂 ok",
];

/** Deterministic records shaped like evidence rows, as benchmarks/canonical.py makes them. */
function recordSet(targetBytes) {
  const mask = (1n << 64n) - 1n;
  let state = 0x9e3779b97f4a7c15n;
  const next = () => {
    state ^= (state << 13n) & mask;
    state ^= state >> 7n;
    state ^= (state << 17n) & mask;
    return state;
  };
  const pick = (n, shift) => WORDS[Number((n >> BigInt(shift)) % BigInt(WORDS.length))];
  const records = [];
  let size = 0;
  while (size < targetBytes) {
    const n = next();
    const record = {
      id: `ev_${n.toString(16).padStart(16, "0")}`,
      session_id: `ses_${(n >> 32n).toString(16).padStart(8, "0")}`,
      kind: WORDS[Number(n % 2n)],
      seq: Number(n % 1_000_000n) - 500_000,
      payload: {
        command: ["cargo", "test", pick(n, 8)],
        exit_code: Number((n >> 16n) % 256n),
        heuristic: n % 3n === 0n,
        env: { RUST_LOG: "debug", zeta: pick(n, 24), alpha: null },
      },
      tags: Array.from({ length: Number(n % 6n) }, (_, i) => pick(n, i)),
    };
    size += Buffer.byteLength(JSON.stringify(record)) + 1;
    records.push(record);
  }
  return new TextEncoder().encode(JSON.stringify(records));
}

const { values: options } = parseArgs({
  options: { runs: { type: "string", default: "9" }, megabytes: { type: "string", default: "8" } },
});
const runs = Number(options.runs);
const data = recordSet(Number(options.megabytes) * 1024 * 1024);
const megabytes = data.length / (1024 * 1024);
const decoder = new TextDecoder();
const encoder = new TextEncoder();
const plain = JSON.parse(decoder.decode(data));
const value = read(data);
// The two must agree on this data (no floats, so no layout question).
if (writeValue(value) !== JSON.stringify(plain)) {
  throw new Error("writeValue and JSON.stringify disagree on this data");
}

// [group, name, action, the row it is compared with]
const rows = [
  ["read", "JSON.parse(TextDecoder.decode(bytes))", () => JSON.parse(decoder.decode(data))],
  ["read", "strict.read(bytes)", () => read(data), 0],
  ["read", "strict.check(bytes)", () => check(data), 0],
  ["read", "TextDecoder.decode(bytes) alone", () => decoder.decode(data), 0],
  ["text", "JSON.stringify(plain value)", () => JSON.stringify(plain)],
  ["text", "writeValue(value)", () => writeValue(value), 4],
  ["text", "canonicalOf(value)", () => canonicalOf(value), 4],
  ["bytes", "TextEncoder.encode(JSON.stringify(plain value))", () => encoder.encode(JSON.stringify(plain))],
  ["bytes", "writeValueTo(output, value)", () => writeValueTo(new Output(), value), 7],
  ["bytes", "canonicalBytes(value)", () => canonicalBytes(value), 7],
  ["bytes", "digest(value) (canonical bytes + SHA-256)", () => digest(value), 7],
  [
    "round",
    "encode(JSON.stringify(JSON.parse(decode(bytes))))",
    () => encoder.encode(JSON.stringify(JSON.parse(decoder.decode(data)))),
  ],
  ["round", "canonicalize(bytes) (strict read + canonical bytes)", () => canonicalize(data), 11],
  ["round", "digestJson(bytes) (canonicalize + SHA-256)", () => digestJson(data), 11],
];

// Round-robin, so that a noisy neighbour slows every row alike; one round to warm up.
const times = rows.map(() => []);
for (let run = 0; run <= runs; run++) {
  rows.forEach(([, , action], index) => {
    const start = process.hrtime.bigint();
    action();
    if (run > 0) {
      times[index].push(Number(process.hrtime.bigint() - start) / 1e9);
    }
  });
}
const medians = times.map((list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]);

console.log(`${megabytes.toFixed(1)} MiB, ${plain.length} records, median of ${runs} runs (node ${process.version})`);
rows.forEach(([group, name, , baseline], index) => {
  const time = medians[index];
  const ratio = baseline === undefined ? "1.00" : (time / medians[baseline]).toFixed(2);
  console.log(
    `${group.padEnd(6)}${name.padEnd(54)}${(megabytes / time).toFixed(1).padStart(8)} MiB/s  ${ratio.padStart(6)}x the time`,
  );
});
