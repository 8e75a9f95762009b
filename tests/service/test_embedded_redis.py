"""`card-referee serve` without CARDREF_REDIS_URL: a Redis of its own, with its data kept in an
append-only file under CARDREF_DATA_DIR, gone when serve stops, and a director key kept beside
it when none is set; with CARDREF_REDIS_URL none of either."""
from __future__ import annotations

import ipaddress
import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import pytest
import redis
from hypothesis import assume, given, settings, strategies as st

from service.addresses import lan_addresses, reachable_links
from service.app import create_app
from service.config import Settings, embedded_redis_wanted
from tests.redis_server import free_port
from tests.sizing import examples

ROOT = Path(__file__).resolve().parents[2]


def _serve_env(tmp: Path, **env: str) -> dict:
    base = {k: v for k, v in os.environ.items()
            if k not in ("CARDREF_REDIS_URL", "CARDREF_EMBEDDED_REDIS", "CARDREF_DATA_DIR",
                         "CARDREF_DIRECTOR_KEYS")}
    return {**base, "HOME": str(tmp), "PROMETHEUS_MULTIPROC_DIR": str(tmp),
            "PYTHONPATH": str(ROOT), "CARDREF_LOG_FORMAT": "text", **env}


def _serve_command(port: int) -> list[str]:
    return [sys.executable, "-m", "service.cli", "serve", "--bind", f"127.0.0.1:{port}",
            "--workers", "1"]


@contextmanager
def serving(tmp: Path, **env: str) -> Iterator[tuple[str, subprocess.Popen, Path]]:
    """`card-referee serve` on a free loopback port: (its base URL, its process, its log)."""
    log_path = tmp / f"serve-{time.monotonic_ns()}.log"
    for _attempt in range(3):
        port = free_port()
        with open(log_path, "wb") as log:
            proc = subprocess.Popen(_serve_command(port), cwd=ROOT, env=_serve_env(tmp, **env),
                                    stdout=log, stderr=subprocess.STDOUT)
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while f"Listening at: {base} ({proc.pid})" not in log_path.read_text(errors="replace"):
            if "Connection in use" in log_path.read_text(errors="replace"):
                _stop(proc)
                break
            assert proc.poll() is None and time.monotonic() < deadline, log_path.read_text()
            time.sleep(0.05)
        else:
            break
    else:
        raise AssertionError("no free port could be bound in 3 tries")
    try:
        yield base, proc, log_path
    finally:
        _stop(proc)


def _stop(proc: subprocess.Popen) -> int:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
    return proc.returncode


def _readyz(base: str) -> tuple[dict, str]:
    deadline = time.monotonic() + 20
    while True:
        try:
            with urllib.request.urlopen(base + "/readyz", timeout=2) as resp:
                text = resp.read().decode()
                return json.loads(text), text
        except OSError:
            assert time.monotonic() < deadline, "the service did not answer /readyz"
            time.sleep(0.1)


