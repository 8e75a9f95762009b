"""Manteur's table in words and its standings (engine/summary.py), from the public part of a
game only: the round, the declaration to beat and who made it, what the player on turn does,
the holder's exchange, the stock, the last challenge; who holds the hand, who is out; each
player's penalty points (B17, B-g). And the hand order a view shows."""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.cards import SUITS, rank_of, suit_of
from engine.summary import (
    Fact,
    SeatSummary,
    Standings,
    TableSummary,
    counted,
    entry,
    fact,
    seat_line,
    words,
)

from .declarations import STANDARD_RANKS, describe
from .phases import step
from .state import ManteurState


def hand_order(cards: tuple[str, ...]) -> list[str]:
    """By suit (♠ ♥ ♦ ♣), then by rank within a suit (2 … A, B2), jokers last."""
    def key(card: str) -> tuple[int, int]:
        suit = suit_of(card)
        if suit is None:
            return (len(SUITS), 0 if card == "BJ" else 1)
        return (SUITS.index(suit), STANDARD_RANKS.index(rank_of(card)))
    return sorted(cards, key=key)


def summary(s: ManteurState, viewer: str | None) -> TableSummary:
    facts: list[Fact] = [fact("round", ("Round", "ラウンド"),
                              (f"Round {s.round}", f"第{s.round}ラウンド"))]
    if s.calls:
        last = s.calls[-1]
        d = last.declaration.model()
        facts.append(fact("to_beat", ("To beat", "宣言"),
                          (f"{describe(d)}, declared by {last.player}",
                           f"{last.player}の宣言: {describe(d, 'ja')}"), None, last.player))
    if s.phase != "finished":
        facts.append(_phase(s))
    if s.exchanged is not None and s.phase in ("declare", "respond"):
        facts.append(fact("exchanged", ("Exchanged", "交換"),
                          counted(s.exchanged, "card", "cards", "枚"), None, s.holder))
    facts.append(fact("stock", ("Stock", "山札"), counted(len(s.stock), "card", "cards", "枚")))
    if s.last_round is not None:
        r = s.last_round
        d = r.declaration.model()
        verdict = ("true", "本当") if r.truthful else ("a bluff", "はったり")
        facts.append(fact("last_challenge", ("Last challenge", "直前のチャレンジ"),
                          (f"{r.challenger} challenged {r.declarer} ({describe(d)}): "
                           f"{verdict[0]}; {r.loser} takes a penalty point (B14)",
                           f"{r.challenger}が{r.declarer}の{describe(d, 'ja')}にチャレンジ: "
                           f"{verdict[1]}。{r.loser}に1失点(B14)"),
                          # (the hand it showed is the view's `last_round.hand`; a card of it
                          # may lie hidden again by now, so the summary does not repeat it)
                          None, r.loser))
    return TableSummary(tuple(facts), tuple(_seat(s, p) for p in s.players))


def _phase(s: ManteurState) -> Fact:
    if s.phase == "respond":
        nxt = step(s, s.holder)
        said = (f"{nxt} believes and takes the hand, or challenges (B13)",
                f"{nxt}が信じて手札を受け取るか、チャレンジする(B13)")
    elif s.phase == "deal":
        said = (f"{s.holder} is dealt five new cards (B.6)", f"{s.holder}に5枚を配る(B.6)")
    elif s.phase == "exchange":
        said = (f"{s.holder} exchanges up to four cards (B15)", f"{s.holder}が4枚まで交換する(B15)")
    else:
        said = (f"{s.holder} declares a higher hand (B8)", f"{s.holder}がより高い役を宣言する(B8)")
    return fact("phase", ("Phase", "段階"), said, None, s.holder)


def _seat(s: ManteurState, p: str) -> SeatSummary:
    title: tuple[str, str] | None = None
    if p in s.eliminated:
        title = ("Out", "脱落")
    elif s.result is not None and p == s.result.loser:
        title = ("Lost", "負け")
    elif s.result is not None and p == s.result.winner:
        title = ("Won", "勝ち")
    elif p == s.holder and s.phase != "finished":
        title = ("Holds the hand", "手札を持つ")
    held = len(s.hand) if p == s.holder and s.phase != "finished" else 0
    return seat_line(p, held, title)


def standings(s: ManteurState) -> Standings:
    """Penalty points by player (B17), against the limit (B-g); a game is its own match."""
    return penalty_standings(s.players, s.match.penalties, s.options.penalty_limit,
                             s.status == "finished")


def penalty_standings(players: Sequence[str], penalties: Mapping[str, int], limit: int,
                      finished: bool) -> Standings:
    """The standings of a game's penalty points (a played game's, or reported rounds' scored
    by reported.py)."""
    return Standings(
        words("penalty points", "失点"),
        tuple(entry(p, (p,), penalties[p],
                    (f"{counted(penalties[p], 'penalty point', 'penalty points', '失点')[0]}"
                     f" of {limit}", f"{penalties[p]}/{limit}失点"))
              for p in players),
        finished)
