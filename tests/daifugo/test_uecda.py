"""UECda 8x15 tables <-> cards (U16-U18), both directions."""
import pytest
from hypothesis import given, settings, strategies as st

from engine.games.daifugo.lookups import uecda_table
from engine.games.daifugo.plays import FieldState, full_deck, legal_plays, read_play
from engine.games.daifugo.rules import UECDA
from engine.games.daifugo.uecda import (
    TableError,
    card_cell,
    cell_card,
    empty_table,
    hand_to_table,
    play_to_table,
    read_state,
    table_to_cards,
    table_to_hand,
    table_to_play,
)
from tests.sizing import examples


def test_U16_rows_are_suits_S_H_D_C_and_columns_3_to_2():
    assert card_cell("S3") == (0, 1)
    assert card_cell("H10") == (1, 8)
    assert card_cell("DA") == (2, 12)
    assert card_cell("C2") == (3, 13)
    assert cell_card(0, 9) == "SJ"
    with pytest.raises(TableError):
        cell_card(0, 0)


def test_U16_hand_joker_at_row_4_column_1():
    t = hand_to_table(["S3", "C2", "BJ"])
    assert t[0][1] == 1 and t[3][13] == 1 and t[4][1] == 2
    assert sum(map(sum, t)) == 4
    assert table_to_hand(t) == ["S3", "C2", "BJ"]


def test_U16_a_pass_is_the_all_zero_table():
    assert play_to_table(None) == empty_table()
    assert table_to_play(empty_table()) is None


def test_U16_joker_in_a_set_sits_in_its_suit_cell():
    play = read_play(["H7", "BJ"], ["S7"], UECDA)
    t = play_to_table(play)
    assert t[1][5] == 1 and t[0][5] == 2
    assert table_to_cards(t) == (["BJ", "H7"], ["S7"])
    assert table_to_play(t).key(UECDA) == play.key(UECDA)


def test_U16_five_card_set_keeps_the_joker_in_row_4():
    play = read_play(["S9", "H9", "D9", "C9", "BJ"], None, UECDA)
    t = play_to_table(play)
    assert t[4][7] == 2 and all(t[r][7] == 1 for r in range(4))
    assert table_to_play(t).jokers == ("*9",)


def test_U16_stairs_joker_below_3_and_above_2():
    low = read_play(["BJ", "H3", "H4"], ["H-"], UECDA)
    t = play_to_table(low)
    assert t[1][0] == 2 and t[1][1] == 1 and t[1][2] == 1
    assert table_to_play(t).key(UECDA) == low.key(UECDA)
    high = read_play(["HA", "H2", "BJ"], ["H+"], UECDA)
    assert play_to_table(high)[1][14] == 2


def test_U16_lone_joker_in_any_cell():
    t = empty_table()
    t[2][6] = 2
    play = table_to_play(t)
    assert play.is_lone_joker and play.jokers == ()
    assert sum(map(sum, play_to_table(play))) == 2


@pytest.mark.parametrize("cell", [(0, 1), (3, 0), (0, 14), (1, 6), (3, 13)],
                         ids=["spade3", "below3", "above2", "eight", "club2"])
def test_U16_lone_joker_is_the_joker_whatever_its_cell(cell):
    """Checked on the UECda server (tools/uecda_oracle.py --odd): a lone 2 at ♠3's cell is
    the joker, not ♠3 (U10 needs the real ♠3), and at an 8's cell it cuts nothing (U11)."""
    t = empty_table()
    t[cell[0]][cell[1]] = 2
    assert table_to_cards(t) == (["BJ"], [])
    play = table_to_play(t)
    assert play.is_lone_joker and play.real_cards == ()
    on_a_two = FieldState(read_play(["S2"], None, UECDA))
    assert any(p.is_lone_joker for p in legal_plays(["BJ"], on_a_two, UECDA))     # U9


def test_U16_row_4_joker_only_in_a_five_card_set():
    """The server reads a joker in row 4 as a fifth suit, accepted only with all four real
    suits (a 5-card set); with fewer cards it refuses (checked, --odd), and here such a
    table is no UECda play at all."""
    t = empty_table()
    t[0][7] = 1
    t[4][7] = 2
    with pytest.raises(TableError):
        table_to_play(t)


def _rows(cells) -> list[str]:
    t = [["0"] * 15 for _ in range(5)]
    for r, c, v in cells:
        t[r][c] = str(v)
    return ["".join(row) for row in t]


