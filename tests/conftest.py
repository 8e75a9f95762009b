import os

import pytest
from hypothesis import HealthCheck, settings

from tests.redis_server import RedisProcess, answers
from tests.service.serving import EVENTS_DIRECTOR_KEY, gunicorn_service

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


@pytest.fixture(scope="session")
def hosted_events_service(tmp_path_factory, redis_url):
    """The service under gunicorn with hosted events (the real Redis, EVENTS_DIRECTOR_KEY) and
    its access log, where every request's path shows: (base URL, log path). One a test worker,
    shared by the browser tests of events (tests/events_pages/, tests/table/test_event_tables.py):
    each makes events of its own, and starting a service for each of their modules cost each
    a start and a graceful stop. A browser reaches it through a module's Relay or quits at its
    module's end: a kept-alive connection left open would hold the graceful stop."""
    tmp = tmp_path_factory.mktemp("hosted-events-service")
    with gunicorn_service(tmp, CARDREF_REDIS_URL=redis_url,
                          CARDREF_DIRECTOR_KEYS=EVENTS_DIRECTOR_KEY, CARDREF_ACCESS_LOG="on") as base:
        yield base, tmp / "gunicorn.log"


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
    workerinput = getattr(config, "workerinput", None)
    if workerinput is not None and not any(arg.startswith("--dist") or arg == "-d"
                                           for arg in workerinput.get("mainargv", ())):
        # A worker parses the command line again and sets its options before this hook runs
        # (xdist's setup_config): without --dist it took "load" and would not name each
        # test's group in its node id, which is what the controller's loadgroup reads.
        config.option.loadgroup = True


def pytest_sessionfinish(session, exitstatus):
    """A run on xdist workers that ends with tests collected but never run fails. pytest 9.2
    with pytest-xdist 3.8 ran 4 of the contract fuzz's 127 tests and reported a pass; a
    scheduler that loses tests must not pass for a clean run."""
    if exitstatus != 0 or session.config.pluginmanager.getplugin("dsession") is None or \
            session.config.getoption("maxfail") or session.config.getoption("keyword") or \
            session.config.getoption("markexpr"):
        return
    reporter = session.config.pluginmanager.getplugin("terminalreporter")
    ran = {report.nodeid for kind in ("passed", "failed", "skipped", "error", "xfailed",
                                      "xpassed") for report in reporter.stats.get(kind, [])}
    if len(ran) < session.testscollected:
        reporter.write_line(f"only {len(ran)} of the {session.testscollected} tests collected "
                            "ran: the workers' scheduler lost the rest", red=True, bold=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
