"""Harness for ``concord roundtrip`` and ``concord fuzz``: reads ``Name<TAB>path``
lines on stdin (or ``Name<TAB>:hex``, the input's bytes in hex) and answers each
with one JSON line, ``{"ok": output, "digest": digest}`` or ``{"error": message}``,
plus ``"validated"`` (``true`` or the refusal) for a type with a pinned schema;
an empty line flushes the answers. ``Name`` is a root exported by the package, or
``module.Class`` for any record type."""

from __future__ import annotations

import importlib
import json
import sys
from typing import Any


def answer(record_type: Any, data: bytes) -> str:
    reply = _answer(record_type, data)
    schema = getattr(record_type, "SCHEMA", None)
    if schema is not None:
        # validate's verdict on the same bytes: the types must refuse exactly what it refuses.
        try:
            schema.validate_json(data)
            reply["validated"] = True
        except ValueError as error:
            reply["validated"] = str(error)
        except Exception as error:
            reply["validated"] = f"crashed: {type(error).__name__}: {error}"
    return json.dumps(reply)


def _answer(record_type: Any, data: bytes) -> dict[str, Any]:
    # Every input also tests the one-pass reader against pydantic's own path: a difference
    # is reported as the record's error, so the suite sees it as a disagreement.
    difference = record_type._one_pass_difference(data)
    if difference is not None:
        return {"error": f"one-pass reader: {difference}"}
    try:
        record = record_type.from_json(data)
    except ValueError as error:
        return {"error": str(error)}
    except Exception as error:  # a defect, not a refusal: name it, and go on with the rest
        return {"error": f"crashed: {type(error).__name__}: {error}"}
    difference = record._one_pass_write_difference()
    if difference is not None:
        return {"error": f"one-pass writer: {difference}"}
    try:
        digest = record.digest()
    except ValueError as error:
        digest = f"no digest: {error}"
    except Exception as error:
        digest = f"crashed: {type(error).__name__}: {error}"
    try:
        output = record.to_json().decode()
    except ValueError as error:
        return {"error": str(error)}
    except Exception as error:
        return {"error": f"crashed: {type(error).__name__}: {error}"}
    return {"ok": output, "digest": digest}


def main(package: str) -> None:
    module = importlib.import_module(package)
    types: dict[str, Any] = {}
    out = sys.stdout
    for line in sys.stdin:
        if line == "\n":
            out.flush()
            continue
        name, _, path = line.rstrip("\n").partition("\t")
        record_type = types.get(name)
        if record_type is None:
            record_type = module
            for part in name.split("."):
                record_type = getattr(record_type, part)
            types[name] = record_type
        if path.startswith(":"):
            data = bytes.fromhex(path[1:])
        else:
            with open(path, "rb") as fixture:
                data = fixture.read()
        out.write(answer(record_type, data))
        out.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
