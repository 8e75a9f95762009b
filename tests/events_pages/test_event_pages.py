"""The live events' pages in Chromium against a real gunicorn and a real Redis, used as they
will be: a director on a laptop (a tablet-sized window) creates an event, registers eight
entrants, starts round 1, sees the seating with each table's link and QR code, enters the
results, closes the round and publishes; a player on a phone (390 × 844) opens the public page,
finds their table by name and sees the standings; nothing secret ever reaches the public page;
the Japanese pages show no English fixed words; every page works under its
Content-Security-Policy."""
from __future__ import annotations

import json
import re
import urllib.request

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from tests.events_pages.conftest import DIRECTOR_KEY
from tests.table.browser import TABLET, TABLET_PORTRAIT, csp_violations, start_browser
from tests.table.pagedriver import find, finds, no_sideways_scroll, tid, wait_for

NAMES = ["Aoki", "Baba", "Chiba", "Doi", "Endo", "Fujii", "Goto", "Hara"]


def _kept_events(driver) -> dict:
    return json.loads(driver.execute_script(
        "return localStorage.getItem('cardref.director.events') || '{}'"))


def _public_traffic(driver) -> str:
    """Everything the public page holds and asked for: its HTML now and every URL it fetched."""
    urls = driver.execute_script(
        "return performance.getEntriesByType('resource').map((e) => e.name).join('\\n')")
    return driver.page_source + "\n" + urls + "\n" + driver.current_url


@pytest.fixture(scope="module")
def director(events_service):
    driver = start_browser()
    yield driver
    driver.quit()  # asserts no Content-Security-Policy violation on the way out


@pytest.fixture(scope="module")
def phone(events_service):
    driver = start_browser(phone=True)
    yield driver
    driver.quit()


def _create_event(driver, base: str, name: str, *, minutes: int | None = None) -> str:
    driver.get(base + "/director")
    wait_for(driver, lambda d: find(d, "ev-create"), what="the create form")
    find(driver, "ev-name").send_keys(name)
    find(driver, "ev-key").send_keys(DIRECTOR_KEY)
    Select(find(driver, "ev-game")).select_by_value("daifugo")
    size = find(driver, "ev-table-size")
    size.clear()
    size.send_keys("4")
    rounds = find(driver, "ev-rounds")
    rounds.clear()
    rounds.send_keys("2")
    find(driver, "ev-tie-opponents_points").click()
    if minutes is not None:  # a round ends at the bell
        Select(find(driver, "ev-end")).select_by_value("time")
        field = find(driver, "ev-end-minutes")
        field.clear()
        field.send_keys(str(minutes))
    find(driver, "ev-create").click()
    # a loaded machine (the whole suite on 2 cores) has taken over 15 s to create and open one
    wait_for(driver, lambda d: find(d, "event-name").text == name, timeout=40,
             what="the event's own page")
    (event_id,) = [k for k, v in _kept_events(driver).items() if v["name"] == name]
    return event_id


def _seat_of(base: str, event_id: str, entrant: str) -> tuple[int, int] | None:
    """(table, seat from 1) where the current round seats `entrant`, from the public view."""
    with urllib.request.urlopen(f"{base}/v1/events/{event_id}", timeout=30) as answer:
        rounds = json.load(answer)["event"]["rounds"]
    for table in rounds[-1]["tables"]:
        for k, seat in enumerate(table["seats"], start=1):
            if seat["entrant"] == entrant:
                return table["number"], k
    return None


