/**
 * Standard Schema v1 (`~standard`) on generated record types: a parsed
 * JavaScript value is written by concord's rules and read as `fromJson`
 * reads bytes, so the verdict, the unknown-key policy and the versions are
 * the same; what JavaScript values can hold and JSON cannot is an issue at
 * its place; an `ASSERTED` type with no engine throws. docs/typescript.md,
 * "Standard Schema", says what the value path cannot check.
 */

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  EngineUnavailable,
  engine,
  JsonError,
  JsonFloat,
  type JsonValue,
  type RecordType,
  read,
  type StandardSchemaV1,
  unknownKeys,
} from "../src/index.js";

const root = fileURLToPath(new URL("../../../../", import.meta.url));
const shipped = join(root, "generated/typescript/concord-registry");
const constructs = join(root, "fixtures/constructs/expected/typescript/concord-registry");

/** A generated package's exports: record types by name. */
async function bindings<K extends string = string>(folder: string): Promise<Record<K, RecordType<unknown>>> {
  return (await import(pathToFileURL(join(folder, "index.js")).href)) as Record<K, RecordType<unknown>>;
}

/** Every record type of a package: its roots, and each entry's types (its namespace export). */
function recordTypes(registry: Record<string, unknown>): [string, RecordType<unknown>][] {
  const types = new Map<string, RecordType<unknown>>();
  const isType = (value: unknown): value is RecordType<unknown> =>
    typeof value === "object" && value !== null && "fromJson" in value;
  for (const [name, value] of Object.entries(registry)) {
    if (isType(value)) types.set(name, value);
    else if (typeof value === "object" && value !== null) {
      for (const [member, type] of Object.entries(value)) if (isType(type)) types.set(`${name}.${member}`, type);
    }
  }
  return [...types];
}

/** `validate`'s answer, which must not be a promise. */
function validate<T>(type: RecordType<T>, value: unknown): StandardSchemaV1.Result<T> {
  const result = type["~standard"].validate(value);
  assert.ok(!(result instanceof Promise), "validate answers synchronously");
  return result;
}

/** The record's bytes, or the one issue as `<path> <message>`. */
function outcome<T>(type: RecordType<T>, value: unknown): string {
  const result = validate(type, value);
  if (result.issues === undefined) return `ok ${type.toJson(result.value)}`;
  assert.equal(result.issues.length, 1, "one issue: the first refusal");
  const [issue] = result.issues as [StandardSchemaV1.Issue];
  return `${JSON.stringify(issue.path)} ${issue.message}`;
}

const ROW = { id: "e1", session_id: "s1", kind: "exit_code", payload: null };

test("every record type is a Standard Schema v1 of vendor concord", async () => {
  for (const folder of [shipped, constructs]) {
    const types = recordTypes(await bindings(folder));
    assert.ok(types.length > 10, `${types.length} record types`);
    for (const [name, type] of types) {
      const standard = type["~standard"];
      assert.equal(standard.version, 1, name);
      assert.equal(standard.vendor, "concord", name);
      assert.equal(typeof standard.validate, "function", name);
      assert.ok(Object.isFrozen(standard), name);
    }
  }
});

