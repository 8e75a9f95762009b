"""DaifugoGame: the Game interface over the modules of this package (rules:
docs/rules/daifugo.md)."""
from __future__ import annotations

from engine.errors import InputError
from engine.fields import Field
from engine.game import Action, DealSetup, Game, Lookup, Transition

from . import phases, views
from .actions import ACTIONS
from .messages import MESSAGES
from .options import OPTIONS, PRESETS
from .plays import PlayError, read_play
from .rules import UECDA
from .state import DaifugoState, invariants
from .uecda import (COLS, ROWS, TableError, hand_to_table, play_to_table, table_to_cards,
                    table_to_hand)


def _table(flat: list[int]) -> list[list[int]]:
    if len(flat) != ROWS * COLS:
        raise InputError(f"a table is {ROWS}x{COLS} = {ROWS * COLS} integers, row by row",
                         "body.table", "request_invalid")
    return [list(flat[r * COLS:(r + 1) * COLS]) for r in range(ROWS)]


def uecda_table(req: dict) -> dict:
    """U16: an 8x15 card table (flattened row by row) to cards, or cards to a table."""
    kind = req.get("kind") or "play"
    try:
        if "table" in req:
            if "cards" in req:
                raise InputError("give a table or cards, not both", "body", "request_invalid")
            table = _table(req["table"])
            if kind == "hand":
                cards, jokers = table_to_hand(table), []
            else:
                cards, jokers = table_to_cards(table)
            return {"kind": kind, "cards": cards, "jokers": jokers, "pass": not cards,
                    "table": [x for row in table for x in row]}
        if "cards" not in req:
            raise InputError("give a table or cards", "body", "request_invalid")
        cards = req["cards"]
        if kind == "hand":
            table = hand_to_table(cards)
            jokers: list[str] = []
        elif not cards:
            table, jokers = play_to_table(None), []
        else:
            play = read_play(cards, req.get("jokers") or None, UECDA)
            table, jokers = play_to_table(play), list(play.jokers)
        return {"kind": kind, "cards": list(cards), "jokers": jokers, "pass": not cards,
                "table": [x for row in table for x in row]}
    except TableError as err:
        raise InputError(str(err), "body.table" if "table" in req else "body.cards",
                         "request_invalid") from None
    except PlayError as err:
        raise InputError(f"{err.code}: {err.en}", "body.cards", "request_invalid") from None


UECDA_TABLE = Lookup(
    name="uecda-table",
    summary="UECda 8x15 card tables <-> cards (U16): a hand or a play (a pass is all zeros).",
    request={
        "kind": Field("enum", "hand: a hand table (joker at [4][1]); play: a submitted or "
                      "field table (default)", required=False, choices=("hand", "play")),
        "table": Field("int_list", "the 8x15 table row by row (120 integers; rows 5-7 are "
                       "ignored)", required=False),
        "cards": Field("cards", "cards to write as a table", required=False),
        "jokers": Field("str_list", "for a play of cards: what each joker stands for (D7)",
                        required=False)},
    response={
        "kind": Field("enum", "hand or play", choices=("hand", "play")),
        "cards": Field("cards", "the cards (a play's joker in its place)"),
        "jokers": Field("str_list", "what each joker of a play stands for"),
        "pass": Field("bool", "the table is all zeros (a pass)"),
        "table": Field("int_list", "the 8x15 table row by row (120 integers)")},
    handler=uecda_table,
    cacheable=False)  # ~10 µs: cheaper than any cache round trip


class DaifugoGame(Game[DaifugoState]):
    id = "daifugo"
    names = {"en": "Daifugo", "ja": "大富豪"}
    min_players = 3
    max_players = 8  # D1 (seed: 3~8人)
    state_version = 1
    options = OPTIONS
    presets = PRESETS
    actions = ACTIONS
    lookups = (UECDA_TABLE,)
    match_fields = {
        "deal": Field("int", "this deal's number (the last state's next_match.deal)",
                      required=False, minimum=1),
        "points": Field("int_map", "running points by player id", required=False),
        "finish_order": Field("str_list", "the previous deal's finishing order (titles, "
                              "exchange, next leader, 都落ち); empty: none", required=False)}
    zero_sum = False  # rank_points 5/4/3/2/1 (UECda) is not zero-sum
    accepts_hands = True
    rules_doc = "docs/rules/daifugo.md"
    state_type = DaifugoState
    refusals = {code: f"daifugo {rule}" for code, (rule, *_t) in MESSAGES.items()}

    def deal(self, setup: DealSetup) -> DaifugoState:
        return phases.deal(setup)

    def invariants(self, state: DaifugoState) -> None:
        invariants(state)

    def status(self, state: DaifugoState) -> str:
        return state.status

    def apply(self, state: DaifugoState, action: Action) -> Transition[DaifugoState]:
        return phases.apply(state, action)

    def legal_actions(self, state: DaifugoState, player: str) -> list[Action]:
        return phases.legal_actions(state, player)

    def to_act(self, state: DaifugoState) -> list[str]:
        return phases.to_act(state)

    def view(self, state: DaifugoState, player: str | None) -> dict:
        return views.view(state, player)
