"""Guandan's actions and level changes in words (Game.action_text, the score deltas' `text`):
a play names its combination (§4, §5) and what each wild card stands for (W-11), in both
languages, card names from engine.cards."""
from __future__ import annotations

from typing import Any

from engine.cards import NAMES, card_label, cards_label
from engine.summary import counted, ordinal
from engine.values import Action, Event

from .combos import ComboError, Reading, choose_reading, reading_from_json
from .options import combo_rules
from .state import TEAMS, GuandanState

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


def _kind(reading: Any) -> tuple[str, str] | None:
    try:
        return kind_words(reading_from_json(reading))
    except (ValueError, KeyError):
        return None


def _team(s: GuandanState, team: str) -> str:
    """A team by its seats, as the table names it: "p0 & p2" (team1: seats 0 and 2)."""
    return " & ".join(s.players[TEAMS.index(team)::2]) if team in TEAMS else team


def event_text(s: GuandanState, e: Event) -> dict[str, str]:
    """An event in words a referee reads out (Game.event_text)."""
    d = e.data
    if e.type == "played":
        cards = tuple(d["cards"])
        kind = _kind(d.get("reading"))
        en, ja = f"{d['player']} plays {cards_label(cards, 'en')}", \
            f"{d['player']}が{cards_label(cards, 'ja')} を出す"
        return {"en": en + (f" · {kind[0]}" if kind else ""),
                "ja": ja + (f"・{kind[1]}" if kind else "")}
    if e.type == "went_out":
        place = ordinal(d["place"])
        return {"en": f"{d['player']} goes out, {place[0]}", "ja": f"{d['player']}が{place[1]}で上がり"}
    if e.type == "count_announced":
        n_en, n_ja = counted(d["count"], "card", "cards", "枚")
        return {"en": f"{d['player']} has {n_en} left", "ja": f"{d['player']}の残りは{n_ja}"}
    if e.type == "passed":
        return {"en": f"{d['player']} passes", "ja": f"{d['player']}はパス"}
    if e.type == "jiefeng":  # P-5
        return {"en": f"{d['from']} is out: the lead passes to the partner, {d['leader']} (P-5)",
                "ja": f"{d['from']}は上がり済み: リードはパートナーの{d['leader']}へ(P-5)"}
    if e.type == "trick_won":
        return {"en": f"{d['player']} wins the trick; {d['leader']} leads",
                "ja": f"{d['player']}がトリックを取る。{d['leader']}がリード"}
    return _tribute_text(e) or _deal_text(s, e)


def _tribute_text(e: Event) -> dict[str, str] | None:
    d = e.data
    if e.type in ("tribute_received", "tribute_paid", "returned"):
        c = card_label(d["card"])
        if e.type == "tribute_received":
            return {"en": f"{d['receiver']} receives {d['payer']}'s tribute {c['en']}",
                    "ja": f"{d['receiver']}が{d['payer']}の進貢{c['ja']}を受け取る"}
        if e.type == "tribute_paid":
            return {"en": f"{d['payer']} pays {c['en']} as tribute",
                    "ja": f"{d['payer']}が{c['ja']}を進貢する"}
        return {"en": f"{d['player']} gives {c['en']} back to {d['to']}",
                "ja": f"{d['player']}が{c['ja']}を{d['to']}に返す"}
    if e.type == "tribute_taken":
        return {"en": f"{d['player']} takes {d['payer']}'s tribute",
                "ja": f"{d['player']}が{d['payer']}の進貢を取る"}
    if e.type == "return_given":
        return {"en": f"{d['player']} sets a return card aside (shown together, T-9)",
                "ja": f"{d['player']}が還貢の札を出す(一斉に公開、T-9)"}
    if e.type == "first_leader_named":
        return {"en": f"{d['player']} leads the first trick", "ja": f"{d['player']}が最初にリード"}
    if e.type == "anti_tribute_claimed":
        return {"en": f"{d['player']} claims anti-tribute: no tribute; {d['leader']} leads",
                "ja": f"{d['player']}が抗貢を宣言: 進貢なし。{d['leader']}がリード"}
    if e.type == "anti_tribute_failed":
        return {"en": f"{d['player']}'s anti-tribute claim fails; the tribute goes on (T-6)",
                "ja": f"{d['player']}の抗貢は不成立。進貢を続ける(T-6)"}
    return None


def _deal_text(s: GuandanState, e: Event) -> dict[str, str]:
    d = e.data
    if e.type == "lead_type_barred":
        named = [KIND.get(t, ("bomb", "爆弾") if t == "bomb" else (t, t)) for t in d["types"]]
        en, ja = ", ".join(n[0] for n in named), "、".join(n[1] for n in named)
        return {"en": f"{d['player']} may not lead {en} next round ({d['offender']} played "
                      "out of turn, R-3)",
                "ja": f"{d['player']}は次のラウンドで{ja}をリードできない({d['offender']}の"
                      "手番外のプレイ、R-3)"}
    why_en, why_ja = (f": {d['reason']}", f": {d['reason']}") if d.get("reason") else ("", "")
    if e.type == "hand_voided":
        return {"en": f"{d['player']}'s hand is void and ranks last (R-6){why_en}",
                "ja": f"{d['player']}の手札は無効、最下位(R-6){why_ja}"}
    if e.type == "deal_forfeited":
        return {"en": f"{d['player']} signalled: {_team(s, d['team'])} forfeit the deal (R-7){why_en}",
                "ja": f"{d['player']}の合図: {_team(s, d['team'])}はこの一局を負け(R-7){why_ja}"}
    if e.type == "deal_finished":
        return {"en": f"Deal over: {_team(s, d['team'])} win, finish {d['finish']} "
                      f"({', '.join(d['order'])})",
                "ja": f"一局終了: {_team(s, d['team'])}の勝ち、{d['finish']}({'、'.join(d['order'])})"}
    if e.type == "match_finished":
        return {"en": f"Match over: {_team(s, d['team'])} win",
                "ja": f"試合終了: {_team(s, d['team'])}の勝ち"}
    if e.type == "a_level_failed":  # S-5
        return {"en": f"{_team(s, d['team'])} fail at A as declarer ({d['failures']} so far, S-5)",
                "ja": f"{_team(s, d['team'])}はAで失敗({d['failures']}回目、S-5)"}
    if e.type == "demoted":  # S-5, S-6
        en, ja = LEVEL_WHY.get(d["reason"], (d["reason"], d["reason"]))
        return {"en": f"{_team(s, d['team'])} drop to level {d['to']}: {en}",
                "ja": f"{_team(s, d['team'])}はレベル{d['to']}に下がる: {ja}"}
    return {"en": e.type.replace("_", " "), "ja": e.type.replace("_", " ")}
