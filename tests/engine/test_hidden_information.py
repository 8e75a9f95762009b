"""Under sealing a seat learns only what its answers tell it (README "Security model"): the
state is opaque, and `valid`, the refusal (code, message, rule, details), `to_act`, `events`,
`score_deltas`, `status` and the seat's own view come in clear. So every answer a seat receives
must be computable from what that seat may see: two states that look the same to the seat must
give it the same answer to the same action.

For every registered game: random legal play-outs to a mid-game state; a seat; a second state
made by re-dealing the cards that seat cannot see (other seats' hidden hands, the hidden stock,
face-down cards), keeping every count and every public fact, and accepted only when it is a
valid state whose view for that seat is identical; then the seat's legal actions and some
random (mostly illegal) actions of its own must answer identically in both.

What the test must know of a game comes from the game and its conformance facts
(engine/games/<id>/conformance.json: where the hands are, `public_when`, `mid_game_steps`,
`revealing_actions`, `named_draws`); by default the cards a seat cannot see are the other
seats' hands the rules do not lay open and the piles its view declares never shown. A game
whose rules keep some of those cards known (a tribute received, the next draw's cards) gives
its own in `tests/<id>/hidden.py` (`piles`, `public_facts`, `deal_request`, `referee_options`,
`physical_request`, `complete_draw`: each optional, tests/man/hidden.py has them all).
"""
from __future__ import annotations

import copy
import importlib
import importlib.util
import random
from functools import cache
from types import ModuleType
from typing import Any, Callable

import pytest

from engine import adjudicate, registry
from engine.errors import InputError, InvalidDeal
from tests.adjudication import random_action
from tests.conformance import helpers
from tests.leaks import Pile, differ_only_by_an_unseen_draw, hand_setter
from tests.referee_play import physical_table_fields, table_value
from tests.sizing import examples

GAMES = helpers.GAME_IDS
DEFAULT_STEPS = 30  # a play-out's length when the facts give no `mid_game_steps`

@cache
def own(game_id: str) -> ModuleType | None:
    """The game's own hooks for this test, `tests/<id>/hidden.py`, when it has them."""
    name = f"tests.{game_id}.hidden"
    try:
        found = importlib.util.find_spec(name)
    except ModuleNotFoundError:  # no tests/<id>/ package at all
        return None
    return importlib.import_module(name) if found else None


def hook(game_id: str, name: str, default: Callable[..., Any]) -> Callable[..., Any]:
    return getattr(own(game_id), name, default)


# ------------------------------------------------------------------ what each seat cannot see

def default_piles(game_id: str, j: dict, seat: str) -> list[Pile]:
    """Every other seat's hand the rules do not lay open (the facts' `hands`, or `hand` and its
    `holder`), and every pile of the state its view declares never shown (x-hidden), in any
    order."""
    facts = helpers.facts(game_id)
    public = helpers.public_seats(game_id, j)
    piles: list[Pile] = []
    if "hands" in facts:
        key = facts["hands"]
        for p in j["players"]:
            if p != seat and p not in public:
                piles.append((hand_setter(p, key), [], list(j[key][p] or ())))
    elif j[facts["holder"]] != seat:
        def hand(state: dict, cards: list) -> None:
            state[facts["hand"]] = cards
        piles.append((hand, [], list(j[facts["hand"]])))
    for name in helpers.hidden_view_fields(game_id):
        if isinstance(j.get(name), list):
            def pile(state: dict, cards: list, name: str = name) -> None:
                state[name] = cards
            piles.append((pile, [], list(j[name])))
    return piles


def piles_of(game_id: str, j: dict, seat: str) -> list[Pile]:
    own_piles = getattr(own(game_id), "piles", None)
    return own_piles(j, seat) if own_piles else default_piles(game_id, j, seat)


def revealing(game_id: str) -> set[str]:
    """Actions whose answer shows hidden cards by the rules themselves, so it may differ (a
    Manteur challenge reveals the hand, B14; a Guandan anti-tribute claim shows the big jokers,
    T-6): the facts' `revealing_actions`. Their listing may not differ: it is compared like
    every other."""
    return set(helpers.facts(game_id).get("revealing_actions", ()))


def redeal(game, j: dict, seat: str, rnd: random.Random, tries: int = 80) -> dict | None:
    """Another valid state that looks the same to `seat`: the cards it cannot see shuffled
    among the piles that hold them, every pile keeping its size."""
    piles = piles_of(game.id, j, seat)
    pool = [c for _, _, movable in piles for c in movable]
    if len(set(pool)) < 2:
        return None
    seen = game.view(game.decode(j), seat)
    facts = hook(game.id, "public_facts", lambda _j: True)
    for _ in range(tries):
        rnd.shuffle(pool)
        other = copy.deepcopy(j)
        at = 0
        for put, fixed, movable in piles:
            put(other, fixed + pool[at:at + len(movable)])
            at += len(movable)
        if other == j or not facts(other):
            continue
        try:
            state = game.decode(other)
        except InputError:
            continue
        if game.view(state, seat) == seen:
            return other
    return None