def test_a_director_runs_a_round_and_a_player_follows_it_on_a_phone(director, phone,
                                                                   events_service):
    base = events_service
    event_id = _create_event(director, base, "Autumn Daifugo Open", minutes=50)
    # the page says where events are kept and the address the phones open (this one is the
    # laptop's own loopback, which it warns of)
    assert "CARDREF_REDIS_URL" in find(director, "redis").text
    # this service listens on 127.0.0.1 only: no address a phone reaches, and the page says so
    assert find(director, "loopback").is_displayed()
    assert find(director, "public-link").get_attribute("href") == f"{base}/events/{event_id}"
    # the director token is kept in this browser, never in the page's address
    token = _kept_events(director)[event_id]["token"]
    assert token and token not in director.current_url

    for name in NAMES:
        find(director, "en-name").send_keys(name, Keys.ENTER)
        wait_for(director, lambda d, n=name: n in find(d, "entrants").text, what=f"{name} listed")
    assert len(finds(director, '[data-testid="entrants"] tbody tr')) == 8
    # search narrows the list
    find(director, "en-search").send_keys("fuj")
    wait_for(director, lambda d: len(finds(d, '[data-testid="entrants"] tbody tr')) == 1,
             what="the search")
    find(director, "en-search").send_keys(Keys.BACKSPACE * 3)
    wait_for(director, lambda d: len(finds(d, '[data-testid="entrants"] tbody tr')) == 8,
             what="the search cleared")
    # check-in toggles: out, and in again
    find(director, "checkin-hara").click()
    wait_for(director, lambda d: "not checked in" in find(d, "entrant-hara").text,
             what="Hara checked out")
    find(director, "checkin-hara").click()
    wait_for(director, lambda d: "not checked in" not in find(d, "entrant-hara").text,
             what="Hara checked in again")

    find(director, "round-start").click()
    wait_for(director, lambda d: find(d, "table-link-2"), what="round 1's seating and links")
    tables = {}
    for number in (1, 2):
        link = find(director, f"table-link-{number}").get_attribute("href")
        match = re.fullmatch(rf"{re.escape(base)}/table#event={event_id}&round=1&table={number}"
                             r"&token=([A-Za-z0-9_.-]+)", link)
        assert match, link
        tables[number] = match.group(1)
        wait_for(director, lambda d, n=number: d.find_elements(
            By.CSS_SELECTOR, f'{tid(f"table-qr-{n}")} svg'), what="the table's QR code")
    assert len(set(tables.values())) == 2 and token not in tables.values()
    # the round's clock runs: 50 minutes from the start, counting down
    assert re.fullmatch(r"Time left on the round's clock: (49:5\d|50:00)",
                        wait_for(director, lambda d: find(d, "clock").text, what="the clock"))
    # a tablet, in landscape (this window) and upright: nothing sticks out sideways
    width, viewport = no_sideways_scroll(director)
    assert width <= viewport
    director.set_window_size(*TABLET_PORTRAIT)
    try:
        width, viewport = no_sideways_scroll(director)
        assert width <= viewport
    finally:
        director.set_window_size(*TABLET)
    # the printed seating: the tables with their QR codes, nothing of the director's forms
    director.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        assert find(director, "table-qr-1").is_displayed()
        assert not find(director, "en-form").is_displayed()
        assert not find(director, "round-start").is_displayed()
    finally:
        director.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
    # a late entry (seated from round 2 on) and a substitute in table 1's seat 2 for round 1
    find(director, "en-name").send_keys("Ito", Keys.ENTER)
    wait_for(director, lambda d: "enters round 2" in find(d, "entrant-ito").text,
             what="the late entry")
    # (table 1's seat 2, unless the seating, drawn anew each run, put Chiba there: the phone
    # finds Chiba's table below, by Chiba's name)
    find(director, "sub-table").send_keys("1")
    find(director, "sub-seat").send_keys("3" if _seat_of(base, event_id, "chiba") == (1, 2)
                                          else "2")
    find(director, "sub-name").send_keys("Kato", Keys.ENTER)
    wait_for(director, lambda d: "Kato" in find(d, "table-1").text, what="the substitute")

    # the player's phone: the public page while the round is open
    phone.get(f"{base}/events/{event_id}")
    wait_for(phone, lambda d: find(d, "seating"), what="the public seating")
    find(phone, "find").send_keys("chi")
    found = wait_for(phone, lambda d: find(d, "found-chiba"), what="Chiba's table")
    seated_at = int(re.search(r"Table (\d)", found.text).group(1))
    assert "Chiba" in find(phone, f"table-{seated_at}").text
    open_round_page = _public_traffic(phone)
    width, viewport = no_sideways_scroll(phone)
    assert width <= viewport == 390

    # the director enters both tables' results (places) as the tables report them
    director.execute_script("window.confirm = () => true")
    for number in (1, 2):
        find(director, f"result-{number}").click()
        find(director, "result-places-only").click()  # not each Daifugo deal: places only
        inputs = finds(director, f'{tid("result-form")} input[type=number][data-testid^="place-"]')
        for place, field in enumerate(inputs, start=1):
            field.clear()
            field.send_keys(str(place))
        find(director, "result-save").click()
        wait_for(director, lambda d, n=number: "result in" in find(d, f"table-status-{n}").text,
                 what=f"table {number}'s result")
    find(director, "pen-reason").send_keys("late to the table")
    find(director, "pen-add").click()
    wait_for(director, lambda d: not find(d, "pen-reason").get_attribute("value"),
             what="the penalty")

    # the phone follows: each table's places, the standings
    wait_for(phone, lambda d: "1." in find(d, f"table-result-{seated_at}").text, timeout=15,
             what="the result on the public page")
    assert len(finds(phone, '[data-testid="standings"] tbody tr')) == 9  # the late entry too

    find(director, "round-close").click()
    wait_for(director, lambda d: "closed" in find(d, "event-status").text, what="round closed")
    document = json.loads(director.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        f"fetch('/v1/events/{event_id}/document', {{headers: {{Authorization: 'Bearer {token}'}}}})"
        ".then((r) => r.text()).then(done)"))
    seed = document["rounds"][0]["seed"]
    find(director, "publish").click()
    wait_for(director, lambda d: "Published" in find(d, "event-status").text, what="published")

    # after the round: the crosstable and the round's seed on the public page, and the
    # player's own page
    wait_for(phone, lambda d: seed in find(d, "seeds").text, timeout=15, what="the seed shown")
    crosstable = find(phone, "crosstable").text
    assert "Chiba" in crosstable and f"Table{seated_at}" in crosstable
    phone.get(f"{base}/events/{event_id}#entrant=chiba")
    assert "Chiba" in wait_for(phone, lambda d: find(d, "my-page"), what="my page").text
    # nothing secret on the public page, ever: no token, and the seed not before its round closed
    for secret in (token, *tables.values()):
        assert secret not in open_round_page and secret not in _public_traffic(phone)
    assert seed not in open_round_page


