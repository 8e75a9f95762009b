"""Two tabs of one browser on the same match (service/table/tabs.js; docs/table-page.md "Two tabs
on one match"): the tab that opened it owns it, the other shows it read-only and follows what
the owner enters; "Take over here" hands it over; no entry is lost to the two tabs' saves, and
of an event's table only the owner pushes its record."""
from __future__ import annotations

import pytest

from tests.service.serving import answer
from tests.table.pagedriver import (
    click,
    entries,
    find,
    finds,
    forget_matches,
    idle,
    open_page,
    play_steps,
    saved_match,
    set_up,
    tid,
    wait_for,
)
from tests.table.relay import Relay
from tests.table.test_event_tables import Event, open_table, pushed

SEATS = ["north", "east", "south", "west"]


@pytest.fixture
def two_tabs(browser):
    """The session's browser with a second tab (same profile: the same IndexedDB), closed after
    the test: (the first tab's handle, the second's)."""
    first = browser.current_window_handle
    browser.switch_to.new_window("tab")
    second = browser.current_window_handle
    browser.switch_to.window(first)
    try:
        yield first, second
    finally:
        for handle in browser.window_handles:
            if handle != first:
                browser.switch_to.window(handle)
                browser.close()
        browser.switch_to.window(first)


def read_only(driver) -> bool:
    return bool(finds(driver, tid("read-only")))


def wait_owner(driver, what: str) -> None:
    wait_for(driver, lambda d: idle(d) and finds(d, tid("title")) and not read_only(d), what=what)


def wait_read_only(driver, steps: int, what: str) -> None:
    """Until the tab shows the match read-only with `steps` entries."""
    wait_for(driver, lambda d: idle(d) and read_only(d) and entries(d) == steps, what=what)


def editable(driver) -> list[str]:
    """The controls of the match that can still be used (the read-only notice's aside)."""
    return driver.execute_script("""
      return [...document.querySelectorAll('#app button, #app input, #app select, #app textarea')]
        .filter((el) => !el.disabled && !el.closest('[data-testid="read-only"]'))
        .map((el) => el.dataset.testid || el.tagName);""")


def test_a_second_tab_follows_read_only_and_takes_over_without_losing_an_entry(browser, table_service, two_tabs):
    first, second = two_tabs
    open_page(browser, table_service)
    set_up(browser, "daifugo", seats=SEATS)
    play_steps(browser, 2)

    browser.switch_to.window(second)
    browser.get(table_service + "/table")
    wait_read_only(browser, 2, "the second tab, read-only")
    notice = find(browser, "read-only").text
    assert "open in another tab" in notice and find(browser, "take-over").is_enabled()
    # nothing that changes the match can be used here (the export and a new match can)
    assert set(editable(browser)) <= {"export", "sheet-service", "new-match"}
    assert finds(browser, f'{tid("legal-actions")} button.legal')  # shown, off
    click(browser, "lang-switch")  # the notice in Japanese too
    wait_for(browser, lambda d: idle(d) and "別のタブで開かれています" in find(d, "read-only").text
             and find(d, "take-over").text == "ここで引き継ぐ", what="the notice in Japanese")
    click(browser, "lang-switch")
    wait_for(browser, lambda d: idle(d) and find(d, "take-over").text == "Take over here", what="English")

    # an entry made in the first tab shows in the second
    browser.switch_to.window(first)
    assert not read_only(browser)
    play_steps(browser, 1)
    browser.switch_to.window(second)
    wait_read_only(browser, 3, "the first tab's entry in the second")

    # "Take over here": the second owns the match, the first turns read-only
    click(browser, "take-over")
    wait_owner(browser, "the second tab to own the match")
    browser.switch_to.window(first)
    wait_read_only(browser, 3, "the first tab, read-only")
    browser.switch_to.window(second)
    play_steps(browser, 2)
    browser.switch_to.window(first)
    wait_read_only(browser, 5, "the second tab's entries in the first")

    # reloaded, both: the first is still read-only, the second still the owner, and the match
    # has every entry of both tabs
    browser.refresh()
    wait_read_only(browser, 5, "the first tab reloaded")
    browser.switch_to.window(second)
    browser.refresh()
    wait_for(browser, lambda d: idle(d) and not read_only(d) and entries(d) == 5, what="the second tab reloaded")
    play_steps(browser, 1)
    kept = saved_match(browser)["deals"][0]["steps"]
    assert len(kept) == 6
    browser.switch_to.window(first)
    wait_read_only(browser, 6, "the last entry in the first tab")

    # a new match from the read-only tab: the match stays the other tab's, listed as open there,
    # and cannot be deleted from here (the owner would write it again without its first deals)
    click(browser, "new-match")
    browser.switch_to.alert.accept()
    wait_for(browser, lambda d: idle(d) and finds(d, tid("kept-0")), what="the kept matches")
    assert "open in another tab" in find(browser, "kept-0").text
    assert not find(browser, "kept-delete-0").is_enabled()
    click(browser, "kept-open-0")
    wait_read_only(browser, 6, "the match opened again, read-only")

    # the owner's tab closed: its lock goes with it, and the first tab takes over at once
    browser.switch_to.window(second)
    browser.close()
    browser.switch_to.window(first)
    click(browser, "take-over")
    wait_owner(browser, "the first tab to own the match again")
    play_steps(browser, 1)
    assert len(saved_match(browser)["deals"][0]["steps"]) == 7


@pytest.fixture(scope="module")
def event_base(hosted_events_service):
    """The service with hosted events, reached through a relay stopped at the module's end (the
    browser's kept-alive connections would hold gunicorn's graceful stop)."""
    relay = Relay(hosted_events_service[0]).start()
    try:
        yield relay.base
    finally:
        relay.stop()


