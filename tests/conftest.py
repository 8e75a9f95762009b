import os

import pytest
from hypothesis import HealthCheck, settings

from tests.redis_server import RedisProcess, answers

# Property tests: deterministic in CI (derandomize) so a run is repeatable; `dev` explores more.
settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(scope="session")
def redis_url():
    """A real Redis: CARDREF_TEST_REDIS_URL, else 127.0.0.1:6379 when it answers, else one
    started here for the session."""
    url = os.environ.get("CARDREF_TEST_REDIS_URL") or "redis://127.0.0.1:6379/0"
    if answers(url):
        yield url
        return
    server = RedisProcess().start()
    try:
        yield server.url
    finally:
        server.close()


@pytest.fixture
def own_redis():
    """A Redis this test owns and may stop and restart."""
    server = RedisProcess().start()
    try:
        yield server
    finally:
        server.close()


def pytest_configure(config):
    """Under xdist, tests marked with one xdist_group run on one worker (--dist loadgroup, which
    spreads every other test as --dist load does): a file whose tests share an expensive
    module fixture (a Redis Cluster, two services) builds it once."""
    if getattr(config.option, "dist", None) == "load":
        config.option.dist = "loadgroup"
