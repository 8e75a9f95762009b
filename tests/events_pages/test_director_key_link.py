"""The director's page opened from the link `card-referee serve` prints (the director key in its
fragment, which the browser never sends): the key is in the create form with nothing typed, gone
from the address bar, and kept nowhere in the browser. In Chromium against a real gunicorn."""
from __future__ import annotations

import json

import pytest

from tests.events_pages.conftest import DIRECTOR_KEY
from tests.table.browser import start_browser
from tests.table.pagedriver import find, wait_for


@pytest.fixture(scope="module")
def director(events_service):
    driver = start_browser()
    yield driver
    driver.quit()  # asserts no Content-Security-Policy violation on the way out


def test_the_printed_link_fills_in_the_director_key_and_leaves_no_trace_of_it(events_service,
                                                                             director):
    director.get(f"{events_service}/director#key={DIRECTOR_KEY}")
    wait_for(director, lambda d: find(d, "ev-create"), what="the create form")
    assert find(director, "ev-key").get_property("value") == DIRECTOR_KEY
    assert director.current_url == f"{events_service}/director"  # out of the address bar
    find(director, "ev-name").send_keys("Venue Night")
    find(director, "ev-create").click()  # created with the key nobody typed
    wait_for(director, lambda d: find(d, "event-name").text == "Venue Night",
             what="the event's own page")
    stored = director.execute_script(
        "return JSON.stringify([Object.entries(localStorage), Object.entries(sessionStorage)])")
    assert DIRECTOR_KEY not in stored and json.loads(stored)[1] == []
    assert DIRECTOR_KEY not in director.page_source


def test_without_the_link_the_key_field_is_empty(events_service, director):
    director.get(f"{events_service}/director")
    wait_for(director, lambda d: find(d, "ev-create"), what="the create form")
    assert find(director, "ev-key").get_property("value") == ""
