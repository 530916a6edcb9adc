"""Validation throughput of the generated classes (``ClsArtifact``, ``Evidence``) against
their pinned schemas, next to ``from_json`` on the same lines: ``T.SCHEMA.validate_json(line)``
and ``T.SCHEMA.validate(obj)`` (``obj`` from ``json.loads`` before timing), with
``json.loads(line)`` for reference. The lines are the JSON Lines set of the Rust benches
(``benches/common``), the same bytes in both languages: ``--set FILE``, made with ``cargo
bench`` when it does not exist. Records/s and MiB/s of the median round, and each pass's
ratio to ``from_json`` (throughput, higher is better): the median of the rounds' own ratios.

    .venv/bin/python benchmarks/python_validation.py [--set FILE] [--mib N] [--runs N]
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "runtime" / "python"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "generated" / "python"))

from concord_registry import ClsArtifact, Evidence
from concord_runtime import Model

ROOT = Path(__file__).resolve().parent.parent
MIB = 1024 * 1024


def make_set(path: Path, mib: float) -> None:
    """Writes the Rust benches' record set to ``path`` (their data, not timed)."""
    print(f"writing the record set ({mib} MiB) to {path} with cargo bench", flush=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    environment = dict(
        os.environ, CONCORD_BENCH_DUMP=str(path), CONCORD_BENCH_PROFILE="setup", CONCORD_BENCH_MIB=str(mib)
    )
    command = ["cargo", "bench", "--quiet", "-p", "concord", "--bench", "validation"]
    subprocess.run(command, cwd=ROOT, env=environment, check=True, stdout=subprocess.DEVNULL)


def timed_rounds(actions: list[Callable[[], object]], runs: int) -> list[list[float]]:
    """Seconds of each action per round; each round runs every action once, starting one
    further on than the round before. As timeit does, the garbage collector is off while an
    action runs (and collects before it)."""
    times: list[list[float]] = [[] for _ in actions]
    for action in actions:
        action()
    for round_ in range(runs):
        for turn in range(len(actions)):
            index = (round_ + turn) % len(actions)
            gc.collect()
            gc.disable()
            start = time.perf_counter()
            actions[index]()
            times[index].append(time.perf_counter() - start)
            gc.enable()
    return times


def passes(model: type[Model], lines: list[bytes], values: list[Any]) -> dict[str, Callable[[], object]]:
    """Every line through each; ``from_json`` first, the baseline of the ratios."""
    schema = model.SCHEMA

    def from_json() -> None:
        for line in lines:
            model.from_json(line)

    def validate_json() -> None:
        for line in lines:
            schema.validate_json(line)

    def validate() -> None:
        for value in values:
            schema.validate(value)

    def loads() -> None:
        for line in lines:
            json.loads(line)

    return {"from_json": from_json, "validate_json": validate_json, "validate (parsed)": validate, "json.loads": loads}


def main() -> None:
    options = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    options.add_argument("--set", type=Path, default=ROOT / "target" / "bench" / "records.jsonl")
    options.add_argument("--mib", type=float, default=24, help="the set's size when it is made (default 24)")
    options.add_argument("--runs", type=int, default=7)
    arguments = options.parse_args()
    if not arguments.set.exists():
        make_set(arguments.set, arguments.mib)
    lines = arguments.set.read_bytes().splitlines()
    values = [json.loads(line) for line in lines]
    roots: dict[str, tuple[type[Model], list[bytes], list[Any]]] = {
        "ClsArtifact": (ClsArtifact, [], []),
        "Evidence": (Evidence, [], []),
    }
    for line, value in zip(lines, values, strict=True):
        _, root_lines, root_values = roots["ClsArtifact" if "kernels" in value else "Evidence"]
        root_lines.append(line)
        root_values.append(value)
    results: dict[str, tuple[int, int, dict[str, list[float]]]] = {}
    for name, (model, root_lines, root_values) in roots.items():
        for line, value in zip(root_lines, root_values, strict=True):
            model.from_json(line)
            model.SCHEMA.validate_json(line)
            model.SCHEMA.validate(value)
        size = sum(map(len, root_lines))
        print(f"{name}: {len(root_lines)} lines, {size / MIB:.1f} MiB", flush=True)
        actions = passes(model, root_lines, root_values)
        rounds = timed_rounds(list(actions.values()), arguments.runs)
        results[name] = (len(root_lines), size, dict(zip(actions, rounds, strict=True)))
    # Both roots together: each round's times added.
    per_root = list(results.values())
    results["all"] = (
        sum(records for records, _, _ in per_root),
        sum(size for _, size, _ in per_root),
        {
            label: [sum(by_pass[label][round_] for _, _, by_pass in per_root) for round_ in range(arguments.runs)]
            for label in per_root[0][2]
        },
    )
    print(f"\nsummary: median of {arguments.runs} rounds; ratio = throughput / from_json's in the same round")
    for name, (records, size, by_pass) in results.items():
        for label, seconds in by_pass.items():
            ratio = statistics.median(b / s for b, s in zip(by_pass["from_json"], seconds, strict=True))
            median = statistics.median(seconds)
            print(
                f"validation (Python) {name:<11} {label:<17} {records / median:9.0f} records/s"
                f" {size / MIB / median:7.1f} MiB/s  ratio {ratio:.2f}x of from_json"
            )


if __name__ == "__main__":
    main()
