"""Fault drills against the real service under gunicorn (its default worker model) on loopback:
50 slow clients, a worker SIGKILLed mid-load, Redis stopped mid-load (issue #13).

The drills live in bench/fault_drills.py (which runs them at full length, with figures in the
README); here they run short, with the timeouts shrunk so a drill outlasts them.
"""
import os

import pytest

from bench.fault_drills import (
    free_port,
    redis_kill_drill,
    slow_clients_drill,
    start_service,
    stop_service,
    validate_body,
    worker_kill_drill,
)

WORKER_TIMEOUT = 2  # gunicorn's heartbeat timeout: the drill trickles for longer than this
BODY_TIMEOUT = 3.0

pytestmark = pytest.mark.drill  # real servers: left out of `make test-fast`


@pytest.fixture
def service(tmp_path):
    def start(**extra):
        env = {k: v for k, v in os.environ.items() if not k.startswith("CARDREF_")}
        env.update({"HOME": str(tmp_path), "PROMETHEUS_MULTIPROC_DIR": str(tmp_path),
                    "CARDREF_STATE_SECRET": "drill-test",
                    "CARDREF_WORKER_TIMEOUT": str(WORKER_TIMEOUT),
                    "CARDREF_BODY_TIMEOUT_SECONDS": str(BODY_TIMEOUT), **extra})
        port = free_port()
        started.append(start_service(port, env))
        return started[-1], port

    started = []
    yield start
    for proc in started:
        stop_service(proc)


def test_fifty_slow_clients_do_not_delay_healthz_and_are_cut_off(service):
    proc, port = service()
    body = validate_body(port)
    result = slow_clients_drill(port, clients=50, duration=BODY_TIMEOUT + 2.5, interval=0.5,
                                probe_every=0.05, probe_timeout=5.0, validate=body)
    assert result.healthz_errors == 0, result.summary()
    assert len(result.healthz) >= 20, result.summary()
    assert max(result.healthz) < 1.0, result.summary()
    assert result.validate_status == 200 and result.validate_seconds < 1.0, result.summary()
    # nobody holds a connection forever: every slow body is cut off at the body deadline
    assert result.still_open == 0, result.summary()
    assert all(BODY_TIMEOUT - 0.5 <= t <= BODY_TIMEOUT + 1.5 for t in result.cut_off_after), result.summary()
    assert proc.poll() is None


def test_a_worker_killed_mid_load_is_replaced_and_requests_keep_succeeding(service):
    proc, port = service()
    result = worker_kill_drill(proc, port, validate_body(port), threads=4, before=1.5, after=2.5)
    assert result.ok_before > 0 and result.ok_after > 0, result.summary()
    assert result.failed <= 4 and result.failed_after_recovery == 0, result.summary()
    assert result.respawned_after is not None and result.respawned_after < 2.0, result.summary()
    assert result.workers_after == 2, result.summary()


def test_redis_stopped_mid_load_requests_keep_succeeding_then_it_is_used_again(service, own_redis):
    proc, port = service(CARDREF_REDIS_URL=own_redis.url, CARDREF_REDIS_RETRY_SECONDS="0.2")
    result = redis_kill_drill(port, validate_body(port), own_redis, threads=4, before=1.0, down=1.5)
    assert result.ok > 0 and result.failed == 0, result.summary()
    assert result.readyz_while_down == "degraded", result.summary()
    assert result.readyz_after_restart == "ready", result.summary()
