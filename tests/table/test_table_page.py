"""The table page in a real browser: served from the package and linked from the index, resumed
after a reload, refusals with their rule linked, the referee's ledger, undo, the queue while the
service is out of reach, the Japanese interface, and the match record exported, checked, shown
as a score sheet and imported again."""
from __future__ import annotations

import json
import re
import urllib.request

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from engine import adjudicate, records
from tests.table.browser import console, start_browser
from tests.table.conftest import REFEREE_KEY
from tests.table.pagedriver import (
    click,
    enter_man_table,
    enter_other,
    entries,
    find,
    finds,
    idle,
    open_page,
    pick_hand,
    play_deal,
    play_steps,
    saved_match,
    set_up,
    tap_listed,
    tap_play,
    tid,
    wait_for,
    wait_present,
)


def test_the_index_links_the_table_page_served_from_the_package(table_service):
    with urllib.request.urlopen(table_service + "/") as resp:
        assert 'href="/table"' in resp.read().decode()
    for path in ("/table", "/table/app.js", "/table/table.css", "/table/i18n.js"):
        with urllib.request.urlopen(table_service + path) as resp:
            assert resp.status == 200
    # no script, style or font from anywhere but the service itself
    with urllib.request.urlopen(table_service + "/table") as resp:
        page = resp.read().decode()
    assert not re.search(r'(src|href)="(https?:)?//', page)


def test_a_reload_mid_deal_resumes_where_it_was(browser, table_service):
    open_page(browser, table_service)
    set_up(browser, "guandan", key=REFEREE_KEY)
    commitment = wait_present(browser, "commitment").text
    play_steps(browser, 5)
    before = saved_match(browser)
    hand = find(browser, "hand").text
    browser.refresh()
    wait_for(browser, lambda d: idle(d) and finds(d, tid("legal-actions")), what="the resumed deal")
    assert entries(browser) == 5
    assert find(browser, "commitment").text == commitment
    assert find(browser, "hand").text == hand
    assert saved_match(browser)["deals"] == before["deals"]
    play_steps(browser, 3)  # and it goes on from there
    assert len(saved_match(browser)["deals"][0]["steps"]) == 8


def test_an_illegal_entry_shows_its_refusal_and_links_its_rule(browser, table_service):
    open_page(browser, table_service)
    set_up(browser, "man", seats=["ann", "bob"])
    wait_present(browser, "legal-actions")
    enter_other(browser, "end_turn", "ann")
    refusal = wait_present(browser, "refusal")
    link = find(browser, "refusal-rule")
    assert link.text == "man 2.4"  # the opening race: only a matching play
    href = link.get_attribute("href")
    assert href.endswith("/v1/games/man/rules.en.html#2.4")
    with urllib.request.urlopen(href.split("#")[0]) as resp:
        assert 'id="2.4"' in resp.read().decode()
    assert "opening" in refusal.text.lower() or "race" in refusal.text.lower()
    assert entries(browser) == 0  # nothing entered: the state is as it was


def test_a_finished_match_offers_no_next_deal_and_says_its_final_standing(browser, table_service):
    """Man's match of one game ends with its first deal (a chombo in referee mode): its
    `match_finished` event says so though the deal still answers the match's values."""
    open_page(browser, table_service)
    set_up(browser, "man", seats=["ann", "bob"], preset="referee", options={"match_games": "1"})
    wait_present(browser, "legal-actions")
    enter_other(browser, "end_turn", "ann")
    wait_present(browser, "result")
    assert not finds(browser, tid("next-deal"))
    banner = find(browser, "match-over")
    assert "bob" in find(browser, "match-winner").text
    standing = [li.text for li in banner.find_elements(By.CSS_SELECTOR, f'{tid("standing")} > li')]
    assert standing[0].startswith("bob") and "+1" in standing[0]
    assert standing[1].startswith("ann") and "-1" in standing[1]


