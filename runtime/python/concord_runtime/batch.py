"""Batch reads with per-record isolation (docs/decisions/batch-reads.md): a JSON Lines
stream gives the records that read and, for each line that did not, its number and why. One
bad line never aborts the batch; a line longer than the size limit is a failed record, skipped
without being held in memory. ``concord_runtime::batch`` in Rust reads the same lines to the
same outcome: the same failed lines, with the same error kinds."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, Generic, NamedTuple, Protocol, Self, TypeVar

from concord_runtime import _core, strict
from concord_runtime._json import RecordError

__all__ = ["ArrayOutcome", "Failed", "FailedItem", "ReadOutcome", "iter_jsonl", "read_json_array", "read_jsonl"]

T = TypeVar("T")

_CHUNK = 1 << 16


class _Reads(Protocol):
    @classmethod
    def from_json(cls, data: bytes | str, *, max_bytes: int = ...) -> Self: ...


R = TypeVar("R", bound=_Reads)


@dataclass(frozen=True)
class Failed:
    """A line that did not read: its number (from 1) and why."""

    line: int
    error: strict.JsonError | RecordError

    @property
    def kind(self) -> str:
        """The strict profile's kind (``duplicate-key``, ``too-large``...) or ``schema``: the
        words of Rust's ``Error::kind``."""
        return self.error.kind


class ReadOutcome(NamedTuple, Generic[T]):
    """What a batch read gave: the records that read, in order, and the lines that did not."""

    records: list[T]
    failed: list[Failed]


def iter_jsonl(
    record_type: type[R], stream: IO[bytes], *, max_bytes: int = strict.DEFAULT_MAX_BYTES
) -> Iterator[R | Failed]:
    """The records of a JSON Lines stream one at a time, each a record or the failed line. A
    line is what stands before a ``\\n``; the end of the stream ends the last line, and an empty
    rest after the last ``\\n`` is no line. A line of more than ``max_bytes`` bytes (without its
    ``\\n``) fails as ``too-large``."""
    if max_bytes < 0:
        raise ValueError("max_bytes must not be negative")
    line = 0
    while True:
        data = stream.readline(max_bytes + 1)
        if not data:
            return
        line += 1
        if data.endswith(b"\n"):
            data = data[:-1]
        elif len(data) > max_bytes:
            # Past the limit: the rest of the line is skipped, not kept.
            while True:
                rest = stream.readline(_CHUNK)
                if not rest or rest.endswith(b"\n"):
                    break
            message = f"the line exceeds the limit of {max_bytes} bytes"
            yield Failed(line, strict.JsonError("too-large", max_bytes, message))
            continue
        try:
            yield record_type.from_json(data)
        except (strict.JsonError, RecordError) as error:
            yield Failed(line, error)


def read_jsonl(record_type: type[R], stream: IO[bytes], *, max_bytes: int = strict.DEFAULT_MAX_BYTES) -> ReadOutcome[R]:
    """Reads every line of ``stream`` as a record (each as ``record_type.from_json``),
    collecting the records and the failed lines."""
    outcome: ReadOutcome[R] = ReadOutcome([], [])
    for item in iter_jsonl(record_type, stream, max_bytes=max_bytes):
        if isinstance(item, Failed):
            outcome.failed.append(item)
        else:
            outcome.records.append(item)
    return outcome


@dataclass(frozen=True)
class FailedItem:
    """An item of a JSON array that did not read: its index (from 0) and why (a strict-profile
    error's offset counts from the item's first byte)."""

    index: int
    error: strict.JsonError | RecordError

    @property
    def kind(self) -> str:
        """As :attr:`Failed.kind`."""
        return self.error.kind


class ArrayOutcome(NamedTuple, Generic[T]):
    """What reading a JSON array of records gave: the records that read, and the items that did not."""

    records: list[T]
    failed: list[FailedItem]


def read_json_array(record_type: type[R], data: bytes) -> ArrayOutcome[R]:
    """Reads a JSON array whose items are records, each item as ``record_type.from_json`` reads
    it: one bad item fails alone. Only an input that is no array, or whose array never closes,
    fails as a whole (raises :class:`concord_runtime.JsonError`), as in Rust."""
    outcome: ArrayOutcome[R] = ArrayOutcome([], [])
    for index, (start, end) in enumerate(_core.array_items(data)):
        try:
            outcome.records.append(record_type.from_json(data[start:end]))
        except (strict.JsonError, RecordError) as error:
            outcome.failed.append(FailedItem(index, error))
    return outcome
