/**
 * What generated modules call: a package's registry of plans, from which
 * each record type's reader and writer are compiled on first use, and the
 * record types themselves (`fromJson`, `toJson`, `digest`, `validate`), as
 * `concord_runtime::Record` in Rust and `concord_runtime.Model` in Python.
 */

import { canonicalize, digestBytes } from "../canonical.js";
import { ConcordError } from "../error.js";
import { decode, Lexer } from "../lexer.js";
import { DEFAULT_MAX_BYTES } from "../profile.js";
import * as strict from "../strict.js";
import { VERSION } from "../version.js";
import { Output } from "../write.js";
import { type ArrayOutcome, type LinesOutcome, readJsonArray, readJsonl } from "./batch.js";
import { isTypedId } from "./checks.js";
import { engine, type Note, type PinnedDocument } from "./engine.js";
import { EngineUnavailable, SchemaError } from "./errors.js";
import { compileType, Failure, finishRead, type Node, startRead } from "./nodes.js";
import { checkTypePlan, type ModulePlan, PLAN_VERSION, type TypePlan } from "./plan.js";
import { type StandardSchemaV1, standardProps } from "./standard.js";

export type { ReadOptions } from "../strict.js";
export { VERSION } from "../version.js";
export type { Note, PinnedDocument } from "./engine.js";

import type { ReadOptions } from "../strict.js";

/**
 * A value fails its pinned schema: at most three notes, and whether there
 * were more. Its pointer is the first note's, as Rust's `Error::pointer` gives it.
 */
export class Refusal extends ConcordError {
  override readonly name = "Refusal";
  readonly kind: string = "invalid";
  /** No offset: the engine names places by pointer. */
  readonly offset: undefined = undefined;
  constructor(
    readonly notes: readonly Note[],
    readonly more: boolean,
  ) {
    super([...notes.map((note) => note.line), ...(more ? ["..."] : [])].join("\n"));
  }

  get pointer(): string | undefined {
    return this.notes[0]?.pointer;
  }
}

/** A record type's schema as pinned, checked by the assertion engine (the Node addon `concord-engine`). */
export interface PinnedSchema {
  readonly documents: readonly PinnedDocument[];
  /** Where the type's schema stands in the first document. */
  readonly pointer: string;
  /** Reads `input` under the strict profile, then checks it; throws `Refusal`. */
  validateJson(input: Uint8Array | string, options?: ReadOptions): void;
  /** The first note on a document the strict profile accepts, or `undefined` when it passes. */
  firstNote(input: Uint8Array | string): Note | undefined;
}

/**
 * A generated record type's value: reads, writes, digests and validates
 * records of type `T`; a Standard Schema of `T` (`~standard`, `standard.ts`).
 */
export interface RecordType<T> extends StandardSchemaV1<unknown, T> {
  /** The type's name within its registry: `Entry.Type`. */
  readonly label: string;
  /** The pinned schema, for types that have one. */
  readonly schema: PinnedSchema | undefined;
  /** Reads one record: strict JSON first (`JsonError`), then the type (`SchemaError`, `VersionError`). */
  fromJson(input: Uint8Array | string, options?: ReadOptions): T;
  /** The record as JSON text, compact, in concord's layout (the bytes Rust and Python write). */
  toJson(record: T): string;
  /** `toJson` as UTF-8 bytes. */
  toBytes(record: T): Uint8Array;
  /** `sha256:<hex>` of the record's canonical JSON (`jcs-rfc8785-integer-v1`); refuses a record that holds a float. */
  digest(record: T): string;
  /** Checks the record against its pinned schema with the assertion engine; throws `Refusal`. */
  validate(record: T): void;
  /** Reads JSON Lines: each line a record, each line that fails named, the rest read (docs/batch-reads.md). */
  readJsonl(input: Uint8Array | string, options?: ReadOptions): LinesOutcome<T>;
  /** Reads a JSON array of records: each item that fails named, the rest read; an input that is no array throws `JsonError`. */
  readJsonArray(input: Uint8Array | string): ArrayOutcome<T>;
  /**
   * Standard Schema v1: `validate(value)` takes a parsed JavaScript value and
   * answers `{ value: T }` or `{ issues: [{ message, path }] }`, synchronously;
   * what it checks and what only a read of bytes can (docs/typescript.md).
   */
  readonly "~standard": StandardSchemaV1.Props<unknown, T>;
}

interface ModuleEntry {
  documents: readonly number[];
  plan: ModulePlan;
  nodes: Map<string, Node>;
}

/** A generated package's plans, by module. */
export class Registry {
  readonly #modules = new Map<string, ModuleEntry>();

  constructor(readonly pinned: readonly PinnedDocument[]) {}

