// What the two npm packages that carry native code do when their platform
// package is missing or of another version (docs/packaging.md): the
// concord-engine loader (runtime/node-engine/index.js) throws an Error coded
// CONCORD_ENGINE_MISSING, the concord-cli launcher (cli/npm/bin/concord.js)
// exits with status 2; both name the package and version to install. Each
// runs from a copy laid out as npm installs it, without the checkout's
// build of the addon beside it. (cli/tests/outside.rs installs the real
// packages and runs both where the platform package is there.)

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const VERSION = JSON.parse(readFileSync(join(ROOT, "runtime/node-engine/package.json"), "utf8")).version;
// The one platform packages are built for, and the one these machines are.
const PLATFORM = "linux-x64-gnu";

/** A folder with node_modules/<name> copied from `files` (relative to the checkout), and a platform package of `version`, if any. */
function installed(name, files, platformPackage, version) {
  const folder = mkdtempSync(join(tmpdir(), "concord-platform-"));
  const target = join(folder, "node_modules", name);
  for (const [from, to] of files) cpSync(join(ROOT, from), join(target, to), { recursive: true });
  if (version !== undefined) {
    mkdirSync(join(folder, "node_modules", platformPackage), { recursive: true });
    writeFileSync(
      join(folder, "node_modules", platformPackage, "package.json"),
      JSON.stringify({ name: platformPackage, version }),
    );
  }
  return { folder, target };
}

function loadEngine(version) {
  const { folder, target } = installed(
    "concord-engine",
    [
      ["runtime/node-engine/index.js", "index.js"],
      ["runtime/node-engine/package.json", "package.json"],
    ],
    `concord-engine-${PLATFORM}`,
    version,
  );
  try {
    return spawnSync(
      process.execPath,
      ["-e", `try { require(${JSON.stringify(target)}); } catch (e) { console.log(e.code); console.log(e.message); }`],
      { cwd: folder, encoding: "utf8" },
    ).stdout;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

function runLauncher(version) {
  const { folder, target } = installed(
    "concord-cli",
    [
      ["cli/npm/bin/concord.js", "bin/concord.js"],
      ["cli/npm/package.json", "package.json"],
    ],
    `concord-cli-${PLATFORM}`,
    version,
  );
  try {
    return spawnSync(process.execPath, [join(target, "bin/concord.js"), "--version"], {
      cwd: folder,
      encoding: "utf8",
    });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

test("the engine loader names the platform package to install when it is missing", () => {
  const [code, message] = loadEngine(undefined).split("\n");
  assert.equal(code, "CONCORD_ENGINE_MISSING");
  assert.match(message, new RegExp(`concord-engine-${PLATFORM} is not installed`));
  assert.match(message, new RegExp(`npm install concord-engine-${PLATFORM}@${VERSION.replaceAll(".", "\\.")}`));
});

test("the engine loader refuses a platform package of another version", () => {
  const [code, message] = loadEngine("0.0.1").split("\n");
  assert.equal(code, "CONCORD_ENGINE_MISSING");
  assert.match(message, new RegExp(`concord-engine-${PLATFORM} is version 0\\.0\\.1; concord-engine ${VERSION}`));
});

test("the launcher names the platform package to install when it is missing", () => {
  const result = runLauncher(undefined);
  assert.equal(result.status, 2);
  assert.equal(result.stdout, "");
  assert.match(result.stderr, new RegExp(`^concord: concord-cli-${PLATFORM} is not installed`));
});

test("the launcher refuses a platform package of another version", () => {
  const result = runLauncher("0.0.1");
  assert.equal(result.status, 2);
  assert.match(result.stderr, new RegExp(`concord-cli-${PLATFORM} is version 0\\.0\\.1; concord-cli ${VERSION} needs`));
});
