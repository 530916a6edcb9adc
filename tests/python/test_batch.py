"""Batch reads in Python: the same outcome as tests/batch.rs gives in Rust (the file
tests/batch/evidence.outcome), and a line past the limit skipped without being held."""

import io
from pathlib import Path

from concord_registry import Evidence
from concord_runtime import JsonError, batch

BATCH = Path(__file__).resolve().parents[1] / "batch"


def describe(outcome: batch.ReadOutcome[Evidence], lines: int) -> str:
    records = iter(outcome.records)
    out = []
    for line in range(1, lines + 1):
        failed = next((failed for failed in outcome.failed if failed.line == line), None)
        if failed is None:
            out.append(f"{line} ok {next(records).id}\n")
        else:
            pointer = getattr(failed.error, "pointer", None)
            shown = "-" if pointer is None else pointer or "(root)"
            out.append(f"{line} {failed.kind} {shown}\n")
    return "".join(out)


def test_one_bad_line_never_aborts_the_read_and_each_is_named() -> None:
    expected = (BATCH / "evidence.outcome").read_text()
    with open(BATCH / "evidence.jsonl", "rb") as stream:
        outcome = Evidence.read_jsonl(stream, max_bytes=1024)
    assert describe(outcome, len(expected.splitlines())) == expected


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
    records = iter(outcome.records)
    out = []
    for index in range(len(expected.splitlines())):
        failed = next((failed for failed in outcome.failed if failed.index == index), None)
        if failed is None:
            out.append(f"{index} ok {next(records).id}\n")
        else:
            pointer = getattr(failed.error, "pointer", None)
            shown = "-" if pointer is None else pointer or "(root)"
            out.append(f"{index} {failed.kind} {shown}\n")
    assert "".join(out) == expected
    # The refusals of tests/batch.rs's ARRAY_REFUSALS, word for word.
    refusals = [
        ("{}", "syntax at byte 0: expected a JSON array of records"),
        ("", "syntax at byte 0: expected a JSON array of records"),
        ("[1, 2", "syntax at byte 5: the array of records is not closed"),
        ("[1,]", "syntax at byte 3: expected a record before this"),
        ("[,1]", "syntax at byte 1: expected a record before this"),
        ("[1] x", "syntax at byte 4: trailing characters after the array of records"),
        ('["]"', "syntax at byte 4: the array of records is not closed"),
    ]
    for data, message in refusals:
        try:
            Evidence.read_json_array(data.encode())
        except JsonError as error:
            assert str(error) == message, data
        else:
            raise AssertionError(f"{data!r} read")
    assert Evidence.read_json_array(b" [ ] ").records == []
