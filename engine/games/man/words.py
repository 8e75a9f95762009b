"""Man's actions in words (Game.action_text): what a button offering each says, in both
languages, card names from engine.cards and the calls as spoken at the table (6.1)."""
from __future__ import annotations

from typing import Any

from engine.cards import SUIT_NAMES, SUIT_NAMES_JA, card_label, cards_label
from engine.summary import counted
from engine.values import Action, Event

from .actions import CALLS
from .scoring import KIND_JA, KIND_ORDER
from .state import ManState

# What each action does, in words, before its cards and its call.
_PLAIN = {"pass": ("Pass", "パス"), "end_turn": ("End the turn", "手番を終える"),
          "decline": ("Let the man stand", "返さずに見送る"),
          "flip": ("Turn the next card", "次のカードをめくる")}


def _draw(s: ManState, a: Action) -> tuple[str, str]:
    cards = a.get("cards")
    if cards:  # 3.10: the cards drawn from a stock of unknown order, named
        return f"Draw {cards_label(cards, 'en')}", f"{cards_label(cards, 'ja')} を引く"
    n = s.pending_draw if s.pending_draw > 1 else 1  # 3.8: the whole pending draw at once
    return ("Draw a card", "1枚引く") if n == 1 else (f"Draw {n} cards", f"{n}枚引く")


def _with_call(en: str, ja: str, call: str | None) -> dict[str, str]:
    """6.1: the end-of-turn call said with the action."""
    if call and CALLS[call][1] != en:  # a pass called "pass" says it once
        said_ja, said_en = CALLS[call]
        en, ja = f"{en} · “{said_en}”", f"{ja}・「{said_ja}」"
    return {"en": en, "ja": ja}


def action_text(s: ManState, a: Action) -> dict[str, Any]:
    t = a.type
    if t == "play":
        cards = a.get("cards")
        en, ja = f"Play {cards_label(cards, 'en')}", f"{cards_label(cards, 'ja')} を出す"
        suit = a.get("suit")
        if suit:  # 3.1: an 8 names a suit
            en, ja = f"{en} · name {SUIT_NAMES[suit]}", f"{ja}・{SUIT_NAMES_JA[suit]}を指定"
        return _with_call(en, ja, a.get("call"))
    if t == "draw":
        return _with_call(*_draw(s, a), a.get("call"))
    if t == "man":  # 5.1: a man on an open man is a kaeshi
        if s.chain is not None:
            return {"en": "Kaeshi man!", "ja": "返しまん"}
        return {"en": "Man!", "ja": "まん"}
    if t == "call":  # 2.2
        said_ja, said_en = CALLS[a.get("call")]
        return {"en": f"Call “{said_en}”", "ja": f"「{said_ja}」とコールする"}
    if t == "chombo":  # 8.1, the referee's
        return {"en": f"Chombo by {a.get('offender')}", "ja": f"{a.get('offender')}のチョンボ"}
    en, ja = _PLAIN[t]
    return _with_call(en, ja, a.get("call"))


def _man(d: Any) -> dict[str, str]:
    """5.1-5.5: "p2 calls kaeshi man ×4 on ♠7 (p1), number 14"."""
    kinds = [k for k in KIND_ORDER if k in d["kinds"]]
    name_ja = "".join(KIND_JA[k] for k in kinds) + "まん"
    c = card_label(d["card"])
    return {"en": f"{d['player']} calls {d['name']} on {c['en']} ({d['against']}), "
                  f"number {d['number']}, shows {cards_label(d['hand'], 'en')}",
            "ja": f"{d['player']}が{d['against']}の{c['ja']}に{name_ja}×{d['multiplier']}"
                  f"(数字{d['number']})、手札{cards_label(d['hand'], 'ja')}"}


def _played(d: Any) -> dict[str, str]:
    en = f"{d['player']} plays {cards_label(d['cards'], 'en')}"
    ja = f"{d['player']}が{cards_label(d['cards'], 'ja')} を出す"
    if d.get("suit"):  # 3.1
        en, ja = f"{en} · names {SUIT_NAMES[d['suit']]}", f"{ja}・{SUIT_NAMES_JA[d['suit']]}を指定"
    if d.get("opening"):  # 2.5
        en, ja = f"{en} (opening race)", f"{ja}(開始時の早い者勝ち)"
    if d["skipped"]:  # 3.5
        en, ja = f"{en} · {d['skipped']} skipped", f"{ja}・{d['skipped']}人飛ばし"
    if d["pending_draw"]:  # 3.8
        en, ja = f"{en} · next draws {d['pending_draw']}", f"{ja}・次の人は{d['pending_draw']}枚引く"
    return {"en": en, "ja": ja}


_RESULTS = {"man": ("a man", "まん"), "chombo": ("a chombo", "チョンボ"), "draw": ("a draw", "流局")}


def event_text(e: Event) -> dict[str, str]:
    """An event in words a referee reads out (Game.event_text)."""
    d = e.data
    if e.type == "played":
        return _played(d)
    if e.type in ("man_called", "kaeshi_called"):
        return _man(d)
    if e.type == "start_cards_turned":  # 2.3, 2.6
        return {"en": f"{d['player']} turns over {cards_label(d['cards'], 'en')}",
                "ja": f"{d['player']}が{cards_label(d['cards'], 'ja')} をめくる"}
    if e.type == "reshuffled":  # 3.9
        return {"en": f"The discards become the stock ({d['count']} cards)",
                "ja": f"捨て札を山札にする({d['count']}枚)"}
    if e.type == "deal_drawn":
        return {"en": "The game is drawn: the stock ran out (3.9)",
                "ja": "山札が尽きて流局(3.9)"}
    if e.type == "drew":
        n_en, n_ja = counted(d["count"], "card", "cards", "枚")
        en, ja = f"{d['player']} draws {n_en}", f"{d['player']}が{n_ja}引く"
        if d["penalty"]:  # 3.8
            en, ja = f"{en} (the pending draw)", f"{ja}(ペナルティの引き)"
        return {"en": en, "ja": ja}
    if e.type == "passed":
        return {"en": f"{d['player']} passes", "ja": f"{d['player']}はパス"}
    if e.type == "declined":  # 5.4
        return {"en": f"{d['player']} lets the man stand", "ja": f"{d['player']}は返さない"}
    return _end_text(e)


def _end_text(e: Event) -> dict[str, str]:
    d = e.data
    if e.type == "stake_won":  # 4, 7
        return {"en": f"{d['winner']} wins {d['stake']} from {d['loser']}",
                "ja": f"{d['winner']}が{d['loser']}から{d['stake']}点を得る"}
    if e.type == "deal_finished":  # 7.1
        how = _RESULTS.get(d["result"], (d["result"], d["result"]))
        return {"en": f"Game over by {how[0]}; {d['next_dealer']} deals next",
                "ja": f"{how[1]}で終了。次の親は{d['next_dealer']}"}
    if e.type == "match_finished":  # 7.2
        games = "game" if d["games_played"] == 1 else "games"
        return {"en": f"Match over after {d['games_played']} {games}: {d['winner']} wins",
                "ja": f"{d['games_played']}局で対戦終了: {d['winner']}の勝ち"}
    return {"en": e.type.replace("_", " "), "ja": e.type.replace("_", " ")}
