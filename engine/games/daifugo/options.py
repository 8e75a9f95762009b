"""Options: every named option of docs/rules/daifugo.md (C.4), with the `seed` preset's values
as defaults, and the three presets. `play_rules(options)` gives the PlayRules the play
predicates read (memoized: options are immutable)."""
from __future__ import annotations

from collections.abc import Mapping  # not typing's: isinstance through it costs ~1 µs
from functools import lru_cache
from itertools import permutations
from typing import Any

from engine.fields import Field, Option
from engine.referee import violations_option

from .rules import FIVE_SKIPS, FORBIDDEN_FINISHES, JACK_BACKS, LOCKS, SPADE3_RETURNS, STAIRS_FORMS, PlayRules

FIRST_LEADERS = ("random_then_daihinmin", "diamond3_first_then_daihinmin", "spade3_first",
                 "diamond3_every_game")
RANK_POINTS = ("2/1/0/-1/-2", "5/4/3/2/1", "1/0/0/0/-1", "0/0/0/0/0")
EXCHANGES = ("none", "2_1", "1_1", "1_0")
SUIT_ORDERS = tuple("".join(p) for p in permutations("SHDC"))


def _enum(desc: str, desc_ja: str, choices: tuple[Any, ...], nullable: bool = False) -> Field:
    return Field("enum", desc, desc_ja, choices=choices, nullable=nullable)


def _bool(desc: str, desc_ja: str) -> Field:
    return Field("bool", desc, desc_ja)


