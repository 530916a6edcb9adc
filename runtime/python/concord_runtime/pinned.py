"""A record type's schema as pinned, and validation against it.

Every generated record class with a place of its own in its schema file has
``SCHEMA``, a :class:`PinnedSchema`: the exact text of that file and of the
files its ``$ref``\\ s reach, each with the digest ``registry.json`` pins, and
the JSON pointer of the type's subschema (docs/decisions/pinned-validation.md:
what a check enforces is in the pinned bytes). ``SCHEMA.validate(value)``
checks a JSON value against it with the Rust runtime's engine, through the
compiled core: the same verdict and the same notes, word for word, as
``validate`` in Rust.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from concord_runtime import _core, strict

__all__ = ["MAX_NOTES", "Note", "PinnedDocument", "PinnedSchema", "Refusal"]

MAX_NOTES = 3
"""At most this many notes are given for one refused value."""


class PinnedDocument(NamedTuple):
    """One schema file of the registry, as pinned."""

    uri: str
    """The base URI ``$ref``\\ s resolve against: the entry's ``uri``, else its ``$id``, else its
    registry path below ``https://registry.concord.invalid/``."""
    digest: str
    """``sha256:<hex>`` of the text's UTF-8 bytes: the digest ``registry.json`` pins."""
    text: str
    """The file's text, character for character."""
    dialect: str | None = None
    """The meta-schema URI of the dialect the engine reads the text in where its ``$schema`` does
    not say it: the one its registry declares for a text without ``$schema``, or the later one its
    registry entry reads it as (``read_as``) (docs/dialects.md)."""


class Note(NamedTuple):
    """One problem: where in the value, the keyword that refused it and where that stands in the
    schema, and what is wrong in the schema's words only, never the refused value."""

    pointer: str
    """JSON pointer into the value (``""``: the value itself)."""
    keyword: str
    schema_path: str
    message: str
    line: str
    """The note as one line: ``/session/gpu_arch: does not match pattern "^sm_[0-9]+$"``."""

    def __str__(self) -> str:
        return self.line


class Refusal(ValueError):
    """A value fails its pinned schema: at most three notes, and whether there were more."""

    def __init__(self, notes: Sequence[Note], more: bool) -> None:
        self.notes = list(notes)
        self.more = more
        super().__init__("\n".join([note.line for note in self.notes] + (["..."] if more else [])))


class PinnedSchema:
    """Where a record type's schema is: a subschema of the first of ``documents``, at JSON
    ``pointer``. The validator is built on first use, then reused."""

    def __init__(self, documents: Sequence[PinnedDocument], pointer: str) -> None:
        self.documents = tuple(documents)
        self.pointer = pointer
        self._validator: _core.Validator | None = None

    @property
    def document(self) -> PinnedDocument:
        """The type's own schema file."""
        return self.documents[0]

    @property
    def text(self) -> str:
        """The pinned text of the type's own schema file."""
        return self.documents[0].text

    @property
    def digest(self) -> str:
        """The pinned digest of the type's own schema file (``sha256:<hex>``)."""
        return self.documents[0].digest

    def validate(self, value: Any) -> None:
        """Checks a JSON value (dict, list, str, int, float, bool, None) against the schema;
        raises :class:`Refusal` with at most three notes."""
        notes, more = self._engine().notes(value, MAX_NOTES)
        if notes:
            raise Refusal([Note(*note) for note in notes], more)

    def validate_json(self, data: bytes | str, *, max_bytes: int = strict.DEFAULT_MAX_BYTES) -> None:
        """Reads ``data`` under the strict profile, as ``from_json`` does (raises
        :class:`concord_runtime.JsonError`), then checks the value as :meth:`validate`."""
        if isinstance(data, str):
            data = data.encode("utf-8", "surrogatepass")
        if max_bytes < 0:
            raise ValueError("max_bytes must not be negative")
        notes, more = self._engine().notes_json(data, max_bytes, MAX_NOTES)
        if notes:
            raise Refusal([Note(*note) for note in notes], more)

    def is_valid(self, value: Any) -> bool:
        """Whether ``value`` satisfies the schema."""
        return not self._engine().notes(value, 1)[0]

    def first_note_json(self, data: bytes) -> Note | None:
        """The first note on a document the strict reader already accepted (what ``from_json``
        reports), or ``None``."""
        notes, _ = self._engine().notes_json(data, len(data), 1)
        return Note(*notes[0]) if notes else None

    def _engine(self) -> _core.Validator:
        if self._validator is None:
            self._validator = _core.Validator(
                [(document.uri, document.text, document.dialect) for document in self.documents],
                self.pointer,
            )
        return self._validator

    def __repr__(self) -> str:
        return f"PinnedSchema({self.document.uri!r}, {self.pointer!r})"
