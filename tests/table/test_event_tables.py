"""Tables of a hosted event (docs/hosted-events.md) played on the table page as a venue uses it:
the director makes the event through the API, each table's page opens from its link (the token
in the fragment), sets itself up on the table's seating and the round's committed deals, and
pushes its record as it goes — through its queue while the service is out of reach, resumed
after a reload — so that the event document and the public standings fill themselves."""
from __future__ import annotations

import pytest

from tests.service.serving import EVENTS_DIRECTOR_KEY as DIRECTOR_KEY, answer
from tests.table.browser import start_browser
from tests.table.pagedriver import (
    click,
    entries,
    find,
    finds,
    forget_matches,
    idle,
    next_deal,
    play_deal,
    play_steps,
    saved_match,
    tid,
    wait_for,
    wait_present,
)
from tests.table.relay import Relay


@pytest.fixture(scope="module")
def event_service(hosted_events_service):
    """The service with hosted events (the worker's one, tests/conftest.py) and its access log,
    where every request's path shows. Reached through a relay, stopped at the module's end: the
    browsers' kept-alive connections would hold gunicorn's graceful stop."""
    upstream, log = hosted_events_service
    relay = Relay(upstream).start()
    try:
        yield relay.base, log
    finally:
        relay.stop()


class Event:
    """A Daifugo event of 8 entrants at 2 tables of 4, one deal a round (or `deals`), the same at
    every table, made and seated by its director through the API."""

    def __init__(self, base: str, deals: int = 1):
        self.base = base
        doc = {"format": "card-referee/event", "format_version": 1, "name": "Browser Open",
               "system": {"game": "daifugo", "table_size": 4, "rounds": 1, "same_deals": deals,
                          "round_end": {"kind": "deals", "deals": deals}, "event_points": [3, 2, 1, 0],
                          "seating": "random"},
               "entrants": [{"id": f"e{i}", "name": f"Entrant {i}"} for i in range(8)]}
        made, _ = answer(base, "POST", "/v1/events", doc, DIRECTOR_KEY)
        self.id, self.director = made["id"], made["director_token"]
        started, _ = answer(base, "POST", f"/v1/events/{self.id}/rounds", {}, self.director,
                         **{"If-Match": f'"{made["version"]}"'})
        self.tokens = {t["number"]: t["token"] for t in started["tables"]}

    def link(self, table: int, base: str | None = None) -> str:
        return (f"{base or self.base}/table#event={self.id}&round=1&table={table}"
                f"&token={self.tokens[table]}")

    def document(self) -> dict:
        return answer(self.base, "GET", f"/v1/events/{self.id}/document", token=self.director)[0]

    def public(self) -> dict:
        return answer(self.base, "GET", f"/v1/events/{self.id}")[0]

    def seats(self, table: int) -> list[str]:
        rnd = self.public()["event"]["rounds"][0]
        return [s["player"] for s in next(t for t in rnd["tables"] if t["number"] == table)["seats"]]


def open_table(driver, event: Event, table: int, base: str | None = None) -> None:
    forget_matches(driver, base or event.base)
    driver.get(event.link(table, base))
    wait_for(driver, lambda d: idle(d) and finds(d, tid("title")) and finds(d, tid("hand")),
             timeout=20, what="the event's table, dealt")
    # every request the page makes stays listed (the URLs are read at the end)
    driver.execute_script("performance.setResourceTimingBufferSize(10000)")


def pushed(driver, state: str = "sent"):
    """Until every change is pushed (the page's push state) and the page is idle."""
    return wait_for(driver, lambda d: idle(d) and find(d, "push").get_attribute("data-state") == state,
                    timeout=20, what=f"the push to be {state}")


