"""Harness for ``concord roundtrip``: reads ``Name<TAB>path`` lines on stdin and
answers each with one JSON line, ``{"ok": output, "digest": digest}`` or
``{"error": message}``."""

from __future__ import annotations

import importlib
import json
import sys


def main(package: str) -> None:
    module = importlib.import_module(package)
    for line in sys.stdin:
        name, _, path = line.rstrip("\n").partition("\t")
        with open(path, "rb") as fixture:
            data = fixture.read()
        try:
            record = getattr(module, name).from_json(data)
        except ValueError as error:
            print(json.dumps({"error": str(error)}))
            continue
        except Exception as error:  # a defect, not a refusal: name it, and go on with the rest
            print(json.dumps({"error": f"crashed: {type(error).__name__}: {error}"}))
            continue
        try:
            digest = record.digest()
        except ValueError as error:
            digest = f"no digest: {error}"
        except Exception as error:
            digest = f"crashed: {type(error).__name__}: {error}"
        answer = {"ok": record.to_json().decode(), "digest": digest}
        print(json.dumps(answer), flush=False)


if __name__ == "__main__":
    main(sys.argv[1])
