"""Compact JSON writing in pure Python: the oracle that tests hold the compiled
core's writer (``Model.to_json``) to, byte for byte and refusal for refusal.

The standard library's ``json.dumps`` differs from concord's bytes in one
place: floats. Both write the shortest digits that read back exactly, but lay
them out differently (Python ``1e-07`` and ``1e-05``, concord ``1e-7`` and
``0.00001``). Strings are escaped alike (``ensure_ascii=False``). What the
strict profile refuses on reading is refused on writing, at its JSON pointer:
``NaN``/``Infinity``, negative zero, integers outside ±(2^53-1).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from json.encoder import encode_basestring
from typing import Any

MAX_SAFE_INTEGER = 2**53 - 1
MAX_DEPTH = 64


class RecordError(ValueError):
    """A record was refused (on reading or writing): ``pointer`` is the JSON pointer of the refused value."""

    kind = "schema"
    """The refusal's kind, in the words of Rust's ``Error::kind``."""

    def __init__(self, pointer: str, message: str) -> None:
        super().__init__(f'at "{pointer}": {message}')
        self.pointer = pointer
        self.message = message


class VersionError(RecordError):
    """A versioned envelope (``x-version-field``) of a version its schema does not list, at the
    version's pointer: refused before anything else (docs/decisions/versioned-envelopes.md)."""

    kind = "unsupported-version"


def dumps(value: Any) -> str:
    """Writes ``value`` (built from dict, list, str, int, float, bool and None) as compact JSON;
    raises :class:`RecordError` for a value the strict profile would refuse."""
    parts: list[str] = []
    _write(value, parts.append, ())
    return "".join(parts)


def pointer_token(token: object) -> str:
    """One reference token of a JSON pointer (RFC 6901): ``~`` and ``/`` escaped."""
    return str(token).replace("~", "~0").replace("/", "~1")


def format_float(value: float) -> str:
    """concord's text for a finite float (docs/output-bytes.md); the oracle of the compiled core's."""
    if not math.isfinite(value):
        raise ValueError(f"{value!r} is not a JSON number")
    text = repr(value)
    mantissa, marker, exponent_text = text.partition("e")
    if not marker:
        return text
    exponent = int(exponent_text)
    if exponent == -5:
        # serde_json writes numbers in [1e-5, 1e-4) in positional form.
        sign = "-" if mantissa.startswith("-") else ""
        digits = mantissa.lstrip("-").replace(".", "")
        return f"{sign}0.0000{digits}"
    return f"{mantissa}e{'-' if exponent < 0 else '+'}{abs(exponent)}"


def _refuse(path: tuple[object, ...], message: str) -> RecordError:
    return RecordError("".join("/" + pointer_token(token) for token in path), message)


def _string(text: str, path: tuple[object, ...]) -> str:
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as error:
            surrogate = ord(text[error.start])
            raise _refuse(path, f"a string holds the lone surrogate U+{surrogate:04X}") from None
    return encode_basestring(text)


def _write(value: Any, out: Callable[[str], object], path: tuple[object, ...]) -> None:
    if value is None:
        out("null")
    elif value is True:
        out("true")
    elif value is False:
        out("false")
    elif isinstance(value, str):
        out(_string(value, path))
    elif isinstance(value, int):
        if abs(value) > MAX_SAFE_INTEGER:
            text = int.__repr__(value)
            shown = text if len(text) <= 20 else text[:20] + "…"
            raise _refuse(path, f"integer {shown} is outside ±(2^53-1), which the strict profile refuses")
        out(int.__repr__(value))
    elif isinstance(value, float):
        if not math.isfinite(value):
            # Worded as the Rust writer words it (f64's Display: NaN, inf, -inf).
            raise _refuse(path, f"{'NaN' if math.isnan(value) else repr(value)} is not a JSON number")
        if value == 0.0 and math.copysign(1.0, value) < 0:
            raise _refuse(path, "negative zero is refused")
        out(format_float(value))
    elif isinstance(value, (dict, list, tuple)) and len(path) == MAX_DEPTH:
        raise _refuse(path, f"nesting deeper than {MAX_DEPTH} levels")
    elif isinstance(value, dict):
        out("{")
        first = True
        for key, item in value.items():
            if not first:
                out(",")
            first = False
            out(_string(key, path))
            out(":")
            _write(item, out, (*path, key))
        out("}")
    elif isinstance(value, (list, tuple)):
        out("[")
        for position, item in enumerate(value):
            if position:
                out(",")
            _write(item, out, (*path, position))
        out("]")
    else:
        raise _refuse(path, f"cannot write {type(value).__name__} as JSON")