def test_a_deal_result_is_said_in_words_with_each_team_named_by_its_seats(browser, table_service):
    """Guandan's deltas name teams: the result shows the team's seats (the view's `teams`), and
    its events as short lines, not their fields dumped."""
    open_page(browser, table_service)
    set_up(browser, "guandan", key=REFEREE_KEY, options={"violations": '"referee"'})
    wait_present(browser, "legal-actions")
    browser.find_element(By.CSS_SELECTOR, f'{tid("referee-form")} > summary').click()
    Select(find(browser, "ref-type")).select_by_value("forfeit")
    Select(find(browser, "ref-player")).select_by_value("p2")
    click(browser, "ref-send")
    result = wait_present(browser, "result").text
    assert "p1 & p3: +3" in find(browser, "deal-deltas").text
    assert "team1" not in result and "team2" not in result and "{" not in result
    lines = [li.text for li in finds(browser, f'{tid("result-lines")} > li')]
    assert any(line.startswith("p2") and "forfeit" in line for line in lines), lines


def test_a_new_match_starts_without_the_previous_ones_sheet_or_seat(browser, table_service):
    def start():
        set_up(browser, "man", seats=["ann", "bob", "cy"], preset="referee")
        wait_present(browser, "legal-actions")

    open_page(browser, table_service)
    start()
    browser.find_element(By.CSS_SELECTOR, f'{tid("referee-form")} > summary').click()
    Select(find(browser, "ref-player")).select_by_value("cy")
    enter_other(browser, "end_turn", "ann")  # a chombo in referee mode: the deal is over
    click(browser, "sheet-service")
    wait_present(browser, "service-sheet")
    browser.execute_script("window.confirm = () => true")
    click(browser, "new-match")
    wait_present(browser, "start")
    start()
    assert not finds(browser, tid("service-sheet"))
    assert find(browser, "referee-form").get_attribute("open") is None
    assert Select(find(browser, "ref-player")).first_selected_option.get_attribute("value") == "ann"


def test_set_up_radios_beside_their_labels_a_referee_mode_switch_and_the_key_kept(browser, table_service):
    open_page(browser, table_service)
    Select(find(browser, "game")).select_by_value("man")  # Man's violations: reject or chombo
    assert not finds(browser, tid("referee-mode"))
    Select(find(browser, "game")).select_by_value("daifugo")
    radio = find(browser, "mode-server")
    label = radio.find_element(By.XPATH, "..")
    assert radio.size["width"] < 40 and label.size["height"] < 2 * max(radio.size["height"], 30)
    assert radio.location["x"] < label.location["x"] + 40  # the circle first, its words beside it
    find(browser, "referee-mode").click()  # at the top, not among the options
    set_up(browser, "daifugo", key=REFEREE_KEY)
    wait_present(browser, "legal-actions")
    assert saved_match(browser)["options"]["violations"] == "referee"
    browser.execute_script("window.confirm = () => true")
    click(browser, "new-match")
    # the key is kept for the session: not asked again for the next match
    assert wait_present(browser, "key").get_attribute("value") == REFEREE_KEY


def test_match_so_far_from_an_imported_record(browser, table_service, tmp_path):
    seats = ["p1", "p2", "p3", "p4"]
    dealt = adjudicate.deal("daifugo", seats, None, "so-far", seed_salt="cd" * 16)
    state, to_act, actions = dealt["state"], dealt["to_act"], []
    while True:
        legal = adjudicate.legal_actions(state, to_act[0])
        applied = adjudicate.validate(state, max(legal, key=lambda a: len(a.get("cards", []))))
        actions.append({"action": applied.action})
        state, to_act = applied.state, applied.to_act
        if applied.status == "finished":
            break
    path = tmp_path / "so-far.json"
    path.write_text(json.dumps({
        "format": "card-referee/match-record", "format_version": 1, "game": "daifugo",
        "players": seats, "options": {}, "tags": {},
        "deals": [{"deal": {"seed": "so-far", "seed_salt": "cd" * 16}, "actions": actions}]}))
    open_page(browser, table_service)
    field = find(browser, "match-import")
    browser.execute_script("arguments[0].closest('details').open = true", field)
    field.send_keys(str(path))
    wait_present(browser, "match-loaded")
    click(browser, "start")
    wait_present(browser, "legal-actions")
    assert saved_match(browser)["deals"][0]["request"]["match"] == json.loads(json.dumps(applied.next_match))


def test_the_printable_sheet_takes_a_tablets_width(browser, table_service):
    browser.set_window_size(820, 1180)  # a tablet held upright
    try:
        open_page(browser, table_service)
        set_up(browser, "man", seats=["ann", "bob"], preset="referee")
        wait_present(browser, "legal-actions")
        enter_other(browser, "end_turn", "ann")
        click(browser, "sheet-service")
        frame = wait_present(browser, "sheet-frame")
        assert frame.size["width"] >= 0.9 * find(browser, "title").size["width"]
    finally:
        browser.set_window_size(1024, 768)


