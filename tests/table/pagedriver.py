"""Driving the table page as a referee does: by what is on the screen (data-testid marks)."""
from __future__ import annotations

import json
from typing import Any

from selenium.common.exceptions import (
    NoSuchElementException,
    StaleElementReferenceException,
)
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait


def tid(name: str) -> str:
    return f'[data-testid="{name}"]'


def find(driver, name: str):
    return driver.find_element(By.CSS_SELECTOR, tid(name))


def finds(driver, css: str):
    return driver.find_elements(By.CSS_SELECTOR, css)


# The page's own storage module (service/table/store.js), imported into the page: the same module,
# so the same database and the same bookkeeping as the page's.
_STORE = "import(new URL('table/store.js', location.href).href)"


def saved_match(driver) -> Any:
    """The match open on the page, as the page kept it in the browser (IndexedDB, store.js):
    the states it does not keep (a step's but the last of each deal) are null."""
    return json.loads(driver.execute_async_script(
        f"const done = arguments[0]; {_STORE}.then((s) => s.currentMatch())"
        ".then((m) => done(JSON.stringify(m)), (e) => done(JSON.stringify({error: String(e)})));"))


def forget_matches(driver, base: str) -> None:
    """Everything the page keeps in this browser at `base` (its matches, the session's key),
    gone: opened from the service's index page (same origin, no match open), so that nothing
    holds the database."""
    driver.get(base + "/")
    assert driver.execute_async_script("""const done = arguments[0];
      localStorage.clear(); sessionStorage.clear();
      const req = indexedDB.deleteDatabase("cardref-table");
      req.onsuccess = () => done(true); req.onerror = () => done(String(req.error));""") is True

def wait_for(driver, predicate, timeout: float = 15, what: str = "the page"):
    def check(d):
        try:
            return predicate(d)
        except (NoSuchElementException, StaleElementReferenceException):
            return False
    return WebDriverWait(driver, timeout, poll_frequency=0.03).until(check, f"waiting for {what}")


def idle(driver) -> bool:
    return driver.execute_script("return !document.getElementById('app').dataset.busy")


def wait_present(driver, name: str, timeout: float = 15):
    return wait_for(driver, lambda d: idle(d) and find(d, name), timeout, name)


def click(driver, name: str, timeout: float = 15) -> None:
    """Click `name` once the page is idle (it re-renders after every answer)."""
    def clicked(d):
        if not idle(d):
            return False
        find(d, name).click()
        return True
    wait_for(driver, clicked, timeout, f"to click {name}")


def open_page(driver, base: str, *, fresh: bool = True) -> None:
    """The table page, with nothing saved from an earlier test when `fresh`."""
    if fresh:
        forget_matches(driver, base)
    driver.get(base + "/table")
    wait_for(driver, lambda d: finds(d, tid("start")) or finds(d, tid("title")), what="the page to load")


def set_up(driver, game: str, *, seats: list[str] | None = None, preset: str = "", key: str = "",
           physical: bool = False, options: dict | None = None, match: dict | None = None,
           tags: dict | None = None) -> None:
    Select(find(driver, "game")).select_by_value(game)
    if preset:
        Select(find(driver, "preset")).select_by_value(preset)
    for name, value in (options or {}).items():
        field = find(driver, f"option-{name}")
        driver.execute_script("arguments[0].closest('details').open = true", field)
        if field.tag_name == "select":
            Select(field).select_by_value(value)
        else:
            field.send_keys(value)
            driver.execute_script("arguments[0].dispatchEvent(new Event('change'))", field)
    if match is not None:
        field = find(driver, "match-values")
        driver.execute_script("arguments[0].closest('details').open = true", field)
        field.send_keys(json.dumps(match))
        driver.execute_script("arguments[0].dispatchEvent(new Event('change'))", field)
    if seats:
        driver.execute_script("arguments[0].value = arguments[1];"
                              "arguments[0].dispatchEvent(new Event('change'))",
                              find(driver, "seat-count"), str(len(seats)))
        for i, seat in enumerate(seats):
            box = wait_present(driver, f"seat-{i}")
            box.clear()
            box.send_keys(seat)
    for tag, value in (tags or {}).items():
        field = find(driver, f"tag-{tag}")
        driver.execute_script("arguments[0].closest('details').open = true", field)
        field.send_keys(value)
    if physical:
        find(driver, "mode-physical").click()
    if key:
        find(driver, "key").clear()  # the key kept for the session, if any, replaced
        find(driver, "key").send_keys(key)
    find(driver, "start").click()


def entries(driver) -> int:
    return len(finds(driver, f'{tid("entries")} > li'))


