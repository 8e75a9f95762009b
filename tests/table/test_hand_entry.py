"""Dealing from the table and to it, on the page a referee holds: a whole Guandan deal entered by
taps on a phone (the next seat when a hand is full, the last hand filled by itself, n/27 shown,
nothing moving under the finger), the undo of the last card, and the printable dealing sheet of
a server-shuffled deal (one slip per seat, with its cards and the seed commitment)."""
from __future__ import annotations

import json
import random
import urllib.request
from collections import Counter

import pytest
from selenium.webdriver.common.by import By

from engine.cards import double_deck_108
from tests.table.browser import start_browser
from tests.table.conftest import REFEREE_KEY
from tests.table.pagedriver import (
    click,
    find,
    finds,
    idle,
    open_page,
    saved_match,
    set_up,
    tid,
    wait_for,
    wait_present,
)

SEATS = ["north", "east", "south", "west"]

# Where everything a finger taps on the hand-entry screen is, in the viewport: each seat's
# button, the undo, every card of the picker (and the page's scroll). Before a tap: the element
# to tap brought into view first, as a finger would scroll to it, and the seat being entered.
_WHERE = """
const places = () => {
  const out = {scroll: [window.scrollX, window.scrollY]};
  for (const el of document.querySelectorAll(
      '[data-testid^="draft-seat-"], [data-testid="draft-undo"], [data-testid^="pick-"]')) {
    const r = el.getBoundingClientRect();
    out[el.dataset.testid] = [r.x, r.y, r.width, r.height].map((v) => Math.round(v * 10) / 10);
  }
  return out;
};
"""
_BEFORE_TAP = _WHERE + """
const el = document.querySelector(`[data-testid="${arguments[0]}"]`);
el.scrollIntoView({block: "nearest"});
const r = el.getBoundingClientRect();
const [x, y] = [r.x + r.width / 2, r.y + r.height / 2];
const seat = document.querySelector('[data-testid="draft-seats"] button[aria-pressed="true"]');
return [[x, y], el.contains(document.elementFromPoint(x, y)), places(),
        seat.dataset.testid.slice("draft-seat-".length)];
"""
_AFTER_TAP = _WHERE + """
const done = arguments[arguments.length - 1];
const settled = () => (document.getElementById("app").dataset.busy ? setTimeout(settled, 5) : done(places()));
settled();
"""


def tap_in_place(driver, name: str) -> str:
    """Tap `name` as a finger does, then assert that nothing tappable moved: the tapped element
    and every other one are where they were before the tap. Answers the seat being entered when
    it was tapped."""
    (x, y), hit, before, seat = driver.execute_script(_BEFORE_TAP, name)
    assert hit, f"{name} is covered at its own centre"
    # a tap where the element is on the screen (the browser's own input, not a script's click)
    for kind in ("mousePressed", "mouseReleased"):
        driver.execute_cdp_cmd("Input.dispatchMouseEvent",
                               {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1})
    after = driver.execute_async_script(_AFTER_TAP)
    moved = {k: (before[k], after[k]) for k in before.keys() & after.keys() if before[k] != after[k]}
    assert not moved, f"tapping {name} moved {moved}"
    return seat


def tap_all(driver, names: list[str]) -> None:
    """Tap each of `names` in turn, in one round trip (the page re-renders at once on each)."""
    driver.execute_script(
        "for (const n of arguments[0]) document.querySelector(`[data-testid=\"${n}\"]`).click()", names)


@pytest.fixture(scope="module")
def phone(table_service):
    """A phone held upright (Chrome's emulation, 390 × 844), for this module's tests."""
    driver = start_browser(phone=True)
    yield driver
    driver.quit()


def current_seat(driver) -> str:
    return find(driver, "draft-seats").find_element(
        By.CSS_SELECTOR, 'button[aria-pressed="true"]').get_attribute("data-testid")[len("draft-seat-"):]


def shuffled_hands(seed: int) -> tuple[dict[str, list[str]], str]:
    """Four hands of 27 of Guandan's 108 cards, and a cut card whose two copies are in one hand
    (so that its holder leads and no `leader` is asked for, G-4)."""
    deck = double_deck_108()
    random.Random(seed).shuffle(deck)
    hands = {seat: deck[27 * i:27 * (i + 1)] for i, seat in enumerate(SEATS)}
    cut = next(c for c in sorted(set(deck)) if len(c) == 2
               and any(Counter(h)[c] == 2 for h in hands.values()))
    return hands, cut


def test_a_guandan_deal_is_entered_in_at_most_85_taps_and_nothing_moves_under_the_finger(
        phone, table_service):
    hands, cut = shuffled_hands(2026)
    open_page(phone, table_service)
    set_up(phone, "guandan", seats=SEATS, key=REFEREE_KEY, physical=True)
    # the hand size comes from the service (a sample deal): n/27 per seat
    wait_for(phone, lambda d: idle(d) and find(d, "draft-count-north").text == "0/27",
             what="the hand sizes")
    taps = 0
    for seat in SEATS[:3]:
        for card in hands[seat]:
            # the page moves to the next seat by itself: no tap on a seat
            assert tap_in_place(phone, f"pick-{card}") == seat
            taps += 1
        assert find(phone, f"draft-count-{seat}").text == "27/27"
    # the last hand is forced: filled by itself with the 27 cards left
    assert find(phone, "draft-count-west").text == "27/27"
    draft = saved_match(phone)["draft"]
    assert {s: Counter(c) for s, c in draft["hands"].items()} == {s: Counter(c) for s, c in hands.items()}
    assert not [b for b in finds(phone, f'{tid("deck-picker")} button') if b.is_enabled()]
    # the cut card (G-4), typed: a tap on the field and one per character
    field = find(phone, "table-cut_card")
    field.click()
    field.send_keys(cut)
    taps += 1 + len(cut)
    find(phone, "deal-physical").click()
    taps += 1
    wait_present(phone, "legal-actions")
    assert taps <= 85, taps
    dealt = saved_match(phone)["deals"][0]["request"]["hands"]
    assert {s: Counter(c) for s, c in dealt.items()} == {s: Counter(c) for s, c in hands.items()}


