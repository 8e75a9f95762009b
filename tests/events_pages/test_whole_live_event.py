"""A whole live event as a venue runs it, in Chromium against a real gunicorn and a real Redis:
the director's page creates a 3-round Daifugo event (tables of 4, a round one deal) and starts
each round; 32 entrants at 8 tables, each table its own page (a tab with its own origin, as its
own phone would be) opened from the table's link, playing its deal through the page's buttons
or reporting its places; one table out of reach for a while, one reloaded mid-deal; the public
page follows the standings as the deals come in; rounds 2 and 3 are seated by Swiss from the
standings (re-derived with the engine); the document the director downloads at the end checks
clean with `card-referee event check`.

To fit the suite's budget the 32 entrants are registered through the API the director's page
uses (with the token the page keeps), not typed one by one, and in each round two tables (one
from round 2 on) play their deal through the page while the others report their places."""
from __future__ import annotations

import json
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from selenium.webdriver.support.ui import Select

from engine.events import parse_event, verify_seating
from engine.events.standings import as_json, standings
from tests.events_pages.conftest import DIRECTOR_KEY
from tests.service.serving import ROOT, api
from tests.table.browser import start_browser
from tests.table.pagedriver import (
    click,
    entries,
    find,
    finds,
    forget_matches,
    idle,
    play_deal,
    play_steps,
    saved_match,
    tid,
    wait_for,
    wait_present,
)
from tests.table.relay import Relay

pytestmark = pytest.mark.drill  # a minute of a whole event: not in make test-fast

ENTRANTS = [(f"e{i:02d}", f"Player {i:02d}") for i in range(1, 33)]
TABLES = range(1, 9)
OFFLINE, RELOADED = 1, 2  # the table out of reach for a while, the one reloaded mid-deal

# Every distinct standings table the public page showed, recorded by the page itself.
_WATCH_STANDINGS = """
window.__standingsSeen = [];
const note = () => {
  const table = document.querySelector('[data-testid="standings"]');
  const text = table ? table.innerText : "";
  const seen = window.__standingsSeen;
  if (text && seen[seen.length - 1] !== text) seen.push(text);
};
new MutationObserver(note).observe(document.body, {childList: true, subtree: true, characterData: true});
note();
"""


@pytest.fixture(scope="module")
def venue(events_service, tmp_path_factory):
    """One Chromium: the director's tab, the public page's tab and one tab per table, each
    table reached through a relay of its own (its own origin: its own storage, as on its own
    phone; the relay stopped is the table out of reach)."""
    downloads: Path = tmp_path_factory.mktemp("downloads")
    driver = start_browser(downloads=downloads)
    relays = {t: Relay(events_service).start() for t in TABLES}
    try:
        yield driver, relays, downloads
    finally:
        for relay in relays.values():
            relay.stop()
        driver.quit()  # asserts no Content-Security-Policy violation on the way out


def _kept_events(driver) -> dict:
    return json.loads(driver.execute_script(
        "return localStorage.getItem('cardref.director.events') || '{}'"))


def _create_event(driver, base: str, name: str) -> tuple[str, str]:
    driver.get(base + "/director")
    wait_for(driver, lambda d: find(d, "ev-create"), what="the create form")
    find(driver, "ev-name").send_keys(name)
    find(driver, "ev-key").send_keys(DIRECTOR_KEY)
    Select(find(driver, "ev-game")).select_by_value("daifugo")
    for field, value in (("ev-table-size", "4"), ("ev-rounds", "3"), ("ev-end-deals", "1"),
                         ("ev-same-deals", "1")):  # the same deal at every table
        find(driver, field).clear()
        find(driver, field).send_keys(value)
    Select(find(driver, "ev-end")).select_by_value("deals")
    Select(find(driver, "ev-seating")).select_by_value("swiss")
    find(driver, "ev-tie-opponents_points").click()
    find(driver, "ev-create").click()
    wait_for(driver, lambda d: find(d, "event-name").text == name, what="the event's own page")
    ((event_id, kept),) = [(k, v) for k, v in _kept_events(driver).items() if v["name"] == name]
    return event_id, kept["token"]


def _start_round(driver, number: int) -> dict[int, str]:
    """The round started from the director's page: each table's link, by table."""
    driver.execute_script("window.confirm = () => true")
    click(driver, "round-start")
    wait_for(driver, lambda d: all(f"&round={number}&" in find(d, f"table-link-{t}")
                                   .get_attribute("href") for t in TABLES), timeout=20,
             what=f"round {number}'s links")
    return {t: find(driver, f"table-link-{t}").get_attribute("href") for t in TABLES}


