/**
 * The node of an object type: its declared fields read in place where the
 * input has them in plan order, its unknown keys kept, refused or dropped
 * as the plan says, and its refusals in the order Rust's and Python's take.
 */

import { plainKey } from "../lexer.js";
import { readValue } from "../strict.js";
import type { JsonValue } from "../value.js";
import { Output, WriteError, writeValueTo } from "../write.js";
import { shown } from "./errors.js";
import type { ObjectPlan, PlanValue } from "./plan.js";
import {
  CLOSE_BRACE,
  COLON,
  COMMA,
  Failure,
  failedAt,
  failureAt,
  invalidType,
  lookAhead,
  type Node,
  NULL_START,
  OPEN_BRACE,
  pendingIn,
  pendingLevel,
  type Read,
  refusedAt,
  takePendingOf,
  unknownKeys,
  type Write,
} from "./read.js";

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

export function object(name: string, plan: ObjectPlan, compile: (value: PlanValue) => Node): Node {
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
      node: compile(field.value),
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
  const typed = typeof policy === "object" && "typed" in policy ? compile(policy.typed) : undefined;
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
    const failed = takePendingOf(level);
    if (failed !== undefined) throw failed;
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
