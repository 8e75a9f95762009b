"""What may be played or called now: the predicates apply() and legal_actions() share, so a
listed action is always accepted."""
from __future__ import annotations

from itertools import combinations
from typing import Iterable

from engine.cards import SUITS, rank_of, suit_of

from .numbers import VALUE, in_reach, man_numbers
from .state import ManState

EFFECT_RANKS = frozenset({"A", "2", "3", "8", "J"})  # 1.3
ANSWER_RANKS = EFFECT_RANKS  # 3.8: 2/3 add, 8 cancels, A and J carry the pending draw on
BIG_HAND = 8  # 3.5 / 3.6


def target_suit(s: ManState) -> str | None:
    """3.1: the suit to follow: the one named with an 8 on top, else the top card's."""
    return s.named_suit or suit_of(s.top)


def matches(s: ManState, card: str) -> bool:
    """3.1 / 2.4: same rank as the top card, or the suit to follow."""
    return rank_of(card) == rank_of(s.top) or suit_of(card) == target_suit(s)


def playable(s: ManState, card: str) -> bool:
    """A card that may be played now on its own: matching, and while a draw is pending only an
    answering effect card (3.8)."""
    return matches(s, card) and (s.pending_draw == 0 or rank_of(card) in ANSWER_RANKS)


def has_playable(s: ManState, seat: str) -> bool:
    return any(playable(s, c) for c in s.hands[seat])


def must_play(s: ManState, seat: str) -> bool:
    """3.5: 8+ cards in hand on the player's turn and a playable card held: play it. The hand
    as it is now, cards drawn this turn included (seed: 手札が8枚以上になった場合は、自分の
    手番で、出せるカードは必ず出さなければならない), so drawing to 8 with a playable card
    binds as much as starting the turn with 8."""
    return len(s.hands[seat]) >= BIG_HAND and has_playable(s, seat)


def play_options(s: ManState, seat: str) -> list[tuple[tuple[str, ...], str | None]]:
    """Every legal (cards bottom-to-top, suit) play: 3.2 one rank, at least one card playable,
    each choice of top card, and a suit for an 8."""
    by_rank: dict[str, list[str]] = {}
    for c in s.hands[seat]:
        by_rank.setdefault(rank_of(c), []).append(c)
    out: list[tuple[tuple[str, ...], str | None]] = []
    for rank in sorted(by_rank, key=VALUE.__getitem__):  # every rank of the 52 cards has one
        group = by_rank[rank]
        if not any(playable(s, c) for c in group):
            continue
        for size in range(1, len(group) + 1):
            for subset in combinations(group, size):
                if not any(playable(s, c) for c in subset):
                    continue
                for top in subset:
                    rest = [c for c in subset if c != top]
                    cards = tuple(rest) + (top,)
                    if rank == "8":
                        out.extend((cards, suit) for suit in SUITS)
                    else:
                        out.append((cards, None))
    return out


def top_rank_value(s: ManState) -> int:
    return VALUE[rank_of(s.top)]


def chain_eligible(s: ManState) -> list[str]:
    """5.4: who still has to call or decline: every player who has not called and has not
    declined since the last call — the card's player too, since a counter-man is a man on a
    man, not on their own card (the seed's worked game: 「プレイヤーC・Dは3に対してまんする
    ことができないので」, C having played the 3)."""
    if s.chain is None or s.phase != "chain":
        return []
    callers = {c.player for c in s.chain.calls}
    return [p for p in s.players if p not in callers and p not in s.chain.declined]


def hand_makes_top(s: ManState, seat: str) -> bool:
    return top_rank_value(s) in man_numbers(s.hands[seat])


def deal_call_owed(s: ManState, seat: str) -> bool:
    """2.2 with calls=declared: the dealt hand is in reach and its リーチ is not yet called
    (the hand is still the dealt one: only the player's own actions change it)."""
    return (s.options.calls == "declared" and s.phase != "finished" and s.first_turn[seat]
            and s.last_call[seat] is None and in_reach(s.hands[seat]))


def may_man(s: ManState, seat: str) -> bool:
    """True when a man (or kaeshi) by `seat` would be accepted now."""
    if deal_call_owed(s, seat):
        return False
    if s.phase == "chain":
        return seat in chain_eligible(s) and hand_makes_top(s, seat)
    if s.phase != "play" or not s.top_manable or s.top_by == seat or seat not in s.window:
        return False
    return hand_makes_top(s, seat)


def may_man_in_play(s: ManState, seats: Iterable[str]) -> list[str]:
    """The `seats` for which may_man holds in play phase, the table's checks taken once (to_act
    asks it of every seat on every action); a seat owing its deal call is the caller's to
    list or not. A hand out of reach makes no number (4): its total says so before its
    numbers are read."""
    if s.phase != "play" or not s.top_manable:
        return []
    number, top_by, window, hands = top_rank_value(s), s.top_by, s.window, s.hands
    return [p for p in seats if p != top_by and p in window and in_reach(hands[p])
            and number in man_numbers(hands[p])]


def man_kinds(s: ManState, seat: str) -> tuple[str, ...]:
    """5.5: tanki (one card), mekuri (the one-card draw of this turn made it possible; a
    penalty draw never does), kaeshi (a counter)."""
    kinds = []
    hand = s.hands[seat]
    if len(hand) == 1:
        kinds.append("tanki")
    if seat == s.turn and s.drawn_cards and not s.drew_penalty:
        before = list(hand)
        for c in s.drawn_cards:
            before.remove(c)
        if top_rank_value(s) not in man_numbers(before):
            kinds.append("mekuri")
    if s.phase == "chain":
        kinds.append("kaeshi")
    return tuple(kinds)
