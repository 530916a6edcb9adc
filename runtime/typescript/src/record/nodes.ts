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
 *
 * Each kind of node is a file: read.ts holds what they share, scalars.ts,
 * containers.ts, choices.ts and object.ts the kinds; this file dispatches
 * over the plan's kinds, once.
 */

import { compileChecks } from "./checks.js";
import { enumeration, union } from "./choices.js";
import { array, map, tuple } from "./containers.js";
import { object } from "./object.js";
import type { PlanValue, TypePlan } from "./plan.js";
import type { Node, Resolve } from "./read.js";
import { ANY, BOOLEAN, checked, INTEGER, lazy, NULL, NUMBER, nullable, STRING } from "./scalars.js";

export { Failure, finishRead, type Node, type Resolve, startRead, unknownKeys } from "./read.js";

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

/** A named type of the plan: its node. */
export function compileType(name: string, plan: TypePlan, resolve: Resolve): Node {
  if ("object" in plan) return object(name, plan.object, (value) => compileValue(value, resolve));
  if ("enum" in plan) return enumeration(plan.enum, false);
  if ("open_enum" in plan) return enumeration(plan.open_enum, true);
  if ("typed_id" in plan) return checked(STRING, compileChecks([], plan.typed_id));
  if ("alias" in plan) return compileValue(plan.alias, resolve);
  if ("union" in plan) return union(plan.union, (value) => compileValue(value, resolve));
  throw new Error(`a type this runtime does not know: ${name} (generate with the concord of this runtime's version)`);
}
