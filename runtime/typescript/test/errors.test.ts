/**
 * Every refusal the runtime throws is an `Error` with `name`, `kind`,
 * `pointer` and `offset`, as Rust's `concord_runtime::Error` (`kind()`,
 * `pointer()`, a `JsonError`'s `offset`) and Python's errors have them: the
 * pointer where the refusal names a value, the byte offset where it names a
 * place in the input, `undefined` where it knows none. Messages are the
 * other runtimes' words, unchanged.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  CanonicalError,
  ConcordError,
  canonicalOf,
  EngineUnavailable,
  JsonError,
  JsonFloat,
  type RecordType,
  Refusal,
  read,
  SchemaError,
  VersionError,
  WriteError,
  writeValue,
} from "../src/index.js";

const root = fileURLToPath(new URL("../../../../", import.meta.url));

async function evidence(): Promise<RecordType<unknown>> {
  const bindings = pathToFileURL(join(root, "generated/typescript/concord-registry/index.js")).href;
  return ((await import(bindings)) as { Evidence: RecordType<unknown> }).Evidence;
}

function thrown(action: () => unknown): ConcordError {
  try {
    action();
  } catch (error) {
    assert.ok(error instanceof Error, "an Error");
    assert.ok(error instanceof ConcordError, `a ConcordError: ${String(error)}`);
    return error;
  }
  assert.fail("nothing was thrown");
}

/** What every runtime compares: the error's fields and its message. */
function fields(error: ConcordError): object {
  return { name: error.name, kind: error.kind, pointer: error.pointer, offset: error.offset, message: error.message };
}

const ROW = '{"id":"e1","session_id":"s1","kind":"exit_code","payload":null';

test("a strict-profile refusal has its kind and byte offset, and no pointer", async () => {
  const Evidence = await evidence();
  const duplicate = thrown(() => Evidence.fromJson(`${ROW},"id":"e2"}`));
  assert.ok(duplicate instanceof JsonError);
  assert.deepEqual(fields(duplicate), {
    name: "JsonError",
    kind: "duplicate-key",
    pointer: undefined,
    offset: 63,
    message: 'duplicate-key at byte 63: duplicate key "id"',
  });
  // A string input's offsets are those of its UTF-8 bytes.
  assert.deepEqual(fields(thrown(() => read('["é", 1e400]'))), {
    name: "JsonError",
    kind: "number-out-of-range",
    pointer: undefined,
    offset: 7,
    message: "number-out-of-range at byte 7: number 1e400 overflows to infinity",
  });
  assert.equal(String(thrown(() => read("[1,]"))), 'syntax at byte 3: expected a value, found "]"');
});

test("a schema refusal and a version refusal have a pointer, and no offset", async () => {
  const Evidence = await evidence();
  assert.deepEqual(fields(thrown(() => Evidence.fromJson(`${ROW},"canonical":{"kind":"tool_result","summary":1}}`))), {
    name: "SchemaError",
    kind: "schema",
    pointer: "/canonical/summary",
    offset: undefined,
    message: 'at "/canonical/summary": invalid type: number, expected a string',
  });
  const error = thrown(() => Evidence.fromJson(`${ROW},"extension":{"schema_version":3}}`));
  assert.ok(error instanceof VersionError && !(error instanceof SchemaError));
  assert.deepEqual(fields(error), {
    name: "VersionError",
    kind: "unsupported-version",
    pointer: "/extension/schema_version",
    offset: undefined,
    message: 'at "/extension/schema_version": unsupported version 3 of ExtensionEnvelope: supported 1, 2',
  });
});

test("a write refusal and a canonical-form refusal have a pointer, and no offset", async () => {
  const Evidence = await evidence();
  const record = Evidence.fromJson(`${ROW}}`) as { payload: unknown };
  record.payload = [1, new Map([["a/b", Number.NaN]])];
  assert.deepEqual(fields(thrown(() => Evidence.toJson(record))), {
    name: "WriteError",
    kind: "write",
    pointer: "/payload/1/a~1b",
    offset: undefined,
    message: 'at "/payload/1/a~1b": NaN is not a JSON number',
  });
  assert.ok(thrown(() => writeValue([Number.POSITIVE_INFINITY])) instanceof WriteError);
  const canonical = thrown(() => canonicalOf(new Map([["x", [new JsonFloat(1)]]])));
  assert.ok(canonical instanceof CanonicalError);
  assert.deepEqual(fields(canonical), {
    name: "CanonicalError",
    kind: "not-canonical",
    pointer: "/x/0",
    offset: undefined,
    message: 'not-canonical at "/x/0": jcs-rfc8785-integer-v1 admits integers only, not the float 1.0',
  });
});

test("the engine's refusal points where its first note does; a missing engine names no place", () => {
  const note = {
    pointer: "/port",
    keyword: "maximum",
    schemaPath: "/properties/port/maximum",
    message: "70000 is greater than the maximum of 65535",
    line: 'at "/port": 70000 is greater than the maximum of 65535 (schema /properties/port/maximum)',
  };
  assert.deepEqual(fields(new Refusal([note, { ...note, pointer: "/other" }], true)), {
    name: "Refusal",
    kind: "invalid",
    pointer: "/port",
    offset: undefined,
    message: `${note.line}\n${note.line}\n...`,
  });
  assert.equal(new Refusal([], false).pointer, undefined);
  assert.deepEqual(fields(new EngineUnavailable("no engine here")), {
    name: "EngineUnavailable",
    kind: "no-engine",
    pointer: undefined,
    offset: undefined,
    message: "no engine here",
  });
});

test("each error's name, kind, pointer and offset are its own properties, which a log of it shows", async () => {
  const Evidence = await evidence();
  for (const error of [
    thrown(() => Evidence.fromJson("{")),
    thrown(() => Evidence.fromJson("{}")),
    thrown(() => writeValue([Number.NaN])),
    new EngineUnavailable("x"),
  ]) {
    for (const key of ["name", "kind", "pointer", "offset"]) {
      assert.ok(Object.hasOwn(error, key), `${error.name}.${key} is own`);
    }
  }
});
