"""``python -m concord_runtime json check|canon|digest FILE``: the same output
bytes, exit codes and error kinds as ``concord json`` in Rust.

``python -m concord_runtime validate PACKAGE NAME FILE``: checks FILE against
the pinned schema of a record type of a generated package (NAME: a root's
name, or ``Entry.Type``), with the same output as ``concord validate``.

Exit codes: 0 done, 1 the input was refused, 2 the file could not be read
or the command was misused. A refusal of the input is followed by where it
is, line, column and the line, written by the same code as Rust's
(``concord_runtime::location``, through the compiled core).
"""

from __future__ import annotations

import argparse
import importlib
import re
import sys

from concord_runtime import _core, canonical, strict
from concord_runtime.pinned import PinnedSchema, Refusal


def _size(text: str) -> int:
    """A byte count as Rust's ``usize`` reads one: digits, an optional ``+``."""
    if re.fullmatch(r"\+?[0-9]+", text) is None or int(text) >= 2**64:
        raise argparse.ArgumentTypeError(f"invalid size {text!r}: expected a whole number of bytes")
    return int(text)


def _refused(error: strict.JsonError | canonical.CanonicalError, data: bytes, file: str) -> int:
    """Says why the input was refused and where, as ``concord json`` does; the exit code."""
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
    validate = commands.add_parser("validate", help="check FILE against a record type's pinned schema")
    validate.add_argument("package", help="a generated package, e.g. concord_registry")
    validate.add_argument("name", help="a root's name, or Entry.Type")
    validate.add_argument("file", help="a path, or - for standard input")
    validate.add_argument("--max-bytes", type=_size, default=strict.DEFAULT_MAX_BYTES)
    arguments = parser.parse_args(argv)

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
        print(f"error: cannot read {arguments.file}: {error.strerror}", file=sys.stderr)
        return 2
    if schema is not None:
        try:
            schema.validate_json(data, max_bytes=arguments.max_bytes)
        except strict.JsonError as error:
            return _refused(error, data, arguments.file)
        except Refusal as refusal:
            print(refusal, file=sys.stderr)
            return 1
        sys.stdout.write("ok\n")
        return 0
    try:
        if arguments.action == "check":
            strict.check(data, max_bytes=arguments.max_bytes)
            sys.stdout.write("ok\n")
        elif arguments.action == "canon":
            sys.stdout.buffer.write(canonical.canonicalize(data, max_bytes=arguments.max_bytes))
        else:
            sys.stdout.write(canonical.digest_json(data, max_bytes=arguments.max_bytes) + "\n")
    except (strict.JsonError, canonical.CanonicalError) as error:
        return _refused(error, data, arguments.file)
    return 0


if __name__ == "__main__":
    sys.exit(main())
