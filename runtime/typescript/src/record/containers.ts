/** The nodes of arrays, tuples and maps: each adds its index or key to a refusal from an item. */

import { WriteError } from "../write.js";
import {
  CLOSE_BRACE,
  CLOSE_BRACKET,
  COLON,
  COMMA,
  Failure,
  failedAt,
  failureAt,
  invalidType,
  type Node,
  OPEN_BRACE,
  OPEN_BRACKET,
  pendingIn,
  pendingLevel,
  refusedAt,
} from "./read.js";

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

export function array(items: Node): Node {
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

export function tuple(items: Node[]): Node {
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

export function map(values: Node): Node {
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
