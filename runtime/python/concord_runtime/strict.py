"""The strict reading profile, identical to ``concord_runtime::strict`` in Rust:
both accept the same bytes, refuse the same bytes, and report the first
problem with the same kind, byte offset and message.

In order: the size limit; no byte order mark; the whole input must be UTF-8;
then one pass of RFC 8259 grammar in which duplicate keys (after unescaping),
lone surrogates, ``NaN``/``Infinity``, numbers that overflow, negative zero,
integers outside ±(2^53-1) and nesting deeper than :data:`MAX_DEPTH` are
refused where they stand. Floats stay readable. Messages echo at most a short
prefix of any refused value.

:func:`read` checks with the compiled core (``concord_runtime._core``, the
Rust reader itself), then lets Python's ``json`` build the value: once the
profile has accepted the bytes, ``json`` reads them to the same values.

The rest of this module is the pure-Python oracle that tests hold the core to.
Python's ``json`` module alone cannot agree (it takes the last of two
duplicate keys, accepts ``NaN`` and lone surrogates, reads ``1e400`` as
infinity, guesses UTF-16). So the reference is :class:`_Parser`, which walks
the bytes as the Rust reader does. :func:`_read` with ``fast=True`` first
tries the C ``json`` scanner with hooks that refuse what the profile refuses,
plus the checks it cannot hook (lone surrogates, depth); when that path has
any doubt, the reference parser decides and names the first problem.
"""

from __future__ import annotations

import json
import math
import re
from json.encoder import encode_basestring
from typing import Any

from concord_runtime import _core

MAX_DEPTH = 64
"""The deepest nesting of arrays and objects accepted, in both languages."""
DEFAULT_MAX_BYTES = 64 * 1024 * 1024
"""The default size limit: 64 MiB."""
MAX_SAFE_INTEGER = 2**53 - 1
"""The largest integer both languages (and JavaScript) hold exactly."""
_SHOWN = 20

_WHITESPACE = re.compile(rb"[ \t\n\r]*")
_PLAIN = re.compile(rb'[^"\\\x00-\x1f]*')
_NUMBER = re.compile(rb"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?")
_HEX4 = re.compile(rb"[0-9a-fA-F]{4}")
_SIMPLE_ESCAPES = {
    ord('"'): '"',
    ord("\\"): "\\",
    ord("/"): "/",
    ord("b"): "\b",
    ord("f"): "\f",
    ord("n"): "\n",
    ord("r"): "\r",
    ord("t"): "\t",
}


class JsonError(ValueError):
    """The first problem in the input: ``kind``, byte ``offset`` and ``message``."""

    def __init__(self, kind: str, offset: int, message: str) -> None:
        super().__init__(f"{kind} at byte {offset}: {message}")
        self.kind = kind
        self.offset = offset
        self.message = message


def prefix(text: str) -> str:
    """At most 20 characters of ``text``, then ``…`` when there is more."""
    return text if len(text) <= _SHOWN else text[:_SHOWN] + "…"


