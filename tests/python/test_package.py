"""A generated package imports what a program uses (PEP 562): a root or an entry's module on first use, and an entry's
module only the pinned schema files its types need; every name stays where it was for `import`, `from ... import`,
type checkers (mypy --strict runs over the package) and `dir()`."""

import json
import subprocess
import sys
from pathlib import Path

import concord_registry
import pytest

GENERATED = Path(concord_registry.__file__).parent.parent


def loaded_after(statement: str) -> list[str]:
    """The package's modules a fresh interpreter holds after `statement`."""
    listed = "sorted(m for m in sys.modules if m.startswith('concord_registry'))"
    code = f"import json, sys\n{statement}\nprint(json.dumps({listed}))"
    output = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env={"PYTHONPATH": str(GENERATED)}
    )
    loaded: list[str] = json.loads(output.stdout)
    return loaded


def test_importing_the_package_loads_no_entry() -> None:
    assert loaded_after("import concord_registry") == ["concord_registry", "concord_registry._runtime"]


def test_one_root_loads_its_entry_and_its_pinned_schema_file_alone() -> None:
    assert loaded_after("from concord_registry import Evidence") == [
        "concord_registry",
        "concord_registry._pinned",
        "concord_registry._pinned.evidence",
        "concord_registry._runtime",
        "concord_registry.evidence",
    ]


def test_every_name_resolves_to_the_entrys_own() -> None:
    from concord_registry import cls_artifact, evidence

    assert concord_registry.ClsArtifact is cls_artifact.ClsArtifact
    assert concord_registry.Evidence is evidence.Evidence
    assert concord_registry.evidence_v1.EvidenceV1 is concord_registry.EvidenceV1
    assert set(concord_registry.__all__) <= set(dir(concord_registry))
    namespace: dict[str, object] = {}
    exec("from concord_registry import *", namespace)
    assert {name for name in namespace if not name.startswith("__")} == set(concord_registry.__all__)


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="module 'concord_registry' has no attribute 'Evidenc'"):
        _ = concord_registry.Evidenc  # type: ignore[attr-defined]
    with pytest.raises(ImportError):
        from concord_registry import Evidenc  # type: ignore[attr-defined] # noqa: F401


def collector_after(statement: str) -> bool:
    """Whether the cyclic garbage collector runs after `statement`, in a fresh interpreter."""
    code = f"import gc\n{statement}\nprint(gc.isenabled())"
    output = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env={"PYTHONPATH": str(GENERATED)}
    )
    return output.stdout.strip() == "True"


def test_the_collector_pauses_while_an_entry_loads_and_is_left_as_it_was() -> None:
    # The package and the runtime first: the pause is the entry's alone.
    watch = (
        "import concord_registry\n"
        "seen = []\n"
        "gc.callbacks.append(lambda phase, info: seen.append(phase))\n"
        "gc.collect()\n"
        "seen.clear()\n"
        "from concord_registry import Evidence\n"
        "assert not seen, seen\n"
    )
    assert collector_after(watch)
    assert not collector_after("gc.disable()\n" + watch)
    # An entry that fails to import leaves the collector running.
    failing = (
        "import importlib\n"
        "import concord_registry\n"
        "def refuse(name, package=None):\n"
        "    raise ImportError(name)\n"
        "importlib.import_module = refuse\n"
        "try:\n"
        "    concord_registry.Evidence\n"
        "except ImportError:\n"
        "    pass\n"
        "else:\n"
        "    raise AssertionError('imported')\n"
    )
    assert collector_after(failing)
