"""Batch reads in Python: the same outcome as tests/batch.rs gives in Rust (the file
fixtures/batch/evidence.outcome), and a line past the limit skipped without being held."""

import io
from pathlib import Path

from concord_registry import Evidence
from concord_runtime import JsonError, batch

BATCH = Path(__file__).resolve().parents[2] / "fixtures" / "batch"


def describe(positions: range, failures: dict[int, batch.Failed | batch.FailedItem], records: list[Evidence]) -> str:
    """A line per input line or item, as tests/batch.rs writes it: ``N ok <id>`` or
    ``N <kind> <pointer>``."""
    remaining = iter(records)
    out = []
    for at in positions:
        failed = failures.get(at)
        if failed is None:
            out.append(f"{at} ok {next(remaining).id}\n")
        else:
            pointer = getattr(failed.error, "pointer", None)
            shown = "-" if pointer is None else pointer or "(root)"
            out.append(f"{at} {failed.kind} {shown}\n")
    return "".join(out)


def test_one_bad_line_never_aborts_the_read_and_each_is_named() -> None:
    expected = (BATCH / "evidence.outcome").read_text()
    with open(BATCH / "evidence.jsonl", "rb") as stream:
        outcome = Evidence.read_jsonl(stream, max_bytes=1024)
    failures: dict[int, batch.Failed | batch.FailedItem] = {failed.line: failed for failed in outcome.failed}
    assert describe(range(1, len(expected.splitlines()) + 1), failures, outcome.records) == expected


class Endless(io.RawIOBase):
    """64 MiB of digits as one line, a small piece at a time, then a good record."""

    def __init__(self) -> None:
        self.left = 64 << 20
        self.tail = b'\n{"id":"e2","session_id":"s","kind":"exit_code","payload":1}\n'
        self.largest = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: "memoryview | bytearray") -> int:  # type: ignore[override]
        self.largest = max(self.largest, len(buffer))
        if self.left:
            n = min(len(buffer), self.left)
            buffer[:n] = b"1" * n
            self.left -= n
            return n
        n = min(len(buffer), len(self.tail))
        buffer[:n] = self.tail[:n]
        self.tail = self.tail[n:]
        return n


def test_a_line_past_the_limit_is_skipped_unheld_and_the_next_reads() -> None:
    raw = Endless()
    lines = batch.iter_jsonl(Evidence, io.BufferedReader(raw, 4096), max_bytes=1 << 20)
    first = next(lines)
    assert isinstance(first, batch.Failed) and (first.line, first.kind) == (1, "too-large")
    assert str(first.error) == "too-large at byte 1048576: the line exceeds the limit of 1048576 bytes"
    second = next(lines)
    assert isinstance(second, Evidence) and second.id == "e2"
    assert next(lines, None) is None
    assert raw.largest <= (1 << 20) + 1, "no read larger than the limit"


def test_one_bad_item_of_an_array_fails_alone() -> None:
    expected = (BATCH / "evidence-array.outcome").read_text()
    outcome = Evidence.read_json_array((BATCH / "evidence-array.json").read_bytes())
    failures: dict[int, batch.Failed | batch.FailedItem] = {failed.index: failed for failed in outcome.failed}
    assert describe(range(len(expected.splitlines())), failures, outcome.records) == expected
    # What is no array of items fails as a whole, in the words of array-refusals.tsv (tests/batch.rs too).
    refusals = [line.split("\t", 1) for line in (BATCH / "array-refusals.tsv").read_text().splitlines()]
    assert len(refusals) >= 7
    for data, message in refusals:
        try:
            Evidence.read_json_array(data.encode())
        except JsonError as error:
            assert str(error) == message, data
        else:
            raise AssertionError(f"{data!r} read")
    assert Evidence.read_json_array(b" [ ] ").records == []
