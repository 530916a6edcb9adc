"""``from_json`` against pydantic's own ``model_validate_json`` on the real-world corpus
schemas that have instances: the combined registry the corpus test builds
(``target/concord-corpus``: run ``scripts/test`` first), generated afresh here by
``concord generate``. Per schema, the time to read all of its instances, each read
paired with pydantic's read of the same bytes (alternating, garbage collector off),
and the median of the per-round ratios; ``one pass`` says whether the type is read by
the one-pass reader or left to pydantic's path (``concord_runtime._plan``), ``engine``
whether ``from_json`` also runs the assertion engine over the record (``ASSERTED``: its
schema holds rules no type expresses), which ``model_validate_json`` does not.

    .venv/bin/python benchmarks/python_corpus.py [--corpus target/concord-corpus] [--runs N]
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from python_speed import timed_pairs  # this folder: pairs run alternately, the collector off

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    options = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    options.add_argument("--corpus", type=Path, default=ROOT / "target" / "concord-corpus")
    options.add_argument("--runs", type=int, default=15)
    arguments = options.parse_args()
    registry, fixtures = arguments.corpus / "registry", arguments.corpus / "fixtures"
    if not registry.is_dir() or not fixtures.is_dir():
        sys.exit(f"{arguments.corpus} has no registry/ and fixtures/: run scripts/test (the corpus test) first")
    with tempfile.TemporaryDirectory() as out:
        command = ["cargo", "run", "--quiet", "--release", "-p", "concord-cli", "--"]
        generate = [*command, "generate", "--registry", str(registry), "--out", out, "--python-package", "corpus_bench"]
        subprocess.run(generate, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        sys.path.insert(0, str(Path(out) / "python"))
        package = importlib.import_module("corpus_bench")
        from concord_runtime import _model  # the reader cache: whether a type reads in one pass

        header = f"{'schema':34} {'instances':>9} {'KiB':>7} {'one pass':>8} {'engine':>6} {'ratio':>6}"
        print(header, " (from_json / model_validate_json)")
        ratios: list[float] = []
        unchecked: list[float] = []
        for folder in sorted(fixtures.iterdir()):
            record_type: Any = getattr(package, folder.name, None)
            instances = [path.read_bytes() for path in sorted(folder.glob("*.json"))]
            if record_type is None or not instances:
                continue
            record_type.from_json(instances[0])
            one_pass = _model._RECORD_TYPES.get(record_type) is not None

            def ours(record_type: Any = record_type, instances: list[bytes] = instances) -> None:
                for data in instances:
                    record_type.from_json(data)

            def theirs(record_type: Any = record_type, instances: list[bytes] = instances) -> None:
                for data in instances:
                    record_type.model_validate_json(data, by_alias=True, by_name=False)

            theirs_times, ours_times = timed_pairs(theirs, ours, arguments.runs)
            rounds = [t / o for t, o in zip(theirs_times, ours_times, strict=True)]
            ratio = statistics.median(rounds)
            ratios.append(ratio)
            size = sum(len(data) for data in instances) / 1024
            engine = "yes" if record_type.ASSERTED else "no"
            if not record_type.ASSERTED:
                unchecked.append(ratio)
            row = f"{folder.name:34} {len(instances):9} {size:7.1f} {'yes' if one_pass else 'no':>8} {engine:>6}"
            print(f"{row} {ratio:5.2f}x")
        print(f"median over {len(ratios)} schemas: {statistics.median(ratios):.2f}x, lowest {min(ratios):.2f}x")
        if unchecked:
            print(f"median over the {len(unchecked)} without the engine: {statistics.median(unchecked):.2f}x")


if __name__ == "__main__":
    main()
