// The runtime and generated packages in a real browser: browser_page.mjs, the
// built runtime (runtime/typescript/dist/src) and the shipped registry's and
// the constructs' generated packages bundled by esbuild into one script,
// served on 127.0.0.1 and run in headless Chromium (Debian's
// /usr/bin/chromium, driven by playwright-core). The page reads, writes and
// digests every fixture input of the shipped registry (fixtures/roundtrip,
// the expected outputs beside them, fixtures/batch) and must give the bytes
// and digests Node gives for the same calls. Where there is no assertion
// engine (the page), `validate` and an ASSERTED type's read refuse with
// `EngineUnavailable`; in Node, with the engine addon, they work.
//
// Needs `npx tsc -p runtime/typescript`, scripts/build-node-engine and
// Chromium (scripts/test installs it); fails, never skips, without them.

import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { chromium } from "playwright-core";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const CHROMIUM = "/usr/bin/chromium";
const RUNTIME = join(ROOT, "runtime/typescript/dist/src/index.js");
const ENGINE = join(ROOT, "runtime/node-engine/concord-engine.node");
const CONSTRUCTS = join(ROOT, "fixtures/constructs/expected/typescript/concord-registry");

assert.ok(existsSync(RUNTIME), `${RUNTIME} is missing: run \`npx tsc -p runtime/typescript\` first`);
assert.ok(existsSync(ENGINE), `${ENGINE} is missing: run scripts/build-node-engine first`);
assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: install Debian's chromium (apt-get install chromium)`);

const node = await import("./browser_page.mjs");

/** Each `.json` file of each folder of `folder`, by name, with whether a `.reject` stands beside it. */
function fixtures(folder) {
  const found = [];
  for (const type of readdirSync(folder).sort()) {
    for (const file of readdirSync(join(folder, type)).sort()) {
      if (!file.endsWith(".json")) continue;
      const base = file.endsWith(".out.json") ? file.slice(0, -".out.json".length) : file.slice(0, -".json".length);
      found.push({
        type,
        file,
        input: readFileSync(join(folder, type, file)),
        reject: existsSync(join(folder, type, `${base}.reject`)),
      });
    }
  }
  return found;
}

