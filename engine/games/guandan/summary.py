"""Guandan's table in words and its match standings (engine/summary.py), from the public part
of a deal only: the level and its wild card, the play to beat and who made it, the tribute's
phase; each seat's card count as the view tells it (P-6), its place once out, its team; the
teams' levels (L-1, S). And the hand order a view shows."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from engine.cards import SUITS, rank_of, suit_of
from engine.summary import (
    Fact,
    SeatSummary,
    Standings,
    TableSummary,
    cards_words,
    entry,
    fact,
    ordinal,
    seat_line,
    words,
)

from .combos import level_value, wild_card
from .phases import top_play
from .state import LEVELS, TEAMS, GuandanState, team_of

_TYPES = {"single": ("single", "シングル"), "pair": ("pair", "ペア"),
          "triple": ("triple", "スリーカード"), "full_house": ("full house", "フルハウス"),
          "straight": ("straight", "ストレート"), "tube": ("tube (three pairs in a row)",
                                                           "木板(連続ペア)"),
          "plate": ("plate (two triples in a row)", "鋼板(連続トリプル)"),
          "bomb": ("bomb", "爆弾"), "straight_flush": ("straight flush", "ストレートフラッシュ"),
          "four_jokers": ("four jokers", "ジョーカー4枚")}
_PHASES = {"tribute": ("Tribute: the losers give their strongest card (T-2)",
                       "貢ぎ: 負けた側が一番強いカードを差し出す(T-2)"),
           "choose": ("Tribute: the 1st player chooses a tribute (T-5)",
                      "貢ぎ: 1位のプレイヤーが貢ぎ札を選ぶ(T-5)"),
           "return": ("Tribute: the receivers give a card back (T-7)",
                      "貢ぎ: 受け取った人がカードを返す(T-7)"),
           "lead": ("Tribute done: the lead is decided (T-9)",
                    "貢ぎ終了: 最初に出す人が決まる(T-9)"),
           "finished": ("The deal is over", "ディール終了")}
TEAM_WORDS = {"team1": ("Team 1", "チーム1"), "team2": ("Team 2", "チーム2")}


def level_number(level: str) -> int:
    """A level as a number (L-1): 2 … 10, J 11, Q 12, K 13, A 14."""
    return LEVELS.index(level) + 2


def hand_order(s: GuandanState, cards: tuple[str, ...]) -> list[str]:
    """L-3: weakest first — 2 … K, A, then the level rank (its wild hearts last among them,
    W-1), the black joker, the red joker; suits ♠ ♥ ♦ ♣ within a rank."""
    wild = wild_card(s.level)

    def key(card: str) -> tuple[int, int, int]:
        suit = suit_of(card)
        return (level_value(rank_of(card), s.level), card == wild,
                SUITS.index(suit) if suit is not None else 0)
    return sorted(cards, key=key)


def summary(s: GuandanState, viewer: str | None) -> TableSummary:
    declarer = s.match.declarer
    who = (f" ({TEAM_WORDS[declarer][0]} declares)", f"({TEAM_WORDS[declarer][1]}が宣言側)") \
        if declarer is not None else ("", "")
    wild = wild_card(s.level)
    facts: list[Fact] = [
        fact("level", ("Level", "レベル"),
             (f"Level {s.level}{who[0]}", f"レベル{s.level}{who[1]}")),
        fact("wild_card", ("Wild card", "ワイルドカード"),
             (f"{cards_words([wild]).en}: stands for any card but a joker (W-1)",
              f"{cards_words([wild]).ja}: ジョーカー以外の何にでもなる(W-1)"), (wild,)),
    ]
    if s.phase in _PHASES:
        facts.append(fact("phase", ("Phase", "段階"), _PHASES[s.phase]))
    if s.anti_tribute:
        facts.append(fact("anti_tribute", ("Anti-tribute", "抗貢"),
                          ("Both big jokers: no tribute this deal (T-6)",
                           "大ジョーカー2枚: このディールは貢ぎなし(T-6)")))
    top = top_play(s) if s.phase == "play" else None
    if top is not None and top.reading is not None:
        said = cards_words(top.cards)
        kind = _TYPES[top.reading.type]
        facts.append(fact("to_beat", ("To beat", "場のカード"),
                          words(f"{said.en} ({kind[0]}), played by {top.player}",
                                f"{top.player}が出した{said.ja}({kind[1]})"),
                          top.cards, top.player))
    elif s.phase == "play":
        facts.append(fact("to_beat", ("To beat", "場のカード"),
                          ("Nothing: a new lead", "なし: 新しいリード"), None, s.turn))
    options: Any = s.options  # a Struct built from the declarations (state.py)
    threshold: int = options.count_threshold
    seats = tuple(_seat(s, p, viewer, threshold) for p in s.players)
    return TableSummary(tuple(facts), seats)


def _seat(s: GuandanState, p: str, viewer: str | None, threshold: int) -> SeatSummary:
    held = len(s.hands[p])
    out = list(s.result.order) if s.result is not None else [o.player for o in s.out]
    title: tuple[str, str] | None = None
    if p in s.void:
        title = ("Hand void (R-6)", "手札無効(R-6)")
    elif p in out:
        place = ordinal(out.index(p) + 1)
        title = (f"Out, {place[0]}", f"{place[1]}で上がり")
    # P-6: a count above the threshold is told to its holder only
    return seat_line(p, held if p == viewer or held <= threshold else None, title,
                     team_of(s.players, p))


def standings(s: GuandanState) -> Standings:
    """Each team's level (L-1): as the deal began while it is played, after it once finished
    (the referee's level penalties, S-9, count when the deal ends)."""
    levels = s.result.levels if s.result is not None else s.match.levels
    over = s.result is not None and s.result.match_winner is not None
    return levels_standings(s.players, levels, over)


def levels_standings(players: Sequence[str], levels: Mapping[str, str], over: bool) -> Standings:
    """The match standings of the teams' `levels` (a played deal's, or a reported match's:
    reported.py); `over`: the match is won."""
    return Standings(
        words("level", "レベル"),
        tuple(entry(team, [players[i], players[i + 2]], level_number(levels[team]),
                    (f"{TEAM_WORDS[team][0]}: level {levels[team]}",
                     f"{TEAM_WORDS[team][1]}: レベル{levels[team]}"))
              for i, team in enumerate(TEAMS)),
        over)
