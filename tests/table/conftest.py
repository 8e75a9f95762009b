from pathlib import Path

import pytest

from tests.service.serving import gunicorn_service
from tests.table.browser import csp_violations, ensure_chromium, start_browser

REFEREE_KEY = "table-test-referee-key"


@pytest.fixture(scope="session")
def table_service(tmp_path_factory):
    """The service under gunicorn, with a referee key (plain states): the page's base URL."""
    ensure_chromium()  # before anything starts: a missing browser fails at once, clearly
    tmp: Path = tmp_path_factory.mktemp("table-service")
    with gunicorn_service(tmp, CARDREF_REFEREE_KEYS=REFEREE_KEY, CARDREF_ACCESS_LOG="off") as base:
        yield base


@pytest.fixture(scope="session")
def browser(tmp_path_factory, table_service):
    """One Chromium for the session (a tablet-sized window), closed before the service stops:
    its kept-alive connections would hold gunicorn's graceful stop."""
    downloads = tmp_path_factory.mktemp("downloads")
    driver = start_browser(downloads=downloads)
    driver.downloads = downloads
    yield driver
    driver.quit()


@pytest.fixture(autouse=True)
def no_csp_violation(request):
    """Every page a test of the session's browser opened worked under its Content-Security-
    Policy: the console shows no violation (docs/security.md, "Headers")."""
    yield
    if "browser" in request.fixturenames:
        found = csp_violations(request.getfixturevalue("browser"))
        assert not found, f"Content-Security-Policy violations: {found}"


@pytest.fixture(scope="module")
def phone(table_service):
    """A phone held upright (390 × 844, Chrome's device emulation), for a module's tests."""
    driver = start_browser(phone=True)
    yield driver
    driver.quit()
