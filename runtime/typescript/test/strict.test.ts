import assert from "node:assert/strict";
import { test } from "node:test";
import { check, JsonFloat, type JsonObject, type JsonValue, read, writeValue } from "../src/index.js";
import { bytes, outcome, random, readVector, vectorFiles } from "./support.js";

test("values: objects are Maps, arrays, strings, literals, numbers", () => {
  const value = read('{"a":[1,-2,3.5e2,"\\u00e9\\ud83d\\ude00",{"b":null,"c":true}],"d":"x\\ny"}') as JsonObject;
  assert.ok(value instanceof Map);
  assert.deepEqual([...value.keys()], ["a", "d"]);
  assert.deepEqual(value.get("a"), [
    1,
    -2,
    new JsonFloat(350),
    "é😀",
    new Map<string, JsonValue>([
      ["b", null],
      ["c", true],
    ]),
  ]);
  assert.equal(value.get("d"), "x\ny");
  assert.equal(read(" 5 "), 5);
  assert.equal(read('"x"'), "x");
  assert.equal(read("null"), null);
  assert.equal(read("false"), false);
});

test("integer-like keys, __proto__ and constructor keep their order and survive a round trip", () => {
  const input = '{"b":1,"10":2,"2":3,"__proto__":{"polluted":true},"constructor":4,"1":5,"toString":6,"":7}';
  const value = read(input) as JsonObject;
  assert.deepEqual([...value.keys()], ["b", "10", "2", "__proto__", "constructor", "1", "toString", ""]);
  assert.ok(value.get("__proto__") instanceof Map);
  assert.equal(writeValue(value), input);
  assert.equal(read(bytes(input)) instanceof Map, true);
  assert.equal(writeValue(read(bytes(input))), input);
  // Nothing was polluted.
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  // A duplicate __proto__ is a duplicate like any key.
  assert.equal(
    outcome(() => read('{"__proto__":1,"__proto__":2}')),
    'duplicate-key at byte 15: duplicate key "__proto__"',
  );
});

test("5, 5.0, 5.5 and 1e20 read and are written back as they were", () => {
  const value = read("[5,5.0,5.5,1e20,1E20,100e-2,0.0,1e-400,-5.0,-5,9007199254740991,1e-7,123.456e1]") as JsonValue[];
  assert.equal(value[0], 5);
  assert.deepEqual(value[1], new JsonFloat(5));
  assert.equal(value[2], 5.5);
  assert.deepEqual(value[3], new JsonFloat(1e20));
  assert.deepEqual(value[7], new JsonFloat(0));
  assert.equal(writeValue(value), "[5,5.0,5.5,1e+20,1e+20,1.0,0.0,0.0,-5.0,-5,9007199254740991,1e-7,1234.56]");
});

test("duplicate keys are refused after unescaping, at the second key", () => {
  assert.equal(
    outcome(() => read('{"a":1,"\\u0061":2}')),
    'duplicate-key at byte 7: duplicate key "a"',
  );
  assert.equal(
    outcome(() => read('{"é":1,"\\u00e9":2}')),
    'duplicate-key at byte 8: duplicate key "é"',
  );
  assert.equal(
    outcome(() => read('{"😀":1,"\\ud83d\\ude00":2}')),
    'duplicate-key at byte 10: duplicate key "😀"',
  );
});

test("options: the size limit", () => {
  assert.equal(
    outcome(() => read("[1, 2]", { maxBytes: 5 })),
    "too-large at byte 5: the input of 6 bytes exceeds the limit of 5 bytes",
  );
  assert.deepEqual(read("[1]", { maxBytes: 3 }), [1]);
  assert.equal(
    outcome(() => check("[1, 2]", { maxBytes: 5 })),
    "too-large at byte 5: the input of 6 bytes exceeds the limit of 5 bytes",
  );
});

test("check decides as read does, on every suite file and on mutations of them", () => {
  const seeds = vectorFiles("json-test-suite/test_parsing").map((name) =>
    readVector(`json-test-suite/test_parsing/${name}`),
  );
  const next = random(0x2545f4914f6cdd1dn);
  const interesting = bytes('{}[]",:\\-+.eE0123456789 \t\nuntrfalsNI\u0000\u001f\u007fé');
  let accepted = 0;
  let inputs = 0;
  for (const seed of seeds) {
    for (let variant = 0; variant < 6; variant++) {
      const data = [...seed];
      for (let edits = variant === 0 ? 0 : 1 + next(3); edits > 0; edits--) {
        const at = next(data.length + 1);
        const byte = interesting[next(interesting.length)] as number;
        switch (next(4)) {
          case 0:
            if (at < data.length) data[at] = byte;
            break;
          case 1:
            data.splice(at, 0, byte);
            break;
          case 2:
            data.splice(at, 1);
            break;
          default:
            data.length = at;
        }
      }
      const input = new Uint8Array(data);
      const verdict = outcome(() => read(input));
      assert.equal(
        outcome(() => check(input)),
        verdict,
        Buffer.from(input).toString("hex"),
      );
      accepted += verdict === "ok" ? 1 : 0;
      inputs++;
    }
  }
  assert.ok(accepted > 100 && inputs - accepted > 1000, `${accepted} of ${inputs} accepted`);
});