# ------------------------------------------------------------------ the answer a seat receives

def sealed_answer(game, j: dict, action: dict, seat: str) -> dict:
    """Everything a sealed /v1/validate answer tells the acting seat (service/api/validate.py)."""
    try:
        res = adjudicate.validate(j, action, public=True)
    except InputError as err:
        return {"problem": err.code, "path": err.path}
    if not res.valid:
        r = res.refusal
        return {"valid": False, "code": r.code, "en": r.en, "ja": r.ja, "rule": r.rule,
                "details": r.details}
    return {"valid": True, "to_act": res.to_act, "events": res.events,
            "score_deltas": res.score_deltas, "status": res.status,
            "next_match": res.next_match, "view": adjudicate.view(res.state, seat)}



def deal_request(game_id: str, rnd: random.Random, n: int) -> dict:
    players = [f"p{i}" for i in range(n)]
    req: dict[str, Any] = {"game_id": game_id, "players": players, "seed": f"s{rnd.random()}"}
    return {**req, **hook(game_id, "deal_request", lambda _rnd, _players: {})(rnd, players)}


def steps(game_id: str) -> int:
    """How far a play-out may go: most of a deal, so that mid-game states are met, not ends."""
    return helpers.facts(game_id).get("mid_game_steps", DEFAULT_STEPS)


def player_count(game) -> int:
    return 4 if game.min_players <= 4 <= game.max_players else game.min_players


@pytest.mark.parametrize("game_id", GAMES)
def test_answers_depend_only_on_the_seats_view(game_id):
    game = registry.get(game_id)
    rnd = random.Random(f"hidden-{game_id}")
    compared = 0
    for _ in range(examples(30)):
        req = deal_request(game_id, rnd, player_count(game))
        players = req["players"]
        j = adjudicate.deal(**req)["state"]
        for _step in range(rnd.randint(0, steps(game_id))):
            listed = [a for p in players for a in adjudicate.legal_actions(j, p)]
            if not listed:
                break
            out = adjudicate.validate(j, rnd.choice(listed))
            if out.status == "finished":
                break
            j = out.state
        if j["status"] == "finished":
            continue
        for seat in rnd.sample(players, len(players)):
            other = redeal(game, j, seat, rnd)
            if other is None:
                continue
            actions = adjudicate.legal_actions(j, seat)
            assert actions == adjudicate.legal_actions(other, seat), \
                (f"{game_id}: {seat}'s legal actions tell hidden cards", j, other)
            actions = rnd.sample(actions, min(len(actions), 6))
            actions += [random_action(rnd, game, players, seat) for _ in range(4)]
            compared += compare_answers(game, j, other, seat, actions)
    assert compared >= examples(12), compared


def compare_answers(game, j: dict, other: dict, seat: str, actions: list[dict],
                    also_alike=lambda a, b: False) -> int:
    """Post each action to both states as `seat` and require the same sealed answer (or one
    `also_alike` accepts); the number of answers compared. A referee-only act (a ledger
    penalty, a chombo) is answered to the referee, who sees every hand, never to a seat: it
    may end a round and show its cards, so it is not compared, nor is an act whose answer
    shows cards by the rules themselves (`revealing`)."""
    compared = 0
    for action in actions:
        if action["type"] in revealing(game.id) or action["type"] in game.referee_actions:
            continue
        a, b = (sealed_answer(game, s, action, seat) for s in (j, other))
        assert a == b or also_alike(a, b), (
            f"{game.id}: {seat} learns hidden cards from the answer to {action}", a, b, j, other)
        compared += 1
    return compared


# ------------------------------------------------------------------ physical deals, referee mode
# The same property for deals entered from the cards (a stock whose order is unknown: every
# card drawn is named by the table, and checked against what is left) and in referee mode
# (`violations: referee`, Man's `chombo`): a refused act is then sanctioned, and its answer
# (events, ledger entry) reaches the seat as a refusal would.

def table_of(game_id: str, req: dict, rnd: random.Random) -> dict:
    """`req` with the `table` of what the rules decide at random (a cut card, a first leader),
    each field the deal asks for drawn from what the game declares until the deal takes it."""
    game = registry.get(game_id)
    cards = [c for hand in (req.get("hands") or {}).values() for c in hand] or req.get("deck")
    table: dict = {}
    for _ in range(60):
        try:
            adjudicate.deal(**req, **({"table": table} if table else {}))
        except InvalidDeal as err:
            name = err.path.split(".")[1] if err.path.startswith("table.") else None
            if name not in physical_table_fields(game):
                raise
            table[name] = table_value(physical_table_fields(game)[name], cards, req["players"],
                                      rnd)
            continue
        return {**req, **({"table": table} if table else {})}
    raise AssertionError(f"{game_id}: no table the deal takes: {table}")


