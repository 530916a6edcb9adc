// Loads the concord-engine addon: a build of this checkout
// (scripts/build-node-engine puts concord-engine.node beside this file), else
// the package of this platform, which npm installs from the published
// package's optionalDependencies (scripts/packages adds them, one package per
// platform, as @swc/core and @biomejs/biome ship their binaries). Its API is
// declared in index.d.ts.
"use strict";

const fs = require("node:fs");
const path = require("node:path");

// The platforms scripts/packages builds a package for.
const BUILT = ["linux-x64-gnu"];

// The same rule as cli/npm/bin/concord.js (the concord-cli launcher): two packages, installed apart, share no module.
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

function missing(message) {
  const error = new Error(`concord-engine: ${message}`);
  error.code = "CONCORD_ENGINE_MISSING";
  return error;
}

function load() {
  const local = path.join(__dirname, "concord-engine.node");
  if (fs.existsSync(local)) return require(local);
  const name = platform();
  const version = require("./package.json").version;
  if (!BUILT.includes(name)) {
    throw missing(
      `no build for ${name} (there are builds for ${BUILT.join(", ")}); in a checkout of concord, scripts/build-node-engine builds one`,
    );
  }
  const pkg = `concord-engine-${name}`;
  try {
    require.resolve(`${pkg}/package.json`);
  } catch {
    throw missing(
      `${pkg} is not installed: npm installs it with concord-engine unless optional dependencies are left out (npm install ${pkg}@${version})`,
    );
  }
  const installed = require(`${pkg}/package.json`).version;
  if (installed !== version) {
    throw missing(`${pkg} is version ${installed}; concord-engine ${version} needs ${pkg}@${version}`);
  }
  return require(pkg);
}

const addon = load();

// Named one by one, so that an ES module can import them by name.
exports.Validator = addon.Validator;
exports.version = addon.version;
