// The concord-engine addon (runtime/node-engine) gives what the Rust runtime
// gives: the same verdicts, the same notes word for word, the same strict-
// profile refusals. Run after scripts/build-node-engine:
//
//     node --test runtime/node-engine/test/
//
// The Rust side is the crate's example `rust-notes` (cargo run --release),
// which answers each case as a generated type's `validate_json` does.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const engine = require("../index.js");
const { Validator } = engine;

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const SUITE = join(ROOT, "fixtures/vectors/json-schema-test-suite/tests/draft2020-12");
const DIFFERENCES = join(ROOT, "fixtures/vectors/engine-differences.tsv");
const VALIDATION = join(ROOT, "fixtures/validation");
const BASE = "https://registry.concord.invalid/";
const MAX_NOTES = 3;

/**
 * Runs the example `rust-notes` on `request`: the Rust runtime's answers.
 * In the profile scripts/build-node-engine built the addon in, whose
 * dependencies are compiled already.
 */
function rust(request) {
  const profile = process.env.CONCORD_DIST_PROFILE ?? "release";
  const run = spawnSync(
    "cargo",
    ["run", "--profile", profile, "--quiet", "-p", "concord-node-engine", "--example", "rust-notes"],
    { cwd: ROOT, input: JSON.stringify(request), encoding: "utf8", maxBuffer: 256 * 1024 * 1024 },
  );
  assert.equal(run.status, 0, `cargo run --example rust-notes failed:\n${run.stderr}`);
  return JSON.parse(run.stdout);
}

/** The addon's answer, in the shape `rust-notes` writes. */
function addon(validator, bytes, maxBytes, limit = MAX_NOTES) {
  try {
    return validator.notesJson(bytes, maxBytes, limit);
  } catch (error) {
    assert.ok(error instanceof Error, "the addon throws Errors");
    assert.equal(typeof error.kind, "string", `a refusal of the bytes has a kind: ${error.message}`);
    return { jsonError: { message: error.message, kind: error.kind, offset: error.offset } };
  }
}

/** What `concord validate` prints for an answer (fixtures/validation/notes). */
function printed(answer) {
  if (answer.jsonError) return `error: ${answer.jsonError.message}\n`;
  if (answer.notes.length === 0) return "ok\n";
  return `${[...answer.notes.map((note) => note[4]), ...(answer.more ? ["..."] : [])].join("\n")}\n`;
}

const bytes = (text) => Buffer.from(text, "utf8");

// The shared validation set's schema, exactly as pinned.
const registry = JSON.parse(readFileSync(join(VALIDATION, "registry/registry.json"), "utf8"));
const pinned = registry.schemas[0];
const pinnedText = readFileSync(join(VALIDATION, "registry", pinned.path), "utf8");
const checked = () => new Validator([[BASE + pinned.path, pinnedText, null]], "");

test("the version is the crate's and the package's", () => {
  const cargo = readFileSync(join(ROOT, "Cargo.toml"), "utf8").match(
    /\[workspace\.package\][^[]*?\nversion = "([^"]+)"/,
  );
  assert.ok(cargo, "the workspace's version in Cargo.toml");
  assert.equal(engine.version(), cargo[1]);
  assert.equal(engine.version(), require("../package.json").version);
});

test("a pinned schema: verdicts and notes as concord validate prints them", () => {
  assert.equal(`sha256:${createHash("sha256").update(pinnedText).digest("hex")}`, pinned.digest, "the pin holds");
  const validator = checked();
  const folder = join(VALIDATION, "instances", pinned.name);
  const names = readdirSync(folder).filter((name) => name.endsWith(".json"));
  let refused = 0;
  for (const name of names) {
    const input = readFileSync(join(folder, name));
    const expected = readFileSync(join(VALIDATION, "notes", pinned.name, name.replace(/\.json$/, ".txt")), "utf8");
    const said = printed(addon(validator, input, 64 * 1024 * 1024));
    if (expected.startsWith("error: ")) {
      // The command goes on with the place in the file; the addon's part is the first line.
      assert.equal(said, `${expected.split("\n")[0]}\n`, name);
    } else {
      assert.equal(said, expected, name);
    }
    refused += said === "ok\n" ? 0 : 1;
  }
  assert.ok(names.length >= 35 && refused >= 25, `${names.length} cases, ${refused} refused`);
});

