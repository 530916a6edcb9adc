/**
 * JSON Schema patterns in TypeScript: the runtime runs the schema's own
 * ECMA-262 text as a `RegExp` with the `u` flag, where Rust and Python run
 * its translation for the regex crate. Every pattern concord binds in
 * fixtures/vectors/patterns.json must give each case its ECMA verdict
 * (an unanchored search), the verdicts Rust and Python are held to.
 */

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

interface Vector {
  pattern: string;
  translated?: string;
  cases?: [string, boolean][];
  refused?: string;
}

test("every bound pattern gives every case its ECMA verdict", () => {
  const file = fileURLToPath(new URL("../../../../fixtures/vectors/patterns.json", import.meta.url));
  const vectors = (JSON.parse(readFileSync(file, "utf8")) as { patterns: Vector[] }).patterns;
  const bound = vectors.filter((vector) => vector.refused === undefined);
  assert.ok(bound.length >= 60, `only ${bound.length} bound patterns`);
  let cases = 0;
  for (const vector of bound) {
    const pattern = new RegExp(vector.pattern, "u");
    for (const [text, verdict] of vector.cases ?? []) {
      assert.equal(pattern.test(text), verdict, `${JSON.stringify(vector.pattern)} on ${JSON.stringify(text)}`);
      cases++;
    }
  }
  assert.ok(cases >= 180, `only ${cases} cases`);
});
