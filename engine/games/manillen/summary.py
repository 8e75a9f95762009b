"""Manillen's table in words and its match standings (engine/summary.py), from the public part
of a deal only: the trump (or who names it), the turned card, the multiplier of the doubling,
the trick and the card winning it, the tricks each side holds; each seat's cards left, the
dealer, its side; each score holder's booms and points (A31, A32)."""
from __future__ import annotations

from collections.abc import Sequence

from engine.cards import SUIT_NAMES, SUIT_NAMES_JA, SUIT_SYMBOLS
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

from . import sides as sd
from .phases import chooser, left_of, trump_suit
from .result import ManillenMatch, ManillenResult
from .state import ManillenState
from .tricks import winner_offset


def summary(s: ManillenState, viewer: str | None) -> TableSummary:
    facts: list[Fact] = []
    if s.trump is None:
        who = chooser(s)
        facts.append(fact("trump", ("Trump", "切り札"),
                          (f"Not named yet: {who} names it (A8)", f"未定: {who}が決める(A8)"),
                          None, who))
    elif s.trump == "no_trump":
        facts.append(fact("trump", ("Trump", "切り札"), ("No trumps", "切り札なし")))
    else:
        name = SUIT_NAMES[s.trump], SUIT_NAMES_JA[s.trump]
        mark = SUIT_SYMBOLS[s.trump]
        facts.append(fact("trump", ("Trump", "切り札"), (f"{mark} {name[0]}", f"{mark}{name[1]}")))
    if s.turned is not None:
        facts.append(fact("turned", ("Turned card", "表にしたカード"), cards_words([s.turned]),
                          (s.turned,)))
    facts.append(_doubling(s))
    trick = s.trick
    if trick is not None and trick.cards:
        best = winner_offset(trick.cards, trump_suit(s))
        by = left_of(s, trick.leader, best)
        said = cards_words([trick.cards[best]])
        facts.append(fact("to_beat", ("To beat", "場のカード"),
                          words(f"{said.en}, played by {by}", f"{by}が出した{said.ja}"),
                          (trick.cards[best],), by))
        facts.append(fact("trick", ("Trick", "トリック"),
                          words(f"Led by {trick.leader}: {cards_words(trick.cards).en}",
                                f"{trick.leader}のリード: {cards_words(trick.cards).ja}"),
                          trick.cards, trick.leader))
    if s.phase in ("play", "over"):
        facts.append(_tricks(s))
    return TableSummary(tuple(facts), tuple(_seat(s, p) for p in s.players))


def _doubling(s: ManillenState) -> Fact:
    calls = len(s.doubling.calls)
    carry = s.match.carry
    en = [f"×{s.multiplier}"]
    ja = [f"×{s.multiplier}"]
    if calls:
        en.append(f"doubled {calls} time{'s' if calls > 1 else ''}")
        ja.append(f"ダブル{calls}回")
    if carry > 1:
        en.append(f"×{carry} carried from a tie (A29)")
        ja.append(f"同点の持ち越し×{carry}(A29)")
    return fact("doubling", ("Multiplier", "倍率"), (", ".join(en), "、".join(ja)),
                None, s.doubling.turn if s.phase == "doubling" else None)


def _tricks(s: ManillenState) -> Fact:
    players = s.players
    n = len(players)
    held = []
    for side in sd.sides(players, players.index(s.dealer)):
        count = sum(len(s.won[players[i]]) for i in side["seats"]) // n
        held.append((" & ".join(players[i] for i in side["seats"]),
                     "・".join(players[i] for i in side["seats"]), count))
    return fact("tricks", ("Tricks taken", "取ったトリック"),
                (", ".join(f"{en}: {k}" for en, _, k in held),
                 "、".join(f"{ja}: {k}" for _, ja, k in held)))


def _seat(s: ManillenState, p: str) -> SeatSummary:
    players = s.players
    team = None
    if len(players) != 2:
        for side in sd.sides(players, players.index(s.dealer)):
            if players.index(p) in side["seats"]:
                team = side["id"]
    title = ("Dealer", "親") if p == s.dealer else None
    return seat_line(p, len(s.hands[p]), title, team)


def standings(s: ManillenState) -> Standings:
    """Each score holder (a team, or a player with 2 or 3 players): its booms, which decide the
    match (A32), as `total`; its points toward the next boom in the text too. As the deal
    began while it is played, after it once finished."""
    return match_standings(s.players, s.match, s.result)


def match_standings(players: Sequence[str], match: ManillenMatch,
                    result: ManillenResult | None) -> Standings:
    """The standings of a deal begun in `match`, with its `result` once finished (a played
    deal's, or reported deals' scored by reported.py)."""
    scores = dict(result.scores if result is not None else match.scores)
    booms = dict(match.booms)
    if result is not None and result.boom is not None:
        booms[result.boom.winner] += 1
        scores = {h: 0 for h in scores}  # a boom starts the count again (A31)
    out = []
    for holder in sd.holders(players):
        b, pts = booms[holder], scores[holder]
        boom = counted(b, "boom", "booms", "ブーム")
        point = counted(pts, "point", "points", "点")
        out.append(entry(holder, sd.holder_members(players, holder), b,
                         (f"{boom[0]}, {point[0]}", f"{boom[1]}、{point[1]}")))
    return Standings(words("booms", "ブーム"), tuple(out),
                     result is not None and result.match_over)
