// The script of tests/typescript/browser.test.mjs's page: the built runtime
// (concord-runtime, runtime/typescript/dist/src) and two generated packages,
// the shipped registry's (generated/typescript) and the constructs'
// (fixtures/constructs/expected/typescript), which esbuild bundles into one
// script for Chromium. The test imports this same module in Node, so that
// both sides answer every request with the same code.
//
// `run(requests)` answers each request, `{ registry: "shipped" | "constructs",
// type: <root>, read: "one" | "jsonl" | "array", hex: <input bytes> }`, with
// what reading, writing, digesting and validating gave: bytes in hex, errors
// as `{ name, kind, message }`.

import { EngineUnavailable, engine } from "concord-runtime";
import * as constructs from "../../fixtures/constructs/expected/typescript/concord-registry/index.js";
import * as shipped from "../../generated/typescript/concord-registry/index.js";

const registries = { shipped, constructs };

function hex(bytes) {
  let text = "";
  for (const byte of bytes) text += byte.toString(16).padStart(2, "0");
  return text;
}

function unhex(text) {
  const bytes = new Uint8Array(text.length / 2);
  for (let index = 0; index < bytes.length; index++)
    bytes[index] = Number.parseInt(text.slice(2 * index, 2 * index + 2), 16);
  return bytes;
}

function failure(error) {
  return {
    name: error?.name,
    kind: error?.kind,
    message: String(error?.message),
    engineUnavailable: error instanceof EngineUnavailable,
  };
}

/** `{ ok: what action returned }` or `{ error: failure(...) }`. */
function attempt(action) {
  try {
    return { ok: action() };
  } catch (error) {
    return { error: failure(error) };
  }
}

/** `{ ok: true }` when action returns, or `{ error: failure(...) }`. */
function passes(action) {
  return attempt(() => {
    action();
    return true;
  });
}

/** A record written, digested and validated. */
function written(type, record) {
  return {
    bytes: attempt(() => hex(type.toBytes(record))),
    json: attempt(() => type.toJson(record)),
    digest: attempt(() => type.digest(record)),
    validate: passes(() => type.validate(record)),
  };
}

function answer({ registry, type: name, read, hex: input }) {
  const type = registries[registry]?.[name];
  if (type === undefined || typeof type.fromJson !== "function") return { missing: `${registry}.${name}` };
  const data = unhex(input);
  if (read === "jsonl" || read === "array") {
    const outcome = attempt(() => (read === "jsonl" ? type.readJsonl(data) : type.readJsonArray(data)));
    if (outcome.error !== undefined) return { read: outcome };
    return {
      records: outcome.ok.records.map((record) => written(type, record)),
      failed: outcome.ok.failed.map((failed) => ({
        at: failed.line ?? failed.index,
        kind: failed.kind,
        error: failure(failed.error),
      })),
    };
  }
  const validateJson = type.schema === undefined ? undefined : passes(() => type.schema.validateJson(data));
  const record = attempt(() => type.fromJson(data));
  const answered = { read: record.error === undefined ? { ok: true } : record, validateJson };
  return record.error === undefined ? { ...answered, ...written(type, record.ok) } : answered;
}

/** Whether the engine loaded here, and every request's answer. */
export function run(requests) {
  return { engine: engine.available, answers: requests.map(answer) };
}

/**
 * A record given as JSON text, `JSON.parse`d here (a record this page cannot
 * read, when its type is ASSERTED): whether it writes back as that text, and
 * what `validate` gives.
 */
export function plainRecord(registry, name, text) {
  const type = registries[registry][name];
  return {
    writesBack: attempt(() => type.toJson(JSON.parse(text)) === text).ok === true,
    validate: passes(() => type.validate(JSON.parse(text))),
  };
}

globalThis.concordPage = { run, plainRecord };