def test_the_referee_records_a_penalty_and_undoes_a_typo(browser, table_service):
    open_page(browser, table_service)
    set_up(browser, "daifugo", key=REFEREE_KEY)
    play_steps(browser, 2)
    browser.find_element(By.CSS_SELECTOR, f'{tid("referee-form")} > summary').click()
    Select(find(browser, "ref-type")).select_by_value("penalty")
    Select(find(browser, "ref-player")).select_by_value("p2")
    points = find(browser, "field-points")
    points.send_keys("3")
    browser.execute_script("arguments[0].dispatchEvent(new Event('change'))", points)
    click(browser, "ref-send")
    wait_for(browser, lambda d: idle(d) and entries(d) == 3, what="the penalty")
    last = saved_match(browser)["deals"][0]["steps"][-1]
    assert last["action"]["type"] == "penalty" and last["action"]["player"] == "p2"
    assert [d["target"] for d in last["score_deltas"]] == ["p2"]
    assert find(browser, "total-p2").text == str(last["score_deltas"][0]["delta"])
    # the form is blank again: a stray tap on its button is no second penalty
    assert Select(find(browser, "ref-type")).first_selected_option.get_attribute("value") == ""
    assert not finds(browser, tid("field-points"))
    assert not find(browser, "ref-send").is_enabled()
    click(browser, "ref-undo")  # the undo beside the form
    wait_for(browser, lambda d: idle(d) and entries(d) == 2, what="the undo")
    assert find(browser, "total-p2").text == "0"
    assert len(saved_match(browser)["deals"][0]["steps"]) == 2


