// What a Standard Schema consumer (tRPC, TanStack Form, Hono...) infers from
// a generated record type, checked by `tsc -p tests/typescript`: the consumer
// holds its own copy of the interface, as those libraries inline it, so the
// record types must fit it structurally; the output it infers is the record
// type, the input `unknown`. Nothing here runs.

import type { ConcordError, StandardSchemaV1 } from "concord-runtime";
import type { ExtensionEnvelope } from "../../generated/typescript/concord-registry/evidence.js";
import type { ClsArtifact, Evidence } from "../../generated/typescript/concord-registry/index.js";

/** The consumer's copy: version 1 of the specification, before `validate` took options. */
interface ConsumerSchema<Input = unknown, Output = Input> {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => ConsumerResult<Output> | Promise<ConsumerResult<Output>>;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
  };
}
type ConsumerResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | {
      readonly issues: ReadonlyArray<{
        readonly message: string;
        readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
      }>;
    };
type InferInput<S extends ConsumerSchema> = NonNullable<S["~standard"]["types"]>["input"];
type InferOutput<S extends ConsumerSchema> = NonNullable<S["~standard"]["types"]>["output"];

/** `true` only when `A` and `B` are the same type. */
type Same<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;

export const evidenceOutput: Same<InferOutput<typeof Evidence>, Evidence> = true;
export const evidenceInput: Same<InferInput<typeof Evidence>, unknown> = true;
export const artifactOutput: Same<InferOutput<typeof ClsArtifact>, ClsArtifact> = true;
export const envelopeOutput: Same<InferOutput<typeof ExtensionEnvelope>, ExtensionEnvelope> = true;
// The runtime's own copy says the same.
export const runtimeOutput: Same<StandardSchemaV1.InferOutput<typeof Evidence>, Evidence> = true;

// A consumer's generic entry point takes the record type as it is.
declare function parse<S extends ConsumerSchema>(schema: S, value: unknown): InferOutput<S>;
declare const evidence: typeof Evidence;
export const parsed: Evidence = parse(evidence, {});
export const schema: ConsumerSchema<unknown, Evidence> = evidence;

// Every refusal has these fields, whichever class it is.
export function where(error: ConcordError): [string, string | undefined, number | undefined] {
  return [error.kind, error.pointer, error.offset];
}
