"""A whole deal of every game entered through the table page in a real browser, by clicking what
the page offers, each with the moment its game is known for: Guandan's tribute, Daifugo's
exchange, Man's draw from an unknown stock and a chombo, Manteur's challenge, Manillen's trump."""
from __future__ import annotations

from selenium.webdriver.support.ui import Select

from tests.table.conftest import REFEREE_KEY
from tests.table.pagedriver import (
    click,
    enter_man_table,
    entries,
    find,
    finds,
    idle,
    next_deal,
    open_page,
    pick_hand,
    play_deal,
    saved_match,
    set_up,
    tap_play,
    tid,
    wait_for,
    wait_present,
)


def entered_types(driver) -> list[str]:
    """The action types of the entries of the deal on screen, first entered first."""
    return [li.get_attribute("data-type") for li in reversed(finds(driver, f'{tid("entries")} > li'))]



def test_guandan_deal_opens_with_its_tribute(browser, table_service):
    # a match entered part-way: team1 (p1, p3) finished 1-2 last deal, so p2 and p4 pay tribute
    # The server shuffles: about one deal in four the two payers hold both red jokers between
    # them and pay nothing (T-6, anti-tribute). Such a deal shows no tribute: deal again.
    for _ in range(12):
        open_page(browser, table_service)
        set_up(browser, "guandan", key=REFEREE_KEY, match={
            "levels": {"team1": "3", "team2": "2"}, "declarer": "team1",
            "previous_order": ["p1", "p3"], "deal_number": 1})
        wait_present(browser, "commitment")
        if saved_match(browser)["deals"][-1]["answer"]["state"]["phase"] == "tribute":
            break
    play_deal(browser)
    types = entered_types(browser)
    assert types[:2] == ["tribute", "tribute"], types[:5]  # T-3: a double tribute
    assert "return" in types
    assert find(browser, "deal-deltas").text


def test_daifugo_deal_opens_with_its_exchange_and_the_match_carries_on(browser, table_service):
    open_page(browser, table_service)
    set_up(browser, "daifugo", preset="seed_full", key=REFEREE_KEY, match={  # exchange 2_1
        "deal": 2, "points": {"p1": 2, "p2": 1, "p3": -1, "p4": -2},
        "finish_order": ["p1", "p2", "p3", "p4"]})
    play_deal(browser)
    types = entered_types(browser)
    assert types[:2] == ["exchange", "exchange"], types[:6]  # 大富豪 and 富豪 give back (D11)
    # the next deal is dealt with this one's next_match
    next_deal(browser)
    assert "2" in find(browser, "title").text
    match = saved_match(browser)
    assert match["deals"][1]["request"]["match"] == match["deals"][0]["steps"][-1]["next_match"]
    # the running totals are the deal's deltas summed
    for seat in match["players"]:
        summed = sum(s["delta"] for d in match["deals"] for step in d["steps"]
                     for s in step["score_deltas"] if s["target"] == seat)
        assert find(browser, f"total-{seat}").text == str(summed)


def test_man_from_the_table_a_draw_names_its_card_and_a_chombo_ends_the_deal(browser, table_service):
    open_page(browser, table_service)
    set_up(browser, "man", seats=["ann", "bob"], preset="referee", key=REFEREE_KEY, physical=True)
    wait_present(browser, "deck-picker")
    pick_hand(browser, "ann", ["H9", "C4", "SK"])
    pick_hand(browser, "bob", ["H5", "C6", "S9"])
    # the picker offers no card twice: H9 is in ann's hand
    find(browser, "draft-seat-bob").click()
    assert not wait_present(browser, "pick-H9").is_enabled()
    enter_man_table(browser, "H7", "bob")
    find(browser, "deal-physical").click()
    wait_present(browser, "legal-actions")
    # ann wins the opening race with H9; bob draws from a stock nobody has seen
    click(browser, "act-seat-ann")
    wait_for(browser, lambda d: idle(d) and "ann" in find(d, "to-act").text)
    tap_play(browser, "H9")
    wait_for(browser, lambda d: idle(d) and entries(d) == 1 and finds(d, '[data-type="draw"]'),
             what="bob's turn")
    finds(browser, '[data-type="draw"]')[0].click()
    picker = wait_present(browser, "draw-picker")
    # the service asked for the card (3.10): its refusal shows with the question
    assert "3.10" in find(browser, "refusal-rule").text
    offered = [b.get_attribute("aria-label") for b in picker.find_elements("css selector", "button")]
    # the cards offered are the stock's: none of those on the table or in a hand
    assert offered and not {"H9", "C4", "SK", "H5", "C6", "S9", "H7"} & set(offered)
    drawn = offered[0]
    click(browser, f"drawn-{drawn}")
    click(browser, "ask-send")
    wait_for(browser, lambda d: idle(d) and entries(d) == 2, what="the draw")
    assert drawn in saved_match(browser)["deals"][0]["steps"][1]["action"]["cards"]
    # bob now plays C6 on H9: neither rank nor suit; under the referee preset that is a chombo
    click(browser, "hand-C6")
    click(browser, "other-form")
    Select(find(browser, "other-type")).select_by_value("play")
    click(browser, "other-send")
    wait_present(browser, "result")
    events = find(browser, "result").text
    assert "chombo" in events
    assert "bob" in find(browser, "deal-deltas").text
    # the next deal is entered from the table too, dealt with this deal's next_match
    click(browser, "next-deal")
    wait_present(browser, "deck-picker")
    match = saved_match(browser)
    assert match["draft"]["request"]["match"] == match["deals"][0]["steps"][-1]["next_match"]
    assert all(not cards for cards in match["draft"]["hands"].values())


def test_manteur_deal_ends_at_a_challenge(browser, table_service):
    open_page(browser, table_service)
    set_up(browser, "manteur", seats=["ann", "bob", "cy"], key=REFEREE_KEY,
           options={"penalty_limit": "1"})
    play_deal(browser, ["challenge", "declare"])
    assert entered_types(browser)[-1] == "challenge"
    # the challenge's outcome, in the service's words, under its entry
    events = saved_match(browser)["deals"][-1]["steps"][-1]["events"]
    challenged = next(e for e in events if e["type"] == "challenged")
    assert challenged["text"]["en"] in find(browser, "entries").text


def test_manillen_deal_with_its_trump_choice(browser, table_service):
    open_page(browser, table_service)
    set_up(browser, "manillen", key=REFEREE_KEY)
    play_deal(browser, ["choose_trump", "look_at_hand", "play", "pass"])
    types = entered_types(browser)
    assert "choose_trump" in types
    assert types.count("play") >= 8
