/**
 * A plan compiled into a reader and a writer per value: the reader reads
 * the value at the lexer's cursor in one pass, checking the strict profile
 * as it goes (the lexer refuses what the profile refuses) and the schema's
 * rules as the plan states them; the writer writes a value back in
 * concord's layout (docs/output-bytes.md). The Python core does the same
 * from the same plan (runtime/python-core/src/record/).
 *
 * A schema error is thrown where it is met, with the path to it; the caller
 * then checks the whole input under the strict profile, whose refusal comes
 * first wherever it stands (`read.ts`).
 */

import type { Lexer } from "../lexer.js";
import { JsonError } from "../profile.js";
import { readValue } from "../strict.js";
import { JsonFloat, type JsonValue } from "../value.js";
import { floatText, integerText, stringText, WriteError } from "../write.js";
import { type Check, compileChecks } from "./checks.js";
import { pointerOf, SchemaError, shown, VersionError } from "./errors.js";
import type { ObjectPlan, PlanValue, TypePlan, UnionPlan } from "./plan.js";

/** The symbol under which a record keeps the unknown keys its type keeps (growth points, typed or matching keys). */
export const unknownKeys: unique symbol = Symbol.for("concord.unknownKeys");

export type Path = (string | number)[];

/** Reads the value at the cursor (and the whitespace after it). */
export type Read = (lx: Lexer, path: Path) => unknown;
/** Writes `value`, or throws a `WriteError` at `path`. */
export type Write = (value: unknown, path: Path) => string;

export interface Node {
  read: Read;
  write: Write;
  /** What the value is, for messages: `a string`, `an object`... */
  expecting: string;
}

/** Resolves a named type to its node: compiled once, on first use, so recursion is fine. */
export type Resolve = (ref: { type: string; module?: string }) => Node;

const QUOTE = 0x22;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;

function schemaError(path: Path, message: string): SchemaError {
  return new SchemaError(pointerOf(path), message);
}

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
    case 0x6e:
      return "null";
    default:
      return "number";
  }
}

function invalidType(lx: Lexer, path: Path, expecting: string): SchemaError {
  return schemaError(path, `invalid type: ${found(lx)}, expected ${expecting}`);
}

/** A free-form JSON value: objects as `Map`s (input order, any key), integral float literals as `JsonFloat`. */
export function readAny(lx: Lexer): JsonValue {
  return readValue(lx);
}

/** `text` as a JSON string, or a `WriteError` at `path` (a lone surrogate). */
function quote(text: string, path: Path): string {
  try {
    return stringText(text);
  } catch (error) {
    throw error instanceof WriteError ? new WriteError(pointerOf(path), error.detail) : error;
  }
}

