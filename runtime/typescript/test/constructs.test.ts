/**
 * The construct registry's round-trip fixtures (fixtures/constructs/roundtrip)
 * read through the TypeScript bindings concord generates for it
 * (fixtures/constructs/expected/typescript): each `.json` input must be
 * written back as expected (the input, or `.out.json`), each `.reject` input
 * refused with the text the file holds. `concord roundtrip` is to run the
 * same fixtures three ways; this runs them where the runtime is built.
 *
 * Without the engine addon (concord-engine), a type whose reads need the
 * engine (ASSERTED) must refuse every input with `EngineUnavailable`, never
 * read it another way; with it, every fixture must meet its expectation.
 */

import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ConcordError, EngineUnavailable, engine, type RecordType } from "../src/index.js";

const root = fileURLToPath(new URL("../../../../", import.meta.url));
const fixtures = join(root, "fixtures/constructs/roundtrip");
const bindings = join(root, "fixtures/constructs/expected/typescript/concord-registry/index.js");

function withoutFinalNewline(text: string): string {
  return text.endsWith("\r\n") ? text.slice(0, -2) : text.endsWith("\n") ? text.slice(0, -1) : text;
}

test("every construct fixture reads, refuses and writes back as expected", async () => {
  assert.ok(existsSync(bindings), `the generated bindings are missing: ${bindings}`);
  const registry = (await import(pathToFileURL(bindings).href)) as Record<string, unknown>;
  const failures: string[] = [];
  let cases = 0;
  for (const folder of readdirSync(fixtures).sort()) {
    const type = registry[folder] as RecordType<unknown> | undefined;
    assert.ok(type !== undefined && "fromJson" in type, `no root ${folder} in the bindings`);
    for (const file of readdirSync(join(fixtures, folder)).sort()) {
      if (!file.endsWith(".json") || file.endsWith(".out.json")) continue;
      const base = file.slice(0, -".json".length);
      const input = readFileSync(join(fixtures, folder, file));
      const reject = join(fixtures, folder, `${base}.reject`);
      if (existsSync(join(fixtures, folder, `${base}.agree`)) || existsSync(join(fixtures, folder, `${base}.accept`)))
        continue;
      cases++;
      let outcome: string;
      let refused = false;
      try {
        outcome = type.toJson(type.fromJson(input));
      } catch (error) {
        // Only concord's own refusals are refusals: a crash (a RangeError, a TypeError) never is.
        if (!(error instanceof ConcordError)) {
          failures.push(`${folder}/${file}: crashed: ${String(error)}`);
          continue;
        }
        refused = true;
        outcome = error.message;
        if (error instanceof EngineUnavailable) {
          if (engine.available) failures.push(`${folder}/${file}: the engine is installed, yet ${outcome}`);
          continue;
        }
      }
      if (existsSync(reject)) {
        const expected = readFileSync(reject, "utf8").trim();
        if (!refused || !outcome.includes(expected))
          failures.push(`${folder}/${file}: expected a refusal with ${JSON.stringify(expected)}, got ${outcome}`);
        continue;
      }
      const out = join(fixtures, folder, `${base}.out.json`);
      const expected = withoutFinalNewline(readFileSync(existsSync(out) ? out : join(fixtures, folder, file), "utf8"));
      if (refused || outcome !== expected) failures.push(`${folder}/${file}: expected ${expected}, got ${outcome}`);
    }
  }
  assert.ok(cases > 200, `only ${cases} fixtures found`);
  assert.deepEqual(failures, []);
});

test("a key that is not a string, in kept keys or a typed map, is refused when written, as a free-form map's is", async () => {
  const registry = (await import(pathToFileURL(bindings).href)) as Record<string, RecordType<unknown>>;
  const { Growing, Engine } = registry as { Growing: RecordType<unknown>; Engine: RecordType<unknown> };
  const message = (write: () => unknown): string => {
    try {
      write();
      return "written";
    } catch (error) {
      return (error as Error).message;
    }
  };
  const kept = { [Symbol.for("concord.unknownKeys")]: new Map<unknown, unknown>([[1, "x"]]) };
  assert.equal(
    message(() => Growing.toJson(kept)),
    'at "": an object key must be a string',
  );
  assert.equal(
    message(() => Engine.toJson({ labels: new Map<unknown, unknown>([[1, "x"]]) })),
    'at "/labels": an object key must be a string',
  );
  assert.equal(
    message(() => Engine.toJson({ env: new Map<unknown, unknown>([[1, "x"]]) })),
    'at "/env": an object key must be a string',
  );
});
