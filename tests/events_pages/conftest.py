import pytest

from tests.service.serving import EVENTS_DIRECTOR_KEY
from tests.table.browser import ensure_chromium

DIRECTOR_KEY = EVENTS_DIRECTOR_KEY


@pytest.fixture(scope="module")
def events_service(hosted_events_service):
    """The service under gunicorn on the real Redis, with a director key: its base URL (the
    worker's one, tests/conftest.py)."""
    ensure_chromium()  # before a test starts: a missing browser fails at once, clearly
    return hosted_events_service[0]
