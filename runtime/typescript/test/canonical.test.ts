import assert from "node:assert/strict";
import { test } from "node:test";
import {
  CanonicalError,
  canonicalize,
  canonicalOf,
  digest,
  digestBytes,
  digestJson,
  JsonError,
  JsonFloat,
  type JsonValue,
  PROFILE,
  read,
} from "../src/index.js";
import { outcome } from "./support.js";

const text = (input: string): string => new TextDecoder().decode(canonicalize(input));

test("keys sorted by UTF-16 code units, strings escaped, integers as written", () => {
  assert.equal(PROFILE, "jcs-rfc8785-integer-v1");
  assert.equal(text('{"\\ufb33":3,"\\ud83d\\ude02":2,"\\u20ac":1,"a":0}'), '{"a":0,"€":1,"😂":2,"\ufb33":3}');
  assert.equal(text('{"ab":1,"a":2,"B":3,"":4}'), '{"":4,"B":3,"a":2,"ab":1}');
  assert.equal(
    text('{"10":1,"2":2,"__proto__":3,"constructor":{"b":[1,-2],"a":null}}'),
    '{"10":1,"2":2,"__proto__":3,"constructor":{"a":null,"b":[1,-2]}}',
  );
  assert.equal(text(' [ "\\u0001\\/\\u007f\\u2028" , true ] '), '["\\u0001/\u007f\u2028",true]');
});

test("floats and unsafe integers have no canonical form", () => {
  const cases: [JsonValue, string][] = [
    [read('{"a":[1,1.5]}'), 'not-canonical at "/a/1": jcs-rfc8785-integer-v1 admits integers only, not the float 1.5'],
    [
      read('{"x/y~z":1e2}'),
      'not-canonical at "/x~1y~0z": jcs-rfc8785-integer-v1 admits integers only, not the float 100.0',
    ],
    [new JsonFloat(5), 'not-canonical at "": jcs-rfc8785-integer-v1 admits integers only, not the float 5.0'],
    [[2 ** 53], 'not-canonical at "/0": integer 9007199254740992 is outside ±(2^53-1)'],
    [[1e300], 'not-canonical at "/0": integer 10000000000000000525… is outside ±(2^53-1)'],
    [[new JsonFloat(-0)], 'not-canonical at "/0": jcs-rfc8785-integer-v1 admits integers only, not the float -0.0'],
    [[Number.NaN], 'not-canonical at "/0": jcs-rfc8785-integer-v1 admits integers only, not the float nan'],
    [new Map([["k", "\ud800"]]), 'not-canonical at "/k": a string holds the lone surrogate U+D800'],
  ];
  for (const [value, expected] of cases) {
    assert.equal(
      outcome(() => canonicalOf(value)),
      expected,
    );
  }
  assert.equal(canonicalOf([-0, 0]), "[0,0]");
  const error = (() => {
    try {
      canonicalize("[1.0]");
    } catch (caught) {
      return caught;
    }
  })();
  assert.ok(error instanceof CanonicalError);
  assert.equal(error.kind, "not-canonical");
  assert.equal(error.pointer, "/0");
});

test("input the strict reader refuses throws its JsonError", () => {
  assert.throws(() => canonicalize('{"a":1,"a":2}'), JsonError);
  assert.equal(
    outcome(() => digestJson("[-0]")),
    "negative-zero at byte 1: negative zero is refused",
  );
  assert.equal(
    outcome(() => canonicalize("[1, 2]", { maxBytes: 5 })),
    "too-large at byte 5: the input of 6 bytes exceeds the limit of 5 bytes",
  );
});

test("digests", () => {
  assert.equal(
    digestBytes(new Uint8Array()),
    "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
  );
  const expected = "sha256:6f8b1d6cc147ccc2b3a58aec31a30e5dae01e2fa714dd03151a5e49864d75ffd";
  assert.equal(digestJson(' { "b" : [ 1 , true , null ] ,\n\t"a" : { } }\r\n'), expected);
  assert.equal(digest(read('{"b":[1,true,null],"a":{}}')), expected);
});
