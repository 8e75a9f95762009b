"""Options: every row of the rules page's §10 (D1–D14) as a named option, and the presets
`seed` (the default), `official` and `pagat`. The combination rows (D9–D13) become a
`combos.ComboRules` through `combo_rules`."""
from __future__ import annotations

from collections.abc import Mapping  # not typing's: isinstance through it costs ~1 µs
from functools import lru_cache
from typing import Any

from engine.fields import Field, Option
from engine.referee import violations_option

from .combos import ComboRules

OPTIONS = (
    Option("level_up_1_2", Field("enum", "levels gained for a 1st-and-2nd finish (S-1)",
                                 "1位と2位で上がったときに上がるレベル数(S-1)",
                                 choices=(3, 4)), 3, "D1"),
    Option("a_win_requires_declarer", Field("bool", "a 1-2 or 1-3 win at level A ends the match "
                                            "only when the team was declarer (S-3)",
                                            "レベルAでの1位2位・1位3位の勝ちで対戦が終わるのは、"
                                            "そのチームが親チームだったときだけ(S-3)"),
           True, "D2"),
    Option("a_fail_limit", Field("int", "failures as declarer at A before the team goes back "
                                 "(S-5); 0: no limit",
                                 "レベルAの親チームとしてこの回数失敗するとレベルが戻る(S-5)。"
                                 "0: 制限なし", minimum=0, maximum=13), 3, "D3"),
    Option("a_fail_reset_to", Field("enum", "the level a team goes back to after a_fail_limit "
                                    "failures at A (S-5)",
                                    "レベルAで a_fail_limit 回失敗したチームが戻るレベル(S-5)",
                                    choices=("2", "J", "K")), "2", "D3"),
    Option("ace_finish_demotion", Field("bool", "the level-A declarer drops to 2 when the "
                                        "opponents' first player out goes out with Aces only "
                                        "(S-6)",
                                        "相手チームの1位がAだけで上がると、レベルAの親チームは"
                                        "レベル2に落ちる(S-6)"), True, "D4"),
    Option("equal_tribute", Field("enum", "equal double tributes (T-5, T-10): the 1st player "
                                  "chooses, each payer gives to the winner clockwise of them, "
                                  "or chance",
                                  "同じ強さの双方進貢(T-5、T-10): 1位のプレイヤーが選ぶ、各進貢者が"
                                  "時計回りで自分の次にいる勝者に渡す、または抽選",
                                  choices=("winners_choose", "clockwise", "random")),
           "winners_choose", "D5"),
    Option("return_max", Field("enum", "the highest return card (T-7): any card, or rank 10 "
                               "(the lowest card when none qualifies)",
                               "返貢できる最も強いカード(T-7): どのカードでもよい、または10まで"
                               "(10以下がなければ最も弱いカード)", choices=("any", "10")),
           "any", "D6"),
    Option("return_excludes_level", Field("bool", "with return_max 10, level cards may not be "
                                          "returned (T-7)",
                                          "return_max が10のとき、級牌は返貢できない(T-7)"),
           False, "D6"),
    Option("single_payer", Field("enum", "who pays a single tribute after a 1-4 finish (T-2)",
                                 "1位4位で終わった後、単独の進貢をする人(T-2)",
                                 choices=("fourth", "third_opponent")), "fourth", "D7"),
    Option("count_disclosure", Field("enum", "card counts at or below the threshold: told on "
                                     "request, or announced after playing (P-6)",
                                     "残り枚数が基準以下のとき: 尋ねられたら教える、または出した"
                                     "後に自ら告げる(P-6)",
                                     choices=("on_request", "announce")), "on_request", "D8"),
    Option("count_threshold", Field("int", "the card count at or below which it is disclosed "
                                    "(P-6)", "残り枚数を明かす基準の枚数(この枚数以下、P-6)",
                                    minimum=0, maximum=27), 10, "D8"),
    Option("max_bomb", Field("int", "largest N-of-a-kind bomb (B-6)",
                             "同じランクN枚の爆弾の最大枚数(B-6)", minimum=8, maximum=10),
           10, "D9"),
    Option("allow_as_straight", Field("bool", "five natural same-suit consecutive cards may "
                                      "also be played as a plain straight (C-5)",
                                      "ワイルドを含まない同じスートの連続5枚を、普通のストレート"
                                      "(順子)としても出せる(C-5)"), False, "D10"),
    Option("wild_self_first", Field("bool", "a wild must stand for itself when it can (W-13)",
                                    "逢人牌(ワイルドカード)は、自分自身として使えるときはそう"
                                    "読まなければならない(W-13)"),
           False, "D11"),
    Option("fullhouse_same_rank", Field("bool", "five cards that all read as one rank are also "
                                        "a full house (C-4)",
                                        "すべて同じランクと読める5枚もフルハウスになる(C-4)"),
           False, "D12"),
    Option("sequence_order", Field("enum", "order comparing tubes and plates (C-6, C-7)",
                                   "木板(連続ペア)と鋼板(連続トリプル)を比べる順序(C-6、C-7)",
                                   choices=("natural", "level")), "natural", "D13"),
    Option("anti_tribute", Field("enum", "anti-tribute with both big jokers (T-6): automatic, "
                                 "or claimed by a payer",
                                 "大王2枚による抗貢(T-6): 自動、または進貢者が宣言する",
                                 choices=("automatic", "optional")),
           "automatic", "D14"),
    # T-8 [seed]: 「もらったカードをそのまま返すことはできません」. At a table the two copies of a card
    # cannot be told apart, so handing back the other copy undoes the tribute just the same.
    Option("return_same_card", Field("enum", "the return card and the card received (T-8): "
                                     "never a card identical to it, or another copy of it may "
                                     "be returned",
                                     "返貢するカードと受け取ったカード(T-8): 同じカードは返せない、"
                                     "または同じカードの別の1枚なら返せる",
                                     choices=("never", "other_copy")), "never", "D6"),
    violations_option("R-1"),
)

DEFAULTS = {o.name: o.default for o in OPTIONS}

PRESETS: dict[str, dict[str, Any]] = {
    "seed": {},
    "official": {"a_fail_limit": 0, "ace_finish_demotion": False, "equal_tribute": "clockwise",
                 "return_max": "10", "return_excludes_level": True,
                 "count_disclosure": "announce"},
    "pagat": {"level_up_1_2": 4, "return_same_card": "other_copy"},
}


@lru_cache(maxsize=64)
def _combo_rules(max_bomb: int, flush: bool, self_first: bool, same_rank: bool,
                 order: str) -> ComboRules:
    return ComboRules(max_bomb=max_bomb, flush_as_straight=flush, wild_self_first=self_first,
                      fullhouse_same_rank=same_rank, sequence_order=order)


def combo_rules(options: Any) -> ComboRules:
    """The ComboRules of resolved options (a mapping or the state's options struct)."""
    if isinstance(options, Mapping):
        return _combo_rules_of(options.get)
    try:
        return _struct_combo_rules(options)
    except TypeError:  # a struct holding a list (not hashable): read it each time
        return _combo_rules_of(lambda k: getattr(options, k))


def _combo_rules_of(get: Any) -> ComboRules:
    return _combo_rules(int(get("max_bomb")), bool(get("allow_as_straight")),
                        bool(get("wild_self_first")), bool(get("fullhouse_same_rank")),
                        str(get("sequence_order")))


@lru_cache(maxsize=64)
def _struct_combo_rules(options: Any) -> ComboRules:
    """combo_rules of a state's options Struct (frozen, so hashable): every play reads them,
    and a deal's options never change."""
    return _combo_rules_of(lambda k: getattr(options, k))
