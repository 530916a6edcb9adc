/**
 * The plan: what a registry entry's types are, as concord's code generator
 * writes it (`codegen/src/plan/mod.rs`; its format is defined once in
 * concord-plan, docs/plan.md), the same JSON the Python runtime reads. The
 * generated modules hand it to the runtime; nothing here reads a schema.
 */

import type {
  Bounds,
  Check,
  FieldPlan,
  Module,
  ObjectPlan,
  PatternText,
  TypePlan,
  UnionPlan,
  UnknownKeys,
  Value,
} from "./plan.types.js";

/** The plan format this runtime reads. */
export const PLAN_VERSION: Module["plan"] = 1;

// The declarations are made from the plan's JSON Schema (plan/plan.schema.json), itself made
// from its one definition (concord-plan): `plan.types.ts`, held current by cli/tests/plan.rs.
export type { Bounds, ObjectPlan, PatternText, TypePlan, UnionPlan };
export type PlanValue = Value;
export type PlanCheck = Check;
export type PlanField = FieldPlan;
export type UnknownKeysPlan = UnknownKeys;
/** A module's plan as handed to the runtime: of any format, which `Registry.add` checks first. */
export type ModulePlan = Omit<Module, "plan"> & { plan: number };

/**
 * Refuses a type's plan that holds a key or a kind this runtime does not
 * name, by name and with the plan format: a reader that skipped what it
 * does not know would read records otherwise than the generator meant
 * (concord-plan refuses the same in the Python core). Run once per type,
 * before it is compiled.
 */
export function checkTypePlan(name: string, plan: unknown): asserts plan is TypePlan {
  const where = `type ${name}`;
  const type = object(plan, where);
  const kinds = Object.keys(type).filter((key) => KINDS.has(key));
  if (kinds.length !== 1)
    refuse(where, `a type has one kind of ${[...KINDS].join(", ")}; this one has ${kinds.length}`);
  keys(type, TYPE_KEYS, where);
  const kind = kinds[0] as string;
  const body = type[kind];
  const at = `${where}/${kind}`;
  switch (kind) {
    case "object": {
      const value = object(body, at);
      keys(value, ["fields", "unknown_keys", "properties", "version"], at);
      for (const [index, field] of array(value.fields, `${at}/fields`).entries()) {
        const fieldAt = `${at}/fields/${index}`;
        keys(object(field, fieldAt), ["json", "name", "presence", "value"], fieldAt);
        checkValue((field as Record<string, unknown>).value, `${fieldAt}/value`);
      }
      const policy = value.unknown_keys;
      if (typeof policy === "object" && policy !== null) {
        const only = single(policy, ["typed", "matching"], `${at}/unknown_keys`);
        if (only === "typed") checkValue((policy as Record<string, unknown>).typed, `${at}/unknown_keys/typed`);
      } else if (policy !== "drop" && policy !== "refuse" && policy !== "keep") {
        refuse(`${at}/unknown_keys`, `an unknown-key policy it does not know: ${JSON.stringify(policy)}`);
      }
      if (value.properties !== undefined)
        keys(object(value.properties, `${at}/properties`), ["min", "max"], `${at}/properties`);
      if (value.version !== undefined)
        keys(object(value.version, `${at}/version`), ["field", "supported"], `${at}/version`);
      break;
    }
    case "alias":
      checkValue(body, at);
      break;
    case "union": {
      const value = object(body, at);
      keys(value, ["by", "branches"], at);
      if (value.by !== "json_type") keys(object(value.by, `${at}/by`), ["tag"], `${at}/by`);
      for (const [index, branch] of array(value.branches, `${at}/branches`).entries()) {
        keys(object(branch, `${at}/branches/${index}`), ["key", "value"], `${at}/branches/${index}`);
        checkValue((branch as Record<string, unknown>).value, `${at}/branches/${index}/value`);
      }
      break;
    }
    default:
      break;
  }
}

const KINDS = new Set(["object", "enum", "open_enum", "typed_id", "alias", "union"]);
const TYPE_KEYS = [...KINDS, "record", "wrapped", "pinning", "asserted_by"];
const SCALARS = new Set(["any", "null", "boolean", "integer", "number", "string"]);
const CHECKS = new Set([
  "length",
  "items",
  "properties",
  "pattern",
  "integer_range",
  "integer_multiple_of",
  "number_range",
  "number_multiple_of",
]);

function checkValue(value: unknown, at: string): void {
  if (typeof value === "string") {
    if (!SCALARS.has(value)) refuse(at, `a value it does not know: ${JSON.stringify(value)}`);
    return;
  }
  const kind = single(value, ["array", "map", "tuple", "nullable", "ref", "checked"], at);
  const body = (value as Record<string, unknown>)[kind];
  switch (kind) {
    case "tuple":
      for (const [index, item] of array(body, `${at}/tuple`).entries()) checkValue(item, `${at}/tuple/${index}`);
      return;
    case "ref":
      keys(object(body, `${at}/ref`), ["type", "module"], `${at}/ref`);
      return;
    case "checked": {
      const checked = object(body, `${at}/checked`);
      keys(checked, ["value", "checks"], `${at}/checked`);
      checkValue(checked.value, `${at}/checked/value`);
      for (const [index, check] of array(checked.checks, `${at}/checked/checks`).entries()) {
        if (check !== "unique_items") single(check, [...CHECKS], `${at}/checked/checks/${index}`);
      }
      return;
    }
    default:
      checkValue(body, `${at}/${kind}`);
  }
}

/** The one key of `value`, which must be one of `allowed`. */
function single(value: unknown, allowed: string[], at: string): string {
  const found = Object.keys(object(value, at));
  const key = found[0];
  if (found.length !== 1 || key === undefined || !allowed.includes(key)) {
    const named = found.map((name) => `\`${name}\``).join(", ");
    refuse(at, `expected one of ${allowed.map((name) => `\`${name}\``).join(", ")}, found ${named || "no key"}`);
  }
  return key;
}

function keys(value: Record<string, unknown>, allowed: readonly string[], at: string): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) {
      refuse(at, `unknown field \`${key}\`, expected one of ${allowed.map((name) => `\`${name}\``).join(", ")}`);
    }
  }
}

function object(value: unknown, at: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) refuse(at, "expected an object");
  return value as Record<string, unknown>;
}

function array(value: unknown, at: string): unknown[] {
  if (!Array.isArray(value)) refuse(at, "expected an array");
  return value;
}

function refuse(at: string, what: string): never {
  throw new Error(
    `a plan of format ${PLAN_VERSION} holds what it does not define, at ${at}: ${what} (generate with the concord of this runtime's version)`,
  );
}
