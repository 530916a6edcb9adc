/**
 * What reading or writing a record refuses, beside the strict profile's
 * `JsonError`: a value that does not fit the record's schema, an envelope's
 * unsupported version, a value that cannot be written. Each names a JSON
 * pointer and reads `at "<pointer>": <message>`, as `concord_runtime::Error`
 * (runtime/rust/src/lib.rs) and the Python runtime word it.
 */

import { ConcordError } from "../error.js";

/** A JSON pointer's token: `~` and `/` escaped (RFC 6901). */
export function escapeToken(token: string | number): string {
  const text = String(token);
  return text.includes("~") || text.includes("/") ? text.replaceAll("~", "~0").replaceAll("/", "~1") : text;
}

/** The pointer of a path of keys and indexes. */
export function pointerOf(path: readonly (string | number)[]): string {
  let pointer = "";
  for (const token of path) pointer += `/${escapeToken(token)}`;
  return pointer;
}

/** Shows at most a short prefix of a value a message quotes, as Rust's `mask_quoted` does. */
export function shown(text: string): string {
  const characters = Array.from(text);
  return characters.length <= 20 ? text : `${characters.slice(0, 20).join("")}…`;
}

abstract class PointedError extends ConcordError {
  /** No offset: the refusal names its place by pointer, as Rust's and Python's do. */
  readonly offset: undefined = undefined;

  constructor(
    readonly pointer: string,
    readonly detail: string,
  ) {
    super(`at "${pointer}": ${detail}`);
  }
}

/** The JSON does not fit the record's schema, at `pointer`. */
export class SchemaError extends PointedError {
  override readonly name = "SchemaError";
  readonly kind: string = "schema";
}

/** A versioned envelope of a version its schema does not list: refused before anything else in the envelope. */
export class VersionError extends PointedError {
  override readonly name = "VersionError";
  readonly kind: string = "unsupported-version";
}

/**
 * A record type whose schema needs the assertion engine, read where there is
 * none (a browser): no value is refused, so neither pointer nor offset.
 */
export class EngineUnavailable extends ConcordError {
  override readonly name = "EngineUnavailable";
  readonly kind: string = "no-engine";
  readonly pointer: undefined = undefined;
  readonly offset: undefined = undefined;
}
