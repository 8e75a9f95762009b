"""What Man's score sheet shows of a deal (SheetLayout.lines, engine/sheets.py): the man calls
that won the stake with their multipliers (5.5), who paid it, a chombo (8.1), a drawn game
(3.9), the match's end (7.2)."""
from __future__ import annotations

from typing import Any, Mapping

from engine.sheets import CheckedDeal, SheetLine, words

from .scoring import KIND_JA, KIND_ORDER


def _call(event: Mapping[str, Any]) -> tuple[str, str]:
    """(en, ja) of one call: "kaeshi tanki man ×4", "返し単騎まん ×4" (5.5: each kind doubles)."""
    kinds = [k for k in KIND_ORDER if k in event["kinds"]]
    en = " ".join(kinds + ["man"]) + f" ×{event['multiplier']}"
    ja = "".join(KIND_JA[k] for k in kinds) + f"まん ×{event['multiplier']}"
    return en, ja


def lines(deal: CheckedDeal) -> list[SheetLine]:
    cells: dict[str, Any] = {}
    notes_en: list[str] = []
    notes_ja: list[str] = []
    calls = [e for _, e in deal.events("man_called", "kaeshi_called")]
    won = deal.last("stake_won")
    if won is not None:
        # the chain that won it: every call from the first man on the card (5.4)
        chain_en, chain_ja = [], []
        for e in calls:
            en, ja = _call(e)
            who = deal.name(e["player"])
            chain_en.append(f"{who} {en}")
            chain_ja.append(f"{who} {ja}")
        first = calls[0] if calls else None
        on_en = f" on {deal.name(first['against'])}'s {first['card']} ({first['number']})" \
            if first else ""
        on_ja = f"({deal.name(first['against'])}の {first['card']}・{first['number']})" \
            if first else ""
        winner, loser, stake = won["winner"], won["loser"], won["stake"]
        notes_en.append(" → ".join(chain_en) + on_en +
                        f"; stake ×{stake}: {deal.name(winner)} wins {stake} from "
                        f"{deal.name(loser)}")
        notes_ja.append(" → ".join(chain_ja) + on_ja +
                        f"。賭け ×{stake}: {deal.name(winner)}が{deal.name(loser)}から{stake}点")
        last = next((e for e in reversed(calls) if e["player"] == winner), None)
        if last is not None:
            cells[winner] = words(*_call(last))
        cells[loser] = words(f"pays ×{stake}", f"×{stake} 支払い")
    for _, e in deal.events("penalized"):
        offender = e["player"]
        cells[offender] = words("chombo", "チョンボ")
        notes_en.append(f"chombo by {deal.name(offender)} ({e['rule']}): {e['text']['en']}")
        notes_ja.append(f"{deal.name(offender)}のチョンボ({e['rule']}): {e['text']['ja']}")
    if deal.last("deal_drawn") is not None:
        notes_en.append("drawn: the stock ran out (3.9)")
        notes_ja.append("流局: 山札切れ(3.9)")
    finished = deal.last("match_finished")
    if finished is not None:
        notes_en.append(f"match won by {deal.name(finished['winner'])}")
        notes_ja.append(f"試合終了: {deal.name(finished['winner'])}の勝ち")
    return [SheetLine(cells=cells, note=words("; ".join(notes_en), "。".join(notes_ja)))]
