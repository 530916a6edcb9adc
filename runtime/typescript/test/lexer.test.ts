import assert from "node:assert/strict";
import { test } from "node:test";
import {
  decode,
  firstInvalidByte,
  firstLoneSurrogate,
  JsonError,
  Lexer,
  utf8Length,
  wellFormed,
} from "../src/index.js";
import { floatValue } from "../src/profile.js";
import { bytes, outcome, random } from "./support.js";

function lexer(text: string): Lexer {
  return new Lexer(decode(text));
}

test("the input rules come in Rust's order: size, byte order mark, UTF-8", () => {
  const big = new Uint8Array([0xef, 0xbb, 0xbf, 0xff, 0x20, 0x20]);
  assert.equal(
    outcome(() => decode(big, 5)),
    "too-large at byte 5: the input of 6 bytes exceeds the limit of 5 bytes",
  );
  assert.equal(
    outcome(() => decode(big)),
    "byte-order-mark at byte 0: a byte order mark is not allowed",
  );
  assert.equal(
    outcome(() => decode(big.subarray(3))),
    "invalid-utf8 at byte 0: the input is not valid UTF-8",
  );
  assert.equal(decode(new Uint8Array([0x5b, 0x5d]), 2).text, "[]");
  assert.throws(() => decode("[]", -1), RangeError);
});

test("a BOM in bytes and a string starting with U+FEFF are both refused; U+FEFF later is a character", () => {
  assert.equal(
    outcome(() => decode(new Uint8Array([0xef, 0xbb, 0xbf, 0x31]))),
    "byte-order-mark at byte 0: a byte order mark is not allowed",
  );
  assert.equal(
    outcome(() => decode("\ufeff1")),
    "byte-order-mark at byte 0: a byte order mark is not allowed",
  );
  // A BOM in the middle is not a BOM: the string holds it as it stands.
  assert.equal(decode(bytes('"\ufeff"')).text, '"\ufeff"');
  assert.equal(decode('"\ufeff"').text, '"\ufeff"');
});

test("a string input is measured in UTF-8 bytes", () => {
  assert.equal(
    outcome(() => decode('"é"', 3)),
    "too-large at byte 3: the input of 4 bytes exceeds the limit of 3 bytes",
  );
  assert.equal(decode('"é"', 4).text, '"é"');
  assert.equal(
    outcome(() => decode('"😀"', 5)),
    "too-large at byte 5: the input of 6 bytes exceeds the limit of 5 bytes",
  );
  // A lone surrogate is counted as the 3 bytes Python's surrogatepass writes.
  assert.equal(
    outcome(() => decode('"\ud800"', 4)),
    "too-large at byte 4: the input of 5 bytes exceeds the limit of 4 bytes",
  );
});

test("a lone surrogate in a JS string is invalid UTF-8 at its byte offset, as Rust refuses Python's surrogatepass bytes", () => {
  assert.equal(
    outcome(() => decode('["\ud800"]')),
    "invalid-utf8 at byte 2: the input is not valid UTF-8",
  );
  assert.equal(
    outcome(() => decode('["é😀\udc00"]')),
    "invalid-utf8 at byte 8: the input is not valid UTF-8",
  );
  // A high surrogate at the very end, and a low one before a pair.
  assert.equal(
    outcome(() => decode("1\ud83d")),
    "invalid-utf8 at byte 1: the input is not valid UTF-8",
  );
  assert.equal(
    outcome(() => decode('"\ude00\ud83d\ude00"')),
    "invalid-utf8 at byte 1: the input is not valid UTF-8",
  );
  // The same bytes (U+D800 as ED A0 80) are refused at the same offset.
  assert.equal(
    outcome(() => decode(new Uint8Array([0x5b, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x5d]))),
    "invalid-utf8 at byte 2: the input is not valid UTF-8",
  );
  // A pair is one character.
  assert.equal(decode('"\ud83d\ude00"').text, '"😀"');
});

test("lone surrogates are found by the native check and by the fallback expression alike", () => {
  const next = random(0xd800n);
  const units = [0x61, 0xe9, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xd83d, 0xde00, 0xfeff];
  for (let round = 0; round < 3000; round++) {
    const text = String.fromCharCode(...Array.from({ length: next(8) }, () => units[next(units.length)] as number));
    const native = (text as unknown as { isWellFormed(): boolean }).isWellFormed();
    assert.equal(wellFormed(text), native);
    const first = firstLoneSurrogate(text);
    assert.equal(first === -1, native, JSON.stringify(text));
    if (first >= 0) {
      // The first unit that is no half of a pair.
      let index = 0;
      while (index < text.length) {
        const unit = text.charCodeAt(index);
        const following = text.charCodeAt(index + 1);
        if (unit >= 0xd800 && unit <= 0xdbff && following >= 0xdc00 && following <= 0xdfff) {
          index += 2;
        } else if (unit >= 0xd800 && unit <= 0xdfff) {
          break;
        } else {
          index++;
        }
      }
      assert.equal(first, index, JSON.stringify(text));
    }
  }
});

