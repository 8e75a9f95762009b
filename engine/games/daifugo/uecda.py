"""UECda 8x15 card tables <-> cards (docs/rules/daifugo.md U16-U18).

Layout (protocol 20070): rows 0-3 are the suits S, H, D, C; columns 1-13 the ranks
3 4 5 6 7 8 9 10 J Q K A 2; columns 0 and 14 are the joker's places just below 3 and just
above 2 in stairs. A cell holds 1 for a real card, 2 for the joker standing in that place.
A hand holding the joker shows 2 at [4][1]; a 5-card set keeps its joker in row 4 (our
stand-in `*<rank>`); a lone joker may sit in any cell of rows 0-3 (we write [0][14]); a pass
is the all-zero table. Rows 5-7 carry state (Table 2, U18) and are read by `read_state`.

The UECda deck has one joker; it is written `BJ` here unless `joker=` says otherwise.
"""
from __future__ import annotations

from typing import Any, Optional, Sequence

from engine.cards import JOKERS, SUITS, parse_cards
from engine.errors import shown

from .plays import ORDER, STRENGTH, Play, read_play
from .rules import UECDA, PlayRules

ROWS, COLS = 8, 15
Table = list[list[int]]
LONE_JOKER_CELL = (0, 14)


class TableError(ValueError):
    """A table that is not a UECda card table (shape, values, more than one joker ...): the
    reason in English (str) and in Japanese (`ja`), for the lookup's caller."""

    def __init__(self, en: str, ja: str):
        super().__init__(en)
        self.ja = ja


def empty_table() -> Table:
    return [[0] * COLS for _ in range(ROWS)]


def _check(table: Sequence[Sequence[int]]) -> None:
    if len(table) != ROWS or any(len(row) != COLS for row in table):
        raise TableError("a UECda table is 8 rows of 15 integers",
                         "UECdaの表は15個の整数が8行です")
    for r in range(5):
        for c in range(COLS):
            if table[r][c] not in (0, 1, 2):
                raise TableError(f"cell [{r}][{c}] holds {shown(table[r][c])}: cards are 0, 1 or 2",
                                 f"マス[{r}][{c}]の値は{shown(table[r][c])}です。カードは0、1、2のいずれかです")


def card_cell(card: str) -> tuple[int, int]:
    """(row, column) of a real card."""
    return SUITS.index(card[0]), STRENGTH[card[1:]]


def cell_card(row: int, col: int) -> str:
    """The real card of a cell of rows 0-3, columns 1-13."""
    if not (0 <= row <= 3 and 1 <= col <= 13):
        raise TableError(f"cell [{row}][{col}] holds no card", f"マス[{row}][{col}]にカードはありません")
    return SUITS[row] + ORDER[col - 1]


# ---- hands ---------------------------------------------------------------------------------

def hand_to_table(cards: Sequence[str]) -> Table:
    """A hand as a table: 1 per real card, 2 at [4][1] for the joker."""
    table = empty_table()
    cards = parse_cards(cards)
    if sum(1 for c in cards if c in JOKERS) > 1:
        raise TableError("a UECda hand holds at most one joker",
                         "UECdaの手札にジョーカーは1枚までです")
    for c in cards:
        if c in JOKERS:
            table[4][1] = 2
        else:
            r, col = card_cell(c)
            table[r][col] = 1
    return table


def table_to_hand(table: Sequence[Sequence[int]], joker: str = JOKERS[0]) -> list[str]:
    """The cards of a hand table (rows 0-4; state rows ignored), suits S H D C, 3 to 2."""
    _check(table)
    out = [cell_card(r, c) for r in range(4) for c in range(1, 14) if table[r][c] == 1]
    if table[4][1] == 2:
        out.append(joker)
    stray = [(r, c) for r in range(5) for c in range(COLS)
             if table[r][c] and not (r < 4 and 1 <= c <= 13 and table[r][c] == 1)
             and (r, c) != (4, 1)]
    if stray:
        raise TableError(f"cells {stray} hold no card of a hand",
                         f"マス{stray}は手札のカードを表しません")
    return out


# ---- plays ---------------------------------------------------------------------------------

