"""Canonical JSON under the profile ``jcs-rfc8785-integer-v1``: RFC 8785 (JCS)
restricted to null, booleans, strings, arrays, objects and integers in
±(2^53-1). Identical to ``concord_runtime::canonical`` in Rust: the functions
that take bytes run it (the compiled core); :func:`to_bytes` and :func:`digest`,
which take Python values, are written here and are the oracle tests compare
the core with."""

from __future__ import annotations

import hashlib
from json.encoder import encode_basestring
from typing import Any

from concord_runtime import _core, strict
from concord_runtime._json import format_float, pointer_token

PROFILE = "jcs-rfc8785-integer-v1"


class CanonicalError(ValueError):
    """A value the profile does not admit, at a JSON ``pointer``."""

    kind = "not-canonical"

    def __init__(self, pointer: str, message: str) -> None:
        super().__init__(f'not-canonical at "{pointer}": {message}')
        self.pointer = pointer
        self.message = message


def canonicalize(data: bytes, *, max_bytes: int = strict.DEFAULT_MAX_BYTES) -> bytes:
    """Reads ``data`` strictly and writes its canonical form."""
    if max_bytes < 0:
        raise ValueError("max_bytes must not be negative")
    return _core.canonicalize(data, max_bytes)


def digest_json(data: bytes, *, max_bytes: int = strict.DEFAULT_MAX_BYTES) -> str:
    """``sha256:<hex>`` over the canonical form of ``data``."""
    if max_bytes < 0:
        raise ValueError("max_bytes must not be negative")
    return _core.digest_json(data, max_bytes)


def digest(value: Any) -> str:
    """``sha256:<hex>`` over the canonical form of a value."""
    return _digest(to_bytes(value))


def _digest(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def to_bytes(value: Any) -> bytes:
    """The canonical bytes of a value built from dict, list, str, int, bool and None."""
    parts: list[str] = []
    _write(value, parts, "")
    try:
        return "".join(parts).encode("utf-8")
    except UnicodeEncodeError as error:
        raise CanonicalError("", f"a string holds the lone surrogate U+{ord(error.object[error.start]):04X}") from None


def _utf16(key: str) -> bytes:
    return key.encode("utf-16-be", "surrogatepass")


def _write(value: Any, out: list[str], pointer: str) -> None:
    if value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, str):
        out.append(encode_basestring(value))
    elif isinstance(value, int):
        if abs(value) > strict.MAX_SAFE_INTEGER:
            raise CanonicalError(pointer, f"integer {strict.prefix(str(value))} is outside ±(2^53-1)")
        out.append(int.__repr__(value))
    elif isinstance(value, float):
        text = format_float(value) if value == value and abs(value) != float("inf") else repr(value)
        raise CanonicalError(pointer, f"{PROFILE} admits integers only, not the float {strict.prefix(text)}")
    elif isinstance(value, dict):
        out.append("{")
        # RFC 8785: keys in the order of their UTF-16 code units.
        for index, key in enumerate(sorted(value, key=_utf16)):
            if index:
                out.append(",")
            out.append(encode_basestring(key))
            out.append(":")
            _write(value[key], out, pointer + "/" + pointer_token(key))
        out.append("}")
    elif isinstance(value, (list, tuple)):
        out.append("[")
        for index, item in enumerate(value):
            if index:
                out.append(",")
            _write(item, out, f"{pointer}/{index}")
        out.append("]")
    else:
        raise CanonicalError(pointer, f"{type(value).__name__} is not JSON")
