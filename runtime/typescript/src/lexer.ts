/**
 * The shared low-level reader of the strict profile: the input rules
 * (`decode`: size, byte order mark, UTF-8, in Rust's order, `profile::input`)
 * and a `Lexer` over the decoded text that every reader of this runtime walks
 * (the reference reader `strict.ts`, the fast check, the typed readers of
 * generated code). Mirrors the reading half of `runtime/rust/src/strict.rs`
 * (which rule is refused where, at which byte offset) with the rules of
 * `runtime/rust/src/profile/` (`number.rs`, `string.rs`).
 *
 * The input is decoded to a JS string once, and read with `charCodeAt`:
 * a string without escapes is taken with one `slice`, and nothing is
 * allocated per character. Positions are UTF-16 indices into the text; the
 * UTF-8 byte offset a refusal reports is worked out from the index only when
 * a refusal is made (`Source.byteOffset`).
 */

import { DEFAULT_MAX_BYTES, floatValue, JsonError, MAX_DEPTH, MAX_SAFE_INTEGER, type Refusal } from "./profile.js";

/** A decoded input: its text, and the way back from a text index to a UTF-8 byte offset. */
export class Source {
  readonly text: string;
  /** Whether the text is all ASCII (each index is its byte offset): known for bytes, not for a string. */
  private readonly ascii: boolean;

  constructor(text: string, ascii: boolean) {
    this.text = text;
    this.ascii = ascii;
  }

  /** The UTF-8 byte offset of the character at `index` (a lone surrogate counts 3 bytes). */
  byteOffset(index: number): number {
    return this.ascii ? index : utf8Length(this.text, index);
  }
}

