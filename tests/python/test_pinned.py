"""The Python bindings carry their schema files exactly as pinned and validate against them
(docs/validation.md); tests/pinned.rs holds the Rust bindings to the same."""

import hashlib
import json
from pathlib import Path

import concord_registry
import concord_runtime
import pytest
from concord_registry import cls_artifact
from concord_registry._pinned import cls_artifact as pinned_cls_artifact
from concord_registry._pinned import evidence as pinned_evidence
from concord_registry._pinned import evidence_v1 as pinned_evidence_v1
from concord_registry._schemas import RECORDS

REGISTRY = Path(__file__).resolve().parents[2] / "registry"


def test_each_root_carries_its_schema_file_byte_for_byte_with_its_pin() -> None:
    index = json.loads((REGISTRY / "registry.json").read_bytes())
    # Evidence is the newest version of its entry, EvidenceV1 the first.
    roots: list[tuple[type[concord_runtime.Model], str, int | None]] = [
        (concord_registry.ClsArtifact, "ClsArtifact", None),
        (concord_registry.EvidenceV1, "Evidence", 1),
        (concord_registry.Evidence, "Evidence", 2),
    ]
    for root, name, version in roots:
        entry = next(entry for entry in index["schemas"] if entry["name"] == name and entry.get("version") == version)
        schema = root.SCHEMA
        assert schema.text.encode() == (REGISTRY / entry["path"]).read_bytes(), root.NAME
        assert schema.digest == entry["digest"] == root.SCHEMA_DIGEST
        assert schema.pointer == ""
    for document in (pinned_cls_artifact.DOCUMENT, pinned_evidence.DOCUMENT, pinned_evidence_v1.DOCUMENT):
        assert "sha256:" + hashlib.sha256(document.text.encode()).hexdigest() == document.digest
    assert cls_artifact.Session.SCHEMA.pointer == "/$defs/Session"
    assert cls_artifact.Session.SCHEMA.document is concord_registry.ClsArtifact.SCHEMA.document
    assert RECORDS["ClsArtifact.Session"] == "cls_artifact.Session" and RECORDS["Evidence"] == "evidence.Evidence"
    assert RECORDS["EvidenceV1"] == "evidence_v1.EvidenceV1"


def test_a_root_validates_a_value_with_notes_that_never_show_it() -> None:
    evidence = {"id": "e1", "session_id": "s1", "kind": "exit_code", "payload": {"exit_code": 0}}
    concord_registry.Evidence.SCHEMA.validate(evidence)
    assert concord_registry.Evidence.SCHEMA.is_valid(evidence)
    refused = {
        "id": "e1",
        "session_id": 7,
        "kind": ["secret-kind"],
        "payload": None,
        "extension": {"provider": "claude"},
    }
    with pytest.raises(concord_runtime.Refusal) as caught:
        concord_registry.Evidence.SCHEMA.validate(refused)
    assert str(caught.value) == (
        '/session_id: is not of type "string"\n'
        '/kind: is not of type "string"\n'
        '/extension: lacks the required property "schema_version"\n'
        "..."
    )
    assert caught.value.more and (caught.value.notes[1].keyword, caught.value.notes[1].schema_path) == (
        "type",
        "/properties/kind/type",
    )
    with pytest.raises(concord_runtime.JsonError, match=r'^duplicate-key at byte 11: duplicate key "id"$'):
        concord_registry.Evidence.SCHEMA.validate_json(b'{"id":"e1","id":"e2"}')
    concord_registry.Evidence.SCHEMA.validate_json(json.dumps(evidence))
    with pytest.raises(ValueError, match="beyond 64 bits"):
        concord_registry.Evidence.SCHEMA.validate({"id": 2**64})
