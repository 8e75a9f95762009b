"""Under sealing a seat learns only what its answers tell it (README "Security model"): the
state is opaque, and `valid`, the refusal (code, message, rule, details), `to_act`, `events`,
`score_deltas`, `status` and the seat's own view come in clear. So every answer a seat receives
must be computable from what that seat may see: two states that look the same to the seat must
give it the same answer to the same action.

For every game: random legal play-outs to a mid-game state; a seat; a second state made by
re-dealing the cards that seat cannot see (other seats' hidden hands, the hidden stock,
face-down cards), keeping every count and every public fact, and accepted only when it is a
valid state whose view for that seat is identical; then the seat's legal actions and some
random (mostly illegal) actions of its own must answer identically in both.
"""
from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any, Callable

import pytest

from engine import adjudicate, registry
from engine.errors import InputError
from engine.games.man.numbers import in_reach
from tests.adjudication import random_action
from tests.leaks import differ_only_by_an_unseen_draw
from tests.sizing import examples

GAMES = ("man", "manillen", "guandan", "daifugo", "manteur")

# A pile of cards the seat cannot see: where it lives in the state (a setter), the cards that
# must stay (public facts about it), and the cards that may move between piles.
Pile = tuple[Callable[[dict, list], None], list, list]


def _hand(p: str) -> Callable[[dict, list], None]:
    def put(j: dict, cards: list) -> None:
        j["hands"][p] = cards
    return put


def _minus(cards: list, fixed: list) -> list:
    left = list(cards)
    for c in fixed:
        left.remove(c)
    return left


# ------------------------------------------------------------------ what each seat cannot see

def man_piles(j: dict, seat: str) -> list[Pile]:
    """Other hands neither public (3.6) nor shown (5.4); the stock below the cards the next
    draw could take (a seat's own draw legitimately tells it those cards)."""
    piles: list[Pile] = []
    for p in j["players"]:
        if p != seat and not j["public"][p] and not j["shown"][p]:
            fixed = list(j["drawn_cards"]) if p == j["turn"] else []
            piles.append((_hand(p), fixed, _minus(j["hands"][p], fixed)))
    if not j["stock_known"]:  # a physical deal: the unseen cards, in deck order (2.7)
        from engine.games.man.state import DECK_ORDER

        def unknown(state: dict, cards: list) -> None:
            state["stock"] = sorted(cards, key=DECK_ORDER.__getitem__)
        piles.append((unknown, [], list(j["stock"])))
        return piles
    keep = max(1, j["pending_draw"])
    head = list(j["stock"][:keep])

    def stock(state: dict, cards: list) -> None:
        state["stock"] = head + cards
    piles.append((stock, [], list(j["stock"][keep:])))
    return piles


def man_public_facts(j: dict) -> bool:
    """Every seat's calls are public (6.1, 2.2): the reach flag of a seat that has called, or
    of any seat with automatic calls, is its hand's (before this turn's draw, for the seat
    on turn)."""
    for p in j["players"]:
        if j["options"]["calls"] == "declared" and j["last_call"][p] is None:
            continue  # a declared deal call not made yet: the hand may or may not owe it
        hand = list(j["hands"][p])
        if p == j["turn"] and j["drew"]:
            hand = _minus(hand, j["drawn_cards"])
        if j["reach"][p] != in_reach(hand):
            return False
    return True


def guandan_piles(j: dict, seat: str) -> list[Pile]:
    """Other hands (a tribute card received is public, T-9, so it stays with its receiver)."""
    piles: list[Pile] = []
    for p in j["players"]:
        if p == seat:
            continue
        fixed = [t["card"] for t in j["tributes"] if t["receiver"] == p and t["card"]
                 and t["returned"] is None and t["card"] in j["hands"][p]]
        piles.append((_hand(p), fixed, _minus(j["hands"][p], fixed)))
    # A return given in a double tribute is hidden until the other is given, and then both are
    # shown (T-9): the second return's answer reveals it by the rules, so it stays as it is.
    return piles