test("an accepted value gives the record fromJson reads from the same JSON", async () => {
  const { Evidence, ClsArtifact } = await bindings<"Evidence" | "ClsArtifact">(shipped);
  const text = JSON.stringify({
    ...ROW,
    payload: { command: ["cargo", "test"], exit_code: 0, nested: [{ a: 1.5 }, null, true] },
    source: null,
    canonical: { kind: "exit_code", command: "cargo test", exit_code: 0, heuristic: false },
    extension: { schema_version: 2, provider: "p", adapter_version: "1", content_class: "c", fields: {}, kept: [1] },
    dropped: "Evidence is no growth point",
  });
  const result = validate(Evidence, JSON.parse(text));
  assert.equal(result.issues, undefined);
  const record = result.value as { payload: unknown; extension: { [unknownKeys]?: Map<string, JsonValue> } };
  assert.equal(Evidence.toJson(record), Evidence.toJson(Evidence.fromJson(text)));
  assert.ok(record.payload instanceof Map, "a free-form object is a Map, as fromJson makes it");
  assert.deepEqual(record.extension[unknownKeys], new Map([["kept", [1]]]), "a growth point keeps unknown keys");
  assert.ok(!("dropped" in record), "a default-policy object drops them");
  for (const file of ["full.json", "growth_unknown_session_nested.json", "growth_unknown_top_level_nested.json"]) {
    const bytes = readFileSync(join(root, "fixtures/roundtrip/ClsArtifact", file));
    assert.equal(
      outcome(ClsArtifact, JSON.parse(bytes.toString())),
      `ok ${ClsArtifact.toJson(ClsArtifact.fromJson(bytes))}`,
      file,
    );
  }
});

test("a refused value gives one issue: the refusal's words at its pointer, as a path of keys and indexes", async () => {
  const { Evidence, ClsArtifact } = await bindings<"Evidence" | "ClsArtifact">(shipped);
  const artifact = JSON.parse(readFileSync(join(root, "fixtures/roundtrip/ClsArtifact/full.json"), "utf8"));
  artifact.kernels[0].launch.grid[1] = "x";
  assert.equal(
    outcome(ClsArtifact, artifact),
    '["kernels",0,"launch","grid",1] invalid type: string, expected an integer',
  );
  artifact.kernels[0].launch.grid[1] = 1;
  artifact.kernels[0].counters = { "a/b~": "many" };
  assert.equal(
    outcome(ClsArtifact, artifact),
    '["kernels",0,"counters","a/b~"] invalid type: string, expected an integer',
    "a key holding / and ~ comes back whole",
  );
  const cases: [unknown, string][] = [
    [
      { ...ROW, canonical: { kind: "tool_result", summary: "ok", zeta: 1 } },
      '["canonical","zeta"] unknown field `zeta`, expected one of `kind`, `summary`',
    ],
    [
      { ...ROW, canonical: { kind: "exit_code", exit_code: 1, heuristic: false } },
      '["canonical","command"] missing field `command`',
    ],
    [{ ...ROW, kind: ["exit_code"] }, '["kind"] invalid type: sequence, expected a string'],
    [
      { ...ROW, extension: { schema_version: 3, provider: 1 } },
      '["extension","schema_version"] unsupported version 3 of ExtensionEnvelope: supported 1, 2',
    ],
    [[ROW], "[] invalid type: sequence, expected struct Evidence"],
    ["text", "[] invalid type: string, expected struct Evidence"],
  ];
  for (const [value, expected] of cases) {
    assert.equal(outcome(Evidence, value), expected);
    assert.throws(() => Evidence.fromJson(JSON.stringify(value)), { pointer: pointerOf(expected) });
  }
});

/** The pointer of an `outcome`'s path. */
function pointerOf(outcome: string): string {
  const path = JSON.parse(outcome.slice(0, outcome.indexOf("] ") + 1)) as (string | number)[];
  return path.map((token) => `/${String(token).replaceAll("~", "~0").replaceAll("/", "~1")}`).join("");
}

