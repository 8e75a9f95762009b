"""Brute force for the Guandan enumeration tests: every sub-multiset of a hand, read by
`combos.readings`, deduplicated — the definition of a play the enumerator must match."""
from __future__ import annotations

from collections import Counter
from itertools import product

from engine.cards import RANKS
from engine.games.guandan.combos import LENGTH, SEED_RULES, ComboRules, Reading, beats, readings


def sub_multisets(hand):
    counts = sorted(Counter(hand).items())
    for picks in product(*[range(n + 1) for _, n in counts]):
        cards = []
        for (card, _), k in zip(counts, picks):
            cards += [card] * k
        if cards:
            yield tuple(cards)


def brute_plays(hand, level, rules: ComboRules = SEED_RULES, table: Reading | None = None):
    """{(sorted cards, reading): wilds} over every sub-multiset."""
    out = {}
    for cards in sub_multisets(hand):
        for r in readings(cards, level, rules):
            if table is None or beats(r, table, level, rules):
                out[(cards, r)] = r.wilds
    return out


def as_plays(plays):
    """The enumerator's list as the same dict; asserts each play appears once."""
    out = {}
    for cards, r in plays:
        key = (tuple(sorted(cards)), r)
        assert key not in out, f"play listed twice: {key}"
        out[key] = r.wilds
    return out


def every_reading(max_bomb: int = 10) -> list[Reading]:
    """Every (type, rank, length) that exists, for random table readings."""
    out = []
    for r in RANKS:
        for t in ("single", "pair", "triple", "full_house"):
            out.append(Reading(t, r, LENGTH[t]))
        for m in range(4, max_bomb + 1):
            out.append(Reading("bomb", r, m))
    for j in ("BJ", "RJ"):
        out += [Reading("single", j, 1), Reading("pair", j, 2)]
    tops = {"straight": 5, "straight_flush": 5, "tube": 3, "plate": 2}
    for t, low in tops.items():
        for top in range(low, 15):
            out.append(Reading(t, RANKS[(top - 1) % 13], LENGTH[t]))
    out.append(Reading("four_jokers", None, 4))
    return out


# --- whole-game helpers (states through JSON + decode, deals with given hands) ----------------

from collections import Counter as _Counter  # noqa: E402

from engine import adjudicate  # noqa: E402
from engine.cards import double_deck_108  # noqa: E402
from engine.games.guandan import GAME  # noqa: E402
from engine.games.guandan.options import DEFAULTS, PRESETS  # noqa: E402
from engine.games.guandan.state import VERSION  # noqa: E402
from tests.adjudication import judged  # noqa: E402

PLAYERS = ["a", "b", "c", "d"]  # team1: a, c; team2: b, d; play order a → b → c → d


def options_of(preset: str = "seed", **overrides) -> dict:
    return {**DEFAULTS, **PRESETS[preset], **overrides}


def match_json(levels=None, declarer=None, failures=None, order=(), payers=(), deal_number=1):
    return {"levels": {"team1": "2", "team2": "2", **(levels or {})}, "declarer": declarer,
            "a_failures": {"team1": 0, "team2": 0, **(failures or {})},
            "previous_order": list(order), "tribute_payers": list(payers),
            "deal_number": deal_number}


def build(hands: dict, turn: str | None = "a", trick=None, out=(), level: str = "2",
          match: dict | None = None, options: dict | None = None, phase: str = "play",
          **overrides) -> dict:
    """A mid-deal state: `hands` by player (missing players: empty), every other card already
    played; `trick` a list of (player, cards, reading dict or None); `out` a list of
    (player, final cards). Decoded before it is returned."""
    hands = {p: list(hands.get(p, [])) for p in PLAYERS}
    rest = _Counter(double_deck_108())
    for h in hands.values():
        rest.subtract(h)
    assert all(v >= 0 for v in rest.values()), "a card is used more than twice"
    played = list(rest.elements())
    if match is None:
        match = match_json(deal_number=0) if level == "2" else \
            match_json(levels={"team1": level}, declarer="team1", order=["a", "b", "c", "d"],
                       payers=["d"])
    state = {
        "game": "guandan", "version": VERSION, "players": PLAYERS, "options": options or options_of(),
        "seed": "test", "phase": phase, "status": "finished" if phase == "finished" else "in_progress",
        "match": match, "level": level, "hands": hands, "cut_card": None, "tributes": [], "tribute_to_first": None,
        "anti_tribute": False, "turn": turn,
        "trick": None if trick is None else {"plays": [
            {"player": p, "cards": list(c), "reading": r} for p, c, r in trick]},
        "played": played, "out": [{"player": p, "cards": list(c)} for p, c in out],
        "result": None, "next_match": None, "barred": [],
    }
    state.update(overrides)
    GAME.decode(state)
    return state


def R(type_: str, rank, length: int | None = None, wilds=()) -> dict:
    from engine.games.guandan.combos import LENGTH
    return {"type": type_, "rank": rank, "length": length or LENGTH[type_], "wilds": list(wilds)}


def deal_hands(hands: dict, match: dict | None = None, preset: str = "seed", seed: str = "t",
               **options) -> dict:
    """A deal with each seat's 27 cards given; unspecified cards fill the hands in order."""
    rest = _Counter(double_deck_108())
    for h in hands.values():
        rest.subtract(h)
    pool = list(rest.elements())
    full = {}
    for p in PLAYERS:
        h = list(hands.get(p, []))
        need = 27 - len(h)
        full[p], pool = h + pool[:need], pool[need:]
    return adjudicate.deal("guandan", PLAYERS, options={"preset": preset, **options}, seed=seed,
                           match=match, hands=full)["state"]


def act(state: dict, type_: str, player: str, **fields):
    return adjudicate.validate(state, {"type": type_, "player": player, **fields})


def ok(state: dict, type_: str, player: str, **fields):
    res = act(state, type_, player, **fields)
    assert res.valid, (type_, player, fields, res.refusal.code, res.refusal.en)
    return res


def refused(state: dict, type_: str, player: str, **fields):
    res = act(state, type_, player, **fields)
    assert not res.valid, f"{type_} by {player} {fields} was accepted"
    assert res.state == state
    return res.refusal


def legal(state: dict, player: str) -> list[dict]:
    return judged(adjudicate.legal_actions(state, player))
