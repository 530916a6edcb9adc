import assert from "node:assert/strict";
import { test } from "node:test";
import {
  DEFAULT_MAX_BYTES,
  JsonError,
  MAX_DEPTH,
  MAX_SAFE_INTEGER,
  prefix,
  refusalKind,
  refusalMessage,
} from "../src/index.js";

test("limits are the profile's", () => {
  assert.equal(MAX_DEPTH, 64);
  assert.equal(DEFAULT_MAX_BYTES, 64 * 1024 * 1024);
  assert.equal(MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
});

test("a JsonError reads as Rust's Display, in message and toString", () => {
  const error = JsonError.of({ refusal: "duplicate-key", key: "a" }, 7);
  assert.equal(error.kind, "duplicate-key");
  assert.equal(error.offset, 7);
  assert.equal(error.detail, 'duplicate key "a"');
  assert.equal(error.message, 'duplicate-key at byte 7: duplicate key "a"');
  assert.equal(String(error), error.message);
  assert.equal(`${error}`, error.message);
  assert.ok(error instanceof Error);
  assert.equal(error.name, "JsonError");
});

test("every refusal's kind and message", () => {
  const cases = [
    [{ refusal: "too-large", size: 6, limit: 5 }, "too-large", "the input of 6 bytes exceeds the limit of 5 bytes"],
    [{ refusal: "byte-order-mark" }, "byte-order-mark", "a byte order mark is not allowed"],
    [{ refusal: "invalid-utf8" }, "invalid-utf8", "the input is not valid UTF-8"],
    [{ refusal: "unexpected", expected: "a value", found: undefined }, "syntax", "unexpected end of input"],
    [{ refusal: "unexpected", expected: "a value", found: "\u0000" }, "syntax", 'expected a value, found "\\u0000"'],
    [{ refusal: "unexpected", expected: '":"', found: '"' }, "syntax", 'expected ":", found "\\""'],
    [{ refusal: "unexpected", expected: "a value", found: "😀" }, "syntax", 'expected a value, found "😀"'],
    [{ refusal: "invalid-literal" }, "syntax", "invalid literal"],
    [{ refusal: "invalid-number" }, "syntax", "invalid number"],
    [{ refusal: "control-character", code: 0x1f }, "syntax", "control character U+001F must be escaped in a string"],
    [{ refusal: "invalid-escape" }, "syntax", "invalid escape sequence"],
    [{ refusal: "non-finite" }, "non-finite", "NaN and Infinity are not JSON numbers"],
    [{ refusal: "too-deep" }, "too-deep", "nesting deeper than 64 levels"],
    [{ refusal: "duplicate-key", key: "line\nbreak" }, "duplicate-key", 'duplicate key "line\\nbreak"'],
    [{ refusal: "lone-surrogate", unit: 0xdabc }, "lone-surrogate", "lone surrogate \\udabc"],
    [
      { refusal: "unsafe-integer", literal: "-9007199254740992" },
      "unsafe-integer",
      "integer -9007199254740992 is outside ±(2^53-1)",
    ],
    [{ refusal: "negative-zero" }, "negative-zero", "negative zero is refused"],
    [{ refusal: "number-out-of-range", literal: "1e400" }, "number-out-of-range", "number 1e400 overflows to infinity"],
  ] as const;
  for (const [refusal, kind, message] of cases) {
    assert.equal(refusalKind(refusal), kind);
    assert.equal(refusalMessage(refusal), message);
  }
});

test("a message shows at most 20 characters, counted as code points", () => {
  assert.equal(prefix("abc"), "abc");
  assert.equal(prefix("a".repeat(20)), "a".repeat(20));
  assert.equal(prefix("a".repeat(21)), `${"a".repeat(20)}…`);
  // 20 astral characters are 40 UTF-16 units, and still shown whole.
  assert.equal(prefix("😀".repeat(20)), "😀".repeat(20));
  assert.equal(prefix("😀".repeat(21)), `${"😀".repeat(20)}…`);
  assert.equal(prefix(`${"é".repeat(19)}😀😀`), `${"é".repeat(19)}😀…`);
});
