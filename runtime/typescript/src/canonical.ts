/**
 * Canonical JSON under the profile `jcs-rfc8785-integer-v1`: RFC 8785 (JCS)
 * restricted to null, booleans, strings, arrays, objects and integers in
 * ±(2^53-1), and `sha256:<hex>` digests over it (docs/canonical-json.md).
 * Mirrors `runtime/rust/src/canonical.rs` (and Python's `canonical.py`): the
 * same bytes, and the same refusal, `not-canonical at "<pointer>": …`, for a
 * float (even `1.0`) or an unsafe integer.
 *
 * Keys are sorted by UTF-16 code units, which is how JavaScript compares
 * strings; strings are escaped as the writer escapes them. What only a value
 * built in code can hold is refused too: a lone surrogate (at the string's
 * pointer, or a key's object; Python's oracle, which checks once at the end,
 * says `""`), NaN, infinities and `-0.0` as floats (in Python's `repr` words).
 */

import { ConcordError } from "./error.js";
import { formatFloat } from "./float.js";
import { MAX_SAFE_INTEGER, prefix } from "./profile.js";
import { sha256 } from "./sha256.js";
import { type ReadOptions, read } from "./strict.js";
import { JsonFloat, type JsonObject, type JsonValue } from "./value.js";
import { Output, pointerToken, WriteError } from "./write.js";

/** The profile's name, as its requirement gives it (docs/decisions/canonical-json.md). */
export const PROFILE = "jcs-rfc8785-integer-v1";

/**
 * A value the profile does not admit, at a JSON pointer: `message` is Rust's
 * `CanonicalError::NotCanonical` Display, `not-canonical at "<pointer>": <detail>`.
 * (Input the strict reader refuses throws its `JsonError`, whose text is
 * Rust's `CanonicalError::Read` Display.)
 */
export class CanonicalError extends ConcordError {
  override readonly name = "CanonicalError";
  readonly kind = "not-canonical";
  pointer: string;
  /** No offset: a value is refused, not an input (a refused input throws `JsonError`). */
  readonly offset: undefined = undefined;
  readonly detail: string;

  constructor(pointer: string, detail: string) {
    super(`not-canonical at "${pointer}": ${detail}`);
    this.pointer = pointer;
    this.detail = detail;
  }

  /** The same refusal seen from the container holding the refused value at `token`. */
  under(token: string | number): this {
    this.pointer = `/${pointerToken(String(token))}${this.pointer}`;
    this.message = `not-canonical at "${this.pointer}": ${this.detail}`;
    return this;
  }

  override toString(): string {
    return this.message;
  }
}

/** Reads `input` strictly and writes its canonical form (UTF-8). */
export function canonicalize(input: Uint8Array | string, options?: ReadOptions): Uint8Array {
  return canonicalBytes(read(input, options));
}

/** `sha256:<hex>` over the canonical form of `input`. */
export function digestJson(input: Uint8Array | string, options?: ReadOptions): string {
  return digestBytes(canonicalize(input, options));
}

/** `sha256:<hex>` over the canonical form of a value. */
export function digest(value: JsonValue): string {
  return digestBytes(canonicalBytes(value));
}

/** `sha256:<64 lowercase hex>` over exact bytes, with no normalization. */
export function digestBytes(bytes: Uint8Array): string {
  const hash = sha256(bytes);
  let text = "sha256:";
  for (const byte of hash) {
    text += (byte < 16 ? "0" : "") + byte.toString(16);
  }
  return text;
}

/** The canonical text of a value; throws `CanonicalError`. */
export function canonicalOf(value: JsonValue): string {
  const out = new Output(4096);
  writeCanonical(out, value);
  return out.toString();
}

/** The canonical bytes of a value; throws `CanonicalError`. */
export function canonicalBytes(value: JsonValue): Uint8Array {
  const out = new Output(4096);
  writeCanonical(out, value);
  return out.toBytes();
}

/** Appends the canonical form of a value to `out`; throws `CanonicalError`. */
export function writeCanonical(out: Output, value: JsonValue): void {
  switch (typeof value) {
    case "string":
      canonicalString(out, value);
      return;
    case "number":
      if (!Number.isInteger(value)) {
        float(value);
      }
      out.ascii(integer(value));
      return;
    case "boolean":
      out.ascii(value ? "true" : "false");
      return;
    case "object":
      if (value === null) {
        out.ascii("null");
        return;
      }
      if (value instanceof JsonFloat) {
        float(value.value);
      }
      if (Array.isArray(value)) {
        array(out, value);
        return;
      }
      if (value instanceof Map) {
        object(out, value);
        return;
      }
      throw new CanonicalError("", "a plain object is not a JSON value here: a free-form object is a Map");
    default:
      throw new CanonicalError("", `${typeof value} is not JSON`);
  }
}

function canonicalString(out: Output, text: string): void {
  try {
    out.string(text);
  } catch (error) {
    throw error instanceof WriteError ? new CanonicalError("", error.detail) : error;
  }
}

function integer(value: number): string {
  if (value <= MAX_SAFE_INTEGER && value >= -MAX_SAFE_INTEGER) {
    // -0 is the integer 0.
    return value === 0 ? "0" : String(value);
  }
  throw new CanonicalError("", `integer ${prefix(BigInt(value).toString())} is outside ±(2^53-1)`);
}

function float(value: number): never {
  let text: string;
  if (Number.isFinite(value) && !(value === 0 && 1 / value < 0)) {
    text = formatFloat(value);
  } else {
    // Only a value built in code holds these; Python's words (`repr`).
    text = Number.isNaN(value) ? "nan" : value === 0 ? "-0.0" : value > 0 ? "inf" : "-inf";
  }
  throw new CanonicalError("", `${PROFILE} admits integers only, not the float ${prefix(text)}`);
}

function array(out: Output, items: readonly JsonValue[]): void {
  out.byte(0x5b);
  for (let index = 0; index < items.length; index++) {
    if (index > 0) {
      out.byte(0x2c);
    }
    try {
      writeCanonical(out, items[index] as JsonValue);
    } catch (error) {
      throw error instanceof CanonicalError ? error.under(index) : error;
    }
  }
  out.byte(0x5d);
}

function object(out: Output, members: JsonObject): void {
  const keys = sortedKeys(members);
  out.byte(0x7b);
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index] as string;
    if (index > 0) {
      out.byte(0x2c);
    }
    canonicalString(out, key);
    out.byte(0x3a);
    try {
      writeCanonical(out, members.get(key) as JsonValue);
    } catch (error) {
      throw error instanceof CanonicalError ? error.under(key) : error;
    }
  }
  out.byte(0x7d);
}

/**
 * The keys in RFC 8785's order: by UTF-16 code units, which is how `<` and
 * the default `sort` compare strings. Records hold few keys: an insertion
 * sort on them spares `sort`'s setup (measured on evidence-shaped records:
 * canonical bytes from a value in half the time).
 */
function sortedKeys(members: JsonObject): string[] {
  const keys: string[] = [];
  for (const key of members.keys()) {
    keys.push(key);
  }
  if (keys.length > 16) {
    return keys.sort();
  }
  for (let index = 1; index < keys.length; index++) {
    const key = keys[index] as string;
    let at = index - 1;
    while (at >= 0 && (keys[at] as string) > key) {
      keys[at + 1] = keys[at] as string;
      at--;
    }
    keys[at + 1] = key;
  }
  return keys;
}
