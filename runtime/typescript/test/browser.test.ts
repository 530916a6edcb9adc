/**
 * The runtime must run in browsers: its compiled modules import only each
 * other, and name no Node global.
 */

import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

test("the runtime's modules import only each other and use no Node API", () => {
  const folder = fileURLToPath(new URL("../src/", import.meta.url));
  const modules = readdirSync(folder).filter((name) => name.endsWith(".js"));
  assert.ok(modules.length >= 9, modules.join());
  for (const name of modules) {
    const source = readFileSync(`${folder}${name}`, "utf8");
    for (const [, specifier] of source.matchAll(/\bfrom\s+"([^"]+)"/g)) {
      assert.match(specifier as string, /^\.\/[a-z0-9]+\.js$/, `${name} imports ${specifier}`);
    }
    assert.doesNotMatch(source, /\b(require|process|Buffer|global|__dirname)\b|import\(|node:/, name);
  }
});
