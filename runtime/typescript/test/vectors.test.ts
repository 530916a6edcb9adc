/**
 * Every vector of `fixtures/vectors/` that the runtime's core answers:
 * `strict.json` (exact refusals, canonical bytes, digests), RFC 8785's `jcs/`
 * files, JSONTestSuite with its committed verdict table, and `floats.json`.
 * The same files `runtime/rust/tests/conformance.rs` holds Rust and Python to.
 */

import assert from "node:assert/strict";
import { test } from "node:test";
import { CanonicalError, canonicalize, digestJson, formatFloat, read } from "../src/index.js";
import { hex, outcome, readVector, readVectorJson, stringWithLoneSurrogates, vectorFiles } from "./support.js";

interface StrictCase {
  name: string;
  input?: string;
  input_hex?: string;
  input_parts?: [string, number][];
  repeat?: number;
  max_bytes?: number;
  read_error?: string;
  canonical_error?: string;
  canonical?: string;
  digest?: string;
}

function caseBytes(vector: StrictCase): Uint8Array {
  let data: Uint8Array;
  if (vector.input !== undefined) {
    data = new TextEncoder().encode(vector.input);
  } else if (vector.input_hex !== undefined) {
    data = Buffer.from(vector.input_hex, "hex");
  } else if (vector.input_parts !== undefined) {
    data = new TextEncoder().encode(vector.input_parts.map(([text, times]) => text.repeat(times)).join(""));
  } else {
    throw new Error(`case ${vector.name} needs one of input, input_hex, input_parts`);
  }
  if (vector.repeat !== undefined) {
    const repeated = new Uint8Array(data.length * vector.repeat);
    for (let index = 0; index < vector.repeat; index++) {
      repeated.set(data, index * data.length);
    }
    data = repeated;
  }
  return data;
}

/** What the runtime answers for one input, in the vector's terms. */
function answer(input: Uint8Array | string, maxBytes: number | undefined): Record<string, string> {
  const options = maxBytes === undefined ? undefined : { maxBytes };
  const verdict = outcome(() => read(input, options));
  if (verdict !== "ok") {
    return { read_error: verdict };
  }
  try {
    const canonical = canonicalize(input, options);
    return { canonical: new TextDecoder().decode(canonical), digest: digestJson(input, options) };
  } catch (error) {
    assert.ok(error instanceof CanonicalError, String(error));
    return { canonical_error: String(error) };
  }
}

/** The text a string input holds for these bytes, when one does. */
function asString(data: Uint8Array): string | undefined {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(data);
  } catch {
    return stringWithLoneSurrogates(data);
  }
}

test("strict.json: every case, from bytes and from a string", () => {
  const vectors = readVectorJson("strict.json") as { profile: string; cases: StrictCase[] };
  assert.equal(vectors.profile, "jcs-rfc8785-integer-v1");
  assert.ok(vectors.cases.length >= 80, `${vectors.cases.length} cases`);
  for (const vector of vectors.cases) {
    const expected: Record<string, string> = {};
    for (const key of ["read_error", "canonical_error", "canonical", "digest"] as const) {
      const value = vector[key];
      if (value !== undefined) {
        expected[key] = value;
      }
    }
    const data = caseBytes(vector);
    assert.deepEqual(answer(data, vector.max_bytes), expected, vector.name);
    const text = asString(data);
    if (text !== undefined) {
      assert.deepEqual(answer(text, vector.max_bytes), expected, `${vector.name} (as a string)`);
    }
  }
});

test("jcs: integer and string files byte for byte, float files refused", () => {
  const files = vectorFiles("jcs/input");
  assert.ok(files.length >= 6, files.join());
  for (const name of files) {
    const input = readVector(`jcs/input/${name}`);
    const output = readVector(`jcs/output/${name}`);
    if (name === "structures.json" || name === "values.json") {
      assert.throws(
        () => canonicalize(input),
        (error: unknown) => {
          return error instanceof CanonicalError && String(error).startsWith("not-canonical at ");
        },
      );
    } else {
      assert.equal(hex(canonicalize(input)), hex(output), name);
    }
  }
});

test("json-test-suite: the committed verdict of every file", () => {
  const table = new Map<string, string>();
  for (const line of readVector("json-test-suite.verdicts.tsv").toString("utf8").split("\n")) {
    if (line === "" || line.startsWith("#")) {
      continue;
    }
    const tab = line.indexOf("\t");
    table.set(line.slice(0, tab), line.slice(tab + 1));
  }
  const files = vectorFiles("json-test-suite/test_parsing");
  assert.equal(files.length, table.size, "every file has a verdict, and every verdict a file");
  for (const name of files) {
    const data = readVector(`json-test-suite/test_parsing/${name}`);
    const verdict = outcome(() => read(data));
    assert.equal(verdict, table.get(name), name);
    if (name.startsWith("n_")) {
      assert.notEqual(verdict, "ok", `${name} must be refused`);
    }
    const text = asString(data);
    if (text !== undefined) {
      assert.equal(
        outcome(() => read(text)),
        verdict,
        `${name} (as a string)`,
      );
    }
  }
});

test("floats.json: every double's text", () => {
  const vectors = (readVectorJson("floats.json") as { vectors: { bits: string; text: string }[] }).vectors;
  assert.equal(vectors.length, 805);
  const view = new DataView(new ArrayBuffer(8));
  for (const { bits, text } of vectors) {
    view.setBigUint64(0, BigInt(`0x${bits}`));
    const value = view.getFloat64(0);
    assert.equal(formatFloat(value), text, bits);
    assert.equal(Object.is(Number(text), value), true, `${text} reads back`);
  }
});
