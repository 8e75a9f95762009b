"""What Daifugo's score sheet shows of a deal (SheetLayout.lines, engine/sheets.py): each seat's
title (大富豪 … 大貧民) and its points, a forbidden finish (D24) or a fall from the top
(都落ち), the finishing order and the revolutions of the deal."""
from __future__ import annotations

from typing import Any

from engine.sheets import CheckedDeal, SheetLine, words


def lines(deal: CheckedDeal) -> list[SheetLine]:
    titles: dict[str, dict[str, Any]] = {}
    for d in deal.deltas():
        if d["kind"] == "rank" and isinstance(d.get("text"), dict):
            titles[d["target"]] = d["text"]
    cells = {p: dict(t) for p, t in titles.items()}
    en: list[str] = []
    ja: list[str] = []
    for _, e in deal.events("penalized"):
        seat = e["player"]
        cells[seat] = words(f"{cells.get(seat, {}).get('en', '')} (foul finish)".strip(),
                            f"{cells.get(seat, {}).get('ja', '')}(反則上がり)")
        en.append(f"{deal.name(seat)}: {e['text']['en']}")
        ja.append(f"{deal.name(seat)}: {e['text']['ja']}")
    for _, e in deal.events("miyako_ochi"):
        seat = e["player"]
        cells[seat] = words(f"{cells.get(seat, {}).get('en', '')} (fell)".strip(),
                            f"{cells.get(seat, {}).get('ja', '')}(都落ち)")
        en.append(f"{deal.name(seat)} fell from the top (miyako-ochi)")
        ja.append(f"{deal.name(seat)}が都落ち")
    done = deal.last("deal_finished")
    if done is not None:
        en.insert(0, "order " + ", ".join(deal.name(p) for p in done["order"]))
        ja.insert(0, "順位 " + "、".join(deal.name(p) for p in done["order"]))
    revolutions = sum(1 for _, e in deal.events("played") if "revolution" in e.get("effects", ()))
    if revolutions:
        en.append(f"revolutions {revolutions}")
        ja.append(f"革命 {revolutions}回")
    return [SheetLine(cells=cells, note=words("; ".join(en), "。".join(ja)))]
