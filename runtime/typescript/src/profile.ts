/**
 * The strict profile's limits, every refusal's kind and message, and the
 * number rules, written once for every reader and writer of this runtime
 * (docs/strict-json.md). Mirrors `runtime/rust/src/profile.rs` and its folder
 * `profile/` (`limits.rs`, `refusal.rs`, `number.rs`, `text.rs`): the same
 * kinds, the same words, so that a refusal reads the same in Rust, Python and
 * TypeScript. It imports only `error.ts`, the base of every refusal.
 */

import { ConcordError } from "./error.js";

/** The deepest nesting of arrays and objects accepted, in every language. */
export const MAX_DEPTH = 64;
/** The default size limit: 64 MiB. */
export const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;
/** The largest integer every language (and JavaScript) holds exactly: 2^53-1. */
export const MAX_SAFE_INTEGER = 9007199254740991;

/** What the strict profile refuses: the same words as Rust's `ErrorKind::name` and Python's `kind`. */
export type ErrorKind =
  | "too-large"
  | "byte-order-mark"
  | "invalid-utf8"
  | "syntax"
  | "non-finite"
  | "too-deep"
  | "duplicate-key"
  | "lone-surrogate"
  | "unsafe-integer"
  | "negative-zero"
  | "number-out-of-range";

/**
 * One refusal before it has an offset, as Rust's `profile::Refusal`: what a
 * rule answers, carrying what its message shows (the refused literal as
 * written, the key after unescaping, the found character).
 */
export type Refusal =
  | { readonly refusal: "too-large"; readonly size: number; readonly limit: number }
  | { readonly refusal: "byte-order-mark" }
  | { readonly refusal: "invalid-utf8" }
  /** Not what the grammar allows here; `found` is the character, undefined at the end of input. */
  | { readonly refusal: "unexpected"; readonly expected: string; readonly found: string | undefined }
  | { readonly refusal: "invalid-literal" }
  /** A `-` with no digit after it. */
  | { readonly refusal: "invalid-number" }
  /** A character below U+0020 inside a string. */
  | { readonly refusal: "control-character"; readonly code: number }
  | { readonly refusal: "invalid-escape" }
  | { readonly refusal: "non-finite" }
  | { readonly refusal: "too-deep" }
  | { readonly refusal: "duplicate-key"; readonly key: string }
  /** A `\u` escape of this surrogate that is not half of a pair. */
  | { readonly refusal: "lone-surrogate"; readonly unit: number }
  | { readonly refusal: "unsafe-integer"; readonly literal: string }
  | { readonly refusal: "negative-zero" }
  | { readonly refusal: "number-out-of-range"; readonly literal: string };

/** The kind a refusal is reported as. */
export function refusalKind(refusal: Refusal): ErrorKind {
  switch (refusal.refusal) {
    case "unexpected":
    case "invalid-literal":
    case "invalid-number":
    case "control-character":
    case "invalid-escape":
      return "syntax";
    default:
      return refusal.refusal;
  }
}

/** The message, word for word Rust's `Refusal::message`. */
export function refusalMessage(refusal: Refusal): string {
  switch (refusal.refusal) {
    case "too-large":
      return `the input of ${refusal.size} bytes exceeds the limit of ${refusal.limit} bytes`;
    case "byte-order-mark":
      return "a byte order mark is not allowed";
    case "invalid-utf8":
      return "the input is not valid UTF-8";
    case "unexpected":
      return refusal.found === undefined
        ? "unexpected end of input"
        : `expected ${refusal.expected}, found ${quote(refusal.found)}`;
    case "invalid-literal":
      return "invalid literal";
    case "invalid-number":
      return "invalid number";
    case "control-character":
      return `control character U+${hex4(refusal.code).toUpperCase()} must be escaped in a string`;
    case "invalid-escape":
      return "invalid escape sequence";
    case "non-finite":
      return "NaN and Infinity are not JSON numbers";
    case "too-deep":
      return `nesting deeper than ${MAX_DEPTH} levels`;
    case "duplicate-key":
      return `duplicate key ${quote(prefix(refusal.key))}`;
    case "lone-surrogate":
      return `lone surrogate \\u${hex4(refusal.unit)}`;
    case "unsafe-integer":
      return `integer ${prefix(refusal.literal)} is outside ±(2^53-1)`;
    case "negative-zero":
      return "negative zero is refused";
    case "number-out-of-range":
      return `number ${prefix(refusal.literal)} overflows to infinity`;
  }
}