def daifugo_piles(j: dict, seat: str) -> list[Pile]:
    """Other hands; cards of an exchange stay where they are (its two seats know them)."""
    moved = Counter()
    for e in j["exchange"]:
        moved.update(e["tribute"] or [])
        moved.update(e["returned"] or [])
    piles: list[Pile] = []
    for p in j["players"]:
        if p != seat:
            fixed = [c for c in j["hands"][p] if moved[c]]
            piles.append((_hand(p), fixed, _minus(j["hands"][p], fixed)))
    return piles


def manillen_piles(j: dict, seat: str) -> list[Pile]:
    """Other hands (four players: no face-down table cards)."""
    return [(_hand(p), [], list(j["hands"][p])) for p in j["players"] if p != seat]


def manteur_piles(j: dict, seat: str) -> list[Pile]:
    """The hand unless this seat holds it; the face-down discards; the stock below the five
    cards an exchange could draw."""
    piles: list[Pile] = []
    if seat != j["holder"]:
        def hand(state: dict, cards: list) -> None:
            state["hand"] = cards
        piles.append((hand, [], list(j["hand"])))

    def discard(state: dict, cards: list) -> None:
        state["discard"] = cards
    piles.append((discard, [], list(j["discard"])))
    head = list(j["stock"][:5])
    if not j["stock_known"]:  # a physical deal: the unseen cards, in deck order (B.6)
        from engine.games.manteur.state import deck_of
        order = {c: i for i, c in enumerate(deck_of(registry.get("manteur").decode(j).options))}

        def stock(state: dict, cards: list) -> None:
            state["stock"] = sorted(cards, key=order.__getitem__)
        piles.append((stock, [], list(j["stock"])))
        return piles

    def stock(state: dict, cards: list) -> None:
        state["stock"] = head + cards
    piles.append((stock, [], list(j["stock"][5:])))
    return piles


PILES = {"man": man_piles, "guandan": guandan_piles, "daifugo": daifugo_piles,
         "manillen": manillen_piles, "manteur": manteur_piles}
PUBLIC_FACTS = {"man": man_public_facts}
# Actions whose answer shows hidden cards by the rules themselves, so it may differ: a Manteur
# challenge reveals the hand (B14) and accepting takes it into the acceptor's hand (B15); a
# Guandan anti-tribute claim shows the big jokers or fails in the open (T-6). Their listing
# may not differ: it is compared like every other.
REVEALING = {"manteur": {"challenge", "accept"}, "guandan": {"anti_tribute"}}


def redeal(game, j: dict, seat: str, rnd: random.Random, tries: int = 80) -> dict | None:
    """Another valid state that looks the same to `seat`: the cards it cannot see shuffled
    among the piles that hold them, every pile keeping its size."""
    piles = PILES[game.id](j, seat)
    pool = [c for _, _, movable in piles for c in movable]
    if len(set(pool)) < 2:
        return None
    seen = game.view(game.decode(j), seat)
    facts = PUBLIC_FACTS.get(game.id, lambda _j: True)
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
    if game_id == "man":
        req["options"] = {"preset": rnd.choice(["standard", "referee"]),
                          "penalty_draw_ends_turn": rnd.random() < 0.5,
                          "man_window": rnd.choice(["next_action", "until_covered"])}
    elif game_id == "guandan" and rnd.random() < 0.6:
        # a later deal: the tribute phases too, with anti-tribute claimed or automatic
        order = rnd.sample(players, 4)
        if players.index(order[0]) % 2 == players.index(order[1]) % 2:
            order = order[:2]
        req["match"] = {"levels": {"team1": "5", "team2": "9"}, "previous_order": order,
                        "deal_number": 1}
        req["options"] = {"preset": rnd.choice(["seed", "official", "pagat"]),
                          "anti_tribute": rnd.choice(["automatic", "optional"])}
    return req


