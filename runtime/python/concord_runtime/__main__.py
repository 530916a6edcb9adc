"""``python -m concord_runtime json check|canon|digest FILE``: the same output
bytes, exit codes and error kinds as ``concord json`` in Rust.

``python -m concord_runtime validate PACKAGE NAME FILE``: checks FILE against
the pinned schema of a record type of a generated package (NAME: a root's
name, or ``Entry.Type``), with the same output as ``concord validate``.

Exit codes: 0 done, 1 the input was refused, 2 the file could not be read
or the command was misused. ``--format json`` writes one JSON object on
standard output instead, byte for byte what ``concord ... --format json``
writes. A refusal of the input is followed by where it
is, line, column and the line, written by the same code as Rust's
(``concord_runtime::location``, through the compiled core).
"""

from __future__ import annotations

import argparse
import importlib
import json
import re
import sys

from concord_runtime import _core, canonical, strict
from concord_runtime.pinned import PinnedSchema, Refusal


def _size(text: str) -> int:
    """A byte count as Rust's ``usize`` reads one: digits, an optional ``+``."""
    if re.fullmatch(r"\+?[0-9]+", text) is None or int(text) >= 2**64:
        raise argparse.ArgumentTypeError(f"invalid size {text!r}: expected a whole number of bytes")
    return int(text)


def _print_json(value: object) -> None:
    """One JSON object and a line break on standard output, as serde_json writes it compactly."""
    sys.stdout.write(json.dumps(value, ensure_ascii=False, separators=(",", ":")) + "\n")


def _refused(error: strict.JsonError | canonical.CanonicalError, data: bytes, file: str, as_json: bool = False) -> int:
    """Says why the input was refused and where, as ``concord json`` does; the exit code."""
    if as_json:
        report: dict[str, object] = {"kind": error.kind, "message": error.message}
        offset: int | None
        if isinstance(error, strict.JsonError):
            report["offset"] = offset = error.offset
        else:
            report["pointer"] = error.pointer
            found = _core.pointer_place(data, error.pointer)
            offset = None if found is None else found[0]
        if offset is not None:
            report["line"], report["column"] = _core.line_and_column(data, offset)
        _print_json({"error": report})
        return 1
    name = "<stdin>" if file == "-" else file
    if isinstance(error, strict.JsonError):
        place: str | None = _core.location_at(data, error.offset, name)
    else:
        place = _core.location_of(data, error.pointer, name)
    sys.stderr.write(f"error: {error}\n{place or ''}")
    return 1


def _schema(package: str, name: str) -> PinnedSchema | None:
    """The pinned schema ``name`` names in the generated ``package``, or ``None`` (said why)."""
    try:
        records: dict[str, str] = importlib.import_module(f"{package}._schemas").RECORDS
    except (ImportError, AttributeError) as error:
        print(f"error: {package} is no package concord generated: {error}", file=sys.stderr)
        return None
    path = records.get(name)
    if path is None:
        roots = ", ".join(key for key in records if "." not in key)
        print(
            f"error: {name}: no record type of that name in the registry (a root: {roots}; "
            "or any record type as Entry.Type)",
            file=sys.stderr,
        )
        return None
    module, _, attribute = path.rpartition(".")
    schema: PinnedSchema = getattr(importlib.import_module(f"{package}.{module}"), attribute).SCHEMA
    return schema


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m concord_runtime")
    commands = parser.add_subparsers(dest="group", required=True)
    json_group = commands.add_parser("json", help="strict reading and canonical JSON")
    actions = json_group.add_subparsers(dest="action", required=True)
    for action, text in [
        ("check", "strict-read FILE: exit 0, or 1 with the first problem"),
        ("canon", "write the canonical bytes (jcs-rfc8785-integer-v1) of FILE"),
        ("digest", "write sha256:<hex> over the canonical bytes of FILE"),
    ]:
        command = actions.add_parser(action, help=text)
        command.add_argument("file", help="a path, or - for standard input")
        command.add_argument("--max-bytes", type=_size, default=strict.DEFAULT_MAX_BYTES)
        command.add_argument("--format", choices=("text", "json"), default="text")
    validate = commands.add_parser("validate", help="check FILE against a record type's pinned schema")
    validate.add_argument("package", help="a generated package, e.g. concord_registry")
    validate.add_argument("name", help="a root's name, or Entry.Type")
    validate.add_argument("file", help="a path, or - for standard input")
    validate.add_argument("--max-bytes", type=_size, default=strict.DEFAULT_MAX_BYTES)
    validate.add_argument("--format", choices=("text", "json"), default="text")
    arguments = parser.parse_args(argv)
    as_json = arguments.format == "json"

    schema = _schema(arguments.package, arguments.name) if arguments.group == "validate" else None
    if arguments.group == "validate" and schema is None:
        return 2
    try:
        if arguments.file == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(arguments.file, "rb") as file:
                data = file.read()
    except OSError as error:
        message = f"cannot read {arguments.file}: {error.strerror}"
        if as_json:
            _print_json({"error": {"kind": "unreadable", "message": message}})
        else:
            print(f"error: {message}", file=sys.stderr)
        return 2
    if schema is not None:
        try:
            schema.validate_json(data, max_bytes=arguments.max_bytes)
        except strict.JsonError as error:
            return _refused(error, data, arguments.file, as_json)
        except Refusal as refusal:
            if as_json:
                notes = [
                    {"pointer": n.pointer, "keyword": n.keyword, "schema_path": n.schema_path, "message": n.message}
                    for n in refusal.notes
                ]
                _print_json({"notes": notes, "more": refusal.more})
            else:
                print(refusal, file=sys.stderr)
            return 1
        if as_json:
            _print_json({"ok": True})
        else:
            sys.stdout.write("ok\n")
        return 0
    try:
        if arguments.action == "check":
            strict.check(data, max_bytes=arguments.max_bytes)
            if as_json:
                _print_json({"ok": True})
            else:
                sys.stdout.write("ok\n")
        elif arguments.action == "canon":
            written = canonical.canonicalize(data, max_bytes=arguments.max_bytes)
            if as_json:
                _print_json({"canonical": written.decode("utf-8")})
            else:
                sys.stdout.buffer.write(written)
        else:
            digest = canonical.digest_json(data, max_bytes=arguments.max_bytes)
            if as_json:
                _print_json({"digest": digest})
            else:
                sys.stdout.write(digest + "\n")
    except (strict.JsonError, canonical.CanonicalError) as error:
        return _refused(error, data, arguments.file, as_json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