def _english_words_shown(driver, lang_module: str) -> list[str]:
    """The page's English fixed words (service/director/i18n.js) that its body shows."""
    english = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        f"import(new URL('{lang_module}', location.href).href).then((m) => done(m.words('en')))")
    japanese = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        f"import(new URL('{lang_module}', location.href).href).then((m) => done(m.words('ja')))")
    text = driver.find_element(By.TAG_NAME, "body").text
    # a word the Japanese keeps (the product's name, "Card Referee（カード審判）") is no label
    # left untranslated
    return [w for k, w in english.items()
            if len(w) > 3 and w not in japanese.get(k, "") and re.search(rf"\b{re.escape(w)}\b", text)]


def test_the_japanese_pages_show_no_english_fixed_words(events_service, director):
    base = events_service
    event_id = _create_event(director, base, "Kyoto Cup")
    find(director, "en-name").send_keys("佐藤", Keys.ENTER)
    wait_for(director, lambda d: "佐藤" in find(d, "entrants").text, what="an entrant")
    driver = start_browser(lang="ja")
    try:
        driver.get(base + "/director")
        wait_for(driver, lambda d: find(d, "ev-create"), what="the director's page")
        assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == "ja"
        assert find(driver, "ev-create").text == "大会を作成"
        assert _english_words_shown(driver, "director/i18n.js") == []
        # the event's own page, kept on this laptop (the director's browser's events, copied)
        kept = json.dumps(_kept_events(director))
        driver.execute_script("localStorage.setItem('cardref.director.events', arguments[0])",
                              kept)
        driver.get(base + "/director")
        wait_for(driver, lambda d: find(d, f"open-{event_id}"), what="the kept event").click()
        wait_for(driver, lambda d: "佐藤" in find(d, "entrants").text, what="the event in Japanese")
        assert find(driver, "round-start").text == "次の回戦を始める"
        assert _english_words_shown(driver, "director/i18n.js") == []
        assert driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "import(new URL('director/i18n.js', location.href).href)"
            ".then((m) => done(m.missingJapanese()))") == []
        driver.get(f"{base}/events/{event_id}")
        wait_for(driver, lambda d: find(d, "standings"), what="the public page")
        assert "順位表" in driver.find_element(By.TAG_NAME, "body").text
        assert _english_words_shown(driver, "../director/i18n.js") == []
        assert csp_violations(driver) == []
    finally:
        driver.quit()