def test_entries_made_while_the_service_is_out_of_reach_wait_and_are_sent(browser, table_service):
    open_page(browser, table_service)
    set_up(browser, "daifugo", key=REFEREE_KEY)
    wait_present(browser, "legal-actions")
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    try:
        tap_listed(browser, 0)
        queue = wait_present(browser, "queue")
        assert "1" in queue.text
        # the seat that just acted cannot act again before the service says who acts next
        assert finds(browser, f'{tid("legal-actions")} button.legal')
        assert not [b for b in finds(browser, f'{tid("legal-actions")} button.legal') if b.is_enabled()]
        assert not [b for b in finds(browser, f'{tid("hand")} button') if b.is_enabled()]
        assert not find(browser, "net").get_attribute("hidden")
        assert saved_match(browser)["pending"]  # kept in the browser, not only on screen
    finally:
        browser.execute_cdp_cmd("Network.emulateNetworkConditions", {
            "offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    wait_for(browser, lambda d: idle(d) and entries(d) == 1 and not finds(d, tid("queue")),
             timeout=15, what="the queued entry to be sent")
    assert saved_match(browser)["pending"] == []


def test_the_japanese_interface(table_service):
    driver = start_browser(lang="ja")
    try:
        open_page(driver, table_service)
        assert driver.find_element(By.TAG_NAME, "h1").text == "試合の準備"
        assert driver.execute_script("return document.documentElement.lang") == "ja"
        assert "まん" in [o.text for o in Select(find(driver, "game")).options]
        set_up(driver, "man", seats=["ann", "bob"])
        wait_present(driver, "legal-actions")
        assert find(driver, "to-act").text.startswith("手番")
        enter_other(driver, "end_turn", "ann")
        refusal = wait_present(driver, "refusal")
        assert "早い者勝ち" in refusal.text  # the service's refusal, in Japanese
        assert find(driver, "refusal-rule").get_attribute("href").endswith("/rules.ja.html#2.4")
        click(driver, "lang-switch")
        wait_for(driver, lambda d: idle(d) and find(d, "to-act").text.startswith("To act"),
                 what="the English interface")
    finally:
        driver.quit()


def test_the_japanese_log_reads_every_event_in_japanese(table_service):
    """Every event carries its words: a Japanese referee's log shows each entry's events (Guandan
    plays and passes) in Japanese, none left out, no English word."""
    driver = start_browser(lang="ja")
    try:
        open_page(driver, table_service)
        set_up(driver, "guandan")
        wait_present(driver, "legal-actions")
        play_steps(driver, 3)
        lines = [li.find_element(By.CSS_SELECTOR, "div.hint").text
                 for li in finds(driver, f'{tid("entries")} > li')
                 if li.find_elements(By.CSS_SELECTOR, "div.hint")]
        # a play or, after a lead, a pass (the page's first play may be followed by either)
        assert len(lines) == 3 and all("を出す" in line or "パス" in line for line in lines), lines
        assert not any(re.search(r"[a-z]{3,}", line) for line in lines), lines  # no English word
    finally:
        driver.quit()


def test_an_exported_record_is_consistent_shown_as_a_sheet_and_imported_again(browser, table_service):
    open_page(browser, table_service)
    set_up(browser, "manteur", seats=["ann", "bob", "cy"], key=REFEREE_KEY,
           options={"penalty_limit": "1"}, tags={"event": "Autumn Open", "table": "7"})
    play_deal(browser, ["challenge", "declare"])
    shown_totals = {p: find(browser, f"total-{p}").text for p in ("ann", "bob", "cy")}
    for old in browser.downloads.glob("*.json"):
        old.unlink()
    click(browser, "export")
    record = wait_for(browser, lambda d: d.execute_script("return window.__lastRecord"), what="the record")
    report = records.check_record(record)
    request = urllib.request.Request(table_service + "/v1/records/check", data=json.dumps(record).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as resp:
        assert json.load(resp)["consistent"] is True
    assert "✓" in wait_present(browser, "notice").text  # the page checked it too
    assert report["consistent"], report["discrepancy"]
    assert report["digest"] == record["digest"]
    assert record["tags"]["event"] == "Autumn Open" and record["tags"]["table"] == "7"
    assert {k: str(v) for k, v in report["totals"].items() if k in shown_totals} == \
        {k: v for k, v in shown_totals.items() if v != "0"}
    downloaded = wait_for(browser, lambda d: list(d.downloads.glob("*.json")), what="the download")[0]
    assert json.loads(downloaded.read_text()) == record
    click(browser, "sheet-service")
    sheet = wait_present(browser, "service-sheet")
    assert sheet.get_attribute("data-consistent") == "true"
    # a new match, then the record imported: the same deal, entries and totals
    open_page(browser, table_service)  # nothing kept: the set-up page
    browser.execute_script("arguments[0].closest('details').open = true", find(browser, "import-file"))
    find(browser, "import-file").send_keys(str(downloaded))
    wait_present(browser, "result")
    assert entries(browser) == len(record["deals"][0]["actions"])
    assert {p: find(browser, f"total-{p}").text for p in shown_totals} == shown_totals


@pytest.fixture(scope="module")
def sealed_table(tmp_path_factory):
    """A service with sealed and signed states, and its own browser, closed before the service
    stops (its kept-alive connections would hold gunicorn's graceful stop): (base, driver)."""
    from service.sealing import new_key
    from tests.service.serving import gunicorn_service

    with gunicorn_service(tmp_path_factory.mktemp("sealed-table"), CARDREF_REFEREE_KEYS=REFEREE_KEY,
                          CARDREF_ACCESS_LOG="off",
                          CARDREF_STATE_SECRET="table-test-secret-" + "x" * 20,
                          CARDREF_SEAL_KEYS=new_key(),
                          CARDREF_SEAT_TOKEN_KEYS="table-test-token-key-" + "z" * 20) as base:
        driver = start_browser()
        try:
            yield base, driver
        finally:
            driver.quit()


def test_sealed_states_a_deal_from_the_table_asks_for_the_referee_key(sealed_table):
    """Sealed and signed: the page deals from the table once given the key it is asked for,
    plays each seat with its seat token, and finishes the deal."""
    base, driver = sealed_table
    open_page(driver, base)
    set_up(driver, "man", seats=["ann", "bob"], preset="referee", physical=True)  # no key
    wait_present(driver, "deck-picker")
    pick_hand(driver, "ann", ["H9", "C4", "SK"])
    pick_hand(driver, "bob", ["H5", "C6", "S9"])
    enter_man_table(driver, "H7", "bob")
    click(driver, "deal-physical")
    # the service refuses the referee act without the key: the page asks for it
    wait_present(driver, "key-prompt").find_element(By.CSS_SELECTOR, "input").send_keys(REFEREE_KEY)
    find(driver, "key-prompt-ok").click()
    wait_present(driver, "legal-actions")
    assert saved_match(driver)["deals"][0]["answer"]["state"].startswith("sealed.")
    assert saved_match(driver)["deals"][0]["answer"]["seat_tokens"]
    # ann plays with her seat's token
    click(driver, "act-seat-ann")
    wait_for(driver, lambda d: idle(d) and "ann" in find(d, "to-act").text)
    tap_play(driver, "H9")
    wait_for(driver, lambda d: idle(d) and entries(d) == 1 and
             finds(d, '[data-type="draw"]'), what="ann's play")
    # bob's draw names its card from a stock nobody has seen: sealed, a referee act
    # (docs/security.md), which the page sends with the key it dealt with
    finds(driver, '[data-type="draw"]')[0].click()
    picker = wait_present(driver, "draw-picker")
    drawn = picker.find_elements(By.CSS_SELECTOR, "button")[0].get_attribute("aria-label")
    click(driver, f"drawn-{drawn}")
    click(driver, "ask-send")
    wait_for(driver, lambda d: idle(d) and entries(d) == 2, what="bob's draw")
    assert saved_match(driver)["deals"][0]["steps"][1]["action"]["cards"] == [drawn]
    # bob's C6 on H9 is a chombo, which ends the deal
    enter_other(driver, "play", "bob", cards="C6")
    assert "chombo" in wait_present(driver, "result").text


def test_sealed_states_a_record_imported_after_new_match_asks_for_the_key(sealed_table, tmp_path):
    """Replaying a record's deal is a referee act when states are signed: the import asks for
    the key — after "New match" too, when no match is open to keep it in — and goes on with it."""
    base, driver = sealed_table
    seats = ["p1", "p2", "p3", "p4"]
    dealt = adjudicate.deal("daifugo", seats, None, "signed-import", seed_salt="ab" * 16)
    state, to_act, actions = dealt["state"], dealt["to_act"], []
    for _ in range(6):
        applied = adjudicate.validate(state, adjudicate.legal_actions(state, to_act[0])[0])
        actions.append({"action": applied.action})
        state, to_act = applied.state, applied.to_act
    path = tmp_path / "signed.json"
    path.write_text(json.dumps({
        "format": "card-referee/match-record", "format_version": 1, "game": "daifugo",
        "players": seats, "options": {}, "tags": {},
        "deals": [{"deal": {"seed": "signed-import", "seed_salt": "ab" * 16}, "actions": actions}]}))
    open_page(driver, base)
    set_up(driver, "man", seats=["ann", "bob"])
    wait_present(driver, "legal-actions")
    driver.execute_script("window.confirm = () => true")
    click(driver, "new-match")
    wait_present(driver, "start")
    console(driver)  # read: only what follows counts
    driver.execute_script("arguments[0].closest('details').open = true", find(driver, "import-file"))
    find(driver, "import-file").send_keys(str(path))
    wait_present(driver, "key-prompt").find_element(By.CSS_SELECTOR, "input").send_keys(REFEREE_KEY)
    find(driver, "key-prompt-ok").click()
    wait_for(driver, lambda d: idle(d) and entries(d) == 6 and finds(d, tid("legal-actions")),
             what="the imported match")
    kept = saved_match(driver)
    assert kept["key"] == REFEREE_KEY and kept["game"] == "daifugo"
    assert [s["action"] for s in kept["deals"][0]["steps"]] == \
        [{**a["action"], "game": "daifugo"} for a in actions]
    # nothing thrown in the page (the 403 that asked for the key is the network's, not an error)
    errors = [m["message"] for m in console(driver) if m.get("level") == "SEVERE"
              and "Failed to load resource" not in m["message"]]
    assert not errors, errors


def test_the_page_files_are_package_data():
    """An installed service (a wheel, the Docker image) serves the page too: every file of
    service/table is matched by the package's package-data patterns."""
    import fnmatch
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    patterns = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"][
        "package-data"]["service"]
    files = [p.relative_to(root / "service").as_posix() for p in (root / "service" / "table").iterdir()]
    assert {"table/index.html", "table/app.js", "table/table.css"} <= set(files)
    for name in files:
        assert any(fnmatch.fnmatch(name, pattern) for pattern in patterns), name