def test_two_tables_open_from_their_links_play_and_their_records_fill_the_event(browser, event_service):
    base, log = event_service
    event = Event(base)
    phone = start_browser(phone=True)
    try:
        for driver, table in ((browser, 1), (phone, 2)):
            open_table(driver, event, table)
            # the token left the address at once, and the page says which table it is
            assert event.tokens[table] not in driver.current_url
            assert "token" not in driver.execute_script("return location.href")
            assert find(driver, "event-title").text == f"Event Browser Open · round 1 · table {table}"
            match = saved_match(driver)
            assert match["players"] == event.seats(table)
            assert match["event"]["token"] == event.tokens[table]  # kept with the match
            # the round's committed deal, dealt from its seed
            committed = event.document()["rounds"][0]["deals"][0]["seed_commitment"]
            assert match["deals"][0]["answer"]["seed_commitment"] == committed
            assert find(driver, "commitment").text == committed
            assert "Entrant" in find(driver, "seats").text  # seats by the entrants' names

        # table 1 reloaded mid-deal: the same table resumes and keeps pushing
        play_steps(browser, 4)
        pushed(browser)
        browser.refresh()
        wait_for(browser, lambda d: idle(d) and entries(d) == 4, what="the resumed table")
        assert find(browser, "event-title").text.endswith("table 1")
        # table 2's link opened again mid-deal (its QR code scanned again): the same match
        play_steps(phone, 3)
        pushed(phone)
        phone.get(event.link(2))
        wait_for(phone, lambda d: idle(d) and "token" not in d.execute_script("return location.href")
                 and entries(d) == 3, what="table 2 again")
        assert saved_match(phone)["deals"][0]["steps"][2]["action"]["player"]
        for driver in (browser, phone):
            play_deal(driver)
            pushed(driver)
            assert finds(driver, tid("round-deals-played")) and not finds(driver, tid("next-deal"))

        doc = event.document()
        for table in (1, 2):
            result = next(t for t in doc["rounds"][0]["tables"] if t["number"] == table)["result"]
            record = result["record"]
            assert record["players"] == event.seats(table)
            assert record["deals"][0]["result"]["status"] == "finished"
            check, _ = answer(base, "POST", "/v1/records/check", record)
            assert check["consistent"], check["discrepancy"]
        # both tables played the same deal
        seeds = {t["result"]["record"]["deals"][0]["deal"]["seed"] for t in doc["rounds"][0]["tables"]}
        assert len(seeds) == 1
        public = event.public()
        assert all(t["result"]["progress"]["deals_finished"] == 1 for t in public["event"]["rounds"][0]["tables"])
        standings = public["standings"]
        assert sorted(line["entrant"] for line in standings) == [f"e{i}" for i in range(8)]
        assert all(line["played"] == 1 for line in standings)
        assert sum(line["event_points"] for line in standings) >= 2 * 3  # each table's first place

        # the token travelled in a header only: in no URL the page asked for, nor any the
        # service logged
        appended = []
        for driver in (browser, phone):
            urls = driver.execute_script("return performance.getEntriesByType('resource').map((e) => e.name)")
            assert [u for u in urls if u.endswith("/result")]  # the first push: the whole record
            appended += [u for u in urls if u.endswith("/record")]
            assert not [u for u in urls if any(tok in u for tok in event.tokens.values())]
        assert appended  # each later push only what the record adds
        logged = log.read_text()
        assert f"/v1/events/{event.id}/rounds/1/tables/1/result" in logged
        for token in event.tokens.values():
            assert token.split(".")[1] not in logged
    finally:
        phone.quit()


def test_a_table_out_of_reach_queues_its_pushes_and_sends_them_once_back(browser, event_service):
    base, _ = event_service
    event = Event(base)
    relay = Relay(base).start()
    try:
        open_table(browser, event, 1, relay.base)
        play_steps(browser, 2)
        pushed(browser)
        relay.stop()
        # out of reach: an entry waits in the page's queue, and so does the push
        legal = [b for b in finds(browser, f'{tid("legal-actions")} button.legal') if b.is_enabled()]
        browser.execute_script("arguments[0].click()", legal[0])
        wait_for(browser, lambda d: idle(d) and finds(d, tid("queue")), what="the queued entry")
        queued = len(saved_match(browser)["pending"])
        assert queued >= 1
        assert find(browser, "push").get_attribute("data-state") == "waiting"
        relay.start()
        wait_for(browser, lambda d: idle(d) and not finds(d, tid("queue"))
                 and find(d, "push").get_attribute("data-state") == "sent", timeout=25,
                 what="the queue and the push to be sent")
        match = saved_match(browser)
        record = next(t for t in event.document()["rounds"][0]["tables"] if t["number"] == 1)["result"]["record"]
        assert len(record["deals"][0]["actions"]) == len(match["deals"][0]["steps"]) == 2 + queued
        # each push stored once: the event's version is its creation, the round, and one per push
        version = event.public()["version"]
        assert version == 2 + match["event"]["push"]["seq"]

        # the round closed (its table tokens revoked): the next push is refused and says why;
        # the match stays, its export at hand
        answer(base, "POST", f"/v1/events/{event.id}/rounds/1/close", {}, event.director,
            **{"If-Match": f'"{version}"'})
        click(browser, "comment-0")
        wait_present(browser, "comment-input").send_keys("late")
        click(browser, "comment-save")
        pushed(browser, "refused")
        assert find(browser, "push").get_attribute("data-code") == "event_token_invalid"
        assert "refused" in find(browser, "push").text
        assert saved_match(browser)["deals"][0]["steps"][0]["comment"] == "late"
        assert find(browser, "export").is_displayed()
    finally:
        relay.stop()


