// The generated TypeScript bindings against what TypeScript users write
// instead: `JSON.parse` and a zod 4 schema of the same record, and
// `JSON.parse` and an ajv validator compiled from the same pinned schema.
// The documents are those benchmarks/python_speed.py measures in Python
// (`--write DIR`). The runs alternate, and each ratio is the median of the
// pairs' ratios; compare ratios, not MiB/s, on a noisy machine.
//
//   node benchmarks/typescript/records.mjs DIR [--runs N]

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import Ajv2020 from "ajv/dist/2020.js";
import { z } from "zod";

const root = fileURLToPath(new URL("../../", import.meta.url));
const folder = process.argv[2];
const runsAt = process.argv.indexOf("--runs");
const runs = runsAt > 0 ? Number(process.argv[runsAt + 1]) : 9;
if (folder === undefined) {
  console.error("usage: node benchmarks/typescript/records.mjs DIR [--runs N] (DIR from python_speed.py --write)");
  process.exit(2);
}

const bindings = await import(pathToFileURL(join(root, "generated/typescript/concord-registry/index.js")).href);
const { PINNED } = await import(pathToFileURL(join(root, "generated/typescript/concord-registry/_schemas.js")).href);

// What a user writes by hand with zod 4: strict where the schema is closed,
// loose where it keeps unknown keys, the default (strip) elsewhere.
const kernel = z.object({
  name: z.string(),
  type: z.enum(["triton", "cuda", "cpp", "extern"]),
  duration_ms: z.number(),
  launch: z.object({
    grid: z.array(z.number().int()),
    block: z.array(z.number().int()),
    shared_mem_bytes: z.number().int(),
    num_warps: z.number().int().optional(),
  }),
  occupancy: z.number().nullable().optional(),
  counters: z.record(z.string(), z.number().int()).optional(),
  source_path: z.string().optional(),
});
const callNode = z.object({
  name: z.string(),
  class: z.string().optional(),
  self_ms: z.number(),
  get children() {
    return z.array(callNode).optional();
  },
});
const clsArtifact = z.looseObject({
  format_version: z.number().int(),
  session: z.looseObject({
    gpu_arch: z.string(),
    driver_version: z.string(),
    cuda_version: z.string(),
    nccl_version: z.string().nullable().optional(),
    cudnn_version: z.number().int().nullable(),
    hostname: z.string().optional(),
    world_size: z.number().int(),
  }),
  compile_config: z.object({
    backend: z.string(),
    mode: z.enum(["default", "reduce-overhead", "max-autotune", "max-autotune-no-cudagraphs"]),
    fullgraph: z.boolean(),
    dynamic: z.boolean().nullable(),
    options: z.record(z.string(), z.unknown()).optional(),
  }),
  kernels: z.array(kernel),
  extra: z.record(z.string(), z.unknown()).optional(),
  call_tree: callNode.optional(),
});
const canonical = z.discriminatedUnion("kind", [
  z.strictObject({
    kind: z.literal("exit_code"),
    command: z.unknown(),
    exit_code: z.number().int(),
    heuristic: z.boolean(),
  }),
  z.strictObject({ kind: z.literal("tool_result"), summary: z.string() }),
  z.strictObject({ kind: z.literal("file_diff"), path: z.string(), diff: z.string() }),
  z.strictObject({ kind: z.literal("process_observation"), description: z.string() }),
  z.strictObject({ kind: z.literal("transcript_excerpt"), text: z.string() }),
]);
const evidence = z.object({
  id: z.string(),
  session_id: z.string(),
  kind: z.string(),
  payload: z.unknown(),
  source: z.string().nullable().optional(),
  canonical: canonical.optional(),
  extension: z
    .looseObject({
      schema_version: z.union([z.literal(1), z.literal(2)]),
      provider: z.string(),
      adapter_version: z.string(),
      content_class: z.string(),
      fields: z.record(z.string(), z.unknown()),
    })
    .optional(),
});

// ajv compiled from the pinned schema files themselves.
const ajv = new Ajv2020({ strict: false, allErrors: false });
for (const document of PINNED) ajv.addSchema(JSON.parse(document.text), document.uri);
const ajvFor = (name) => ajv.getSchema(bindings[name].schema.documents[0].uri);

const decoder = new TextDecoder("utf-8", { fatal: true });
const encoder = new TextEncoder();

function pairs(first, second) {
  first();
  second();
  const ratios = [];
  const times = [[], []];
  for (let run = 0; run < runs; run++) {
    const sample = [];
    for (const [index, action] of [first, second].entries()) {
      const start = process.hrtime.bigint();
      action();
      const elapsed = Number(process.hrtime.bigint() - start) / 1e9;
      times[index].push(elapsed);
      sample.push(elapsed);
    }
    ratios.push(sample[0] / sample[1]);
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  return { baseline: median(times[0]), ours: median(times[1]), ratio: median(ratios) };
}

function row(name, label, bytes, result) {
  const mib = bytes / (1024 * 1024);
  const speed = (seconds) => (mib / seconds).toFixed(1).padStart(7);
  console.log(
    `  ${name.padEnd(11)} ${label.padEnd(44)} them ${speed(result.baseline)} MiB/s  concord ${speed(result.ours)} MiB/s  ratio ${result.ratio.toFixed(2)}x`,
  );
}

for (const [name, schema] of [
  ["ClsArtifact", clsArtifact],
  ["Evidence", evidence],
]) {
  const bytes = readFileSync(join(folder, `${name}.json`));
  const type = bindings[name];
  const record = type.fromJson(bytes);
  const plain = JSON.parse(decoder.decode(bytes));
  if (!schema.safeParse(plain).success) throw new Error(`the zod schema refuses the ${name} document`);
  const validate = ajvFor(name);
  if (!validate(plain)) throw new Error(`ajv refuses the ${name} document: ${ajv.errorsText(validate.errors)}`);
  console.log(`${name}: ${(bytes.length / (1024 * 1024)).toFixed(1)} MiB, median of ${runs} runs`);
  const parse = () => JSON.parse(decoder.decode(bytes));
  const read = () => type.fromJson(bytes);
  row(
    name,
    "fromJson vs JSON.parse + zod parse",
    bytes.length,
    pairs(() => schema.parse(parse()), read),
  );
  row(
    name,
    "fromJson vs JSON.parse + ajv validate",
    bytes.length,
    pairs(() => validate(parse()), read),
  );
  row(name, "fromJson vs JSON.parse alone", bytes.length, pairs(parse, read));
  row(
    name,
    "toJson vs JSON.stringify",
    bytes.length,
    pairs(
      () => JSON.stringify(plain),
      () => type.toJson(record),
    ),
  );
  // toJson decodes the bytes the writer makes into a string; toBytes hands them over.
  row(
    name,
    "toBytes vs encode(JSON.stringify)",
    bytes.length,
    pairs(
      () => encoder.encode(JSON.stringify(plain)),
      () => type.toBytes(record),
    ),
  );
  try {
    type.digest(record);
    row(
      name,
      "digest vs JSON.stringify",
      bytes.length,
      pairs(
        () => JSON.stringify(plain),
        () => type.digest(record),
      ),
    );
  } catch {
    console.log(`  ${name.padEnd(11)} digest: none (the record holds floats, which canonical JSON refuses)`);
  }
  row(
    name,
    "validate (engine) vs ajv validate (parsed)",
    bytes.length,
    pairs(
      () => validate(plain),
      () => type.validate(record),
    ),
  );
}
