/** The record-type half of the runtime: what generated packages call. */

export {
  type ArrayOutcome,
  arrayItems,
  type FailedItem,
  type FailedLine,
  type Failure,
  type LinesOutcome,
} from "./batch.js";
export { engine } from "./engine.js";
export { EngineUnavailable, SchemaError, VersionError } from "./errors.js";
export { unknownKeys } from "./nodes.js";
export {
  type Note,
  type PinnedDocument,
  type PinnedSchema,
  type ReadOptions,
  type RecordType,
  Refusal,
  Registry,
  registry,
  type TypedId,
  type TypedIdType,
  type Unrecognized,
  unrecognized,
  VERSION,
} from "./registry.js";
export type { StandardSchemaV1 } from "./standard.js";