/** The constructs' record types whose reads need the engine: `"pinning": "asserted"` in the type's plan. */
function assertedTypes() {
  const types = [];
  for (const file of readdirSync(CONSTRUCTS).sort()) {
    if (!file.endsWith(".js") || file.startsWith("_") || file === "index.js") continue;
    const source = readFileSync(join(CONSTRUCTS, file), "utf8");
    for (const [, name] of source.matchAll(/^export const (\w+) = registry\.record\(/gm)) {
      const plan = source.split("\n").find((line) => line.startsWith(`    "${name}": {`));
      if (plan?.includes('"pinning": "asserted"')) types.push(name);
    }
  }
  return types;
}

const shippedFixtures = fixtures(join(ROOT, "fixtures/roundtrip"));
const batch = [
  { type: "Evidence", read: "jsonl", input: readFileSync(join(ROOT, "fixtures/batch/evidence.jsonl")) },
  { type: "Evidence", read: "array", input: readFileSync(join(ROOT, "fixtures/batch/evidence-array.json")) },
];
// The ASSERTED roots, each with its fixtures (fixtures/constructs/roundtrip/<root>/).
const asserted = readdirSync(join(ROOT, "fixtures/constructs/roundtrip"))
  .filter((root) => assertedTypes().includes(root))
  .sort();
const assertedFixtures = fixtures(join(ROOT, "fixtures/constructs/roundtrip")).filter(
  (fixture) => asserted.includes(fixture.type) && !fixture.file.endsWith(".out.json"),
);

const requests = [
  ...shippedFixtures.map(({ type, input }) => ({ registry: "shipped", type, read: "one", hex: input.toString("hex") })),
  ...batch.map(({ type, read, input }) => ({ registry: "shipped", type, read, hex: input.toString("hex") })),
  ...assertedFixtures.map(({ type, input }) => ({
    registry: "constructs",
    type,
    read: "one",
    hex: input.toString("hex"),
  })),
];
const label = (index) => {
  const request = requests[index];
  const fixture = [...shippedFixtures, ...batch, ...assertedFixtures][index];
  return `${request.registry} ${request.type} ${fixture.file ?? request.read}`;
};

let server;
let browser;
let page;
const pageErrors = [];

before(async () => {
  const bundle = await build({
    entryPoints: [join(ROOT, "tests/typescript/browser_page.mjs")],
    absWorkingDir: ROOT,
    bundle: true,
    format: "esm",
    platform: "browser",
    write: false,
    logLevel: "silent",
  });
  // A warning is a bug: "ignored-bare-import" is how a package's module that registers its plans was dropped.
  assert.deepEqual(bundle.warnings, []);
  const script = bundle.outputFiles[0].contents;
  const html =
    '<!doctype html><meta charset="utf-8"><title>concord</title><script type="module" src="/page.js"></script>';
  server = createServer((request, response) => {
    const [type, body] =
      request.url === "/page.js"
        ? ["text/javascript", script]
        : request.url === "/"
          ? ["text/html; charset=utf-8", html]
          : [undefined, undefined];
    response.writeHead(type === undefined ? 404 : 200, type === undefined ? {} : { "content-type": type });
    response.end(body);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, timeout: 60_000 });
  page = await browser.newPage();
  page.on("pageerror", (error) => pageErrors.push(String(error)));
  await page.goto(`http://127.0.0.1:${server.address().port}/`);
  await page.waitForFunction(() => globalThis.concordPage !== undefined, undefined, { timeout: 60_000 });
});

after(async () => {
  await browser?.close();
  await new Promise((resolve) => (server === undefined ? resolve() : server.close(resolve)));
});

let answers;
async function both() {
  answers ??= {
    node: node.run(requests),
    page: await page.evaluate((sent) => globalThis.concordPage.run(sent), requests),
  };
  return answers;
}

/** An answer without `validate` and `validateJson`, which only the engine gives. */
function engineFree(answer) {
  if (answer.records !== undefined) return { ...answer, records: answer.records.map(engineFree) };
  const { validate: _validate, validateJson: _validateJson, ...rest } = answer;
  return rest;
}

function isEngineUnavailable(outcome) {
  return (
    outcome?.error?.name === "EngineUnavailable" &&
    outcome.error.kind === "no-engine" &&
    outcome.error.engineUnavailable === true
  );
}

test("the page loads: Node has the engine, the page has none, and nothing threw", async (t) => {
  const { node: inNode, page: inPage } = await both();
  t.diagnostic(
    `${browser.browserType().name()} ${browser.version()}: ${await page.evaluate(() => navigator.userAgent)}`,
  );
  assert.equal(inNode.engine, true, "the engine addon does not load in Node");
  assert.equal(inPage.engine, false);
  assert.deepEqual(pageErrors, []);
});

test("the page reads, writes and digests every fixture of the shipped registry as Node does, byte for byte", async (t) => {
  const { node: inNode, page: inPage } = await both();
  const shipped = shippedFixtures.length + batch.length;
  assert.ok(shippedFixtures.length >= 185, `only ${shippedFixtures.length} fixtures under fixtures/roundtrip`);
  const differences = [];
  let written = 0;
  for (let index = 0; index < shipped; index++) {
    const [inN, inP] = [inNode.answers[index], inPage.answers[index]];
    assert.equal(inN.missing, undefined, label(index));
    if (JSON.stringify(engineFree(inN)) !== JSON.stringify(engineFree(inP)))
      differences.push(
        `${label(index)}:\n  node ${JSON.stringify(engineFree(inN))}\n  page ${JSON.stringify(engineFree(inP))}`,
      );
    if (inN.bytes?.ok !== undefined) written++;
    written += inN.records?.length ?? 0;
  }
  assert.deepEqual(differences, []);
  // Not two alike failures: Node's answers are the fixtures' expectations.
  for (const [index, fixture] of shippedFixtures.entries()) {
    const answer = inNode.answers[index];
    if (fixture.reject) {
      assert.ok(answer.read.error !== undefined, `${label(index)} must be refused`);
      continue;
    }
    assert.equal(answer.read.error, undefined, label(index));
    const out = join(ROOT, "fixtures/roundtrip", fixture.type, fixture.file.replace(/(\.out)?\.json$/, ".out.json"));
    const expected = existsSync(out) ? readFileSync(out) : fixture.input;
    assert.equal(Buffer.from(answer.bytes.ok, "hex").toString("utf8"), expected.toString("utf8").replace(/\r?\n$/, ""));
    assert.match(answer.digest.ok ?? answer.digest.error.message, /^sha256:[0-9a-f]{64}$|float/, label(index));
  }
  assert.ok(written >= 100, `only ${written} records written`);
  t.diagnostic(
    `${shippedFixtures.length} inputs and ${batch.length} batches read, ${written} records written and digested`,
  );
});

test("validate refuses in the page with EngineUnavailable, and works in Node", async (t) => {
  const { node: inNode, page: inPage } = await both();
  let validated = 0;
  for (let index = 0; index < shippedFixtures.length + batch.length; index++) {
    const pairs = [[inNode.answers[index], inPage.answers[index]]];
    for (const [at, record] of (inNode.answers[index].records ?? []).entries())
      pairs.push([record, inPage.answers[index].records[at]]);
    for (const [inN, inP] of pairs) {
      // Every root of the shipped registry has a pinned schema: a record read is valid, an input refused is invalid.
      const read = inN.read?.error === undefined;
      const keys =
        inN.records !== undefined
          ? [] // a batch's records are checked one by one
          : inN.read === undefined
            ? ["validate"] // a batch's record
            : read
              ? ["validate", "validateJson"]
              : ["validateJson"];
      for (const key of keys) {
        validated++;
        assert.ok(isEngineUnavailable(inP[key]), `${label(index)} ${key} in the page: ${JSON.stringify(inP[key])}`);
        if (read) assert.deepEqual(inN[key], { ok: true }, `${label(index)} ${key} in Node`);
        else assert.ok(typeof inN[key].error?.kind === "string" && !inN[key].error.engineUnavailable, label(index));
      }
    }
  }
  assert.ok(validated > shippedFixtures.length, `only ${validated} validations`);
  t.diagnostic(`${validated} validations refused in the page`);
});

test("an ASSERTED type's read refuses in the page with EngineUnavailable, and reads in Node", async (t) => {
  const { node: inNode, page: inPage } = await both();
  assert.ok(asserted.length >= 9, `only ${asserted.length} ASSERTED roots with fixtures: ${asserted}`);
  const first = shippedFixtures.length + batch.length;
  const refused = new Set();
  const plain = new Map();
  for (const [offset, fixture] of assertedFixtures.entries()) {
    const index = first + offset;
    const [inN, inP] = [inNode.answers[index], inPage.answers[index]];
    assert.equal(inN.missing, undefined, label(index));
    assert.equal(
      inN.read.error?.name === "EngineUnavailable",
      false,
      `${label(index)} in Node: ${JSON.stringify(inN)}`,
    );
    if (isEngineUnavailable(inP.read)) {
      refused.add(fixture.type);
    } else {
      // Refused before the engine is asked (strict JSON, or the type itself): as Node refuses it.
      assert.ok(inP.read.error !== undefined, `${label(index)} read in the page without the engine`);
      assert.deepEqual(inP.read, inN.read, label(index));
    }
    if (inN.read.error === undefined) {
      assert.ok(isEngineUnavailable(inP.read), `${label(index)}: Node reads it, the page must refuse`);
      // A record the page can hold without reading it: the written JSON, parsed, when it writes back the same.
      const record = node.plainRecord("constructs", fixture.type, inN.json.ok);
      if (!plain.has(fixture.type) && record.writesBack) {
        assert.deepEqual(record.validate, { ok: true }, `${label(index)} validate in Node`);
        plain.set(fixture.type, inN.json.ok);
      }
    }
  }
  assert.deepEqual([...refused].sort(), asserted);
  assert.ok(plain.size >= 5, `only ${[...plain.keys()]} have a record as plain JSON`);
  for (const [type, text] of plain) {
    const outcome = await page.evaluate(
      ([name, json]) => globalThis.concordPage.plainRecord("constructs", name, json).validate,
      [type, text],
    );
    assert.ok(isEngineUnavailable(outcome), `${type}.validate in the page: ${JSON.stringify(outcome)}`);
  }
  t.diagnostic(
    `${assertedFixtures.length} inputs of ${asserted.length} ASSERTED roots (${asserted.join(", ")}); validate of ${[...plain.keys()].join(", ")}`,
  );
});
