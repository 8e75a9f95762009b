"""Words on choices (Game.action_text) and on score deltas: what a button offering a listed
action says, in both languages; a listed action posted back with any `text` judged by its fields
alone; and the words a game gives its combinations, declarations and the referee's acts."""
from __future__ import annotations

import re

import pytest

from engine import adjudicate, registry
from engine.errors import InvalidAction
from engine.games.manteur.declarations import Declaration, describe
from engine.values import Action
from tests.conformance.helpers import GAME_IDS

FORGED = ({"en": "Pass", "ja": "パス"}, {"en": "", "ja": ""}, "play the ace", 42, None,
          {"en": "Play ♠A", "ja": "♠A を出す", "extra": True})


def _dealt(game_id: str) -> dict:
    game = registry.get(game_id)
    return adjudicate.deal(game_id, [f"p{i}" for i in range(game.min_players)], seed="words",
                           seed_salt="0" * 32)


def _answer(out) -> tuple:
    if not out.valid:
        return ("refused", out.refusal.code, out.refusal.en, out.refusal.details)
    return ("valid", out.state, out.score_deltas, out.events, out.to_act, out.action)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_listed_action_posted_back_with_forged_words_is_judged_by_its_fields_alone(game_id):
    """Each listed action, posted back as listed (its `text` included), is accepted, and with
    any other `text` (the words of another action, empty words, not words at all) gets the
    same answer as without one; posted by a seat not on turn, the same refusal. Nothing of the
    posted words comes back."""
    dealt = _dealt(game_id)
    state, seat = dealt["state"], dealt["to_act"][0]
    listed = adjudicate.legal_actions(state, seat)
    assert listed and all(a["text"]["en"] and a["text"]["ja"] for a in listed)
    idle = [p for p in state["players"] if p not in dealt["to_act"]]
    for action in listed[:6]:
        bare = {k: v for k, v in action.items() if k != "text"}
        plain = _answer(adjudicate.validate(state, bare))
        assert plain[0] == "valid"
        assert _answer(adjudicate.validate(state, action)) == plain
        assert "text" not in plain[-1]
        for forged in FORGED:
            assert _answer(adjudicate.validate(state, {**action, "text": forged})) == plain
        if idle:
            other = {**bare, "player": idle[0]}
            refused = _answer(adjudicate.validate(state, other))
            assert refused[0] == "refused"
            assert _answer(adjudicate.validate(state, {**other, "text": action["text"]})) == \
                refused


def test_words_are_not_a_field_any_other_key_still_is():
    """`text` is set aside like `game`; an unknown key is still a 422 naming it."""
    dealt = _dealt("man")
    action = adjudicate.legal_actions(dealt["state"], dealt["to_act"][0])[0]
    with pytest.raises(InvalidAction) as err:
        adjudicate.validate(dealt["state"], {**action, "texts": action["text"]})
    assert err.value.path == "action.texts"


def _guandan_lead() -> tuple[dict, str, list[dict]]:
    """A first deal of Guandan at level 2: its leader holds 27 cards and leads."""
    dealt = adjudicate.deal("guandan", ["a", "b", "c", "d"], seed="words-lead",
                            seed_salt="0" * 32)
    state, seat = dealt["state"], dealt["to_act"][0]
    assert state["phase"] == "play" and len(state["hands"][seat]) == 27
    return state, seat, adjudicate.legal_actions(state, seat)


def test_guandan_plays_name_their_combination_and_what_a_wild_card_stands_for():
    """§4, §5, W-11: every play of a 27-card lead names its combination in both languages
    (a straight "· straight to 6" / 「・6までのストレート」, bombs, pairs …), and a play whose
    wild heart stands for another card says so."""
    from engine.cards import cards_label
    state, seat, listed = _guandan_lead()
    plays = [a for a in listed if a["type"] == "play"]
    assert len(plays) > 500
    kinds = {"single": "1枚", "pair": "ペア", "triple": "トリプル", "full house": "フルハウス",
             "straight": "ストレート", "tube": "チューブ", "plate": "プレート",
             "bomb": "爆弾", "straight flush": "ストレートフラッシュ", "four jokers": "四王"}
    seen = set()
    for a in plays:
        en, ja = a["text"]["en"], a["text"]["ja"]
        assert en.startswith(f"Play {cards_label(a['cards'], 'en')} · "), en
        assert ja.startswith(f"{cards_label(a['cards'], 'ja')} を出す・"), ja
        kind = next(k for k in sorted(kinds, key=len, reverse=True) if k in en.split(" · ")[1])
        assert kinds[kind] in ja, (en, ja)
        seen.add(kind)
        if "wild" in en:
            assert re.search(r"wild ♥2 as (♠|♥|♦|♣)", en) and "ワイルド♥2を" in ja, (en, ja)
    assert {"single", "pair", "straight", "bomb"} <= seen, seen
    # a straight is named by its top card, as the rules page names it
    straight = next(a for a in plays if "· straight to " in a["text"]["en"])
    top = straight["text"]["en"].split("straight to ")[1].split(" ")[0]
    assert f"{top}までのストレート" in straight["text"]["ja"]
    # a play listed with a declared reading (W-11) names that reading's combination
    for a in plays:
        if "reading" in a:
            name = a["reading"]["type"].replace("_", " ")
            assert name in a["text"]["en"] or a["reading"]["type"] == "bomb", a


