"""Conformance: the same properties over every registered game (OpenSpiel-style), from random
legal play-outs of deals and whole matches, at every player count a game allows, under random
presets and options drawn from what the game publishes. No game is named here: the games come
from the registry (helpers.GAME_IDS), their answers from engine.adjudicate.
"""
from __future__ import annotations

import json
import random
import re
from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st

from engine import adjudicate, registry
from engine.adjudicate import ENGINE_REFUSAL_DETAILS
from engine.cards import deck_54
from engine.errors import InputError, InvalidDeal
from tests.adjudication import random_action
from tests.conformance import helpers
from tests.conformance.helpers import GAME_IDS, LEGAL_SAMPLE, jsonable, tables
from tests.leaks import assert_no_leak
from tests.sizing import examples

by_game = pytest.mark.parametrize("game_id", GAME_IDS)


def test_the_registry_finds_games_to_check():
    """An empty parametrization would pass vacuously: the engine registers its games."""
    assert len(GAME_IDS) >= 2, GAME_IDS


def table_or_reject(game_id: str, data) -> dict:
    return data.draw(tables(game_id), label="table")


@by_game
@settings(max_examples=examples(4))
@given(data=st.data())
def test_random_legal_play_reaches_the_end_of_a_match(game_id, data):
    """Random legal play-outs end: every deal finishes, each finished deal's next_match is taken
    as the next deal's match (as a client passes it on, through JSON) until the game ends the
    match; and every legal action listed at each step is accepted (all, or a random sample)."""
    table = table_or_reject(game_id, data)
    rnd = random.Random(data.draw(st.integers(0, 2**32), label="play"))
    deals = finished = 0
    for _number, _dealt, step in helpers.play_match(game_id, table, rnd):
        if step is None:
            deals += 1
            continue
        every = [a for actions in step.legal.values() for a in actions]
        for action in rnd.sample(every, min(LEGAL_SAMPLE, len(every))):
            answer = adjudicate.validate(step.state, action)
            assert answer.valid, (action, answer.refusal.code, answer.refusal.en)
        if step.applied.status == "finished":
            finished += 1
            assert step.applied.next_match is None or \
                jsonable(step.applied.next_match) is not None
    assert deals == 0 or finished == deals, f"{deals} deals, {finished} finished"


def assert_worded(what, text) -> None:
    """Words for people in both languages: {en, ja}, each a non-empty string."""
    assert isinstance(text, dict) and set(text) == {"en", "ja"}, (what, text)
    assert all(isinstance(t, str) and t.strip() for t in text.values()), (what, text)


@by_game
@settings(max_examples=examples(4))
@given(data=st.data())
def test_every_listed_action_and_every_score_delta_is_worded_in_both_languages(game_id, data):
    """Along random matches, every action listed to a seat and to the table's referee carries
    `text` {en, ja} (what a button offering it says), and every score delta answered carries
    `text` {en, ja} (why, for people), non-empty in both languages."""
    table = table_or_reject(game_id, data)
    rnd = random.Random(data.draw(st.integers(0, 2**32), label="play"))
    for _number, _dealt, step in helpers.play_match(game_id, table, rnd):
        if step is None:
            continue
        for action in [a for actions in step.legal.values() for a in actions]:
            assert_worded(action, action.get("text"))
        for action in adjudicate.legal_actions(step.state, "referee", referee_seen=True):
            assert_worded(action, action.get("text"))
        for delta in step.applied.score_deltas:
            assert_worded(delta, delta.get("text"))


@by_game
@settings(max_examples=examples(4))
@given(data=st.data())
def test_every_event_is_worded_in_both_languages(game_id, data):
    """Along random matches, every event answered carries `text` {en, ja}, non-empty in both
    languages (what the table's log reads out), and a listed referee act's events too: a
    warning, a penalty and the withdrawal of the entry it recorded."""
    table = table_or_reject(game_id, data)
    rnd = random.Random(data.draw(st.integers(0, 2**32), label="play"))
    types = set()
    for _number, _dealt, step in helpers.play_match(game_id, table, rnd):
        if step is None:
            continue
        for event in step.applied.events:
            assert_worded(event, event.get("text"))
            types.add(event["type"])
        if step.applied.status == "finished" or rnd.random() > 0.1:
            continue
        seat = rnd.choice(step.state["players"])
        for act in ({"type": "warning", "player": seat, "reason": "slow play"},
                    {"type": "penalty", "player": seat, "points": 1}):
            answer = adjudicate.validate(step.state, act)
            assert answer.valid, (act, answer.refusal.code)
            for event in answer.events:
                assert_worded(event, event.get("text"))
            if answer.status == "finished":
                break  # the penalty ended the game (Manteur's penalty limit, B22): no withdrawal
            withdraw = {"type": "withdraw", "player": seat,
                        "entry": len(answer.state["referee_ledger"])}
            after = adjudicate.validate(answer.state, withdraw)
            assert after.valid, (withdraw, after.refusal.code)
            for event in after.events:
                assert_worded(event, event.get("text"))
    assert types, "a match answers events"