/** The UTF-8 length of `text`'s first `end` UTF-16 units; a lone surrogate counts 3, as WTF-8 and Python's `surrogatepass` write it. */
export function utf8Length(text: string, end: number = text.length): number {
  let bytes = 0;
  for (let index = 0; index < end; index++) {
    const unit = text.charCodeAt(index);
    if (unit < 0x80) {
      bytes += 1;
    } else if (unit < 0x800) {
      bytes += 2;
    } else if (
      unit >= 0xd800 &&
      unit <= 0xdbff &&
      index + 1 < text.length &&
      isLowSurrogate(text.charCodeAt(index + 1))
    ) {
      bytes += 4;
      index++;
    } else {
      bytes += 3;
    }
  }
  return bytes;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

// Fatal, so invalid UTF-8 is refused, not replaced; `ignoreBOM`, so a byte
// order mark stays in the text (it is refused before decoding anyway).
const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * The profile's rules on the input as a whole, in Rust's order: at most
 * `maxBytes` bytes (refused at offset `maxBytes`), no byte order mark (at 0),
 * UTF-8 throughout (at the first invalid byte). A `Uint8Array` is decoded
 * here, once.
 *
 * A `string` is taken as the UTF-8 bytes it stands for: its size is its UTF-8
 * length, a leading U+FEFF is a byte order mark, and a lone surrogate (which
 * no UTF-8 can hold) is refused as `invalid-utf8` at the byte offset where
 * its encoding would start. That is Rust's verdict on the bytes Python sends
 * for such a string (`str.encode("utf-8", "surrogatepass")`, as its runtime
 * does in `pinned.py` and `_model.py`): `ED A0 80` for U+D800 is refused at
 * its first byte. (A JS string's surrogate pair is one character, never two
 * lone surrogates as in Python.)
 */
export function decode(input: Uint8Array | string, maxBytes: number = DEFAULT_MAX_BYTES): Source {
  if (!(maxBytes >= 0)) {
    throw new RangeError(`maxBytes must be a number of bytes, not ${maxBytes}`);
  }
  if (typeof input === "string") {
    return decodeString(input, maxBytes);
  }
  const size = input.length;
  if (size > maxBytes) {
    throw JsonError.of({ refusal: "too-large", size, limit: maxBytes }, maxBytes);
  }
  if (size >= 3 && input[0] === 0xef && input[1] === 0xbb && input[2] === 0xbf) {
    throw JsonError.of({ refusal: "byte-order-mark" }, 0);
  }
  let text: string;
  try {
    text = decoder.decode(input);
  } catch (error) {
    const at = firstInvalidByte(input);
    // Valid bytes the decoder would not take (a view of shared memory, in some browsers): its own error.
    throw at < 0 ? error : JsonError.of({ refusal: "invalid-utf8" }, at);
  }
  return new Source(text, text.length === size);
}

function decodeString(text: string, maxBytes: number): Source {
  // UTF-8 takes 1 to 3 bytes per UTF-16 unit: measure only where it may matter.
  if (text.length * 3 > maxBytes) {
    const size = utf8Length(text);
    if (size > maxBytes) {
      throw JsonError.of({ refusal: "too-large", size, limit: maxBytes }, maxBytes);
    }
  }
  if (text.charCodeAt(0) === 0xfeff) {
    throw JsonError.of({ refusal: "byte-order-mark" }, 0);
  }
  if (!wellFormed(text)) {
    throw JsonError.of({ refusal: "invalid-utf8" }, utf8Length(text, firstLoneSurrogate(text)));
  }
  return new Source(text, false);
}

// `String.prototype.isWellFormed` (ES2024: Node 20, and browsers since 2023),
// else a regular expression.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const nativeWellFormed = (String.prototype as { isWellFormed?: (this: string) => boolean }).isWellFormed;

/** Whether every surrogate in `text` is half of a pair. */
export function wellFormed(text: string): boolean {
  return nativeWellFormed === undefined ? !LONE_SURROGATE.test(text) : nativeWellFormed.call(text);
}

/** The index of the first lone surrogate in `text`, or -1. */
export function firstLoneSurrogate(text: string): number {
  const match = LONE_SURROGATE.exec(text);
  return match === null ? -1 : match.index;
}

/**
 * The offset of the first byte that is not part of valid UTF-8, as Rust's
 * `Utf8Error::valid_up_to` (the start of the first invalid or cut-off
 * sequence: overlong forms, encoded surrogates and code points past U+10FFFF
 * are invalid), or -1. Only run once the fast decoder has refused.
 */
export function firstInvalidByte(bytes: Uint8Array): number {
  const size = bytes.length;
  let index = 0;
  while (index < size) {
    const lead = bytes[index] as number;
    if (lead < 0x80) {
      index++;
      continue;
    }
    // The range the second byte must lie in, and how many bytes in all.
    let low = 0x80;
    let high = 0xbf;
    let width: number;
    if (lead >= 0xc2 && lead <= 0xdf) {
      width = 2;
    } else if (lead >= 0xe0 && lead <= 0xef) {
      width = 3;
      if (lead === 0xe0) {
        low = 0xa0;
      } else if (lead === 0xed) {
        high = 0x9f;
      }
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      width = 4;
      if (lead === 0xf0) {
        low = 0x90;
      } else if (lead === 0xf4) {
        high = 0x8f;
      }
    } else {
      return index;
    }
    if (index + 1 >= size) {
      return index;
    }
    const second = bytes[index + 1] as number;
    if (second < low || second > high) {
      return index;
    }
    for (let next = 2; next < width; next++) {
      const byte = index + next < size ? (bytes[index + next] as number) : 0;
      if (byte < 0x80 || byte > 0xbf) {
        return index;
      }
    }
    index += width;
  }
  return -1;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/** 10^0 to 10^22: the powers of ten a double holds exactly. */
const POWERS_OF_TEN = Array.from({ length: 23 }, (_, power) => 10 ** power);

/**
 * Keys and strings of at most this many UTF-16 units are cached (`keyText`,
 * `stringValue`), each in a table of `CACHE_MASK + 1` slots, as JSON.parse
 * internalizes keys: repeated through an input, they are allocated once.
 */
const CACHE_LONGEST = 32;
const CACHE_MASK = 1023;
const keyCache: (string | undefined)[] = new Array(CACHE_MASK + 1).fill(undefined);
const valueCache: (string | undefined)[] = new Array(CACHE_MASK + 1).fill(undefined);

/** Whether `key` can be taken in place by `takeKey`: no `"`, `\` or control character. */
export function plainKey(key: string): boolean {
  for (let index = 0; index < key.length; index++) {
    const code = key.charCodeAt(index);
    if (code === QUOTE || code === BACKSLASH || code < 0x20) {
      return false;
    }
  }
  return true;
}
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;
const NON_FINITE = ["NaN", "Infinity", "-Infinity"];

/**
 * Reads the strict profile over a decoded text, at `pos`. Every method that
 * meets something the profile refuses throws the `JsonError` Rust's
 * reference reader reports there: the same kind, UTF-8 byte offset and
 * message.
 *
 * Values are read by dispatching on `peek()` after `ws()`: `"` a string
 * (`string()`), `{` an object and `[` an array (`enter()`, then
 * `moreMembers`/`key`/`colon` or `moreItems`), `-` or a digit a number
 * (`number()`), anything else `literal()` (which refuses what starts no
 * value). `skipValue()` reads one value strictly and drops it.
 */
export class Lexer {
  readonly source: Source;
  readonly text: string;
  /** The index (in UTF-16 units of `text`) of the next character to read. */
  pos = 0;
  /** How many arrays and objects are open. */
  depth = 0;
  /** Whether the last `number()` was an integer literal: no fraction, no exponent. */
  lastNumberWasInteger = false;
  /** Where the last key `key()` read starts (its quote): a duplicate key is refused there. */
  keyStart = 0;
  /** Where the escape `escape()` read last ends. */
  private escapeEnd = 0;

  constructor(source: Source) {
    this.source = source;
    this.text = source.text;
  }

  /** `refusal` at the text index `index` (default: `pos`), with its UTF-8 byte offset. */
  error(refusal: Refusal, index: number = this.pos): JsonError {
    return JsonError.of(refusal, this.source.byteOffset(index));
  }

  /** `expected <expected>, found "<the character at pos>"`, or `unexpected end of input`. */
  unexpected(expected: string): JsonError {
    const code = this.text.codePointAt(this.pos);
    return this.error({
      refusal: "unexpected",
      expected,
      found: code === undefined ? undefined : String.fromCodePoint(code),
    });
  }

  /** Skips JSON whitespace (space, tab, line feed, carriage return). */
  ws(): void {
    const text = this.text;
    let pos = this.pos;
    let code = text.charCodeAt(pos);
    // Compact JSON has none: one comparison.
    if (code > 0x20) {
      return;
    }
    while (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09) {
      code = text.charCodeAt(++pos);
    }
    this.pos = pos;
  }

  /** The UTF-16 unit at `pos`, or -1 at the end of the input. */
  peek(): number {
    return this.pos < this.text.length ? this.text.charCodeAt(this.pos) : -1;
  }

  /** Refuses the rest of the input unless it is whitespace. */
  end(): void {
    this.ws();
    if (this.pos < this.text.length) {
      throw this.unexpected("the end of input after the JSON value");
    }
  }

  /** At `{` or `[`: refuses a level past `MAX_DEPTH` there, else takes the bracket and counts the level. */
  enter(): void {
    if (this.depth >= MAX_DEPTH) {
      throw this.error({ refusal: "too-deep" });
    }
    this.depth++;
    this.pos++;
  }

  /** At `}` or `]`: takes the bracket and uncounts the level. */
  leave(): void {
    this.depth--;
    this.pos++;
  }

  /**
   * In an entered object, before its first member (`first`) or after a
   * member's value: whether a member follows (then read `key(first)`,
   * `colon()` and the value). At `}` the object is left and the answer is
   * false; after a member, anything but `,` and `}` is refused.
   */
  moreMembers(first: boolean): boolean {
    this.ws();
    const code = this.text.charCodeAt(this.pos);
    if (code === 0x7d) {
      this.leave();
      return false;
    }
    if (first) {
      return true;
    }
    if (code === 0x2c) {
      this.pos++;
      return true;
    }
    throw this.unexpected('"," or "}"');
  }

  /** In an entered array, as `moreMembers`: whether an item follows (`,` taken), or `]` left it. */
  moreItems(first: boolean): boolean {
    this.ws();
    const code = this.text.charCodeAt(this.pos);
    if (code === 0x5d) {
      this.leave();
      return false;
    }
    if (first) {
      return true;
    }
    if (code === 0x2c) {
      this.pos++;
      return true;
    }
    throw this.unexpected('"," or "]"');
  }

  /**
   * A member's key, unescaped (whitespace before it skipped); `keyStart` is
   * where it starts. The caller refuses a key its object already has with
   * `duplicateKey` before reading `colon()`, as Rust's reader does.
   */
  key(first: boolean): string {
    this.ws();
    if (this.text.charCodeAt(this.pos) !== QUOTE) {
      throw this.unexpected(first ? 'a string key or "}"' : "a string key");
    }
    this.keyStart = this.pos;
    return this.keyText();
  }

  /**
   * `key(first)` in two steps, for readers that know which keys to expect:
   * `openKey(first)` skips whitespace, refuses anything but a key's quote
   * and sets `keyStart`; then `takeKey(expected)` takes the key if it is
   * `expected` as written (no escape), else `keyText()` reads it.
   */
  openKey(first: boolean): void {
    this.ws();
    if (this.text.charCodeAt(this.pos) !== QUOTE) {
      throw this.unexpected(first ? 'a string key or "}"' : "a string key");
    }
    this.keyStart = this.pos;
  }

  /**
   * At a key's opening quote: whether the key is `expected` written as it is
   * (then the cursor is past the key), comparing in place. `expected` must
   * hold no `"`, `\` or control character (see `plainKey`), so a match is the
   * key exactly, with no escape.
   */
  takeKey(expected: string): boolean {
    const text = this.text;
    const start = this.pos + 1;
    const length = expected.length;
    if (text.charCodeAt(start + length) !== QUOTE) {
      return false;
    }
    for (let index = 0; index < length; index++) {
      if (text.charCodeAt(start + index) !== expected.charCodeAt(index)) {
        return false;
      }
    }
    this.pos = start + length + 1;
    return true;
  }

  /**
   * At a key's opening quote: the key, as `string()` reads it. A short key
   * without escapes that was read before is the same string again (a
   * cache shared by every read), so that keys repeated through an input
   * are not allocated once each.
   */
  keyText(): string {
    return this.cachedString(keyCache);
  }

  /** At a string's opening quote: the string, as `string()` reads it, short ones cached as `keyText` caches keys. */
  stringValue(): string {
    return this.cachedString(valueCache);
  }

  private cachedString(cache: (string | undefined)[]): string {
    const text = this.text;
    const start = this.pos + 1;
    let pos = start;
    for (;;) {
      const code = text.charCodeAt(pos);
      if (code === QUOTE) {
        break;
      }
      // An escape, a control character or the end of the input (NaN): read, or refused, as `string()` does.
      if (!(code >= 0x20) || code === BACKSLASH) {
        return this.escapedString(start, pos);
      }
      pos++;
    }
    const size = pos - start;
    this.pos = pos + 1;
    if (size > CACHE_LONGEST) {
      return text.slice(start, pos);
    }
    // The slot: by the length and three of the units (equal strings share it; others may, and take turns).
    const slot =
      (size * 0x9e3 +
        text.charCodeAt(start) * 0x3b +
        text.charCodeAt(pos - 1) * 7 +
        text.charCodeAt(start + (size >> 1))) &
      CACHE_MASK;
    const cached = cache[slot];
    if (cached !== undefined && cached.length === size) {
      let index = 0;
      while (index < size && cached.charCodeAt(index) === text.charCodeAt(start + index)) {
        index++;
      }
      if (index === size) {
        return cached;
      }
    }
    const value = text.slice(start, pos);
    cache[slot] = value;
    return value;
  }

  /** `key` is one its object already has: refused at the key's opening quote. */
  duplicateKey(key: string): JsonError {
    return this.error({ refusal: "duplicate-key", key }, this.keyStart);
  }

  /** The `:` after a key, whitespace before it skipped. */
  colon(): void {
    this.ws();
    if (this.text.charCodeAt(this.pos) !== 0x3a) {
      throw this.unexpected('":"');
    }
    this.pos++;
  }

  /**
   * The string at `pos` (on its opening quote), unescaped: a control
   * character, a bad escape and a lone surrogate escape are refused where
   * they stand. One `slice` when it holds no escape.
   */
  string(): string {
    const text = this.text;
    const length = text.length;
    const start = this.pos + 1;
    let pos = start;
    while (pos < length) {
      const code = text.charCodeAt(pos);
      if (code === QUOTE) {
        this.pos = pos + 1;
        return text.slice(start, pos);
      }
      if (code === BACKSLASH || code < 0x20) {
        return this.escapedString(start, pos);
      }
      pos++;
    }
    this.pos = length;
    throw this.unexpected("");
  }

  /** The rest of a string from `pos`, where an escape or a control character stands. */
  private escapedString(start: number, at: number): string {
    // Checked here as `skipString` checks it, then unescaped by the engine's own JSON reader, which
    // takes a literal this profile accepts exactly as this reader would.
    const text = this.text;
    const length = text.length;
    let pos = at;
    while (pos < length) {
      const code = text.charCodeAt(pos);
      if (code === QUOTE) {
        this.pos = pos + 1;
        return JSON.parse(text.slice(start - 1, pos + 1)) as string;
      }
      if (code === BACKSLASH) {
        this.escape(pos);
        pos = this.escapeEnd;
      } else if (code < 0x20) {
        throw this.error({ refusal: "control-character", code }, pos);
      } else {
        pos++;
      }
    }
    this.pos = length;
    throw this.unexpected("");
  }

  /** Checks the string at `pos` as `string()` does, without building it. */
  skipString(): void {
    const text = this.text;
    const length = text.length;
    let pos = this.pos + 1;
    while (pos < length) {
      const code = text.charCodeAt(pos);
      if (code === QUOTE) {
        this.pos = pos + 1;
        return;
      }
      if (code === BACKSLASH) {
        this.escape(pos);
        pos = this.escapeEnd;
      } else if (code < 0x20) {
        throw this.error({ refusal: "control-character", code }, pos);
      } else {
        pos++;
      }
    }
    this.pos = length;
    throw this.unexpected("");
  }

  /**
   * The escape whose backslash is at `at` (Rust's `profile::escape`): the
   * code point it stands for; `escapeEnd` is where the string goes on. A
   * high surrogate must be followed at once by `\u` and a low one;
   * anything else is refused at the backslash.
   */
  private escape(at: number): number {
    const text = this.text;
    const marker = text.charCodeAt(at + 1);
    this.escapeEnd = at + 2;
    switch (marker) {
      case 0x22:
        return 0x22;
      case 0x5c:
        return 0x5c;
      case 0x2f:
        return 0x2f;
      case 0x62:
        return 0x08;
      case 0x66:
        return 0x0c;
      case 0x6e:
        return 0x0a;
      case 0x72:
        return 0x0d;
      case 0x74:
        return 0x09;
      case 0x75: {
        const unit = this.hex(at + 2);
        if (unit < 0) {
          throw this.error({ refusal: "invalid-escape" }, at);
        }
        if (unit >= 0xd800 && unit <= 0xdbff) {
          const low = text.charCodeAt(at + 6) === BACKSLASH && text.charCodeAt(at + 7) === 0x75 ? this.hex(at + 8) : -1;
          if (!(low >= 0xdc00 && low <= 0xdfff)) {
            throw this.error({ refusal: "lone-surrogate", unit }, at);
          }
          this.escapeEnd = at + 12;
          return 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00);
        }
        if (unit >= 0xdc00 && unit <= 0xdfff) {
          throw this.error({ refusal: "lone-surrogate", unit }, at);
        }
        this.escapeEnd = at + 6;
        return unit;
      }
      default:
        throw this.error({ refusal: "invalid-escape" }, at);
    }
  }

  /** The four hex digits at `at` as a UTF-16 unit, or -1. */
  private hex(at: number): number {
    const text = this.text;
    if (at + 4 > text.length) {
      return -1;
    }
    let unit = 0;
    for (let index = at; index < at + 4; index++) {
      const code = text.charCodeAt(index);
      let digit: number;
      if (code >= ZERO && code <= NINE) {
        digit = code - ZERO;
      } else if (code >= 0x61 && code <= 0x66) {
        digit = code - 0x57;
      } else if (code >= 0x41 && code <= 0x46) {
        digit = code - 0x37;
      } else {
        return -1;
      }
      unit = unit * 16 + digit;
    }
    return unit;
  }

  /**
   * The number at `pos`, as the profile decides it (Rust's
   * `profile::literal` and `profile::number`): the longest prefix the
   * grammar allows (so `01` is `0`, then `1` is refused by the caller); an
   * integer literal must lie within ±(2^53-1) on its digits as written and
   * not be `-0`; a float must stay finite once correctly rounded and not be
   * negative zero. Refusals are at the literal's first character. Call it
   * at `-` or a digit: a `-` that starts no number is refused as Rust does
   * (`-Infinity` as non-finite, else an invalid number), and anything else
   * as `notAValue()`. `lastNumberWasInteger` tells the two kinds of literal apart.
   */
  number(): number {
    const text = this.text;
    const start = this.pos;
    let pos = start;
    let code = text.charCodeAt(pos);
    const negative = code === MINUS;
    if (negative) {
      code = text.charCodeAt(++pos);
    }
    let magnitude = 0;
    if (code === ZERO) {
      pos++;
    } else if (code > ZERO && code <= NINE) {
      do {
        magnitude = magnitude * 10 + (code - ZERO);
        code = text.charCodeAt(++pos);
      } while (code >= ZERO && code <= NINE);
    } else if (negative) {
      throw text.startsWith("-Infinity", start)
        ? this.error({ refusal: "non-finite" }, start)
        : this.error({ refusal: "invalid-number" }, start);
    } else {
      throw this.notAValue();
    }
    const integerEnd = pos;
    // The digits of a float, as an integer while they are few enough to be exact, and its decimal exponent.
    let digits = magnitude;
    let decimals = 0;
    code = text.charCodeAt(pos);
    if (code === 0x2e) {
      const after = text.charCodeAt(pos + 1);
      if (after >= ZERO && after <= NINE) {
        pos++;
        code = after;
        do {
          digits = digits * 10 + (code - ZERO);
          decimals++;
          code = text.charCodeAt(++pos);
        } while (code >= ZERO && code <= NINE);
      }
    }
    let exponent = 0;
    let exponentDigits = 0;
    if (code === 0x65 || code === 0x45) {
      let first = pos + 1;
      const sign = text.charCodeAt(first);
      if (sign === 0x2b || sign === MINUS) {
        first++;
      }
      code = text.charCodeAt(first);
      if (code >= ZERO && code <= NINE) {
        pos = first;
        do {
          exponent = exponent * 10 + (code - ZERO);
          exponentDigits++;
          code = text.charCodeAt(++pos);
        } while (code >= ZERO && code <= NINE);
        if (sign === MINUS) {
          exponent = -exponent;
        }
      }
    }
    this.pos = pos;
    if (pos === integerEnd) {
      this.lastNumberWasInteger = true;
      // 2^53-1 has 16 digits; past 2^53 the double still compares above it.
      const digits = integerEnd - start - (negative ? 1 : 0);
      if (digits > 16 || magnitude > MAX_SAFE_INTEGER) {
        throw this.error({ refusal: "unsafe-integer", literal: text.slice(start, pos) }, start);
      }
      if (negative) {
        if (magnitude === 0) {
          throw this.error({ refusal: "negative-zero" }, start);
        }
        return -magnitude;
      }
      return magnitude;
    }
    this.lastNumberWasInteger = false;
    // Up to 15 digits and a power of ten up to 10^22 both are exact doubles, so one multiplication
    // or division rounds the literal's value correctly, as `Number` does (Clinger's fast path).
    const scale = exponent - decimals;
    if (integerEnd - start + decimals <= 15 && exponentDigits <= 3 && scale >= -22 && scale <= 22) {
      const value = scale < 0 ? digits / (POWERS_OF_TEN[-scale] as number) : digits * (POWERS_OF_TEN[scale] as number);
      if (negative) {
        if (value === 0) {
          throw this.error({ refusal: "negative-zero" }, start);
        }
        return -value;
      }
      return value;
    }
    const literal = text.slice(start, pos);
    const value = floatValue(literal);
    if (value === Number.POSITIVE_INFINITY || value === Number.NEGATIVE_INFINITY) {
      throw this.error({ refusal: "number-out-of-range", literal }, start);
    }
    if (value === 0 && negative) {
      throw this.error({ refusal: "negative-zero" }, start);
    }
    return value;
  }

  /**
   * `true`, `false` or `null` at `pos`; a word that starts like one but is
   * not is an invalid literal. Anything else starts no value here: refused
   * as `notAValue()` says.
   */
  literal(): boolean | null {
    const text = this.text;
    const pos = this.pos;
    switch (text.charCodeAt(pos)) {
      case 0x74:
        if (
          text.charCodeAt(pos + 1) === 0x72 &&
          text.charCodeAt(pos + 2) === 0x75 &&
          text.charCodeAt(pos + 3) === 0x65
        ) {
          this.pos = pos + 4;
          return true;
        }
        break;
      case 0x66:
        if (
          text.charCodeAt(pos + 1) === 0x61 &&
          text.charCodeAt(pos + 2) === 0x6c &&
          text.charCodeAt(pos + 3) === 0x73 &&
          text.charCodeAt(pos + 4) === 0x65
        ) {
          this.pos = pos + 5;
          return false;
        }
        break;
      case 0x6e:
        if (
          text.charCodeAt(pos + 1) === 0x75 &&
          text.charCodeAt(pos + 2) === 0x6c &&
          text.charCodeAt(pos + 3) === 0x6c
        ) {
          this.pos = pos + 4;
          return null;
        }
        break;
      default:
        throw this.notAValue();
    }
    throw this.error({ refusal: "invalid-literal" });
  }

  /**
   * The refusal where a value was expected and none starts at `pos`:
   * `NaN`, `Infinity` and `-Infinity` are non-finite, anything else is
   * `expected a value`. (A `-` that starts no number is `number()`'s to refuse.)
   */
  notAValue(): JsonError {
    for (const word of NON_FINITE) {
      if (this.text.startsWith(word, this.pos)) {
        return this.error({ refusal: "non-finite" });
      }
    }
    return this.unexpected("a value");
  }

  /**
   * Reads one value strictly (whitespace before it skipped) and drops it:
   * every rule of the profile holds, duplicate keys included, without
   * building the value.
   */
  skipValue(): void {
    this.ws();
    const code = this.text.charCodeAt(this.pos);
    if (code === QUOTE) {
      this.skipString();
    } else if (code === 0x7b) {
      this.skipObject();
    } else if (code === 0x5b) {
      this.enter();
      if (this.moreItems(true)) {
        do {
          this.skipValue();
        } while (this.moreItems(false));
      }
    } else if (code === MINUS || (code >= ZERO && code <= NINE)) {
      this.number();
    } else {
      this.literal();
    }
  }

  private skipObject(): void {
    this.enter();
    if (!this.moreMembers(true)) {
      return;
    }
    // Few keys: a list; many: a set.
    let keys: string[] | Set<string> = [];
    let first = true;
    do {
      const key = this.key(first);
      first = false;
      if (Array.isArray(keys)) {
        if (keys.includes(key)) {
          throw this.duplicateKey(key);
        }
        keys.push(key);
        if (keys.length > 8) {
          keys = new Set(keys);
        }
      } else {
        if (keys.has(key)) {
          throw this.duplicateKey(key);
        }
        keys.add(key);
      }
      this.colon();
      this.skipValue();
    } while (this.moreMembers(false));
  }
}
