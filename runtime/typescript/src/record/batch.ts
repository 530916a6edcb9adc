/**
 * Batch reads (docs/batch-reads.md): JSON Lines and JSON arrays of records,
 * each record read as `fromJson` reads it, each that fails named with its
 * line or index and its error's kind, the rest read; as
 * `concord_runtime::batch` (runtime/rust/src/batch.rs) and Python's
 * `concord_runtime.batch`.
 */

import { DEFAULT_MAX_BYTES, JsonError } from "../profile.js";

/** A record's failure in a batch: the error, and its kind (`duplicate-key`, `schema`, `unsupported-version`...). */
export interface Failure {
  readonly error: Error;
  readonly kind: string;
}

export interface FailedLine extends Failure {
  /** The line, counted from 1. */
  readonly line: number;
}

export interface FailedItem extends Failure {
  /** The item's index in the array, from 0. */
  readonly index: number;
}

export interface LinesOutcome<T> {
  readonly records: T[];
  readonly failed: FailedLine[];
}

export interface ArrayOutcome<T> {
  readonly records: T[];
  readonly failed: FailedItem[];
}

type Read<T> = (bytes: Uint8Array, maxBytes: number) => T;

const encoder = new TextEncoder();

function bytesOf(input: Uint8Array | string): Uint8Array {
  return typeof input === "string" ? encoder.encode(input) : input;
}

/** An error's kind, in the words every runtime uses. */
export function kindOf(error: unknown): string {
  const kind = (error as { kind?: unknown } | null)?.kind;
  if (typeof kind === "string") return kind;
  throw error;
}

/** Reads JSON Lines: a line is what stands before `\n`; an empty line fails (`syntax`); the empty rest after the last `\n` is no line. */
export function readJsonl<T>(read: Read<T>, input: Uint8Array | string, maxBytes = DEFAULT_MAX_BYTES): LinesOutcome<T> {
  const bytes = bytesOf(input);
  const records: T[] = [];
  const failed: FailedLine[] = [];
  let start = 0;
  let line = 0;
  while (start < bytes.length) {
    let end = bytes.indexOf(0x0a, start);
    if (end < 0) end = bytes.length;
    line++;
    if (end - start > maxBytes) {
      const error = new JsonError("too-large", maxBytes, `the line exceeds the limit of ${maxBytes} bytes`);
      failed.push({ line, error, kind: error.kind });
    } else {
      try {
        records.push(read(bytes.subarray(start, end), maxBytes));
      } catch (error) {
        failed.push({ line, error: error as Error, kind: kindOf(error) });
      }
    }
    start = end + 1;
  }
  return { records, failed };
}

function syntax(offset: number, message: string): JsonError {
  return new JsonError("syntax", offset, message);
}

function isSpace(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}

/**
 * Where each item of a JSON array of records stands, found by counting
 * brackets outside strings without reading the items, as Rust's
 * `batch::array_items`: what is wrong inside an item is that item's alone.
 */
export function arrayItems(bytes: Uint8Array): [number, number][] {
  if (bytes.length > DEFAULT_MAX_BYTES) {
    throw new JsonError(
      "too-large",
      DEFAULT_MAX_BYTES,
      `the input of ${bytes.length} bytes exceeds the limit of ${DEFAULT_MAX_BYTES} bytes`,
    );
  }
  let at = 0;
  while (at < bytes.length && isSpace(bytes[at])) at++;
  if (bytes[at] !== 0x5b) throw syntax(at, "expected a JSON array of records");
  at++;
  const items: [number, number][] = [];
  for (;;) {
    while (at < bytes.length && isSpace(bytes[at])) at++;
    if (items.length === 0 && bytes[at] === 0x5d) {
      at++;
      break;
    }
    const start = at;
    let depth = 0;
    let inString = false;
    let escaped = false;
    for (; at < bytes.length; at++) {
      const byte = bytes[at];
      if (inString) {
        if (escaped) escaped = false;
        else if (byte === 0x5c) escaped = true;
        else if (byte === 0x22) inString = false;
      } else if (byte === 0x22) {
        inString = true;
      } else if (byte === 0x5b || byte === 0x7b) {
        depth++;
      } else if ((byte === 0x5d || byte === 0x7d) && depth > 0) {
        depth--;
      } else if ((byte === 0x2c || byte === 0x5d) && depth === 0) {
        break;
      }
    }
    let end = at;
    while (end > start && isSpace(bytes[end - 1])) end--;
    const delimiter = bytes[at];
    if (delimiter === undefined) throw syntax(bytes.length, "the array of records is not closed");
    if (end === start) throw syntax(at, "expected a record before this");
    items.push([start, end]);
    at++;
    if (delimiter === 0x5d) break;
  }
  while (at < bytes.length) {
    if (!isSpace(bytes[at])) throw syntax(at, "trailing characters after the array of records");
    at++;
  }
  return items;
}

/** Reads a JSON array of records, item by item; an input that is no array fails whole (a `JsonError`). */
export function readJsonArray<T>(read: Read<T>, input: Uint8Array | string): ArrayOutcome<T> {
  const bytes = bytesOf(input);
  const records: T[] = [];
  const failed: FailedItem[] = [];
  arrayItems(bytes).forEach(([start, end], index) => {
    try {
      records.push(read(bytes.subarray(start, end), DEFAULT_MAX_BYTES));
    } catch (error) {
      failed.push({ index, error: error as Error, kind: kindOf(error) });
    }
  });
  return { records, failed };
}
