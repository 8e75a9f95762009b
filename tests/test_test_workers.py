"""`make test` runs the tests on two xdist workers; tests marked with one xdist_group (a file
whose tests share an expensive module fixture, such as the Redis Cluster's) run on one worker,
so that fixture is built once (tests/conftest.py switches `-n` to loadgroup)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_TESTS = '''
import os
from pathlib import Path

import pytest

OUT = Path(__file__).parent / "workers"


def _note(name):
    with open(OUT, "a") as f:
        f.write(f"{name} {os.environ['PYTEST_XDIST_WORKER']}\\n")


@pytest.mark.parametrize("n", range(6))
def test_free(n):
    _note(f"free{n}")


@pytest.mark.xdist_group("shared")
@pytest.mark.parametrize("n", range(6))
def test_grouped(n):
    _note(f"grouped{n}")
'''


def _pytest_on_two_workers(folder: Path) -> subprocess.CompletedProcess:
    """pytest -n 2 over the tests in `folder` (its own conftest), as `make test` runs them."""
    env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    env.pop("PYTEST_XDIST_WORKER", None)
    # schemathesis' and anyio's plugins cost each worker seconds to import and play no part here
    return subprocess.run([sys.executable, "-m", "pytest", "-n", "2", "-q", "-p", "no:cacheprovider",
                           "-p", "no:schemathesis", "-p", "no:anyio",
                           "--rootdir", str(folder), str(folder)],
                          cwd=folder, env=env, capture_output=True, text=True, timeout=120)


def test_tests_sharing_an_xdist_group_run_on_one_worker(tmp_path):
    (tmp_path / "conftest.py").write_text("from tests.conftest import pytest_configure  # noqa: F401\n")
    (tmp_path / "test_grouping.py").write_text(_TESTS)
    proc = _pytest_on_two_workers(tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    seen = dict(line.split() for line in (tmp_path / "workers").read_text().splitlines())
    assert len(seen) == 12, seen
    assert len({seen[f"grouped{n}"] for n in range(6)}) == 1, seen
    assert len(set(seen.values())) == 2, seen  # the ungrouped tests are still spread


_LOSES_A_TEST = '''
import pytest


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_protocol(item, nextitem):
    # a scheduler that loses a test: the worker takes it and never runs or reports it
    return True if item.name == "test_lost" else None
'''


def test_a_run_on_workers_whose_scheduler_loses_a_test_fails_and_says_so(tmp_path):
    (tmp_path / "conftest.py").write_text(
        "from tests.conftest import pytest_configure, pytest_sessionfinish  # noqa: F401\n"
        + _LOSES_A_TEST)
    (tmp_path / "test_some.py").write_text(
        "def test_kept():\n    pass\n\n\ndef test_lost():\n    pass\n\n\ndef test_also_kept():\n    pass\n")
    proc = _pytest_on_two_workers(tmp_path)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "only 2 of the 3 tests collected ran" in proc.stdout, proc.stdout
