"""Manteur's actions and penalty points in words (Game.action_text, the score deltas' `text`):
a declaration worded as its events word it (declarations.describe), in both languages, card
names from engine.cards."""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from engine.cards import cards_label
from engine.summary import counted
from engine.values import Action, Event

from .declarations import Declaration, describe
from .state import ManteurState


@lru_cache(maxsize=4096)
def declaration_words(kind: str, ranks: tuple[str, ...],
                      kickers: tuple[str, ...]) -> dict[str, str]:
    """A declaration in words, {en, ja} (a listing offers the same ~134 turn after turn)."""
    d = Declaration(kind, ranks, kickers)
    return {"en": describe(d), "ja": describe(d, "ja")}


def words_of(d: Declaration) -> dict[str, str]:
    return declaration_words(d.type, tuple(d.ranks), tuple(d.kickers))


def _last(s: ManteurState) -> dict[str, str] | None:
    return words_of(s.calls[-1].declaration.model()) if s.calls else None


def action_text(s: ManteurState, a: Action) -> dict[str, Any]:
    t = a.type
    if t == "declare":  # B8
        d = a.get("declaration")
        said = declaration_words(d["type"], tuple(d.get("ranks") or ()),
                                 tuple(d.get("kickers") or ()))
        return {"en": f"Declare {said['en']}", "ja": f"{said['ja']}を宣言する"}
    if t in ("accept", "challenge"):  # B13, B14
        last = _last(s) or {"en": "the declaration", "ja": "宣言"}
        if t == "accept":
            return {"en": f"Accept {last['en']} ({s.holder})",
                    "ja": f"{s.holder}の{last['ja']}を承認する"}
        return {"en": f"Challenge {last['en']} ({s.holder})",
                "ja": f"{s.holder}の{last['ja']}に挑戦する"}
    cards = a.get("cards") or []
    if t == "deal":  # B.6, B16
        if cards:
            return {"en": f"Dealt {cards_label(cards, 'en')}",
                    "ja": f"{cards_label(cards, 'ja')} が配られた"}
        return {"en": "Enter the five cards dealt", "ja": "配られた5枚を入力する"}
    # exchange (B15)
    if not cards:
        return {"en": "Exchange no cards", "ja": "交換しない"}
    en, ja = f"Exchange {cards_label(cards, 'en')}", f"{cards_label(cards, 'ja')} を交換する"
    drawn = a.get("drawn")
    if drawn:
        en, ja = f"{en}, receive {cards_label(drawn, 'en')}", f"{ja}、{cards_label(drawn, 'ja')} を受け取る"
    return {"en": en, "ja": ja}


def challenge_text(seat: str, holder: str, d: Declaration, truthful: bool) -> dict[str, str]:
    """B14: the penalty point of a challenge, in words."""
    said = words_of(d)
    if truthful:
        return {"en": f"{seat} challenged {holder}'s declaration ({said['en']}): true",
                "ja": f"{seat}が{holder}の{said['ja']}に挑戦し、宣言は本当だった"}
    return {"en": f"{seat} challenged {holder}'s declaration ({said['en']}): a lie",
            "ja": f"{seat}が{holder}の{said['ja']}に挑戦し、宣言は嘘だった"}


def event_text(e: Event) -> dict[str, str]:
    """An event in words a referee reads out (Game.event_text); `declared` and `challenged`
    carry their declaration's words of their own."""
    d = e.data
    p = d.get("player")
    if e.type == "accepted":  # B13
        return {"en": f"{p} accepts {d['from']}'s declaration", "ja": f"{p}が{d['from']}の宣言を受ける"}
    if e.type == "exchanged":
        n_en, n_ja = counted(d["count"], "card", "cards", "枚")
        return {"en": f"{p} exchanges {n_en}", "ja": f"{p}が{n_ja}交換する"}
    if e.type == "reshuffled":
        return {"en": f"The discards become the stock ({d['count']} cards)",
                "ja": f"捨て札を山札にする({d['count']}枚)"}
    if e.type == "eliminated":
        return {"en": f"{p} is eliminated", "ja": f"{p}は脱落"}
    if e.type == "reinstated":  # B22
        return {"en": f"{p} is back in ({d['penalties']} penalty points)",
                "ja": f"{p}が復帰(ペナルティ{d['penalties']}点)"}
    if e.type == "dealt":  # B.6
        return {"en": f"{p}'s five cards are entered", "ja": f"{p}の5枚を入力"}
    if e.type == "round_started":  # B16
        return {"en": f"Round {d['round']}: {d['starter']} starts",
                "ja": f"第{d['round']}ラウンド: {d['starter']}から"}
    if e.type == "match_finished":  # B17
        who = ", ".join(d["winners"])
        win = "wins" if len(d["winners"]) == 1 else "win"
        return {"en": f"Game over: {d['loser']} reached the limit; {who} {win}",
                "ja": f"ゲーム終了: {d['loser']}が上限に達した。{'、'.join(d['winners'])}の勝ち"}
    return {"en": e.type.replace("_", " "), "ja": e.type.replace("_", " ")}