/** Whether the number at the cursor is an integer literal (no fraction, no exponent); the cursor stays. */
function integerLiteralAt(lx: Lexer): boolean {
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
function lookAhead(lx: Lexer, property: string): string | { integer: number } | "other" | undefined {
  const [pos, depth] = [lx.pos, lx.depth];
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

/** Writes a free-form value: `Map`s and plain objects as objects, `JsonFloat` and non-integral numbers as floats. */
export function writeAny(value: unknown, path: Path): string {
  switch (typeof value) {
    case "string":
      return quote(value, path);
    case "number":
      return Number.isInteger(value) ? integer(value, path) : float(value, path);
    case "boolean":
      return value ? "true" : "false";
    case "object": {
      if (value === null) return "null";
      if (value instanceof JsonFloat) return float(value.value, path);
      if (Array.isArray(value)) {
        let out = "[";
        for (let index = 0; index < value.length; index++) {
          path.push(index);
          out += (index === 0 ? "" : ",") + writeAny(value[index], path);
          path.pop();
        }
        return `${out}]`;
      }
      const entries: Iterable<[string, unknown]> = value instanceof Map ? value : Object.entries(value);
      let out = "{";
      for (const [key, item] of entries) {
        if (typeof key !== "string") throw new WriteError(pointerOf(path), "an object key must be a string");
        path.push(key);
        out += `${out.length === 1 ? "" : ","}${quote(key, path)}:${writeAny(item, path)}`;
        path.pop();
      }
      return `${out}}`;
    }
    default:
      throw new WriteError(pointerOf(path), `${typeof value} is not a JSON value`);
  }
}

function integer(value: number, path: Path): string {
  try {
    return integerText(value);
  } catch (error) {
    throw error instanceof WriteError ? new WriteError(pointerOf(path), error.detail) : error;
  }
}

function float(value: number, path: Path): string {
  try {
    return floatText(value);
  } catch (error) {
    throw error instanceof WriteError ? new WriteError(pointerOf(path), error.detail) : error;
  }
}

const ANY: Node = { read: readAny, write: writeAny, expecting: "any JSON value" };

const STRING: Node = {
  read(lx, path) {
    if (lx.peek() !== QUOTE) throw invalidType(lx, path, "a string");
    const value = lx.string();
    lx.ws();
    return value;
  },
  write(value, path) {
    if (typeof value !== "string") throw new WriteError(pointerOf(path), "expected a string");
    return quote(value, path);
  },
  expecting: "a string",
};

const INTEGER: Node = {
  read(lx, path) {
    const next = lx.peek();
    if (next !== 0x2d && (next < 0x30 || next > 0x39)) throw invalidType(lx, path, "an integer");
    const value = lx.number();
    if (!lx.lastNumberWasInteger)
      throw schemaError(path, `invalid type: floating point \`${value}\`, expected an integer`);
    lx.ws();
    return value;
  },
  write(value, path) {
    if (typeof value !== "number" || !Number.isInteger(value))
      throw new WriteError(pointerOf(path), "expected an integer");
    return integer(value, path);
  },
  expecting: "an integer",
};

const NUMBER: Node = {
  read(lx, path) {
    const next = lx.peek();
    if (next !== 0x2d && (next < 0x30 || next > 0x39)) throw invalidType(lx, path, "a number");
    const value = lx.number();
    lx.ws();
    return value;
  },
  write(value, path) {
    if (value instanceof JsonFloat) return float(value.value, path);
    if (typeof value !== "number") throw new WriteError(pointerOf(path), "expected a number");
    return float(value, path);
  },
  expecting: "a number",
};

const BOOLEAN: Node = {
  read(lx, path) {
    const next = lx.peek();
    if (next !== 0x74 && next !== 0x66) throw invalidType(lx, path, "a boolean");
    const value = lx.literal();
    lx.ws();
    return value;
  },
  write(value, path) {
    if (typeof value !== "boolean") throw new WriteError(pointerOf(path), "expected a boolean");
    return value ? "true" : "false";
  },
  expecting: "a boolean",
};

const NULL: Node = {
  read(lx, path) {
    if (lx.peek() !== 0x6e) throw invalidType(lx, path, "null");
    lx.literal();
    lx.ws();
    return null;
  },
  write(value, path) {
    if (value !== null) throw new WriteError(pointerOf(path), "expected null");
    return "null";
  },
  expecting: "null",
};

/** The reader and writer of a value of the plan. */
export function compileValue(plan: PlanValue, resolve: Resolve): Node {
  if (typeof plan === "string") {
    switch (plan) {
      case "any":
        return ANY;
      case "string":
        return STRING;
      case "integer":
        return INTEGER;
      case "number":
        return NUMBER;
      case "boolean":
        return BOOLEAN;
      case "null":
        return NULL;
    }
  }
  if ("ref" in plan) return lazy(() => resolve(plan.ref));
  if ("checked" in plan) return checked(compileValue(plan.checked.value, resolve), compileChecks(plan.checked.checks));
  if ("nullable" in plan) return nullable(compileValue(plan.nullable, resolve));
  if ("array" in plan) return array(compileValue(plan.array, resolve));
  if ("map" in plan) return map(compileValue(plan.map, resolve));
  if ("tuple" in plan) return tuple(plan.tuple.map((item) => compileValue(item, resolve)));
  throw new Error(
    `a plan value this runtime does not know: ${JSON.stringify(plan)} (generate with the concord of this runtime's version)`,
  );
}

/** A node that stands for another, found on first use (a named type, perhaps recursive). */
function lazy(find: () => Node): Node {
  let target: Node | undefined;
  const node: Node = {
    read(lx, path) {
      target ??= find();
      node.read = target.read;
      return target.read(lx, path);
    },
    write(value, path) {
      target ??= find();
      node.write = target.write;
      return target.write(value, path);
    },
    get expecting() {
      target ??= find();
      return target.expecting;
    },
  };
  return node;
}

/**
 * The first check that failed in this read, reported once the whole value
 * has read: a value of the wrong type anywhere is refused first, as in Rust,
 * whose checks run on values serde has built.
 */
let pendingCheck: SchemaError | undefined;

/** Starts a read: no check has failed yet. */
export function startRead(): void {
  pendingCheck = undefined;
}

/** Ends a read: throws the first check that failed, if any. */
export function finishRead(): void {
  const failed = pendingCheck;
  pendingCheck = undefined;
  if (failed !== undefined) throw failed;
}

function checked(inner: Node, checks: Check[]): Node {
  return {
    read(lx, path) {
      const value = inner.read(lx, path);
      if (pendingCheck === undefined) {
        for (const check of checks) {
          const failure = check(value);
          if (failure !== undefined) {
            pendingCheck = schemaError(path, failure);
            break;
          }
        }
      }
      return value;
    },
    write: inner.write,
    expecting: inner.expecting,
  };
}

function nullable(inner: Node): Node {
  return {
    read(lx, path) {
      if (lx.peek() === 0x6e) {
        lx.literal();
        lx.ws();
        return null;
      }
      return inner.read(lx, path);
    },
    write(value, path) {
      return value === null ? "null" : inner.write(value, path);
    },
    expecting: `${inner.expecting} or null`,
  };
}

function array(items: Node): Node {
  return {
    read(lx, path) {
      if (lx.peek() !== OPEN_BRACKET) throw invalidType(lx, path, "an array");
      const values: unknown[] = [];
      lx.enter();
      if (lx.moreItems(true)) {
        do {
          lx.ws();
          path.push(values.length);
          values.push(items.read(lx, path));
          path.pop();
        } while (lx.moreItems(false));
      }
      return values;
    },
    write(value, path) {
      if (!Array.isArray(value)) throw new WriteError(pointerOf(path), "expected an array");
      let out = "[";
      for (let index = 0; index < value.length; index++) {
        path.push(index);
        out += (index === 0 ? "" : ",") + items.write(value[index], path);
        path.pop();
      }
      return `${out}]`;
    },
    expecting: "an array",
  };
}

function tuple(items: Node[]): Node {
  return {
    read(lx, path) {
      if (lx.peek() !== OPEN_BRACKET) throw invalidType(lx, path, `an array of ${items.length}`);
      const values: unknown[] = [];
      lx.enter();
      if (lx.moreItems(true)) {
        do {
          lx.ws();
          const item = items[values.length];
          if (item === undefined) {
            // Too long: the rest is read (strictly) and counted, and the tuple itself refused, as serde does.
            let length = values.length;
            do {
              lx.skipValue();
              length++;
            } while (lx.moreItems(false));
            throw schemaError(path, `invalid length ${length}, expected fewer elements in array`);
          }
          path.push(values.length);
          values.push(item.read(lx, path));
          path.pop();
        } while (lx.moreItems(false));
      }
      if (values.length < items.length) {
        path.push(values.length);
        throw schemaError(path, `invalid length ${values.length}, expected an array of ${items.length}`);
      }
      return values;
    },
    write(value, path) {
      if (!Array.isArray(value) || value.length !== items.length) {
        throw new WriteError(pointerOf(path), `expected an array of ${items.length}`);
      }
      let out = "[";
      items.forEach((item, index) => {
        path.push(index);
        out += (index === 0 ? "" : ",") + item.write(value[index], path);
        path.pop();
      });
      return `${out}]`;
    },
    expecting: `an array of ${items.length}`,
  };
}

/**
 * Reads an object's members in order, as the strict reader does: `known`
 * says whether a key was read before (a duplicate, refused at the key
 * before its colon), `each` reads the value at the cursor.
 */
function members(
  lx: Lexer,
  path: Path,
  expecting: string,
  known: (key: string) => boolean,
  each: (key: string) => void,
): void {
  if (lx.peek() !== OPEN_BRACE) throw invalidType(lx, path, expecting);
  lx.enter();
  let first = true;
  while (lx.moreMembers(first)) {
    const key = lx.key(first);
    first = false;
    if (known(key)) throw lx.duplicateKey(key);
    lx.colon();
    lx.ws();
    each(key);
  }
}

function map(values: Node): Node {
  return {
    read(lx, path) {
      const result = new Map<string, unknown>();
      members(
        lx,
        path,
        "a map",
        (key) => result.has(key),
        (key) => {
          path.push(key);
          result.set(key, values.read(lx, path));
          path.pop();
        },
      );
      return result;
    },
    write(value, path) {
      const entries: Iterable<[string, unknown]> | undefined =
        value instanceof Map
          ? value
          : typeof value === "object" && value !== null && !Array.isArray(value)
            ? Object.entries(value)
            : undefined;
      if (entries === undefined) throw new WriteError(pointerOf(path), "expected a Map");
      let out = "{";
      for (const [key, item] of entries) {
        path.push(key);
        out += `${out.length === 1 ? "" : ","}${quote(key, path)}:${values.write(item, path)}`;
        path.pop();
      }
      return `${out}}`;
    },
    expecting: "a map",
  };
}

/** A named type of the plan: its node. */
export function compileType(name: string, plan: TypePlan, resolve: Resolve): Node {
  if ("object" in plan) return object(name, plan.object, resolve);
  if ("enum" in plan) return enumeration(plan.enum, false);
  if ("open_enum" in plan) return enumeration(plan.open_enum, true);
  if ("typed_id" in plan) return checked(STRING, compileChecks([], plan.typed_id));
  if ("alias" in plan) return compileValue(plan.alias, resolve);
  if ("union" in plan) return union(plan.union, resolve);
  throw new Error(`a type this runtime does not know: ${name} (generate with the concord of this runtime's version)`);
}

function enumeration(values: string[], open: boolean): Node {
  const known = new Set(values);
  const listed = values.map((value) => `\`${value}\``).join(", ");
  const expecting = `one of the strings ${listed}`;
  return {
    read(lx, path) {
      if (lx.peek() !== QUOTE) throw invalidType(lx, path, open ? "a string" : expecting);
      const value = lx.string();
      if (!open && !known.has(value))
        throw schemaError(path, `unknown variant \`${shown(value)}\`, expected ${expecting}`);
      lx.ws();
      return value;
    },
    write(value, path) {
      if (typeof value !== "string" || (!open && !known.has(value)))
        throw new WriteError(pointerOf(path), `expected ${expecting}`);
      return quote(value, path);
    },
    expecting,
  };
}

function union(plan: UnionPlan, resolve: Resolve): Node {
  const branches = plan.branches.map((branch) => ({ key: branch.key, node: compileValue(branch.value, resolve) }));
  const by = plan.by;
  if (by !== "json_type") return tagged(by.tag, branches);
  const branch = (key: string) => branches.find((candidate) => candidate.key === key)?.node;
  const [string, integerBranch, numberBranch, boolean, nullBranch, arrayBranch, objectBranch] = [
    branch("string"),
    branch("integer"),
    branch("number"),
    branch("boolean"),
    branch("null"),
    branch("array"),
    branch("object"),
  ];
  const expecting = branches.map((candidate) => candidate.key).join(" or ");
  const pick = (lx: Lexer): Node | undefined => {
    const next = lx.peek();
    if (next === QUOTE) return string;
    if (next === OPEN_BRACE) return objectBranch;
    if (next === OPEN_BRACKET) return arrayBranch;
    if (next === 0x74 || next === 0x66) return boolean;
    if (next === 0x6e) return nullBranch;
    // A number: an integer literal goes to the integer branch when there is one.
    if (integerBranch !== undefined && integerLiteralAt(lx)) return integerBranch;
    return numberBranch;
  };
  // A number branch beside an integer one holds an integral float as a JsonFloat, so it is written back a float.
  const floatBranch: Node | undefined =
    numberBranch !== undefined && integerBranch !== undefined
      ? {
          read(lx, path) {
            const value = numberBranch.read(lx, path);
            return typeof value === "number" && Number.isInteger(value) ? new JsonFloat(value) : value;
          },
          write: numberBranch.write,
          expecting: numberBranch.expecting,
        }
      : numberBranch;
  return {
    read(lx, path) {
      let node = pick(lx);
      if (node === numberBranch) node = floatBranch;
      if (node === undefined) throw invalidType(lx, path, expecting);
      return node.read(lx, path);
    },
    write(value, path) {
      const node = writerFor(value);
      if (node === undefined) throw new WriteError(pointerOf(path), `expected ${expecting}`);
      return node.write(value, path);
    },
    expecting,
  };
  function writerFor(value: unknown): Node | undefined {
    switch (typeof value) {
      case "string":
        return string;
      case "boolean":
        return boolean;
      case "number":
        return integerBranch !== undefined && Number.isInteger(value) ? integerBranch : numberBranch;
      case "object":
        if (value === null) return nullBranch;
        if (value instanceof JsonFloat) return numberBranch;
        if (Array.isArray(value)) return arrayBranch;
        return objectBranch;
      default:
        return undefined;
    }
  }
}

function tagged(property: string, branches: { key: string; node: Node }[]): Node {
  const byTag = new Map(branches.map((branch) => [branch.key, branch.node]));
  const tags = branches.map((branch) => `\`${branch.key}\``).join(", ");
  return {
    read(lx, path) {
      if (lx.peek() !== OPEN_BRACE) throw schemaError(path, `expected an object with the tag \`${property}\``);
      const tag = lookAhead(lx, property);
      if (tag === undefined) throw schemaError(path, `missing the tag \`${property}\``);
      const node = typeof tag === "string" ? byTag.get(tag) : undefined;
      if (node === undefined) throw schemaError(path, `the tag \`${property}\` is not one of ${tags}`);
      return node.read(lx, path);
    },
    write(value, path) {
      const tag =
        typeof value === "object" && value !== null ? (value as Record<string, unknown>)[property] : undefined;
      const node = typeof tag === "string" ? byTag.get(tag) : undefined;
      if (node === undefined) throw new WriteError(pointerOf(path), `the tag \`${property}\` is not one of ${tags}`);
      return node.write(value, path);
    },
    expecting: `an object with the tag \`${property}\``,
  };
}

interface FieldNode {
  json: string;
  /** The key as written: quoted, with its colon. */
  written: string;
  required: boolean;
  /** Whether an explicit null is a value (absent is not). */
  nullable: boolean;
  node: Node;
}

/** An own property of a record: `__proto__` is a key like any other. */
function own(record: Record<string, unknown>, key: string): unknown {
  return key === "__proto__" ? (Object.hasOwn(record, key) ? record[key] : undefined) : record[key];
}

function setOwn(record: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") {
    Object.defineProperty(record, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    record[key] = value;
  }
}

function object(name: string, plan: ObjectPlan, resolve: Resolve): Node {
  const fields: FieldNode[] = plan.fields.map((field) => ({
    json: field.json,
    written: `${quote(field.json, [])}:`,
    required: field.presence === "required",
    nullable: field.presence !== "optional",
    node: compileValue(field.value, resolve),
  }));
  const index = new Map(fields.map((field, at) => [field.json, at]));
  const policy = plan.unknown_keys;
  const refuse = policy === "refuse";
  const keep = policy === "keep";
  const typed = typeof policy === "object" && "typed" in policy ? compileValue(policy.typed, resolve) : undefined;
  const matching =
    typeof policy === "object" && "matching" in policy
      ? policy.matching.map((pattern) => new RegExp(pattern.ecma, "u"))
      : undefined;
  const keeps = keep || typed !== undefined || matching !== undefined;
  const expectedKeys = fields.map((field) => `\`${field.json}\``).join(", ");
  const count = plan.properties;
  const version = plan.version;
  const expecting = `struct ${name}`;
  const read: Read = (lx, path) => {
    if (version !== undefined && lx.peek() === OPEN_BRACE) {
      const found = lookAhead(lx, version.field);
      if (typeof found === "object" && !version.supported.includes(found.integer)) {
        path.push(version.field);
        throw new VersionError(
          pointerOf(path),
          `unsupported version ${found.integer} of ${name}: supported ${version.supported.join(", ")}`,
        );
      }
    }
    const record: Record<string | symbol, unknown> = {};
    const seen = new Uint8Array(fields.length);
    let kept: Map<string, unknown> | undefined;
    let unknown: Set<string> | undefined;
    let total = 0;
    const known = (key: string): boolean => {
      const position = index.get(key);
      if (position !== undefined) return seen[position] === 1;
      return unknown?.has(key) === true;
    };
    members(lx, path, expecting, known, (key) => {
      total++;
      const position = index.get(key);
      if (position !== undefined) {
        const field = fields[position] as FieldNode;
        seen[position] = 1;
        path.push(key);
        if (!field.nullable && lx.peek() === 0x6e)
          throw schemaError(path, `invalid type: null, expected ${field.node.expecting}`);
        setOwn(record as Record<string, unknown>, key, field.node.read(lx, path));
        path.pop();
        return;
      }
      unknown ??= new Set();
      unknown.add(key);
      if (refuse) {
        path.push(key);
        throw schemaError(
          path,
          `unknown field \`${shown(key)}\`, expected ${fields.length === 0 ? "no fields" : `one of ${expectedKeys}`}`,
        );
      }
      if (!keeps || (matching !== undefined && !matching.some((pattern) => pattern.test(key)))) {
        lx.skipValue();
        return;
      }
      kept ??= new Map();
      path.push(key);
      kept.set(key, typed !== undefined ? typed.read(lx, path) : readAny(lx));
      path.pop();
    });
    for (let position = 0; position < fields.length; position++) {
      const field = fields[position] as FieldNode;
      if (field.required && seen[position] === 0) {
        path.push(field.json);
        throw schemaError(path, `missing field \`${field.json}\``);
      }
    }
    if (
      pendingCheck === undefined &&
      count !== undefined &&
      ((count.min !== undefined && total < count.min) || (count.max !== undefined && total > count.max))
    ) {
      pendingCheck = schemaError(path, `${total} properties, expected ${bounds(count.min, count.max)}`);
    }
    if (keeps) record[unknownKeys] = kept ?? new Map();
    return record;
  };
  const write: Write = (value, path) => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      throw new WriteError(pointerOf(path), `expected ${expecting}`);
    }
    const record = value as Record<string | symbol, unknown>;
    let out = "{";
    for (const field of fields) {
      const item = own(record as Record<string, unknown>, field.json);
      if (item === undefined) {
        if (field.required) throw new WriteError(pointerOf([...path, field.json]), `missing field \`${field.json}\``);
        continue;
      }
      path.push(field.json);
      if (item === null && !field.nullable)
        throw new WriteError(pointerOf(path), "null is not a value of this field: leave it out");
      out += (out.length === 1 ? "" : ",") + field.written + field.node.write(item, path);
      path.pop();
    }
    const extra = record[unknownKeys];
    if (keeps && extra instanceof Map) {
      for (const [key, item] of extra as Map<string, unknown>) {
        path.push(key);
        if (index.has(key))
          throw new WriteError(pointerOf(path), "a kept key that is a declared property would be written twice");
        out += `${out.length === 1 ? "" : ","}${quote(key, path)}:${typed !== undefined ? typed.write(item, path) : writeAny(item, path)}`;
        path.pop();
      }
    }
    return `${out}}`;
  };
  return { read, write, expecting };
}

function bounds(min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) return `between ${min} and ${max}`;
  return min !== undefined ? `at least ${min}` : `at most ${max}`;
}
