"""Guandan's actions and level changes in words (Game.action_text, the score deltas' `text`):
a play names its combination (§4, §5) and what each wild card stands for (W-11), in both
languages, card names from engine.cards."""
from __future__ import annotations

from typing import Any

from engine.cards import NAMES, card_label, cards_label
from engine.values import Action

from .combos import ComboError, Reading, choose_reading, reading_from_json
from .options import combo_rules
from .state import GuandanState

PASS = {"en": "Pass", "ja": "パス"}
# §4, §5 (docs/rules/guandan.md, .ja.md): each combination's name.
KIND = {"single": ("single", "1枚"), "pair": ("pair", "ペア"), "triple": ("triple", "トリプル"),
        "full_house": ("full house", "フルハウス"), "straight": ("straight", "ストレート"),
        "tube": ("tube", "チューブ"), "plate": ("plate", "プレート"),
        "straight_flush": ("straight flush", "ストレートフラッシュ"),
        "four_jokers": ("four jokers", "四王")}


def _rank(rank: str) -> dict[str, str]:
    """A rank as words name it: a joker by its name, any other rank as printed."""
    return card_label(rank) if rank in ("BJ", "RJ") else {"en": rank, "ja": rank}


def kind_words(r: Reading) -> tuple[str, str]:
    """A reading in words: "pair of 9s", "straight to J", "5-card bomb of 7s", "four jokers"."""
    if r.type == "four_jokers" or r.rank is None:
        return KIND["four_jokers"]
    rank = _rank(r.rank)
    if r.type == "bomb":
        return f"{r.length}-card bomb of {rank['en']}s", f"{rank['ja']}の{r.length}枚爆弾"
    en, ja = KIND[r.type]
    if r.type in ("straight", "tube", "plate", "straight_flush"):
        return f"{en} to {rank['en']}", f"{rank['ja']}までの{ja}"
    if r.type == "single":
        return en, ja
    return f"{en} of {rank['en']}s", f"{rank['ja']}の{ja}"


# A play's words, per (cards, reading, level): a 27-card lead lists some two thousand plays,
# and the same ones come back turn after turn, so each is worded once (a dict: cheaper to ask
# than an lru_cache of six arguments), the table emptied when full.
_WORDS: dict[tuple[Any, ...], dict[str, str]] = {}
MAX_WORDS = 65536


def _play_words(cards: tuple[str, ...], r: Reading, wild: str) -> dict[str, str]:
    kind = kind_words(r)
    en = f"Play {cards_label(cards, 'en')} · {kind[0]}"
    ja = f"{cards_label(cards, 'ja')} を出す・{kind[1]}"
    stand_ins = [w for w in r.wilds if w != wild]  # W-11: a wild read as another card
    if stand_ins:
        name_en, name_ja = NAMES["en"], NAMES["ja"]
        en += " (" + ", ".join([f"wild {name_en[wild]} as {name_en[w]}"
                                for w in stand_ins]) + ")"
        ja += "(" + "、".join([f"ワイルド{name_ja[wild]}を{name_ja[w]}として"
                               for w in stand_ins]) + ")"
    return {"en": en, "ja": ja}

def _reading(s: GuandanState, a: Action) -> Reading | None:
    """The reading of a play not noted when listed: declared, or the one the cards have."""
    try:
        if a.get("reading") is not None:
            return reading_from_json(a.get("reading"))
        return choose_reading(a.get("cards"), s.level, combo_rules(s.options))
    except (ComboError, ValueError):
        return None


def _play(s: GuandanState, a: Action) -> dict[str, str]:
    cards = tuple(a.fields["cards"])
    r = a.note if isinstance(a.note, Reading) else _reading(s, a)
    if r is None:  # cards no listed play has (the one reading depends on the table)
        return {"en": f"Play {cards_label(cards, 'en')}", "ja": f"{cards_label(cards, 'ja')} を出す"}
    key = (cards, r.type, r.rank, r.length, r.wilds, s.level)
    words = _WORDS.get(key)
    if words is None:
        if len(_WORDS) >= MAX_WORDS:
            _WORDS.clear()
        words = _WORDS[key] = _play_words(cards, r, "H" + s.level)
    return words


def action_text(s: GuandanState, a: Action) -> dict[str, Any]:
    if a.type == "play":
        return _play(s, a)
    if a.type == "pass":
        return dict(PASS)
    p = a.player
    if a.type == "tribute":  # T-4
        c = card_label(a.get("card"))
        return {"en": f"Pay {c['en']} as tribute", "ja": f"{c['ja']} を進貢する"}
    if a.type == "take":  # T-5
        payer = a.get("payer")
        t = next((t for t in s.tributes if t.payer == payer), None)
        c = card_label(t.card) if t is not None and t.card else {"en": "", "ja": ""}
        return {"en": f"Take {payer}'s tribute {c['en']}".rstrip(),
                "ja": f"{payer}の進貢{c['ja']}を取る"}
    if a.type == "return":  # T-7
        c = card_label(a.get("card"))
        t = next((t for t in s.tributes if t.receiver == p), None)
        if t is not None:
            return {"en": f"Give {c['en']} back to {t.payer}",
                    "ja": f"{c['ja']} を{t.payer}に返す"}
        return {"en": f"Give {c['en']} back", "ja": f"{c['ja']} を返す"}
    if a.type == "lead":  # T-10
        return {"en": f"{a.get('leader')} leads", "ja": f"{a.get('leader')}がリードする"}
    if a.type == "anti_tribute":  # T-6
        return {"en": "Claim anti-tribute (both big jokers)", "ja": "抗貢を宣言する(大王2枚)"}
    if a.type == "void_hand":  # R-6, the referee's
        return {"en": f"Void {p}'s hand (wrong tribute)", "ja": f"{p}の手札を無効にする(貢错牌)"}
    # forfeit, the referee's
    return {"en": f"{p}'s team forfeits the deal (signalling)",
            "ja": f"{p}のチームはこの一局を負けとする(合図)"}


def level_text(why: str, before: str, after: str) -> dict[str, str]:
    """A level change's words (§9): why, and from what level to what."""
    en, ja = LEVEL_WHY[why] if why in LEVEL_WHY else (why, why)
    return {"en": f"{en}: level {before} → {after}", "ja": f"{ja}: レベル{before}→{after}"}


def finish_why(finish: str, forfeit: bool) -> tuple[str, str]:
    if forfeit:
        return (f"Finish {finish}: the opponents forfeited the deal (R-7)",
                f"{finish}で終了: 相手チームがこの一局を負けとした(R-7)")
    return f"Finish {finish}", f"{finish}で終了"


LEVEL_WHY = {
    "a_failures": ("Too many failed deals at A (S-5)", "Aでの失敗が規定回数に達した(S-5)"),
    "ace_demotion": ("The opponents' first player out went out with Aces (S-6)",
                     "相手チームの1位がAだけで上がった(S-6)"),
}
BOUND = {"en": "A level stays within 2 … A (S-9)", "ja": "レベルは2〜Aの範囲に収まる(S-9)"}
