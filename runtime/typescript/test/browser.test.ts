/**
 * The runtime must run in browsers: its compiled modules (all but `node/`,
 * the round-trip harness) import only each other, and name no Node global.
 * One dynamic import is allowed, in `record/engine.js`: the optional engine
 * addon, whose absence (in a browser) is a named refusal.
 */

import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

test("the runtime's modules import only each other and use no Node API", () => {
  const folder = fileURLToPath(new URL("../src/", import.meta.url));
  const modules = readdirSync(folder, { recursive: true, encoding: "utf8" }).filter(
    (name) => name.endsWith(".js") && !name.startsWith("node/"),
  );
  assert.ok(modules.length >= 15, modules.join());
  for (const name of modules) {
    let source = readFileSync(`${folder}${name}`, "utf8");
    for (const [, specifier] of source.matchAll(/\bfrom\s+"([^"]+)"/g)) {
      assert.match(specifier as string, /^\.\.?\/([a-z]+\/)?[a-z0-9]+\.js$/, `${name} imports ${specifier}`);
    }
    if (name === "record/engine.js") {
      const addon = /await import\(\s*(\/\*[^*]*\*\/\s*)?name\)/;
      assert.match(source, addon, "the engine is loaded by one dynamic import");
      source = source.replace(addon, "");
    }
    assert.doesNotMatch(source, /\b(require|process|Buffer|global|__dirname)\b|import\(|["']node:/, name);
  }
});