OPTIONS = (
    Option("jokers", Field("int", "jokers in the deck (BJ, then RJ)",
                           "デッキに入れるジョーカーの枚数(BJ、次にRJ)", minimum=0, maximum=2),
           1, "D-a"),
    Option("first_leader", _enum("who leads the first deal: a seeded random player, the ♦3 "
                                 "holder, the ♠3 holder; diamond3_every_game: the ♦3 holder "
                                 "leads every deal (after the exchange)",
                                 "最初のディールの親: シードで決まるランダムなプレイヤー、♦3を"
                                 "持つ人、♠3を持つ人。diamond3_every_game: 毎ディール♦3を持つ人"
                                 "(カード交換の後)が親", FIRST_LEADERS),
           "random_then_daihinmin", "D-b"),
    Option("next_leader", _enum("who leads deals 2 onward (unless diamond3_every_game)",
                                "2ディール目以降の親(diamond3_every_game でないとき)",
                                ("daihinmin", "daifugo")), "daihinmin", "D4"),
    Option("dealer", _enum("who deals (decides who gets the extra cards): the last deal's "
                           "大貧民 deals, the next seat gets the first card; daifugo: the 大富豪 "
                           "gets the first card",
                           "配る人(余りのカードを誰が受け取るかが決まる)。loser: 前のディールの大貧民が"
                           "配り、次の席に最初のカードを配る。daifugo: 大富豪に最初のカードを配る",
                           ("loser", "daifugo")), "loser", "D-c"),
    Option("stairs", _enum("stairs (階段): off, seed (the original rules' form, ③) or standard (UECda)",
                           "階段: なし(off)、元ルールの形(元ルール③)、標準(UECda)",
                           STAIRS_FORMS), "off", "D5"),
    Option("set_revolution_min", Field("int", "cards of one rank (jokers count) making a "
                                       "revolution",
                                       "革命になる同じ数字の枚数(ジョーカーを含む)",
                                       minimum=2, maximum=8), 4, "D-d"),
    Option("stairs_revolution_min", Field("int", "stairs of this many cards make a revolution; "
                                          "null: never",
                                          "この枚数以上の階段で革命になる。null: 階段では革命"
                                          "にならない", nullable=True, minimum=3, maximum=16),
           None, "D-d"),
    Option("eight_cut", _bool("8-cut (八切り): a play of 8s clears the field",
                              "八切り(8切り): 8を出すと場が流れる"), True, "D13"),
    Option("eight_cut_in_stairs", _bool("stairs through an 8 cut too (with eight_cut)",
                                        "8を含む階段でも八切りになる(eight_cut のとき)"),
           True, "D-e"),
    Option("clear_requires_last_player_pass", _bool("the field clears only when the last "
                                                    "player passes too (UECda)",
                                                    "最後に出したプレイヤーもパスしたときだけ場が"
                                                    "流れる(UECda)"), False, "D-f"),
    Option("strongest_play_clears", _bool("a play nothing in the deck could follow clears the "
                                          "field at once (original rules ⑧)",
                                          "デッキのどのカードでも返せない手を出すと、すぐに場が"
                                          "流れる(元ルール⑧)"), True, "D-f"),
    Option("pass_locks_until_clear", _bool("a pass lasts until the field clears (UECda); "
                                           "false: a passed player may play again (original rules ⑦)",
                                           "パスは場が流れるまで続く(UECda)。false: パスした"
                                           "プレイヤーも再び出せる(元ルール⑦)"),
           False, "D-g"),
    Option("leader_may_pass", _bool("the leader of a clear field may pass; the next player then "
                                    "leads, and 20 passes in a row without a play end the deal, "
                                    "the players left ranked in a seeded random order (UECda)",
                                    "場が流れた後の親もパスできる。次のプレイヤーが親になる。出す手の"
                                    "ないパスが20回続くとディールが終わり、残りのプレイヤーの順位は"
                                    "シードで決まるランダムな順になる(UECda)"),
           False, "D9"),
    Option("spade3_return", _enum("スペ3返し: off, on a lone joker, on any play holding a joker",
                                  "スペ3返し: なし(off)、ジョーカー単騎に対して、ジョーカーを含む"
                                  "どの手に対しても", SPADE3_RETURNS), "off", "D-h"),
    Option("spade3_clears", _bool("a spade-3 return clears the field",
                                  "スペ3返しで場が流れる"), True, "D-h"),
    Option("lone_joker_ignores_lock", _bool("a lone joker may be played on a locked field",
                                            "縛られた場にもジョーカー単騎を出せる"),
           True, "D-i"),
    Option("lone_joker_clears_lock", _bool("a lone joker on a locked field breaks the lock",
                                           "縛られた場にジョーカー単騎を出すと縛りが解ける"),
           True, "D-i"),
    Option("lock", _enum("縛り: off, suit, suit_and_sequence (激縛り), number (数字縛り)",
                         "縛り: なし(off)、マーク縛り(suit)、激縛り(suit_and_sequence)、"
                         "数字縛り(number)", LOCKS),
           "off", "D-j"),
    Option("forbidden_finish", Field("str_list", "foul finishes (反則上がり): any of joker, "
                                     "top_rank, eight, spade3_return, jack",
                                     "反則上がり: joker(ジョーカー)、top_rank(最強の数字)、"
                                     "eight(8)、spade3_return(スペ3返し)、jack(J)のいずれか",
                                     choices=FORBIDDEN_FINISHES), [], "D-k"),
    Option("miyako_ochi", _bool("都落ち: the last 大富豪, beaten to first place, becomes 大貧民 "
                                "at once",
                                "都落ち: 前の大富豪が1位で上がれなかったら、その時点で大貧民に"
                                "なる"), False, "D-l"),
    Option("five_skip", _enum("5-skip: off, one player per 5, one player per play holding a 5",
                              "5飛ばし: なし(off)、5の1枚ごとに1人飛ばす、5を含む手ごとに1人"
                              "飛ばす", FIVE_SKIPS), "off", "D-m"),
    Option("jack_back", _enum("J-back: off, declared (original rules ⑤), any (11バック), non_stairs",
                              "Jバック: なし(off)、宣言制(declared、元ルール⑤)、Jを含むどの手"
                              "でも(any、イレブンバック)、階段以外(non_stairs)",
                              JACK_BACKS), "off", "D-n"),
    Option("jack_back_limit", Field("int", "J-back declarations per deal, whole table; null: "
                                    "no limit",
                                    "1ディールで卓全体が宣言できるJバックの回数。null: 制限なし",
                                    nullable=True, minimum=0, maximum=100),
           None, "D-n"),
    Option("reverse_rank", _enum("the rank that turns the direction of play round; null: none",
                                 "出すと順番が逆回りになる数字。null: なし",
                                 (6, 9), nullable=True), None, "D-o"),
    Option("reverse_even_cancels", _bool("an even number of reversing cards does nothing",
                                         "逆回りにするカードを偶数枚出すと何も起こらない"),
           False, "D-o"),
    Option("seven_pass", _bool("7渡し: give the next player one card per 7",
                               "7渡し: 7の枚数だけ次のプレイヤーにカードを渡す"), False, "D-p"),
    Option("ten_discard", _bool("10捨て: discard one card per 10",
                                "10捨て: 10の枚数だけカードを捨てる"), False, "D-p"),
    Option("double_nine_cut", _bool("99 救急車: exactly two 9s clear the field",
                                    "99救急車: 9をちょうど2枚出すと場が流れる"), False, "D-p"),
    Option("triple_nine_revolution", _bool("クーデター: exactly three 9s are a revolution",
                                           "クーデター: 9をちょうど3枚出すと革命になる"),
           False, "D-p"),
    Option("exchange", _enum("card exchange from deal 2: none; 2_1: 大富豪/大貧民 2 cards, "
                             "富豪/貧民 1; 1_1; 1_0: 大富豪/大貧民 1 card only",
                             "2ディール目からのカード交換: none: なし。2_1: 大富豪と大貧民が2枚、"
                             "富豪と貧民が1枚。1_1: どちらも1枚。1_0: 大富豪と大貧民の1枚のみ",
                             EXCHANGES),
           "none", "D-q"),
    Option("exchange_top_gives", _enum("what the upper players give back: any (free choice) "
                                       "or their weakest cards (automatic)",
                                       "上位のプレイヤーが返すカード: any(自由に選ぶ)、"
                                       "weakest(最も弱いカードを自動で)",
                                       ("any", "weakest")), "any", "D-q"),
    Option("tribute_suit_order", _enum("suit order breaking ties among the strongest (and "
                                       "weakest) cards of the exchange, strongest first",
                                       "カード交換で最も強い(弱い)カードが並んだときに決めるマーク"
                                       "の順(強い順)",
                                       SUIT_ORDERS), "SHDC", "D-r"),
    Option("rank_points", _enum("points per title, 大富豪/富豪/平民/貧民/大貧民",
                                "順位ごとの点数(大富豪/富豪/平民/貧民/大貧民)",
                                RANK_POINTS), "2/1/0/-1/-2", "D-s"),
    Option("match_deals", Field("int", "deals in a match (D29): the match ends with this "
                                "deal; null: no set length, the match goes on while deals are "
                                "requested",
                                "1試合のディール数(D29): このディールで試合が終わる。null: 長さを"
                                "決めない(ディールを求める限り続く)", nullable=True, minimum=1),
           None, "D29"),
    violations_option("D26"),
)