# One round trip to the browser per action: the script picks the button as `pick` would, clicks
# it, and waits in the page until the entry is made (or a question or refusal shows).
_CLICK_BEST = """
const [order, done] = [arguments[0], arguments[arguments.length - 1]];
const q = (s) => document.querySelector(s);
const count = () => document.querySelectorAll('[data-testid="entries"] > li').length;
const settled = () => q('[data-testid="result"]') || q('[data-testid="ask-cards"]') || q('[data-testid="refusal"]')
  || q('[data-testid="queue"]') || document.querySelector('[data-testid="legal-actions"] button.legal');
const started = Date.now();
function wait(pred, then) {
  const tick = () => {
    const v = pred(); if (v) return then(v);
    if (Date.now() - started > 20000) return done("timeout");
    setTimeout(tick, 5);
  };
  tick();
}
wait(settled, () => {
  if (q('[data-testid="result"]')) return done("result");
  if (q('[data-testid="ask-cards"]')) return done("ask");
  if (q('[data-testid="refusal"]')) return done("refusal: " + q('[data-testid="refusal"]').textContent);
  const buttons = [...document.querySelectorAll('[data-testid="legal-actions"] button.legal')];
  const rank = (b) => {
    if (order === "most_cards") return [b.dataset.type !== "pass" ? 1 : 0, Number(b.dataset.cards)];
    const i = order.indexOf(b.dataset.type);
    return [i < 0 ? -99 : -i, Number(b.dataset.cards)];
  };
  let best = buttons[0];
  for (const b of buttons) {
    const [a1, a2] = rank(b), [b1, b2] = rank(best);
    if (a1 > b1 || (a1 === b1 && a2 > b2)) best = b;
  }
  const before = count();
  best.click();
  const idle = () => !document.getElementById("app").dataset.busy;
  wait(() => idle() && (count() > before || q('[data-testid="ask-cards"]') || q('[data-testid="refusal"]')),
       () => wait(settled, () => done(q('[data-testid="ask-cards"]') ? "ask" : "entered")));
});
"""


def play_deal(driver, order="most_cards", *, max_steps: int = 800, on_step=None) -> int:
    """Enter legal actions until the deal's result shows, one browser round trip per action;
    a question about unknown cards is answered with the first card offered. `order`: "most_cards", or a list of
    action types, the first listed preferred (then the most cards)."""
    for step in range(max_steps):
        if on_step is not None and on_step():
            continue
        outcome = driver.execute_async_script(_CLICK_BEST, order)
        if outcome == "result":
            return step
        if outcome == "ask":
            offered = [b for b in finds(driver, f'{tid("draw-picker")} button') if b.is_enabled()]
            offered[0].click()
            before = entries(driver)
            find(driver, "ask-send").click()
            wait_for(driver, lambda d, before=before: idle(d) and (
                entries(d) > before or finds(d, tid("refusal"))), what="the drawn card")
            assert entries(driver) > before, find(driver, "refusal").text
            continue
        assert outcome == "entered", outcome
    raise AssertionError(f"no result after {max_steps} actions")


def next_deal(driver) -> None:
    """The next deal of the match, carried by the last deal's next_match."""
    title = find(driver, "title").text
    find(driver, "next-deal").click()
    wait_for(driver, lambda d: find(d, "title").text != title and not finds(d, tid("result")),
             what="the next deal")


def play_steps(driver, count: int, order="most_cards") -> None:
    """Enter `count` legal actions (as play_deal chooses them)."""
    for _ in range(count):
        outcome = driver.execute_async_script(_CLICK_BEST, order)
        assert outcome == "entered", outcome


def enter_other(driver, action_type: str, seat: str, **fields: str) -> None:
    """What a player did, entered in the page's form whether the rules allow it or not."""
    from selenium.webdriver.support.ui import Select

    form = wait_present(driver, "other-form")
    if form.get_attribute("open") is None:
        driver.find_element(By.CSS_SELECTOR, f'{tid("other-form")} > summary').click()
    Select(find(driver, "other-type")).select_by_value(action_type)
    Select(find(driver, "other-player")).select_by_value(seat)
    for name, value in fields.items():
        box = find(driver, f"field-{name}")
        box.send_keys(value)
        driver.execute_script("arguments[0].dispatchEvent(new Event('change'))", box)
    click(driver, "other-send")
    wait_for(driver, lambda d: idle(d), what="the entry")


def no_sideways_scroll(driver) -> tuple[int, int]:
    """(the page's scroll width, the viewport's width): equal when nothing sticks out."""
    return tuple(driver.execute_script(
        "return [document.documentElement.scrollWidth, document.documentElement.clientWidth]"))


def pick_hand(driver, seat: str, cards: list[str]) -> None:
    """A seat's cards entered with the card picker of a deal from the table."""
    click(driver, f"draft-seat-{seat}")
    for card in cards:
        wait_present(driver, f"pick-{card}").click()
    wait_for(driver, lambda d: len(finds(d, f'{tid(f"draft-hand-{seat}")} button')) == len(cards),
             what=f"{seat}'s hand")


def enter_man_table(driver, start_card: str, dealer: str) -> None:
    """What else a Man deal from the table needs beside the hands: the start card turned and
    the dealer."""
    field = find(driver, "table-start_cards")
    field.send_keys(start_card)
    driver.execute_script("arguments[0].dispatchEvent(new Event('change'))", field)
    Select(find(driver, "dealer")).select_by_value(dealer)


def tap_play(driver, *cards: str, reading: int = 0) -> None:
    """A play entered as a referee taps it: the cards of the hand, then the play they make (its
    `reading`-th, where the same cards read several ways)."""
    for card in cards:
        click(driver, f"hand-{card}")
    click(driver, f"play-{reading}")


def tap_listed(driver, index: int) -> None:
    """The `index`-th of every listed action, from the full list (collapsed under the hand)."""
    box = wait_present(driver, "all-actions")
    if box.get_attribute("open") is None:
        box.find_element(By.CSS_SELECTOR, "summary").click()
    click(driver, f"legal-{index}")
