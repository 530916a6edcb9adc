import assert from "node:assert/strict";
import { test } from "node:test";
import {
  floatText,
  integerText,
  JsonFloat,
  type JsonValue,
  Output,
  read,
  stringText,
  toBytes,
  WriteError,
  writeFloat,
  writeInteger,
  writeString,
  writeValue,
  writeValueTo,
} from "../src/index.js";
import { outcome, random } from "./support.js";

test("strings are escaped as canonical JSON escapes them", () => {
  const short: Record<number, string> = { 8: "\\b", 9: "\\t", 10: "\\n", 12: "\\f", 13: "\\r", 34: '\\"', 92: "\\\\" };
  for (let code = 0; code < 0x80; code++) {
    const character = String.fromCharCode(code);
    const expected = short[code] ?? (code < 0x20 ? `\\u00${code.toString(16).padStart(2, "0")}` : character);
    assert.equal(stringText(character), `"${expected}"`, `U+${code.toString(16)}`);
  }
  // DEL, U+2028/2029, `/` and non-ASCII stay raw.
  assert.equal(stringText("\u007f\u2028\u2029/é😀\ufeff"), '"\u007f\u2028\u2029/é😀\ufeff"');
});

test("random strings, long ones across the writer's windows too, are written as JSON.stringify escapes them", () => {
  const next = random(0xfeedn);
  const pieces = ["a", "é", "€", "😀", "\n", "\u0001", '"', "\\", "\u007f", "\u2028", "\ud7ff", "\ue000", "\uffff"];
  for (const length of [0, 1, 2, 10, 100, 8191, 8192, 8193, 20000]) {
    for (let round = 0; round < 4; round++) {
      let text = "";
      while (text.length < length) {
        text += pieces[next(pieces.length)];
      }
      const out = new Output(1);
      writeString(out, text);
      assert.deepEqual(out.toBytes(), new TextEncoder().encode(JSON.stringify(text)), `length ${text.length}`);
      assert.equal(stringText(text), JSON.stringify(text));
    }
  }
  // A pair straddling the window boundary, and a lone surrogate past it.
  const straddle = `${"a".repeat(8191)}😀b`;
  assert.equal(stringText(straddle), JSON.stringify(straddle));
  assert.equal(
    outcome(() => stringText(`${"a".repeat(9000)}\ud800`)),
    'at "": a string holds the lone surrogate U+D800',
  );
});

test("a lone surrogate in a string to write is refused, in Python's words", () => {
  assert.equal(
    outcome(() => stringText("a\ud800")),
    'at "": a string holds the lone surrogate U+D800',
  );
  assert.equal(
    outcome(() => stringText("\udc00\ud83d\ude00")),
    'at "": a string holds the lone surrogate U+DC00',
  );
  assert.equal(stringText("\ud83d\ude00"), '"😀"');
  const value = read('{"a":[1,{"b":"ok"}]}') as Map<string, JsonValue>;
  ((value.get("a") as JsonValue[])[1] as Map<string, JsonValue>).set("c/~", "x\udfff");
  assert.equal(
    outcome(() => writeValue(value)),
    'at "/a/1/c~1~0": a string holds the lone surrogate U+DFFF',
  );
  // A key that cannot be written is the object's refusal.
  assert.equal(
    outcome(() => writeValue(new Map([["k", new Map([["\ud800", 1]])]]))),
    'at "/k": a string holds the lone surrogate U+D800',
  );
});

test("integers and floats, and what the profile refuses", () => {
  assert.equal(integerText(5), "5");
  assert.equal(integerText(-9007199254740991), "-9007199254740991");
  assert.equal(integerText(-0), "0");
  assert.equal(floatText(5), "5.0");
  assert.equal(floatText(1e20), "1e+20");
  const refused: [() => string, string][] = [
    [
      () => integerText(2 ** 53),
      'at "": integer 9007199254740992 is outside ±(2^53-1), which the strict profile refuses',
    ],
    [
      () => integerText(-(2 ** 53)),
      'at "": integer -9007199254740992 is outside ±(2^53-1), which the strict profile refuses',
    ],
    [
      () => integerText(1e300),
      `at "": integer 10000000000000000525… is outside ±(2^53-1), which the strict profile refuses`,
    ],
    [() => integerText(1.5), 'at "": 1.5 is not an integer'],
    [() => integerText(Number.NaN), 'at "": NaN is not a JSON number'],
    [() => floatText(Number.POSITIVE_INFINITY), 'at "": inf is not a JSON number'],
    [() => floatText(Number.NEGATIVE_INFINITY), 'at "": -inf is not a JSON number'],
    [() => floatText(Number.NaN), 'at "": NaN is not a JSON number'],
    [() => floatText(-0), 'at "": negative zero is refused'],
  ];
  for (const [action, expected] of refused) {
    assert.equal(outcome(action), expected);
  }
  const out = new Output(1);
  writeString(out, "a");
  writeInteger(out, 1);
  writeFloat(out, 1);
  writeString(out, "é😀\n");
  assert.equal(out.toString(), '"a"11.0"é😀\\n"');
});