test("notes: a limit, more, and a valid record", () => {
  const validator = checked();
  const record = { id: "run_0190b7a2-5c1e-7d3f-8a2b-0123456789ab", count: 5 };
  assert.deepEqual(validator.notesJson(bytes(JSON.stringify(record)), 1000, 3), { notes: [], more: false });
  const bad = bytes(JSON.stringify({ ...record, count: 0, code: "abc", name: "x", kind: "z" }));
  const three = validator.notesJson(bad, 1000, 3);
  assert.deepEqual(three.notes[0], [
    "/count",
    "minimum",
    "/properties/count/minimum",
    "is less than the minimum of 1",
    "/count: is less than the minimum of 1",
  ]);
  assert.equal(three.notes.length, 3);
  assert.equal(three.more, true);
  const one = validator.notesJson(bad, 1000, 1);
  assert.deepEqual(one, { notes: [three.notes[0]], more: true });
  // A Uint8Array that is not a Buffer, and a view into a larger buffer.
  const whole = bytes(`xx${JSON.stringify(record)}yy`);
  assert.deepEqual(validator.notesJson(new Uint8Array(whole.buffer, whole.byteOffset + 2, whole.length - 4), 1000, 3), {
    notes: [],
    more: false,
  });
});

test("bad arguments throw, they do not crash", () => {
  const validator = checked();
  assert.throws(() => validator.notesJson(bytes("{}"), -1, 3), /maxBytes must be a whole number/);
  assert.throws(() => validator.notesJson(bytes("{}"), 1.5, 3), /maxBytes must be a whole number/);
  assert.throws(() => validator.notesJson(bytes("{}"), 100, Number.NaN), /limit must be a whole number/);
  assert.throws(() => validator.notesJson("{}", 100, 3));
  assert.throws(() => new Validator([["https://registry.concord.invalid/a.json"]], ""));
  assert.throws(() => new Validator("not documents", ""));
});

