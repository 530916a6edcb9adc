// @generated from plan/plan.schema.json (the plan's one definition, concord-plan) by cli/tests/plan.rs.
// Do not edit: change the definition, then run `CONCORD_BLESS=1 cargo nextest run -p concord-cli --test plan`.

/** The plan, format 1: what a runtime needs to read, refuse and write the records of one registry entry's types (docs/plan.md) */
export type Module = {
  /** The plan's format: a runtime refuses any other. */
  plan: 1;
  types: { [key: string]: TypePlan };
};

/** One named type: exactly one kind, and what every kind may add. */
export type TypePlan = {
  record?: boolean;
  wrapped?: boolean;
  pinning?: Pinning;
  asserted_by?: string;
} & (
  | { object: ObjectPlan }
  | { enum: string[] }
  | { open_enum: string[] }
  | { typed_id: string }
  | { alias: Value }
  | { union: UnionPlan }
);

/** An object's declared properties, in schema order, and what becomes of the rest. */
export type ObjectPlan = {
  fields: FieldPlan[];
  unknown_keys: UnknownKeys;
  /** `minProperties`/`maxProperties`: every key counts, dropped ones too. */
  properties?: Bounds;
  /** A versioned envelope's version property, read before anything else. */
  version?: VersionPlan;
};

export type FieldPlan = {
  /** The property's key in JSON. */
  json: string;
  /** The field's name in the language whose plan this is, where it is not the key. */
  name?: string;
  presence: Presence;
  value: Value;
};

/** Absent, `null` and a value: which of them a property may be. */
export type Presence = "required" | "optional" | "optional_nullable";

/** A value's shape. */
export type Value = "null" | "boolean" | "number" | "string" | "any" | "integer" | {
  array: Value;
} | {
  map: Value;
} | {
  tuple: Value[];
} | {
  nullable: Value;
} | {
  ref: Reference;
} | {
  checked: Checked;
};

export type Reference = {
  type: string;
  /** Another entry's module, as the language whose plan this is names it. */
  module?: string;
};

export type Checked = {
  value: Value;
  checks: Check[];
};

/** One assertion on a value, in the order a runtime applies them. */
export type Check = "unique_items" | {
  length: Bounds;
} | {
  pattern: PatternText;
} | {
  integer_range: {
    min: number;
    max: number;
  };
} | {
  integer_multiple_of: number;
} | {
  number_range: {
    minimum?: number;
    exclusive_minimum?: number;
    maximum?: number;
    exclusive_maximum?: number;
  };
} | {
  number_multiple_of: string;
} | {
  items: Bounds;
} | {
  properties: Bounds;
};

/** Inclusive bounds on a count. */
export type Bounds = {
  min?: number;
  max?: number;
};

/** A pattern in both forms a runtime may run. */
export type PatternText = {
  /** The schema's ECMA-262 pattern (JavaScript's `RegExp` with `u`). */
  ecma: string;
  /** The same pattern for Rust's `regex` crate. */
  regex: string;
};

/** The unknown-key policy (docs/unknown-keys.md). */
export type UnknownKeys = "drop" | "refuse" | "keep" | {
  typed: Value;
} | {
  matching: PatternText[];
};

export type VersionPlan = {
  /** The property that holds the version. */
  field: string;
  supported: number[];
};

export type UnionPlan = {
  by: Choice;
  branches: Branch[];
};

/** How a union's branch is chosen before reading it. */
export type Choice = {
  tag: string;
} | "json_type";

export type Branch = {
  /** The tag's value, or the JSON type's name (`object`, `array`, `string`,
`integer`, `number`, `boolean`, `null`). */
  key: string;
  value: Value;
};

export type Pinning = "pinned" | "asserted";
