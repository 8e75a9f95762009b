"""Scores: 5.5 chain multipliers and stake, 8.1 chombo penalty. Every game's deltas sum to 0."""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from engine.values import ScoreDelta

from .state import ManCall as Call, ManChain as Chain, ManMatch

KIND_ORDER = ("kaeshi", "tanki", "mekuri")
KIND_JA = {"kaeshi": "返し", "tanki": "単騎", "mekuri": "めくり"}


def kinds_name(kinds: Iterable[str], multiplier: int) -> str:
    """One call by its kinds: "kaeshi tanki man ×4" (5.5: each kind doubles)."""
    said = [k for k in KIND_ORDER if k in kinds]
    return " ".join(said + ["man"]) + f" ×{multiplier}"


def kinds_name_ja(kinds: Iterable[str]) -> str:
    return "".join(KIND_JA[k] for k in KIND_ORDER if k in kinds) + "まん"


def call_name(call: Call) -> str:
    """e.g. "kaeshi tanki man ×4" (5.5: each kind doubles)."""
    return kinds_name(call.kinds, call.multiplier)


def call_name_ja(call: Call) -> str:
    return kinds_name_ja(call.kinds)


def stake(multipliers: Iterable[int]) -> int:
    """5.5: the product of every call's multiplier over the whole chain."""
    out = 1
    for m in multipliers:
        out *= m
    return out


def stake_reason(calls: Sequence[tuple[Sequence[str], int]], total: int) -> str:
    """The calls (each its kinds and multiplier, the first man first) that made the stake,
    the last call first: "kaeshi man ×2 on tanki mekuri man ×4: stake ×8" (5.5)."""
    return " on ".join(kinds_name(k, m) for k, m in reversed(calls)) + f": stake ×{total}"


def chain_outcome(chain: Chain) -> tuple[str, str, int, str]:
    """5.4: (winner, loser, stake, reason): the last caller wins from the one their call was
    against (the previous caller, or the card's player for a single man)."""
    winner = chain.calls[-1].player
    loser = chain.calls[-2].player if len(chain.calls) > 1 else chain.against
    total = stake(c.multiplier for c in chain.calls)
    return winner, loser, total, stake_reason([(c.kinds, c.multiplier) for c in chain.calls],
                                              total)


def chain_text(chain: Chain, winner: str, loser: str, total: int) -> dict[str, str]:
    """The stake in words, the last call first: "p2's kaeshi man ×2 on p1's man ×2: p2 wins
    4 from p1" (5.4, 5.5)."""
    calls = list(reversed(chain.calls))
    en = " on ".join(f"{c.player}'s {call_name(c)}" for c in calls)
    ja = "←".join(f"{c.player}の{call_name_ja(c)}×{c.multiplier}" for c in calls)
    return stake_text(en, ja, winner, loser, total)


def stake_text(calls_en: str, calls_ja: str, winner: str, loser: str,
               total: int) -> dict[str, str]:
    """The calls in words followed by what they won: "…: p2 wins 4 from p1" (5.4)."""
    return {"en": f"{calls_en}: {winner} wins {total} from {loser}",
            "ja": f"{calls_ja}: {winner}が{loser}から{total}点"}


def stake_deltas(winner: str, loser: str, total: int, reason: str,
                 text: Mapping[str, str]) -> tuple[ScoreDelta, ...]:
    """5.5: the winner gets +stake, the loser −stake, everyone else 0."""
    return (ScoreDelta(winner, "points", total, reason, text=text),
            ScoreDelta(loser, "points", -total, reason, text=text))


def chain_deltas(chain: Chain) -> tuple[ScoreDelta, ...]:
    winner, loser, total, reason = chain_outcome(chain)
    return stake_deltas(winner, loser, total, reason, chain_text(chain, winner, loser, total))


def chombo_deltas(players: tuple[str, ...], offender: str, reason: str,
                  text: Mapping[str, str]) -> tuple[ScoreDelta, ...]:
    """8.1: every other player +1, the offender −(players − 1). `text`: what happened, in
    both languages (the `penalized` event's)."""
    n = len(players)
    out = [ScoreDelta(offender, "points", -(n - 1), f"chombo: {reason}",
                      text={"en": f"Chombo: {text['en']}", "ja": f"チョンボ: {text['ja']}"})]
    paid = {"en": f"Chombo by {offender}: {text['en']}",
            "ja": f"{offender}のチョンボ: {text['ja']}"}
    out += [ScoreDelta(p, "points", 1, f"chombo by {offender}: {reason}", text=paid)
            for p in players if p != offender]
    return tuple(out)


def match_winner(totals: dict[str, int], games: int, games_limit: int | None,
                 target: int | None) -> str | None:
    """7.2: once `games_limit` games are played or a running total reaches `target`, the match
    is won by the one player with the highest total; a tie for the lead plays on."""
    top = max(totals.values())
    if not ((games_limit is not None and games >= games_limit)
            or (target is not None and top >= target)):
        return None
    leaders = [p for p, t in totals.items() if t == top]
    return leaders[0] if len(leaders) == 1 else None


def match_after(match: ManMatch, deltas: Iterable[ScoreDelta], games_limit: int | None,
                target: int | None) -> ManMatch:
    """The match once a game has ended with `deltas` (7.1, 7.2): the running totals with
    them, one game more, and over (with its winner) once an end condition is met."""
    totals = dict(match.totals)
    for d in deltas:
        totals[d.target] += d.delta
    games = match.games_played + 1
    winner = match_winner(totals, games, games_limit, target)
    return ManMatch(totals, games, winner is not None, winner)
