/**
 * The plan's checks on a value read: each answers `undefined` when the value
 * holds, else what is wrong. They count and compare as the Rust runtime does
 * (runtime/rust/src/checks.rs, number.rs, typed_id.rs, value.rs): lengths in
 * code points (JSON Schema's `maxLength`), not UTF-16 units as `.length`
 * counts; `multipleOf` exactly, on the shortest decimal of a float.
 */

import { JsonFloat } from "../value.js";
import type { Bounds, PlanCheck } from "./plan.js";

export type Check = (value: unknown) => string | undefined;

/** A string's length in code points. */
export function codePoints(text: string): number {
  let count = text.length;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    // A high surrogate followed by a low one is one code point.
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count--;
        index++;
      }
    }
  }
  return count;
}

function outside(count: number, bounds: Bounds): boolean {
  return (bounds.min !== undefined && count < bounds.min) || (bounds.max !== undefined && count > bounds.max);
}

function described(bounds: Bounds): string {
  if (bounds.min !== undefined && bounds.max !== undefined) return `between ${bounds.min} and ${bounds.max}`;
  return bounds.min !== undefined ? `at least ${bounds.min}` : `at most ${bounds.max}`;
}

/** Whether `value` is `<prefix>_` and a lowercase canonical UUIDv7 (docs/decisions/typed-ids.md). */
export function isTypedId(value: string, prefix: string): boolean {
  if (value.length !== prefix.length + 37 || !value.startsWith(prefix) || value.charCodeAt(prefix.length) !== 0x5f)
    return false;
  for (let at = 0; at < 36; at++) {
    const byte = value.charCodeAt(prefix.length + 1 + at);
    if (at === 8 || at === 13 || at === 18 || at === 23) {
      if (byte !== 0x2d) return false;
    } else if (at === 14) {
      if (byte !== 0x37) return false;
    } else if (at === 19) {
      if (byte !== 0x38 && byte !== 0x39 && byte !== 0x61 && byte !== 0x62) return false;
    } else if (!((byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x66))) {
      return false;
    }
  }
  return true;
}

/** `digits × 10^exponent` of a decimal text (JSON number syntax), digits without trailing zeros. */
function decimal(text: string): { digits: bigint; exponent: number } {
  const lower = text.toLowerCase();
  const at = lower.indexOf("e");
  const mantissa = at < 0 ? lower : lower.slice(0, at);
  let exponent = at < 0 ? 0 : Number(lower.slice(at + 1));
  const point = mantissa.indexOf(".");
  const whole = point < 0 ? mantissa : mantissa.slice(0, point) + mantissa.slice(point + 1);
  if (point >= 0) exponent -= mantissa.length - point - 1;
  let digits = whole.replace(/^-/, "").replace(/^0+/, "");
  while (digits.endsWith("0")) {
    digits = digits.slice(0, -1);
    exponent++;
  }
  return { digits: BigInt(digits === "" ? "0" : digits), exponent };
}

/** Whether `value`, as its shortest decimal, is an integer multiple of the decimal `divisor` (runtime/rust/src/number.rs). */
export function multipleOf(value: number, divisor: string): boolean {
  if (!Number.isFinite(value)) return false;
  const { digits, exponent } = decimal(value.toExponential());
  if (digits === 0n) return true;
  const by = decimal(divisor);
  const shift = exponent - by.exponent;
  return shift >= 0
    ? (digits * 10n ** BigInt(shift)) % by.digits === 0n
    : digits % (by.digits * 10n ** BigInt(-shift)) === 0n;
}

/** A value's key under JSON Schema equality: numbers by value (`1` is `1.0`), objects whatever their order. */
export function equalityKey(value: unknown): string {
  if (value instanceof JsonFloat) return `n${value.value}`;
  if (typeof value === "number") return `n${Object.is(value, -0) ? 0 : value}`;
  if (typeof value === "string") return `s${JSON.stringify(value)}`;
  if (typeof value === "boolean" || value === null) return String(value);
  if (Array.isArray(value)) return `[${value.map(equalityKey).join(",")}]`;
  const entries: [string, unknown][] = value instanceof Map ? [...value] : Object.entries(value as object);
  const kept = (value as Record<symbol, unknown>)[Symbol.for("concord.unknownKeys")];
  if (kept instanceof Map) entries.push(...(kept as Map<string, unknown>));
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${equalityKey(item)}`).join(",")}}`;
}

/** The checks of a `checked` value; `typedId` adds the typed id's. */
export function compileChecks(checks: PlanCheck[], typedId?: string): Check[] {
  const compiled: Check[] = checks.map((check): Check => {
    if (check === "unique_items") {
      return (value) => {
        const seen = new Map<string, number>();
        const items = value as unknown[];
        for (let index = 0; index < items.length; index++) {
          const key = equalityKey(items[index]);
          const first = seen.get(key);
          if (first !== undefined) return `items ${first} and ${index} are equal, and the items must be unique`;
          seen.set(key, index);
        }
        return undefined;
      };
    }
    if ("length" in check) {
      const bounds = check.length;
      return (value) =>
        outside(codePoints(value as string), bounds)
          ? `a string of ${described(bounds)} characters is expected`
          : undefined;
    }
    if ("items" in check) {
      const bounds = check.items;
      return (value) =>
        outside((value as unknown[]).length, bounds) ? `${described(bounds)} items are expected` : undefined;
    }
    if ("properties" in check) {
      const bounds = check.properties;
      return (value) =>
        outside((value as Map<string, unknown>).size, bounds)
          ? `${described(bounds)} properties are expected`
          : undefined;
    }
    if ("pattern" in check) {
      const pattern = new RegExp(check.pattern.ecma, "u");
      const text = check.pattern.ecma;
      return (value) =>
        pattern.test(value as string) ? undefined : `does not match the pattern ${JSON.stringify(text)}`;
    }
    if ("integer_range" in check) {
      const { min, max } = check.integer_range;
      return (value) =>
        (value as number) < min || (value as number) > max
          ? `an integer between ${min} and ${max} is expected`
          : undefined;
    }
    if ("integer_multiple_of" in check) {
      const divisor = check.integer_multiple_of;
      return (value) => ((value as number) % divisor === 0 ? undefined : `a multiple of ${divisor} is expected`);
    }
    if ("number_range" in check) {
      const range = check.number_range;
      return (value) => {
        const number = value instanceof JsonFloat ? value.value : (value as number);
        const fails =
          (range.minimum !== undefined && number < range.minimum) ||
          (range.maximum !== undefined && number > range.maximum) ||
          (range.exclusive_minimum !== undefined && number <= range.exclusive_minimum) ||
          (range.exclusive_maximum !== undefined && number >= range.exclusive_maximum);
        return fails ? "the number is out of range" : undefined;
      };
    }
    if ("number_multiple_of" in check) {
      const divisor = check.number_multiple_of;
      return (value) =>
        multipleOf(value instanceof JsonFloat ? value.value : (value as number), divisor)
          ? undefined
          : `a multiple of ${divisor} is expected`;
    }
    throw new Error(
      `a check this runtime does not know: ${JSON.stringify(check)} (generate with the concord of this runtime's version)`,
    );
  });
  if (typedId !== undefined) {
    const prefix = typedId;
    compiled.push((value) =>
      isTypedId(value as string, prefix) ? undefined : `not a ${prefix}_ id with a lowercase UUIDv7 (x-typed-id)`,
    );
  }
  return compiled;
}