@by_game
@settings(max_examples=examples(4))
@given(data=st.data())
def test_the_published_deck_is_the_deck_dealt_from(game_id, data):
    """`Game.deck` (GET /v1/games `deck`, the table page's card picker) is the deck a deal is
    dealt from, under random options: a seeded deal's hands hold no card beyond it (nor more
    copies), an explicit deck of exactly its cards is taken as a deck, and one card short is
    refused as a deck (`deck_invalid` at `deck`)."""
    game = registry.get(game_id)
    table = table_or_reject(game_id, data)
    dealt = helpers.deal(game_id, table)
    if dealt is None:
        return
    deck = game.deck(game.resolve_options(table["options"]))
    assert deck, f"{game_id} publishes no deck (Game.deck)"
    held = Counter(c for hand in helpers.hands_of(game_id, dealt["state"]).values() for c in hand)
    assert not held - Counter(deck), held - Counter(deck)
    shuffled = random.Random(data.draw(st.integers(0, 2**32), label="order")).sample(deck, len(deck))
    for cards, taken in ((shuffled, True), (shuffled[:-1], False)):
        try:
            adjudicate.deal(game_id, dealt["players"], table["options"], deck=cards)
            refused_at = None
        except InvalidDeal as err:
            refused_at = err.path
        # the whole deck may still lack what the table decides (a cut card, the first leader)
        assert (refused_at != "deck") == taken, (len(cards), refused_at)


@by_game
@settings(max_examples=examples(4))
@given(data=st.data())
def test_every_state_survives_encode_and_decode(game_id, data):
    """decode(encode(s)) encodes the same, for every state of a random deal, and a state is
    JSON: a client posts back what it received."""
    game = registry.get(game_id)
    table = table_or_reject(game_id, data)
    dealt = helpers.deal(game_id, table)
    if dealt is None:
        return
    rnd = random.Random(data.draw(st.integers(0, 2**32), label="play"))
    states = [dealt["state"]] + [s.applied.state for s in helpers.play_deal(game_id, dealt, rnd)]
    for state in states:
        assert jsonable(state) == state
        again = game.encode(game.decode(state))
        assert again == state, [k for k in state if again.get(k) != state.get(k)]
        assert game.encode(game.decode_trusted(state)) == state
        _, loaded = adjudicate.load_state(state)
        assert game.encode(loaded) == state


@by_game
@settings(max_examples=examples(4))
@given(data=st.data())
def test_no_view_shows_another_seats_hidden_hand(game_id, data):
    """A seat's view (and a spectator's) shows no other seat's hand unless the rules lay it
    open: its hands field (the facts' `view_hands`, seat -> cards, or `view_hand`, the viewer's
    own) holds nothing else; no card of such a hand appears anywhere else in the view either
    (but in public records, and for cards the viewer held itself earlier in the deal: an
    exchange, a tribute, a hand passed on; a game of two decks names each card twice, so the
    scan skips it); a pile the view declares never shown (engine/state.py Hidden) is null and
    none of its cards, nor a card lying face down, appears anywhere; and the seed and its
    salt appear nowhere."""
    table = table_or_reject(game_id, data)
    dealt = helpers.deal(game_id, table)
    if dealt is None:
        return
    facts = helpers.facts(game_id)
    rnd = random.Random(data.draw(st.integers(0, 2**32), label="play"))
    piles = helpers.hidden_view_fields(game_id)
    held: dict[str, set] = {p: set() for p in dealt["players"]}
    states = [dealt["state"]] + [s.applied.state for s in helpers.play_deal(game_id, dealt, rnd)]
    every = [c for hand in helpers.hands_of(game_id, states[0]).values() for c in hand]
    twice = len(set(every)) < len(every)
    for state in states:
        if state["status"] == "finished":
            continue  # a finished deal may lay every hand open (its record)
        hands = helpers.hands_of(game_id, state)
        public = helpers.public_seats(game_id, state)
        for p, hand in hands.items():
            held[p] |= set(hand)
        in_piles = {c for name in piles for c in state.get(name) or ()} | \
            helpers.face_down(game_id, state)
        for viewer in [*state["players"], None]:
            view = adjudicate.view(state, viewer)
            for name in piles:
                assert view.get(name) is None, f"{viewer!r} sees the pile {name!r}"
            if "view_hands" in facts:
                for p, shown in view[facts["view_hands"]].items():
                    if p != viewer and p not in public:
                        assert shown is None, f"{viewer!r} sees {p}'s hand"
            else:
                shown = view[facts["view_hand"]]
                assert shown is None or viewer in hands and \
                    sorted(shown) == sorted(hands[viewer]), f"{viewer!r} sees a hand not its own"
            hidden = {c for p, hand in hands.items() if p != viewer and p not in public
                      for c in hand}
            if twice:
                hidden = set()
            assert_no_leak(helpers.scanned(game_id, view),
                           (in_piles | hidden) - held.get(viewer, set()), viewer)
            assert state["seed"] not in json.dumps(view), f"{viewer!r} sees the seed"


# A rule number standing alone: not inside a longer number. ASCII edges, since in Japanese a
# number is written right against kana and kanji (which `\w` counts as word characters).
RULE = "(^|[^0-9A-Za-z_.]){}([^0-9A-Za-z_]|$)"


