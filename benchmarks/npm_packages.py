"""The npm packages as a TypeScript team installs them (docs/packaging.md):
their sizes against ajv's and zod's, and `concord generate` of the shipped
registry by `npx concord`, by the package's launcher and by the binary the
platform package holds, against the cargo-built binary: the same program,
so the differences are npx's start and Node's.

    python3 benchmarks/npm_packages.py [--runs N] [--work-dir DIR]

Builds the packages with scripts/packages (needs .venv, as scripts/test
makes it) and installs them from their tarballs into a folder of their own,
npm offline. Sizes: the packed tarball (gzipped, what npm downloads) and
the unpacked files (what lands in node_modules); ajv counts its four
dependencies, as npm installs them. ajv's and zod's tarballs are packed
from the copies `npm ci` installed here. The runs alternate between the
three commands, each into a fresh output folder; medians, minimum and
maximum are printed, and the ratios of the medians.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VERSION = json.loads((ROOT / "runtime" / "typescript" / "package.json").read_text())["version"]
PACKAGES = [
    "concord-runtime",
    "concord-engine",
    "concord-engine-linux-x64-gnu",
    "concord-cli",
    "concord-cli-linux-x64-gnu",
]
# What npm installs for each: ajv brings these four.
COMPARED = {
    "ajv": ["ajv", "fast-deep-equal", "fast-uri", "json-schema-traverse", "require-from-string"],
    "zod": ["zod"],
}


def run(command: list[str], **kwargs: object) -> str:
    result = subprocess.run(command, capture_output=True, text=True, **kwargs)  # type: ignore[call-overload]
    if result.returncode != 0:
        sys.exit(f"error: {' '.join(command)} failed:\n{result.stdout}{result.stderr}")
    return str(result.stdout)


def unpacked(folder: Path) -> int:
    return sum(file.stat().st_size for file in folder.rglob("*") if file.is_file())


def kib(size: int) -> str:
    return f"{size / 1024:.1f} KiB"


def size(name: str, tarball: int, files: int) -> None:
    print(f"size {name:30} packed {kib(tarball):>11}, unpacked {kib(files):>11}")


def packed(folder: Path, into: Path) -> int:
    """The size of `npm pack` of an installed package's folder."""
    name = run(["npm", "pack", "--silent", "--pack-destination", str(into)], cwd=folder).strip().splitlines()[-1]
    return (into / name).stat().st_size


def timed(command: list[str], cwd: Path) -> float:
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        run([*command, "generate", "--registry", str(ROOT / "registry"), "--out", out], cwd=cwd)
        return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--work-dir", type=Path, default=ROOT / "target" / "bench" / "npm-packages")
    args = parser.parse_args()
    tarballs, project, compared = args.work_dir / "packages", args.work_dir / "project", args.work_dir / "compared"
    shutil.rmtree(args.work_dir, ignore_errors=True)
    for folder in (project, compared):
        folder.mkdir(parents=True)
    # A project of its own: without it npm installs into the checkout's package.json above.
    (project / "package.json").write_text('{"private": true}\n')
    run([str(ROOT / "scripts" / "packages"), str(tarballs)])
    files = [tarballs / f"{name}-{VERSION}.tgz" for name in PACKAGES]
    offline = {**os.environ, "npm_config_offline": "true", "npm_config_cache": str(args.work_dir / "npm-cache")}
    run(["npm", "install", "--no-audit", "--no-fund", "--loglevel=error", *map(str, files)], cwd=project, env=offline)

    modules = project / "node_modules"
    for name, file in zip(PACKAGES, files, strict=True):
        size(name, file.stat().st_size, unpacked(modules / name))
    ours = files[0].stat().st_size, unpacked(modules / "concord-runtime")
    for name, parts in COMPARED.items():
        folders = [ROOT / "node_modules" / part for part in parts]
        theirs = sum(packed(folder, compared) for folder in folders), sum(unpacked(folder) for folder in folders)
        size(f"{name} ({len(parts)} packages)", *theirs)
        print(
            f"ratio: concord-runtime / {name}: packed {ours[0] / theirs[0]:.2f}x, unpacked {ours[1] / theirs[1]:.2f}x"
        )

    run(["cargo", "build", "--quiet", "--release", "-p", "concord-cli"], cwd=ROOT)
    commands = {
        "npx concord": ["npx", "--offline", "concord"],
        "launcher": [str(modules / ".bin" / "concord")],
        "npm's binary": [str(modules / "concord-cli-linux-x64-gnu" / "concord")],
        "cargo-built": [str(ROOT / "target" / "release" / "concord")],
    }
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(args.runs):
        for name, command in commands.items():
            times[name].append(timed(command, project))
    for name, runs in times.items():
        spread = f"min {min(runs) * 1000:.0f}, max {max(runs) * 1000:.0f}, {len(runs)} runs"
        print(f"{name:12} concord generate (registry/): median {statistics.median(runs) * 1000:.0f} ms ({spread})")
    for name in ("npx concord", "launcher", "npm's binary"):
        ratio = statistics.median(times[name]) / statistics.median(times["cargo-built"])
        print(f"ratio: concord generate, {name} / cargo-built = {ratio:.2f}x")


if __name__ == "__main__":
    main()
