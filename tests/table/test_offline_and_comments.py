"""The table page out of reach of the service — a reload opens the saved match from the page's
service worker, says the service is unreachable and queues what is entered, then sends it — and
the referee's comment on an entry, kept in the browser, written into the match record and read
back from it."""
from __future__ import annotations

import json
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from tests.table.conftest import REFEREE_KEY
from tests.table.pagedriver import (
    click,
    enter_man_table,
    entries,
    find,
    finds,
    idle,
    open_page,
    pick_hand,
    play_steps,
    saved_match,
    set_up,
    tap_play,
    tid,
    wait_for,
    wait_present,
)
from tests.table.relay import Relay


def post(base: str, path: str, body: dict, key: str | None = None) -> dict:
    headers = {"Content-Type": "application/json"}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), headers=headers)
    with urllib.request.urlopen(request) as resp:
        return json.load(resp)


def referee_entry(driver, action_type: str, seat: str) -> None:
    form = wait_present(driver, "referee-form")
    if form.get_attribute("open") is None:
        driver.find_element(By.CSS_SELECTOR, f'{tid("referee-form")} > summary').click()
    Select(find(driver, "ref-type")).select_by_value(action_type)
    Select(find(driver, "ref-player")).select_by_value(seat)
    click(driver, "ref-send")


def wait_for_service_worker(driver, timeout: float = 40) -> None:
    """Until the page's service worker controls it (its files and startup answers are kept).
    An active worker controls the pages loaded after it, and claims the open one; when Chrome
    has not handed it the open page (seen about once in ten runs), a reload does — the match
    resumes from what the page saved."""
    controlled = "return !!navigator.serviceWorker.controller"
    try:
        wait_for(driver, lambda d: d.execute_script(
            "return navigator.serviceWorker.getRegistration().then("
            "(r) => !!(r && r.active && r.active.state === 'activated'))"),
            timeout, what="the service worker to be active")
        if not driver.execute_script(controlled):
            driver.refresh()
        wait_for(driver, lambda d: d.execute_script(controlled), timeout,
                 what="the service worker")
    except Exception as exc:
        state = driver.execute_async_script("""const done = arguments[0];
          navigator.serviceWorker.getRegistration().then((r) => done(JSON.stringify(r ? {scope: r.scope,
            installing: r.installing && r.installing.state, waiting: r.waiting && r.waiting.state,
            active: r.active && r.active.state} : null)), (e) => done(String(e)));""")
        raise AssertionError(f"the page's service worker never took control: {state}") from exc


def test_a_reload_with_the_service_unreachable_opens_the_match_and_queues_until_it_answers(
        browser, table_service):
    # The page is reached through a relay that can be stopped: nothing listening, as when the
    # service itself is down; started again on the same port (same origin, same saved match).
    relay = Relay(table_service).start()
    try:
        open_page(browser, relay.base)
        set_up(browser, "daifugo", key=REFEREE_KEY)
        play_steps(browser, 3)
        wait_for_service_worker(browser)
        before = saved_match(browser)
        hand = find(browser, "hand").text
        relay.stop()

        browser.refresh()
        wait_for(browser, lambda d: finds(d, tid("title")) and finds(d, tid("offline-hint")),
                 what="the saved match, opened with the service out of reach")
        assert entries(browser) == 3
        assert find(browser, "hand").text == hand  # the hand as last seen, kept with the match
        net = find(browser, "net")
        assert net.is_displayed() and "unreachable" in net.text.lower()
        referee_entry(browser, "warning", "p2")   # entered all the same: it waits
        assert "1" in wait_present(browser, "queue").text
        assert saved_match(browser)["pending"][0]["type"] == "warning"

        relay.start()
        wait_for(browser, lambda d: idle(d) and entries(d) == 4 and not finds(d, tid("queue"))
                 and finds(d, tid("legal-actions")), timeout=20, what="the queue to be sent")
        assert not find(browser, "net").is_displayed()
        after = saved_match(browser)
        assert after["pending"] == []
        steps = after["deals"][0]["steps"]
        # kept as they were (a step's state is kept while it is its deal's last: store.js)
        assert [{k: v for k, v in s.items() if k != "state"} for s in steps[:3]] == \
            [{k: v for k, v in s.items() if k != "state"} for s in before["deals"][0]["steps"]]
        # the state the page went on from is the service's answer to the queued entry
        last_before = before["deals"][0]["steps"][2]["state"]
        expected = post(table_service, "/v1/validate", {"state": last_before, "action": steps[3]["action"]},
                        REFEREE_KEY)
        assert steps[3]["action"]["type"] == "warning" and steps[3]["state"] == expected["state"]
    finally:
        relay.stop()


