"""Canonicalization and strict-reading throughput of concord_runtime (Python)
on a ~10 MB record set, beside the ``rfc8785`` package and the standard
library on the same data. Medians of repeated runs, in MB/s; compare the
ratios, which hold on a noisy machine better than the absolute numbers.

    .venv/bin/python benchmarks/canonical.py [--runs N] [--megabytes M]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "runtime" / "python"))

import rfc8785
from concord_runtime import canonical, strict

WORDS = ["exit_code", "tool_result", "stdout", "Grüße", "naïve café", "日本語", "line\nbreak", 'tab\tquote"', "🙂 ok"]


def record_set(target_bytes: int) -> bytes:
    """Deterministic records shaped like evidence rows (the Rust bench's shape); no floats."""
    state = 0x9E3779B97F4A7C15
    mask = (1 << 64) - 1

    def next_number() -> int:
        nonlocal state
        state ^= (state << 13) & mask
        state ^= state >> 7
        state ^= (state << 17) & mask
        return state

    records: list[dict[str, Any]] = []
    size = 0
    while size < target_bytes:
        n = next_number()
        record = {
            "id": f"ev_{n:016x}",
            "session_id": f"ses_{n >> 32:08x}",
            "kind": WORDS[n % 2],
            "seq": n % 1_000_000 - 500_000,
            "payload": {
                "command": ["cargo", "test", WORDS[(n >> 8) % len(WORDS)]],
                "exit_code": (n >> 16) % 256,
                "heuristic": n % 3 == 0,
                "env": {"RUST_LOG": "debug", "zeta": WORDS[(n >> 24) % len(WORDS)], "alpha": None},
            },
            "tags": [WORDS[(n >> i) % len(WORDS)] for i in range(n % 6)],
        }
        size += len(json.dumps(record, ensure_ascii=False).encode()) + 1
        records.append(record)
    return json.dumps(records, ensure_ascii=False, separators=(",", ":")).encode()


def median_seconds(action: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--runs", type=int, default=7)
    options.add_argument("--megabytes", type=float, default=10)
    arguments = options.parse_args()

    data = record_set(int(arguments.megabytes * 1024 * 1024))
    value = json.loads(data)
    assert canonical.to_bytes(value) == rfc8785.dumps(value), "concord and rfc8785 must agree on this data"
    megabytes = len(data) / (1024 * 1024)
    print(f"record set: {megabytes:.1f} MiB, median of {arguments.runs} runs")

    groups = {
        "write": [
            ("json.dumps (compact, unsorted)", lambda: json.dumps(value, ensure_ascii=False, separators=(",", ":"))),
            ("rfc8785.dumps", lambda: rfc8785.dumps(value)),
            ("concord_runtime.canonical.to_bytes", lambda: canonical.to_bytes(value)),
        ],
        "read": [
            ("json.loads", lambda: json.loads(data)),
            ("concord_runtime.strict.read", lambda: strict.read(data)),
        ],
    }
    for group, actions in groups.items():
        baseline = None
        for name, action in actions:
            seconds = median_seconds(action, arguments.runs)
            baseline = baseline or seconds
            print(f"{group:5} {name:38} {megabytes / seconds:8.1f} MiB/s  {baseline / seconds:5.2f}x of the first")


if __name__ == "__main__":
    main()