// Cases the Rust runtime answers too: every answer must be the same.
const UTF8 = [0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]; // {"a":"\xff"}
const DRAFT7 = "http://json-schema.org/draft-07/schema#";
const CASES = [
  {
    name: "strict-profile refusals",
    documents: [[`${BASE}any.json`, "{}", null]],
    pointer: "",
    inputs: [
      UTF8,
      [0xc0, 0xaf],
      bytes('{"a": 1, "b": 2, "a": 3}'),
      bytes('["\\ud800"]'),
      bytes(`${"[".repeat(100000)}${"]".repeat(100000)}`),
      bytes(`${'{"a":'.repeat(65)}1${"}".repeat(65)}`),
      bytes("[9007199254740992]"),
      bytes("-0"),
      bytes("NaN"),
      bytes("1e400"),
      bytes("{} x"),
      bytes(""),
      bytes("\ufeff{}"),
      bytes('{"key": "a very long string value that no note repeats"'),
    ],
  },
  {
    name: "too large",
    documents: [[`${BASE}any.json`, "{}", null]],
    pointer: "",
    maxBytes: 8,
    inputs: [bytes("[1, 2, 3, 4]"), bytes("[1,2,3]")],
  },
  {
    name: "pointers with control characters and non-ASCII keys",
    documents: [
      [
        `${BASE}closed.json`,
        JSON.stringify({ type: "object", additionalProperties: false, properties: { é: { maxLength: 2 } } }),
        null,
      ],
    ],
    pointer: "",
    inputs: [bytes('{"é": "ßßß", "a\\nb": 1, "\\u0000": 2, "💩/~": 3}'), bytes('{"é": "💩💩"}')],
  },
  {
    name: "a subschema that references a second document",
    documents: [
      [
        `${BASE}main.json`,
        JSON.stringify({
          $defs: {
            Item: { type: "object", required: ["part"], properties: { part: { $ref: "part.json#/$defs/Part" } } },
          },
        }),
        null,
      ],
      [
        `${BASE}part.json`,
        JSON.stringify({ $defs: { Part: { type: "integer", multipleOf: 3, not: { const: 9 } } } }),
        null,
      ],
    ],
    pointer: "/$defs/Item",
    inputs: [bytes('{"part": 6}'), bytes('{"part": 9}'), bytes('{"part": 4.0}'), bytes('{"part": 5}'), bytes("[]")],
  },
  {
    name: "the declared dialect",
    documents: [[`${BASE}old.json`, JSON.stringify({ items: [{ type: "string" }], additionalItems: false }), DRAFT7]],
    pointer: "",
    inputs: [bytes('["a"]'), bytes("[1]"), bytes('["a", "b"]')],
  },
  {
    name: "a schema the engine cannot build",
    documents: [[`${BASE}bad.json`, '{"type": 5}', null]],
    pointer: "",
    inputs: [],
  },
  {
    name: "a remote reference",
    documents: [[`${BASE}remote.json`, '{"$ref": "https://example.com/x.json"}', null]],
    pointer: "",
    inputs: [],
  },
  { name: "a pointer to nothing", documents: [[`${BASE}any.json`, "{}", null]], pointer: "/$defs/Missing", inputs: [] },
  { name: "text that is not JSON", documents: [[`${BASE}any.json`, "{", null]], pointer: "", inputs: [] },
];

/** The addon's answer to a case, in the shape of `rust-notes`'s. */
function answerCase(request, defaultMaxBytes) {
  let validator;
  try {
    validator = new Validator(request.documents, request.pointer);
  } catch (error) {
    return { built: false, error: error.message };
  }
  const maxBytes = request.maxBytes ?? defaultMaxBytes;
  return { built: true, answers: request.inputs.map((input) => addon(validator, Uint8Array.from(input), maxBytes)) };
}

/**
 * Suite tests whose data the strict profile refuses before the engine sees it,
 * by design (docs/strict-json.md; engine-differences.tsv's `integer-beyond-64-bits`
 * says the same of optional/bignum.json): the Python comparison gives the engine
 * values, so the record holds no row for them. Held exactly: a new one fails.
 */
const PROFILE_REFUSALS = new Map([
  ["const.json\tfloat and integers are equal up to 64-bit representation limits\tinteger is valid", "unsafe-integer"],
]);

/** file, group, test → concord's verdict, where engine-differences.tsv records one. */
function knownDifferences() {
  const known = new Map();
  const lines = readFileSync(DIFFERENCES, "utf8").split("\n");
  const body = lines.filter((line) => line && !line.startsWith("#"));
  assert.deepEqual(body[0].split("\t"), ["file", "group", "test", "concord", "reference", "suite", "class"]);
  for (const line of body.slice(1)) {
    const [file, group, description, concord] = line.split("\t");
    known.set(`${file}\t${group}\t${description}`, concord);
  }
  return known;
}

