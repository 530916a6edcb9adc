// Loads the addon built by scripts/build-node-engine (cargo, crate
// concord-node-engine) from this folder. Its API is declared in index.d.ts.
"use strict";

const fs = require("node:fs");
const path = require("node:path");

const file = path.join(__dirname, "concord-engine.node");
if (!fs.existsSync(file)) {
  const error = new Error(
    `concord-engine: ${file} is missing; build it with scripts/build-node-engine ` +
      "(cargo build --release -p concord-node-engine, then the library copied there)",
  );
  error.code = "CONCORD_ENGINE_MISSING";
  throw error;
}
const addon = require(file);

// Named one by one, so that an ES module can import them by name.
exports.Validator = addon.Validator;
exports.version = addon.version;
