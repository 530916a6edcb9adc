import assert from "node:assert/strict";
import { test } from "node:test";
import { formatFloat } from "../src/index.js";

test("the layout at every boundary", () => {
  const cases: [number, string][] = [
    [0, "0.0"],
    [1, "1.0"],
    [-1.5, "-1.5"],
    [123.45, "123.45"],
    [1e15, "1000000000000000.0"],
    [9999999999999998, "9999999999999998.0"],
    [1e16, "1e+16"],
    [1.5e16, "1.5e+16"],
    [1e-5, "0.00001"],
    [1.25e-5, "0.0000125"],
    [9.9e-6, "9.9e-6"],
    [1e-7, "1e-7"],
    [0.1, "0.1"],
    [5e-324, "5e-324"],
    [2.2250738585072014e-308, "2.2250738585072014e-308"],
    [1.7976931348623157e308, "1.7976931348623157e+308"],
    [-1.7976931348623157e308, "-1.7976931348623157e+308"],
    [123456789012345680, "1.2345678901234568e+17"],
    [1e20, "1e+20"],
    [1e21, "1e+21"],
    [-1e-5, "-0.00001"],
    [0.000009999999999999999, "9.999999999999999e-6"],
  ];
  for (const [value, text] of cases) {
    assert.equal(formatFloat(value), text, String(value));
    assert.ok(Object.is(Number(text), value), `${text} reads back`);
  }
});

test("non-finite values and negative zero have no layout", () => {
  assert.throws(() => formatFloat(Number.NaN), /NaN is not a JSON number/);
  assert.throws(() => formatFloat(Number.POSITIVE_INFINITY), /inf is not a JSON number/);
  assert.throws(() => formatFloat(Number.NEGATIVE_INFINITY), /-inf is not a JSON number/);
  assert.throws(() => formatFloat(-0), /negative zero is refused/);
});

test("random doubles read back exactly", () => {
  const view = new DataView(new ArrayBuffer(8));
  let state = 0x9e3779b97f4a7c15n;
  for (let round = 0; round < 20_000; round++) {
    state ^= (state << 13n) & 0xffffffffffffffffn;
    state ^= state >> 7n;
    state ^= (state << 17n) & 0xffffffffffffffffn;
    view.setBigUint64(0, state);
    const value = view.getFloat64(0);
    if (!Number.isFinite(value)) {
      continue;
    }
    const text = formatFloat(value);
    assert.ok(Object.is(Number(text), value), text);
    assert.match(text, /^-?(\d+\.\d+|\d(\.\d+)?e[+-]\d+)$/);
  }
});
