"""A generated package names the concord that wrote it, and a runtime that does not serve that version refuses it on
import, saying which versions go together (docs/versions.md); cli/tests/versions.rs holds Rust to the same."""

import shutil
import subprocess
import sys
from pathlib import Path

import concord_registry
import concord_runtime
import pytest

GENERATED = Path(concord_registry.__file__).parent


def test_the_shipped_bindings_name_this_runtimes_version() -> None:
    text = (GENERATED / "_runtime.py").read_text()
    assert f'concord_runtime.bindings_for("{concord_runtime.__version__}")' in text
    concord_runtime.bindings_for(concord_runtime.__version__)


def test_bindings_of_another_version_are_refused_naming_both() -> None:
    with pytest.raises(ImportError) as refused:
        concord_runtime.bindings_for("0.0.9")
    message = str(refused.value)
    assert "written by concord 0.0.9" in message
    assert f"this concord_runtime ({concord_runtime.__version__})" in message
    assert "install concord-runtime==0.0.9" in message


def test_a_package_of_another_version_does_not_import(tmp_path: Path) -> None:
    package = tmp_path / "other_registry"
    shutil.copytree(GENERATED, package)
    runtime = package / "_runtime.py"
    runtime.write_text(runtime.read_text().replace(f'"{concord_runtime.__version__}"', '"9.0.0"'))
    script = "import other_registry"
    run = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, check=False)
    assert run.returncode == 1
    last = run.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: these bindings were written by concord 9.0.0"), run.stderr
