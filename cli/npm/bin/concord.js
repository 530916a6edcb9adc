#!/usr/bin/env node
// `concord` for npm users (`npx concord generate`): runs the binary of this
// platform's package, concord-cli-<platform> (scripts/packages builds it:
// the same binary the concord-cli wheel carries), with the arguments,
// standard streams and exit status passed through.
"use strict";

const { spawnSync } = require("node:child_process");
const path = require("node:path");

// The platforms scripts/packages builds a package for.
const BUILT = ["linux-x64-gnu"];

// The same rule as runtime/node-engine/index.js (the concord-engine loader): two packages, installed apart, share no module.
/** The platform's name as the packages spell it: os, cpu, and on Linux the C library. */
function platform() {
  const parts = [process.platform, process.arch];
  if (process.platform === "linux") {
    // napi-rs and @swc/core tell glibc from musl the same way.
    const report = typeof process.report?.getReport === "function" ? process.report.getReport() : null;
    parts.push(report?.header?.glibcVersionRuntime ? "gnu" : "musl");
  }
  return parts.join("-");
}

function fail(message) {
  process.stderr.write(`concord: ${message}\n`);
  process.exit(2);
}

const name = platform();
const version = require("../package.json").version;
const pkg = `concord-cli-${name}`;
if (!BUILT.includes(name)) {
  fail(`no build for ${name} (there are builds for ${BUILT.join(", ")}); \`cargo install concord-cli\` builds the command anywhere Rust does`);
}
let manifest;
try {
  manifest = require.resolve(`${pkg}/package.json`);
} catch {
  fail(`${pkg} is not installed: npm installs it with concord-cli unless optional dependencies are left out (npm install ${pkg}@${version})`);
}
const installed = require(manifest).version;
if (installed !== version) fail(`${pkg} is version ${installed}; concord-cli ${version} needs ${pkg}@${version}`);

const result = spawnSync(path.join(path.dirname(manifest), "concord"), process.argv.slice(2), { stdio: "inherit" });
if (result.error) fail(`cannot run ${pkg}'s binary: ${result.error.message}`);
if (result.signal) process.kill(process.pid, result.signal);
process.exit(result.status ?? 1);
