/**
 * A plan compiled into a reader and a writer per value: the reader reads
 * the value at the lexer's cursor in one pass, checking the strict profile
 * as it goes (the lexer refuses what the profile refuses) and the schema's
 * rules as the plan states them; the writer appends a value to an `Output`
 * in concord's layout (docs/output-bytes.md). The Python core does the same
 * from the same plan (runtime/python-core/src/record/).
 *
 * A schema error is thrown where it is met as a `Failure`, which holds no
 * pointer yet: each array, tuple, map and object it passes through on the
 * way out adds its index or key, and `fromJson` turns it into a
 * `SchemaError` once the whole input is checked under the strict profile,
 * whose refusal comes first wherever it stands (`registry.ts`). A write
 * refusal is a `WriteError` that containers extend the same way
 * (`WriteError.under`). So nothing is paid for pointers until something is
 * refused.
 */

import { type Lexer, plainKey } from "../lexer.js";
import { JsonError } from "../profile.js";
import { readValue } from "../strict.js";
import { JsonFloat, type JsonValue } from "../value.js";
import { Output, WriteError, writeValueTo } from "../write.js";
import { type Check, compileChecks } from "./checks.js";
import { pointerOf, SchemaError, shown, VersionError } from "./errors.js";
import type { ObjectPlan, PlanValue, TypePlan, UnionPlan } from "./plan.js";

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
function failureAt(token: string | number, detail: string): Failure {
  const failure = new Failure(detail);
  failure.tokens.push(token);
  return failure;
}

/** `error`, seen from the container that holds the failed value at `token`. */
function failedAt(error: unknown, token: string | number): unknown {
  if (error instanceof Failure) error.tokens.push(token);
  return error;
}

