"""Manillen's actions in words (Game.action_text): what a button offering each says, in both
languages, card names from engine.cards."""
from __future__ import annotations

from typing import Any

from engine.cards import SUIT_NAMES, SUIT_NAMES_JA, SUIT_SYMBOLS, card_label, cards_label
from engine.values import Action, Event

from .sides import holder_members
from .state import ManillenState as State

_PLAIN = {
    "blind_no_trump": ("No-trump, blind", "見ずにノートランプ"),  # A11
    "look_at_hand": ("Look at the hand", "手札を見る"),  # A11
    "pass_trump_choice": ("“En face”: let the partner name trumps",
                          "アン・ファス: 切札決めをパートナーに任せる"),  # A12
    "double": ("“Ik ga mee”: double", "Ik ga mee(ダブル)"),  # A14
    "redouble": ("“Ik ga tegen”: redouble", "Ik ga tegen(リダブル)"),  # A15
    "pass": ("Pass", "パス"),
}
_SAYS = {"take": ("Tell the partner: take the trick", "パートナーに合図: トリックを取れ"),
         "leave": ("Tell the partner: leave the trick", "パートナーに合図: トリックを見送れ")}


def action_text(s: State, a: Action) -> dict[str, Any]:
    t = a.type
    if t == "play":  # A21
        c = card_label(a.get("card"))
        return {"en": f"Play {c['en']}", "ja": f"{c['ja']} を出す"}
    if t == "choose_trump":  # A9
        trump = a.get("trump")
        if trump == "no_trump":
            return {"en": "No-trump", "ja": "ノートランプ"}
        sym = SUIT_SYMBOLS[trump]
        return {"en": f"Trumps: {sym} {SUIT_NAMES[trump]}",
                "ja": f"切札: {sym}{SUIT_NAMES_JA[trump]}"}
    if t == "speak":  # A37
        en, ja = _SAYS[a.get("says")]
        return {"en": en, "ja": ja}
    if t == "report_peek":  # A8, the referee's
        return {"en": f"Report: {a.player} looked at the cards before trumps were named",
                "ja": f"報告: {a.player}が切札が決まる前にカードを見た"}
    en, ja = _PLAIN[t]
    return {"en": en, "ja": ja}


def _trump(trump: str) -> tuple[str, str]:
    if trump == "no_trump":
        return "no-trump", "ノートランプ"
    sym = SUIT_SYMBOLS[trump]
    return f"{sym} {SUIT_NAMES[trump]}", f"{sym}{SUIT_NAMES_JA[trump]}"


def _sides(sides: Any) -> tuple[str, str]:
    """Each side's points and tricks: "team1 (p0, p2) 38 points, 5 tricks; …"."""
    # a side by its players, as the table names it ("p0 & p2")
    en = "; ".join(f"{' & '.join(x['members'])} {x['points']} points, "
                   f"{x['tricks']} trick{'' if x['tricks'] == 1 else 's'}" for x in sides)
    ja = "。".join(f"{' & '.join(x['members'])} {x['points']}点、{x['tricks']}トリック"
                   for x in sides)
    return en, ja


def _holder(s: State, holder: str) -> str:
    """A score holder by its players, as the table names it ("p0 & p2")."""
    return " & ".join(holder_members(s.players, holder))


def event_text(s: State, e: Event) -> dict[str, str]:
    """An event in words a referee reads out (Game.event_text)."""
    d = e.data
    p = d.get("player")
    if e.type == "played":  # A21
        return {"en": f"{p} plays {cards_label(d['cards'], 'en')}",
                "ja": f"{p}が{cards_label(d['cards'], 'ja')} を出す"}
    if e.type == "trick_won":
        return {"en": f"{p} wins trick {d['trick']} ({d['points']} card points)",
                "ja": f"{p}が{d['trick']}トリック目を取る(カード点{d['points']}点)"}
    if e.type == "hand_looked_at":  # A11
        return {"en": f"{p} looks at the hand", "ja": f"{p}が手札を見る"}
    if e.type == "trump_named":  # A9, A11
        t = _trump(d["trump"])
        blind = (" blind", "見ずに") if d["blind"] else ("", "")
        return {"en": f"{p} names trumps{blind[0]}: {t[0]} (×{d['multiplier']})",
                "ja": f"{p}が{blind[1]}切札を決める: {t[1]}(×{d['multiplier']})"}
    if e.type == "trump_choice_passed":  # A12
        return {"en": f"{p} says “en face”: {d['to']} names trumps",
                "ja": f"{p}がアン・ファス: {d['to']}が切札を決める"}
    if e.type == "thrown_in":  # A8
        return {"en": f"The deal is thrown in ({p} saw cards too soon); {d['next_dealer']} deals",
                "ja": f"配り直し({p}が早く札を見た)。次の親は{d['next_dealer']}"}
    if e.type == "spoke":  # A37
        says = {"take": ("take the trick", "トリックを取れ"),
                "leave": ("leave the trick", "トリックを見送れ")}[d["says"]]
        return {"en": f"{p} tells {d['to']}: {says[0]}", "ja": f"{p}が{d['to']}に合図: {says[1]}"}
    if e.type == "passed":
        return {"en": f"{p} does not double", "ja": f"{p}はダブルしない"}
    if e.type == "doubled":  # A14, A15
        call = ("doubles", "ダブル") if d["call"] == "double" else ("redoubles", "リダブル")
        return {"en": f"{p} {call[0]} (×{d['multiplier']})", "ja": f"{p}が{call[1]}(×{d['multiplier']})"}
    if e.type == "doubling_ended":
        return {"en": f"Doubling over: play at ×{d['multiplier']}",
                "ja": f"ダブル終了: ×{d['multiplier']}でプレイ"}
    return _end_text(s, e)


def _end_text(s: State, e: Event) -> dict[str, str]:
    d = e.data
    if e.type == "deal_finished":
        en, ja = _sides(d["sides"])
        if d["multiplier"] is not None:
            en, ja = f"{en}; ×{d['multiplier']}", f"{ja}。×{d['multiplier']}"
        if d["tie"]:
            en, ja = f"{en}; a tie: ×{d['next_carry']} carries", f"{ja}。同点: ×{d['next_carry']}を持ち越し"
        return {"en": f"Deal over: {en}", "ja": f"一局終了: {ja}"}
    if e.type == "boom_reached":
        who = holder_members(s.players, d["winner"])
        return {"en": f"{' & '.join(who)} {'reaches' if len(who) == 1 else 'reach'} the boom",
                "ja": f"{_holder(s, d['winner'])}がボアムに到達"}
    if e.type == "match_finished":
        winners = " & ".join(d["winners"])
        return {"en": f"Match over: {winners} {'wins' if len(d['winners']) == 1 else 'win'}",
                "ja": f"対戦終了: {winners}の勝ち"}
    return {"en": e.type.replace("_", " "), "ja": e.type.replace("_", " ")}
