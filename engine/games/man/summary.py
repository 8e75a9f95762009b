"""Man's table in words and its match standings (engine/summary.py), from the public part of a
game only: the top card and who played it, a named suit, a pending draw, the direction, an
open man chain, the stock, the result; each seat's cards left, the dealer and reach; the
running totals of the match (7.2). And the hand order a view shows."""
from __future__ import annotations

from collections.abc import Sequence

from engine.cards import SUIT_NAMES, SUIT_NAMES_JA, SUIT_SYMBOLS, SUITS
from engine.summary import (
    Fact,
    SeatSummary,
    Standings,
    TableSummary,
    cards_words,
    counted,
    entry,
    fact,
    seat_line,
    words,
)

from .numbers import card_value
from .state import ManMatch, ManState


def hand_order(cards: tuple[str, ...]) -> list[str]:
    """By suit (♠ ♥ ♦ ♣), then by number within a suit (A = 1 … K = 13, 1.2)."""
    return sorted(cards, key=lambda c: (SUITS.index(c[0]), card_value(c)))


def summary(s: ManState, viewer: str | None) -> TableSummary:
    facts: list[Fact] = []
    top = s.discard[-1] if s.discard else None
    if top is not None:
        said = cards_words([top])
        by = (f", played by {s.top_by}", f"{s.top_by}が出した") if s.top_by else \
            (" (the start card)", "台札")
        facts.append(fact("top_card", ("Top card", "場のカード"),
                          words(f"{said.en}{by[0]}", f"{by[1]}{said.ja}"), (top,), s.top_by))
    if s.phase == "opening":
        facts.append(fact("phase", ("Phase", "段階"),
                          ("Opening race: anyone holding a card of the start card's number or "
                           "suit may play it (2.4)",
                           "最初の早出し: 台札と同じ数字かマークのカードを持つ人は誰でも出せる(2.4)")))
    if s.named_suit is not None:
        name = SUIT_NAMES[s.named_suit], SUIT_NAMES_JA[s.named_suit]
        mark = SUIT_SYMBOLS[s.named_suit]
        facts.append(fact("named_suit", ("Suit named", "指定マーク"),
                          (f"{mark} {name[0]}: the next card must be of this suit or an 8 (3.1)",
                           f"{mark}{name[1]}: 次はこのマークか8(3.1)")))
    if s.pending_draw:
        facts.append(fact("pending_draw", ("Pending draw", "ドロー"),
                          (f"{s.pending_draw} cards: the player on turn draws them unless they "
                           "answer with a 2, 3, 8, A or J (3.8)",
                           f"{s.pending_draw}枚: 手番の人は2・3・8・A・Jで返さなければ引く(3.8)"),
                          None, s.turn))
    if s.direction == -1:
        facts.append(fact("direction", ("Direction", "回る向き"),
                          ("Turned round by a J: play goes against seat order (3.7)",
                           "Jで逆回り(3.7)")))
    if s.chain is not None and s.phase == "chain":
        callers = ", ".join(c.player for c in s.chain.calls)
        facts.append(fact("man_chain", ("Man called", "まん"),
                          (f"On {cards_words([s.chain.card]).en} of {s.chain.against}: "
                           f"called by {callers} (5.4)",
                           f"{s.chain.against}の{cards_words([s.chain.card]).ja}に"
                           f"{callers}がまん(5.4)"), (s.chain.card,), s.chain.against))
    facts.append(fact("stock", ("Stock", "山札"),
                      counted(len(s.stock), "card", "cards", "枚")))
    if s.result is not None:
        facts.append(_result(s))
    return TableSummary(tuple(facts), tuple(_seat(s, p) for p in s.players))


def _result(s: ManState) -> Fact:
    r = s.result
    assert r is not None
    if r.kind == "man":
        stake = counted(r.stake, "point", "points", "点")
        said = (f"{r.winner} manned {r.loser}: {stake[0]} (5.4)",
                f"{r.winner}が{r.loser}からまん: {stake[1]}(5.4)")
    elif r.kind == "chombo":
        said = (f"Chombo by {r.offender} (8.1)", f"{r.offender}のチョンボ(8.1)")
    else:
        said = ("Drawn game", "引き分け")
    return fact("result", ("Result", "結果"), said, None, r.winner or r.offender)


def _seat(s: ManState, p: str) -> SeatSummary:
    roles = []
    if p == s.dealer:
        roles.append(("Dealer", "親"))
    if s.reach[p]:
        roles.append(("Reach", "リーチ"))
    title = None if not roles else (", ".join(r[0] for r in roles), "・".join(r[1] for r in roles))
    return seat_line(p, len(s.hands[p]), title)


def standings(s: ManState) -> Standings:
    """Running totals by seat (7.2): before this game while it is played, after it once it
    is finished; the match is over once a total reaches the target or the games are played."""
    return match_standings(s.players, s.match)


def match_standings(players: Sequence[str], match: ManMatch) -> Standings:
    """The standings of `match` at a table seated `players` (a played game's, or reported
    games' scored by reported.py)."""
    totals = match.totals
    return Standings(words("points", "点"),
                     tuple(entry(p, (p,), totals[p], counted(totals[p], "point", "points", "点"))
                           for p in players),
                     match.over)