/**
 * The first problem in the input: its kind, UTF-8 byte offset and message
 * (`detail`). `message` and `toString()` are exactly the Display of Rust's
 * `strict::JsonError` and the `str()` of Python's: `"<kind> at byte <offset>: <detail>"`.
 * No pointer: the input is not JSON up to there (Rust's `Error::pointer` is `None`).
 */
export class JsonError extends ConcordError {
  override readonly name = "JsonError";
  readonly kind: ErrorKind;
  readonly pointer: undefined = undefined;
  /** The offset in the input's UTF-8 bytes (for a string input: in its UTF-8 encoding). */
  readonly offset: number;
  readonly detail: string;

  constructor(kind: ErrorKind, offset: number, detail: string) {
    super(`${kind} at byte ${offset}: ${detail}`);
    this.kind = kind;
    this.offset = offset;
    this.detail = detail;
  }

  /** `refusal` at `offset`. */
  static of(refusal: Refusal, offset: number): JsonError {
    return new JsonError(refusalKind(refusal), offset, refusalMessage(refusal));
  }

  override toString(): string {
    return this.message;
  }
}

/** How many characters of a refused value a message may show. */
const SHOWN = 20;

/**
 * At most 20 characters of `text`, then `…` when there is more: characters
 * are code points, as Rust's `chars()` and Python's `str` count them, not
 * UTF-16 units.
 */
export function prefix(text: string): string {
  if (text.length <= SHOWN) {
    return text;
  }
  let index = 0;
  for (let shown = 0; shown < SHOWN; shown++) {
    const unit = text.charCodeAt(index);
    index += unit >= 0xd800 && unit <= 0xdbff && isLow(text.charCodeAt(index + 1)) ? 2 : 1;
    if (index >= text.length) {
      return text;
    }
  }
  return `${text.slice(0, index)}…`;
}

function isLow(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

/**
 * `text` as a JSON string literal with concord's escaping (docs/output-bytes.md).
 * For a well-formed string (every surrogate paired), `JSON.stringify` escapes
 * exactly as concord does: `"` and `\`, `\b \f \n \r \t` short, other C0
 * controls as lowercase `\u00xx`, all else raw (DEL, U+2028 included). A lone
 * surrogate it writes as `\udxxx`; writers refuse one before they get here.
 */
export function quote(text: string): string {
  return JSON.stringify(text);
}

function hex4(value: number): string {
  return value.toString(16).padStart(4, "0");
}

/**
 * A JSON number literal's value, correctly rounded whatever its length (Rust's
 * `profile::float_value`): `Number` under 1000 characters, else a normalized
 * form (`0.<significant digits>e<exponent>`), as Rust's `parse_float`, so that
 * a long run of digits offsetting a large exponent (`0.000…001e1000001`)
 * reads as it should whatever the engine does with huge exponents.
 */
export function floatValue(text: string): number {
  if (text.length < 1000) {
    return Number(text);
  }
  const negative = text.charCodeAt(0) === 0x2d;
  const unsigned = negative ? text.slice(1) : text;
  const signed = (value: number): number => (negative ? -value : value);
  let marker = unsigned.indexOf("e");
  if (marker < 0) {
    marker = unsigned.indexOf("E");
  }
  const mantissa = marker < 0 ? unsigned : unsigned.slice(0, marker);
  let exponentText = marker < 0 ? "0" : unsigned.slice(marker + 1);
  const dot = mantissa.indexOf(".");
  const integer = dot < 0 ? mantissa : mantissa.slice(0, dot);
  const fraction = dot < 0 ? "" : mantissa.slice(dot + 1);
  let sign = 1;
  if (exponentText.startsWith("-")) {
    sign = -1;
    exponentText = exponentText.slice(1);
  } else if (exponentText.startsWith("+")) {
    exponentText = exponentText.slice(1);
  }
  exponentText = exponentText.replace(/^0+/, "");
  // Past 12 digits the exponent outweighs any mantissa an input can hold.
  const exponent = exponentText.length > 12 ? sign * 1e12 : sign * Number(exponentText || "0");
  const digits = integer + fraction;
  let leading = 0;
  while (leading < digits.length && digits.charCodeAt(leading) === 0x30) {
    leading++;
  }
  let end = digits.length;
  while (end > leading && digits.charCodeAt(end - 1) === 0x30) {
    end--;
  }
  if (end === leading) {
    return signed(0);
  }
  // The value is 0.<significant> × 10^decimal.
  const decimal = integer.length - leading + exponent;
  if (decimal > 400) {
    return signed(Number.POSITIVE_INFINITY);
  }
  if (decimal < -400) {
    return signed(0);
  }
  return signed(Number(`0.${digits.slice(leading, end)}e${decimal}`));
}
