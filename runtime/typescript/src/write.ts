/**
 * The compact JSON writer's primitives, for the typed writers of generated
 * code and for free-form values (`writeValue`): the bytes Rust and Python
 * write (docs/output-bytes.md), and the same refusals. Mirrors
 * `runtime/rust/src/write.rs` (and Python's `_json.py`): a value that is
 * written must read back under the strict profile, so non-finite floats,
 * negative zero, integers outside ±(2^53-1) and nesting deeper than 64 are
 * refused, naming the JSON pointer, as Rust's `Error::Write { pointer, message }`.
 *
 * Output is a JS string (V8 joins appended strings cheaply); `toBytes` gives
 * its UTF-8. Strings are escaped as canonical JSON escapes them; a JS string
 * can hold a lone surrogate, which no UTF-8 (and no Rust `String`) can: it is
 * refused, in Python's words (`a string holds the lone surrogate U+D800`),
 * never replaced by U+FFFD as `TextEncoder` would.
 */

import { formatFloat, nonFiniteText } from "./float.js";
import { firstLoneSurrogate, wellFormed } from "./lexer.js";
import { MAX_DEPTH, prefix, quote } from "./profile.js";
import { JsonFloat, type JsonValue } from "./value.js";

/**
 * A value that cannot be written, at a JSON pointer: `message` is Rust's
 * `Error::Write` Display, `at "<pointer>": <detail>`; `kind` is `write`, as
 * Rust's and Python's `Error::kind` say. A primitive throws it with an empty
 * pointer; each container adds its token on the way out (`under`), so that
 * nothing is paid for pointers until something is refused.
 */
export class WriteError extends Error {
  readonly kind = "write";
  /** The JSON pointer of the refused value (RFC 6901). */
  pointer: string;
  readonly detail: string;

  constructor(pointer: string, detail: string) {
    super(`at "${pointer}": ${detail}`);
    this.name = "WriteError";
    this.pointer = pointer;
    this.detail = detail;
  }

  /** The same refusal seen from the container holding the refused value at `token`. */
  under(token: string | number): this {
    this.pointer = `/${pointerToken(String(token))}${this.pointer}`;
    this.message = `at "${this.pointer}": ${this.detail}`;
    return this;
  }

  override toString(): string {
    return this.message;
  }
}

/** One reference token of a JSON pointer: `~` as `~0`, `/` as `~1` (Rust's `pointer::escape_token`). */
export function pointerToken(token: string): string {
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Where the writers append: a string, grown by `+=`. */
export class Output {
  text = "";
}

/** `text` as a JSON string: concord's escaping; a lone surrogate is refused. */
export function stringText(text: string): string {
  if (!wellFormed(text)) {
    const unit = text.charCodeAt(firstLoneSurrogate(text));
    throw new WriteError("", `a string holds the lone surrogate U+${unit.toString(16).toUpperCase()}`);
  }
  return quote(text);
}

/** An integer's text: within ±(2^53-1) (and -0 is the integer 0). */
export function integerText(value: number): string {
  if (Number.isSafeInteger(value)) {
    return value === 0 ? "0" : String(value);
  }
  if (!Number.isFinite(value)) {
    throw new WriteError("", `${nonFiniteText(value)} is not a JSON number`);
  }
  if (!Number.isInteger(value)) {
    throw new WriteError("", `${formatFloat(value)} is not an integer`);
  }
  throw new WriteError(
    "",
    `integer ${prefix(BigInt(value).toString())} is outside ±(2^53-1), which the strict profile refuses`,
  );
}

/** A float's text in concord's layout: finite, not negative zero. */
export function floatText(value: number): string {
  if (value === 0 && 1 / value < 0) {
    throw new WriteError("", "negative zero is refused");
  }
  if (!Number.isFinite(value)) {
    throw new WriteError("", `${nonFiniteText(value)} is not a JSON number`);
  }
  return formatFloat(value);
}

/** Appends `text` as a JSON string. */
export function writeString(out: Output, text: string): void {
  out.text += stringText(text);
}

/** Appends an integer (`5`). */
export function writeInteger(out: Output, value: number): void {
  out.text += integerText(value);
}

/** Appends a float in concord's layout (`5.0`, `1e+20`): what a `number` property holds. */
export function writeFloat(out: Output, value: number): void {
  out.text += floatText(value);
}

/**
 * A free-form value as compact JSON: members in their order, an integral
 * `number` as an integer (`5`), a `JsonFloat` or any other `number` as a
 * float (`5.0`, `5.5`). `depth` is how many arrays and objects are open
 * around it (inside a record), so that nesting is limited over the whole
 * output. Refusals are `WriteError`s with the pointer below this value.
 */
export function writeValue(value: JsonValue, depth = 0): string {
  switch (typeof value) {
    case "string":
      return stringText(value);
    case "number":
      return Number.isInteger(value) ? integerText(value) : floatText(value);
    case "boolean":
      return value ? "true" : "false";
    case "object":
      if (value === null) {
        return "null";
      }
      if (value instanceof JsonFloat) {
        return floatText(value.value);
      }
      if (depth >= MAX_DEPTH && (Array.isArray(value) || value instanceof Map)) {
        throw new WriteError("", `nesting deeper than ${MAX_DEPTH} levels`);
      }
      if (Array.isArray(value)) {
        return arrayText(value, depth + 1);
      }
      if (value instanceof Map) {
        return objectText(value, depth + 1);
      }
      throw new WriteError("", "cannot write a plain object as JSON: a free-form object is a Map");
    default:
      throw new WriteError("", `cannot write ${typeof value} as JSON`);
  }
}

function arrayText(items: readonly JsonValue[], depth: number): string {
  let text = "[";
  for (let index = 0; index < items.length; index++) {
    if (index > 0) {
      text += ",";
    }
    try {
      text += writeValue(items[index] as JsonValue, depth);
    } catch (error) {
      throw error instanceof WriteError ? error.under(index) : error;
    }
  }
  return `${text}]`;
}

function objectText(members: ReadonlyMap<string, JsonValue>, depth: number): string {
  let text = "{";
  let first = true;
  for (const [key, item] of members) {
    if (!first) {
      text += ",";
    }
    first = false;
    // A key that cannot be written is the object's refusal, as in Python's writer.
    text += stringText(key);
    text += ":";
    try {
      text += writeValue(item, depth);
    } catch (error) {
      throw error instanceof WriteError ? error.under(key) : error;
    }
  }
  return `${text}}`;
}

const encoder = new TextEncoder();

/** The UTF-8 bytes of written JSON (whose strings the writers have checked). */
export function toBytes(text: string): Uint8Array {
  return encoder.encode(text);
}