def test_a_table_without_a_referee_reports_its_places_deal_by_deal(browser, event_service):
    from selenium.webdriver.support.ui import Select

    base, _ = event_service
    event = Event(base)
    open_table(browser, event, 2)
    click(browser, "report-on")
    browser.switch_to.alert.accept()
    click(browser, "report-places-only")  # Daifugo reports each deal unless the table says so
    entrants = event.seats(2)  # individuals: each seat its entrant
    for deal in (1, 2):
        wait_present(browser, "report-form")
        for place, entrant in enumerate(reversed(entrants) if deal == 2 else entrants, start=1):
            Select(find(browser, f"report-place-{entrant}")).select_by_value(str(place))
        click(browser, "report-send")
        pushed(browser)
        reported = next(t for t in event.document()["rounds"][0]["tables"]
                        if t["number"] == 2)["result"]["reported"]
        order = list(reversed(entrants)) if deal == 2 else entrants
        assert reported["places"] == {e: i + 1 for i, e in enumerate(order)}
        assert reported["note"] == f"After deal {deal}"
    assert len(finds(browser, f'{tid("reports")} > li')) == 2
    click(browser, "lang-switch")  # the push's state in Japanese
    wait_for(browser, lambda d: idle(d) and "結果を送りました" in find(d, "push").text, what="Japanese")
    assert find(browser, "event-title").text == "大会 Browser Open · 第1回戦 · 2卓"
    click(browser, "lang-switch")
    wait_for(browser, lambda d: idle(d) and find(d, "event-title").text.startswith("Event"), what="English")
    # a place left out is said, and nothing is sent
    before = event.public()["version"]
    Select(find(browser, f"report-place-{entrants[0]}")).select_by_value("")
    click(browser, "report-send")
    assert wait_present(browser, "problem").text
    assert event.public()["version"] == before


@pytest.fixture(scope="module", params=["signed", "sealed"])
def trusted_events(request, tmp_path_factory, redis_url):
    """A service with hosted events whose states are signed, or sealed (and signed), with a
    referee key configured that no page here is given, and its own browser, closed before the
    service stops: (mode, base, driver)."""
    from service.sealing import new_key
    from tests.service.serving import gunicorn_service

    sealing = {"CARDREF_SEAL_KEYS": new_key()} if request.param == "sealed" else {}
    with gunicorn_service(tmp_path_factory.mktemp(f"{request.param}-events"),
                          CARDREF_REDIS_URL=redis_url, CARDREF_DIRECTOR_KEYS=DIRECTOR_KEY,
                          CARDREF_ACCESS_LOG="off", CARDREF_REFEREE_KEYS="nobody-here-has-it",
                          CARDREF_STATE_SECRET="event-table-secret-" + "x" * 20, **sealing) as base:
        driver = start_browser()
        try:
            yield request.param, base, driver
        finally:
            driver.quit()


def test_a_table_of_a_trusted_event_deals_its_same_deals_without_the_referee_key(trusted_events):
    """Signed or sealed states: the page names each of the round's same deals (`event_deal`, its
    table token in X-Event-Token) and the service deals it from the committed seed, not as a
    referee act — no key is asked, none is in the page; under sealing the token read only the
    commitments. The record it pushes checks clean and its deals are the committed ones."""
    mode, base, driver = trusted_events
    event = Event(base, deals=2)
    open_table(driver, event, 1)
    assert not finds(driver, tid("key-prompt"))
    match = saved_match(driver)
    assert match["key"] == ""
    committed = [d["seed_commitment"] for d in event.document()["rounds"][0]["deals"]]
    assert [d["seed_commitment"] for d in match["event"]["deals"]] == committed
    assert all(("seed" in d) == (mode == "signed") for d in match["event"]["deals"])
    for k in (1, 2):
        match = saved_match(driver)
        deal = match["deals"][k - 1]
        assert deal["request"]["event_deal"] == {"event": event.id, "round": 1, "deal": k}
        assert deal["answer"]["seed_commitment"] == committed[k - 1]
        assert find(driver, "commitment").text == committed[k - 1]
        play_deal(driver)
        pushed(driver)
        if k == 1:
            next_deal(driver)
            assert not finds(driver, tid("key-prompt"))
    record = next(t for t in event.document()["rounds"][0]["tables"]
                  if t["number"] == 1)["result"]["record"]
    assert [d["deal"]["seed_commitment"] for d in record["deals"]] == committed
    check, _ = answer(base, "POST", "/v1/records/check", record)
    assert check["consistent"], check["discrepancy"]
