/** The nodes of scalar values, and those that wrap another node: a named type's (found on first use), a checked value's, a nullable one's. */

import { readValue } from "../strict.js";
import { JsonFloat, type JsonValue } from "../value.js";
import { WriteError, writeValueTo } from "../write.js";
import type { Check } from "./checks.js";
import { Failure, holdFailure, invalidType, type Node, NULL_START, nothingPending, QUOTE } from "./read.js";

// A free-form value is read and written by the strict reader's and the writer's own code.
export const ANY: Node = {
  read: readValue,
  write: (value, out) => writeValueTo(out, value as JsonValue),
  expecting: "any JSON value",
};

export const STRING: Node = {
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

export const INTEGER: Node = {
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

export const NUMBER: Node = {
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

export const BOOLEAN: Node = {
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

export const NULL: Node = {
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

/** A node that stands for another, found on first use (a named type, perhaps recursive). */
export function lazy(find: () => Node): Node {
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

export function checked(inner: Node, checks: Check[]): Node {
  return {
    read(lx) {
      const value = inner.read(lx);
      if (nothingPending()) {
        for (const check of checks) {
          const failure = check(value);
          if (failure !== undefined) {
            holdFailure(failure, lx.depth);
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

export function nullable(inner: Node): Node {
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
