/**
 * What the tests share: the repository's vector files, found from this
 * compiled file's place (`runtime/typescript/dist/test/`), failing loudly when
 * they are missing; and a deterministic random source.
 */

import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The repository's root, four levels above `dist/test/`. */
export const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));

/** A path under `fixtures/vectors/`, which must exist. */
export function vectorPath(relative: string): string {
  const path = `${ROOT}fixtures/vectors/${relative}`;
  assert.ok(existsSync(path), `the vector file ${path} is missing: run the tests from a checkout of concord`);
  return path;
}

export function readVector(relative: string): Buffer {
  return readFileSync(vectorPath(relative));
}

export function readVectorJson(relative: string): unknown {
  return JSON.parse(readVector(relative).toString("utf8"));
}

/** The files of a vector folder, sorted by name. */
export function vectorFiles(relative: string): string[] {
  return readdirSync(vectorPath(relative)).sort();
}

/** A deterministic xorshift64 source: `next(bound)` in [0, bound). */
export function random(seed: bigint): (bound: number) => number {
  let state = seed;
  const mask = (1n << 64n) - 1n;
  return (bound: number): number => {
    state ^= (state << 13n) & mask;
    state ^= state >> 7n;
    state ^= (state << 17n) & mask;
    return Number(state % BigInt(Math.max(bound, 1)));
  };
}

export function bytes(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

export function hex(data: Uint8Array): string {
  return Buffer.from(data).toString("hex");
}

/** What a call throws, as its text (`String(error)`), or "ok". */
export function outcome(action: () => unknown): string {
  try {
    action();
    return "ok";
  } catch (error) {
    return String(error);
  }
}

/**
 * The JS string holding what `data` encodes when its only invalid sequences
 * are encoded lone surrogates (`ED A0 80`, as Python's `surrogatepass` writes
 * them), so that the string input path can be held to the bytes' verdict;
 * undefined for valid UTF-8, for any other invalid byte, or where two encoded
 * surrogates would pair up in a JS string.
 */
export function stringWithLoneSurrogates(data: Uint8Array): string | undefined {
  let text = "";
  let lone = false;
  for (let index = 0; index < data.length; ) {
    const lead = data[index] as number;
    const second = data[index + 1] ?? 0;
    const third = data[index + 2] ?? 0;
    if (lead === 0xed && second >= 0xa0 && second <= 0xbf && third >= 0x80 && third <= 0xbf) {
      const unit = 0xd000 | ((second & 0x3f) << 6) | (third & 0x3f);
      const previous = text.charCodeAt(text.length - 1);
      if (unit >= 0xdc00 && previous >= 0xd800 && previous <= 0xdbff) {
        return undefined;
      }
      text += String.fromCharCode(unit);
      lone = true;
      index += 3;
      continue;
    }
    // One valid character, else give up.
    const width = sequenceWidth(lead);
    if (width === 0 || index + width > data.length) {
      return undefined;
    }
    let character: string;
    try {
      character = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(
        data.subarray(index, index + width),
      );
    } catch {
      return undefined;
    }
    const previous = text.charCodeAt(text.length - 1);
    if (
      character.charCodeAt(0) >= 0xdc00 &&
      character.charCodeAt(0) <= 0xdfff &&
      previous >= 0xd800 &&
      previous <= 0xdbff
    ) {
      return undefined;
    }
    text += character;
    index += width;
  }
  return lone ? text : undefined;
}

/** How many bytes the UTF-8 sequence led by `lead` takes; 0 for a byte that leads none. */
function sequenceWidth(lead: number): number {
  if (lead < 0x80) {
    return 1;
  }
  if (lead >= 0xc2 && lead <= 0xdf) {
    return 2;
  }
  if (lead >= 0xe0 && lead <= 0xef) {
    return 3;
  }
  return lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
}
