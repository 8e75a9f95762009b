"""What the table page keeps in the browser (IndexedDB, service/table/store.js): a whole long
match kept and resumed after a reload, compactly; a storage failure shown at once with the match
still on the page and its export at hand; the first version's localStorage match moved in;
and several matches kept."""
from __future__ import annotations

import json
import random

import pytest

from engine import adjudicate
from tests.table.conftest import REFEREE_KEY
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
    wait_present,
)

SEATS = ["p1", "p2", "p3", "p4"]
# Each game's match at its longest (issue: "a Guandan match of 30 deals, a Manillen match of 40"),
# with options that make a random match last that long.
LONGEST_MATCHES = [
    # one failure as declarer at A sends a team back to 2 (S-5)
    pytest.param("guandan", 30, {"a_fail_limit": 1}, id="guandan-30"),
    # four booms to win (a boom is 101 points), every deal's multiplier capped at 4 (the "serious
    # players'" rule): unlimited doubling would end a boom in a few deals
    pytest.param("manillen", 40, {"booms_to_win": 4, "multiplier_cap": 4}, id="manillen-40"),
]


def match_over(step: dict) -> bool:
    """The match ends with this step: no next deal (as the record's check reads it)."""
    return step["status"] == "finished" and (
        step["next_match"] is None or any(e["type"] == "match_finished" for e in step["events"]))


def long_match(game: str, options: dict, deals: int,
               last_steps: int) -> tuple[dict, list[list[dict]]]:
    """A match record of `game` with `deals` deals, the last one still in play after `last_steps`
    actions, with every step as the engine answered it: each seat passes when it may (most of
    the time) — the longest deals, the smallest doublings — else plays a random legal action, and
    each deal is dealt with the previous deal's `next_match`. Random matches end at different
    lengths: the first seed whose match lasts is used."""
    for attempt in range(2, 12):
        rnd = random.Random(attempt)
        record = {"format": "card-referee/match-record", "format_version": 1, "game": game,
                  "players": SEATS, "options": options,
                  "tags": {"event": "Storage Open", "round": 3, "table": "12"}, "deals": []}
        steps_of: list[list[dict]] = []
        match = None
        for index in range(deals):
            seed, salt = f"long-{attempt}-{index}", f"{index:032x}"
            dealt = adjudicate.deal(game, SEATS, options, seed, match=match, seed_salt=salt)
            state, to_act, status = dealt["state"], dealt["to_act"], dealt["status"]
            steps: list[dict] = []
            while status != "finished" and (index < deals - 1 or len(steps) < last_steps):
                applied = None
                if rnd.random() < 0.7:
                    applied = adjudicate.validate(state, {"type": "pass", "player": to_act[0]})
                if applied is None or not applied.valid:
                    legal = adjudicate.legal_actions(state, to_act[0])
                    playing = [a for a in legal if a["type"] != "pass"] or legal
                    applied = adjudicate.validate(state, rnd.choice(playing))
                state, to_act, status = applied.state, applied.to_act, applied.status
                steps.append({"action": applied.action, "state": state, "to_act": to_act,
                              "status": status, "score_deltas": applied.score_deltas,
                              "events": applied.events, "next_match": applied.next_match})
            record["deals"].append({"deal": {"seed": seed, "seed_salt": salt},
                                    "actions": [{"action": s["action"]} for s in steps]})
            steps_of.append(steps)
            if index < deals - 1:
                if match_over(steps[-1]):
                    break  # the match ended early: another seed
                match = json.loads(json.dumps(steps[-1]["next_match"]))
        if len(steps_of) == deals:
            return record, steps_of
    raise AssertionError(f"no random {game} match lasted {deals} deals")


