"""Daifugo's table in words and its match standings (engine/summary.py), from the public part
of a deal only: the field to beat and who played it, a revolution or J-back, locks, the
direction, a follow-up owed, the deal of the match; each seat's cards left and title; the
running points (D-s, D28) and the match's end (D29). And the hand order a view shows."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from engine.cards import SUITS, rank_of, suit_of
from engine.summary import (
    Fact,
    SeatSummary,
    Standings,
    TableSummary,
    cards_words,
    counted,
    entry,
    fact,
    ordinal,
    seat_line,
    words,
)

from .phases import TITLE_NAMES, match_totals, titles_for
from .plays import ORDER
from .state import DaifugoState, match_over

_SUIT_WORDS = {"S": ("♠", "♠"), "H": ("♥", "♥"), "D": ("♦", "♦"), "C": ("♣", "♣")}
_PHASES = {"exchange": ("The exchange: the upper players give back cards (D11)",
                        "カード交換: 上位のプレイヤーがカードを返す(D11)"),
           "give": ("7-pass: the player of the 7s gives cards (D18)",
                    "7渡し: 7を出した人がカードを渡す(D18)"),
           "discard": ("10-discard: the player of the 10s discards cards (D19)",
                       "10捨て: 10を出した人がカードを捨てる(D19)"),
           "finished": ("The deal is over", "ディール終了")}


def reversed_now(s: DaifugoState) -> bool:
    """Whether the strength order is turned round now: a revolution (D12) or a J-back (D16),
    not both."""
    return s.revolution != s.jack_back


def hand_order(s: DaifugoState, cards: tuple[str, ...]) -> list[str]:
    """D2: weakest first in the strength order of the moment (3 … 2, or 2 … 3 turned round
    by a revolution or a J-back); jokers last, the strongest either way; suits ♠ ♥ ♦ ♣."""
    turned = reversed_now(s)

    def key(card: str) -> tuple[int, int, str]:
        suit = suit_of(card)
        if suit is None:
            return (1, 0, card)
        strength = ORDER.index(rank_of(card))
        return (0, -strength if turned else strength, str(SUITS.index(suit)))
    return sorted(cards, key=key)


def summary(s: DaifugoState, viewer: str | None) -> TableSummary:
    facts: list[Fact] = []
    options: Any = s.options  # a Struct built from the declarations (state.py)
    length = options.match_deals
    deal = (f"Deal {s.match.deal} of {length}" if length else f"Deal {s.match.deal}",
            f"第{s.match.deal}ディール(全{length})" if length else f"第{s.match.deal}ディール")
    facts.append(fact("deal", ("Deal", "ディール"), deal))
    if s.phase in _PHASES:
        facts.append(fact("phase", ("Phase", "段階"), _PHASES[s.phase]))
    if s.top is not None:
        said = cards_words(s.top.cards)
        facts.append(fact("to_beat", ("To beat", "場のカード"),
                          words(f"{said.en}, played by {s.top.by}", f"{s.top.by}が出した{said.ja}"),
                          s.top.cards, s.top.by))
    elif s.phase == "play":
        facts.append(fact("to_beat", ("To beat", "場のカード"),
                          ("Nothing: the field is clear, any play leads",
                           "なし: 場が流れている(何を出してもよい)"), None, s.turn))
    facts += _effects(s)
    return TableSummary(tuple(facts), tuple(_seat(s, p) for p in s.players))


def _effects(s: DaifugoState) -> list[Fact]:
    out = []
    if s.revolution:
        out.append(fact("revolution", ("Revolution", "革命"),
                        ("On: 3 is the strongest rank, 2 the weakest (D12)",
                         "革命中: 3が最も強く、2が最も弱い(D12)")))
    if s.jack_back:
        out.append(fact("jack_back", ("J-back", "11バック"),
                        ("On until the field clears: the order of strength is turned round (D16)",
                         "場が流れるまで強さの順が逆になる(D16)")))
    if s.locked_suits:
        marks = " ".join(_SUIT_WORDS[x][0] for x in s.locked_suits)
        more = (" and numbers in sequence", "・数字も階段") if s.sequence_lock else ("", "")
        out.append(fact("lock", ("Lock", "縛り"),
                        (f"{marks}{more[0]}: only these suits may follow (D14)",
                         f"{marks}{more[1]}縛り: このスートしか出せない(D14)")))
    elif s.sequence_lock:
        out.append(fact("lock", ("Lock", "縛り"),
                        ("Numbers in sequence: the next play must be one higher (D14)",
                         "数字縛り: 次は一つ上の数字しか出せない(D14)")))
    if s.direction == -1:
        out.append(fact("direction", ("Direction", "回る向き"),
                        ("Turned round: play goes the other way (D20)",
                         "逆回り(D20)")))
    if s.owed is not None and (s.owed.give or s.owed.discard):
        o = s.owed
        en = " and ".join(x for x in (
            f"give {o.give} card(s) to {o.receiver}" if o.give else "",
            f"discard {o.discard} card(s)" if o.discard else "") if x)
        ja = "、".join(x for x in (
            f"{o.receiver}に{o.give}枚渡す" if o.give else "",
            f"{o.discard}枚捨てる" if o.discard else "") if x)
        out.append(fact("owed", ("Owed", "未処理"), (f"{o.player} must {en}", f"{o.player}: {ja}"),
                        None, o.player))
    return out


def _seat(s: DaifugoState, p: str) -> SeatSummary:
    title: tuple[str, str] | None = None
    if s.result is not None:
        ja, en = TITLE_NAMES[s.result.titles[p]]
        title = (en, ja)
    elif p in s.finished:
        place = ordinal(s.finished.index(p) + 1)
        title = (f"Out, {place[0]}", f"{place[1]}で上がり")
    elif p in s.fallen:
        place = ordinal(len(s.players) - s.fallen.index(p))
        title = (f"Out, ranked {place[0]}", f"{place[1]}で脱落")
    elif s.match.finish_order:  # the title the last deal gave (the exchange, D11)
        ja, en = TITLE_NAMES[dict(zip(s.match.finish_order,
                                      titles_for(len(s.match.finish_order))))[p]]
        title = (f"{en} (last deal)", f"前回{ja}")
    return seat_line(p, len(s.hands[p]), title)


def standings(s: DaifugoState) -> Standings:
    """Running points by seat (D-s; the referee's penalties, D28, included), after the deal
    once it is finished; the match is over after its last deal (D29)."""
    return points_standings(s.players, match_totals(s),
                            s.status == "finished" and match_over(s))


def points_standings(players: Sequence[str], totals: Mapping[str, int], over: bool) -> Standings:
    """The match standings of each seat's running points (a played deal's, or a reported
    match's: reported.py); `over`: the match's last deal is finished (D29)."""
    return Standings(words("points", "点"),
                     tuple(entry(p, (p,), totals[p], counted(totals[p], "point", "points", "点"))
                           for p in players),
                     over)
