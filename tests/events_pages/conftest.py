from pathlib import Path

import pytest

from tests.service.serving import gunicorn_service
from tests.table.browser import ensure_chromium

DIRECTOR_KEY = "events-pages-director-key"


@pytest.fixture(scope="module")
def events_service(tmp_path_factory, redis_url):
    """The service under gunicorn on the real Redis, with a director key: its base URL."""
    ensure_chromium()  # before anything starts: a missing browser fails at once, clearly
    tmp: Path = tmp_path_factory.mktemp("events-service")
    with gunicorn_service(tmp, CARDREF_REDIS_URL=redis_url, CARDREF_DIRECTOR_KEYS=DIRECTOR_KEY,
                          CARDREF_ACCESS_LOG="off") as base:
        yield base
