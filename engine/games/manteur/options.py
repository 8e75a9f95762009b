"""Options: the project defaults (the original rules' game) and every row B-a … B-h of the rules
page's option table (docs/rules/manteur.md B.5; B-i has no option). The declaration rows feed
`DeclarationRules`; B-d, B-e, B-g and B-h are rules of the round machine (phases.py)."""
from __future__ import annotations

from functools import lru_cache
from typing import Any

import msgspec

from engine.fields import Field, Option
from engine.referee import violations_option

from .declarations import DECKS, MIN_DECLARATIONS, DeclarationRules

OPTIONS = (
    Option("deck", Field("enum", "standard52: 52 cards, A high to 2; piquet32: 7 to A only",
                         "standard52: 52枚(Aが最強、2が最弱)。piquet32: 7からAまでの32枚のみ",
                         choices=DECKS), "standard52", "B-a"),
    Option("jokers", Field("int", "wild jokers added to the deck (0 bars five of a kind)",
                           "デッキに加えるワイルドのジョーカーの枚数(0ならファイブカードはない)",
                           minimum=0, maximum=2), 2, "B-a"),
    Option("flush_above_full_house", Field(
        "bool", "flush ranks above full house; null: exactly with the piquet32 deck",
        "フラッシュをフルハウスより強くする。null: piquet32 のデッキのときだけ強くする",
        nullable=True), None, "B-a"),
    Option("allow_straights", Field("bool", "straights (and straight flushes) may be declared",
                                    "ストレート(とストレートフラッシュ)を宣言できる"),
           True, "B-b"),
    Option("allow_flushes", Field("bool", "flushes (and straight flushes) may be declared",
                                  "フラッシュ(とストレートフラッシュ)を宣言できる"),
           True, "B-b"),
    Option("min_declaration", Field("enum", "the lowest hand type that may be declared",
                                    "宣言できる最も低い役",
                                    choices=MIN_DECLARATIONS), "high_card", "B-c"),
    Option("opener_may_exchange", Field("bool", "the round's first player may exchange 0-4 "
                                        "cards before declaring",
                                        "ラウンドの最初のプレイヤーも、宣言の前にカードを0〜4枚"
                                        "交換できる"), False, "B-d"),
    Option("next_round_starter", Field("enum", "loser: the player who took the penalty point "
                                       "starts the next round; next_player: the player after "
                                       "the last round's starter",
                                       "loser: 失点したプレイヤーが次のラウンドを始める。"
                                       "next_player: 前のラウンドを始めたプレイヤーの次の人が始める",
                                       choices=("loser", "next_player")), "loser", "B-e"),
    Option("ace_low_straight", Field("bool", "5-4-3-2-A (piquet: 10-9-8-7-A) is the lowest "
                                     "straight",
                                     "5-4-3-2-A(ピケ: 10-9-8-7-A)を最も低いストレートとする"),
           True, "B-f"),
    Option("penalty_limit", Field("int", "penalty points at which a player loses (penalty) "
                                  "or is out (elimination)",
                                  "プレイヤーが負け(penalty)または脱落(elimination)になる失点の数",
                                  minimum=1, maximum=99), 5, "B-g"),
    Option("mode", Field("enum", "penalty: the game ends when a player reaches the limit, who "
                         "loses; elimination: that player is out, the last one in wins",
                         "penalty: 失点が上限に達したプレイヤーの負けでゲームが終わる。"
                         "elimination: そのプレイヤーが脱落し、最後まで残った人が勝つ",
                         choices=("penalty", "elimination")), "penalty", "B-g"),
    Option("direction", Field("enum", "cw: the next player is the next id in seat order; ccw: "
                              "the previous one",
                              "cw: 次のプレイヤーは席順で次のID。ccw: 席順で前のID",
                              choices=("cw", "ccw")), "cw", "B-h"),
    violations_option("B19"),
)

PRESETS: dict[str, dict[str, Any]] = {
    "standard": {},
    # B-a: the French 32-card game (flush above full house follows the deck).
    "piquet": {"deck": "piquet32"},
    # B-b, B-d, B-e, B-g, B-h: the jeu-casino.com variant.
    "jeu_casino": {"allow_straights": False, "allow_flushes": False,
                   "opener_may_exchange": True, "next_round_starter": "next_player",
                   "mode": "elimination", "direction": "ccw"},
}

DEFAULTS = {o.name: o.default for o in OPTIONS}


def rules_of(options: Any) -> DeclarationRules:
    """The DeclarationRules of a state's options (a frozen, hashable Struct), memoized: every
    declaration reads them and a deal's options never change (a bad value raises each time:
    nothing is cached then)."""
    try:
        return _rules_of(options)
    except TypeError:  # not hashable: read it each time
        return _rules_of.__wrapped__(options)


@lru_cache(maxsize=64)
def _rules_of(options: Any) -> DeclarationRules:
    return DeclarationRules.from_options(msgspec.structs.asdict(options), "state.options")
