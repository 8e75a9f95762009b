"""Manillen's actions in words (Game.action_text): what a button offering each says, in both
languages, card names from engine.cards."""
from __future__ import annotations

from typing import Any

from engine.cards import SUIT_NAMES, SUIT_NAMES_JA, SUIT_SYMBOLS, card_label
from engine.values import Action

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
