"""Compact JSON writing that matches serde_json byte for byte.

The standard library's ``json.dumps`` differs from serde_json in one place:
floats. Both write the shortest digits that read back exactly, but lay them
out differently (Python ``1e-07`` and ``1e-05``, serde_json ``1e-7`` and
``0.00001``). Strings are escaped alike (``ensure_ascii=False``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from json.encoder import encode_basestring
from typing import Any


def dumps(value: Any) -> str:
    """Writes ``value`` (built from dict, list, str, int, float, bool and None) as compact JSON."""
    parts: list[str] = []
    _write(value, parts.append)
    return "".join(parts)


def pointer_token(token: object) -> str:
    """One reference token of a JSON pointer (RFC 6901): ``~`` and ``/`` escaped."""
    return str(token).replace("~", "~0").replace("/", "~1")


def format_float(value: float) -> str:
    """The text serde_json writes for a finite float."""
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


def _write(value: Any, out: Callable[[str], object]) -> None:
    if value is None:
        out("null")
    elif value is True:
        out("true")
    elif value is False:
        out("false")
    elif isinstance(value, str):
        out(encode_basestring(value))
    elif isinstance(value, int):
        out(int.__repr__(value))
    elif isinstance(value, float):
        out(format_float(value))
    elif isinstance(value, dict):
        out("{")
        first = True
        for key, item in value.items():
            if not first:
                out(",")
            first = False
            out(encode_basestring(key))
            out(":")
            _write(item, out)
        out("}")
    elif isinstance(value, (list, tuple)):
        out("[")
        for position, item in enumerate(value):
            if position:
                out(",")
            _write(item, out)
        out("]")
    else:
        raise TypeError(f"cannot write {type(value).__name__} as JSON")
