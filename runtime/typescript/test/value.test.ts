import assert from "node:assert/strict";
import { test } from "node:test";
import { firstDuplicate, JsonFloat, type JsonValue, jsonEqual, read, toPlain } from "../src/index.js";
import { readVector } from "./support.js";

const v = (text: string): JsonValue => read(text);

test("equality is JSON Schema equality", () => {
  const equal: [JsonValue, JsonValue][] = [
    [v("1"), v("1.0")],
    [v("-2"), v("-2.0")],
    [0, -0],
    [v("0"), new JsonFloat(-0)],
    [v("1.5"), v("1.5")],
    [v('{"a": 1, "b": [true, null]}'), v('{"b": [true, null], "a": 1.0}')],
    [v("[]"), v("[]")],
    [v("{}"), v("{}")],
    [v('"a\\u0000b"'), "a\u0000b"],
    [v("1e20"), 1e20],
  ];
  for (const [a, b] of equal) {
    assert.ok(jsonEqual(a, b) && jsonEqual(b, a), `${String(a)} = ${String(b)}`);
  }
  const different: [JsonValue, JsonValue][] = [
    [true, 1],
    [false, 0],
    [null, 0],
    ["", null],
    [v("[false]"), v("[0]")],
    [v('{"a": true}'), v('{"a": 1}')],
    [v("[1, 2]"), v("[2, 1]")],
    [v('{"a": 1}'), v('{"a": 1, "b": 2}')],
    [v('{"a": null}'), v('{"b": null}')],
    [1.5, 1],
    ["1", 1],
    ["é", "e\u0301"],
    [v("[]"), v("{}")],
  ];
  for (const [a, b] of different) {
    assert.ok(!jsonEqual(a, b) && !jsonEqual(b, a), `${String(a)} != ${String(b)}`);
  }
});

test("the first duplicate is found, small or large", () => {
  assert.deepEqual(firstDuplicate([1, true, new JsonFloat(1)]), [0, 2]);
  assert.deepEqual(firstDuplicate([1, 2, 2, 1]), [1, 2]);
  assert.deepEqual(firstDuplicate([v('{"a": 1, "b": 2}'), v('{"b": 2.0, "a": 1}')]), [0, 1]);
  assert.equal(firstDuplicate([0, false, null, "", [], new Map()]), undefined);
  assert.equal(firstDuplicate([]), undefined);
  const large: JsonValue[] = Array.from({ length: 10_000 }, (_, i) => v(`{"id": ${i}, "tags": [${i % 7}, "x"]}`));
  assert.equal(firstDuplicate(large), undefined);
  large.push(v('{"tags": [2.0, "x"], "id": 1234.0}'));
  large.push(17);
  assert.deepEqual(firstDuplicate(large), [1234, 10_000]);
  const floats: JsonValue[] = [...Array.from({ length: 100 }, (_, i) => i + 0.5), 50.5];
  assert.deepEqual(firstDuplicate(floats), [50, 100]);
  const mixed: JsonValue[] = Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? i : i % 4 === 1));
  assert.deepEqual(firstDuplicate(mixed), [1, 5]);
  // Strings that only a careless key would confuse.
  const strings: JsonValue[] = [...Array.from({ length: 20 }, (_, i) => `s${i}`), '"s1"', "#1", 1, "s3"];
  assert.deepEqual(firstDuplicate(strings), [3, 23]);
  const keyed: JsonValue[] = [...Array.from({ length: 20 }, (_, i) => i), v('{"a,b":1}'), v('{"a":1,"b":1}')];
  assert.equal(firstDuplicate(keyed), undefined);
});

test("JSON-Schema-Test-Suite: const, enum and uniqueItems as the suite says", () => {
  let checked = 0;
  for (const file of ["const.json", "enum.json", "uniqueItems.json"]) {
    const groups = JSON.parse(readVector(`json-schema-test-suite/tests/draft2020-12/${file}`).toString("utf8")) as {
      description: string;
      schema: Record<string, unknown>;
      tests: { data: unknown; valid: boolean }[];
    }[];
    for (const group of groups) {
      if (
        Object.keys(group.schema).some((key) => !["$schema", "$comment", "const", "enum", "uniqueItems"].includes(key))
      ) {
        continue;
      }
      // Read through the strict profile: a group with an integer past 2^53 cannot be held and is left out.
      let schema: Map<string, JsonValue>;
      let tests: { data: JsonValue; valid: boolean }[];
      try {
        schema = read(JSON.stringify(group.schema)) as Map<string, JsonValue>;
        tests = group.tests.map((t) => ({ data: read(JSON.stringify(t.data)), valid: t.valid }));
      } catch {
        continue;
      }
      for (const { data, valid } of tests) {
        let verdict: boolean;
        if (schema.has("const")) {
          verdict = jsonEqual(data, schema.get("const") as JsonValue);
        } else if (Array.isArray(schema.get("enum"))) {
          verdict = (schema.get("enum") as JsonValue[]).some((value) => jsonEqual(data, value));
        } else {
          verdict = schema.get("uniqueItems") === false || !Array.isArray(data) || firstDuplicate(data) === undefined;
        }
        assert.equal(verdict, valid, `${file}: ${group.description}: ${JSON.stringify(toPlain(data))}`);
        checked++;
      }
    }
  }
  assert.ok(checked > 100, `${checked}`);
});

test("toPlain gives plain values, and loses only what it says", () => {
  const value = read('{"b":1,"10":2.0,"2":[5.5,{"__proto__":{"x":1},"constructor":null}]}');
  const plain = toPlain(value) as Record<string, unknown>;
  // Integer-like keys move first; integral floats become plain numbers.
  assert.deepEqual(Object.keys(plain), ["2", "10", "b"]);
  assert.equal(plain["10"], 2);
  const inner = (plain["2"] as unknown[])[1] as Record<string, unknown>;
  // __proto__ is an own key, not the prototype.
  assert.deepEqual(Object.keys(inner), ["__proto__", "constructor"]);
  assert.equal(Object.getPrototypeOf(inner), Object.prototype);
  assert.deepEqual(Object.getOwnPropertyDescriptor(inner, "__proto__")?.value, { x: 1 });
  assert.equal((inner as { x?: unknown }).x, undefined);
  assert.equal(JSON.stringify(plain), '{"2":[5.5,{"__proto__":{"x":1},"constructor":null}],"10":2,"b":1}');
  assert.equal(toPlain(null), null);
  assert.equal(toPlain("s"), "s");
});