def assert_cited_on_both_pages(game_id: str, refusal) -> None:
    """A refusal of the game's rules cites "<game> <number>", a rule both rules pages have, and
    is catalogued with it; the engine's own refusals (the same in every game) cite none."""
    if refusal.code in ENGINE_REFUSAL_DETAILS and not refusal.rule:
        return
    prefix, _, number = refusal.rule.partition(" ")
    assert prefix == game_id and number, (refusal.code, refusal.rule)
    # the catalogue (GET /v1/games) maps the code to the same rule
    assert registry.get(game_id).refusals.get(refusal.code) == refusal.rule, \
        (refusal.code, refusal.rule)
    for lang, page in helpers.rules_pages(game_id).items():
        assert re.search(RULE.format(re.escape(number)), page, re.MULTILINE), \
            f"{refusal.code} cites {refusal.rule}, which the {lang} rules page does not have"


def mutations(rnd: random.Random, game, step, players: list[str]) -> list[dict]:
    """Actions near the legal ones, mostly refused: a listed action posted by a seat that may
    not act now, one with other cards, and any declared action with random fields."""
    out = []
    every = [a for actions in step.legal.values() for a in actions]
    action = rnd.choice(every)
    idle = [p for p in players if p not in step.to_act]
    if idle:
        out.append({**action, "player": rnd.choice(idle)})
    cards = deck_54()
    if isinstance(action.get("cards"), list) and action["cards"]:
        out.append({**action, "cards": rnd.sample(cards, len(action["cards"]))})
    if isinstance(action.get("card"), str):
        out.append({**action, "card": rnd.choice(cards)})
    out.append(random_action(rnd, game, players, rnd.choice(players)))
    return out


@by_game
@settings(max_examples=examples(4))
@given(data=st.data())
def test_refusals_cite_a_rule_of_both_rules_pages(game_id, data):
    """Refused actions met in random play (a seat out of turn, other cards, random fields)
    each cite a rule that the game's rules page has, in English and in Japanese."""
    game = registry.get(game_id)
    table = table_or_reject(game_id, data)
    dealt = helpers.deal(game_id, table)
    if dealt is None:
        return
    rnd = random.Random(data.draw(st.integers(0, 2**32), label="play"))
    refused = 0
    for step in helpers.play_deal(game_id, dealt, rnd):
        for action in mutations(rnd, game, step, dealt["players"]):
            try:
                answer = adjudicate.validate(step.state, action)
            except InputError:
                continue  # not well formed: a 422, not a refusal
            if not answer.valid:
                refused += 1
                assert answer.state == step.state
                assert_cited_on_both_pages(game_id, answer.refusal)
    assert refused, "no refusal met"


@pytest.fixture(scope="module")
def client():
    """The service over plain (unsigned) states: its answers are what the spec describes."""
    from service.app import create_app
    from service.config import Settings
    return create_app(Settings(metrics=False)).test_client()


def answered(client, path: str, body: dict) -> dict:
    resp = client.post(path, json=body)
    assert resp.status_code == 200, (path, resp.status_code, resp.get_json())
    return resp.get_json()


@by_game
@settings(max_examples=examples(2))
@given(data=st.data())
def test_every_answer_fits_the_spec_response_schemas(game_id, data, client):
    """Along a random deal, every answer of /v1/validate (accepted, and refused for the
    mutations near the legal actions), /v1/legal-actions and /v1/view (each seat's and a
    spectator's) fits openapi.yaml's response schema, and only its own branch of validate's."""
    game = registry.get(game_id)
    table = table_or_reject(game_id, data)
    dealt = helpers.deal(game_id, table)
    if dealt is None:
        return
    rnd = random.Random(data.draw(st.integers(0, 2**32), label="play"))
    players = dealt["players"]
    for index, step in enumerate(helpers.play_deal(game_id, dealt, rnd)):
        if index % 3 and step.applied.status != "finished":
            continue  # every third step and the deal's last: the directory's budget (≤ 60 s)
        for player in step.to_act:
            answer = answered(client, "/v1/legal-actions", {"state": step.state, "player": player})
            assert not helpers.schema_errors("LegalActionsResponse", answer)
        action = rnd.choice(mutations(rnd, game, step, players))
        resp = client.post("/v1/validate", json={"state": step.state, "action": action})
        if resp.status_code == 200 and not resp.get_json()["valid"]:
            assert not helpers.schema_errors("ValidateRefused", resp.get_json())
            assert helpers.schema_errors("ValidateAccepted", resp.get_json())
        answer = answered(client, "/v1/validate", {"state": step.state, "action": step.action})
        assert answer["valid"] and not helpers.schema_errors("ValidateAccepted", answer), \
            helpers.schema_errors("ValidateAccepted", answer)
        assert helpers.schema_errors("ValidateRefused", answer)
        for seat in [*players, None]:
            answer = answered(client, "/v1/view", {"state": step.state, "player": seat})
            assert not helpers.schema_errors("ViewResponse", answer), \
                helpers.schema_errors("ViewResponse", answer)
