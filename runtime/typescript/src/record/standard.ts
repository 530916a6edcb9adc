/**
 * Standard Schema v1 (https://standardschema.dev): every record type carries
 * `~standard`, so that tRPC, TanStack Form, Hono and the other tools that
 * take a Standard Schema take a concord type as it is.
 *
 * Such a tool hands over a JavaScript value that is already parsed, not
 * bytes, so the strict profile over bytes cannot apply: the value is
 * written as JSON by concord's writer rules (`writePlain`), and those bytes
 * are read as `fromJson` reads any input, so the schema's verdict, the
 * unknown-key policy, the versions and the assertion engine are the ones
 * every other read gets. What the value no longer shows (duplicate keys, a
 * number's lexical form, `5.0` against `5`, the original text's size and
 * nesting) was decided by whoever parsed it (docs/typescript.md, "Standard
 * Schema").
 */

import { nonFiniteText } from "../float.js";
import { JsonError, MAX_DEPTH, MAX_SAFE_INTEGER, prefix } from "../profile.js";
import { JsonFloat } from "../value.js";
import { floatText, Output, WriteError } from "../write.js";
import { SchemaError, VersionError } from "./errors.js";
import { unknownKeys } from "./nodes.js";

/**
 * The Standard Schema interface, as the specification publishes it for
 * libraries to copy (https://standardschema.dev, `@standard-schema/spec`,
 * MIT): copied, so that the runtime keeps no dependency.
 */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  /** The Standard Schema properties. */
  readonly "~standard": StandardSchemaV1.Props<Input, Output>;
}

export declare namespace StandardSchemaV1 {
  /** The Standard Schema properties interface. */
  export interface Props<Input = unknown, Output = Input> {
    /** The version number of the standard. */
    readonly version: 1;
    /** The vendor name of the schema library. */
    readonly vendor: string;
    /** Validates unknown input values. */
    readonly validate: (
      value: unknown,
      options?: StandardSchemaV1.Options | undefined,
    ) => Result<Output> | Promise<Result<Output>>;
    /** Inferred types associated with the schema. */
    readonly types?: Types<Input, Output> | undefined;
  }

  /** The result interface of the validate function. */
  export type Result<Output> = SuccessResult<Output> | FailureResult;

  /** The result interface if validation succeeds. */
  export interface SuccessResult<Output> {
    /** The typed output value. */
    readonly value: Output;
    /** A falsy value for `issues` indicates success. */
    readonly issues?: undefined;
  }

  export interface Options {
    /** Explicit support for additional vendor-specific parameters, if needed. */
    readonly libraryOptions?: Record<string, unknown> | undefined;
  }

  /** The result interface if validation fails. */
  export interface FailureResult {
    /** The issues of failed validation. */
    readonly issues: ReadonlyArray<Issue>;
  }

  /** The issue interface of the failure output. */
  export interface Issue {
    /** The error message of the issue. */
    readonly message: string;
    /** The path of the issue, if any. */
    readonly path?: ReadonlyArray<PropertyKey | PathSegment> | undefined;
  }

  /** The path segment interface of the issue. */
  export interface PathSegment {
    /** The key representing a path segment. */
    readonly key: PropertyKey;
  }

  /** The Standard Schema types interface. */
  export interface Types<Input = unknown, Output = Input> {
    /** The input type of the schema. */
    readonly input: Input;
    /** The output type of the schema. */
    readonly output: Output;
  }

  /** Infers the input type of a Standard Schema. */
  export type InferInput<Schema extends StandardSchemaV1> = NonNullable<Schema["~standard"]["types"]>["input"];

  /** Infers the output type of a Standard Schema. */
  export type InferOutput<Schema extends StandardSchemaV1> = NonNullable<Schema["~standard"]["types"]>["output"];
}

/**
 * A record type's `~standard`: `validate` is synchronous; its success holds
 * the record `fromJson` makes, its failure one issue, the first refusal, as
 * `fromJson` throws one. A record type that needs the assertion engine,
 * where there is none, throws `EngineUnavailable`: that is no verdict on the
 * value, and no issue may pass for one.
 */
export function standardProps<T>(read: (bytes: Uint8Array) => T): StandardSchemaV1.Props<unknown, T> {
  return Object.freeze({
    version: 1 as const,
    vendor: "concord",
    validate: (value: unknown): StandardSchemaV1.Result<T> => validateValue(read, value),
  });
}