test("what JSON cannot hold is an issue where it stands, in the writer's words", async () => {
  const { Evidence } = await bindings<"Evidence">(shipped);
  const cycle: Record<string, unknown> = { a: [] };
  (cycle.a as unknown[]).push(cycle);
  // 63 arrays: with the record around them, 64 levels.
  let deep: unknown = [];
  for (let level = 1; level < 63; level++) deep = [deep];
  const cases: [unknown, string][] = [
    [Number.NaN, "NaN is not a JSON number"],
    [Number.POSITIVE_INFINITY, "inf is not a JSON number"],
    [Number.NEGATIVE_INFINITY, "-inf is not a JSON number"],
    [-0, "negative zero is refused"],
    [-(2n ** 60n), "integer -1152921504606846976 is outside ±(2^53-1), which the strict profile refuses"],
    [() => 1, "cannot write function as JSON"],
    [Symbol("s"), "cannot write symbol as JSON"],
    [new Date(0), "cannot write a Date as JSON: only plain objects, arrays and Maps"],
    [new Set([1]), "cannot write a Set as JSON: only plain objects, arrays and Maps"],
    [new Uint8Array(2), "cannot write a Uint8Array as JSON: only plain objects, arrays and Maps"],
    [new (class {})(), "cannot write an object of a class as JSON: only plain objects, arrays and Maps"],
    [new JsonFloat(-0), "negative zero is refused"],
    ["\ud800", "a string holds the lone surrogate U+D800"],
  ];
  for (const [item, message] of cases) {
    assert.equal(outcome(Evidence, { ...ROW, payload: { list: [0, item] } }), `["payload","list",1] ${message}`);
  }
  // Where the refusal is the container's.
  const containers: [unknown, string][] = [
    [[1, undefined], '["payload",1] cannot write undefined as JSON'],
    [Object.assign(new Array<unknown>(3), { 0: 1, 2: 3 }), '["payload",1] cannot write undefined as JSON'],
    [{ "\udc00": 1 }, '["payload"] a string holds the lone surrogate U+DC00'],
    [new Map([[1, "x"]]), '["payload"] an object key must be a string'],
    [cycle, '["payload","a",0] a cycle: the value holds itself'],
    [[deep], `${JSON.stringify(["payload", ...new Array<number>(63).fill(0)])} nesting deeper than 64 levels`],
  ];
  for (const [payload, expected] of containers) assert.equal(outcome(Evidence, { ...ROW, payload }), expected);
  assert.equal(outcome(Evidence, { ...ROW, payload: deep }).slice(0, 2), "ok", "64 levels are JSON");
  assert.equal(outcome(Evidence, undefined), "[] cannot write undefined as JSON");
});

test("what JSON.stringify would leave out or turn is read as the JSON it stands for", async () => {
  const { Evidence, ClsArtifact } = await bindings<"Evidence" | "ClsArtifact">(shipped);
  // A member whose value is undefined is absent, in an object as in a Map.
  assert.equal(
    outcome(Evidence, { ...ROW, source: undefined, payload: new Map<string, unknown>([["a", undefined]]) }),
    'ok {"id":"e1","session_id":"s1","kind":"exit_code","payload":{}}',
  );
  // A bigint within ±(2^53-1) is an integer; a safe integer is one, any other number a float.
  assert.equal(
    outcome(Evidence, { ...ROW, payload: [5n, 5, 5.5, 1e20, 2 ** 53, new JsonFloat(5)] }),
    'ok {"id":"e1","session_id":"s1","kind":"exit_code","payload":[5,5,5.5,1e+20,9007199254740992.0,5.0]}',
  );
  // A prototype-less object is plain; `__proto__` as JSON.parse makes it is a key like any other.
  const bare = Object.assign(Object.create(null) as object, { a: 1 });
  assert.equal(
    outcome(Evidence, { ...ROW, payload: [bare, JSON.parse('{"__proto__":{"x":1}}')] }),
    'ok {"id":"e1","session_id":"s1","kind":"exit_code","payload":[{"a":1},{"__proto__":{"x":1}}]}',
  );
  // An integral number beyond ±(2^53-1) is a float: a `number` takes it, an `integer` does not.
  const artifact = JSON.parse(readFileSync(join(root, "fixtures/roundtrip/ClsArtifact/full.json"), "utf8"));
  artifact.kernels[0].duration_ms = 1e20;
  assert.equal(outcome(ClsArtifact, artifact).slice(0, 2), "ok");
  artifact.kernels[0].launch.shared_mem_bytes = 1e20;
  assert.equal(
    outcome(ClsArtifact, artifact),
    '["kernels",0,"launch","shared_mem_bytes"] invalid type: floating point `100000000000000000000`, expected an integer',
  );
});

