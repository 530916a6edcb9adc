/**
 * A declared property named like something every object inherits
 * (`constructor`, `toString`, `__proto__`) is the record's own or absent:
 * an absent one is not written from what `Object.prototype` holds.
 */

import assert from "node:assert/strict";
import { test } from "node:test";
import { type RecordType, registry } from "../src/index.js";

test("properties named like Object.prototype's are own or absent", () => {
  const bindings = registry("0.1.0", []);
  const fields = ["constructor", "toString", "hasOwnProperty", "__proto__"].map((json) => ({
    json,
    presence: "optional" as const,
    value: "string" as const,
  }));
  bindings.add("m", [], {
    plan: 1,
    types: {
      R: {
        object: { fields: [...fields, { json: "a", presence: "required", value: "integer" }], unknown_keys: "drop" },
        record: true,
      },
    },
  });
  const R: RecordType<Record<string, unknown>> = bindings.record("m", "R");
  assert.equal(R.toJson(R.fromJson('{"a":1}')), '{"a":1}');
  assert.equal(R.toJson({ a: 3 }), '{"a":3}');
  const all = '{"constructor":"c","toString":"t","hasOwnProperty":"h","__proto__":"p","a":2}';
  const record = R.fromJson(all);
  assert.equal(Object.getPrototypeOf(record), Object.prototype);
  assert.equal(R.toJson(record), all);
});
