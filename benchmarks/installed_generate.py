"""`concord generate` of the shipped registry by the `concord` the wheel
installs (``pip install concord-cli``) against the one cargo builds
(``cargo build --release -p concord-cli``): the same program, so the ratio
should be about 1.0x.

    python3 benchmarks/installed_generate.py [--runs N] [--work-dir DIR]

Builds the wheels with scripts/wheels (needs .venv, as scripts/test makes
it) and installs the command's wheel alone into a venv of its own. The
runs alternate between the two binaries, each into a fresh output folder;
medians, minimum and maximum are printed, and the ratio of the medians.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(command: list[str], **kwargs: object) -> None:
    result = subprocess.run(command, capture_output=True, text=True, **kwargs)  # type: ignore[call-overload]
    if result.returncode != 0:
        sys.exit(f"error: {' '.join(command)} failed:\n{result.stdout}{result.stderr}")


def timed(binary: Path) -> float:
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        run([str(binary), "generate", "--registry", str(ROOT / "registry"), "--out", out])
        return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--work-dir", type=Path, default=ROOT / "target" / "bench" / "installed-generate")
    args = parser.parse_args()
    wheels, venv = args.work_dir / "wheels", args.work_dir / "venv"
    shutil.rmtree(args.work_dir, ignore_errors=True)
    run([str(ROOT / "scripts" / "wheels"), str(wheels)])
    run([sys.executable, "-m", "venv", str(venv)])
    run(
        [
            str(venv / "bin" / "pip"),
            "install",
            "--quiet",
            "--no-index",
            "--no-deps",
            "--find-links",
            str(wheels),
            "concord-cli",
        ]
    )
    run(["cargo", "build", "--quiet", "--release", "-p", "concord-cli"], cwd=ROOT)
    binaries = {"pip-installed": venv / "bin" / "concord", "cargo-built": ROOT / "target" / "release" / "concord"}
    times: dict[str, list[float]] = {name: [] for name in binaries}
    for _ in range(args.runs):
        for name, binary in binaries.items():
            times[name].append(timed(binary))
    for name, runs in times.items():
        spread = f"min {min(runs) * 1000:.0f}, max {max(runs) * 1000:.0f}, {len(runs)} runs"
        print(f"{name:14} concord generate (registry/): median {statistics.median(runs) * 1000:.0f} ms ({spread})")
    ratio = statistics.median(times["pip-installed"]) / statistics.median(times["cargo-built"])
    print(f"ratio: concord generate, pip-installed / cargo-built = {ratio:.2f}x")


if __name__ == "__main__":
    main()
