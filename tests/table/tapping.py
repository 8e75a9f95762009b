"""A whole deal entered by tapping what the table page offers, as a referee does: random legal
actions, each tapped (the cards played, then their play; a pass or any other act without cards in
the fixed bar), counting the taps and timing each tap until the next screen is ready. Shared by
the page's test (taps per entry, words, the result) and bench/table_page.py (the time a tap takes,
against its target: a timed assertion would fail on a loaded machine, not on a slow page)."""
from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from tests.service.serving import api

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


def post(base: str, path: str, body: dict) -> dict:
    """The service's JSON answer to a POST, waited for at most 30 s (a page's test must not hang)."""
    return api(base, "POST", path, body, timeout=30)


def action_cards(action: dict) -> list[str]:
    if isinstance(action.get("cards"), list):
        return action["cards"]
    return [action["card"]] if isinstance(action.get("card"), str) else []


@dataclass
class TappedDeal:
    """What entering one deal by taps took: entries made, taps made, the budget of taps (a pass
    1, a play of k cards k + 1), each tap's time to the next screen (ms), each entry's last tap
    (the one sending it), the English words seen on the play screens, the state after the deal."""
    entries: int = 0
    taps: int = 0
    budget: int = 0
    times: list[float] = field(default_factory=list)
    send_times: list[float] = field(default_factory=list)
    english: set[str] = field(default_factory=set)
    state: dict | None = None


def tap_a_whole_deal(driver, base: str, state: dict, rng: random.Random, *,
                     language: str = "ja", max_entries: int = 400) -> TappedDeal:
    """Enter the deal the page shows (its state `state`) to its result, each entry a random
    legal action of the seat to act tapped in `language`; each entry checked against the
    service as it goes (the page's seat to act is the service's, the entry valid)."""
    done = TappedDeal(state=state)
    for _ in range(max_entries):
        seen = driver.execute_async_script(_TAP_ENTRY, None, "")
        assert "error" not in seen, seen
        done.english |= set(ENGLISH_WORD.findall(seen["words"]))
        if seen.get("result"):
            return done
        assert seen["inView"] or not done.entries, \
            f"after entry {done.entries}: the seat to act out of view"
        listed = post(base, "/v1/legal-actions", {"state": done.state, "player": seen["seat"]})["actions"]
        action = rng.choice(listed)
        cards = action_cards(action)
        tapped = driver.execute_async_script(_TAP_ENTRY, cards, action["text"][language])
        assert "error" not in tapped, (tapped, action)
        done.taps += tapped["taps"]
        done.budget += len(cards) + 1
        done.times += tapped["times"]
        done.send_times.append(tapped["times"][-1])
        done.entries += 1
        answer = post(base, "/v1/validate", {"state": done.state, "action": action})
        assert answer["valid"], answer
        done.state = answer["state"]
    raise AssertionError(f"no result after {max_entries} entries")