def _create_event(base: str, key: str) -> int:
    """POST /v1/events with `key` as the director key: the answer's status."""
    from tests.events.helpers import event

    request = urllib.request.Request(
        base + "/v1/events", data=json.dumps(event(4, rounds=1)).encode(), method="POST",
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {key}"})
    try:
        with urllib.request.urlopen(request, timeout=10) as resp:
            return resp.status
    except urllib.error.HTTPError as err:
        return err.code


def _embedded_client(redis_dir: Path) -> redis.Redis:
    """A client of the embedded Redis, from the config file serve wrote (port, password)."""
    conf = (redis_dir / "redis.conf").read_text()
    port = int(re.search(r"^port (\d+)$", conf, re.M).group(1))
    password = re.search(r'^requirepass "([^"]+)"$', conf, re.M).group(1)
    return redis.Redis(host="127.0.0.1", port=port, password=password, socket_timeout=2)


def _redis_children(pid: int) -> list[int]:
    """The redis-server processes whose parent is `pid` (Linux /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        name, rest = text[text.index("(") + 1:text.rindex(")")], text[text.rindex(")") + 2:]
        if name.startswith("redis-server") and int(rest.split()[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


@pytest.mark.drill  # real servers: left out of `make test-fast`
def test_serve_without_a_redis_url_embeds_a_redis_that_keeps_its_data_and_stops_with_it(tmp_path):
    # a folder with a space and quotes: the Redis config file must read it whole
    data = tmp_path / 'venue "A" data'
    redis_dir = data / "redis"
    env = {"CARDREF_DATA_DIR": str(data), "CARDREF_SEQUENCE": "strict",
           "CARDREF_STATE_SECRET": "embedded-test"}
    with serving(tmp_path, **env) as (base, proc, log_path):
        ready, text = _readyz(base)
        assert ready["redis"] == {"kind": "embedded", "data_dir": str(redis_dir)}
        assert ready["status"] == "ready" and ready["cache"]["redis"] == "ok"
        assert ready["sequence_durability"] == "aof"  # strict sequencing on it, kept in an AOF
        client = _embedded_client(redis_dir)
        password = client.connection_pool.connection_kwargs["password"]
        assert password not in text and password not in log_path.read_text()
        assert f"its data is kept in {redis_dir}" in log_path.read_text()
        with pytest.raises(redis.AuthenticationError):  # NOAUTH: a password protects it
            redis.Redis(port=client.connection_pool.connection_kwargs["port"]).get("x")
        client.set("cardref:embedded-test", "kept")
        redis_pid = client.info("server")["process_id"]
        assert _redis_children(proc.pid) == [redis_pid]
        assert oct(redis_dir.stat().st_mode & 0o777) == "0o700"
        assert oct((redis_dir / "redis.conf").stat().st_mode & 0o777) == "0o600"
        # no CARDREF_DIRECTOR_KEYS: serve made a director key, said it with the director's page,
        # and the workers take it (an event is created with it)
        key_file = data / "director-key"
        key = key_file.read_text().strip()
        assert oct(key_file.stat().st_mode & 0o777) == "0o600"
        assert (f"Director's page: {base}/director#key={key} — director key: {key} "
                f"(kept in {key_file})") in log_path.read_text()
        assert _create_event(base, key) == 201 and _create_event(base, "a guess") == 403
        assert key not in text
        # one serve per data folder: a second one says so and exits non-zero
        second = subprocess.run(_serve_command(free_port()), cwd=ROOT, capture_output=True,
                                text=True, env=_serve_env(tmp_path, **env), timeout=60)
        assert second.returncode != 0
        assert "another card-referee serve keeps its data in" in second.stderr
        client.close()
    assert proc.returncode == 0
    assert _gone(redis_pid), "the embedded redis-server outlived serve"
    with serving(tmp_path, **env) as (base, proc, log_path):
        assert _readyz(base)[0]["redis"]["kind"] == "embedded"
        client = _embedded_client(redis_dir)
        assert client.get("cardref:embedded-test") == b"kept"  # read back from the AOF
        client.close()
        assert f"director key: {key} " in log_path.read_text()  # the same key after a restart


@pytest.mark.drill
def test_serve_with_a_redis_url_uses_it_and_starts_no_redis_of_its_own(redis_url, tmp_path):
    data = tmp_path / "data"
    with serving(tmp_path, CARDREF_REDIS_URL=redis_url, CARDREF_DATA_DIR=str(data)) as (
            base, proc, log_path):
        ready, text = _readyz(base)
        assert ready["redis"] == {"kind": "configured"} and ready["cache"]["redis"] == "ok"
        assert redis_url not in text
        assert _redis_children(proc.pid) == []
        assert (f"Director's page: {base}/director — no director key is set "
                "(CARDREF_DIRECTOR_KEYS)") in log_path.read_text()
    assert not data.exists()  # nor a director key kept there


def test_serve_that_cannot_start_its_redis_says_why_and_exits_non_zero(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    done = subprocess.run(_serve_command(free_port()), cwd=ROOT, capture_output=True, text=True,
                          env=_serve_env(tmp_path, CARDREF_DATA_DIR=str(blocker / "data")),
                          timeout=60)
    assert done.returncode != 0
    assert "cannot make the data folder" in done.stderr and "CARDREF_DATA_DIR" in done.stderr
    assert "Listening at" not in done.stderr + done.stdout


def test_embedding_is_the_default_without_a_redis_url_and_can_be_turned_off():
    assert embedded_redis_wanted({})
    assert not embedded_redis_wanted({"CARDREF_REDIS_URL": "redis://127.0.0.1:6379/0"})
    for off in ("0", "off", "false", "no"):
        assert not embedded_redis_wanted({"CARDREF_EMBEDDED_REDIS": off})


def test_readyz_names_the_redis_in_use_never_its_url(redis_url):
    url = redis_url.replace("redis://", "redis://:secret-password@", 1) if "@" not in redis_url \
        else redis_url
    answers = {
        "none": Settings(metrics=False),
        "configured": Settings(metrics=False, redis_url=url),
        "embedded": Settings(metrics=False, redis_url=url, redis_embedded_dir="/srv/data/redis"),
    }
    for kind, chosen in answers.items():
        body = create_app(chosen).test_client().get("/readyz").get_data(as_text=True)
        assert json.loads(body)["redis"]["kind"] == kind
        assert "secret-password" not in body
    embedded = create_app(answers["embedded"]).test_client().get("/readyz").get_json()
    assert embedded["redis"] == {"kind": "embedded", "data_dir": "/srv/data/redis"}


@given(st.lists(st.ip_addresses(v=4), max_size=4), st.integers(1, 65535))
@settings(max_examples=examples(50))
def test_a_service_on_every_address_is_reached_at_each_lan_address(addresses, port):
    hosts = [str(a) for a in addresses]
    assert reachable_links("0.0.0.0", port, hosts) == [f"http://{h}:{port}/" for h in hosts]


@given(st.ip_addresses(v=4), st.integers(1, 65535))
@settings(max_examples=examples(50))
def test_a_service_on_one_address_is_reached_there_unless_it_is_loopback(address, port):
    assume(not address.is_unspecified)  # 0.0.0.0: every address (the test above)
    links = reachable_links(str(address), port)
    if address.is_loopback or address.is_link_local:
        assert links == []
    else:
        assert links == [f"http://{address}:{port}/"]


def test_lan_addresses_are_ipv4_addresses_other_devices_may_reach():
    for address in lan_addresses():
        ip = ipaddress.ip_address(address)
        assert ip.version == 4 and not ip.is_loopback and not ip.is_link_local