/** The Output `validateValue` writes into, kept between calls (taken while in use, so a getter that validates gets its own). */
let spare: Output | undefined;
/** Past this, a grown buffer is let go rather than kept. */
const KEEP = 1 << 20;

function validateValue<T>(read: (bytes: Uint8Array) => T, value: unknown): StandardSchemaV1.Result<T> {
  const out = spare ?? new Output(4096);
  spare = undefined;
  out.length = 0;
  const outer = open;
  open = [];
  try {
    writePlain(out, value, 0);
    return { value: read(out.buffer.subarray(0, out.length)) };
  } catch (error) {
    if (error instanceof SchemaError || error instanceof VersionError || error instanceof WriteError) {
      return { issues: [{ message: error.detail, path: pathOf(error.pointer, value) }] };
    }
    // Only the size limit can refuse what the writer wrote (64 MiB, as `fromJson`'s default).
    if (error instanceof JsonError) return { issues: [{ message: error.detail, path: [] }] };
    throw error;
  } finally {
    open = outer;
    if (out.buffer.length <= KEEP) spare = out;
  }
}

/**
 * The path of `pointer` in `value`, as Standard Schema gives one: keys as
 * strings, array indexes as numbers (the value tells which a token is).
 */
function pathOf(pointer: string, value: unknown): (string | number)[] {
  if (pointer === "") return [];
  const path: (string | number)[] = [];
  let at: unknown = value;
  for (const escaped of pointer.slice(1).split("/")) {
    const token = escaped.includes("~") ? escaped.replaceAll("~1", "/").replaceAll("~0", "~") : escaped;
    if (Array.isArray(at) && /^(0|[1-9][0-9]*)$/.test(token)) {
      const index = Number(token);
      path.push(index);
      at = at[index];
      continue;
    }
    path.push(token);
    at = member(at, token);
  }
  return path;
}

/** The value under `key` in an object, a Map or an object's kept keys; undefined elsewhere. */
function member(container: unknown, key: string): unknown {
  if (typeof container !== "object" || container === null) return undefined;
  if (container instanceof Map) return container.get(key);
  if (Object.hasOwn(container, key)) return (container as Record<string, unknown>)[key];
  const kept = (container as { [unknownKeys]?: unknown })[unknownKeys];
  return kept instanceof Map ? kept.get(key) : undefined;
}

/**
 * The containers open around the value being written, outermost first: a
 * value among them is a cycle. One list per `validate` call (a getter may
 * validate another value while one is written).
 */
let open: object[] = [];
/** ±(2^53-1) as bigints. */
const SAFE_BIGINT = BigInt(MAX_SAFE_INTEGER);

/**
 * Appends a plain JavaScript value as JSON, by concord's writer rules, or
 * throws a `WriteError` at the refused value's pointer:
 *
 * - strings (a lone surrogate refused), booleans, `null`;
 * - a number: a safe integer as an integer (`5`), any other finite one as a
 *   float in concord's layout (`5.5`, `1e+20`); NaN, the infinities and
 *   negative zero refused, as the strict profile refuses them in bytes;
 * - a bigint within ±(2^53-1) as an integer, beyond it refused;
 * - a `JsonFloat` as a float (`5.0`);
 * - an array: each item (`undefined`, or a hole, refused);
 * - a plain object (its prototype `Object.prototype` or `null`): its own
 *   enumerable string keys, in JavaScript's order (integer-like keys first),
 *   a member whose value is `undefined` left out, as absent; then the kept
 *   keys of a record read by `fromJson` (`unknownKeys`), a kept key that is
 *   also a property refused;
 * - a `Map` (a free-form object or typed map as `fromJson` makes them):
 *   string keys, a member whose value is `undefined` left out;
 * - anything else refused: functions, symbols, `undefined` in an array or
 *   at the root, instances of classes (`Date`, `Set`, typed arrays... no
 *   `toJSON` is called), a value that holds itself, and nesting deeper
 *   than 64 levels.
 */
