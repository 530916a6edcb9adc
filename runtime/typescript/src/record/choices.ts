/** The nodes of a choice: an enumeration of strings, a union told apart by JSON type, one told apart by a tag. */

import { type Lexer, plainKey } from "../lexer.js";
import { JsonFloat } from "../value.js";
import { WriteError } from "../write.js";
import { shown } from "./errors.js";
import type { PlanValue, UnionPlan } from "./plan.js";
import {
  Failure,
  integerLiteralAt,
  invalidType,
  lookAhead,
  type Node,
  NULL_START,
  OPEN_BRACE,
  OPEN_BRACKET,
  QUOTE,
} from "./read.js";

/** Up to this many values, an enumeration's reader compares each in place before reading the string. */
const ENUM_IN_PLACE = 8;

export function enumeration(values: string[], open: boolean): Node {
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

export function union(plan: UnionPlan, compile: (value: PlanValue) => Node): Node {
  const branches = plan.branches.map((branch) => ({ key: branch.key, node: compile(branch.value) }));
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
