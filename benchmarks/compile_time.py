"""Compile time of concord's generated Rust for a registry, against typify's
output for the same schemas (``cargo typify``, one module per schema), in the
same profile. Medians of repeated builds; the two crates are built in turn, so
noise on a shared machine falls on both.

    python3 benchmarks/compile_time.py REGISTRY [--repeats N] [--profile dev|release] [--typify-arg ARG ...]

Each side is a scratch crate under ``--work-dir`` (default
``target/compile-time``): concord's depends on ``concord-runtime`` (a path
dependency on runtime/rust, with this repository's Cargo.lock), typify's on
serde, serde_json and whatever else its output names (regress, chrono, uuid).
Both are built once, dependencies included; then each repeat touches the
crate's ``src/lib.rs`` and times ``cargo build`` of that crate alone, with
``CARGO_INCREMENTAL=0`` so every repeat compiles all of the generated code.
typify runs with its defaults (builders included) unless ``--typify-arg``
says otherwise (e.g. ``--typify-arg=--no-builder``). A schema typify refuses
is left out of its crate and named; the ratio then covers unequal sets and
says so. Needs ``cargo install cargo-typify --locked``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Crates typify's output may name beyond serde and serde_json, with the
# features it needs (typify's README: uuid and chrono for formats, regress
# for patterns).
EXTRA_CRATES = {
    "regress": 'regress = "0.12"',
    "chrono": 'chrono = { version = "0.4", default-features = false, features = ["serde", "std"] }',
    "uuid": 'uuid = { version = "1", features = ["serde"] }',
}


def run(command: list[str], cwd: Path = ROOT, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"error: {' '.join(command)} failed:\n{result.stderr}")
    return result


def schema_paths(registry: Path) -> list[Path]:
    index = json.loads((registry / "registry.json").read_text())
    return [registry / entry["path"] for entry in index["schemas"]]


def module_name(path: Path, taken: set[str]) -> str:
    stem = path.name.removesuffix(".json").removesuffix(".schema")
    name = re.sub(r"[^a-z0-9_]", "_", stem.lower())
    name = f"m_{name}" if not name or name[0].isdigit() else name
    unique, n = name, 1
    while unique in taken:
        n += 1
        unique = f"{name}_{n}"
    taken.add(unique)
    return unique


def write_crate(folder: Path, name: str, dependencies: list[str], files: dict[str, str]) -> None:
    """A crate outside every workspace, with these sources (and nothing stale)."""
    shutil.rmtree(folder / "src", ignore_errors=True)
    (folder / "src").mkdir(parents=True)
    manifest = (
        f'[package]\nname = "{name}"\nversion = "0.0.0"\nedition = "2021"\npublish = false\n\n'
        "[dependencies]\n" + "".join(f"{line}\n" for line in dependencies) + "\n[workspace]\n"
    )
    (folder / "Cargo.toml").write_text(manifest)
    for path, text in files.items():
        (folder / "src" / path).write_text(text)


def concord_crate(registry: Path, folder: Path) -> tuple[str, float]:
    """Generates concord's Rust for the registry into a scratch crate; returns its name and the generation time."""
    out = folder / "generated"
    run(["cargo", "build", "--quiet", "--release", "-p", "concord-cli"])
    command = ["cargo", "run", "--quiet", "--release", "-p", "concord-cli", "--"]
    start = time.perf_counter()
    run([*command, "generate", "--registry", str(registry), "--out", str(out)])
    seconds = time.perf_counter() - start
    sources = sorted((out / "rust").glob("*.rs"))
    if [path.name for path in sources] != ["concord_registry.rs"]:
        sys.exit(f"error: expected {out}/rust/concord_registry.rs alone, found {[path.name for path in sources]}")
    runtime = ROOT / "runtime" / "rust"
    name = "compile-time-concord"
    dependency = f"concord-runtime = {{ path = {json.dumps(str(runtime))} }}"
    write_crate(folder, name, [dependency], {"lib.rs": sources[0].read_text()})
    shutil.copyfile(ROOT / "Cargo.lock", folder / "Cargo.lock")
    return name, seconds


