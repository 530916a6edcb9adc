/**
 * The strict reading profile's reference reader, identical to
 * `concord_runtime::strict` in Rust (`runtime/rust/src/strict.rs`) and
 * `concord_runtime.strict` in Python: the same bytes accepted, the same
 * refused, the first problem reported with the same kind, UTF-8 byte offset
 * and message (a `JsonError`).
 *
 * In order: the size limit; no byte order mark; UTF-8 throughout; then one
 * pass of RFC 8259 grammar in which duplicate keys (after unescaping), lone
 * surrogates, `NaN`/`Infinity`, numbers that overflow, negative zero,
 * integers outside ±(2^53-1) and nesting deeper than 64 are refused where
 * they stand. Floats stay readable. The value keeps what plain JavaScript
 * loses (`value.ts`): objects are `Map`s in input order, and an integral
 * float literal is a `JsonFloat`.
 */

import { decode, Lexer } from "./lexer.js";
import { JsonFloat, type JsonObject, type JsonValue } from "./value.js";

/** Settings of the profile that may differ per use: only the size limit (default 64 MiB). */
export interface ReadOptions {
  readonly maxBytes?: number;
}

/** Reads one JSON document under the strict profile; throws `JsonError`. */
export function read(input: Uint8Array | string, options?: ReadOptions): JsonValue {
  const lexer = new Lexer(decode(input, options?.maxBytes));
  const value = readValue(lexer);
  lexer.end();
  return value;
}

/** Checks one JSON document under the strict profile without building it; throws `JsonError`. */
export function check(input: Uint8Array | string, options?: ReadOptions): void {
  const lexer = new Lexer(decode(input, options?.maxBytes));
  lexer.skipValue();
  lexer.end();
}

const stack: JsonValue[] = [];
/** How many items stand on `stack`; those above it are stale until the outermost array is read. */
let top = 0;
let highest = 0;

/** Takes the stack back to `start`; once the outermost array is read, it lets go of what the arrays held. */
function unwind(start: number): void {
  if (top > highest) {
    highest = top;
  }
  top = start;
  if (start === 0) {
    stack.fill(null, 0, highest);
    highest = 0;
  }
}

/** One value at the lexer's position (whitespace before it skipped). */
export function readValue(lexer: Lexer): JsonValue {
  lexer.ws();
  const code = lexer.peek();
  if (code === 0x22) {
    return lexer.stringValue();
  }
  if (code === 0x7b) {
    return readObject(lexer);
  }
  if (code === 0x5b) {
    lexer.enter();
    if (!lexer.moreItems(true)) return [];
    // The items gather on a stack that every array read shares, and leave it as an array of their size.
    const start = top;
    try {
      do {
        const item = readValue(lexer);
        stack[top++] = item;
      } while (lexer.moreItems(false));
    } catch (error) {
      unwind(start);
      throw error;
    }
    const items = stack.slice(start, top);
    unwind(start);
    return items;
  }
  if (code === 0x2d || (code >= 0x30 && code <= 0x39)) {
    const number = lexer.number();
    // An integral value written as a float stays a float (`5.0`, `1e20`).
    return lexer.lastNumberWasInteger || !Number.isInteger(number) ? number : new JsonFloat(number);
  }
  return lexer.literal();
}

function readObject(lexer: Lexer): JsonObject {
  lexer.enter();
  const members: JsonObject = new Map();
  let first = true;
  while (lexer.moreMembers(first)) {
    const key = lexer.key(first);
    first = false;
    if (members.has(key)) {
      throw lexer.duplicateKey(key);
    }
    lexer.colon();
    members.set(key, readValue(lexer));
  }
  return members;
}
