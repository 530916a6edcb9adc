/**
 * A free-form property is written by the runtime's one writer of free-form
 * values (`writeValueTo`): `Map`s in their order, integral floats kept as
 * `JsonFloat`, and a plain object refused with its pointer (its integer-like
 * keys would already have moved), as is nesting past the profile's 64 levels.
 */

import assert from "node:assert/strict";
import { test } from "node:test";
import { JsonFloat, type RecordType, registry, WriteError } from "../src/index.js";

test("a free-form property writes Maps and JsonFloats, and refuses a plain object where it stands", () => {
  const bindings = registry("0.1.0", []);
  bindings.add("m", [], {
    plan: 1,
    types: {
      R: {
        object: { fields: [{ json: "any", presence: "optional", value: "any" }], unknown_keys: "drop" },
        record: true,
      },
    },
  });
  const R: RecordType<{ any?: unknown }> = bindings.record("m", "R");
  const text = '{"any":{"b":1,"10":[5.0,2.5,{"__proto__":null}],"2":"x"}}';
  assert.equal(R.toJson(R.fromJson(text)), text);
  assert.equal(R.toJson({ any: new Map([["k", new JsonFloat(3)]]) }), '{"any":{"k":3.0}}');
  assert.throws(
    () => R.toJson({ any: [new Map([["k", { plain: 1 }]])] }),
    (error) =>
      error instanceof WriteError && error.pointer === "/any/0/k" && /a free-form object is a Map/.test(error.message),
  );
  let deep: unknown = 1;
  for (let level = 0; level < 70; level++) deep = [deep];
  assert.throws(
    () => R.toJson({ any: deep }),
    (error) => error instanceof WriteError && /nesting deeper than 64/.test(error.message),
  );
});