def typify_crate(registry: Path, folder: Path, typify_args: list[str]) -> tuple[str, float, list[str]]:
    """Runs cargo typify on each schema into one module each; returns the crate's name, the total time, the refusals."""
    if shutil.which("cargo-typify") is None:
        sys.exit("error: cargo-typify is not installed: cargo install cargo-typify --locked")
    taken: set[str] = set()
    modules: dict[str, str] = {}
    refused: list[str] = []
    seconds = 0.0
    for schema in schema_paths(registry):
        start = time.perf_counter()
        result = subprocess.run(
            ["cargo", "typify", *typify_args, "--output", "-", str(schema)], capture_output=True, text=True
        )
        seconds += time.perf_counter() - start
        if result.returncode != 0:
            first = (result.stderr.strip().splitlines() or ["(no message)"])[0]
            refused.append(f"{schema.name}: {first}")
            continue
        modules[f"{module_name(schema, taken)}.rs"] = result.stdout
    if not modules:
        sys.exit("error: typify refused every schema:\n" + "\n".join(refused))
    text = "".join(modules.values())
    dependencies = ['serde = { version = "1", features = ["derive"] }', 'serde_json = "1"']
    dependencies += [line for crate, line in EXTRA_CRATES.items() if f"{crate}::" in text]
    lib = "".join(f"pub mod {path.removesuffix('.rs')};\n" for path in modules)
    name = "compile-time-typify"
    write_crate(folder, name, dependencies, {"lib.rs": lib, **modules})
    if not (folder / "Cargo.lock").exists():
        shutil.copyfile(ROOT / "Cargo.lock", folder / "Cargo.lock")  # the same serde versions; cargo adds the rest
    return name, seconds, refused


def build(folder: Path, profile: str, target: Path) -> float:
    env = {**os.environ, "CARGO_INCREMENTAL": "0", "CARGO_TARGET_DIR": str(target)}
    start = time.perf_counter()
    run(["cargo", "build", "--quiet", "--profile", profile, "--manifest-path", str(folder / "Cargo.toml")], env=env)
    return time.perf_counter() - start


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("registry", type=Path, help="a registry folder (registry.json and its schemas)")
    options.add_argument("--repeats", type=int, default=3, help="timed builds per side (default 3)")
    options.add_argument("--profile", default="dev", help="cargo profile of both builds (default dev, i.e. debug)")
    options.add_argument("--work-dir", type=Path, default=ROOT / "target" / "compile-time")
    options.add_argument("--typify-arg", action="append", default=[], help="passed to cargo typify (repeatable)")
    arguments = options.parse_args()

    registry = arguments.registry.resolve()
    tag = hashlib.sha256(str(registry).encode()).hexdigest()[:12]
    work: Path = arguments.work_dir.resolve()
    target = work / "target"  # shared: dependencies are built once for every registry
    concord_dir, typify_dir = work / f"concord-{tag}", work / f"typify-{tag}"

    _, concord_generation = concord_crate(registry, concord_dir)
    _, typify_generation, refused = typify_crate(registry, typify_dir, arguments.typify_arg)
    sizes = {
        side: sum(len(path.read_text().splitlines()) for path in (folder / "src").glob("*.rs"))
        for side, folder in (("concord", concord_dir), ("typify", typify_dir))
    }
    count = len(schema_paths(registry))
    print(f"registry {registry}: {count} schemas")
    print(f"generation: concord {concord_generation:.2f} s (cargo run, all schemas), typify {typify_generation:.2f} s")
    print(f"generated Rust: concord {sizes['concord']} lines, typify {sizes['typify']} lines")
    for line in refused:
        print(f"typify refused {line}")

    print("building both crates and their dependencies once ...", flush=True)
    build(concord_dir, arguments.profile, target)
    build(typify_dir, arguments.profile, target)
    times: dict[str, list[float]] = {"concord": [], "typify": []}
    for repeat in range(arguments.repeats):
        for side, folder in (("concord", concord_dir), ("typify", typify_dir)):
            (folder / "src" / "lib.rs").touch()
            times[side].append(build(folder, arguments.profile, target))
        last = {side: f"{seconds[-1]:.2f} s" for side, seconds in times.items()}
        print(f"  repeat {repeat + 1}: concord {last['concord']}, typify {last['typify']}", flush=True)

    concord, typify = statistics.median(times["concord"]), statistics.median(times["typify"])
    caveat = f" (typify built {count - len(refused)} of {count} schemas)" if refused else ""
    print(
        f"compile time ({arguments.profile}, median of {arguments.repeats}): concord {concord:.2f} s, "
        f"typify {typify:.2f} s, ratio concord/typify {concord / typify:.2f}x (target <= 1.0x){caveat}"
    )


if __name__ == "__main__":
    main()
