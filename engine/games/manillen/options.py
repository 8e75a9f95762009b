"""Options (one per row M-a … M-m of the rules page, plus the original rules' house rules) and
presets.

Defaults are the original rules' game (docs/rules/manillen.md, "Decisions"). Where the rules
page's table recommends otherwise the original rules win: unlimited doubling (M-d recommends 2)
and a redouble by either member of the dealer's side ("ディーラーのチームのプレイヤー").
The first dealer is cut for (A5, the original rules: 最初の ディーラーカット で最も強いカードを示した
プレイヤーがなります) unless the request or the match names one.
"""
from __future__ import annotations

from typing import Any

from engine.fields import Field, Option
from engine.referee import violations_option

DEAL_PATTERNS = {"3-2-3": (3, 2, 3), "3-3-2": (3, 3, 2), "2-2-2-2": (2, 2, 2, 2), "4-4": (4, 4)}

OPTIONS: tuple[Option, ...] = (
    Option("first_dealer", Field(
        "enum", "Who deals when neither the request nor the match names a dealer: the first "
        "player, or the strongest card of a cut (the original rules; each player cuts, ties cut "
        "again), drawn from the deal's seed, or as shown at the table (table.cut) in a physical deal.",
        "リクエストにも対戦情報にもディーラーの指定がないときに配る人：最初のプレイヤー、"
        "またはカットで最も強いカードを引いた人（元ルール。全員がカットし、同点ならやり直す）。"
        "カットはシードから引く。実際の卓の配り（物理ディール）では卓で示したとおり（table.cut）。",
        choices=("first_player", "cut")), "cut", rule="A5"),
    Option("french_form", Field(
        "enum", "The French form (4 players): the last card dealt is turned up and fixes "
        "trumps, play and the deal go counter-clockwise; 'muette' (silent) or 'parlee' "
        "(partners may speak the signals of the speak action).",
        "フランス式（4人）：最後に配るカードを表にして切札とし、プレイとディールは反時計回り。"
        "muette（マニーユ・ミュエット、発言なし）または parlee（マニーユ・パルレ、パートナーに"
        " speak の合図を伝えてよい）。",
        choices=("none", "muette", "parlee")), "none", rule="A37"),
    Option("deal_pattern", Field(
        "enum", "Packets dealt to each player in turn, clockwise from the dealer's left "
        "(4 players only; 3 players are dealt 3-4-3 and 2 players the original rules' layout).",
        "ディーラーの左隣から時計回りに、各プレイヤーへ順に配る枚数の組（4人のときのみ。"
        "3人は3-4-3、2人は元ルールの配り方）。",
        choices=tuple(DEAL_PATTERNS)), "3-2-3", rule="M-a"),
    Option("allow_pass_trump_to_partner", Field(
        "bool", "The dealer may say 'en face' and let their partner name trumps (4 players).",
        "ディーラーは「アン・ファス」と言って切札決めをパートナーに任せてよい（4人）。"),
        False, rule="M-b"),
    Option("blind_no_trump", Field(
        "bool", "The dealer may call no-trump before looking at their hand.",
        "ディーラーは手札を見る前にノートランプを宣言してよい（見ずノートランプ）。"),
        False, rule="M-c"),
    Option("blind_no_trump_multiplier", Field(
        "int", "Multiplier of a blind no-trump (instead of the no-trump ×2).",
        "見ずノートランプの倍率（通常のノートランプの×2の代わり）。", minimum=1),
        4, rule="M-c"),
    Option("max_doublings", Field(
        "int", "Most doubling calls (double, redouble, double again …) in one deal; "
        "null: until one side stops (the original rules).",
        "1ディールでのダブル系の宣言（ダブル、リダブル、さらにダブル…）の上限回数。"
        "null：どちらかのチームがやめるまで（元ルール）。", nullable=True, minimum=0),
        None, rule="M-d"),
    Option("redouble_by", Field(
        "enum", "Who of the dealer's side may redouble.",
        "ディーラーのチームで誰がリダブルできるか。",
        choices=("dealer_side", "dealer_partner")), "dealer_side", rule="M-d"),
    Option("multiplier_cap", Field(
        "int", "The product of all multipliers of a deal never exceeds this (the original "
        "rules' 'serious players' rule: 4); null: no cap.",
        "1ディールの倍率をすべて掛けた値の上限（元ルールの「真剣なプレイヤー」向けルールでは4）。"
        "null：上限なし。", nullable=True, minimum=1), None,
        rule="M-d"),
    Option("double_by", Field(
        "enum", "Who of the non-dealing side may double.",
        "ディーラーのいないチームで誰がダブルできるか。",
        choices=("either_opponent", "eldest_only")), "either_opponent", rule="M-e"),
    Option("must_trump_when_partner_winning", Field(
        "bool", "A player void in the led suit must trump even when their partner is winning.",
        "リードされたスートを持たないプレイヤーは、パートナーが勝っていても切札を出さなければ"
        "ならない。"),
        False, rule="M-f"),
    Option("must_overtake_in_suit", Field(
        "enum", "When a player following suit must play a higher card of that suit.",
        "リードされたスートを出すプレイヤーが、そのスートのより強いカードを出さなければならない"
        "場合。",
        choices=("opponent_winning", "trump_lead_only", "never")), "opponent_winning",
        rule="M-g"),
    Option("undertrump", Field(
        "enum", "Playing a trump lower than one already in a trick led in another suit.",
        "他のスートでリードされたトリックに、すでに出ている切札より弱い切札を出すこと"
        "（アンダートランプ）。",
        choices=("forbidden_unless_forced", "allowed", "required_if_holding_trump")),
        "forbidden_unless_forced", rule="M-h"),
    Option("overtrump_on_trump_lead_even_if_partner_wins", Field(
        "bool", "On a trump lead, a player must beat the trick even when their partner is "
        "winning it.",
        "切札がリードされたときは、パートナーが勝っていてもトリックを上回らなければならない。"),
        False, rule="M-i"),
    Option("tie_carry_multiplier", Field(
        "int", "After a tie (an even split, or no side over the threshold) the next deal "
        "counts this many times.",
        "引き分け（同点、またはどのチームも基準点を超えない）の後、次のディールの得点をこの倍率で"
        "数える。",
        minimum=1), 2, rule="M-j"),
    Option("tie_carry_cumulative", Field(
        "bool", "Successive ties multiply the carry (×2, ×4 …) instead of resetting it.",
        "引き分けが続くと持ち越しの倍率を掛け合わせる（×2、×4…）。リセットしない。"),
        True, rule="M-j"),
    Option("trick_bonus_points", Field(
        "int", "Points per trick on top of the card points (French base: 1).",
        "カードの点数に加えて1トリックごとに得る点数（フランス式の基本：1）。", minimum=0),
        0, rule="M-k"),
    Option("score_threshold", Field(
        "int", "A side scores what it takes over this; null: half the deal's total (card "
        "points and trick bonuses; 30 on the Belgian base, French base 34 with 4 players, "
        "35 with 3, 38 with 2).",
        "チームはこの点数を超えて取った分を得点する。null：そのディールの総点（カードの点数と"
        "トリックのボーナス）の半分（ベルギー式の基本で30、フランス式の基本で4人34、3人35、"
        "2人38）。", nullable=True, minimum=0), None, rule="M-k"),
    Option("target_points", Field(
        "int", "A boom ends after the deal in which a side reaches this.",
        "いずれかのチームがこの点数に達したディールでボアムが終わる。", minimum=1),
        101, rule="M-l"),
    Option("booms_to_win", Field("int", "Booms that win the match.",
                                 "対戦に勝つのに必要なボアムの数。", minimum=1),
           1, rule="M-l"),
    Option("partner_peek_penalty", Field(
        "enum", "What a reported peek by the dealer's partner before trumps does: the hand is "
        "thrown in and the deal passes on, or is redealt by the same dealer.",
        "切札が決まる前にディーラーのパートナーがカードを見たと報告されたときの扱い：手を流して"
        "次のディーラーに移る、または同じディーラーが配り直す。",
        choices=("redeal_next_dealer", "redeal_same_dealer")), "redeal_next_dealer",
        rule="M-m"),
    violations_option("A38"),
)

PRESETS: dict[str, dict[str, Any]] = {
    "standard": {},
    "tournament": {"booms_to_win": 2},
    "capped": {"max_doublings": 2},
    "serious": {"multiplier_cap": 4},
    "blind": {"blind_no_trump": True},
    "french_base": {"trick_bonus_points": 1},
    "cut": {"first_dealer": "cut"},
    "muette": {"french_form": "muette", "deal_pattern": "4-4", "trick_bonus_points": 1,
               "target_points": 34},
    "parlee": {"french_form": "parlee", "deal_pattern": "4-4", "trick_bonus_points": 1,
               "target_points": 34},
}

BY_NAME = {o.name: o for o in OPTIONS}
