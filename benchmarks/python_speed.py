"""Throughput of generated models' ``from_json``, ``to_json`` and ``digest``
against pydantic's own ``model_validate_json`` and ``model_dump_json`` on the
same bytes: large generated ``ClsArtifact``, ``Evidence`` and ``EvidenceV1`` documents of the
shipped registry, with unknown keys at growth points. Medians of repeated
runs; compare the ratios, which hold on a noisy machine better than MiB/s.

    .venv/bin/python benchmarks/python_speed.py [--runs N] [--kernels N] [--evidence N]
    .venv/bin/python benchmarks/python_speed.py --write DIR   # only the documents, for the TypeScript benchmark
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "runtime" / "python"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "generated" / "python"))

from concord_registry import ClsArtifact, Evidence, EvidenceV1
from concord_runtime import Model, canonical, dumps

WORDS = ["triton_poi_fused", "Grüße", "naïve café", "日本語", "line\nbreak", 'tab\tquote"', "🙂 ok", "sm_90"]


class Numbers:
    """Deterministic xorshift numbers, so every run measures the same records."""

    def __init__(self) -> None:
        self.state = 0x9E3779B97F4A7C15

    def __call__(self) -> int:
        mask = (1 << 64) - 1
        self.state ^= (self.state << 13) & mask
        self.state ^= self.state >> 7
        self.state ^= (self.state << 17) & mask
        return self.state


def artifact(kernels: int) -> bytes:
    """One ClsArtifact with ``kernels`` kernels and unknown keys at its growth points."""
    n = Numbers()

    def node(depth: int) -> dict[str, Any]:
        value = n()
        tree: dict[str, Any] = {
            "name": f"model.layer{value % 97}",
            "class": "torch.nn.Linear",
            "self_ms": value % 1000 / 8,
        }
        if depth:
            tree["children"] = [node(depth - 1) for _ in range(3)]
        return tree

    document = {
        "format_version": 1,
        "session": {
            "gpu_arch": "sm_90",
            "driver_version": "550.54.15",
            "cuda_version": "12.4",
            "cudnn_version": 90100,
            "world_size": 8,
            "future_probe": {"nvlink": [1, 2, 3], "note": WORDS[3]},
        },
        "compile_config": {"backend": "inductor", "mode": "max-autotune", "fullgraph": False, "dynamic": None},
        "kernels": [
            {
                "name": f"{WORDS[value % len(WORDS)]}_{value % 100_000}",
                "type": ["triton", "cuda", "cpp", "extern"][value % 4],
                "duration_ms": (value % 10_000_000) / 997,
                "launch": {"grid": [value % 4096, 1, 1], "block": [128, 1, 1], "shared_mem_bytes": value % 65536},
                "occupancy": (value % 1000) / 1000 if value % 3 else None,
                "counters": {"launches": value % 50, "autotune_configs": value % 7},
            }
            for value in (n() for _ in range(kernels))
        ],
        "extra": {"collector": "compile_lens", "argv": ["train.py", "--steps", "10"]},
        "call_tree": node(5),
        "collector_notes": [{"k": WORDS[i % len(WORDS)], "v": i} for i in range(200)],
    }
    return json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode()


def evidence(rows: int) -> bytes:
    """One Evidence record whose payload and extension envelope are large."""
    n = Numbers()
    payload = [
        {"command": ["cargo", "test", WORDS[value % len(WORDS)]], "exit_code": value % 256, "seq": value % 1_000_000}
        for value in (n() for _ in range(rows))
    ]
    document = {
        "id": "ev_1",
        "session_id": "ses_1",
        "kind": "exit_code",
        "payload": payload,
        "source": "shell",
        "canonical": {"kind": "exit_code", "command": ["cargo", "test"], "exit_code": 0, "heuristic": False},
        "extension": {
            "schema_version": 1,
            "provider": "codex",
            "adapter_version": "0.9",
            "content_class": "ToolTelemetry",
            "fields": {f"f{i}": WORDS[i % len(WORDS)] for i in range(rows // 10)},
            "growth_key": {"nested": payload[: rows // 10]},
        },
    }
    return json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode()


def evidence_v1(rows: int) -> bytes:
    """One record of the registry's frozen first version: the same payload and envelope,
    the canonical view keyed by kind."""
    document = json.loads(evidence(rows))
    document["canonical"] = {"exit_code": {"command": ["cargo", "test"], "exit_code": 0, "heuristic": False}}
    return json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode()


def timed_pairs(
    first: Callable[[], object], second: Callable[[], object], runs: int
) -> tuple[list[float], list[float]]:
    """Times of two actions, run alternately so that load on the machine hits both alike.
    As timeit does, the garbage collector is off while an action runs (and collects before
    it): otherwise a full collection, which either action may set off, lands on one side."""
    first(), second()
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(runs):
        for action, samples in zip((first, second), times, strict=True):
            gc.collect()
            gc.disable()
            start = time.perf_counter()
            action()
            samples.append(time.perf_counter() - start)
            gc.enable()
    return times


def measure(name: str, model: type[Model], data: bytes, runs: int) -> None:
    record = model.from_json(data)
    assert record.to_json() == dumps(record.model_dump(by_alias=True, exclude_unset=True)).encode()
    plain = model.model_validate_json(data)
    megabytes = len(data) / (1024 * 1024)
    print(f"{name}: {megabytes:.1f} MiB, median of {runs} runs")

    def dump() -> bytes:
        return plain.model_dump_json(by_alias=True, exclude_unset=True).encode()

    pairs: list[tuple[str, Callable[[], object], Callable[[], object]]] = [
        ("from_json vs model_validate_json", lambda: model.model_validate_json(data), lambda: model.from_json(data)),
        ("to_json vs model_dump_json", dump, record.to_json),
    ]
    try:
        record.digest()
    except canonical.CanonicalError:
        pass  # a record holding floats has no digest
    else:
        pairs.append(("digest vs model_dump_json", dump, record.digest))
    for label, baseline, ours in pairs:
        theirs, ours_times = timed_pairs(baseline, ours, runs)
        # The ratio is the median of each pair's ratio: a pair runs back to back, so it
        # shares the machine's load of the moment better than two separate medians do.
        ratio = statistics.median(t / o for t, o in zip(theirs, ours_times, strict=True))
        print(
            f"  {name:11} {label:34} pydantic {megabytes / statistics.median(theirs):7.1f} MiB/s"
            f"  concord {megabytes / statistics.median(ours_times):7.1f} MiB/s  ratio {ratio:5.2f}x"
        )


def main() -> None:
    options = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    options.add_argument("--runs", type=int, default=9)
    options.add_argument("--kernels", type=int, default=20_000)
    options.add_argument("--evidence", type=int, default=40_000)
    options.add_argument("--write", type=Path, help="write the documents into this folder, and measure nothing")
    arguments = options.parse_args()
    if arguments.write is not None:
        arguments.write.mkdir(parents=True, exist_ok=True)
        (arguments.write / "ClsArtifact.json").write_bytes(artifact(arguments.kernels))
        (arguments.write / "Evidence.json").write_bytes(evidence(arguments.evidence))
        return
    measure("ClsArtifact", ClsArtifact, artifact(arguments.kernels), arguments.runs)
    measure("Evidence", Evidence, evidence(arguments.evidence), arguments.runs)
    measure("EvidenceV1", EvidenceV1, evidence_v1(arguments.evidence), arguments.runs)


if __name__ == "__main__":
    main()
