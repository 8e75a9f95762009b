"""The table at a glance and one tap per act, on a phone held upright (390 px): a whole Guandan
deal entered by tapping what the page offers (tests/table/tapping.py) — random legal actions,
each tapped as a referee does — counting the taps per entry, in Japanese, with no English word
on the play screen. How long a tap takes is measured by bench/table_page.py, not asserted here."""
from __future__ import annotations

import json
import random
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
from tests.table.tapping import action_cards, post, tap_a_whole_deal


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

        start = saved_match(driver)["deals"][-1]["answer"]["state"]
        deal = tap_a_whole_deal(driver, table_service, start, rng, language="ja")
        print(f"\nGuandan deal on a phone: {deal.entries} entries, {deal.taps} taps "
              f"({deal.taps / deal.entries:.2f} per entry; {deal.taps / deal.budget:.2f} of a pass 1, "
              f"a play k + 1); the time a tap takes is bench/table_page.py's")
        assert deal.taps / deal.budget <= 1.3
        assert not deal.english, f"English words on the Japanese play screen: {sorted(deal.english)}"
        state = deal.state
        # the deal's result, and the teams' levels after it, in the glance: "team 1 now at 4"
        assert find(driver, "result")
        after = post(table_service, "/v1/view", {"state": state, "player": "p1"})["view"]["standings"]
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
        listed = post(table_service, "/v1/legal-actions", {"state": state, "player": seat})["actions"]
        bare = sorted(a["text"]["en"] for a in listed if not action_cards(a))
        bar = find(phone, "act-bar")
        # a button each, or, for a type listed in many variants, one list to choose from
        offered = [b.text for b in bar.find_elements(By.CSS_SELECTOR, "button.legal")]
        offered += [o.get_attribute("textContent") for o in bar.find_elements(By.CSS_SELECTOR, "select option[value]")
                    if o.get_attribute("value")]
        assert sorted(offered) == bare, game["id"]
        view = post(table_service, "/v1/view", {"state": state, "player": seat})["view"]
        facts = [li.get_attribute("data-testid") for li in finds(phone, f'{tid("facts")} > li')]
        assert facts == [f"fact-{f['key']}" for f in view["summary"]["facts"]], game["id"]
        assert len(finds(phone, f'{tid("standings")} > li')) == len(view["standings"]["entries"])
        hand = finds(phone, tid("hand"))
        if hand:  # the bar right above the hand: nothing between them
            assert phone.execute_script("return arguments[0].nextElementSibling === arguments[1]", bar, hand[0])
        page, viewport = no_sideways_scroll(phone)
        assert page <= viewport, game["id"]
