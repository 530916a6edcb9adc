// The TypeScript third of runtime/rust/tests/conformance.rs: reads one request
// per line on stdin, {"hex": <input bytes>, "max_bytes": <int or null>}, and
// answers each with one line in the shape the Python runner answers:
// {"read": "ok" or the error, "value": ..., "canonical_hex": ..., "canonical_error": ..., "digest": ...}.
//
// The answer is the built runtime's (runtime/typescript/dist/src/index.js,
// which `npx tsc -p runtime/typescript` builds): `read` on the bytes. Every
// input also goes through the runtime's other paths, and any difference from
// that answer is the answer instead, so that the Rust test fails on it:
// `check` (the reader that builds nothing, `Lexer.skipValue`), the same input
// as a JS string (when one holds it: valid UTF-8, or encoded lone surrogates
// as Python's surrogatepass writes them), the canonical form from bytes and
// from the value, and a second read of what was written.

import { existsSync, readFileSync, writeSync } from "node:fs";
import { fileURLToPath } from "node:url";

const built = new URL("../../runtime/typescript/dist/src/index.js", import.meta.url);
if (!existsSync(fileURLToPath(built))) {
  process.stderr.write(
    `the TypeScript runtime is not built (${fileURLToPath(built)} is missing): run \`npm ci && npx tsc -p runtime/typescript\`\n`,
  );
  process.exit(2);
}
const { CanonicalError, canonicalize, canonicalOf, check, DEFAULT_MAX_BYTES, digest, digestJson, read, writeValue } =
  await import(built.href);

const fatal = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

function outcome(action) {
  try {
    return ["ok", action()];
  } catch (error) {
    return [String(error), undefined];
  }
}

function hex(bytes) {
  return Buffer.from(bytes).toString("hex");
}

/** The JS string these bytes stand for, when one does (see the header). */
function asString(data) {
  try {
    return fatal.decode(data);
  } catch {
    return withLoneSurrogates(data);
  }
}

/** Bytes whose only invalid sequences are encoded lone surrogates, as a JS string; else undefined. */
function withLoneSurrogates(data) {
  let text = "";
  let lone = false;
  for (let index = 0; index < data.length; ) {
    const lead = data[index];
    const second = data[index + 1] ?? 0;
    const third = data[index + 2] ?? 0;
    if (lead === 0xed && second >= 0xa0 && second <= 0xbf && third >= 0x80 && third <= 0xbf) {
      const unit = 0xd000 | ((second & 0x3f) << 6) | (third & 0x3f);
      const previous = text.charCodeAt(text.length - 1);
      if (unit >= 0xdc00 && previous >= 0xd800 && previous <= 0xdbff) {
        return undefined; // a JS string would pair them up
      }
      text += String.fromCharCode(unit);
      lone = true;
      index += 3;
      continue;
    }
    const width = sequenceWidth(lead);
    if (width === 0 || index + width > data.length) {
      return undefined;
    }
    try {
      text += fatal.decode(data.subarray(index, index + width));
    } catch {
      return undefined;
    }
    index += width;
  }
  return lone ? text : undefined;
}

/** How many bytes the UTF-8 sequence led by `lead` takes; 0 for a byte that leads none. */
function sequenceWidth(lead) {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  return lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
}

/** The answer for one input, from bytes or from a string. */
function answerFor(input, options) {
  const [verdict, value] = outcome(() => read(input, options));
  if (verdict !== "ok") {
    return { read: verdict };
  }
  // "value": what was read, written back in concord's layout, so that floats are compared too.
  const [writable, written] = outcome(() => writeValue(value));
  const answer = { read: "ok", value: writable === "ok" ? written : `unwritable: ${writable}` };
  try {
    const canonical = canonicalize(input, options);
    answer.canonical_hex = hex(canonical);
    answer.digest = digestJson(input, options);
  } catch (error) {
    if (!(error instanceof CanonicalError)) {
      throw error;
    }
    answer.canonical_error = String(error);
  }
  return answer;
}

function answer(data, maxBytes) {
  const options = { maxBytes };
  const expected = answerFor(data, options);
  const problems = [];
  const [checked] = outcome(() => check(data, options));
  if (checked !== expected.read) {
    problems.push(`check gave ${checked}, read ${expected.read}`);
  }
  const text = asString(data);
  if (text !== undefined) {
    const fromString = answerFor(text, options);
    if (JSON.stringify(fromString) !== JSON.stringify(expected)) {
      problems.push(`the same input as a string gave ${JSON.stringify(fromString)}`);
    }
    const [checkedString] = outcome(() => check(text, options));
    if (checkedString !== expected.read) {
      problems.push(`check on the string gave ${checkedString}`);
    }
  }
  if (expected.read === "ok") {
    const value = read(data, options);
    const [canonicalVerdict, canonical] = outcome(() => canonicalOf(value));
    const fromValue = canonicalVerdict === "ok" ? hex(new TextEncoder().encode(canonical)) : canonicalVerdict;
    if (fromValue !== (expected.canonical_hex ?? expected.canonical_error)) {
      problems.push(`canonicalOf the value gave ${fromValue}`);
    }
    if (expected.digest !== undefined && digest(value) !== expected.digest) {
      problems.push(`digest of the value gave ${digest(value)}`);
    }
    if (!expected.value.startsWith("unwritable")) {
      const [again, reread] = outcome(() => writeValue(read(expected.value)));
      if (again !== "ok" || reread !== expected.value) {
        problems.push(`what was written reads back as ${again === "ok" ? reread : again}`);
      }
    }
  }
  return problems.length > 0 ? { read: problems.join("; ") } : expected;
}

const lines = readFileSync(0, "utf8").split("\n");
let out = "";
for (const line of lines) {
  if (line === "") {
    continue;
  }
  const request = JSON.parse(line);
  const data = new Uint8Array(Buffer.from(request.hex, "hex"));
  out += `${JSON.stringify(answer(data, request.max_bytes ?? DEFAULT_MAX_BYTES))}\n`;
}
const bytes = Buffer.from(out, "utf8");
for (let offset = 0; offset < bytes.length; ) {
  offset += writeSync(1, bytes, offset, bytes.length - offset);
}