/** `error`, seen from the container that holds the refused value at `token`. */
function refusedAt(error: unknown, token: string | number): unknown {
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

const QUOTE = 0x22;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;
const NULL_START = 0x6e;

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

function invalidType(lx: Lexer, expecting: string): Failure {
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
let pendingLevel = -1;

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

/** The pending failure was met in the item at `token` of the container at `level`: its pointer takes the token. */
function pendingIn(level: number, token: string | number): void {
  (pending as Failure).tokens.push(token);
  pendingLevel = level - 1;
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

// A free-form value is read and written by the strict reader's and the writer's own code.
const ANY: Node = {
  read: readValue,
  write: (value, out) => writeValueTo(out, value as JsonValue),
  expecting: "any JSON value",
};

const STRING: Node = {
  read(lx) {
    if (lx.peek() !== QUOTE) throw invalidType(lx, "a string");
    const value = lx.stringValue();
    lx.ws();
    return value;
  },
  write(value, out) {
    if (typeof value !== "string") throw new WriteError("", "expected a string");
    out.string(value);
  },
  expecting: "a string",
};

const INTEGER: Node = {
  read(lx) {
    const next = lx.peek();
    if (next !== 0x2d && (next < 0x30 || next > 0x39)) throw invalidType(lx, "an integer");
    const value = lx.number();
    if (!lx.lastNumberWasInteger) throw new Failure(`invalid type: floating point \`${value}\`, expected an integer`);
    lx.ws();
    return value;
  },
  write(value, out) {
    if (typeof value !== "number" || !Number.isInteger(value)) throw new WriteError("", "expected an integer");
    out.integer(value);
  },
  expecting: "an integer",
};

const NUMBER: Node = {
  read(lx) {
    const next = lx.peek();
    if (next !== 0x2d && (next < 0x30 || next > 0x39)) throw invalidType(lx, "a number");
    const value = lx.number();
    lx.ws();
    return value;
  },
  write(value, out) {
    if (value instanceof JsonFloat) {
      out.float(value.value);
      return;
    }
    if (typeof value !== "number") throw new WriteError("", "expected a number");
    out.float(value);
  },
  expecting: "a number",
};

const BOOLEAN: Node = {
  read(lx) {
    const next = lx.peek();
    if (next !== 0x74 && next !== 0x66) throw invalidType(lx, "a boolean");
    const value = lx.literal();
    lx.ws();
    return value;
  },
  write(value, out) {
    if (typeof value !== "boolean") throw new WriteError("", "expected a boolean");
    out.ascii(value ? "true" : "false");
  },
  expecting: "a boolean",
};

const NULL: Node = {
  read(lx) {
    if (lx.peek() !== NULL_START) throw invalidType(lx, "null");
    lx.literal();
    lx.ws();
    return null;
  },
  write(value, out) {
    if (value !== null) throw new WriteError("", "expected null");
    out.ascii("null");
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
    read(lx) {
      target ??= find();
      node.read = target.read;
      return target.read(lx);
    },
    write(value, out) {
      target ??= find();
      node.write = target.write;
      target.write(value, out);
    },
    get expecting() {
      target ??= find();
      return target.expecting;
    },
  };
  return node;
}

function checked(inner: Node, checks: Check[]): Node {
  return {
    read(lx) {
      const value = inner.read(lx);
      if (pending === undefined) {
        for (const check of checks) {
          const failure = check(value);
          if (failure !== undefined) {
            pending = new Failure(failure);
            pendingLevel = lx.depth;
            break;
          }
        }
      }
      return value;
    },
    write: inner.write,
    get expecting() {
      return inner.expecting;
    },
  };
}

function nullable(inner: Node): Node {
  return {
    read(lx) {
      if (lx.peek() === NULL_START) {
        lx.literal();
        lx.ws();
        return null;
      }
      return inner.read(lx);
    },
    write(value, out) {
      if (value === null) {
        out.ascii("null");
      } else {
        inner.write(value, out);
      }
    },
    // Asked for only when a read is refused: `inner` may be a type still being compiled (one that holds itself).
    get expecting() {
      return `${inner.expecting} or null`;
    },
  };
}

/** Where the items of the arrays being read gather (`array`): `top` of them; those above are stale. */
const stack: unknown[] = [];
let top = 0;
let highest = 0;

/** Takes the stack back to `start`; once the outermost array is read, it lets go of what the arrays held. */
function unwind(start: number): void {
  if (top > highest) highest = top;
  top = start;
  if (start === 0) {
    stack.fill(undefined, 0, highest);
    highest = 0;
  }
}

function array(items: Node): Node {
  return {
    read(lx) {
      if (lx.peek() !== OPEN_BRACKET) throw invalidType(lx, "an array");
      lx.enter();
      if (!lx.moreItems(true)) return [];
      const level = lx.depth;
      // The items gather on a stack shared by every array read, and leave it as an array of their size.
      const start = top;
      try {
        do {
          lx.ws();
          const item = items.read(lx);
          stack[top++] = item;
          if (pendingLevel === level) pendingIn(level, top - 1 - start);
        } while (lx.moreItems(false));
      } catch (error) {
        const at = top - start;
        unwind(start);
        throw failedAt(error, at);
      }
      const values = stack.slice(start, top);
      unwind(start);
      return values;
    },
    write(value, out) {
      if (!Array.isArray(value)) throw new WriteError("", "expected an array");
      out.byte(OPEN_BRACKET);
      let index = 0;
      try {
        for (; index < value.length; index++) {
          if (index > 0) out.byte(COMMA);
          items.write(value[index], out);
        }
      } catch (error) {
        throw refusedAt(error, index);
      }
      out.byte(CLOSE_BRACKET);
    },
    expecting: "an array",
  };
}

function tuple(items: Node[]): Node {
  return {
    read(lx) {
      if (lx.peek() !== OPEN_BRACKET) throw invalidType(lx, `an array of ${items.length}`);
      const values: unknown[] = [];
      lx.enter();
      if (lx.moreItems(true)) {
        const level = lx.depth;
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
            throw new Failure(`invalid length ${length}, expected fewer elements in array`);
          }
          try {
            values.push(item.read(lx));
          } catch (error) {
            throw failedAt(error, values.length);
          }
          if (pendingLevel === level) pendingIn(level, values.length - 1);
        } while (lx.moreItems(false));
      }
      if (values.length < items.length) {
        throw failureAt(values.length, `invalid length ${values.length}, expected an array of ${items.length}`);
      }
      return values;
    },
    write(value, out) {
      if (!Array.isArray(value) || value.length !== items.length) {
        throw new WriteError("", `expected an array of ${items.length}`);
      }
      out.byte(OPEN_BRACKET);
      for (let index = 0; index < items.length; index++) {
        if (index > 0) out.byte(COMMA);
        try {
          (items[index] as Node).write(value[index], out);
        } catch (error) {
          throw refusedAt(error, index);
        }
      }
      out.byte(CLOSE_BRACKET);
    },
    expecting: `an array of ${items.length}`,
  };
}

function map(values: Node): Node {
  return {
    read(lx) {
      if (lx.peek() !== OPEN_BRACE) throw invalidType(lx, "a map");
      const result = new Map<string, unknown>();
      lx.enter();
      const level = lx.depth;
      let first = true;
      let key = "";
      try {
        while (lx.moreMembers(first)) {
          key = lx.key(first);
          first = false;
          if (result.has(key)) throw lx.duplicateKey(key);
          lx.colon();
          lx.ws();
          result.set(key, values.read(lx));
          if (pendingLevel === level) pendingIn(level, key);
        }
      } catch (error) {
        throw failedAt(error, key);
      }
      return result;
    },
    write(value, out) {
      const entries: Iterable<[string, unknown]> | undefined =
        value instanceof Map
          ? value
          : typeof value === "object" && value !== null && !Array.isArray(value)
            ? Object.entries(value)
            : undefined;
      if (entries === undefined) throw new WriteError("", "expected a Map");
      out.byte(OPEN_BRACE);
      let first = true;
      for (const [key, item] of entries) {
        if (typeof key !== "string") throw new WriteError("", "an object key must be a string");
        if (!first) out.byte(COMMA);
        first = false;
        try {
          out.string(key);
          out.byte(COLON);
          values.write(item, out);
        } catch (error) {
          throw refusedAt(error, key);
        }
      }
      out.byte(CLOSE_BRACE);
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

/** Up to this many values, an enumeration's reader compares each in place before reading the string. */
const ENUM_IN_PLACE = 8;

function enumeration(values: string[], open: boolean): Node {
  const known = new Set(values);
  const listed = values.map((value) => `\`${value}\``).join(", ");
  const expecting = `one of the strings ${listed}`;
  // The values a read takes in place, and gives as the plan's own strings.
  const inPlace = values.length <= ENUM_IN_PLACE ? values.filter(plainKey) : [];
  return {
    read(lx) {
      if (lx.peek() !== QUOTE) throw invalidType(lx, open ? "a string" : expecting);
      for (let index = 0; index < inPlace.length; index++) {
        const value = inPlace[index] as string;
        if (lx.takeKey(value)) {
          lx.ws();
          return value;
        }
      }
      const value = lx.string();
      if (!open && !known.has(value)) throw new Failure(`unknown variant \`${shown(value)}\`, expected ${expecting}`);
      lx.ws();
      return value;
    },
    write(value, out) {
      if (typeof value !== "string" || (!open && !known.has(value))) throw new WriteError("", `expected ${expecting}`);
      out.string(value);
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
    if (next === NULL_START) return nullBranch;
    // A number: an integer literal goes to the integer branch when there is one.
    if (integerBranch !== undefined && integerLiteralAt(lx)) return integerBranch;
    return numberBranch;
  };
  // A number branch beside an integer one holds an integral float as a JsonFloat, so it is written back a float.
  const floatBranch: Node | undefined =
    numberBranch !== undefined && integerBranch !== undefined
      ? {
          read(lx) {
            const value = numberBranch.read(lx);
            return typeof value === "number" && Number.isInteger(value) ? new JsonFloat(value) : value;
          },
          write: numberBranch.write,
          get expecting() {
            return numberBranch.expecting;
          },
        }
      : numberBranch;
  return {
    read(lx) {
      let node = pick(lx);
      if (node === numberBranch) node = floatBranch;
      if (node === undefined) throw invalidType(lx, expecting);
      return node.read(lx);
    },
    write(value, out) {
      const node = writerFor(value);
      if (node === undefined) throw new WriteError("", `expected ${expecting}`);
      node.write(value, out);
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
    read(lx) {
      if (lx.peek() !== OPEN_BRACE) throw new Failure(`expected an object with the tag \`${property}\``);
      const tag = lookAhead(lx, property);
      if (tag === undefined) throw new Failure(`missing the tag \`${property}\``);
      const node = typeof tag === "string" ? byTag.get(tag) : undefined;
      if (node === undefined) throw new Failure(`the tag \`${property}\` is not one of ${tags}`);
      return node.read(lx);
    },
    write(value, out) {
      const tag =
        typeof value === "object" && value !== null ? (value as Record<string, unknown>)[property] : undefined;
      const node = typeof tag === "string" ? byTag.get(tag) : undefined;
      if (node === undefined) throw new WriteError("", `the tag \`${property}\` is not one of ${tags}`);
      node.write(value, out);
    },
    expecting: `an object with the tag \`${property}\``,
  };
}

interface FieldNode {
  json: string;
  /** Whether a read may take the key in place (`Lexer.takeKey`). */
  plain: boolean;
  /** Whether the key is `__proto__`, which only `Object.defineProperty` makes an own property. */
  proto: boolean;
  /** Whether a record inherits a property of that name (`constructor`, `toString`, `__proto__`...): only an own one is the field's. */
  inherited: boolean;
  /** The key as written: quoted, with its colon, in UTF-8; and after a comma, for a field that is not the first. */
  written: Uint8Array;
  writtenAfter: Uint8Array;
  required: boolean;
  /** Whether an explicit null is a value (absent is not). */
  nullable: boolean;
  node: Node;
}

/** Fields past this many are marked seen in an array, the first ones in the bits of a number. */
const BITS = 31;
/** How many declared fields a read tries in place after the one it expects next, before reading the key. */
const TRIES = 3;

function object(name: string, plan: ObjectPlan, resolve: Resolve): Node {
  const fields: FieldNode[] = plan.fields.map((field) => {
    const written = new Output(field.json.length + 4);
    written.byte(COMMA);
    written.string(field.json);
    written.byte(COLON);
    const writtenAfter = written.toBytes();
    return {
      json: field.json,
      plain: plainKey(field.json),
      proto: field.json === "__proto__",
      inherited: field.json in Object.prototype,
      written: writtenAfter.subarray(1),
      writtenAfter,
      required: field.presence === "required",
      nullable: field.presence !== "optional",
      node: compileValue(field.value, resolve),
    };
  });
  const size = fields.length;
  const index = new Map(fields.map((field, at) => [field.json, at]));
  let requiredBits = 0;
  for (let at = 0; at < Math.min(size, BITS); at++) {
    if ((fields[at] as FieldNode).required) requiredBits |= 1 << at;
  }
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
  // The type's records are plain objects made by a constructor of their own: the engine then
  // sizes them for the fields they take, where `{}` grows at every property added.
  const Plain = function (this: object) {} as unknown as new () => object;
  Plain.prototype = Object.prototype;

  /** The first required field missing from a read, in plan order, given what was seen. */
  function missing(seen: number, seenPast: Uint8Array | undefined): Failure | undefined {
    for (let at = 0; at < size; at++) {
      const field = fields[at] as FieldNode;
      if (!field.required) continue;
      const was = at < BITS ? (seen & (1 << at)) !== 0 : seenPast !== undefined && seenPast[at] === 1;
      if (!was) return failureAt(field.json, `missing field \`${field.json}\``);
    }
    return undefined;
  }

  const read: Read = (lx) => {
    if (lx.peek() !== OPEN_BRACE) throw invalidType(lx, expecting);
    if (version !== undefined) {
      const found = lookAhead(lx, version.field);
      if (typeof found === "object" && !version.supported.includes(found.integer)) {
        const failure = new Failure(
          `unsupported version ${found.integer} of ${name}: supported ${version.supported.join(", ")}`,
          true,
        );
        failure.tokens.push(version.field);
        throw failure;
      }
    }
    lx.enter();
    const level = lx.depth;
    const record = new Plain() as Record<string | symbol, unknown>;
    let seen = 0;
    let seenPast: Uint8Array | undefined;
    let kept: Map<string, unknown> | undefined;
    let unknown: Set<string> | undefined;
    let total = 0;
    let next = 0;
    let first = true;
    let key = "";
    try {
      while (lx.moreMembers(first)) {
        lx.openKey(first);
        first = false;
        // The field after the last one read is tried first, in place, then a few after it.
        let position = -1;
        const stop = Math.min(next + TRIES, size);
        for (let at = next; at < stop; at++) {
          const field = fields[at] as FieldNode;
          if (field.plain && lx.takeKey(field.json)) {
            position = at;
            break;
          }
        }
        if (position >= 0) {
          key = (fields[position] as FieldNode).json;
        } else {
          key = lx.keyText();
          position = index.get(key) ?? -1;
        }
        total++;
        if (position >= 0) {
          if (position < BITS) {
            const bit = 1 << position;
            if ((seen & bit) !== 0) throw lx.duplicateKey(key);
            seen |= bit;
          } else {
            seenPast ??= new Uint8Array(size);
            if (seenPast[position] === 1) throw lx.duplicateKey(key);
            seenPast[position] = 1;
          }
          lx.colon();
          lx.ws();
          const field = fields[position] as FieldNode;
          if (!field.nullable && lx.peek() === NULL_START)
            throw new Failure(`invalid type: null, expected ${field.node.expecting}`);
          const value = field.node.read(lx);
          if (field.proto) {
            Object.defineProperty(record, key, { value, writable: true, enumerable: true, configurable: true });
          } else {
            record[key] = value;
          }
          next = position + 1;
        } else {
          if (unknown?.has(key) === true) throw lx.duplicateKey(key);
          lx.colon();
          lx.ws();
          unknown ??= new Set();
          unknown.add(key);
          if (refuse) {
            throw new Failure(
              `unknown field \`${shown(key)}\`, expected ${size === 0 ? "no fields" : `one of ${expectedKeys}`}`,
            );
          }
          if (!keeps || (matching !== undefined && !matching.some((pattern) => pattern.test(key)))) {
            lx.skipValue();
          } else {
            kept ??= new Map();
            kept.set(key, typed !== undefined ? typed.read(lx) : readValue(lx));
          }
        }
        if (pendingLevel === level) pendingIn(level, key);
      }
    } catch (error) {
      throw failedAt(error, key);
    }
    // At the object's end, in the order Rust's and Python's refusals take: the first check that
    // failed on a value inside it (a check failed before it, outside it, waits for its own
    // object), then how many keys it has (every key counted, dropped ones too), then a missing
    // property.
    if (pending !== undefined && pendingLevel === level - 1) {
      const failed = pending;
      pending = undefined;
      pendingLevel = -1;
      throw failed;
    }
    if (
      count !== undefined &&
      ((count.min !== undefined && total < count.min) || (count.max !== undefined && total > count.max))
    ) {
      throw new Failure(`${total} properties, expected ${bounds(count.min, count.max)}`);
    }
    if ((seen & requiredBits) !== requiredBits || size > BITS) {
      const failure = missing(seen, seenPast);
      if (failure !== undefined) throw failure;
    }
    if (keeps) record[unknownKeys] = kept ?? new Map();
    return record;
  };

  const write: Write = (value, out) => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      throw new WriteError("", `expected ${expecting}`);
    }
    const record = value as Record<string | symbol, unknown>;
    out.byte(OPEN_BRACE);
    let first = true;
    for (let at = 0; at < size; at++) {
      const field = fields[at] as FieldNode;
      const json = field.json;
      // An own property: `constructor` and `__proto__` are keys like any other, absent when not own.
      const item = field.inherited ? (Object.hasOwn(record, json) ? record[json] : undefined) : record[json];
      if (item === undefined) {
        if (field.required) throw new WriteError("", `missing field \`${json}\``).under(json);
        continue;
      }
      if (item === null && !field.nullable)
        throw new WriteError("", "null is not a value of this field: leave it out").under(json);
      out.bytes(first ? field.written : field.writtenAfter);
      first = false;
      try {
        field.node.write(item, out);
      } catch (error) {
        throw refusedAt(error, json);
      }
    }
    const extra = record[unknownKeys];
    if (keeps && extra instanceof Map) {
      for (const [key, item] of extra as Map<unknown, unknown>) {
        if (typeof key !== "string") throw new WriteError("", "an object key must be a string");
        if (index.has(key))
          throw new WriteError("", "a kept key that is a declared property would be written twice").under(key);
        if (!first) out.byte(COMMA);
        first = false;
        try {
          out.string(key);
          out.byte(COLON);
          if (typed !== undefined) {
            typed.write(item, out);
          } else {
            writeValueTo(out, item as JsonValue);
          }
        } catch (error) {
          throw refusedAt(error, key);
        }
      }
    }
    out.byte(CLOSE_BRACE);
  };
  return { read, write, expecting };
}

function bounds(min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) return `between ${min} and ${max}`;
  return min !== undefined ? `at least ${min}` : `at most ${max}`;
}
