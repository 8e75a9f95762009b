"""Daifugo's lookups (Game.lookups): the questions a client may ask besides adjudication,
each with its request, response and pure handler."""
from __future__ import annotations

from typing import Any

from engine.fields import Field
from engine.values import Lookup

from .plays import PlayError, read_play
from .rules import UECDA
from .uecda import (
    COLS,
    ROWS,
    TableError,
    hand_to_table,
    play_to_table,
    table_to_cards,
    table_to_hand,
)


class _NotATable(ValueError):
    """A request that gives no table (or cards) to convert: the reason in English (str) and in
    Japanese (`ja`)."""

    def __init__(self, en: str, ja: str):
        super().__init__(en)
        self.ja = ja


def _table(rows: list[str]) -> list[list[int]]:
    """Rows of 15 digits; rows 0-4 carry cards, 5-7 (state) may be left out."""
    if not 5 <= len(rows) <= ROWS or any(len(r) != COLS or not r.isdigit() for r in rows):
        raise _NotATable(f"a table is 5 to {ROWS} rows of {COLS} digits",
                         f"表は{COLS}桁の数字が5〜{ROWS}行です")
    return [[int(ch) for ch in r] for r in rows] + [[0] * COLS] * (ROWS - len(rows))


def _rows(table: list[list[int]]) -> list[str]:
    return ["".join(str(x) for x in row) for row in table]


def _convert(req: dict[str, Any]) -> dict[str, Any]:
    kind = req.get("kind") or "play"
    if "table" in req:
        if "cards" in req:
            raise _NotATable("give a table or cards, not both",
                             "表かカードのどちらか一方を指定してください")
        table = _table(req["table"])
        if kind == "hand":
            cards, jokers = table_to_hand(table), list[str]()
        else:
            cards, jokers = table_to_cards(table)
    elif "cards" in req:
        cards = list(req["cards"])
        if kind == "hand":
            table, jokers = hand_to_table(cards), []
        elif not cards:
            table, jokers = play_to_table(None), []
        else:
            play = read_play(cards, req.get("jokers") or None, UECDA)
            table, jokers = play_to_table(play), list(play.jokers)
    else:
        raise _NotATable("give a table or cards", "表かカードを指定してください")
    return {"valid": True, "error": None, "kind": kind, "cards": cards, "jokers": jokers,
            "pass": not cards, "table": _rows(table)}


def uecda_table(req: dict[str, Any], lang: str = "en") -> dict[str, Any]:
    """U16: an 8x15 card table (rows of digits) to cards, or cards to a table. A table
    or cards that are no UECda hand or play answer valid=false with the reason, in the
    caller's language (`lang`)."""
    try:
        return _convert(req)
    except (_NotATable, TableError) as err:
        reason = err.ja if lang == "ja" else str(err)
    except PlayError as err:
        reason = f"{err.code}: {err.ja if lang == 'ja' else err.en}"
    return {"valid": False, "error": reason, "kind": req.get("kind") or "play", "cards": [],
            "jokers": [], "pass": False, "table": []}


UECDA_TABLE = Lookup(
    name="uecda-table",
    summary="UECda 8x15 card tables <-> cards (U16): a hand or a play (a pass is all zeros).",
    summary_ja="UECdaの8×15のカード表とカードの相互変換(U16): 手札または出す手"
               "(パスはすべて0)。",
    request={
        "kind": Field("enum", "hand: a hand table (joker at [4][1]); play: a submitted or "
                      "field table", choices=("hand", "play")),
        "table": Field("str_list", "the 8x15 table as 8 rows of 15 digits, e.g. "
                       "\"010000000000000\" (rows 5-7, the server's state, may be left out "
                       "and are ignored)", required=False),
        "cards": Field("cards", "cards to write as a table", required=False),
        "jokers": Field("str_list", "for a play of cards: what each joker stands for (D7)",
                        required=False)},
    response={
        "valid": Field("bool", "the table or cards are a UECda hand / play"),
        "error": Field("str", "why not (valid=false), in the language asked "
                       "(Accept-Language)", nullable=True),
        "kind": Field("enum", "hand or play", choices=("hand", "play")),
        "cards": Field("cards", "the cards (a play's joker in its place)"),
        "jokers": Field("str_list", "what each joker of a play stands for"),
        "pass": Field("bool", "the table is all zeros (a pass)"),
        "table": Field("str_list", "the 8x15 table as 8 rows of 15 digits")},
    handler=uecda_table,
    cacheable=False)  # ~10 µs: cheaper than any cache round trip