  /** Adds a module's plan (what `<entry>.js` does when it is imported). */
  add(module: string, documents: readonly number[], plan: ModulePlan): void {
    if (plan.plan !== PLAN_VERSION) {
      throw new Error(
        `module ${module} holds a plan of format ${plan.plan}; concord-runtime ${VERSION} reads format ${PLAN_VERSION}: generate with the concord of this runtime's version`,
      );
    }
    this.#modules.set(module, { documents, plan, nodes: new Map() });
  }

  /** The node of type `name` of `module`, compiled on first use. */
  node(module: string, name: string): Node {
    // A chain of aliases that only name another type is walked here, once, and each link
    // given the node at its end, so no read walks it one call deeper per link (the Python
    // core collapses chains alike). `check` refuses a cycle of aliases at generation.
    const links: [ModuleEntry, string][] = [];
    let [at, type] = [module, name];
    let node: Node | undefined;
    let longest: number | undefined;
    for (;;) {
      const entry = this.#modules.get(at);
      if (entry === undefined) throw new Error(`no module ${at} in this registry (its module was not imported)`);
      node = entry.nodes.get(type);
      if (node !== undefined) break;
      const plan = entry.plan.types[type];
      if (plan === undefined) throw new Error(`no type ${type} in module ${at}`);
      checkTypePlan(`${at}.${type}`, plan);
      const alias = "alias" in plan ? plan.alias : undefined;
      if (typeof alias === "object" && "ref" in alias) longest ??= this.#typeCount;
      if (typeof alias === "object" && "ref" in alias && links.length <= (longest ?? 0)) {
        links.push([entry, type]);
        at = alias.ref.module ?? at;
        type = alias.ref.type;
        continue;
      }
      const home = at;
      // A type that holds itself is asked for again while it is compiled: it is then given a
      // node that forwards to the one being compiled, so compiling never recurses into itself.
      const compiling = forwarding(`${at}.${type}`);
      entry.nodes.set(type, compiling.node);
      try {
        node = compileType(type, plan, (ref) => this.node(ref.module ?? home, ref.type));
      } catch (error) {
        entry.nodes.delete(type);
        throw error;
      }
      compiling.settle(node);
      entry.nodes.set(type, node);
      break;
    }
    for (const [entry, link] of links) entry.nodes.set(link, node);
    return node;
  }

  /** How many types the registry holds: no chain of aliases is longer. */
  get #typeCount(): number {
    let count = 0;
    for (const entry of this.#modules.values()) count += Object.keys(entry.plan.types).length;
    return count;
  }

  /** The record type `name` of `module`; `pointer`: where its schema stands in its entry's schema file, for a pinned type. */
  record<T>(module: string, name: string, pointer?: string): RecordType<T> {
    const entry = this.#modules.get(module);
    const plan = entry?.plan.types[name];
    if (entry === undefined || plan === undefined) throw new Error(`no record type ${module}.${name} in this registry`);
    const documents = entry.documents.map((index) => this.pinned[index] as PinnedDocument);
    return new Record_<T>(`${module}.${name}`, () => this.node(module, name), plan, documents, pointer);
  }

  /** The parser of a typed id's values. */
  typedId<P extends string>(prefix: P): TypedIdType<P> {
    return typedIdType(prefix);
  }
}

/**
 * A node that stands for a type while it is being compiled, and forwards to
 * its node once it is. Nodes only reach it when a read or write runs, after
 * compiling has ended; one that asked it anything sooner would be a defect of
 * this runtime, named here rather than met as a stack overflow.
 */
function forwarding(label: string): { node: Node; settle(target: Node): void } {
  let target: Node | undefined;
  const settled = (): Node => {
    if (target === undefined) throw new Error(`concord-runtime: ${label} was used while it was being compiled`);
    return target;
  };
  return {
    node: {
      read: (lx) => settled().read(lx),
      write: (value, out) => settled().write(value, out),
      get expecting() {
        return settled().expecting;
      },
    },
    settle(node) {
      target = node;
    },
  };
}

/** The registry of a generated package of concord `version`: refuses bindings of another version. */
export function registry(version: string, pinned: readonly PinnedDocument[]): Registry {
  if (version !== VERSION) {
    throw new Error(
      `these bindings were generated by concord ${version}; concord-runtime ${VERSION} runs bindings of concord ${VERSION}: install concord-runtime@${version} or regenerate`,
    );
  }
  return new Registry(pinned);
}

const encoder = new TextEncoder();

class Record_<T> implements RecordType<T> {
  #node: Node | undefined;
  readonly schema: PinnedSchema | undefined;
  readonly "~standard": StandardSchemaV1.Props<unknown, T>;
  readonly #asserted: boolean;