test("a record fromJson made validates to the same record, its kept keys with it", async () => {
  const { ClsArtifact } = await bindings<"ClsArtifact">(shipped);
  const folder = join(root, "fixtures/roundtrip/ClsArtifact");
  let kept = 0;
  for (const file of readdirSync(folder).filter((name) => name.startsWith("growth_") && name.endsWith(".json"))) {
    let record: unknown;
    try {
      record = ClsArtifact.fromJson(readFileSync(join(folder, file)));
    } catch {
      continue;
    }
    if (((record as { [unknownKeys]?: Map<string, unknown> })[unknownKeys]?.size ?? 0) > 0) kept++;
    assert.equal(outcome(ClsArtifact, record), `ok ${ClsArtifact.toJson(record)}`, file);
  }
  assert.ok(kept >= 3, `${kept} records with kept keys`);
  const record = ClsArtifact.fromJson(readFileSync(join(folder, "full.json"))) as Record<string | symbol, unknown>;
  record[unknownKeys] = new Map([["kernels", []]]);
  assert.equal(outcome(ClsArtifact, record), '["kernels"] a kept key that is also a property would be written twice');
});

/**
 * Why a value read by `JSON.parse` may be judged otherwise than its bytes:
 * the bytes break the strict profile (duplicate keys, unsafe integers,
 * overflow, lone surrogates, invalid UTF-8, which `JSON.parse` takes or
 * changes), hold an integral float literal (`1.0`, `1e2`: one number with
 * `1`), or a key JavaScript objects move (integer-like keys go first).
 */
function lost(bytes: Uint8Array): string | undefined {
  let value: JsonValue;
  try {
    value = read(bytes);
  } catch (error) {
    assert.ok(error instanceof JsonError);
    return `the strict profile: ${error.kind}`;
  }
  const walk = (item: JsonValue): string | undefined => {
    if (item instanceof JsonFloat) return "an integral float literal";
    if (Array.isArray(item)) return item.map(walk).find((why) => why !== undefined);
    if (item instanceof Map) {
      for (const [key, member] of item) {
        if (/^(0|[1-9][0-9]*)$/.test(key) && Number(key) < 2 ** 32 - 1) return "an integer-like key";
        const why = walk(member);
        if (why !== undefined) return why;
      }
    }
    return undefined;
  };
  return walk(value);
}

test("on every round-trip fixture, the value JSON.parse makes is judged as its bytes, but for what it lost", async () => {
  const reasons = new Set<string>();
  let agreed = 0;
  for (const [fixtures, folder] of [
    ["fixtures/roundtrip", shipped],
    ["fixtures/constructs/roundtrip", constructs],
  ] as const) {
    const registry: Record<string, RecordType<unknown>> = await bindings(folder);
    for (const name of readdirSync(join(root, fixtures)).sort()) {
      const type = registry[name] as RecordType<unknown>;
      for (const file of readdirSync(join(root, fixtures, name)).sort()) {
        if (!file.endsWith(".json") || file.endsWith(".out.json")) continue;
        const bytes = readFileSync(join(root, fixtures, name, file));
        let value: unknown;
        try {
          value = JSON.parse(bytes.toString("utf8"));
        } catch {
          continue;
        }
        let expected: string;
        try {
          expected = `ok ${type.toJson(type.fromJson(bytes))}`;
        } catch (error) {
          const { pointer, detail } = error as { pointer?: string; detail?: string };
          expected = `${pointer ?? ""} ${detail ?? String(error)}`;
        }
        let got: string;
        try {
          const answer = outcome(type, value);
          got = answer.startsWith("ok ") ? answer : `${pointerOf(answer)} ${answer.slice(answer.indexOf("] ") + 2)}`;
        } catch (error) {
          assert.ok(error instanceof EngineUnavailable, `${name}/${file}: ${String(error)}`);
          assert.ok(!engine.available, `${name}/${file}: the engine is here, yet ${String(error)}`);
          continue;
        }
        const why = lost(bytes);
        if (why !== undefined && got !== expected) {
          reasons.add(why.startsWith("the strict profile") ? "the strict profile" : why);
          continue;
        }
        assert.equal(got, expected, `${name}/${file}`);
        agreed++;
      }
    }
  }
  assert.ok(agreed > 300, `${agreed} fixtures agree`);
  assert.deepEqual(
    [...reasons].sort(),
    ["an integer-like key", "an integral float literal", "the strict profile"],
    "each reason the documentation names is met",
  );
});

