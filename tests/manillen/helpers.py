"""Builders for hand-made Manillen deals, through the engine's own front door."""
from __future__ import annotations

import json

from engine import adjudicate as adj
from engine.cards import deck_32

PLAYERS = {n: [f"p{i}" for i in range(n)] for n in (2, 3, 4, 6)}


def deck_for(hands: dict[int, list[str]], n: int = 4, dealer: int = 0,
             leftover: list[str] | None = None,
             table: dict[int, list[tuple[str, str]]] | None = None) -> list[str]:
    """An explicit deck (top card first) that deals `hands` (seat -> cards) with the default
    packets; seats not given get the remaining cards in deck order. 2 players: `table` maps a
    seat to four (face-up, face-down) pairs."""
    used = [c for h in hands.values() for c in h] + list(leftover or [])
    for pairs in (table or {}).values():
        used += [c for pair in pairs for c in pair]
    assert len(set(used)) == len(used), "a card is given twice"
    rest = [c for c in deck_32() if c not in used]
    per_hand = {6: 5, 4: 8, 3: 10, 2: 8}[n]
    full = {}
    for s in range(n):
        if s in hands:
            full[s] = list(hands[s])
        else:
            full[s], rest = rest[:per_hand], rest[per_hand:]
        assert len(full[s]) == per_hand, f"seat {s} needs {per_hand} cards"
    order = [(dealer + k) % n for k in range(1, n + 1)]
    deck: list[str] = []
    if n in (3, 4, 6):
        taken = {s: 0 for s in order}
        for packet in {4: (3, 2, 3), 3: (3, 4, 3), 6: (3, 2)}[n]:  # A7 / A34, A35 (our packets)
            for s in order:
                deck += full[s][taken[s]:taken[s] + packet]
                taken[s] += packet
        if n in (3, 6):
            deck += list(leftover) if leftover else rest[:2]
    else:
        tab = {}
        for s in order:
            if table and s in table:
                tab[s] = list(table[s])
            else:
                tab[s] = [(rest[2 * j], rest[2 * j + 1]) for j in range(4)]
                rest = rest[8:]
        for step, count in (("hand", 3), ("down", 4), ("hand", 2), ("up", 4), ("hand", 3)):
            for s in order:
                if step == "hand":
                    deck += full[s][:count]
                    full[s] = full[s][count:]
                elif step == "down":
                    deck += [down for _, down in tab[s]]
                else:
                    deck += [up for up, _ in tab[s]]
    assert sorted(deck) == sorted(deck_32()), "the deck must hold every card once"
    return deck


def new_deal(n: int = 4, options: dict | None = None, **kw) -> dict:
    """A seeded deal; the first seat deals unless `dealer` or the match names another. A named
    dealer wins over the first dealer's cut (A5, the default), which tests/manillen/
    test_setup.py checks on its own."""
    if "dealer" not in kw and not (kw.get("match") or {}).get("dealer"):
        kw["dealer"] = PLAYERS[n][0]
    return adj.deal("manillen", PLAYERS[n], options=options, **kw)["state"]


def act(state: dict, kind: str, player: str, **fields) -> dict:
    """Apply an action that must be legal; returns the engine's answer (state, deltas …)."""
    out = adj.validate(state, {"type": kind, "player": player, **fields})
    assert out.valid, out.refusal.to_json()
    return out


def refused(state: dict, kind: str, player: str, **fields):
    out = adj.validate(state, {"type": kind, "player": player, **fields})
    assert not out.valid, f"{kind} {fields} by {player} was accepted"
    assert out.state == state
    return out.refusal


def start(hands: dict[int, list[str]], trump: str = "S", n: int = 4, dealer: int = 0,
          options: dict | None = None, **kw) -> dict:
    """Deal the given hands, name `trump`, let everybody pass the doubling: the play phase."""
    deck = deck_for(hands, n, dealer, **kw)
    players = PLAYERS[n]
    state = adj.deal("manillen", players, options=options, seed="t",
                     dealer=players[dealer], deck=deck)["state"]
    state = act(state, "choose_trump", players[dealer], trump=trump).state
    while state["phase"] == "doubling":
        state = act(state, "pass", state["doubling"]["turn"]).state
    assert state["phase"] == "play"
    return state


def play(state: dict, *cards: str) -> dict:
    """Play cards in turn order."""
    for card in cards:
        player = adj.game_by_id("manillen").to_act(adj.load_state(state)[1])[0]
        state = act(state, "play", player, card=card).state
    return state


def legal_cards(state: dict, player: str) -> list[str]:
    return [a["card"] for a in adj.legal_actions(state, player) if a["type"] == "play"]


def roundtrip(state: dict) -> dict:
    return json.loads(json.dumps(state))


def to_act(state: dict) -> list[str]:
    game, st = adj.load_state(state)
    return game.to_act(st)


def play_out(state: dict, rnd, double_p: float = 0.3) -> tuple[dict, list, list]:
    """Play the deal to its end with random legal actions (declining most doubling calls, so
    multipliers stay reasonable). Returns (final state, score deltas, events)."""
    deltas: list = []
    events: list = []
    while state["status"] == "in_progress":
        player = to_act(state)[0]
        actions = adj.legal_actions(state, player)
        calls = [a for a in actions if a["type"] in ("double", "redouble")]
        if calls and rnd.random() >= double_p:
            actions = [a for a in actions if a["type"] == "pass"]
        action = dict(rnd.choice(actions))
        action.pop("player")
        out = act(state, action.pop("type"), player, **action)
        deltas += out.score_deltas
        events += out.events
        state = out.state
    return state, deltas, events