test("free-form values: order kept, integers as integers, floats as floats, refusals at their pointer", () => {
  const value: JsonValue = new Map<string, JsonValue>([
    ["z", 1],
    ["2", new JsonFloat(2)],
    ["__proto__", [5.5, null, true, false, "s"]],
  ]);
  assert.equal(writeValue(value), '{"z":1,"2":2.0,"__proto__":[5.5,null,true,false,"s"]}');
  const cases: [JsonValue, string][] = [
    [[1, Number.NaN], 'at "/1": NaN is not a JSON number'],
    [[Number.POSITIVE_INFINITY], 'at "/0": inf is not a JSON number'],
    [new Map([["items", [-0.0, new JsonFloat(-0)]]]), 'at "/items/1": negative zero is refused'],
    [
      new Map([["count", 2 ** 53]]),
      'at "/count": integer 9007199254740992 is outside ±(2^53-1), which the strict profile refuses',
    ],
    [
      [{ plain: 1 } as unknown as JsonValue],
      'at "/0": cannot write a plain object as JSON: a free-form object is a Map',
    ],
    [[undefined as unknown as JsonValue], 'at "/0": cannot write undefined as JSON'],
  ];
  for (const [input, expected] of cases) {
    const text = outcome(() => writeValue(input));
    assert.equal(text, expected);
  }
  try {
    writeValue(new Map([["a/b", [0, 1.5, Number.NaN]]]));
    assert.fail("refused");
  } catch (error) {
    assert.ok(error instanceof WriteError);
    assert.equal(error.kind, "write");
    assert.equal(error.pointer, "/a~1b/2");
    assert.equal(error.detail, "NaN is not a JSON number");
  }
});

test("nesting deeper than 64 is refused at the 65th container, counting the levels around", () => {
  let deep: JsonValue = 1;
  for (let level = 0; level < 64; level++) {
    deep = [deep];
  }
  assert.equal(writeValue(deep).length, 64 * 2 + 1);
  const deeper = new Map([["deep", deep]]);
  assert.equal(
    outcome(() => writeValue(deeper)),
    `at "/deep${"/0".repeat(63)}": nesting deeper than 64 levels`,
  );
  assert.equal(
    outcome(() => writeValueTo(new Output(), [[1]], 63)),
    'at "/0": nesting deeper than 64 levels',
  );
  const out = new Output(1);
  writeValueTo(out, [1], 63);
  assert.equal(out.toString(), "[1]");
  assert.deepEqual([...out.toBytes()], [0x5b, 0x31, 0x5d]);
});

test("toBytes is UTF-8", () => {
  assert.deepEqual([...toBytes('"é"')], [0x22, 0xc3, 0xa9, 0x22]);
});

/** What `write` gives, or the text of what it throws. */
function textOf(write: () => string): string {
  try {
    return write();
  } catch (error) {
    return String(error);
  }
}

test("Output.float writes what floatText writes, and refuses what it refuses", () => {
  const next = random(0xf10a7n);
  const bits = new Float64Array(1);
  const words = new Uint32Array(bits.buffer);
  const values: number[] = [0.1, 0.2, 0.1 + 0.2, 1 / 3, 1e-5, 9.9e-6, 1.25e-5, 0.000015, 1e15 - 1, 1e15, 1e15 + 0.5];
  values.push(999999999999999.9, 123456789012345.6, 9007199254740991, 1e16, 5e-324, 1.7976931348623157e308);
  values.push(Number.NaN, Number.POSITIVE_INFINITY, 0);
  for (let round = 0; round < 20000; round++) {
    // Any double.
    words[0] = next(2 ** 32);
    words[1] = next(2 ** 32);
    values.push(bits[0] as number);
    // A short decimal, and the double next to it, which is no short decimal.
    bits[0] = next(10 ** 9) / 10 ** next(10);
    values.push(bits[0] as number);
    words[0] = (words[0] as number) + 1;
    values.push(bits[0] as number);
    // A decimal of up to 17 significant digits.
    values.push(Number((next(10 ** 6) * 10 ** (next(20) - 10)).toPrecision(1 + next(17))));
  }
  const decoder = new TextDecoder();
  for (const value of values) {
    for (const signed of [value, -value]) {
      const written = textOf(() => {
        const out = new Output(1);
        out.float(signed);
        return decoder.decode(out.toBytes());
      });
      assert.equal(
        written,
        textOf(() => floatText(signed)),
        String(signed),
      );
    }
  }
});

test("Output.integer writes what integerText writes, and refuses what it refuses", () => {
  const next = random(0x1e7n);
  const values = [0, 1, 9, 10, 2 ** 31 - 1, 2 ** 31, 2 ** 32, 1e15, 1e15 - 1, 2 ** 53 - 1, 2 ** 53, 1e300, 1.5];
  values.push(Number.NaN, Number.POSITIVE_INFINITY);
  for (let round = 0; round < 20000; round++) {
    values.push(next(10 ** (1 + next(9))) * 10 ** next(8) + next(1000));
  }
  const decoder = new TextDecoder();
  for (const value of values) {
    for (const signed of [value, -value]) {
      const written = textOf(() => {
        const out = new Output(1);
        out.integer(signed);
        return decoder.decode(out.toBytes());
      });
      assert.equal(
        written,
        textOf(() => integerText(signed)),
        String(signed),
      );
    }
  }
});
