"""Lint and types are part of the test command: ruff over the code and mypy over engine/ and
service/, both configured in pyproject.toml ([tool.ruff], [tool.mypy]). A finding fails the
suite with the tool's own report."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = ROOT / "pyproject.toml"
LINTED = ["engine", "service", "tests", "tools", "bench"]


def _run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=600)


def _report(done: subprocess.CompletedProcess[str]) -> str:
    return f"exit {done.returncode}\n{done.stdout}\n{done.stderr}"


def test_the_code_passes_ruff():
    done = _run("ruff", "check", "--no-cache", *LINTED)
    assert done.returncode == 0, _report(done)


def test_engine_and_service_pass_mypy():
    # The cache (gitignored) makes a warm run take seconds; a cold one about a minute.
    done = _run("mypy", "--cache-dir", str(ROOT / ".mypy_cache"))
    assert done.returncode == 0, _report(done)
    assert "Success" in done.stdout, _report(done)


# The checks above are only as good as the configuration: a rule set that selects nothing, or
# a mypy that no longer reads pyproject.toml, would pass anything. These seed one error each.

def test_ruff_as_configured_refuses_a_seeded_error(tmp_path):
    seeded = tmp_path / "seeded.py"
    seeded.write_text("import os\n\n\ndef f(x):\n    return undefined_name + x\n")
    done = _run("ruff", "check", "--no-cache", "--config", str(PYPROJECT), str(seeded))
    assert done.returncode == 1, _report(done)
    assert "F401" in done.stdout and "F821" in done.stdout, _report(done)


def test_mypy_as_configured_refuses_a_seeded_error(tmp_path):
    seeded = tmp_path / "seeded.py"
    seeded.write_text("def f(x):\n    return x\n\n\ndef g() -> int:\n    return 'one'\n")
    done = _run("mypy", "--config-file", str(PYPROJECT), "--cache-dir", str(tmp_path / "cache"),
                str(seeded), cwd=tmp_path)
    assert done.returncode == 1, _report(done)
    # strict: the unannotated def is refused too, not only the wrong return
    assert "[no-untyped-def]" in done.stdout and "[return-value]" in done.stdout, _report(done)