def stored_sizes(driver) -> dict:
    """What the page's database holds, as JSON characters (the states kept among its deals as
    `states`), and the browser's own estimate."""
    return driver.execute_async_script("""const done = arguments[0];
      const req = indexedDB.open("cardref-table");
      req.onsuccess = async () => {
        const db = req.result, sizes = {};
        for (const name of ["matches", "deals", "meta"]) {
          const all = await new Promise((ok) => { const r = db.transaction(name).objectStore(name).getAll();
                                                 r.onsuccess = () => ok(r.result); });
          sizes[name] = all.reduce((n, v) => n + JSON.stringify(v).length, 0);
          if (name === "deals") {  // of which the states: each deal's answer's and its steps' kept
            const size = (state) => (state ? JSON.stringify(state).length : 0);
            sizes.states = all.reduce((n, d) => n + size(d.answer.state)
                                      + d.steps.reduce((m, s) => m + size(s.state), 0), 0);
          }
        }
        db.close();
        const estimate = navigator.storage && navigator.storage.estimate ? await navigator.storage.estimate() : {};
        sizes.usage = estimate.usage || null;
        sizes.quota = estimate.quota || null;
        done(sizes);
      };""")


def without_game(action: dict) -> dict:
    return {k: v for k, v in action.items() if k != "game"}


@pytest.mark.parametrize(("game", "deals", "options"), LONGEST_MATCHES)
def test_a_games_longest_match_is_kept_whole_compactly_and_resumes_after_a_reload(
        browser, table_service, tmp_path, game, deals, options):
    record, steps_of = long_match(game, options, deals, last_steps=20)
    path = tmp_path / f"{game}-{deals}.json"
    path.write_text(json.dumps(record))
    open_page(browser, table_service)
    browser.execute_script("arguments[0].closest('details').open = true", find(browser, "import-file"))
    find(browser, "import-file").send_keys(str(path))
    wait_for(browser, lambda d: idle(d) and finds(d, tid("legal-actions")) and entries(d) == 20,
             timeout=60, what="the imported match")

    browser.refresh()
    wait_for(browser, lambda d: idle(d) and finds(d, tid("legal-actions")), what="the resumed match")
    assert entries(browser) == 20 and str(deals) in find(browser, "title").text
    kept = saved_match(browser)
    assert len(kept["deals"]) == deals
    for deal, steps in zip(kept["deals"], steps_of):
        assert len(deal["steps"]) == len(steps)
        for got, want in zip(deal["steps"], steps):
            assert without_game(got["action"]) == without_game(want["action"])
            assert [(x["target"], x["delta"]) for x in got["score_deltas"]] == \
                [(x["target"], x["delta"]) for x in want["score_deltas"]]
            assert (got["to_act"], got["status"]) == (want["to_act"], want["status"])
            assert [e["type"] for e in got["events"]] == [e["type"] for e in want["events"]]
        # each deal's last state is kept (the one to resume from), the others are the service's
        # to give again (a record imported gives each deal's last state only)
        assert deal["steps"][-1]["state"] == steps[-1]["state"]
        assert all(s["state"] is None for s in deal["steps"][:-1])
    # the sheet's totals: every score change of the match (Guandan's seats, Manillen's teams)
    summed: dict[str, int] = {}
    for x in (x for steps in steps_of for s in steps for x in s["score_deltas"]):
        summed[x["target"]] = summed.get(x["target"], 0) + x["delta"]
    assert summed
    for target, total in summed.items():
        assert find(browser, f"total-{target}").text == str(total)

    sizes = stored_sizes(browser)
    stored = sizes["matches"] + sizes["deals"] + sizes["meta"]
    every_state = sum(len(json.dumps(s["state"])) for steps in steps_of for s in steps)
    print(f"\n{deals}-deal {game} match, {sum(map(len, steps_of))} steps: {stored:,} characters "
          f"kept, of which states {sizes['states']:,} (IndexedDB usage {sizes['usage']}); every "
          f"step's state alone: {every_state:,}")
    # the states kept (each deal's first and last) a tenth at most of every state: the bulk of
    # what stays is the entries themselves — their actions and bilingual events, a Manillen
    # step's as long as a tenth of its state; and the whole a third at most of the 5.2 million
    # characters of localStorage's quota, the one that used to run out (IndexedDB's is far larger)
    assert sizes["states"] < every_state / 10 and stored < 1_750_000, sizes
    if sizes["quota"]:
        assert sizes["usage"] < sizes["quota"] / 10, sizes

    # undo after the reload: the state before, which the browser does not keep, comes from the service
    click(browser, "undo")
    wait_for(browser, lambda d: idle(d) and entries(d) == 19 and finds(d, tid("legal-actions")),
             what="the undo")
    in_play = saved_match(browser)["deals"][-1]["steps"]
    assert in_play[-1]["state"] == steps_of[-1][18]["state"]
    # the states the service gave again: in the deal in play every 16th is kept from now on
    assert [i for i, s in enumerate(in_play[:-1]) if s["state"] is not None] == [15]
    assert in_play[15]["state"] == steps_of[-1][15]["state"]
    play_steps(browser, 1)  # and the match goes on from there
    assert entries(browser) == 20