def test_undo_takes_back_the_last_card_and_the_hand_it_filled(browser, table_service):
    # Manillen with four seats: 8 cards each, the whole 32-card deck in the hands
    open_page(browser, table_service)
    set_up(browser, "manillen", seats=SEATS, key=REFEREE_KEY, physical=True)
    wait_for(browser, lambda d: idle(d) and find(d, "draft-count-west").text == "0/8",
             what="the hand sizes")
    assert not find(browser, "draft-undo").is_enabled()
    deck = [b.get_attribute("aria-label") for b in finds(browser, f'{tid("deck-picker")} button')]
    assert len(deck) == 32
    tap_all(browser, [f"pick-{card}" for card in deck[:24]])
    # three hands tapped, the fourth filled by itself
    wait_for(browser, lambda d: idle(d) and find(d, "draft-count-west").text == "8/8")
    assert sorted(saved_match(browser)["draft"]["hands"]["west"]) == sorted(deck[24:])
    # undo: the last card tapped goes back, and with it the hand it forced
    click(browser, "draft-undo")
    wait_for(browser, lambda d: idle(d) and find(d, "draft-count-west").text == "0/8")
    assert find(browser, "draft-count-south").text == "7/8"
    assert current_seat(browser) == "south"
    assert find(browser, f"pick-{deck[23]}").is_enabled()
    hands = saved_match(browser)["draft"]["hands"]
    assert deck[23] not in hands["south"] and not hands["west"]
    # a card taken out of a hand by its × goes back to the picker, and its undo with it
    click(browser, "draft-undo")
    wait_for(browser, lambda d: idle(d) and find(d, "draft-count-south").text == "6/8")
    find(browser, "draft-hand-south").find_elements(By.CSS_SELECTOR, "button")[0].click()
    wait_for(browser, lambda d: idle(d) and find(d, "draft-count-south").text == "5/8")
    tap_all(browser, ["draft-undo"] * 21)
    wait_for(browser, lambda d: idle(d) and not find(d, "draft-undo").is_enabled())
    assert not any(saved_match(browser)["draft"]["hands"].values())
    assert current_seat(browser) == "north"


def referee_view(base: str, state) -> dict:
    request = urllib.request.Request(
        base + "/v1/view", data=json.dumps({"state": state, "player": "referee"}).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {REFEREE_KEY}"})
    with urllib.request.urlopen(request) as resp:
        return json.load(resp)["view"]


def test_a_server_shuffled_deal_prints_a_dealing_sheet_one_slip_per_seat(browser, table_service):
    open_page(browser, table_service)
    set_up(browser, "guandan", seats=SEATS, key=REFEREE_KEY, tags={"table": "7"})
    commitment = wait_present(browser, "commitment").text
    wait_present(browser, "legal-actions")
    on_turn = find(browser, "to-act").text.rsplit(" ", 1)[-1]
    in_play = [b.get_attribute("aria-label") for b in finds(browser, f'{tid("hand")} button')]
    dealt = referee_view(table_service, saved_match(browser)["deals"][0]["answer"]["state"])["hands"]
    click(browser, "dealing-sheet-open")
    wait_present(browser, "dealing-sheet")
    slips = finds(browser, f'{tid("dealing-sheet")} > .slip')
    assert len(slips) == len(SEATS)
    for seat in SEATS:
        slip = find(browser, f"slip-{seat}")
        cards = [c.get_attribute("data-card") for c in slip.find_elements(By.CSS_SELECTOR, "[data-card]")]
        assert Counter(cards) == Counter(dealt[seat])
        assert f"Seat {seat}" in slip.text and "Deal 1 · Table 7" in slip.text
        assert find(browser, f"slip-{seat}-commitment").text == commitment
        if seat == on_turn:  # in the order the page shows a hand in play
            assert cards == in_play
    assert "♠" in find(browser, "dealing-sheet").text
    # on paper: only the slips, each its own block, none split across pages
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        assert not find(browser, "dealing-sheet-print").is_displayed()
        assert {browser.execute_script("return getComputedStyle(arguments[0]).breakInside", s)
                for s in slips} == {"avoid"}
        assert all(s.is_displayed() for s in slips)
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
    # in Japanese too
    click(browser, "lang-switch")
    wait_for(browser, lambda d: idle(d) and "第1局" in find(d, "slip-north").text, what="the Japanese sheet")
    assert "席 north" in find(browser, "slip-north").text
    assert "シードのコミットメント" in find(browser, "slip-north").text
    click(browser, "lang-switch")
    click(browser, "dealing-sheet-close")
    wait_present(browser, "legal-actions")