test("the first invalid byte is where Rust's valid_up_to says", () => {
  const cases: [number[], number][] = [
    [[0x61, 0x62], -1],
    [[0xc3, 0xa9, 0xff], 2],
    [[0xc0, 0xaf], 0],
    [[0xc1, 0xbf], 0],
    [[0xe0, 0x80, 0x80], 0],
    [[0xe0, 0xa0, 0x80], -1],
    [[0xed, 0xa0, 0x80], 0],
    [[0xed, 0x9f, 0xbf], -1],
    [[0xf0, 0x8f, 0xbf, 0xbf], 0],
    [[0xf0, 0x90, 0x80, 0x80], -1],
    [[0xf4, 0x90, 0x80, 0x80], 0],
    [[0xf4, 0x8f, 0xbf, 0xbf], -1],
    [[0xf5, 0x80, 0x80, 0x80], 0],
    [[0x61, 0xe2, 0x82], 1],
    [[0x61, 0xe2, 0x82, 0x61], 1],
    [[0x61, 0xf0, 0x9f, 0x98], 1],
    [[0x80], 0],
  ];
  for (const [data, expected] of cases) {
    assert.equal(firstInvalidByte(new Uint8Array(data)), expected, data.map((b) => b.toString(16)).join(" "));
  }
  // Random bytes: the scan agrees with the fatal decoder on every prefix it calls valid.
  const next = random(0x5eedn);
  const fatal = new TextDecoder("utf-8", { fatal: true });
  for (let round = 0; round < 2000; round++) {
    const data = new Uint8Array(1 + next(12)).map(
      () => [next(256), 0x80 + next(64), 0xe0 + next(21)][next(3)] as number,
    );
    const at = firstInvalidByte(data);
    const valid = outcome(() => fatal.decode(data)) === "ok";
    assert.equal(at === -1, valid, Buffer.from(data).toString("hex"));
    if (at >= 0) {
      assert.equal(
        outcome(() => fatal.decode(data.subarray(0, at))),
        "ok",
      );
    }
  }
});

test("byte offsets count UTF-8 bytes before the refusal", () => {
  const cases: [string, string][] = [
    ['["é",x]', 'syntax at byte 6: expected a value, found "x"'],
    ['["😀",-]', "syntax at byte 8: invalid number"],
    ['{"€":1,"€":2}', 'duplicate-key at byte 9: duplicate key "€"'],
    ['["日本",1e999]', "number-out-of-range at byte 10: number 1e999 overflows to infinity"],
    ['["é","\\ud800"]', "lone-surrogate at byte 7: lone surrogate \\ud800"],
    ['["é\t"]', "syntax at byte 4: control character U+0009 must be escaped in a string"],
    ['"😀', "syntax at byte 5: unexpected end of input"],
    ["[1] é", 'syntax at byte 4: expected the end of input after the JSON value, found "é"'],
    ["[1] 😀", 'syntax at byte 4: expected the end of input after the JSON value, found "😀"'],
  ];
  for (const [input, expected] of cases) {
    const fromString = outcome(() => {
      const lx = lexer(input);
      lx.skipValue();
      lx.end();
    });
    const fromBytes = outcome(() => {
      const lx = new Lexer(decode(bytes(input)));
      lx.skipValue();
      lx.end();
    });
    assert.equal(fromString, expected, input);
    assert.equal(fromBytes, expected, input);
  }
  assert.equal(utf8Length("aé😀€"), 10);
  assert.equal(utf8Length("aé😀€", 2), 3);
  assert.equal(decode(bytes("aé😀")).byteOffset(4), 7);
});