def physical_request(game_id: str, rnd: random.Random, players: list, options: dict) -> dict:
    """A deal from the cards on the table, as a referee enters them: each seat's hand of a
    shuffled deal (the facts' `hands`), or, for a game that takes no hands, its deck in a
    shuffled order; and what its rules decide at random (`table`)."""
    game = registry.get(game_id)
    req: dict[str, Any] = {"game_id": game_id, "players": players, "options": options}
    made = getattr(own(game_id), "physical_request", None)
    if made is not None:
        return {**req, **made(rnd, players, options)}
    seeded = adjudicate.deal(game_id, players, options=options,
                             seed=f"t{rnd.random()}")["state"]
    if game.physical is not None:
        req["hands"] = helpers.hands_of(game_id, seeded)
    else:
        deck = list(game.deck(game.resolve_options(options)))
        req["deck"] = rnd.sample(deck, len(deck))
    return table_of(game_id, req, rnd)


def referee_options(game_id: str, rnd: random.Random) -> dict:
    """Referee mode (`violations: referee`) or not, when the game has it."""
    made = getattr(own(game_id), "referee_options", None)
    if made is not None:
        return made(rnd)
    violations = registry.get(game_id).option_map().get("violations")
    return {"violations": rnd.choice(list(violations.field.choices))} if violations else {}


def referee_mode_request(game_id: str, rnd: random.Random, n: int, physical: bool) -> dict:
    players = [f"p{i}" for i in range(n)]
    options = referee_options(game_id, rnd)
    if physical:
        return physical_request(game_id, rnd, players, options)
    return {"game_id": game_id, "players": players, "options": options,
            "seed": f"s{rnd.random()}"}


def complete_draw(game_id: str, rnd: random.Random, j: dict, action: dict) -> dict:
    """A listed action as a table would post it: a draw from an unknown stock names its cards
    (the game's `complete_draw`; by default the action as listed)."""
    done = getattr(own(game_id), "complete_draw", None)
    return done(rnd, j, action) if done else action


def named_draws(game_id: str) -> dict[str, str]:
    """The field of each action that names the cards received from an unknown stock."""
    return helpers.facts(game_id).get("named_draws", {})


def probes(game_id: str, rnd: random.Random, j: dict, listed: list, unseen: list) -> list:
    """A seat's draws naming, among the cards it drew, one it cannot see (another hand, a
    face-down pile, the stock): what a seat probing where the unseen cards lie would post."""
    fields = named_draws(game_id)
    # mostly cards that lie elsewhere than the stock here (the re-dealt state likely has them
    # in its stock): the pairs where a refusal could say where
    elsewhere = [c for c in unseen if c not in j.get("stock", ())] or unseen
    out = []
    for action in listed:
        key = fields.get(action["type"])
        if key is None or j.get("stock_known", True) or not unseen:
            continue
        action = complete_draw(game_id, rnd, j, action)
        if not action.get(key):
            continue
        for _ in range(3):
            named = list(action[key])
            named[rnd.randrange(len(named))] = rnd.choice(
                elsewhere if rnd.random() < 0.7 else unseen)
            out.append({**action, key: named})
    return out


@pytest.mark.parametrize("physical", [True, False], ids=["physical", "seeded"])
@pytest.mark.parametrize("game_id", GAMES)
def test_answers_depend_only_on_the_seats_view_in_physical_deals_and_referee_mode(game_id,
                                                                                 physical):
    game = registry.get(game_id)
    rnd = random.Random(f"hidden-table-{game_id}-{physical}")
    compared = 0
    for _ in range(examples(20)):
        req = referee_mode_request(game_id, rnd, player_count(game), physical)
        players = req["players"]
        j = adjudicate.deal(**req)["state"]
        draws = named_draws(game_id) if physical else {}
        length = rnd.randint(0, steps(game_id))
        for step in range(length + 40):
            listed = [a for p in players for a in adjudicate.legal_actions(j, p)]
            # past the random length, on to a state where a draw names its cards (probed)
            if not listed or step >= length and (not draws or any(a["type"] in draws
                                                                  for a in listed)):
                break
            out = adjudicate.validate(j, complete_draw(game_id, rnd, j, rnd.choice(listed)))
            assert out.valid, out.refusal
            if out.status == "finished":
                break
            j = out.state
        if j["status"] == "finished":
            continue
        for seat in rnd.sample(players, len(players)):
            other = redeal(game, j, seat, rnd)
            if other is None:
                continue
            unseen = [c for _, _, movable in piles_of(game_id, j, seat) for c in movable]
            listed = adjudicate.legal_actions(j, seat)
            actions = [complete_draw(game_id, rnd, j, a)
                       for a in rnd.sample(listed, min(len(listed), 6))]
            actions += probes(game_id, rnd, j, listed, unseen)
            actions += [random_action(rnd, game, players, seat) for _ in range(4)]
            compared += compare_answers(game, j, other, seat, actions,
                                        also_alike=differ_only_by_an_unseen_draw)
    assert compared >= examples(10), compared
