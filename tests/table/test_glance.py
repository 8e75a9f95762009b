"""The table at a glance and one tap per act, on a phone held upright (390 px): a whole Guandan
deal entered by tapping what the page offers — random legal actions, each tapped as a referee
does (the cards played, then their play; a pass or any other act without cards in the fixed
bar) — counting the taps per entry and timing each tap until the next screen is ready, in
Japanese, with no English word on the play screen."""
from __future__ import annotations

import json
import random
import re
import statistics
import time
import urllib.request

from selenium.webdriver.common.by import By

from tests.table.browser import start_browser
from tests.table.conftest import REFEREE_KEY
from tests.table.pagedriver import (
    find,
    finds,
    no_sideways_scroll,
    open_page,
    play_steps,
    saved_match,
    set_up,
    tid,
    wait_present,
)

# One entry in one round trip to the browser: tap each card of `cards` in the hand (a copy not
# yet tapped), then the button saying `words` (in the fixed bar, or among the plays the cards
# make), each tap timed until the next screen is ready — a card tap: the page drawn again; the
# last tap: the entry made, the service's answers in and the seat to act with its actions drawn
# (or the deal's result) — and painted (the next animation frame). Answers the taps and times,
# and the play screen's visible words once ready (for the language check).
_TAP_ENTRY = """
const [cards, words, done] = [arguments[0], arguments[1], arguments[arguments.length - 1]];
const q = (s) => document.querySelector(s);
const app = document.getElementById("app");
const count = () => document.querySelectorAll('[data-testid="entries"] > li').length;
const idle = () => !app.dataset.busy;
const times = [];
let taps = 0;
function settle(pred, then) {
  const t0 = performance.now();
  const tick = () => {
    if (pred()) return requestAnimationFrame(() => then(performance.now() - t0));
    if (performance.now() - t0 > 20000) return done({ error: "timeout" });
    setTimeout(tick, 1);
  };
  tick();
}
function tap(el, ready, then) {
  const t0 = performance.now();
  el.click(); taps += 1;
  const tick = () => {
    if (ready()) return requestAnimationFrame(() => { times.push(performance.now() - t0); then(); });
    if (performance.now() - t0 > 20000) return done({ error: "timeout after a tap" });
    setTimeout(tick, 1);
  };
  tick();
}
function visibleWords() {
  // the play screen as read: hidden and collapsed parts are not in innerText; ids and hashes
  // (the seed commitment, a seed) are set in .mono and are not words
  const text = app.innerText;
  const ids = [...app.querySelectorAll(".mono")].map((x) => x.innerText);
  return ids.reduce((t, id) => t.split(id).join(" "), text);
}
const ready = () => idle() && (q('[data-testid="result"]') || q('[data-testid="plays"]'));
settle(ready, () => {
  if (q('[data-testid="result"]')) return done({ result: true, words: visibleWords() });
  const seat = q('[data-testid="to-act"]').textContent.split(/[:：]\\s*/).pop().trim();
  // after an entry the seat to act and its hand are on the screen (the page scrolled to them)
  const inView = ["to-act", "hand"].every((id) => {
    const el = q(`[data-testid="${id}"]`);
    if (!el) return true;
    const r = el.getBoundingClientRect();
    return r.top >= 0 && r.bottom <= window.innerHeight;
  });
  if (cards === null) return done({ seat, inView, words: visibleWords() });
  const steps = [...cards];
  const next = () => {
    if (steps.length) {
      const c = steps.shift();
      const el = [...document.querySelectorAll(`[data-testid="hand-${c}"]`)]
        .find((b) => b.getAttribute("aria-pressed") !== "true");
      if (!el) return done({ error: `no ${c} left to tap in the hand` });
      return tap(el, () => true, next);
    }
    const before = count();
    const where = cards.length ? "plays" : "act-bar";
    const buttons = [...document.querySelectorAll(`[data-testid="${where}"] button.legal`)];
    const button = buttons.find((b) => b.textContent === words);
    if (!button) return done({ error: `no button "${words}" in ${where}: ${buttons.map((b) => b.textContent)}` });
    tap(button, () => count() > before && ready(), () => done({ taps, times }));
  };
  next();
});
"""

# What a Japanese referee reads must be Japanese: no ASCII word of two letters or more (seat
# ids like p1, card codes like H2, numbers and the symbols of cards are not words).
ENGLISH_WORD = re.compile(r"[A-Za-z]{2,}")


def api(base: str, path: str, body: dict) -> dict:
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(req, timeout=30) as resp:
        return json.loads(resp.read())


def action_cards(action: dict) -> list[str]:
    if isinstance(action.get("cards"), list):
        return action["cards"]
    return [action["card"]] if isinstance(action.get("card"), str) else []


