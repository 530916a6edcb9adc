"""A user's clean build: a consumer crate with concord's build script (the
build dependency concord-codegen and the runtime, the tutorial's schema)
against the same schema through a typify ``build.rs`` crate, in one run.

    python3 benchmarks/consumer_build.py [--rounds N] [--work-dir DIR]

Each round builds both crates from nothing (``cargo build`` into a fresh
target folder; the crates' sources are downloaded once), concord's and
typify's in turn, so noise on a shared machine falls on both. Prints each
crate's median, minimum and maximum wall time, the ratio of the medians,
the number of crates in each build graph (``cargo tree -e normal,build``),
and the CPU seconds ``cargo build --timings`` adds up per crate for the
last round's heaviest units. Needs the crates.io index (typify's crate).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SCHEMA = """{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "title": "Note",
  "description": "A note passed between the Rust and Python programs.",
  "type": "object",
  "x-growth-point": true,
  "properties": {
    "id": {"type": "string", "description": "The note's id."},
    "author": {"$ref": "#/$defs/Author"},
    "tags": {"type": "array", "items": {"type": "string"}}
  },
  "required": ["id", "author"],
  "$defs": {
    "Author": {
      "type": "object",
      "description": "Who wrote it.",
      "properties": {"name": {"type": "string"}},
      "required": ["name"],
      "additionalProperties": false
    }
  }
}
"""

CONCORD_MANIFEST = """[package]
name = "concord-consumer"
version = "0.1.0"
edition = "2021"

[dependencies]
concord-runtime = {{ path = "{root}/runtime/rust" }}

[build-dependencies]
concord-codegen = {{ path = "{root}/codegen" }}

[workspace]
"""

CONCORD_BUILD = """fn main() {
    if let Err(errors) = concord_codegen::Config::new().registry("registry").compile() {
        eprintln!("{errors}");
        std::process::exit(1);
    }
}
"""

# typify as its README shows it in a build script: schemars reads the
# schema, TypeSpace writes tokens, prettyplease lays them out.
TYPIFY_MANIFEST = """[package]
name = "typify-consumer"
version = "0.1.0"
edition = "2021"

[dependencies]
serde = { version = "1", features = ["derive"] }
serde_json = "1"

[build-dependencies]
prettyplease = "0.2"
schemars = "0.8"
serde_json = "1"
syn = "2"
typify = { version = "0.5", default-features = false }

[workspace]
"""

TYPIFY_BUILD = """fn main() {
    let text = std::fs::read_to_string("note.schema.json").unwrap();
    let schema: schemars::schema::RootSchema = serde_json::from_str(&text).unwrap();
    let mut space = typify::TypeSpace::new(typify::TypeSpaceSettings::default().with_struct_builder(false));
    space.add_root_schema(schema).unwrap();
    let file = syn::parse2::<syn::File>(space.to_stream()).unwrap();
    let out = std::path::Path::new(&std::env::var("OUT_DIR").unwrap()).join("types.rs");
    std::fs::write(out, prettyplease::unparse(&file)).unwrap();
    println!("cargo:rerun-if-changed=note.schema.json");
}
"""


def write_crates(work: Path) -> tuple[Path, Path]:
    concord, typify = work / "concord-consumer", work / "typify-consumer"
    for crate in (concord, typify):
        shutil.rmtree(crate, ignore_errors=True)
        (crate / "src").mkdir(parents=True)
    (concord / "registry").mkdir()
    (concord / "registry" / "note.schema.json").write_text(SCHEMA)
    digest = "sha256:" + hashlib.sha256(SCHEMA.encode()).hexdigest()
    index = {"format": 1, "schemas": [{"name": "Note", "path": "note.schema.json", "digest": digest}]}
    (concord / "registry" / "registry.json").write_text(json.dumps(index))
    (concord / "Cargo.toml").write_text(CONCORD_MANIFEST.format(root=ROOT))
    (concord / "build.rs").write_text(CONCORD_BUILD)
    (concord / "src" / "lib.rs").write_text('include!(concat!(env!("OUT_DIR"), "/concord_registry.rs"));\n')
    (typify / "note.schema.json").write_text(SCHEMA)
    (typify / "Cargo.toml").write_text(TYPIFY_MANIFEST)
    (typify / "build.rs").write_text(TYPIFY_BUILD)
    (typify / "src" / "lib.rs").write_text('#![allow(clippy::all)]\ninclude!(concat!(env!("OUT_DIR"), "/types.rs"));\n')
    return concord, typify


def cargo(crate: Path, *args: str, target: Path | None = None) -> subprocess.CompletedProcess[str]:
    command = ["cargo", *args, "--manifest-path", str(crate / "Cargo.toml")]
    if target is not None:
        command += ["--target-dir", str(target)]
    result = subprocess.run(command, capture_output=True, text=True, env={**_env(), "CARGO_INCREMENTAL": "0"})
    if result.returncode != 0:
        sys.exit(f"error: {' '.join(command)} failed:\n{result.stderr}")
    return result


def _env() -> dict[str, str]:
    import os

    env = dict(os.environ)
    env.pop("CARGO_TARGET_DIR", None)
    return env


def clean_build(crate: Path, timings: bool = False) -> float:
    target = crate / "target"
    shutil.rmtree(target, ignore_errors=True)
    start = time.perf_counter()
    cargo(crate, "build", "--quiet", *(["--timings"] if timings else []), target=target)
    return time.perf_counter() - start


def crate_count(crate: Path) -> int:
    tree = cargo(crate, "tree", "--quiet", "-e", "normal,build", "--prefix", "none").stdout
    return len({line.replace(" (*)", "") for line in tree.splitlines() if line.strip()}) - 1


def heaviest_units(crate: Path, count: int = 6) -> tuple[float, list[str]]:
    pages = sorted((crate / "target" / "cargo-timings").glob("cargo-timing-*.html"))
    if not pages:
        return 0.0, []
    match = re.search(r"const UNIT_DATA = (\[.*?\]);", pages[-1].read_text(), re.S)
    units = json.loads(match.group(1)) if match else []
    total = sum(unit["duration"] for unit in units)
    units.sort(key=lambda unit: -unit["duration"])
    return total, [f"{unit['name']} {unit['duration']:.1f}s" for unit in units[:count]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--work-dir", type=Path, default=ROOT / "target" / "bench" / "consumer-build")
    args = parser.parse_args()
    concord, typify = write_crates(args.work_dir)
    # Fetch once, so no round times a download.
    for crate in (concord, typify):
        cargo(crate, "fetch", "--quiet")
    times: dict[str, list[float]] = {"concord": [], "typify": []}
    for round_ in range(args.rounds):
        last = round_ == args.rounds - 1
        times["concord"].append(clean_build(concord, timings=last))
        times["typify"].append(clean_build(typify, timings=last))
    for name, crate in (("concord", concord), ("typify", typify)):
        runs = times[name]
        spread = f"min {min(runs):.1f}, max {max(runs):.1f}, {len(runs)} runs"
        median = statistics.median(runs)
        print(f"{name:8} clean build: median {median:.1f} s ({spread}), {crate_count(crate)} crates in the graph")
        cpu, heaviest = heaviest_units(crate)
        print(f"{name:8} last round: {cpu:.1f} CPU s over all units; heaviest: {', '.join(heaviest)}")
    ratio = statistics.median(times["concord"]) / statistics.median(times["typify"])
    print(f"ratio: consumer clean build, concord / typify build.rs = {ratio:.2f}x")


if __name__ == "__main__":
    main()
