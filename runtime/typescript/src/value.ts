/**
 * The free-form JSON value (a payload, a kept unknown key's value) as this
 * runtime reads and writes it, and JSON Schema equality over it (`const`,
 * `enum`, `uniqueItems`). Equality mirrors `runtime/rust/src/value.rs`; the
 * value itself is what serde_json's `Value` (with `preserve_order`) holds in
 * Rust, in the shapes JavaScript has:
 *
 * - an object is a `Map`, never a plain object: a plain (or null-prototype)
 *   object moves integer-like keys (`"2"`, `"10"`) ahead of the others, and
 *   an object literal or assignment treats `__proto__` specially; a `Map`
 *   keeps input order and holds `__proto__` and `constructor` as keys;
 * - an integer literal reads as a `number`, and so does a float literal whose
 *   value is not integral (`5.5`); a float literal whose value is integral
 *   (`5.0`, `1e20`, `1e-400`, which is 0) reads as a `JsonFloat`, so that it
 *   is written back as a float (`5.0`, `1e+20`, `0.0`) and not as an integer.
 */

/** Any JSON value. */
export type JsonValue = null | boolean | number | string | JsonFloat | JsonValue[] | JsonObject;

/** A JSON object: its members in order, every key an ordinary key. */
export type JsonObject = Map<string, JsonValue>;

/**
 * A float literal whose value is integral (`5.0`, `1e20`): a plain `number`
 * could not tell it from the integer `5` and would be written back `5`.
 */
export class JsonFloat {
  constructor(readonly value: number) {}
}

/** The number a JSON number stands for, or undefined for any other value. */
function numeric(value: JsonValue): number | undefined {
  if (typeof value === "number") {
    return value;
  }
  return value instanceof JsonFloat ? value.value : undefined;
}

/**
 * Whether `a` and `b` are equal under JSON Schema equality: numbers by
 * mathematical value (`1` equals `1.0`, a `JsonFloat`), `true` never equals
 * `1`, objects whatever their key order, arrays item by item.
 */
export function jsonEqual(a: JsonValue, b: JsonValue): boolean {
  if (a === b) {
    return true;
  }
  const number = numeric(a);
  if (number !== undefined) {
    return number === numeric(b);
  }
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) {
      return false;
    }
    for (let index = 0; index < a.length; index++) {
      if (!jsonEqual(a[index] as JsonValue, b[index] as JsonValue)) {
        return false;
      }
    }
    return true;
  }
  if (a instanceof Map) {
    if (!(b instanceof Map) || a.size !== b.size) {
      return false;
    }
    for (const [key, item] of a) {
      const other = b.get(key);
      if (other === undefined || !jsonEqual(item, other)) {
        return false;
      }
    }
    return true;
  }
  return false;
}

/** Up to this many items, pairs are compared directly (as Rust's `first_duplicate`). */
const QUADRATIC_UP_TO = 16;

/**
 * The first pair `[i, j]`, `i < j`, of equal items (`jsonEqual`): the smallest
 * such `j`, then the smallest `i`; undefined when all differ. Large arrays
 * take linear time, each item keyed by a text that equal items share.
 */
export function firstDuplicate(items: readonly JsonValue[]): readonly [number, number] | undefined {
  if (items.length <= QUADRATIC_UP_TO) {
    for (let j = 1; j < items.length; j++) {
      for (let i = 0; i < j; i++) {
        if (jsonEqual(items[i] as JsonValue, items[j] as JsonValue)) {
          return [i, j];
        }
      }
    }
    return undefined;
  }
  const seen = new Map<string, number>();
  for (let j = 0; j < items.length; j++) {
    const key = equalityKey(items[j] as JsonValue);
    const i = seen.get(key);
    if (i !== undefined) {
      return [i, j];
    }
    seen.set(key, j);
  }
  return undefined;
}

/** A text two values share exactly when they are `jsonEqual`. */
function equalityKey(value: JsonValue): string {
  const number = numeric(value);
  if (number !== undefined) {
    // The shortest digits of the double: one text per value, and 0 for -0.
    return `#${number}`;
  }
  if (value === null) {
    return "n";
  }
  if (typeof value === "boolean") {
    return value ? "t" : "f";
  }
  if (typeof value === "string") {
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) {
    return `[${value.map(equalityKey).join(",")}]`;
  }
  const keys = [...(value as JsonObject).keys()].sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${equalityKey((value as JsonObject).get(key) as JsonValue)}`).join(",")}}`;
}

/**
 * The value as plain JavaScript (what `JSON.parse` would give), for code that
 * wants plain objects. What it loses:
 *
 * - key order: a plain object lists integer-like keys (`"2"`, `"10"`) first,
 *   in numeric order, whatever order they were read in;
 * - integral floats: `JsonFloat(5)` becomes `5`, which concord writes as `5`,
 *   no longer `5.0`.
 *
 * What it keeps: every key, `__proto__` and `constructor` included, as own
 * enumerable properties (defined with `Object.defineProperty`, so that
 * `__proto__` is a key and does not set the object's prototype).
 */
export function toPlain(value: JsonValue): unknown {
  if (value === null || typeof value !== "object") {
    return value;
  }
  if (value instanceof JsonFloat) {
    return value.value;
  }
  if (Array.isArray(value)) {
    return value.map(toPlain);
  }
  const plain: Record<string, unknown> = {};
  for (const [key, item] of value) {
    Object.defineProperty(plain, key, { value: toPlain(item), enumerable: true, writable: true, configurable: true });
  }
  return plain;
}