def test_a_whole_guandan_deal_on_a_phone_one_tap_per_act_in_japanese(table_service):
    rng = random.Random(20261127)
    driver = start_browser(phone=True, lang="ja")
    try:
        open_page(driver, table_service)
        set_up(driver, "guandan", key=REFEREE_KEY)
        wait_present(driver, "plays")
        # the table at a glance: the level played, its wild card, the teams' levels
        level = find(driver, "fact-level").text
        assert "レベル" in level
        wild = find(driver, "fact-wild_card")
        assert wild.find_elements(By.CSS_SELECTOR, ".chip")  # the wild card shown as a card
        standings = [li.text for li in finds(driver, f'{tid("standings")} > li')]
        assert len(standings) == 2 and all("レベル" in s for s in standings), standings
        assert no_sideways_scroll(driver)[0] <= no_sideways_scroll(driver)[1]

        state = saved_match(driver)["deals"][-1]["answer"]["state"]
        taps, budget, times, send_times, entries_made = 0, 0, [], [], 0
        english: set[str] = set()
        started = time.monotonic()
        for _ in range(400):
            seen = driver.execute_async_script(_TAP_ENTRY, None, "")
            assert "error" not in seen, seen
            english |= set(ENGLISH_WORD.findall(seen["words"]))
            if seen.get("result"):
                break
            assert seen["inView"] or not entries_made, f"after entry {entries_made}: the seat to act out of view"
            listed = api(table_service, "/v1/legal-actions",
                         {"state": state, "player": seen["seat"]})["actions"]
            action = rng.choice(listed)
            cards = action_cards(action)
            done = driver.execute_async_script(_TAP_ENTRY, cards, action["text"]["ja"])
            assert "error" not in done, (done, action)
            taps += done["taps"]
            budget += len(cards) + 1  # a pass 1 tap; a play of k cards k + 1
            times += done["times"]
            send_times.append(done["times"][-1])
            entries_made += 1
            answer = api(table_service, "/v1/validate", {"state": state, "action": action})
            assert answer["valid"], answer
            state = answer["state"]
        else:
            raise AssertionError("no result after 400 entries")
        elapsed = time.monotonic() - started
        p95 = statistics.quantiles(times, n=20)[-1]
        p95_send = statistics.quantiles(send_times, n=20)[-1]
        print(f"\nGuandan deal on a phone: {entries_made} entries, {taps} taps "
              f"({taps / entries_made:.2f} per entry; {taps / budget:.2f} of a pass 1, a play k + 1), "
              f"tap -> next screen p95 {p95:.0f} ms (sending taps: p95 {p95_send:.0f} ms, "
              f"median {statistics.median(send_times):.0f} ms), {elapsed:.1f} s")
        assert taps / budget <= 1.3
        assert p95 <= 150, f"p95 {p95:.0f} ms from a tap to the next screen"
        assert not english, f"English words on the Japanese play screen: {sorted(english)}"
        # the deal's result, and the teams' levels after it, in the glance: "team 1 now at 4"
        assert find(driver, "result")
        after = api(table_service, "/v1/view", {"state": state, "player": "p1"})["view"]["standings"]
        assert [li.text for li in finds(driver, f'{tid("standings")} > li')] == [
            e["text"]["ja"] for e in after["entries"]]
        assert any(e["total"] > 2 for e in after["entries"])  # a team went up from level 2
        assert no_sideways_scroll(driver)[0] <= no_sideways_scroll(driver)[1]
    finally:
        driver.quit()


def test_acts_without_cards_are_in_the_bar_above_the_hand_in_every_game(phone, table_service):
    """Every listed action that carries no cards (pass, draw, end the turn, a trump named, a
    declaration …) is offered in the bar right above the hand, the same place in every game; the
    glance shows the view's facts and standing in each, and nothing scrolls sideways."""
    games = json.loads(urllib.request.urlopen(table_service + "/v1/games", timeout=30).read())["games"]
    for game in games:
        open_page(phone, table_service)
        set_up(phone, game["id"], key=REFEREE_KEY)
        wait_present(phone, "plays")
        play_steps(phone, 2)
        wait_present(phone, "plays")
        deal = saved_match(phone)["deals"][-1]
        state = deal["steps"][-1]["state"]
        seat = find(phone, "to-act").text.split(":")[-1].strip()
        listed = api(table_service, "/v1/legal-actions", {"state": state, "player": seat})["actions"]
        bare = sorted(a["text"]["en"] for a in listed if not action_cards(a))
        bar = find(phone, "act-bar")
        # a button each, or, for a type listed in many variants, one list to choose from
        offered = [b.text for b in bar.find_elements(By.CSS_SELECTOR, "button.legal")]
        offered += [o.get_attribute("textContent") for o in bar.find_elements(By.CSS_SELECTOR, "select option[value]")
                    if o.get_attribute("value")]
        assert sorted(offered) == bare, game["id"]
        view = api(table_service, "/v1/view", {"state": state, "player": seat})["view"]
        facts = [li.get_attribute("data-testid") for li in finds(phone, f'{tid("facts")} > li')]
        assert facts == [f"fact-{f['key']}" for f in view["summary"]["facts"]], game["id"]
        assert len(finds(phone, f'{tid("standings")} > li')) == len(view["standings"]["entries"])
        hand = finds(phone, tid("hand"))
        if hand:  # the bar right above the hand: nothing between them
            assert phone.execute_script("return arguments[0].nextElementSibling === arguments[1]", bar, hand[0])
        page, viewport = no_sideways_scroll(phone)
        assert page <= viewport, game["id"]