def test_guandan_lead_words_are_made_once_per_play():
    """The words of a lead's plays are kept per (cards, reading, level): listing the same hand
    again words nothing anew (engine/games/guandan/words.py)."""
    from engine.games.guandan import words
    state, seat, first = _guandan_lead()
    kept = len(words._WORDS)
    again = adjudicate.legal_actions(state, seat)
    assert len(words._WORDS) == kept
    assert [a["text"] for a in again] == [a["text"] for a in first]


def test_daifugo_stairs_single_pass_and_give_in_words():
    """D5, D6, D8, D18: a button's words, as a table says them."""
    game = registry.get("daifugo")
    dealt = adjudicate.deal("daifugo", ["a", "b", "c", "d"], {"preset": "seed_full"},
                            seed="words", seed_salt="0" * 32)  # stairs played (D6)
    _, state = adjudicate.load_state(dealt["state"])
    stairs = game.action_text(state, Action("play", "a", {"cards": ["S7", "S8", "S9"]}))
    assert stairs == {"en": "Play ♠7 ♠8 ♠9 · stairs", "ja": "♠7 ♠8 ♠9 を出す・階段"}
    pair = game.action_text(state, Action("play", "a", {"cards": ["S7", "H7"]}))
    assert pair == {"en": "Play ♠7 ♥7 · pair", "ja": "♠7 ♥7 を出す・ペア"}
    joker = game.action_text(state, Action("play", "a", {"cards": ["S7", "BJ"],
                                                        "jokers": ["H7"]}))
    assert joker["en"] == "Play ♠7 Black Joker · pair (Black Joker as ♥7)"
    assert joker["ja"] == "♠7 黒ジョーカー を出す・ペア(黒ジョーカーを♥7として)"
    assert game.action_text(state, Action("pass", "a")) == {"en": "Pass", "ja": "パス"}


def test_a_manteur_declaration_is_worded_as_its_event_words_it_once_played():
    """B5: the words a listed declaration carries are those the `declared` event gives it."""
    dealt = adjudicate.deal("manteur", ["ann", "bob", "cho"], seed="words", seed_salt="0" * 32)
    state, seat = dealt["state"], dealt["to_act"][0]
    declares = [a for a in adjudicate.legal_actions(state, seat) if a["type"] == "declare"]
    assert len(declares) > 20
    for a in declares[::7]:
        played = adjudicate.validate(state, a)
        (event,) = [e for e in played.events if e["type"] == "declared"]
        assert a["text"] == {"en": f"Declare {event['text']['en']}",
                             "ja": f"{event['text']['ja']}を宣言する"}
    d = Declaration("pair", ("2",), ("5",))
    assert describe(d) == "pair of 2s with 5"


@pytest.mark.parametrize("game_id,unit", [("man", "point"), ("guandan", "level"),
                                          ("manteur", "penalty point")])
def test_the_referees_ledger_acts_are_worded_in_the_games_unit(game_id, unit):
    """A warning, a penalty (in the game's penalty_kind) and a withdrawal, listed to the
    referee, each say what they do; the penalty's score deltas say why."""
    dealt = _dealt(game_id)
    state = dealt["state"]
    listed = adjudicate.legal_actions(state, "referee", referee_seen=True)
    warn = next(a for a in listed if a["type"] == "warning" and a["player"] == "p0")
    assert warn["text"] == {"en": "Warn p0", "ja": "p0に警告"}
    penalty = next(a for a in listed if a["type"] == "penalty" and a["player"] == "p0")
    assert penalty["text"]["en"] == f"Penalty against p0: 1 {unit}"
    given = adjudicate.validate(state, {**penalty, "reason": "slow play"})
    assert given.score_deltas and all(
        d["text"] == {"en": "Referee's penalty: slow play", "ja": "審判の罰則: slow play"}
        for d in given.score_deltas)
    withdraw = next(a for a in adjudicate.legal_actions(given.state, "referee",
                                                          referee_seen=True)
                    if a["type"] == "withdraw")
    assert withdraw["text"]["en"] == f"Withdraw p0's penalty 1 (1 {unit})"
    assert withdraw["text"]["ja"].startswith("p0の罰則1(")
