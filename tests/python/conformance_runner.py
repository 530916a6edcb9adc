"""The Python half of tests/conformance.rs: reads one request per line on stdin,
``{"hex": <input bytes>, "max_bytes": <int or null>}``, and answers each with one
line: ``{"read": "ok" or error, "value": ..., "canonical_hex": ..., "canonical_error": ..., "digest": ...}``."""

from __future__ import annotations

import json
import sys
from typing import Any

from concord_runtime import canonical, dumps, strict


def outcome(data: bytes, max_bytes: int, *, fast: bool) -> tuple[str, Any]:
    try:
        return "ok", strict._read(data, max_bytes, fast=fast)
    except strict.JsonError as error:
        return str(error), None


def answer(data: bytes, max_bytes: int) -> dict[str, Any]:
    verdict, value = outcome(data, max_bytes, fast=True)
    # The fast path (C scanner plus checks) must decide as the reference parser does.
    reference_verdict, reference_value = outcome(data, max_bytes, fast=False)
    if (verdict, repr(value)) != (reference_verdict, repr(reference_value)):
        return {"read": f"the fast path gave {verdict}, the reference parser {reference_verdict}"}
    if verdict != "ok":
        return {"read": verdict}
    # "value": what was read, written back the serde_json way, so that floats are compared too.
    try:
        canonical_bytes = canonical.to_bytes(value)
    except canonical.CanonicalError as error:
        return {"read": "ok", "value": dumps(value), "canonical_error": str(error)}
    return {
        "read": "ok",
        "value": dumps(value),
        "canonical_hex": canonical_bytes.hex(),
        "digest": canonical.digest(value),
    }


def main() -> None:
    for line in sys.stdin:
        request = json.loads(line)
        max_bytes = request["max_bytes"] or strict.DEFAULT_MAX_BYTES
        sys.stdout.write(json.dumps(answer(bytes.fromhex(request["hex"]), max_bytes)) + "\n")


if __name__ == "__main__":
    main()
