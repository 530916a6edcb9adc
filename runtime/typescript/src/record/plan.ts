/**
 * The plan: what a registry entry's types are, as concord's code generator
 * writes it (`codegen/src/plan/mod.rs`; its grammar is in
 * docs/architecture.md), the same JSON the Python runtime reads. The
 * generated modules hand it to the runtime; nothing here reads a schema.
 */

/** The plan format this runtime reads. */
export const PLAN_VERSION = 1;

export type PlanValue =
  | "any"
  | "null"
  | "boolean"
  | "integer"
  | "number"
  | "string"
  | { array: PlanValue }
  | { map: PlanValue }
  | { tuple: PlanValue[] }
  | { nullable: PlanValue }
  | { ref: { type: string; module?: string } }
  | { checked: { value: PlanValue; checks: PlanCheck[] } };

export interface Bounds {
  min?: number;
  max?: number;
}

export interface PatternText {
  /** The schema's ECMA-262 pattern, which this runtime runs. */
  ecma: string;
  /** The same pattern for Rust's `regex` crate (what Rust and Python run). */
  regex: string;
}

export type PlanCheck =
  | { length: Bounds }
  | { items: Bounds }
  | { properties: Bounds }
  | { pattern: PatternText }
  | { integer_range: { min: number; max: number } }
  | { integer_multiple_of: number }
  | { number_range: { minimum?: number; exclusive_minimum?: number; maximum?: number; exclusive_maximum?: number } }
  | { number_multiple_of: string }
  | "unique_items";

export interface PlanField {
  json: string;
  name?: string;
  presence: "required" | "optional" | "optional_nullable";
  value: PlanValue;
}

export type UnknownKeysPlan = "drop" | "refuse" | "keep" | { typed: PlanValue } | { matching: PatternText[] };

export interface ObjectPlan {
  fields: PlanField[];
  unknown_keys: UnknownKeysPlan;
  properties?: Bounds;
  version?: { field: string; supported: number[] };
}

export interface UnionPlan {
  by: { tag: string } | "json_type";
  branches: { key: string; value: PlanValue }[];
}

export interface TypePlanCommon {
  record?: boolean;
  wrapped?: boolean;
  pinning?: "pinned" | "asserted";
  asserted_by?: string;
}

export type TypePlan = TypePlanCommon &
  (
    | { object: ObjectPlan }
    | { enum: string[] }
    | { open_enum: string[] }
    | { typed_id: string }
    | { alias: PlanValue }
    | { union: UnionPlan }
  );

export interface ModulePlan {
  plan: number;
  types: Record<string, TypePlan>;
}