def check(data: bytes, *, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
    """Checks one JSON document under the strict profile (raises :class:`JsonError`)."""
    if max_bytes < 0:
        raise ValueError("max_bytes must not be negative")
    _core.check(data, max_bytes)


def read(data: bytes, *, max_bytes: int = DEFAULT_MAX_BYTES) -> Any:
    """Reads one JSON document under the strict profile (raises :class:`JsonError`)."""
    check(data, max_bytes=max_bytes)
    return json.loads(data.decode("utf-8"))


def _read(data: bytes, max_bytes: int, *, fast: bool) -> Any:
    if max_bytes < 0:
        raise ValueError("max_bytes must not be negative")
    if len(data) > max_bytes:
        raise JsonError(
            "too-large", max_bytes, f"the input of {len(data)} bytes exceeds the limit of {max_bytes} bytes"
        )
    if data.startswith(b"\xef\xbb\xbf"):
        raise JsonError("byte-order-mark", 0, "a byte order mark is not allowed")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise JsonError("invalid-utf8", error.start, "the input is not valid UTF-8") from None
    if fast and _SURROGATE_ESCAPE.search(data) is None:
        try:
            value = _DECODER.decode(text)
        except (ValueError, RecursionError):
            pass
        else:
            if _depth_within_limit(value):
                return value
    return _Parser(data).document()


class _Doubt(ValueError):
    """The fast path met something only the reference parser may judge."""


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    value = dict(pairs)
    if len(value) != len(pairs):
        raise _Doubt("duplicate key")
    return value


def _integer(text: str) -> int:
    if len(text.lstrip("-")) > 16 or text == "-0":
        raise _Doubt("unsafe integer or negative zero")
    value = int(text)
    if abs(value) > MAX_SAFE_INTEGER:
        raise _Doubt("unsafe integer")
    return value


def _float(text: str) -> float:
    value = float(text)
    if math.isinf(value) or (value == 0.0 and text.startswith("-")):
        raise _Doubt("overflow or negative zero")
    return value


def _constant(text: str) -> Any:
    raise _Doubt("NaN or Infinity")


# The C scanner with every hook the profile needs; only used to accept.
_DECODER = json.JSONDecoder(object_pairs_hook=_pairs, parse_int=_integer, parse_float=_float, parse_constant=_constant)
# A backslash-u escape of a surrogate (possibly a false alarm after an escaped backslash).
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


def _depth_within_limit(value: Any) -> bool:
    """Whether no container nests deeper than MAX_DEPTH."""
    if not isinstance(value, (dict, list)):
        return True
    level: list[Any] = [value]
    for _ in range(MAX_DEPTH):
        deeper: list[Any] = []
        for container in level:
            items = container.values() if isinstance(container, dict) else container
            deeper.extend(item for item in items if isinstance(item, (dict, list)))
        if not deeper:
            return True
        level = deeper
    return False


class _Parser:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def unexpected(self, expected: str) -> JsonError:
        data, pos = self.data, self.pos
        if pos >= len(data):
            return JsonError("syntax", pos, "unexpected end of input")
        lead = data[pos]
        width = 1 if lead < 0x80 else 2 if lead < 0xE0 else 3 if lead < 0xF0 else 4
        found = data[pos : pos + width].decode("utf-8")
        return JsonError("syntax", pos, f"expected {expected}, found {encode_basestring(found)}")

    def skip_whitespace(self) -> None:
        self.pos = _WHITESPACE.match(self.data, self.pos).end()  # type: ignore[union-attr]

    def document(self) -> Any:
        data = self.data
        size = len(data)
        # Each frame: [container, pending key or None].
        stack: list[list[Any]] = []
        while True:
            self.skip_whitespace()
            pos = self.pos
            byte = data[pos] if pos < size else -1
            value: Any
            if byte == 0x7B or byte == 0x5B:  # { [
                if len(stack) == MAX_DEPTH:
                    raise JsonError("too-deep", pos, f"nesting deeper than {MAX_DEPTH} levels")
                self.pos = pos + 1
                self.skip_whitespace()
                if byte == 0x5B:
                    if data[self.pos : self.pos + 1] == b"]":
                        self.pos += 1
                        value = []
                    else:
                        stack.append([[], None])
                        continue
                elif data[self.pos : self.pos + 1] == b"}":
                    self.pos += 1
                    value = {}
                else:
                    fresh: dict[str, Any] = {}
                    stack.append([fresh, self.key(fresh, 'a string key or "}"')])
                    continue
            else:
                value = self.scalar(byte)
            # Hand the value to its container; close containers that end here.
            while True:
                if not stack:
                    self.skip_whitespace()
                    if self.pos < size:
                        raise self.unexpected("the end of input after the JSON value")
                    return value
                frame = stack[-1]
                container: Any = frame[0]
                self.skip_whitespace()
                pos = self.pos
                closer = data[pos : pos + 1]
                if frame[1] is None:
                    container.append(value)
                    if closer == b",":
                        self.pos = pos + 1
                        break
                    if closer == b"]":
                        self.pos = pos + 1
                        value = stack.pop()[0]
                        continue
                    raise self.unexpected('"," or "]"')
                container[frame[1]] = value
                if closer == b",":
                    self.pos = pos + 1
                    frame[1] = self.key(container, "a string key")
                    break
                if closer == b"}":
                    self.pos = pos + 1
                    value = stack.pop()[0]
                    continue
                raise self.unexpected('"," or "}"')

    def key(self, container: dict[str, Any], expected: str) -> str:
        self.skip_whitespace()
        start = self.pos
        if self.data[start : start + 1] != b'"':
            raise self.unexpected(expected)
        key = self.string()
        if key in container:
            raise JsonError("duplicate-key", start, f"duplicate key {encode_basestring(prefix(key))}")
        self.skip_whitespace()
        if self.data[self.pos : self.pos + 1] != b":":
            raise self.unexpected('":"')
        self.pos += 1
        return key

    def scalar(self, byte: int) -> Any:
        data, pos = self.data, self.pos
        if byte == 0x22:  # "
            return self.string()
        if byte == 0x74:  # t
            return self.literal(b"true", True)
        if byte == 0x66:  # f
            return self.literal(b"false", False)
        if byte == 0x6E:  # n
            return self.literal(b"null", None)
        if data.startswith((b"NaN", b"Infinity", b"-Infinity"), pos):
            raise JsonError("non-finite", pos, "NaN and Infinity are not JSON numbers")
        if byte == 0x2D or 0x30 <= byte <= 0x39:
            return self.number()
        raise self.unexpected("a value")

    def literal(self, word: bytes, value: Any) -> Any:
        if self.data.startswith(word, self.pos):
            self.pos += len(word)
            return value
        raise JsonError("syntax", self.pos, "invalid literal")

    def number(self) -> int | float:
        start = self.pos
        match = _NUMBER.match(self.data, start)
        if match is None:
            raise JsonError("syntax", start, "invalid number")
        self.pos = match.end()
        text = match.group().decode("ascii")
        if match.group(1) is None and match.group(2) is None:
            digits = text.lstrip("-")
            if len(digits) <= 16:
                integer = int(text)
                if abs(integer) <= MAX_SAFE_INTEGER:
                    if integer == 0 and text[0] == "-":
                        raise JsonError("negative-zero", start, "negative zero is refused")
                    return integer
            raise JsonError("unsafe-integer", start, f"integer {prefix(text)} is outside ±(2^53-1)")
        number = float(text)
        if math.isinf(number):
            raise JsonError("number-out-of-range", start, f"number {prefix(text)} overflows to infinity")
        if number == 0.0 and math.copysign(1.0, number) < 0:
            raise JsonError("negative-zero", start, "negative zero is refused")
        return number

    def string(self) -> str:
        data = self.data
        pos = self.pos + 1
        parts: list[str] = []
        while True:
            end = _PLAIN.match(data, pos).end()  # type: ignore[union-attr]
            if end > pos:
                parts.append(data[pos:end].decode("utf-8"))
            pos = end
            if pos >= len(data):
                self.pos = pos
                raise self.unexpected("")
            byte = data[pos]
            if byte == 0x22:
                self.pos = pos + 1
                return "".join(parts)
            if byte == 0x5C:
                pos = self.escape(pos, parts)
                continue
            raise JsonError("syntax", pos, f"control character U+{byte:04X} must be escaped in a string")

    def escape(self, start: int, parts: list[str]) -> int:
        """Reads the escape at ``start`` (its backslash); returns where reading goes on."""
        data = self.data
        marker = data[start + 1] if start + 1 < len(data) else -1
        simple = _SIMPLE_ESCAPES.get(marker)
        if simple is not None:
            parts.append(simple)
            return start + 2
        if marker != 0x75 or _HEX4.match(data, start + 2) is None:  # u
            raise JsonError("syntax", start, "invalid escape sequence")
        unit = int(data[start + 2 : start + 6], 16)
        if 0xD800 <= unit <= 0xDBFF:
            low = -1
            if data.startswith(b"\\u", start + 6) and _HEX4.match(data, start + 8) is not None:
                low = int(data[start + 8 : start + 12], 16)
            if not 0xDC00 <= low <= 0xDFFF:
                raise JsonError("lone-surrogate", start, f"lone surrogate \\u{unit:04x}")
            parts.append(chr(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)))
            return start + 12
        if 0xDC00 <= unit <= 0xDFFF:
            raise JsonError("lone-surrogate", start, f"lone surrogate \\u{unit:04x}")
        parts.append(chr(unit))
        return start + 6