def play_to_table(play: Optional[Play]) -> Table:
    """A play (None: a pass) as the table a client submits / the server shows as the field."""
    table = empty_table()
    if play is None:
        return table
    if play.form == "stairs" and play.stairs_form != "standard":
        raise TableError("only standard-form stairs exist in UECda tables",
                         "UECdaの表にあるのは標準形の階段だけです")
    if play.is_lone_joker:
        table[LONE_JOKER_CELL[0]][LONE_JOKER_CELL[1]] = 2
        return table
    if play.jokers_only:
        raise TableError("UECda has one joker", "UECdaのジョーカーは1枚です")
    for c in play.real_cards:
        r, col = card_cell(c)
        table[r][col] = 1
    for stand in play.jokers:
        if play.form == "stairs":
            row = SUITS.index(play.suit)
            col = {"-": 0, "+": 14}[stand[1:]] if stand[1:] in ("-", "+") \
                else STRENGTH[stand[1:]]
        elif stand[0] == "*":
            row, col = 4, STRENGTH[stand[1:]]
        else:
            row, col = card_cell(stand)
        table[row][col] = 2
    return table


def table_to_cards(table: Sequence[Sequence[int]], joker: str = JOKERS[0]
                   ) -> tuple[list[str], list[str]]:
    """(cards, jokers) of a submitted/field table, ready for a `play` action. Cards run in
    table order (row by row, column by column) with the joker in its cell's place; `jokers`
    gives the cell it stands in. A lone joker gives ([joker], []); a pass ([], [])."""
    _check(table)
    cells = [(r, c, table[r][c]) for r in range(5) for c in range(COLS) if table[r][c]]
    jokers_at = [(r, c) for r, c, v in cells if v == 2]
    if len(jokers_at) > 1:
        raise TableError("a UECda play holds at most one joker",
                         "UECdaの出す手にジョーカーは1枚までです")
    if len(cells) == 1 and jokers_at:
        if jokers_at[0][0] == 4:
            raise TableError("a lone joker sits in rows 0-3",
                             "ジョーカー1枚だけの手は0〜3行目に置きます")
        return [joker], []
    if jokers_at and jokers_at[0][0] == 4:
        # U16: row 4 holds a play's joker only as the fifth card of a set, under the four
        # real cards of its column (the server refuses it anywhere else, U20); [4][1] is
        # also a hand's joker cell, which says nothing of a play
        c = jokers_at[0][1]
        if not 1 <= c <= 13 or sorted((r, cc) for r, cc, v in cells if v == 1) != \
                [(r, c) for r in range(4)]:
            raise TableError(f"a joker at [4][{c}] stands only as the fifth card of a set, "
                             f"with the four real cards of column {c}",
                             f"[4][{c}]のジョーカーは、{c}列の本物の4枚と組む5枚目としてだけ"
                             "置けます")
    cards, stand = [], []
    # stairs are read along their row, sets down their column
    by_col = sorted(cells, key=lambda x: (x[1], x[0])) if len({c for _, c, _ in cells}) == 1 \
        else cells
    for r, c, v in by_col:
        if v == 1:
            cards.append(cell_card(r, c))
        elif r == 4:
            if not 1 <= c <= 13:
                raise TableError(f"cell [4][{c}] holds no rank", f"マス[4][{c}]は数字を表しません")
            cards.append(joker)
            stand.append("*" + ORDER[c - 1])
        else:
            cards.append(joker)
            stand.append(SUITS[r] + ("-" if c == 0 else "+" if c == 14 else ORDER[c - 1]))
    return cards, stand


def table_to_play(table: Sequence[Sequence[int]], rules: PlayRules = UECDA,
                  joker: str = JOKERS[0]) -> Optional[Play]:
    """The play a table shows (None for a pass); raises PlayError when it is no play."""
    cards, stand = table_to_cards(table, joker)
    if not cards:
        return None
    return read_play(cards, stand or None, rules)


# ---- state (Table 2) -----------------------------------------------------------------------

def read_state(table: Sequence[Sequence[int]]) -> dict[str, Any]:
    """The state fields of a server Table 2 (U18). `cards_to_give` <= 0 means none."""
    _check(table)
    s, p = table[5], table[6]
    return {"exchange": bool(s[0]), "cards_to_give": max(0, s[1]), "your_turn": bool(s[2]),
            "turn_player": s[3], "field_cleared": bool(s[4]), "jack_back": bool(s[5]),
            "revolution": bool(s[6]), "lock": bool(s[7]), "card_counts": list(p[0:5]),
            "ranks": list(p[5:10]), "seats": list(p[10:15])}