function writePlain(out: Output, value: unknown, depth: number): void {
  switch (typeof value) {
    case "string":
      out.string(value);
      return;
    case "number":
      writeNumber(out, value);
      return;
    case "boolean":
      out.ascii(value ? "true" : "false");
      return;
    case "bigint":
      if (value > SAFE_BIGINT || value < -SAFE_BIGINT) {
        throw new WriteError(
          "",
          `integer ${prefix(value.toString())} is outside ±(2^53-1), which the strict profile refuses`,
        );
      }
      out.ascii(value.toString());
      return;
    case "object": {
      if (value === null) {
        out.ascii("null");
        return;
      }
      const array = Array.isArray(value);
      const prototype = array ? undefined : Object.getPrototypeOf(value);
      if (!array && prototype !== Object.prototype && !(value instanceof Map)) {
        if (value instanceof JsonFloat) {
          out.ascii(floatText(value.value));
          return;
        }
        if (prototype !== null) {
          const name = (prototype as { constructor?: { name?: unknown } }).constructor?.name;
          throw new WriteError(
            "",
            `cannot write ${typeof name === "string" && name !== "" ? `a ${name}` : "an object of a class"} as JSON: only plain objects, arrays and Maps`,
          );
        }
      }
      // An array, a Map or a plain object. Only `open[0..depth]` are read: the
      // containers around this one; what stands past them is overwritten.
      for (let index = 0; index < depth; index++) {
        if (open[index] === value) throw new WriteError("", "a cycle: the value holds itself");
      }
      if (depth >= MAX_DEPTH) throw new WriteError("", `nesting deeper than ${MAX_DEPTH} levels`);
      open[depth] = value;
      if (array) {
        writeArray(out, value, depth + 1);
      } else if (prototype === Object.prototype || prototype === null) {
        writeObject(out, value as Record<string, unknown>, depth + 1);
      } else {
        writeMap(out, value as Map<unknown, unknown>, depth + 1);
      }
      return;
    }
    default:
      throw new WriteError("", `cannot write ${typeof value} as JSON`);
  }
}

function writeNumber(out: Output, value: number): void {
  if (Number.isSafeInteger(value)) {
    if (value === 0 && 1 / value < 0) throw new WriteError("", "negative zero is refused");
    out.integer(value);
    return;
  }
  if (!Number.isFinite(value)) throw new WriteError("", `${nonFiniteText(value)} is not a JSON number`);
  out.float(value);
}

function writeArray(out: Output, items: readonly unknown[], depth: number): void {
  out.byte(0x5b);
  for (let index = 0; index < items.length; index++) {
    if (index > 0) out.byte(0x2c);
    try {
      writePlain(out, items[index], depth);
    } catch (error) {
      throw error instanceof WriteError ? error.under(index) : error;
    }
  }
  out.byte(0x5d);
}

/** Appends `"key":` and the member's value; `first`: no comma before it. */
function writeMember(out: Output, key: string, item: unknown, first: boolean, depth: number): void {
  if (!first) out.byte(0x2c);
  // A key that cannot be written is the object's refusal, as in the writer.
  out.string(key);
  out.byte(0x3a);
  try {
    writePlain(out, item, depth);
  } catch (error) {
    throw error instanceof WriteError ? error.under(key) : error;
  }
}

function writeObject(out: Output, record: Record<string, unknown>, depth: number): void {
  out.byte(0x7b);
  let first = true;
  const keys = Object.keys(record);
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index] as string;
    const item = record[key];
    if (item === undefined) continue;
    writeMember(out, key, item, first, depth);
    first = false;
  }
  const kept = (record as { [unknownKeys]?: unknown })[unknownKeys];
  if (kept !== undefined) {
    if (!(kept instanceof Map)) throw new WriteError("", "the kept keys (unknownKeys) must be a Map");
    for (const [key, item] of kept as Map<unknown, unknown>) {
      if (typeof key !== "string") throw new WriteError("", "an object key must be a string");
      if (item === undefined) continue;
      if (Object.hasOwn(record, key) && record[key] !== undefined)
        throw new WriteError("", "a kept key that is also a property would be written twice").under(key);
      writeMember(out, key, item, first, depth);
      first = false;
    }
  }
  out.byte(0x7d);
}

function writeMap(out: Output, members: Map<unknown, unknown>, depth: number): void {
  out.byte(0x7b);
  let first = true;
  for (const [key, item] of members) {
    if (typeof key !== "string") throw new WriteError("", "an object key must be a string");
    if (item === undefined) continue;
    writeMember(out, key, item, first, depth);
    first = false;
  }
  out.byte(0x7d);
}
