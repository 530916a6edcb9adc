"""The Python half of tests/conformance.rs: reads one request per line on stdin,
``{"hex": <input bytes>, "max_bytes": <int or null>}``, and answers each with one
line: ``{"read": "ok" or error, "value": ..., "canonical_hex": ..., "canonical_error": ..., "digest": ...}``.

The answer is the compiled core's (what ``concord_runtime`` runs). Every input
also goes through the pure-Python oracle (its fast path and its reference
parser, then the pure-Python canonical writer), and any difference from the
core is the answer instead, so the Rust test fails on it."""

from __future__ import annotations

import json
import sys
from typing import Any

from concord_runtime import _core, canonical, dumps, strict


def outcome(data: bytes, max_bytes: int, *, fast: bool) -> tuple[str, Any]:
    try:
        return "ok", strict._read(data, max_bytes, fast=fast)
    except strict.JsonError as error:
        return str(error), None


def core_verdict(action: Any) -> str:
    try:
        action()
    except strict.JsonError as error:
        return str(error)
    return "ok"


def core_canonical(data: bytes, max_bytes: int) -> tuple[str, str]:
    """The core's canonical bytes (hex) and digest, or its refusal."""
    try:
        return _core.canonicalize(data, max_bytes).hex(), _core.digest_json(data, max_bytes)
    except (strict.JsonError, canonical.CanonicalError) as error:
        return "refused", str(error)


def oracle_answer(data: bytes, max_bytes: int) -> dict[str, Any]:
    verdict, value = outcome(data, max_bytes, fast=True)
    # The fast path (C scanner plus checks) must decide as the reference parser does.
    reference_verdict, reference_value = outcome(data, max_bytes, fast=False)
    if (verdict, repr(value)) != (reference_verdict, repr(reference_value)):
        return {"read": f"the fast path gave {verdict}, the reference parser {reference_verdict}"}
    if verdict != "ok":
        return {"read": verdict}
    # "value": what was read, written back in concord's layout, so that floats are compared too.
    try:
        written = dumps(value)
    except ValueError as error:
        written = f"unwritable: {error}"
    try:
        canonical_bytes = canonical.to_bytes(value)
    except canonical.CanonicalError as error:
        return {"read": "ok", "value": written, "canonical_error": str(error)}
    return {"read": "ok", "value": written, "canonical_hex": canonical_bytes.hex(), "digest": canonical.digest(value)}


def answer(data: bytes, max_bytes: int) -> dict[str, Any]:
    expected = oracle_answer(data, max_bytes)
    problems = []
    # The core: its verdict, its reference reader's, and its fast scan (which may
    # defer to the reference, but never accept what the reference refuses).
    verdict = core_verdict(lambda: _core.check(data, max_bytes))
    reference = core_verdict(lambda: _core.check_reference(data, max_bytes))
    if verdict != expected["read"] or reference != expected["read"]:
        problems.append(f"core check {verdict!r}, core reference {reference!r}, oracle {expected['read']!r}")
    if _core.scan_accepts(data) and reference != "ok" and not reference.startswith("too-large"):
        problems.append(f"the core's fast scan accepted what its reference refuses: {reference}")
    if verdict == "ok":
        value = strict.read(data, max_bytes=max_bytes)
        if dumps(value) != expected["value"] and not expected["value"].startswith("unwritable"):
            problems.append(f"strict.read gave {value!r}")
        want = (
            (expected["canonical_hex"], expected["digest"])
            if "canonical_hex" in expected
            else ("refused", expected["canonical_error"])
        )
        if core_canonical(data, max_bytes) != want:
            problems.append(f"core canonical {core_canonical(data, max_bytes)}, oracle {want}")
        # The digest's fast path, on the compact JSON pydantic would write for the value.
        compact = _core.canonical_of_compact(expected["value"].encode())
        if compact is not None and compact.hex() != expected.get("canonical_hex"):
            problems.append(f"the core's compact canonical path gave {compact!r}")
        if compact is None and "canonical_hex" in expected:
            problems.append("the core's compact canonical path deferred on a canonical value")
    if problems:
        return {"read": "; ".join(problems)}
    return expected


def main() -> None:
    for line in sys.stdin:
        request = json.loads(line)
        max_bytes = request["max_bytes"] or strict.DEFAULT_MAX_BYTES
        sys.stdout.write(json.dumps(answer(bytes.fromhex(request["hex"]), max_bytes)) + "\n")


if __name__ == "__main__":
    main()