test("the same answers as the Rust runtime: cases, and every test of the official suite (draft2020-12)", (t) => {
  const request = {
    suite: SUITE,
    cases: CASES.map(({ name, ...rest }) => ({ ...rest, inputs: rest.inputs.map((input) => [...input]) })),
  };
  const answer = rust(request);
  assert.equal(answer.version, engine.version(), "the example and the addon are built from one version");

  // The cases: every answer the same, word for word.
  CASES.forEach((request, index) => {
    const ours = answerCase({ ...request, inputs: request.inputs.map((input) => [...input]) }, answer.defaultMaxBytes);
    assert.deepEqual(ours, answer.cases[index], `${request.name}: the addon, then Rust`);
  });
  const strict = answer.cases[0].answers.map((one) => one.jsonError?.kind);
  assert.deepEqual(strict, [
    "invalid-utf8",
    "invalid-utf8",
    "duplicate-key",
    "lone-surrogate",
    "too-deep",
    "too-deep",
    "unsafe-integer",
    "negative-zero",
    "non-finite",
    "number-out-of-range",
    "syntax",
    "syntax",
    "byte-order-mark",
    "syntax",
  ]);
  assert.equal(answer.cases[0].answers[2].jsonError.message, 'duplicate-key at byte 17: duplicate key "a"');
  assert.equal(answer.cases[1].answers[0].jsonError.kind, "too-large");
  assert.deepEqual(answer.cases[1].answers[1], { notes: [], more: false });
  assert.deepEqual(
    answer.cases[3].answers.map((one) => one.notes?.length),
    [0, 1, 2, 1, 1],
  );
  assert.deepEqual(
    answer.cases[4].answers.map((one) => one.notes.length),
    [0, 1, 1],
    "draft-07's items array and additionalItems, as the dialect says",
  );
  assert.deepEqual(
    answer.cases.slice(5).map((one) => one.built),
    [false, false, false, false],
  );

  // The suite: the same answers as Rust on every test, and the suite's verdict
  // unless engine-differences.tsv records concord's as a known difference.
  const known = knownDifferences();
  const wrong = [];
  const seen = new Set();
  const profile = new Map();
  let [groups, built, tests] = [0, 0, 0];
  for (const group of answer.suite) {
    groups += 1;
    const ours = answerCase(
      {
        documents: [[group.uri, group.schema, null]],
        pointer: "",
        inputs: group.tests.map((one) => [...bytes(one.data)]),
      },
      answer.defaultMaxBytes,
    );
    const where = `${group.file}: ${group.group}`;
    if (!group.built) {
      assert.deepEqual(
        ours,
        { built: false, error: group.error },
        `${where}: the addon refuses the schema as Rust does`,
      );
      // Only a remote `$ref` (nothing is fetched), as in tests/python/test_engine_reference.py.
      assert.match(group.error, /is not present in a registry and retrieving it failed/, where);
      continue;
    }
    built += 1;
    assert.equal(ours.built, true, `${where}: ${ours.error}`);
    group.tests.forEach((one, index) => {
      tests += 1;
      const mine = ours.answers[index];
      assert.deepEqual(mine, group.answers[index], `${where}: ${one.description}: the addon, then Rust`);
      const key = `${group.file}\t${group.group}\t${one.description}`;
      if (known.has(key)) seen.add(key);
      if (mine.jsonError) {
        profile.set(key, mine.jsonError.kind);
        return;
      }
      const verdict = mine.notes.length === 0 ? "valid" : "invalid";
      const suite = one.valid ? "valid" : "invalid";
      if (verdict !== suite && known.get(key) !== verdict) wrong.push(`${key}: ${verdict}, the suite says ${suite}`);
    });
  }
  assert.deepEqual(profile, PROFILE_REFUSALS, "the suite's data that the strict profile refuses");
  assert.deepEqual(wrong, [], "verdicts that differ from the suite's and are not recorded in engine-differences.tsv");
  // The recorded differences of these files are still there (draft2020-12/*.json, not optional/).
  const recorded = [...known.keys()].filter((key) => !key.split("\t")[0].includes("/"));
  assert.deepEqual(
    recorded.filter((key) => !seen.has(key)),
    [],
    "recorded differences the comparison never met",
  );
  t.diagnostic(`${groups} groups, ${built} built, ${tests} tests compared; ${seen.size} recorded differences met`);
  assert.ok(groups > 350 && built > 330 && tests > 1200, `${groups} groups, ${built} built, ${tests} tests`);
});
