// The API of the concord-engine addon (runtime/node-engine/src/lib.rs). When
// neither a build of the checkout nor the platform's package is there,
// requiring the package throws an Error whose `code` is
// "CONCORD_ENGINE_MISSING" and whose message names what to install or build.

/** A pinned schema document: its base URI, its exact text, and its declared dialect (or null). */
export type PinnedDocument = [uri: string, text: string, dialect: string | null];

/**
 * One note on a refused value, word for word as the Rust runtime gives it;
 * `line` is the note as Rust and Python print it (`/a: is greater than the maximum of 3`).
 */
export type Note = [pointer: string, keyword: string, schemaPath: string, message: string, line: string];

/** At most `limit` notes, in the engine's order; none when the value passes. `more`: there were more. */
export interface Notes {
  notes: Note[];
  more: boolean;
}

/**
 * What `notesJson` throws for bytes the strict profile refuses: `message` is the
 * Rust `JsonError`'s text, `"<kind> at byte <offset>: <message>"`.
 */
export interface JsonEngineError extends Error {
  kind: string;
  offset: number;
}

/** One record type's schema as the engine checks it. */
export class Validator {
  /**
   * Builds the check of the subschema at JSON `pointer` of `documents[0]`
   * (the others: the files its `$ref`s reach). Throws an Error with the
   * engine's reason when it cannot be built.
   */
  constructor(documents: ReadonlyArray<PinnedDocument>, pointer: string);
  /**
   * Reads `data` under the strict profile (at most `maxBytes` bytes), then
   * checks it: at most `limit` notes. Throws a {@link JsonEngineError} when
   * the profile refuses the bytes; an Error whose `code` is "InvalidArg" for
   * `data` that is no Uint8Array, or a `maxBytes` or `limit` that is no whole
   * number from 0 to 2^53 - 1.
   */
  notesJson(data: Uint8Array, maxBytes: number, limit: number): Notes;
}

/** The addon's version (its crate's): the TypeScript runtime refuses another. */
export function version(): string;
