/**
 * The harness of `concord roundtrip` and `concord fuzz` for TypeScript
 * (`main(<generated package folder>)`, from `concord-runtime/roundtrip`), as
 * `concord_runtime.roundtrip` is for Python and `cli/harness/main.rs` for
 * Rust: reads `Name<TAB>path` lines on stdin (or `Name<TAB>:hex`, the input's
 * bytes in hex) and answers each with one JSON line, `{"ok": output,
 * "digest": digest}` or `{"error": message}`, plus `"validated"` (`true` or
 * the refusal) for a type with a pinned schema; an empty line flushes the
 * answers. `Name` is a root the package exports, or `module.Type`.
 */

import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import type { RecordType } from "../record/registry.js";

type Answer = { ok?: string; digest?: string; error?: string; validated?: true | string };

function message(error: unknown): string {
  if (error instanceof Error && typeof (error as { kind?: unknown }).kind === "string") return error.message;
  return `crashed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`;
}

function answer(type: RecordType<unknown>, data: Uint8Array): Answer {
  let reply: Answer;
  try {
    const record = type.fromJson(data);
    let digest: string;
    try {
      digest = type.digest(record);
    } catch (error) {
      digest = `no digest: ${message(error)}`;
    }
    reply = { ok: type.toJson(record), digest };
  } catch (error) {
    reply = { error: message(error) };
  }
  if (type.schema !== undefined) {
    // validate's verdict on the same bytes: the types must refuse exactly what it refuses.
    try {
      type.schema.validateJson(data);
      reply.validated = true;
    } catch (error) {
      reply.validated = message(error);
    }
  }
  return reply;
}

function unhex(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let index = 0; index < bytes.length; index++)
    bytes[index] = Number.parseInt(hex.slice(2 * index, 2 * index + 2), 16);
  return bytes;
}

/** Answers every request on stdin with the record types of the generated package in `folder`. */
export async function main(folder: string): Promise<void> {
  const module = (await import(pathToFileURL(resolve(folder, "index.js")).href)) as Record<string, unknown>;
  const types = new Map<string, RecordType<unknown> | undefined>();
  const find = (name: string): RecordType<unknown> | undefined => {
    if (!types.has(name)) {
      let found: unknown = module;
      for (const part of name.split(".")) found = (found as Record<string, unknown> | undefined)?.[part];
      types.set(
        name,
        typeof found === "object" && found !== null && "fromJson" in found ? (found as RecordType<unknown>) : undefined,
      );
    }
    return types.get(name);
  };
  let pending = "";
  for await (const line of createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY })) {
    if (line === "") {
      process.stdout.write(pending);
      pending = "";
      continue;
    }
    const tab = line.indexOf("\t");
    const name = line.slice(0, tab);
    const where = line.slice(tab + 1);
    const type = find(name);
    const data = where.startsWith(":") ? unhex(where.slice(1)) : new Uint8Array(readFileSync(where));
    const reply: Answer = type === undefined ? { error: `no record type ${name}` } : answer(type, data);
    pending += `${JSON.stringify(reply)}\n`;
  }
  process.stdout.write(pending);
}
