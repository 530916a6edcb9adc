/**
 * The assertion engine, which checks a value against its pinned schema: the
 * same Rust engine Rust and Python run (`concord_runtime::pinned::Checker`),
 * reached through the Node addon `concord-engine` (runtime/node-engine).
 * Where it cannot load (a browser, a platform without a build), every use
 * refuses with `EngineUnavailable`: never another engine silently.
 */

import { VERSION } from "../version.js";
import { EngineUnavailable } from "./errors.js";

/** A schema file as pinned: its base URI, digest and exact text, and the dialect its registry entry declares. */
export interface PinnedDocument {
  readonly uri: string;
  readonly digest: string;
  readonly text: string;
  readonly dialect?: string;
}

/** One problem the pinned schema's engine found: where, which keyword, and what, never the refused value. */
export interface Note {
  readonly pointer: string;
  readonly keyword: string;
  readonly schemaPath: string;
  readonly message: string;
  readonly line: string;
}

interface AddonValidator {
  notesJson(
    data: Uint8Array,
    maxBytes: number,
    limit: number,
  ): { notes: [string, string, string, string, string][]; more: boolean };
}

interface Addon {
  Validator: new (documents: [string, string, string | null][], pointer: string) => AddonValidator;
  version(): string;
}

export interface Validator {
  notesJson(data: Uint8Array, maxBytes: number, limit: number): { notes: Note[]; more: boolean };
}

let addon: Addon | undefined;
let why = "the engine addon concord-engine is not installed";

try {
  // Top-level await: Node 20 and every bundler take it in an ES module; the
  // name is a variable so that a bundler for browsers leaves it unresolved.
  const name = "concord-engine";
  const loaded = (await import(/* @vite-ignore */ name)) as { default?: Addon } & Partial<Addon>;
  const candidate = (loaded.default ?? loaded) as Addon;
  if (typeof candidate.version === "function" && candidate.version() !== VERSION) {
    why = `the engine addon concord-engine is version ${candidate.version()}; this runtime needs ${VERSION}`;
  } else {
    addon = candidate;
  }
} catch (error) {
  why = `the engine addon concord-engine cannot load here (${(error as Error).message.split("\n")[0]})`;
}

/** The engine, or an `EngineUnavailable` refusal on every use. */
export const engine = {
  get available(): boolean {
    return addon !== undefined;
  },
  validator(documents: readonly PinnedDocument[], pointer: string): Validator {
    if (addon === undefined) throw new EngineUnavailable(`${why}: validation against the pinned schema needs it`);
    const built = new addon.Validator(
      documents.map((document) => [document.uri, document.text, document.dialect ?? null]),
      pointer,
    );
    return {
      notesJson(data, maxBytes, limit) {
        const { notes, more } = built.notesJson(data, maxBytes, limit);
        return {
          notes: notes.map(([notePointer, keyword, schemaPath, message, line]) => ({
            pointer: notePointer,
            keyword,
            schemaPath,
            message,
            line,
          })),
          more,
        };
      },
    };
  },
};
