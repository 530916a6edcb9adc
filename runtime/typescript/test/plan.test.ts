/**
 * The plan as this runtime reads it: every golden plan
 * (fixtures/constructs/expected/plan.json, every construct) passes its
 * check and compiles; a plan of another format, and a key or a kind the
 * format does not define, at any level, is refused by name with the format,
 * as concord-plan refuses them in the Python core.
 */

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { VERSION } from "../src/index.js";
import { checkTypePlan, type ModulePlan, PLAN_VERSION } from "../src/record/plan.js";
import { Registry } from "../src/record/registry.js";

const root = new URL("../../../../", import.meta.url);
const golden = JSON.parse(readFileSync(new URL("fixtures/constructs/expected/plan.json", root), "utf8")) as Record<
  string,
  ModulePlan
>;

test("every golden plan is read whole: each type checked and compiled", () => {
  const registry = new Registry([]);
  for (const [module, plan] of Object.entries(golden)) registry.add(module, [], plan);
  let types = 0;
  for (const [module, plan] of Object.entries(golden)) {
    for (const [name, type] of Object.entries(plan.types)) {
      checkTypePlan(`${module}.${name}`, type);
      assert.ok(registry.node(module, name) !== undefined);
      types++;
    }
  }
  assert.ok(types > 60, `${types} types`);
});

test("a plan of another format is refused, naming both formats", () => {
  const registry = new Registry([]);
  const plan = { ...(golden.bounds as ModulePlan), plan: PLAN_VERSION + 1 };
  assert.throws(
    () => registry.add("bounds", [], plan),
    (error: Error) =>
      error.message.includes(`of format ${PLAN_VERSION + 1}`) &&
      error.message.includes(`reads format ${PLAN_VERSION}`) &&
      error.message.includes(VERSION),
  );
});

test("a key or a kind the plan format does not define is refused by name, at every level", () => {
  // biome-ignore lint/suspicious/noExplicitAny: a plan changed by hand at any depth, to what no type of it allows
  type Loose = Record<string, any>;
  const changes: [string, (type: Loose) => void][] = [
    ["`deprecated`", (type) => (type.deprecated = true)],
    ["`closed`", (type) => (type.object.closed = true)],
    ["`default`", (type) => (type.object.fields[0].default = 1)],
    ["`checked_twice`", (type) => (type.object.fields[0].value = { checked_twice: "string" })],
    ['"decimal"', (type) => (type.object.fields[0].value = "decimal")],
    ["`flags`", (type) => (type.object.fields[0].value.checked.flags = "u")],
    ["`glob`", (type) => (type.object.fields[0].value.checked.checks = [{ glob: "*" }])],
    ["`open`", (type) => (type.object.unknown_keys = { open: true })],
    ["one kind", (type) => (type.enum = ["a"])],
  ];
  for (const [name, change] of changes) {
    const type = structuredClone((golden.bounds as ModulePlan).types.Bounds) as Loose;
    change(type);
    const registry = new Registry([]);
    registry.add("bounds", [], { plan: PLAN_VERSION, types: { Bounds: type as never } });
    assert.throws(
      () => registry.node("bounds", "Bounds"),
      (error: Error) => error.message.includes(name) && error.message.includes(`a plan of format ${PLAN_VERSION}`),
      name,
    );
  }
});
