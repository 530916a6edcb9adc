/**
 * The compact JSON writer's primitives, for the typed writers of generated
 * code and for free-form values (`writeValue`): the bytes Rust and Python
 * write (docs/output-bytes.md), and the same refusals. Mirrors
 * `runtime/rust/src/write.rs` (and Python's `_json.py`): a value that is
 * written must read back under the strict profile, so non-finite floats,
 * negative zero, integers outside ±(2^53-1) and nesting deeper than 64 are
 * refused, naming the JSON pointer, as Rust's `Error::Write { pointer, message }`.
 *
 * The writers append UTF-8 to an `Output`, a growable byte buffer: measured
 * on 8 MiB of records, building the JSON as a JS string (`+=` or a list of
 * parts joined) spent two thirds of its time collecting garbage and took
 * five times as long as writing bytes. `Output.toString()` decodes them once
 * where a string is wanted.
 *
 * Strings are escaped as canonical JSON escapes them. A JS string can hold a
 * lone surrogate, which no UTF-8 (and no Rust `String`) can: it is refused,
 * in Python's words (`a string holds the lone surrogate U+D800`), never
 * replaced by U+FFFD as `TextEncoder` would.
 */

import { ConcordError } from "./error.js";
import { formatFloat, nonFiniteText } from "./float.js";
import { MAX_DEPTH, prefix } from "./profile.js";
import { JsonFloat, type JsonValue } from "./value.js";

/**
 * A value that cannot be written, at a JSON pointer: `message` is Rust's
 * `Error::Write` Display, `at "<pointer>": <detail>`; `kind` is `write`, as
 * Rust's and Python's `Error::kind` say. A primitive throws it with an empty
 * pointer; each container adds its token on the way out (`under`), so that
 * nothing is paid for pointers until something is refused.
 */
export class WriteError extends ConcordError {
  override readonly name = "WriteError";
  readonly kind = "write";
  /** The JSON pointer of the refused value (RFC 6901). */
  pointer: string;
  /** No offset: a value is refused, not an input. */
  readonly offset: undefined = undefined;
  readonly detail: string;