# How far a play-out may go: most of a deal, so that mid-game states are met, not ends.
STEPS = {"man": 90, "manillen": 30, "guandan": 40, "daifugo": 40, "manteur": 60}


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
        for _step in range(rnd.randint(0, STEPS[game_id])):
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
    shows cards by the rules themselves (REVEALING)."""
    compared = 0
    for action in actions:
        if action["type"] in REVEALING.get(game.id, ()) or action["type"] in game.referee_actions:
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

def physical_request(game_id: str, rnd: random.Random, players: list, options: dict) -> dict:
    """A deal from the cards on the table: the hands (and what lies face up) of a shuffled
    deal, as a referee enters them."""
    from tests.man.physical import random_table

    seeded = adjudicate.deal(game_id, players, options=options,
                             seed=f"t{rnd.random()}")["state"]
    req: dict[str, Any] = {"game_id": game_id, "players": players, "options": options}
    if game_id == "man":  # 2.7: the table names its dealer
        return {**req, **random_table(rnd, players, seeded["options"]),
                "dealer": rnd.choice(players)}
    if game_id == "manteur":  # one hand travels (B3): the starter's
        return {**req, "hands": {p: list(seeded["hand"]) if p == seeded["holder"] else []
                                 for p in players}}
    hands = {p: list(seeded["hands"][p]) for p in players}
    req["hands"] = hands
    if game_id == "guandan":  # a first deal: the cut turns up one card of one hand (G-4)
        holder = rnd.choice(players)
        card = rnd.choice(hands[holder])
        req["table"] = {"cut_card": card}
        if sum(card in hands[p] for p in players) > 1:
            req["table"]["leader"] = holder
    if game_id == "daifugo" and seeded["options"]["first_leader"] == "random_then_daihinmin":
        req["table"] = {"leader": rnd.choice(players)}  # D4: drawn at the table
    return req


def referee_mode_request(game_id: str, rnd: random.Random, n: int, physical: bool) -> dict:
    players = [f"p{i}" for i in range(n)]
    if game_id == "man":
        options = {"preset": rnd.choice(["standard", "referee"]),
                   "penalty_draw_ends_turn": rnd.random() < 0.5}
    else:
        options = {"violations": rnd.choice(["reject", "referee"])}
    if physical:
        return physical_request(game_id, rnd, players, options)
    return {"game_id": game_id, "players": players, "options": options,
            "seed": f"s{rnd.random()}"}


def complete_draw(game_id: str, rnd: random.Random, j: dict, action: dict) -> dict:
    """A listed action as a table would post it: a draw from an unknown stock names its cards."""
    from tests.man.physical import complete as man_complete
    from tests.manteur.physical import complete as manteur_complete

    done = {"man": man_complete, "manteur": manteur_complete}.get(game_id)
    return done(rnd, j, action) if done else action


# The field of an action that names the cards received from an unknown stock.
NAMED_DRAWS = {"man": {"draw": "cards", "flip": "cards"},
               "manteur": {"exchange": "drawn", "deal": "cards"}}


def probes(game_id: str, rnd: random.Random, j: dict, listed: list, unseen: list) -> list:
    """A seat's draws naming, among the cards it drew, one it cannot see (another hand, a
    face-down pile, the stock): what a seat probing where the unseen cards lie would post."""
    fields = NAMED_DRAWS.get(game_id, {})
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
        draws = NAMED_DRAWS.get(game_id, {}) if physical else {}
        length = rnd.randint(0, STEPS[game_id])
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
            unseen = [c for _, _, movable in PILES[game_id](j, seat) for c in movable]
            listed = adjudicate.legal_actions(j, seat)
            actions = [complete_draw(game_id, rnd, j, a)
                       for a in rnd.sample(listed, min(len(listed), 6))]
            actions += probes(game_id, rnd, j, listed, unseen)
            actions += [random_action(rnd, game, players, seat) for _ in range(4)]
            compared += compare_answers(game, j, other, seat, actions,
                                        also_alike=differ_only_by_an_unseen_draw)
    assert compared >= examples(10), compared