test("a number is the longest prefix the grammar allows, and says whether it is an integer", () => {
  const cases: [string, number, number, boolean][] = [
    ["0", 0, 1, true],
    ["01", 0, 1, true],
    ["1.", 1, 1, true],
    ["1.e5", 1, 1, true],
    ["1e", 1, 1, true],
    ["1e+", 1, 1, true],
    ["-0.5e-3x", -0.0005, 7, false],
    ["12,", 12, 2, true],
    ["5.0", 5, 3, false],
    ["1E2", 100, 3, false],
    ["9007199254740991", 9007199254740991, 16, true],
    ["-9007199254740991", -9007199254740991, 17, true],
    ["9007199254740993.0", 9007199254740992, 18, false],
    ["1e-400", 0, 6, false],
  ];
  for (const [text, value, end, integer] of cases) {
    const lx = lexer(text);
    assert.equal(lx.number(), value, text);
    assert.equal(lx.pos, end, text);
    assert.equal(lx.lastNumberWasInteger, integer, text);
  }
  const refused: [string, string][] = [
    ["-", "syntax at byte 0: invalid number"],
    ["-a", "syntax at byte 0: invalid number"],
    ["-.5", "syntax at byte 0: invalid number"],
    ["-Infinity", "non-finite at byte 0: NaN and Infinity are not JSON numbers"],
    ["-Inf", "syntax at byte 0: invalid number"],
    ["-0", "negative-zero at byte 0: negative zero is refused"],
    ["-0.0", "negative-zero at byte 0: negative zero is refused"],
    ["-1e-400", "negative-zero at byte 0: negative zero is refused"],
    ["9007199254740992", "unsafe-integer at byte 0: integer 9007199254740992 is outside ±(2^53-1)"],
    ["9999999999999999", "unsafe-integer at byte 0: integer 9999999999999999 is outside ±(2^53-1)"],
    ["00000000000000001", "ok"],
    ["1.7976931348623159e308", "number-out-of-range at byte 0: number 1.7976931348623159e3… overflows to infinity"],
    ["NaN", "non-finite at byte 0: NaN and Infinity are not JSON numbers"],
    ["x", 'syntax at byte 0: expected a value, found "x"'],
  ];
  for (const [text, expected] of refused) {
    assert.equal(
      outcome(() => lexer(text).number()),
      expected,
      text,
    );
  }
  // Past 1000 characters, a long run of zeros offset by a large exponent.
  const offset = lexer(`0.${"0".repeat(700_000)}1e700001`);
  assert.equal(offset.number(), 1);
  const underflow = lexer(`-0.${"0".repeat(400)}1`);
  assert.equal(
    outcome(() => underflow.number()),
    "negative-zero at byte 0: negative zero is refused",
  );
});

test("a float is the literal's value correctly rounded, by the fast path or by floatValue", () => {
  const next = random(0xf1f7n);
  const digits = (count: number): string => Array.from({ length: count }, () => String(next(10))).join("");
  for (let round = 0; round < 50000; round++) {
    let literal = (next(3) === 0 ? "-" : "") + (next(4) === 0 ? "0" : String(1 + next(9)) + digits(next(18)));
    literal += next(4) === 0 ? "" : `.${digits(1 + next(20))}`;
    if (next(3) === 0 || !literal.includes("."))
      literal += `${next(2) === 0 ? "e" : "E"}${["", "+", "-"][next(3)]}${digits(1 + next(3))}`;
    const lx = lexer(literal);
    const value = floatValue(literal);
    if (value === 0 && literal.startsWith("-")) {
      assert.match(
        outcome(() => lx.number()),
        /^negative-zero at byte 0/,
        literal,
      );
    } else if (!Number.isFinite(value)) {
      assert.match(
        outcome(() => lx.number()),
        /^number-out-of-range at byte 0/,
        literal,
      );
    } else {
      assert.ok(Object.is(lx.number(), value), literal);
      assert.equal(lx.lastNumberWasInteger, false, literal);
      assert.equal(lx.pos, literal.length, literal);
    }
  }
});

test("literals, and what starts no value", () => {
  assert.equal(lexer("true").literal(), true);
  assert.equal(lexer("false").literal(), false);
  assert.equal(lexer("null").literal(), null);
  assert.equal(
    outcome(() => lexer("nul").literal()),
    "syntax at byte 0: invalid literal",
  );
  assert.equal(
    outcome(() => lexer("True").literal()),
    'syntax at byte 0: expected a value, found "T"',
  );
  assert.equal(
    outcome(() => lexer("NaN").literal()),
    "non-finite at byte 0: NaN and Infinity are not JSON numbers",
  );
  assert.equal(
    outcome(() => lexer("Infinity").literal()),
    "non-finite at byte 0: NaN and Infinity are not JSON numbers",
  );
  assert.equal(
    outcome(() => lexer("Inf").literal()),
    'syntax at byte 0: expected a value, found "I"',
  );
  assert.equal(
    outcome(() => lexer("").literal()),
    "syntax at byte 0: unexpected end of input",
  );
});

