/**
 * Canonical JSON under the profile `jcs-rfc8785-integer-v1`: RFC 8785 (JCS)
 * restricted to null, booleans, strings, arrays, objects and integers in
 * ±(2^53-1), and `sha256:<hex>` digests over it (docs/canonical-json.md).
 * Mirrors `runtime/rust/src/canonical.rs` (and Python's `canonical.py`): the
 * same bytes, and the same refusal, `not-canonical at "<pointer>": …`, for a
 * float (even `1.0`) or an unsafe integer.
 *
 * Keys are sorted by UTF-16 code units, which is how JavaScript compares
 * strings (`Array.prototype.sort`'s default order); strings are escaped as
 * the writer escapes them.
 */

import { formatFloat } from "./float.js";
import { MAX_SAFE_INTEGER, prefix } from "./profile.js";
import { sha256 } from "./sha256.js";
import { type ReadOptions, read } from "./strict.js";
import { JsonFloat, type JsonObject, type JsonValue } from "./value.js";
import { pointerToken, stringText, WriteError } from "./write.js";

/** The profile's name, as its requirement gives it (docs/decisions/canonical-json.md). */
export const PROFILE = "jcs-rfc8785-integer-v1";

/**
 * A value the profile does not admit, at a JSON pointer: `message` is Rust's
 * `CanonicalError::NotCanonical` Display, `not-canonical at "<pointer>": <detail>`.
 * (Input the strict reader refuses throws its `JsonError`, whose text is
 * Rust's `CanonicalError::Read` Display.)
 */
export class CanonicalError extends Error {
  readonly kind = "not-canonical";
  pointer: string;
  readonly detail: string;

  constructor(pointer: string, detail: string) {
    super(`not-canonical at "${pointer}": ${detail}`);
    this.name = "CanonicalError";
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

const encoder = new TextEncoder();

/** Reads `input` strictly and writes its canonical form (UTF-8). */
export function canonicalize(input: Uint8Array | string, options?: ReadOptions): Uint8Array {
  return encoder.encode(canonicalOf(read(input, options)));
}

/** `sha256:<hex>` over the canonical form of `input`. */
export function digestJson(input: Uint8Array | string, options?: ReadOptions): string {
  return digestBytes(canonicalize(input, options));
}

/** `sha256:<hex>` over the canonical form of a value. */
export function digest(value: JsonValue): string {
  return digestBytes(encoder.encode(canonicalOf(value)));
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
  switch (typeof value) {
    case "string":
      return canonicalString(value);
    case "number":
      return Number.isInteger(value) ? integer(value) : float(value);
    case "boolean":
      return value ? "true" : "false";
    case "object":
      if (value === null) {
        return "null";
      }
      if (value instanceof JsonFloat) {
        return float(value.value);
      }
      if (Array.isArray(value)) {
        return array(value);
      }
      if (value instanceof Map) {
        return object(value);
      }
      throw new CanonicalError("", "a plain object is not a JSON value here: a free-form object is a Map");
    default:
      throw new CanonicalError("", `${typeof value} is not JSON`);
  }
}

function canonicalString(text: string): string {
  try {
    return stringText(text);
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

function array(items: readonly JsonValue[]): string {
  let text = "[";
  for (let index = 0; index < items.length; index++) {
    if (index > 0) {
      text += ",";
    }
    try {
      text += canonicalOf(items[index] as JsonValue);
    } catch (error) {
      throw error instanceof CanonicalError ? error.under(index) : error;
    }
  }
  return `${text}]`;
}

function object(members: JsonObject): string {
  // The default sort compares UTF-16 code units, as RFC 8785 orders keys.
  const keys = [...members.keys()].sort();
  let text = "{";
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index] as string;
    if (index > 0) {
      text += ",";
    }
    text += canonicalString(key);
    text += ":";
    try {
      text += canonicalOf(members.get(key) as JsonValue);
    } catch (error) {
      throw error instanceof CanonicalError ? error.under(key) : error;
    }
  }
  return `${text}}`;
}
