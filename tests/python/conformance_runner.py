"""The Python half of tests/conformance.rs: reads one request per line on stdin,
``{"hex": <input bytes>, "max_bytes": <int or null>}``, and answers each with one
line: ``{"read": "ok" or error, "canonical_hex": ..., "canonical_error": ..., "digest": ...}``."""

from __future__ import annotations

import json
import sys
from typing import Any

from concord_runtime import canonical, strict


def answer(data: bytes, max_bytes: int) -> dict[str, Any]:
    try:
        value = strict.read(data, max_bytes=max_bytes)
    except strict.JsonError as error:
        return {"read": str(error)}
    try:
        canonical_bytes = canonical.to_bytes(value)
    except canonical.CanonicalError as error:
        return {"read": "ok", "canonical_error": str(error)}
    return {"read": "ok", "canonical_hex": canonical_bytes.hex(), "digest": canonical.digest(value)}


def main() -> None:
    for line in sys.stdin:
        request = json.loads(line)
        max_bytes = request["max_bytes"] or strict.DEFAULT_MAX_BYTES
        sys.stdout.write(json.dumps(answer(bytes.fromhex(request["hex"]), max_bytes)) + "\n")


if __name__ == "__main__":
    main()