  constructor(pointer: string, detail: string) {
    super(`at "${pointer}": ${detail}`);
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

const HEX = "0123456789abcdef";
// For each ASCII unit: 0 to copy it, else the letter of its short escape, or `u`.
const ESCAPE = new Uint8Array(128);
for (let code = 0; code < 0x20; code++) {
  ESCAPE[code] = 0x75;
}
ESCAPE[0x08] = 0x62;
ESCAPE[0x09] = 0x74;
ESCAPE[0x0a] = 0x6e;
ESCAPE[0x0c] = 0x66;
ESCAPE[0x0d] = 0x72;
ESCAPE[0x22] = 0x22;
ESCAPE[0x5c] = 0x5c;

const decoder = new TextDecoder();

/** How many decimals `Output.float` tries to write a value with before it asks `String`. */
const SHORT_FRACTION = 6;

/** Where the writers append: UTF-8 bytes in a buffer that grows by doubling. */
export class Output {
  /** The buffer; its first `length` bytes are written. */
  buffer: Uint8Array;
  length = 0;

  constructor(capacity = 256) {
    this.buffer = new Uint8Array(capacity);
  }

  /** Room for `more` bytes after `length`. */
  reserve(more: number): void {
    if (this.length + more > this.buffer.length) {
      this.grow(this.length + more);
    }
  }

  /** A buffer of at least `needed` bytes, twice as large as the last as often as it takes. */
  private grow(needed: number): void {
    let capacity = Math.max(this.buffer.length * 2, 64);
    while (capacity < needed) {
      capacity *= 2;
    }
    const grown = new Uint8Array(capacity);
    grown.set(this.buffer.subarray(0, this.length));
    this.buffer = grown;
  }

  /** Appends one ASCII byte (`,`, `:`, a bracket). */
  byte(byte: number): void {
    if (this.length === this.buffer.length) {
      this.reserve(1);
    }
    this.buffer[this.length++] = byte;
  }

  /** Appends bytes as they are (a key written once, ahead of time). */
  bytes(data: Uint8Array): void {
    const size = data.length;
    this.reserve(size);
    const buffer = this.buffer;
    let at = this.length;
    for (let index = 0; index < size; index++) {
      buffer[at++] = data[index] as number;
    }
    this.length = at;
  }

  /** Appends ASCII text (a number's text, a literal) as it is. */
  ascii(text: string): void {
    this.reserve(text.length);
    const buffer = this.buffer;
    let at = this.length;
    for (let index = 0; index < text.length; index++) {
      buffer[at++] = text.charCodeAt(index);
    }
    this.length = at;
  }

  /**
   * Appends `text` as a JSON string in UTF-8: `"` and `\` escaped, `\b \f
   * \n \r \t` short, other C0 controls as lowercase `\u00xx`, all else raw;
   * a lone surrogate is refused (`WriteError`, no pointer).
   */
  string(text: string): void {
    const units = text.length;
    this.byte(0x22);
    let index = 0;
    while (index < units) {
      // A window at a time, with room for its worst case (6 bytes a unit,
      // `\u00xx`): a long string reserves little more than it needs.
      const stop = Math.min(units, index + 8192);
      this.reserve((stop - index) * 6);
      const buffer = this.buffer;
      let at = this.length;
      for (; index < stop; index++) {
        const code = text.charCodeAt(index);
        if (code < 0x80) {
          const letter = ESCAPE[code] as number;
          if (letter === 0) {
            buffer[at++] = code;
          } else if (letter === 0x75) {
            buffer[at++] = 0x5c;
            buffer[at++] = 0x75;
            buffer[at++] = 0x30;
            buffer[at++] = 0x30;
            buffer[at++] = HEX.charCodeAt(code >> 4);
            buffer[at++] = HEX.charCodeAt(code & 15);
          } else {
            buffer[at++] = 0x5c;
            buffer[at++] = letter;
          }
        } else if (code < 0x800) {
          buffer[at++] = 0xc0 | (code >> 6);
          buffer[at++] = 0x80 | (code & 63);
        } else if (code < 0xd800 || code > 0xdfff) {
          buffer[at++] = 0xe0 | (code >> 12);
          buffer[at++] = 0x80 | ((code >> 6) & 63);
          buffer[at++] = 0x80 | (code & 63);
        } else {
          const low = text.charCodeAt(index + 1);
          if (code > 0xdbff || !(low >= 0xdc00 && low <= 0xdfff)) {
            throw new WriteError("", `a string holds the lone surrogate U+${code.toString(16).toUpperCase()}`);
          }
          // The pair's 4 bytes fit in the room of its first unit.
          index++;
          const point = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
          buffer[at++] = 0xf0 | (point >> 18);
          buffer[at++] = 0x80 | ((point >> 12) & 63);
          buffer[at++] = 0x80 | ((point >> 6) & 63);
          buffer[at++] = 0x80 | (point & 63);
        }
      }
      this.length = at;
    }
    this.byte(0x22);
  }

  /**
   * Appends a safe integer's digits (`-0` as `0`), as `integerText` writes
   * it, without making its text; any other number as `integerText` has it.
   */
  integer(value: number): void {
    if (!Number.isSafeInteger(value)) {
      this.ascii(integerText(value));
      return;
    }
    this.reserve(17);
    const buffer = this.buffer;
    let at = this.length;
    let rest = value;
    if (rest < 0) {
      buffer[at++] = 0x2d;
      rest = -rest;
    }
    // The digits from the last: exact in int32 arithmetic below 2^31, in doubles above.
    let digits = 1;
    for (let bound = 10; bound <= rest && digits < 16; bound *= 10) {
      digits++;
    }
    let index = at + digits;
    at = index;
    if (rest < 0x80000000) {
      let small = rest | 0;
      do {
        const next = (small / 10) | 0;
        buffer[--index] = 0x30 + small - next * 10;
        small = next;
      } while (small !== 0);
    } else {
      do {
        const digit = rest % 10;
        buffer[--index] = 0x30 + digit;
        rest = (rest - digit) / 10;
      } while (rest !== 0);
    }
    this.length = at;
  }

  /** Appends a float in concord's layout, as `floatText` writes it (and refuses what it refuses). */
  float(value: number): void {
    const magnitude = value < 0 ? -value : value;
    // The common range, where `formatFloat` is `String` and `.0` for an integral value: without the concatenation.
    if (magnitude >= 1e-5 && magnitude < 1e16) {
      if (magnitude < 1e15 && this.shortDecimal(value < 0, magnitude)) {
        return;
      }
      this.ascii(String(value));
      if (Number.isInteger(value)) {
        this.reserve(2);
        this.buffer[this.length++] = 0x2e;
        this.buffer[this.length++] = 0x30;
      }
      return;
    }
    this.ascii(floatText(value));
  }

  /**
   * Appends `magnitude` (signed) if it is `m / 10^k` for some `k` up to
   * `SHORT_FRACTION` and an `m` of at most 15 digits, and says whether it was.
   * That text is the shortest that reads back as the value, which `String`
   * writes: it reads back (both `m` and `10^k` are exact doubles, so `m / 10^k`
   * is the correctly rounded value of the text); no shorter text does (the
   * least such `k` is taken, and a text with fewer digits would have fewer
   * decimals); and no other text of as many digits does (two decimals of at
   * most 15 significant digits are never the same double).
   *
   * One division tells: if some `k` fits, the largest `K` tried fits too
   * (`m × 10^(K-k)` over `10^K` is the same fraction), and the least `k` is
   * `K` less the trailing zeros of that `m`. `m` is found by rounding
   * `magnitude × 10^K`, which is within 1/8 of it below 2^50.
   */
  private shortDecimal(negative: boolean, magnitude: number): boolean {
    let decimals = SHORT_FRACTION;
    let scale = 10 ** SHORT_FRACTION;
    while (magnitude * scale >= 1e15) {
      if (decimals === 0) {
        return false;
      }
      decimals--;
      scale /= 10;
    }
    let digits = Math.round(magnitude * scale);
    if (digits >= 1e15 || digits / scale !== magnitude) {
      return false;
    }
    while (decimals > 0 && digits % 10 === 0) {
      digits /= 10;
      scale /= 10;
      decimals--;
    }
    if (negative) {
      this.byte(0x2d);
    }
    if (decimals === 0) {
      this.integer(digits);
      this.reserve(2);
      this.buffer[this.length++] = 0x2e;
      this.buffer[this.length++] = 0x30;
      return true;
    }
    let fraction = digits % scale;
    this.integer((digits - fraction) / scale);
    this.reserve(decimals + 1);
    const buffer = this.buffer;
    const at = this.length;
    buffer[at] = 0x2e;
    for (let index = at + decimals; index > at; index--) {
      const digit = fraction % 10;
      buffer[index] = 0x30 + digit;
      fraction = (fraction - digit) / 10;
    }
    this.length = at + decimals + 1;
    return true;
  }

  /** The bytes written (a copy: the buffer is reused as it grows). */
  toBytes(): Uint8Array {
    return this.buffer.slice(0, this.length);
  }

  /** The text written. */
  toString(): string {
    return decoder.decode(this.buffer.subarray(0, this.length));
  }
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

/** `text` as a JSON string (concord's escaping); a lone surrogate is refused. */
export function stringText(text: string): string {
  const out = new Output(text.length + 2);
  out.string(text);
  return out.toString();
}

/** Appends `text` as a JSON string. */
export function writeString(out: Output, text: string): void {
  out.string(text);
}

/** Appends an integer (`5`). */
export function writeInteger(out: Output, value: number): void {
  out.ascii(integerText(value));
}

/** Appends a float in concord's layout (`5.0`, `1e+20`): what a `number` property holds. */
export function writeFloat(out: Output, value: number): void {
  out.ascii(floatText(value));
}

/**
 * A free-form value as compact JSON text: members in their order, an
 * integral `number` as an integer (`5`), a `JsonFloat` or any other `number`
 * as a float (`5.0`, `5.5`). So an integral `number` beyond ±(2^53-1) is an
 * unsafe integer and refused: wrap it in a `JsonFloat` to write it as a
 * float (`1e+20`), as reading `1e20` gives. Refusals are `WriteError`s with
 * the pointer below this value. (`writeValueTo` appends the bytes instead.)
 */
export function writeValue(value: JsonValue): string {
  const out = new Output(4096);
  writeValueTo(out, value);
  return out.toString();
}

/**
 * Appends a free-form value, as `writeValue` writes it. `depth` is how many
 * arrays and objects are open around it (inside a record), so that nesting
 * is limited over the whole output.
 */
export function writeValueTo(out: Output, value: JsonValue, depth = 0): void {
  switch (typeof value) {
    case "string":
      out.string(value);
      return;
    case "number":
      out.ascii(Number.isInteger(value) ? integerText(value) : floatText(value));
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
        out.ascii(floatText(value.value));
        return;
      }
      if (depth >= MAX_DEPTH && (Array.isArray(value) || value instanceof Map)) {
        throw new WriteError("", `nesting deeper than ${MAX_DEPTH} levels`);
      }
      if (Array.isArray(value)) {
        writeArray(out, value, depth + 1);
        return;
      }
      if (value instanceof Map) {
        writeObject(out, value, depth + 1);
        return;
      }
      throw new WriteError("", "cannot write a plain object as JSON: a free-form object is a Map");
    default:
      throw new WriteError("", `cannot write ${typeof value} as JSON`);
  }
}

function writeArray(out: Output, items: readonly JsonValue[], depth: number): void {
  out.byte(0x5b);
  for (let index = 0; index < items.length; index++) {
    if (index > 0) {
      out.byte(0x2c);
    }
    try {
      writeValueTo(out, items[index] as JsonValue, depth);
    } catch (error) {
      throw error instanceof WriteError ? error.under(index) : error;
    }
  }
  out.byte(0x5d);
}

function writeObject(out: Output, members: ReadonlyMap<string, JsonValue>, depth: number): void {
  out.byte(0x7b);
  let first = true;
  for (const [key, item] of members) {
    if (!first) {
      out.byte(0x2c);
    }
    first = false;
    // A key that cannot be written is the object's refusal, as in Python's writer.
    out.string(key);
    out.byte(0x3a);
    try {
      writeValueTo(out, item, depth);
    } catch (error) {
      throw error instanceof WriteError ? error.under(key) : error;
    }
  }
  out.byte(0x7d);
}

const encoder = new TextEncoder();

/** The UTF-8 bytes of written JSON text (whose strings the writers have checked). */
export function toBytes(text: string): Uint8Array {
  return encoder.encode(text);
}