def test_a_storage_failure_is_shown_at_once_and_the_entry_stays_on_the_page(browser, table_service):
    open_page(browser, table_service)
    set_up(browser, "daifugo", key=REFEREE_KEY)
    play_steps(browser, 2)
    assert not find(browser, "storage-failed").is_displayed()
    # the browser's quota reached: every write refused at once
    browser.execute_script("""window.__put = IDBObjectStore.prototype.put;
      IDBObjectStore.prototype.put = function () {
        throw new DOMException("The quota has been exceeded.", "QuotaExceededError"); };""")
    try:
        play_steps(browser, 1)
        banner = wait_for(browser, lambda d: find(d, "storage-failed").is_displayed()
                          and find(d, "storage-failed"), what="the storage banner")
        assert "Not saved in this browser" in banner.text
        assert "QuotaExceededError" in find(browser, "storage-error").text
        assert entries(browser) == 3  # the entry is on the page all the same
        click(browser, "lang-switch")  # said in Japanese too
        wait_for(browser, lambda d: "このブラウザに保存できませんでした" in find(d, "storage-failed").text,
                 what="the banner in Japanese")
        click(browser, "lang-switch")
        wait_for(browser, lambda d: "Not saved in this browser" in find(d, "storage-failed").text,
                 what="the banner in English")
        click(browser, "storage-export")  # the match's export, at hand
        record = wait_for(browser, lambda d: d.execute_script("return window.__lastRecord"),
                          what="the record")
        assert record["game"] == "daifugo" and record["players"] == ["p1", "p2", "p3", "p4"]
        # the record leaves out a server deal still in play (its seed is secret): a copy keeps it
        for old in browser.downloads.glob("*-copy.json"):
            old.unlink()
        click(browser, "storage-copy")
        copy = wait_for(browser, lambda d: d.execute_script("return window.__lastCopy"), what="the copy")
        assert len(copy["match"]["deals"][0]["steps"]) == 3 and copy["match"]["key"] == ""
    finally:
        browser.execute_script("IDBObjectStore.prototype.put = window.__put")
    click(browser, "storage-retry")  # space freed: kept again, all of it
    wait_for(browser, lambda d: not find(d, "storage-failed").is_displayed(), what="the banner to go")
    assert len(saved_match(browser)["deals"][0]["steps"]) == 3

    # a transaction that fails later (aborted): shown too, and the next save that works repairs it
    browser.execute_script("""window.__transaction = IDBDatabase.prototype.transaction;
      IDBDatabase.prototype.transaction = function (...args) {
        const tx = window.__transaction.apply(this, args);
        if (args[1] === "readwrite") Promise.resolve().then(() => tx.abort());
        return tx; };""")
    try:
        play_steps(browser, 1)
        wait_for(browser, lambda d: find(d, "storage-failed").is_displayed(), what="the storage banner")
        assert "AbortError" in find(browser, "storage-error").text
    finally:
        browser.execute_script("IDBDatabase.prototype.transaction = window.__transaction")
    play_steps(browser, 1)
    wait_for(browser, lambda d: not find(d, "storage-failed").is_displayed(), what="the banner to go")
    browser.refresh()
    wait_for(browser, lambda d: idle(d) and finds(d, tid("legal-actions")), what="the resumed match")
    assert entries(browser) == 5

    # the copy, opened in a browser that kept nothing, goes on from where it was saved
    downloaded = wait_for(browser, lambda d: list(d.downloads.glob("*-copy.json")), what="the copy")[0]
    open_page(browser, table_service)
    browser.execute_script("arguments[0].closest('details').open = true", find(browser, "import-file"))
    find(browser, "import-file").send_keys(str(downloaded))
    wait_for(browser, lambda d: idle(d) and finds(d, tid("legal-actions")) and entries(d) == 3,
             what="the copy opened")
    assert saved_match(browser)["id"] == copy["match"]["id"]
    play_steps(browser, 1)