def pushes(driver) -> int:
    """The record pushes this tab's page has made (the whole record, then appends)."""
    urls = driver.execute_script("return performance.getEntriesByType('resource').map((e) => e.name)")
    return len([u for u in urls if u.endswith("/result") or u.endswith("/record")])


def stored_actions(event: Event, table: int) -> int:
    doc = answer(event.base, "GET", f"/v1/events/{event.id}/document", token=event.director)[0]
    result = next(t for t in doc["rounds"][0]["tables"] if t["number"] == table)["result"]
    return len(result["record"]["deals"][0]["actions"]) if result else 0


def test_of_an_event_table_open_twice_only_the_owner_pushes(browser, event_base, two_tabs):
    first, second = two_tabs
    event = Event(event_base)
    open_table(browser, event, 1)
    play_steps(browser, 2)
    pushed(browser)

    # the table's link opened again in a second tab: read-only, and it pushes nothing
    browser.switch_to.window(second)
    browser.get(event.link(1))
    wait_read_only(browser, 2, "the second tab of the table, read-only")
    browser.execute_script("performance.setResourceTimingBufferSize(10000)")
    assert pushes(browser) == 0
    browser.switch_to.window(first)
    play_steps(browser, 1)
    pushed(browser)
    assert stored_actions(event, 1) == 3
    browser.switch_to.window(second)
    wait_read_only(browser, 3, "the first tab's entry in the second")
    assert pushes(browser) == 0

    # taken over: the second tab pushes what it enters, the first nothing more
    click(browser, "take-over")
    wait_owner(browser, "the second tab to own the table")
    browser.switch_to.window(first)
    wait_read_only(browser, 3, "the first tab, read-only")
    before = pushes(browser)
    browser.switch_to.window(second)
    play_steps(browser, 2)
    pushed(browser)
    assert pushes(browser) >= 1
    assert stored_actions(event, 1) == 5
    browser.switch_to.window(first)
    wait_read_only(browser, 5, "the second tab's entries in the first")
    assert pushes(browser) == before
    assert find(browser, "push").get_attribute("data-state") == "sent"  # as the owner kept it


def test_without_web_locks_every_tab_enters_as_before(browser, table_service, two_tabs):
    # A browser without the Web Locks API (an old one, or a page served over plain HTTP off
    # localhost: not a secure context) coordinates nothing: each tab owns what it opens.
    # (two tabs of their own: the script stays with a tab, and the session's first tab goes on)
    _, first = two_tabs
    browser.switch_to.window(first)
    browser.switch_to.new_window("tab")
    second = browser.current_window_handle
    for handle in (first, second):
        browser.switch_to.window(handle)
        browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {
            "source": "Object.defineProperty(Navigator.prototype, 'locks', { get: () => undefined });"})
    browser.switch_to.window(first)
    open_page(browser, table_service)
    set_up(browser, "daifugo", seats=SEATS)
    play_steps(browser, 1)
    browser.switch_to.window(second)
    browser.get(table_service + "/table")
    wait_for(browser, lambda d: idle(d) and entries(d) == 1, what="the match in the second tab")
    assert not read_only(browser)
    play_steps(browser, 1)
    assert len(saved_match(browser)["deals"][0]["steps"]) == 2


def test_a_tab_that_does_not_let_go_has_the_match_taken_from_it(browser, table_service, two_tabs):
    # An owner that does not answer "Take over here" (a hung page, a tab frozen in the
    # background) has the lock taken from it after a while (tabs.js STEAL_AFTER_MS); a tab whose
    # lock is taken shows the match read-only from then on. The other owner here is a page of the
    # same origin that takes the match's lock and never answers.
    first, second = two_tabs
    open_page(browser, table_service)
    set_up(browser, "daifugo", seats=SEATS)
    play_steps(browser, 2)
    match_id = saved_match(browser)["id"]

    browser.switch_to.window(second)
    browser.get(table_service + "/")
    browser.execute_script("""navigator.locks.request(arguments[0], { steal: true }, () => new Promise(() => {}));""",
                           f"cardref.table.match.{match_id}")
    browser.switch_to.window(first)
    wait_read_only(browser, 2, "the page whose lock was taken, read-only")

    click(browser, "take-over")
    wait_for(browser, lambda d: "Asking the other tab" in find(d, "read-only").text, what="the request")
    wait_for(browser, lambda d: idle(d) and not read_only(d), timeout=25, what="the match taken back")
    play_steps(browser, 1)
    assert len(saved_match(browser)["deals"][0]["steps"]) == 3


def test_a_table_link_opened_twice_at_once_makes_one_match(browser, event_base, two_tabs):
    # Two tabs opened from the table's link at the same moment (a double tap on it): one of them
    # makes the table's match, the other finds it and follows it read-only.
    first, _ = two_tabs
    event = Event(event_base)
    forget_matches(browser, event_base)
    before = set(browser.window_handles)
    browser.execute_script("window.open(arguments[0]); window.open(arguments[0]);", event.link(2))
    wait_for(browser, lambda d: len(set(d.window_handles) - before) == 2, what="the two tabs")
    tabs = sorted(set(browser.window_handles) - before)
    shown = []
    for handle in tabs:
        browser.switch_to.window(handle)
        wait_for(browser, lambda d: idle(d) and finds(d, tid("title")) and finds(d, tid("hand")), timeout=20,
                 what="the table, dealt")
        shown.append((read_only(browser), saved_match(browser)["id"]))
    assert sorted(ro for ro, _ in shown) == [False, True]  # one owner, one follower
    assert shown[0][1] == shown[1][1]  # of one match
    kept = browser.execute_async_script(
        "const done = arguments[0]; import(new URL('table/store.js', location.href).href)"
        ".then((s) => s.listMatches()).then((l) => done(l.length));")
    assert kept == 1