DEFAULTS: dict[str, Any] = {o.name: o.default for o in OPTIONS}

PRESETS: dict[str, dict[str, Any]] = {
    "seed": {},
    "seed_full": {"stairs": "seed", "jack_back": "declared", "exchange": "2_1"},
    "uecda": {"jokers": 1, "first_leader": "diamond3_every_game", "dealer": "daifugo",
              "stairs": "standard", "set_revolution_min": 4, "stairs_revolution_min": 5,
              "eight_cut": True, "eight_cut_in_stairs": True,
              "clear_requires_last_player_pass": True, "strongest_play_clears": False,
              "pass_locks_until_clear": True, "leader_may_pass": True,
              "spade3_return": "single_joker",
              "spade3_clears": True, "lock": "suit", "exchange": "2_1",
              "exchange_top_gives": "any", "rank_points": "5/4/3/2/1"},
}

_PLAY_FIELDS = tuple(PlayRules.__dataclass_fields__)


def play_rules(options: Any) -> PlayRules:
    """The PlayRules of a state's options (a Struct or a mapping)."""
    if isinstance(options, Mapping):
        return _rules(tuple((k, _hashable(options.get(k))) for k in _PLAY_FIELDS))
    try:
        return _struct_rules(options)
    except TypeError:  # a struct holding a list (not hashable): read it each time
        return _struct_rules.__wrapped__(options)


@lru_cache(maxsize=256)
def _struct_rules(options: Any) -> PlayRules:
    """play_rules of a state's options Struct (frozen, so hashable): every play reads them,
    and a deal's options never change."""
    return _rules(tuple((k, _hashable(getattr(options, k, None))) for k in _PLAY_FIELDS))


def _hashable(v: Any) -> Any:
    return tuple(v) if isinstance(v, list) else v


@lru_cache(maxsize=256)
def _rules(items: tuple[Any, ...]) -> PlayRules:
    return PlayRules(**dict(items))


def points_of(option: str) -> tuple[int, int, int, int, int]:
    return tuple(int(x) for x in option.split("/"))  # type: ignore[return-value]  # each RANK_POINTS choice has five