FOUR_QUEENS = [(r, 10, 1) for r in range(4)]
FOUR_THREES = [(r, 1, 1) for r in range(4)]


@pytest.mark.parametrize("cells", [
    [(2, 10, 1), (4, 10, 2)],                      # ♦Q and a joker at [4][10]
    [(0, 10, 1), (1, 10, 1), (2, 10, 1), (4, 10, 2)],   # three queens: not a 5-card set
    [*FOUR_QUEENS, (4, 9, 2)],                     # four queens, the joker under the jacks
    [*FOUR_QUEENS, (4, 1, 2)],                     # ... or at a hand's joker cell
    [(0, 1, 1), (4, 1, 2)],                        # ♠3 and a joker at [4][1]
    [(0, 1, 1), (0, 2, 1), (4, 3, 2)],             # stairs with their joker in row 4
    [*FOUR_THREES, (4, 0, 2)],                     # [4][0] and [4][14] stand for no rank
    [(0, 13, 1), (1, 13, 1), (2, 13, 1), (3, 13, 1), (4, 14, 2)],
    [(4, 10, 2)],                                  # a lone joker sits in rows 0-3
])
def test_U16_uecda_table_lookup_refuses_a_row_4_joker_outside_a_five_card_set(cells):
    """U16: row 4 holds a play's joker only under the four real cards of its column; the
    lookup answers valid: false for any other row-4 joker, as validate refuses it."""
    out = uecda_table({"kind": "play", "table": _rows(cells)})
    assert out["valid"] is False and out["error"] and out["cards"] == [], out


@pytest.mark.parametrize("cells, cards, jokers", [
    ([*FOUR_QUEENS, (4, 10, 2)], ["SQ", "HQ", "DQ", "CQ", "BJ"], ["*Q"]),
    ([*FOUR_THREES, (4, 1, 2)], ["S3", "H3", "D3", "C3", "BJ"], ["*3"]),
    ([(2, 10, 1), (0, 10, 2)], ["BJ", "DQ"], ["SQ"]),
])
def test_U16_uecda_table_lookup_reads_a_five_card_set_joker_in_row_4(cells, cards, jokers):
    """U16's neighbours: a 5-card set with its joker at [4][c] under its four real cards
    ([4][1] for the 3s), and a pair's joker in its column's empty suit cell, are plays."""
    out = uecda_table({"kind": "play", "table": _rows(cells)})
    assert out["valid"], out["error"]
    assert sorted(out["cards"]) == sorted(cards) and out["jokers"] == jokers


def test_U16_uecda_table_lookup_hand_joker_at_row_4_column_1():
    """A hand keeps its joker at [4][1] (U16): valid as a hand."""
    out = uecda_table({"kind": "hand", "table": _rows([(2, 10, 1), (4, 1, 2)])})
    assert out["valid"] and sorted(out["cards"]) == ["BJ", "DQ"]


def test_U16_a_hand_keeps_its_joker_at_row_4_column_1():
    """U14: the server takes a 2 in any cell of an exchange table as the joker given; a
    hand table here keeps it at [4][1], and any other cell is no hand."""
    t = empty_table()
    t[2][12] = 2
    with pytest.raises(TableError):
        table_to_hand(t)


def test_U16_bad_tables_are_refused():
    with pytest.raises(TableError):
        table_to_cards([[0] * 15] * 7)
    t = empty_table()
    t[0][3] = 3
    with pytest.raises(TableError):
        table_to_cards(t)
    t = empty_table()
    t[0][3] = t[1][3] = 2
    with pytest.raises(TableError):
        table_to_cards(t)
    with pytest.raises(TableError):
        hand_to_table(["BJ", "RJ"])


def test_U18_state_fields():
    t = empty_table()
    t[5][1] = -2
    t[5][6] = 1
    t[6][0:5] = [11, 11, 11, 10, 10]
    s = read_state(t)
    assert s["cards_to_give"] == 0 and s["revolution"] and s["card_counts"][3] == 10


@settings(max_examples=examples(200))
@given(st.lists(st.sampled_from(full_deck(UECDA)), min_size=1, max_size=10, unique=True))
def test_U16_every_legal_lead_round_trips_through_a_table(hand):
    assert table_to_hand(hand_to_table(hand)) == sorted(
        hand, key=lambda c: (c == "BJ", card_cell(c) if c != "BJ" else (9, 9)))
    for play in legal_plays(hand, FieldState(), UECDA):
        back = table_to_play(play_to_table(play))
        assert back.key(UECDA) == play.key(UECDA)
