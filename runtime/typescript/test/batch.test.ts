/**
 * Batch reads in TypeScript: the same outcome as tests/batch.rs gives in Rust
 * and tests/python/test_batch.py in Python (fixtures/batch/*.outcome), and
 * the same refusals of what is no array of records (array-refusals.tsv).
 */

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";
import { type Failure, JsonError, type RecordType } from "../src/index.js";

const root = fileURLToPath(new URL("../../../../", import.meta.url));
const batch = join(root, "fixtures/batch");

interface Evidence {
  id: string;
}

async function evidence(): Promise<RecordType<Evidence>> {
  const bindings = pathToFileURL(join(root, "generated/typescript/concord-registry/index.js")).href;
  return ((await import(bindings)) as { Evidence: RecordType<Evidence> }).Evidence;
}

/** A line per input line or item, as tests/batch.rs writes it: `N ok <id>` or `N <kind> <pointer>`. */
function describe(positions: number[], failures: Map<number, Failure>, records: Evidence[]): string {
  const remaining = records.values();
  let out = "";
  for (const at of positions) {
    const failed = failures.get(at);
    if (failed === undefined) {
      out += `${at} ok ${remaining.next().value?.id}\n`;
    } else {
      const pointer = (failed.error as { pointer?: string }).pointer;
      out += `${at} ${failed.kind} ${pointer === undefined ? "-" : pointer === "" ? "(root)" : pointer}\n`;
    }
  }
  return out;
}

test("one bad line never aborts the read, and each is named", async () => {
  const Evidence = await evidence();
  const expected = readFileSync(join(batch, "evidence.outcome"), "utf8");
  const outcome = Evidence.readJsonl(readFileSync(join(batch, "evidence.jsonl")), { maxBytes: 1024 });
  const failures = new Map<number, Failure>(outcome.failed.map((failed) => [failed.line, failed]));
  const lines = expected.split("\n").filter((line) => line !== "").length;
  assert.equal(
    describe(
      [...Array(lines).keys()].map((index) => index + 1),
      failures,
      outcome.records,
    ),
    expected,
  );
  // The default limit: the long line is read, and refused for what it holds.
  const whole = Evidence.readJsonl(readFileSync(join(batch, "evidence.jsonl")));
  assert.deepEqual(
    [whole.failed.find((failed) => failed.line === 8)?.kind, whole.records.length, whole.failed.length],
    ["unsafe-integer", 3, 10],
  );
});

test("one bad item of an array fails alone, and what is no array fails whole", async () => {
  const Evidence = await evidence();
  const expected = readFileSync(join(batch, "evidence-array.outcome"), "utf8");
  const outcome = Evidence.readJsonArray(readFileSync(join(batch, "evidence-array.json")));
  const failures = new Map<number, Failure>(outcome.failed.map((failed) => [failed.index, failed]));
  const items = expected.split("\n").filter((line) => line !== "").length;
  assert.equal(describe([...Array(items).keys()], failures, outcome.records), expected);
  const refusals = readFileSync(join(batch, "array-refusals.tsv"), "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => line.split("\t"));
  assert.ok(refusals.length >= 7);
  for (const [data, message] of refusals) {
    assert.throws(
      () => Evidence.readJsonArray(data as string),
      (error) => error instanceof JsonError && error.message === message,
      data,
    );
  }
  assert.deepEqual(Evidence.readJsonArray(" [ ] ").records, []);
});
