"""`make`'s .venv install under its lock: `make serve` and `make test` started together on a
fresh clone install once; an install killed half-way blocks no later make; `make serve` installs
the service's own pins only.

The Makefile runs for real, in a copy of the repository's files, with PYTHON a fake interpreter
that records each call (venv, pip) and sleeps instead of installing anything: about 2 s.
"""
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="needs make")

FAKE_PYTHON = f"""#!{sys.executable}
import os, shutil, sys, time

args = sys.argv[1:]
if args and args[0].endswith("run_locked.py"):  # the lock helper runs on the real interpreter
    os.execv(sys.executable, [sys.executable, *args])


def note(what):
    with open(os.environ["FAKE_PYTHON_LOG"], "a") as log:
        log.write(f"{{what}} {{' '.join(args)}}\\n")


note("start")
if args[:2] == ["-m", "venv"]:  # the venv's interpreter is this fake again
    os.makedirs(os.path.join(args[2], "bin"), exist_ok=True)
    shutil.copy(__file__, os.path.join(args[2], "bin", "python"))
time.sleep(float(os.environ["FAKE_PYTHON_SECONDS"]))
note("end")
"""


# The calls each install makes: the service's pins (make serve), then the test tools (make test).
RUNTIME = ["-m venv .venv", "-m pip install -q --disable-pip-version-check -r requirements.lock",
           "-m pip install -q --disable-pip-version-check --no-deps -e ."]
DEV = ["-m pip install -q --upgrade pip", "-m pip install --progress-bar off -r requirements-dev.lock"]


@pytest.fixture
def checkout(tmp_path):
    for name in ("Makefile", "pyproject.toml", "requirements.lock", "requirements-dev.lock",
                 "tools/run_locked.py"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        shutil.copy(ROOT / name, tmp_path / name)
    fake = tmp_path / "fake-python"
    fake.write_text(FAKE_PYTHON)
    fake.chmod(0o755)
    return tmp_path


def start_install(checkout, seconds, target="install"):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MAKE", "MFLAGS"))}
    env.update(FAKE_PYTHON_LOG=str(checkout / "calls.log"), FAKE_PYTHON_SECONDS=str(seconds))
    return subprocess.Popen(["make", target, f"PYTHON={checkout / 'fake-python'}"],
                            cwd=checkout, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)


def calls(checkout):
    log = checkout / "calls.log"
    return log.read_text().splitlines() if log.exists() else []


def wait_for_call(checkout, what, timeout=20.0):
    deadline = time.monotonic() + timeout
    while not any(line.startswith(what) for line in calls(checkout)):
        assert time.monotonic() < deadline, f"no {what!r} call in {timeout} s: {calls(checkout)}"
        time.sleep(0.05)


def test_two_makes_at_once_install_once(checkout):
    first = start_install(checkout, seconds=0.3)
    wait_for_call(checkout, "start -m venv")  # the first holds the lock now
    second = start_install(checkout, seconds=0.3)
    first_out, _ = first.communicate(timeout=30)
    second_out, _ = second.communicate(timeout=30)
    assert first.returncode == 0 and second.returncode == 0, first_out + second_out
    # Two stages, each under the lock: either make may take the second one once the first is
    # done, so what each says depends on the race; together they said both.
    both = first_out + second_out
    assert "waiting for another make" in second_out
    log = calls(checkout)
    assert [line.split(" ", 1)[1] for line in log[::2]] == [*RUNTIME, *DEV]
    # One at a time: every call ends before the next starts, and each is made once.
    assert [line.split(" ", 1)[0] for line in log] == ["start", "end"] * 5
    assert (checkout / ".venv" / ".installed-stamp").exists()
    assert "installing the test tools" in both  # said before the minutes it takes


def test_the_service_installs_its_own_pins_only_and_the_tests_add_theirs(checkout):
    """`make serve` needs requirements.lock only (a fast cold start); `make test` later adds
    requirements-dev.lock to the same .venv without installing the service again."""
    runtime = start_install(checkout, seconds=0.05, target="install-runtime")
    out, _ = runtime.communicate(timeout=30)
    assert runtime.returncode == 0, out
    assert [line.split(" ", 1)[1] for line in calls(checkout)[::2]] == RUNTIME
    assert not (checkout / ".venv" / ".installed-stamp").exists()
    (checkout / "calls.log").unlink()
    dev = start_install(checkout, seconds=0.05)
    out, _ = dev.communicate(timeout=30)
    assert dev.returncode == 0, out
    assert [line.split(" ", 1)[1] for line in calls(checkout)[::2]] == DEV


def test_an_install_killed_half_way_blocks_no_later_make(checkout):
    killed = start_install(checkout, seconds=60)
    wait_for_call(checkout, "start -m venv")
    os.killpg(killed.pid, signal.SIGKILL)  # make, the lock helper's shell, the interpreter
    killed.communicate(timeout=10)
    assert not (checkout / ".venv" / ".installed-stamp").exists()
    (checkout / "calls.log").unlink()
    again = start_install(checkout, seconds=0.05)
    try:
        out, _ = again.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(again.pid, signal.SIGKILL)
        pytest.fail("the next make waits for the lock of the killed one")
    assert again.returncode == 0, out
    assert len(calls(checkout)) == 10 and (checkout / ".venv" / ".installed-stamp").exists()
