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


def test_tests_sharing_an_xdist_group_run_on_one_worker(tmp_path):
    (tmp_path / "conftest.py").write_text("from tests.conftest import pytest_configure  # noqa: F401\n")
    (tmp_path / "test_grouping.py").write_text(_TESTS)
    env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    env.pop("PYTEST_XDIST_WORKER", None)
    # schemathesis' and anyio's plugins cost each worker seconds to import and play no part here
    proc = subprocess.run([sys.executable, "-m", "pytest", "-n", "2", "-q", "-p", "no:cacheprovider",
                           "-p", "no:schemathesis", "-p", "no:anyio",
                           "--rootdir", str(tmp_path), str(tmp_path)],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    seen = dict(line.split() for line in (tmp_path / "workers").read_text().splitlines())
    assert len(seen) == 12, seen
    assert len({seen[f"grouped{n}"] for n in range(6)}) == 1, seen
    assert len(set(seen.values())) == 2, seen  # the ungrouped tests are still spread