def test_a_comment_on_an_entry_is_kept_exported_and_imported(browser, table_service):
    open_page(browser, table_service)
    set_up(browser, "man", seats=["ann", "bob"], physical=True)
    wait_present(browser, "deck-picker")
    pick_hand(browser, "ann", ["H9", "C4", "SK"])
    pick_hand(browser, "bob", ["H5", "C6", "S9"])
    enter_man_table(browser, "H7", "bob")
    click(browser, "deal-physical")
    click(browser, "act-seat-ann")
    wait_for(browser, lambda d: idle(d) and "ann" in find(d, "to-act").text)
    tap_play(browser, "H9")
    wait_for(browser, lambda d: idle(d) and entries(d) == 1, what="ann's play")
    referee_entry(browser, "warning", "bob")
    wait_for(browser, lambda d: idle(d) and entries(d) == 2, what="the warning")
    notes = {0: "played before the H7 was turned", 1: "遅延行為"}
    for index, text in notes.items():
        click(browser, f"comment-{index}")
        wait_present(browser, "comment-input").send_keys(text)
        click(browser, "comment-save")
        assert wait_present(browser, f"entry-comment-{index}").text == text
    steps = saved_match(browser)["deals"][0]["steps"]
    assert [s.get("comment") for s in steps] == [notes[0], notes[1]]

    for old in browser.downloads.glob("*.json"):
        old.unlink()
    click(browser, "export")
    record = wait_for(browser, lambda d: d.execute_script("return window.__lastRecord"), what="the record")
    assert [a.get("comment") for a in record["deals"][0]["actions"]] == [notes[0], notes[1]]
    assert record["deals"][0]["actions"][1]["action"]["type"] == "warning"
    check = post(table_service, "/v1/records/check", record)
    assert check["consistent"] is True, check["discrepancy"]
    assert check["digest"] == record["digest"]  # the comments are part of what the digest seals

    downloaded = wait_for(browser, lambda d: list(d.downloads.glob("*.json")), what="the download")[0]
    open_page(browser, table_service)  # nothing kept: the set-up page
    browser.execute_script("arguments[0].closest('details').open = true", find(browser, "import-file"))
    find(browser, "import-file").send_keys(str(downloaded))
    wait_for(browser, lambda d: idle(d) and entries(d) == 2, what="the imported match")
    assert find(browser, "entry-comment-0").text == notes[0]
    assert find(browser, "entry-comment-1").text == notes[1]
    assert [s.get("comment") for s in saved_match(browser)["deals"][0]["steps"]] == [notes[0], notes[1]]


def test_the_service_worker_is_served_with_its_cache_version_which_a_changed_page_changes(
        tmp_path, monkeypatch):
    """A deployed update is never stuck behind an old copy: the service worker carries a version
    made of the package's and the engine's versions and of every file of the page, so a change to
    any of them is a new script, which the browser installs (dropping the old cache)."""
    import shutil

    from service import pages
    from service.app import create_app

    answer = create_app().test_client().get("/table/sw.js")
    assert answer.status_code == 200 and answer.mimetype == "text/javascript"
    assert answer.headers["Service-Worker-Allowed"] == "/table"  # its scope: the page itself
    script = answer.get_data(as_text=True)
    version, files = pages.table_files_version()
    assert f'const CACHE_VERSION = "{version}";' in script
    assert "__CACHE_VERSION__" not in script and "__PAGE_FILES__" not in script
    assert {"app.js", "api.js", "table.css", "index.html"} <= set(files) and "sw.js" not in files
    assert json.dumps(list(files)) in script

    copy = tmp_path / "table"
    shutil.copytree(pages.TABLE_DIR, copy)
    monkeypatch.setattr(pages, "TABLE_DIR", str(copy))
    pages.table_files_version.cache_clear()
    try:
        assert pages.table_files_version()[0] == version  # the same files: the same version
        (copy / "app.js").write_text((copy / "app.js").read_text() + "\n// changed\n")
        pages.table_files_version.cache_clear()
        assert pages.table_files_version()[0] != version
        monkeypatch.setattr(pages, "ENGINE_VERSION", "next")
        (copy / "app.js").write_text((copy / "app.js").read_text().replace("\n// changed\n", ""))
        pages.table_files_version.cache_clear()
        assert pages.table_files_version()[0] != version
    finally:
        pages.table_files_version.cache_clear()