def test_a_browser_that_keeps_nothing_says_so_before_the_match_starts(browser, table_service):
    """No IndexedDB (a private mode, a browser that refuses it): said on the set-up page already,
    and the match entered all the same, on the page, with its export at hand."""
    forget_matches(browser, table_service)
    script = browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {
        "source": "Object.defineProperty(window, 'indexedDB', {value: undefined, configurable: true});"})
    try:
        browser.get(table_service + "/table")
        wait_present(browser, "start")
        assert find(browser, "storage-failed").is_displayed()
        assert "NotSupportedError" in find(browser, "storage-error").text
        set_up(browser, "man", seats=["ann", "bob"])
        wait_present(browser, "legal-actions")
        play_steps(browser, 1)
        assert entries(browser) == 1 and finds(browser, tid("storage-export"))
    finally:
        browser.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", script)


def test_the_first_versions_match_moves_into_indexeddb_and_several_matches_are_kept(
        browser, table_service):
    open_page(browser, table_service)
    set_up(browser, "man", seats=["ann", "bob"], tags={"event": "Spring Cup"})
    wait_present(browser, "legal-actions")
    play_steps(browser, 2)
    old = saved_match(browser)
    # as the page's first version kept it: the whole match under one localStorage key
    old.pop("id")
    forget_matches(browser, table_service)
    browser.execute_script("localStorage.setItem('cardref.table.match', arguments[0])", json.dumps(old))
    browser.get(table_service + "/table")
    wait_for(browser, lambda d: idle(d) and finds(d, tid("legal-actions")), what="the match moved in")
    assert entries(browser) == 2
    moved = saved_match(browser)
    assert moved["id"] and [s["action"] for s in moved["deals"][0]["steps"]] == \
        [s["action"] for s in old["deals"][0]["steps"]]
    assert browser.execute_script("return localStorage.getItem('cardref.table.match')") is None

    # a new match keeps the one open: listed on the set-up page, opened again as it was
    browser.execute_script("window.confirm = () => true")
    click(browser, "new-match")
    listed = wait_present(browser, "kept-0")
    assert "Spring Cup" in listed.text and "ann · bob" in listed.text
    assert saved_match(browser) is None
    set_up(browser, "daifugo")
    wait_present(browser, "legal-actions")
    click(browser, "new-match")
    wait_for(browser, lambda d: len(finds(d, '[data-testid^="kept-open-"]')) == 2, what="two kept")
    click(browser, "kept-open-1")  # the latest used first: the Man match is second
    wait_for(browser, lambda d: idle(d) and finds(d, tid("legal-actions")) and entries(d) == 2,
             what="the kept match")
    assert saved_match(browser)["id"] == moved["id"]
    click(browser, "new-match")
    click(browser, "kept-delete-0")  # the Man match, used last: forgotten
    wait_for(browser, lambda d: len(finds(d, '[data-testid^="kept-open-"]')) == 1, what="the list")
    assert "Spring Cup" not in find(browser, "kept-matches").text