def _pushed(driver, timeout: float = 25) -> None:
    wait_for(driver, lambda d: idle(d) and find(d, "push").get_attribute("data-state") == "sent",
             timeout=timeout, what="the table's push to be sent")


def _dealt(driver) -> None:
    wait_for(driver, lambda d: idle(d) and finds(d, tid("title")) and finds(d, tid("hand")),
             timeout=20, what="the event's table, dealt")


def _report_places(driver, seats: list[str]) -> None:
    """The table reports its places through its page (seat order: 1st, 2nd, …)."""
    _dealt(driver)
    click(driver, "report-on")
    driver.switch_to.alert.accept()
    click(driver, "report-places-only")  # not each Daifugo deal: the places as they stand
    wait_present(driver, "report-form")
    for place, entrant in enumerate(seats, start=1):
        Select(find(driver, f"report-place-{entrant}")).select_by_value(str(place))
    click(driver, "report-send")


def test_a_whole_three_round_event_with_eight_table_pages(venue, events_service):
    started = time.monotonic()
    driver, relays, downloads = venue
    base = events_service
    director = driver.current_window_handle
    event_id, token = _create_event(driver, base, "Whole Live Open")
    # the entrants, through the API the page uses, with the token it keeps
    version = api(base, "GET", f"/v1/events/{event_id}")["version"]
    for entrant, name in ENTRANTS:
        version = api(base, "POST", f"/v1/events/{event_id}/entrants",
                      {"id": entrant, "name": name}, token, **{"If-Match": f'"{version}"'})["version"]
    driver.get(base + "/director")
    wait_for(driver, lambda d: find(d, f"open-{event_id}"), what="the kept event").click()
    wait_for(driver, lambda d: len(finds(d, '[data-testid="entrants"] tbody tr')) == 32,
             what="the 32 entrants on the director's page")

    # the public page, in its own tab, recording every standings table it shows
    driver.switch_to.new_window("tab")
    public = driver.current_window_handle
    driver.get(f"{base}/events/{event_id}")
    wait_for(driver, lambda d: find(d, "standings"), what="the public page")
    driver.execute_script(_WATCH_STANDINGS)
    tabs: dict[int, str] = {}
    for t in TABLES:
        driver.switch_to.new_window("tab")
        tabs[t] = driver.current_window_handle

    for number in (1, 2, 3):
        driver.switch_to.window(director)
        links = _start_round(driver, number)
        doc = api(base, "GET", f"/v1/events/{event_id}/document", token=token)
        rnd = doc["rounds"][number - 1]
        assert rnd["method"] == "swiss" and len(rnd["tables"]) == 8 and not rnd.get("byes")
        seats = {t["number"]: [s["entrant"] for s in t["seats"]] for t in rnd["tables"]}
        # every table's page opens from its link, at its own origin
        for t in TABLES:
            driver.switch_to.window(tabs[t])
            forget_matches(driver, relays[t].base)  # nothing kept (the last round's match)
            driver.get(links[t].replace(base, relays[t].base, 1))
        playing = (OFFLINE, RELOADED) if number == 1 else ()

        # the playing tables start their deal; the offline one enters a move out of reach
        for t in playing:
            driver.switch_to.window(tabs[t])
            _dealt(driver)
            assert find(driver, "event-title").text == \
                f"Event Whole Live Open · round {number} · table {t}"
            match = saved_match(driver)
            assert match["players"] == seats[t]
            assert match["event"]["token"], {k: v for k, v in match["event"].items()}
            play_steps(driver, 3)
        if number == 1:
            driver.switch_to.window(tabs[OFFLINE])
            _pushed(driver)
            relays[OFFLINE].stop()
            legal = [b for b in finds(driver, f'{tid("legal-actions")} button.legal')
                     if b.is_enabled()]
            driver.execute_script("arguments[0].click()", legal[0])
            wait_for(driver, lambda d: idle(d) and finds(d, tid("queue")), what="the queued entry")
            assert find(driver, "push").get_attribute("data-state") == "waiting"
            # the reloaded table: mid-deal, the page reloaded, the same table resumes
            driver.switch_to.window(tabs[RELOADED])
            _pushed(driver)
            driver.refresh()
            wait_for(driver, lambda d: idle(d) and entries(d) == 3, what="the reloaded table")
            assert find(driver, "event-title").text.endswith(f"table {RELOADED}")

        # the other tables report their places meanwhile
        for t in TABLES:
            if t not in playing:
                driver.switch_to.window(tabs[t])
                _report_places(driver, seats[t])
        if number == 1:
            relays[OFFLINE].start()  # back in reach: the queue is sent, then the push
            driver.switch_to.window(tabs[OFFLINE])
            wait_for(driver, lambda d: idle(d) and not finds(d, tid("queue")), timeout=25,
                     what="the queued entry sent")
        for t in playing:
            driver.switch_to.window(tabs[t])
            play_deal(driver)
        for t in TABLES:
            driver.switch_to.window(tabs[t])
            _pushed(driver)

        # every table's result is in the event, once
        doc = api(base, "GET", f"/v1/events/{event_id}/document", token=token)
        results = {t["number"]: t["result"] for t in doc["rounds"][number - 1]["tables"]}
        assert sorted(results) == list(TABLES)
        for t in playing:
            record = results[t]["record"]
            assert record["players"] == seats[t]
            assert record["deals"][0]["result"]["status"] == "finished"
            driver.switch_to.window(tabs[t])  # every entry the page made, in the record
            assert len(record["deals"][0]["actions"]) == \
                len(saved_match(driver)["deals"][0]["steps"])
        for t in TABLES:
            if t not in playing:
                assert results[t]["reported"]["places"] == {e: k for k, e in
                                                            enumerate(seats[t], start=1)}
        # the standings are the engine's, from the document, and the public page shows them
        expected = as_json(standings(parse_event(doc)))
        view = api(base, "GET", f"/v1/events/{event_id}")
        assert view["standings"] == expected
        assert all(line["played"] == number for line in expected)
        names = dict(ENTRANTS)
        order = [names[line["entrant"]] for line in expected]
        driver.switch_to.window(public)
        wait_for(driver, lambda d: [re.search(r"Player \d\d", row.text).group(0) for row in
                                    finds(d, '[data-testid="standings"] tbody tr')] == order,
                 timeout=15, what=f"round {number}'s standings on the public page")

        driver.switch_to.window(director)
        driver.execute_script("window.confirm = () => true")
        click(driver, "round-close")
        wait_for(driver, lambda d: api(base, "GET", f"/v1/events/{event_id}")["event"]["rounds"]
                 [number - 1].get("seed"), what=f"round {number} closed")
        # each round seats again from its revealed seed: rounds 2 and 3 by Swiss from the
        # standings before them
        closed = api(base, "GET", f"/v1/events/{event_id}/document", token=token)
        assert verify_seating(closed, number)

    # the public page followed the deals as they came in, not only at each round's end
    driver.switch_to.window(public)
    seen = driver.execute_script("return window.__standingsSeen")
    assert len(seen) >= 6, seen
    # round 1's recorded tables on the public page: their deals' seeds, and each table's whole
    # record a link away, the very record the document holds
    first = api(base, "GET", f"/v1/events/{event_id}/document", token=token)["rounds"][0]
    recorded = {t["number"]: t["result"]["record"] for t in first["tables"]
                if "record" in t.get("result", {})}
    assert sorted(recorded) == sorted((OFFLINE, RELOADED))
    for t, record in recorded.items():
        link = wait_for(driver, lambda d, t=t: finds(d, tid(f"record-1-{t}")), timeout=15,
                        what=f"table {t}'s record linked")[0].get_attribute("href")
        with urllib.request.urlopen(link, timeout=10) as answer:
            assert json.load(answer) == record
        shown = find(driver, "seeds").text
        assert all(d["deal"]["seed"] in shown for d in record["deals"] if "seed" in d["deal"])

    # the document the director downloads at the end checks clean
    driver.switch_to.window(director)
    wait_for(driver, lambda d: "closed" in find(d, "event-status").text, what="the last close")
    click(driver, "download")
    path = downloads / f"{event_id}.event.json"
    wait_for(driver, lambda d: path.exists() and path.stat().st_size > 0, what="the download")
    document = json.loads(path.read_text())
    checked = subprocess.run([sys.executable, "-m", "service.cli", "event", "check", "--json",
                              str(path)], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert json.loads(checked.stdout)["consistent"]
    assert len(document["rounds"]) == 3
    assert [r["method"] for r in document["rounds"]] == ["swiss"] * 3
    elapsed = time.monotonic() - started
    assert elapsed < 120, f"the whole event took {elapsed:.0f} s"