test("strings: one slice without escapes, every escape, and their refusals", () => {
  const cases: [string, string][] = [
    ['"plain"', "plain"],
    ['""', ""],
    ['"a\\"b\\\\c\\/d\\b\\f\\n\\r\\t"', 'a"b\\c/d\b\f\n\r\t'],
    ['"\\u00e9\\u00E9\\uD83D\\uDE00x"', "éé😀x"],
    ['"é😀"', "é😀"],
    ['"\\u0000"', "\u0000"],
  ];
  for (const [input, expected] of cases) {
    const lx = lexer(`${input} `);
    assert.equal(lx.string(), expected, input);
    assert.equal(lx.pos, input.length);
  }
  const refused: [string, string][] = [
    ['"\\x"', "syntax at byte 1: invalid escape sequence"],
    ['"\\u12"', "syntax at byte 1: invalid escape sequence"],
    ['"\\u12g4"', "syntax at byte 1: invalid escape sequence"],
    ['"ab\\', "syntax at byte 3: invalid escape sequence"],
    ['"\\ud800\\u0041"', "lone-surrogate at byte 1: lone surrogate \\ud800"],
    ['"\\ud800\\uZZZZ"', "lone-surrogate at byte 1: lone surrogate \\ud800"],
    ['"\\ud800"', "lone-surrogate at byte 1: lone surrogate \\ud800"],
    ['"\\udc00\\ud800"', "lone-surrogate at byte 1: lone surrogate \\udc00"],
    ['"\\uDBFF\\n"', "lone-surrogate at byte 1: lone surrogate \\udbff"],
    ['"a\u0001"', "syntax at byte 2: control character U+0001 must be escaped in a string"],
    ['"\\n\u001f"', "syntax at byte 3: control character U+001F must be escaped in a string"],
    ['"abc', "syntax at byte 4: unexpected end of input"],
    ['"a\\n', "syntax at byte 4: unexpected end of input"],
  ];
  for (const [input, expected] of refused) {
    assert.equal(
      outcome(() => lexer(input).string()),
      expected,
      input,
    );
    assert.equal(
      outcome(() => lexer(input).skipString()),
      expected,
      `${input} (skipped)`,
    );
  }
});

test("depth: the 65th level is refused at its bracket", () => {
  const lx = lexer("[".repeat(100));
  for (let level = 0; level < 64; level++) {
    lx.enter();
  }
  assert.equal(lx.depth, 64);
  const error = outcome(() => lx.enter());
  assert.equal(error, "too-deep at byte 64: nesting deeper than 64 levels");
});

test("a typed reader's walk: members, duplicate keys before their value, skipped values", () => {
  const input = '{"id": 5, "skip": {"a": [1, {"b": null}], "c": "\\u00e9"}, "name": "x"}';
  const lx = lexer(input);
  lx.ws();
  assert.equal(lx.peek(), 0x7b);
  lx.enter();
  const seen = new Set<string>();
  const read: [string, unknown][] = [];
  let first = true;
  while (lx.moreMembers(first)) {
    const key = lx.key(first);
    first = false;
    if (seen.has(key)) {
      throw lx.duplicateKey(key);
    }
    seen.add(key);
    lx.colon();
    if (key === "id") {
      lx.ws();
      read.push([key, lx.number()]);
    } else if (key === "name") {
      lx.ws();
      read.push([key, lx.string()]);
    } else {
      lx.skipValue();
    }
  }
  lx.end();
  assert.equal(lx.depth, 0);
  assert.deepEqual(read, [
    ["id", 5],
    ["name", "x"],
  ]);
  const walk = (text: string) =>
    outcome(() => {
      const l = lexer(text);
      l.skipValue();
      l.end();
    });
  assert.equal(walk('{"a":1,"a"'), 'duplicate-key at byte 7: duplicate key "a"');
  assert.equal(walk('[{"k":{"x":1,"x":[}}]'), 'duplicate-key at byte 13: duplicate key "x"');
  const many = `{${Array.from({ length: 20 }, (_, index) => `"k${index}":${index}`).join(",")},"k13":0}`;
  assert.equal(walk(many), `duplicate-key at byte ${many.lastIndexOf('"k13"')}: duplicate key "k13"`);
  assert.equal(walk('{"a":1,}'), 'syntax at byte 7: expected a string key, found "}"');
  assert.equal(walk("{'a':1}"), 'syntax at byte 1: expected a string key or "}", found "\'"');
  assert.equal(walk('{"a" 1}'), 'syntax at byte 5: expected ":", found "1"');
  assert.equal(walk('{"a":1 "b":2}'), 'syntax at byte 7: expected "," or "}", found "\\""');
  assert.equal(walk("[1 2]"), 'syntax at byte 3: expected "," or "]", found "2"');
  assert.equal(walk("[1,]"), 'syntax at byte 3: expected a value, found "]"');
  assert.equal(walk(" \n"), "syntax at byte 2: unexpected end of input");
  assert.equal(walk("[-Infinity]"), "non-finite at byte 1: NaN and Infinity are not JSON numbers");
});

test("errors are JsonErrors with the fields", () => {
  try {
    lexer("[é").skipValue();
    assert.fail("refused");
  } catch (error) {
    assert.ok(error instanceof JsonError);
    assert.equal(error.kind, "syntax");
    assert.equal(error.offset, 1);
    assert.equal(error.detail, 'expected a value, found "é"');
  }
});
