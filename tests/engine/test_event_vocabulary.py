"""One event vocabulary across the games: the same thing happening in two games has the same
event type and the same fields (docs/integrating.md "Events"), and an English answer carries no
Japanese outside the declared `ja` of a text."""
from __future__ import annotations

import random
import re

import pytest

from engine import registry
from tests.adjudication import random_deal_play_out
from tests.sizing import examples

PRODUCT_GAMES = sorted(g.id for g in registry.all_games() if g.id not in ("toy", "crash"))

# concept -> (the type every game uses, the fields every game gives it with their kind, the
# games that have the concept). The table in docs/integrating.md says the same.
SHARED = {
    "a play": ("played", {"player": "player", "cards": "cards"},
               {"man", "manillen", "guandan", "daifugo"}),
    "a pass": ("passed", {"player": "player"}, {"man", "manillen", "guandan", "daifugo"}),
    "a draw": ("drew", {"player": "player", "count": "int"}, {"man"}),
    "a trick won": ("trick_won", {"player": "player"}, {"manillen", "guandan"}),
    "a player out": ("went_out", {"player": "player", "place": "int"}, {"guandan", "daifugo"}),
    "a deal finished": ("deal_finished", {}, {"man", "manillen", "guandan", "daifugo"}),
    "a match finished": ("match_finished", {"winners": "str_list"},
                         {"man", "manillen", "guandan", "manteur", "daifugo"}),
    "a penalty": ("penalized", {"player": "player", "code": None, "rule": "str", "text": "text"},
                  {"man", "daifugo"}),
    "a reshuffle": ("reshuffled", {"number": "int", "count": "int"}, {"man", "manteur"}),
    "an exchange": ("exchanged", {"player": "player", "count": "int"}, {"daifugo", "manteur"}),
}
# The names the shared things had before 2.0.0 (CHANGELOG "Changed (breaking)"): none may
# come back in any game.
RETIRED = {"play", "pass", "card_played", "out", "finished", "deal_over", "deal_won",
           "deal_scored", "game_over", "game_won", "game_drawn", "match_won", "chombo",
           "foul_finish", "reshuffle", "call", "kaeshi", "boom", "card_count", "tribute",
           "first_lead", "anti_tribute", "a_failure", "pass_limit"}
# a word of a past-tense event type: a regular verb, or one of the irregular ones the games
# use; the rule terms of a game keep their own name
PAST = re.compile(r"^\w*ed$|^(won|went|drew|drawn|gave|given|spoke|dealt|paid|taken|thrown|withdrawn)$")
RULE_TERMS = {"jiefeng", "miyako_ochi"}
JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]")


def declared(game_id: str) -> dict:
    return {e.name: e for e in registry.get(game_id).events}


def test_every_game_names_a_play_played_with_a_cards_list():
    for game_id in SHARED["a play"][2]:
        events = declared(game_id)
        assert "played" in events, game_id
        assert events["played"].fields["cards"].kind == "cards", game_id
        assert events["played"].fields["player"].kind == "player", game_id


@pytest.mark.parametrize("concept", sorted(SHARED))
def test_the_shared_vocabulary_holds_across_games(concept):
    type_, fields, games = SHARED[concept]
    for game_id in PRODUCT_GAMES:
        events = declared(game_id)
        if game_id not in games:
            assert type_ not in events, f"{game_id} has {type_}: add it to {concept}"
            continue
        assert type_ in events, f"{game_id}: {concept} is not `{type_}`"
        got = events[type_].fields
        for name, kind in fields.items():
            assert name in got, f"{game_id} {type_} has no `{name}`"
            assert got[name].required, f"{game_id} {type_}: `{name}` is always sent"
            if kind is not None:
                assert got[name].kind == kind, (game_id, type_, name, got[name].kind)


@pytest.mark.parametrize("game_id", PRODUCT_GAMES)
def test_event_types_are_english_past_tense_and_none_is_retired(game_id):
    for name, event in declared(game_id).items():
        assert name not in RETIRED, f"{game_id}: `{name}` was renamed in 2.0.0"
        assert name in RULE_TERMS or any(PAST.match(word) for word in name.split("_")), \
            f"{game_id}: `{name}` is not past tense"
        assert re.fullmatch(r"[a-z][a-z_]*", name), name
        assert not JAPANESE.search(event.description), (game_id, name)


@pytest.mark.parametrize("game_id", PRODUCT_GAMES)
def test_a_set_of_cards_is_a_list_named_cards(game_id):
    """`cards` is a list everywhere; a field of kind cards is named cards (or says whose:
    hand, proof …), and a field named card is always one card."""
    for event in registry.get(game_id).events:
        for name, field in event.fields.items():
            if name == "cards":
                assert field.kind == "cards", (game_id, event.name)
            if name == "card":
                assert field.kind == "card", (game_id, event.name)


def _japanese_outside_ja(value, path="") -> list[str]:
    if isinstance(value, dict):
        return [hit for k, v in value.items() if k != "ja"
                for hit in _japanese_outside_ja(v, f"{path}.{k}")]
    if isinstance(value, list):
        return [hit for i, v in enumerate(value) for hit in _japanese_outside_ja(v, f"{path}[{i}]")]
    if isinstance(value, str) and JAPANESE.search(value):
        return [f"{path}: {value!r}"]
    return []


def test_the_japanese_scan_finds_japanese():
    assert _japanese_outside_ja({"call": "リーチ続行"}) == [".call: 'リーチ続行'"]
    assert _japanese_outside_ja({"reason": "大富豪 (grand millionaire)"})
    assert not _japanese_outside_ja({"text": {"en": "Reach", "ja": "リーチ"}})


@pytest.mark.parametrize("game_id", PRODUCT_GAMES)
def test_no_english_answer_carries_japanese_outside_ja_fields(game_id):
    for seed in range(examples(6)):
        rnd = random.Random(f"vocabulary-{game_id}-{seed}")
        for _players, _state, applied in random_deal_play_out(game_id, rnd, f"vocabulary-{seed}"):
            if applied is not None:
                hits = _japanese_outside_ja({"events": applied.events,
                                             "score_deltas": applied.score_deltas})
                assert not hits, (game_id, seed, hits)


def test_a_refusal_shared_by_games_names_the_same_thing_the_same_way():
    """card_not_in_hand is `player` and the one `card` in every game (Guandan named a list)."""
    for game_id in ("man", "daifugo", "guandan", "manteur"):
        fields = registry.get(game_id).refusal_details["card_not_in_hand"]
        assert {k: f.kind for k, f in fields.items()} == {"player": "player", "card": "card"}, \
            game_id
    for game in registry.all_games():
        for code, fields in game.refusal_details.items():
            for name, field in fields.items():
                if name == "cards":
                    assert field.kind == "cards", (game.id, code)
                if name == "card":
                    assert field.kind == "card", (game.id, code)