test("an ASSERTED type is checked by the engine, or throws EngineUnavailable where there is none", async () => {
  const { Engine } = await bindings<"Engine">(constructs);
  for (const file of ["ok.json", "env_lower.json", "dependent.json", "pair_wrong.json"]) {
    const bytes = readFileSync(join(root, "fixtures/constructs/roundtrip/Engine", file));
    const value = JSON.parse(bytes.toString());
    if (!engine.available) {
      assert.throws(() => Engine["~standard"].validate(value), EngineUnavailable, file);
      continue;
    }
    let expected: string;
    try {
      expected = `ok ${Engine.toJson(Engine.fromJson(bytes))}`;
    } catch (error) {
      const { pointer, detail } = error as { pointer: string; detail: string };
      expected = `${pointer} ${detail}`;
    }
    const answer = outcome(Engine, value);
    assert.equal(
      answer.startsWith("ok ") ? answer : `${pointerOf(answer)} ${answer.slice(answer.indexOf("] ") + 2)}`,
      expected,
      file,
    );
  }
});

test("a getter that validates another value while one is written does not disturb it", async () => {
  const { Evidence } = await bindings<"Evidence">(shipped);
  const inner: Record<string, unknown> = { a: 1 };
  inner.self = inner;
  const payload = {
    get first(): string {
      return outcome(Evidence, { ...ROW, payload: inner });
    },
    second: [1, 2],
  };
  assert.equal(
    outcome(Evidence, { ...ROW, payload }),
    `ok {"id":"e1","session_id":"s1","kind":"exit_code","payload":{"first":${JSON.stringify('["payload","self"] a cycle: the value holds itself')},"second":[1,2]}}`,
  );
});

test("the generated package imports by name from Node's ESM, beside the runtime, as npm installs them", () => {
  assert.ok(existsSync(join(root, "runtime/typescript/dist/src/index.js")));
  const folder = mkdtempSync(join(tmpdir(), "concord-esm-"));
  try {
    mkdirSync(join(folder, "node_modules"));
    cpSync(shipped, join(folder, "node_modules/concord-registry"), { recursive: true });
    symlinkSync(join(root, "runtime/typescript"), join(folder, "node_modules/concord-runtime"), "dir");
    const script = [
      'import { Evidence } from "concord-registry";',
      'import { ExtensionEnvelope } from "concord-registry/evidence";',
      'import { ConcordError, SchemaError } from "concord-runtime";',
      'const ok = Evidence["~standard"].validate({ id: "e", session_id: "s", kind: "k", payload: 1 });',
      'let error; try { ExtensionEnvelope.fromJson("{}"); } catch (e) { error = e; }',
      "console.log(JSON.stringify([ok.value.id, error instanceof SchemaError && error instanceof ConcordError, error.kind]));",
    ].join("\n");
    const output = execFileSync(process.execPath, ["--input-type=module", "--eval", script], {
      cwd: folder,
      encoding: "utf8",
    });
    assert.equal(output.trim(), '["e",true,"schema"]');
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