  constructor(
    readonly label: string,
    private readonly compile: () => Node,
    plan: TypePlan,
    documents: readonly PinnedDocument[],
    pointer: string | undefined,
  ) {
    this.#asserted = plan.pinning === "asserted";
    this.schema = plan.pinning === undefined || pointer === undefined ? undefined : pinnedSchema(documents, pointer);
    this["~standard"] = standardProps((bytes) => this.fromJson(bytes));
  }

  get node(): Node {
    this.#node ??= this.compile();
    return this.#node;
  }

  fromJson(input: Uint8Array | string, options?: ReadOptions): T {
    const source = decode(input, options?.maxBytes);
    const lx = new Lexer(source);
    let record: T;
    try {
      startRead();
      lx.ws();
      record = this.node.read(lx) as T;
      lx.end();
      finishRead();
    } catch (error) {
      if (error instanceof Failure) {
        // The strict profile's refusal comes first, wherever in the input it stands.
        strict.check(input, options);
        throw error.error();
      }
      throw error;
    }
    if (this.#asserted) {
      // The schema holds rules no type expresses: the engine's first note, where and why in the
      // schema's words, as Rust's `from_json_asserted` words it.
      if (this.schema === undefined) throw new EngineUnavailable(`${this.label} is ASSERTED but carries no schema`);
      const note = this.schema.firstNote(input);
      if (note !== undefined) throw new SchemaError(note.pointer, `${note.message} (schema ${note.schemaPath})`);
    }
    return record;
  }

  /** The record written into a new `Output`, sized as the last record written was. */
  #write(record: T): Output {
    const out = new Output(this.#lastLength);
    this.node.write(record, out);
    this.#lastLength = Math.max(out.length, 256);
    return out;
  }

  #lastLength = 256;

  toJson(record: T): string {
    return this.#write(record).toString();
  }

  toBytes(record: T): Uint8Array {
    const out = this.#write(record);
    // The Output is this call's own: its buffer is the answer when it is full.
    return out.length === out.buffer.length ? out.buffer : out.toBytes();
  }

  digest(record: T): string {
    return digestBytes(canonicalize(this.#write(record).toBytes()));
  }

  validate(record: T): void {
    if (this.schema === undefined) throw new Error(`${this.label} has no pinned schema`);
    this.schema.validateJson(this.#write(record).toBytes());
  }

  readJsonl(input: Uint8Array | string, options?: ReadOptions): LinesOutcome<T> {
    return readJsonl((bytes, maxBytes) => this.fromJson(bytes, { maxBytes }), input, options?.maxBytes);
  }

  readJsonArray(input: Uint8Array | string): ArrayOutcome<T> {
    return readJsonArray((bytes) => this.fromJson(bytes), input);
  }
}

function pinnedSchema(documents: readonly PinnedDocument[], pointer: string): PinnedSchema {
  let validator: ReturnType<typeof engine.validator> | undefined;
  return {
    documents,
    pointer,
    validateJson(input, options) {
      validator ??= engine.validator(documents, pointer);
      const bytes = typeof input === "string" ? encoder.encode(input) : input;
      const { notes, more } = validator.notesJson(bytes, options?.maxBytes ?? DEFAULT_MAX_BYTES, 3);
      if (notes.length > 0) throw new Refusal(notes, more);
    },
    firstNote(input) {
      validator ??= engine.validator(documents, pointer);
      const bytes = typeof input === "string" ? encoder.encode(input) : input;
      return validator.notesJson(bytes, bytes.length, 1).notes[0];
    },
  };
}

declare const typedIdBrand: unique symbol;
/** A typed id's value: `<prefix>_<lowercase UUIDv7>`, made only by its parser or a read. */
export type TypedId<P extends string> = `${P}_${string}` & { readonly [typedIdBrand]: P };

export interface TypedIdType<P extends string> {
  readonly prefix: P;
  /** `text` as an id, or a `SchemaError` when it is not `<prefix>_<lowercase UUIDv7>`. */
  parse(text: string): TypedId<P>;
  is(text: string): text is TypedId<P>;
}

function typedIdType<P extends string>(prefix: P): TypedIdType<P> {
  const is = (text: string): text is TypedId<P> => isTypedId(text, prefix);
  return {
    prefix,
    is,
    parse(text) {
      if (!is(text)) throw new SchemaError("", `not a ${prefix}_ id with a lowercase UUIDv7 (x-typed-id)`);
      return text;
    },
  };
}

declare const unrecognizedBrand: unique symbol;
/** A value of an open enum that its schema does not list: kept as read, written back unchanged. */
export type Unrecognized = string & { readonly [unrecognizedBrand]: true };

/** `text` as an open enum's unlisted value. */
export function unrecognized(text: string): Unrecognized {
  return text as Unrecognized;
}

export type { ModulePlan };
