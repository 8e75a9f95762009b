"""Independent oracles for the Manteur property tests: every declaration by plain loops, and the
truth test by brute force (every joker assignment, every subset of the hand)."""
from __future__ import annotations

from collections import Counter
from itertools import combinations, combinations_with_replacement

from engine.cards import JOKERS, SUITS, rank_of, suit_of
from engine.games.manteur.declarations import Declaration, DeclarationRules, parse_declaration

ORDER = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10, "J": 11,
         "Q": 12, "K": 13, "A": 14}


def D(type_: str, ranks=(), kickers=(), rules: DeclarationRules = DeclarationRules()
      ) -> Declaration:
    """A declaration through the real parser (so tests never build an invalid one by hand)."""
    return parse_declaration({"type": type_, "ranks": list(ranks), "kickers": list(kickers)},
                             "declaration", rules)


def desc(ranks) -> list[str]:
    return sorted(ranks, key=lambda r: -ORDER[r])


def all_declarations(rules: DeclarationRules = DeclarationRules()) -> list[Declaration]:
    """Every valid declaration under `rules`, by plain enumeration."""
    deck = list(rules.ranks)
    out: list[Declaration] = []

    def add(t, ranks=(), kickers=()):
        out.append(Declaration(t, tuple(ranks), tuple(kickers)))

    def kicker_sets(exclude, limit, below=None):
        pool = [r for r in deck if r not in exclude and (below is None or ORDER[r] < ORDER[below])]
        for n in range(limit + 1):
            for combo in combinations(pool, n):
                yield desc(combo)

    types = set(rules.type_order)
    if rules.min_declaration == "one_pair":
        types.discard("high_card")
    if not rules.allow_straights:
        types -= {"straight", "straight_flush"}
    if not rules.allow_flushes:
        types -= {"flush", "straight_flush"}
    if rules.jokers == 0:
        types.discard("five_of_a_kind")
    for t, limit in (("high_card", 4), ("pair", 3), ("three_of_a_kind", 2),
                     ("four_of_a_kind", 1), ("five_of_a_kind", 0)):
        if t not in types:
            continue
        add(t)
        for r in deck:
            for k in kicker_sets({r}, limit, r if t == "high_card" else None):
                add(t, [r], k)
    if "two_pair" in types:
        add("two_pair")
        for h in deck:
            add("two_pair", [h])
            for lo in deck:
                if ORDER[lo] < ORDER[h]:
                    for k in kicker_sets({h, lo}, 1):
                        add("two_pair", [h, lo], k)
    if "full_house" in types:
        add("full_house")
        for a in deck:
            add("full_house", [a])
            for b in deck:
                if b != a:
                    add("full_house", [a, b])
    tops = [deck[i] for i in range(4, len(deck))]
    if rules.ace_low_straight:
        tops = [deck[3]] + tops
    for t in ("straight", "straight_flush"):
        if t in types:
            add(t)
            for top in tops:
                add(t, [top])
    if "flush" in types:
        for n in range(6):
            for combo in combinations(deck, n):
                add("flush", desc(combo))
    return out


# ---------------------------------------------------------------- the truth oracle


def size(d: Declaration) -> int:
    base = {"high_card": 1, "pair": 2, "two_pair": 4, "three_of_a_kind": 3, "four_of_a_kind": 4,
            "five_of_a_kind": 5}.get(d.type, 5)
    return base + len(d.kickers)


def _straight_top(ranks: list[str], rules: DeclarationRules) -> str | None:
    deck = list(rules.ranks)
    if len(set(ranks)) != 5:
        return None
    if rules.ace_low_straight and set(ranks) == {"A", *deck[:4]}:
        return deck[3]
    pos = sorted(deck.index(r) for r in ranks)
    return deck[pos[-1]] if pos[-1] - pos[0] == 4 else None


def forms(cards, d: Declaration, rules: DeclarationRules) -> bool:
    """Whether these natural cards, exactly, form declaration `d`."""
    ranks = [rank_of(c) for c in cards]
    cnt = Counter(ranks)
    shape = sorted(cnt.values())
    t, named, kick = d.type, list(d.ranks), list(d.kickers)
    n = {"high_card": 1, "pair": 2, "three_of_a_kind": 3, "four_of_a_kind": 4,
         "five_of_a_kind": 5}.get(t)
    if n is not None:
        if named:
            return cnt == Counter(named * n + kick)
        return shape == [n]
    if t == "two_pair":
        if len(named) == 2:
            return cnt == Counter(named * 2 + kick)
        return shape == [2, 2] and (not named or cnt[named[0]] == 2)
    if t == "full_house":
        if len(named) == 2:
            return cnt == Counter([named[0]] * 3 + [named[1]] * 2)
        return shape == [2, 3] and (not named or cnt[named[0]] == 3)
    if t in ("straight", "straight_flush"):
        if t == "straight_flush" and len({suit_of(c) for c in cards}) != 1:
            return False
        top = _straight_top(ranks, rules)
        return top is not None and (not named or top == named[0])
    if t == "flush":
        return len({suit_of(c) for c in cards}) == 1 and set(named) <= set(ranks)
    raise AssertionError(t)


def deck_cards(rules: DeclarationRules) -> list[str]:
    return [s + r for s in SUITS for r in rules.ranks]


def brute_force(hand, d: Declaration, rules: DeclarationRules) -> bool:
    """Every assignment of deck cards to the jokers, every subset of the declaration's size."""
    jokers = [c for c in hand if c in JOKERS]
    naturals = [c for c in hand if c not in JOKERS]
    k = size(d)
    for assignment in combinations_with_replacement(deck_cards(rules), len(jokers)):
        cards = naturals + list(assignment)
        if any(forms(sub, d, rules) for sub in combinations(cards, k)):
            return True
    return False


# ---------------------------------------------------------------- rounds: states and actions

from engine import adjudicate  # noqa: E402
from engine.cards import deck_52  # noqa: E402
from tests.adjudication import act, ok, refused  # noqa: E402, F401 (re-exported)

PLAYERS = ["A", "B", "C"]


def deal(hand=None, players=None, starter=None, **options) -> dict:
    """A new game whose first hand is `hand` (then the rest of the deck in deck order)."""
    deck = deck_52() + ["BJ", "RJ"][:options.get("jokers", 2)]
    if options.get("deck") == "piquet32":
        deck = [c for c in deck if c in ("BJ", "RJ") or c[1:] in ("7", "8", "9", "10", "J",
                                                                     "Q", "K", "A")]
    hand = list(hand or deck[:5])
    deck = hand + [c for c in deck if c not in hand]
    return adjudicate.deal("manteur", players or PLAYERS, options=options, seed="test",
                           dealer=starter, deck=deck)["state"]




def declare(state: dict, player: str, type_: str, ranks=(), kickers=()) -> dict:
    return ok(state, "declare", player, declaration={"type": type_, "ranks": list(ranks),
                                                     "kickers": list(kickers)}).state
