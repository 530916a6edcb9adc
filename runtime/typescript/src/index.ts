/**
 * concord's TypeScript runtime: the strict JSON profile over UTF-8 bytes,
 * concord's writer and float layout, canonical JSON and SHA-256 digests, the
 * same as the Rust runtime (`runtime/rust/src/lib.rs`) and the Python one.
 * No dependencies, no Node APIs: it runs in browsers too.
 */

export {
  CanonicalError,
  canonicalBytes,
  canonicalize,
  canonicalOf,
  digest,
  digestBytes,
  digestJson,
  PROFILE,
  writeCanonical,
} from "./canonical.js";
export { ConcordError } from "./error.js";
export { formatFloat } from "./float.js";
export { decode, firstInvalidByte, firstLoneSurrogate, Lexer, Source, utf8Length, wellFormed } from "./lexer.js";
export {
  DEFAULT_MAX_BYTES,
  type ErrorKind,
  JsonError,
  MAX_DEPTH,
  MAX_SAFE_INTEGER,
  prefix,
  // The strict profile's description of a refusal, before it has an offset (Rust's
  // `profile::Refusal`): `Refusal` is the engine's error, as `concord_runtime.Refusal` in Python.
  type Refusal as ProfileRefusal,
  refusalKind,
  refusalMessage,
} from "./profile.js";
export * from "./record/index.js";
export { sha256 } from "./sha256.js";
export { check, type ReadOptions, read, readValue } from "./strict.js";
export { firstDuplicate, JsonFloat, type JsonObject, type JsonValue, jsonEqual, toPlain } from "./value.js";
export {
  floatText,
  integerText,
  Output,
  pointerToken,
  stringText,
  toBytes,
  WriteError,
  writeFloat,
  writeInteger,
  writeString,
  writeValue,
  writeValueTo,
} from "./write.js";
/**
 * A `Map` of JSON keys to values, in input order: kept unknown keys and typed
 * maps. An interface, not an alias, so that a type may hold itself through it.
 */
export interface JsonMap<V> extends Map<string, V> {}
