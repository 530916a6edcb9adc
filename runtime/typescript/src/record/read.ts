/**
 * What every node of a compiled plan shares (nodes.ts compiles them): the
 * `Node` a value's reader and writer make, the `Failure` a schema refusal
 * is on its way out of a read, the first check that failed in a read
 * (reported once the whole value has read), and the lexer helpers the
 * nodes of several kinds use.
 */

import type { Lexer } from "../lexer.js";
import { JsonError } from "../profile.js";
import { type Output, WriteError } from "../write.js";
import { pointerOf, SchemaError, VersionError } from "./errors.js";

/** The symbol under which a record keeps the unknown keys its type keeps (growth points, typed or matching keys). */
export const unknownKeys: unique symbol = Symbol.for("concord.unknownKeys");

/**
 * A schema refusal on its way out of a read: `tokens` is its pointer,
 * innermost token first, each container adding its own as the refusal
 * passes through it. Not an `Error` (no stack is captured): `fromJson`
 * turns it into the `SchemaError` or `VersionError` it stands for.
 */
export class Failure {
  readonly tokens: (string | number)[] = [];

  constructor(
    readonly detail: string,
    readonly version = false,
  ) {}

  /** The refusal as a reader's caller sees it. */
  error(): SchemaError | VersionError {
    const pointer = pointerOf(this.tokens.slice().reverse());
    return this.version ? new VersionError(pointer, this.detail) : new SchemaError(pointer, this.detail);
  }
}

/** A failure whose pointer ends with `token` (under the value that holds it). */
export function failureAt(token: string | number, detail: string): Failure {
  const failure = new Failure(detail);
  failure.tokens.push(token);
  return failure;
}

/** `error`, seen from the container that holds the failed value at `token`. */
export function failedAt(error: unknown, token: string | number): unknown {
  if (error instanceof Failure) error.tokens.push(token);
  return error;
}

/** `error`, seen from the container that holds the refused value at `token`. */
export function refusedAt(error: unknown, token: string | number): unknown {
  return error instanceof WriteError ? error.under(token) : error;
}

/** Reads the value at the cursor (and the whitespace after it). */
export type Read = (lx: Lexer) => unknown;
/** Appends `value` to `out`, or throws a `WriteError` whose pointer is below this value. */
export type Write = (value: unknown, out: Output) => void;

export interface Node {
  read: Read;
  write: Write;
  /** What the value is, for messages: `a string`, `an object`... */
  expecting: string;
}

/** Resolves a named type to its node: compiled once, on first use, so recursion is fine. */
export type Resolve = (ref: { type: string; module?: string }) => Node;

export const QUOTE = 0x22;
export const OPEN_BRACE = 0x7b;
export const CLOSE_BRACE = 0x7d;
export const OPEN_BRACKET = 0x5b;
export const CLOSE_BRACKET = 0x5d;
export const COMMA = 0x2c;
export const COLON = 0x3a;
export const NULL_START = 0x6e;

/** What stands at the cursor, for an `invalid type` message. */
function found(lx: Lexer): string {
  switch (lx.peek()) {
    case QUOTE:
      return "string";
    case OPEN_BRACE:
      return "map";
    case OPEN_BRACKET:
      return "sequence";
    case 0x74:
    case 0x66:
      return "boolean";
    case NULL_START:
      return "null";
    default:
      return "number";
  }
}

export function invalidType(lx: Lexer, expecting: string): Failure {
  return new Failure(`invalid type: ${found(lx)}, expected ${expecting}`);
}

/**
 * The first check that failed in this read, reported once the whole value
 * has read: a value of the wrong type anywhere is refused first, as in Rust,
 * whose checks run on values serde has built. `pendingLevel` is the depth
 * (`lx.depth`) of the container whose token the pending failure takes next:
 * a container reading its items at that depth adds the token of the item
 * just read and passes the failure up a level, as a thrown one would be.
 */
let pending: Failure | undefined;
/** Read by the containers on every item (`pendingIn` only when it is theirs): a live binding, no call. */
export let pendingLevel = -1;

/** Starts a read: no check has failed yet. */
export function startRead(): void {
  pending = undefined;
  pendingLevel = -1;
}

/** Ends a read: throws the first check that failed, if any. */
export function finishRead(): void {
  const failed = pending;
  pending = undefined;
  pendingLevel = -1;
  if (failed !== undefined) throw failed;
}

/**
 * The pending failure was met in the item at `token` of the container at
 * `level` (the caller checks `pendingLevel === level` first): its pointer
 * takes the token, and it waits for the container above.
 */
export function pendingIn(level: number, token: string | number): void {
  (pending as Failure).tokens.push(token);
  pendingLevel = level - 1;
}

/** A check failed on a value read at `level`: it waits for the read's end unless one failed first. */
export function holdFailure(detail: string, level: number): void {
  if (pending !== undefined) return;
  pending = new Failure(detail);
  pendingLevel = level;
}

/** Whether no check has failed yet in this read. */
export function nothingPending(): boolean {
  return pending === undefined;
}

/** At the end of the object at `level`: the failure pending in one of its values, taken, if any. */
export function takePendingOf(level: number): Failure | undefined {
  if (pending === undefined || pendingLevel !== level - 1) return undefined;
  const failed = pending;
  pending = undefined;
  pendingLevel = -1;
  return failed;
}

/** Whether the number at the cursor is an integer literal (no fraction, no exponent); the cursor stays. */
export function integerLiteralAt(lx: Lexer): boolean {
  const text = lx.text;
  for (let at = lx.pos; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === 0x2e || code === 0x65 || code === 0x45) return false;
    if (code !== 0x2d && code !== 0x2b && (code < 0x30 || code > 0x39)) return true;
  }
  return true;
}

/**
 * The value of `property` at the top of the object at the cursor, which is
 * left unread: a string, an integer, `"other"` for any other value, or
 * `undefined` when the object lacks it. A strict refusal on the way is left
 * to the read itself, which meets it in its order (`undefined` then).
 */
export function lookAhead(lx: Lexer, property: string): string | { integer: number } | "other" | undefined {
  const pos = lx.pos;
  const depth = lx.depth;
  let found: string | { integer: number } | "other" | undefined;
  try {
    lx.enter();
    let first = true;
    while (lx.moreMembers(first)) {
      const key = lx.key(first);
      first = false;
      lx.colon();
      lx.ws();
      if (key === property) {
        const next = lx.peek();
        if (next === QUOTE) {
          found = lx.string();
        } else if (next === 0x2d || (next >= 0x30 && next <= 0x39)) {
          const number = lx.number();
          found = lx.lastNumberWasInteger ? { integer: number } : "other";
        } else {
          found = "other";
        }
        break;
      }
      lx.skipValue();
    }
  } catch (error) {
    if (!(error instanceof JsonError)) throw error;
    found = undefined;
  }
  lx.pos = pos;
  lx.depth = depth;
  return found;
}
