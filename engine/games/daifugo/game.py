"""DaifugoGame: the Game interface over the modules of this package (rules:
docs/rules/daifugo.md)."""
from __future__ import annotations

from engine.fields import Field
from engine.game import Game
from engine.values import Action, DealSetup, Lookup, ScoreDelta, Transition
from engine.state import replace

from .events import EVENTS
from . import phases, sheet, views
from .actions import ACTIONS
from .messages import DETAILS, MESSAGES, SANCTIONS
from .options import OPTIONS, PRESETS
from .plays import PlayError, read_play
from .rules import UECDA
from .invariants import invariants
from .state import VERSION, DaifugoState
from .uecda import (COLS, ROWS, TableError, hand_to_table, play_to_table, table_to_cards,
                    table_to_hand)


class _NotATable(ValueError):
    pass


def _table(rows: list[str]) -> list[list[int]]:
    """Rows of 15 digits; rows 0-4 carry cards, 5-7 (state) may be left out."""
    if not 5 <= len(rows) <= ROWS or any(len(r) != COLS or not r.isdigit() for r in rows):
        raise _NotATable(f"a table is 5 to {ROWS} rows of {COLS} digits")
    return [[int(ch) for ch in r] for r in rows] + [[0] * COLS] * (ROWS - len(rows))


def _rows(table) -> list[str]:
    return ["".join(str(x) for x in row) for row in table]


def _convert(req: dict) -> dict:
    kind = req.get("kind") or "play"
    if "table" in req:
        if "cards" in req:
            raise _NotATable("give a table or cards, not both")
        table = _table(req["table"])
        if kind == "hand":
            cards, jokers = table_to_hand(table), []
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
        raise _NotATable("give a table or cards")
    return {"valid": True, "error": None, "kind": kind, "cards": cards, "jokers": jokers,
            "pass": not cards, "table": _rows(table)}


def uecda_table(req: dict) -> dict:
    """U16: an 8x15 card table (rows of digits) to cards, or cards to a table. A table
    or cards that are no UECda hand or play answer valid=false with the reason."""
    try:
        return _convert(req)
    except (_NotATable, TableError) as err:
        reason = str(err)
    except PlayError as err:
        reason = f"{err.code}: {err.en}"
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
        "error": Field("str", "why not (valid=false)", nullable=True),
        "kind": Field("enum", "hand or play", choices=("hand", "play")),
        "cards": Field("cards", "the cards (a play's joker in its place)"),
        "jokers": Field("str_list", "what each joker of a play stands for"),
        "pass": Field("bool", "the table is all zeros (a pass)"),
        "table": Field("str_list", "the 8x15 table as 8 rows of 15 digits")},
    handler=uecda_table,
    cacheable=False)  # ~10 µs: cheaper than any cache round trip


class DaifugoGame(Game[DaifugoState]):
    id = "daifugo"
    names = {"en": "Daifugo", "ja": "大富豪"}
    min_players = 3
    max_players = 8  # D1 (seed: 3~8人)
    state_version = VERSION
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
    penalty_kind = "rank"  # a referee's penalty counts in this unit (engine/referee.py)
    accepts_hands = True
    # A physical deal (hands given) takes what the rules draw at random from the referee
    # (phases._physical): nothing of it lies face up, but it is what the table decided.
    table_fields = {
        "leader": Field(
            "player", "who leads the first deal when the rules draw it at random (D4, "
            "first_leader random_then_daihinmin, a match's first deal): required then, refused "
            "where the cards (♦3, ♠3) or the match decide",
            "ルールがランダムに決める最初のディールの親(D4、first_leader が "
            "random_then_daihinmin で対戦の最初のディール): そのとき必須。カード(♦3、♠3)や"
            "対戦情報で決まるときは指定できない", required=False),
        "pass_limit_order": Field(
            "str_list", "leader_may_pass (D9): the order, drawn by the referee, in which the "
            "players left at the 20th pass in a row take the open places; every seated player "
            "once; required with leader_may_pass, refused without it. Hidden from the seats",
            "leader_may_pass(D9): パスが20回続いたときに残りのプレイヤーが空いた順位に入る順"
            "(審判が決める)。着席者全員を1回ずつ。leader_may_pass のとき必須、それ以外では"
            "指定できない。各席には見せない", required=False)}
    rules_doc = "docs/rules/daifugo.md"
    state_type = DaifugoState
    refusals = {code: f"daifugo {rule}" for code, (rule, *_t) in MESSAGES.items()}
    refusal_details = DETAILS
    events = EVENTS
    sanctions = SANCTIONS  # referee mode (D26, D27)

    def deal(self, setup: DealSetup) -> DaifugoState:
        return phases.deal(setup)

    def invariants(self, state: DaifugoState) -> None:
        invariants(state)

    def count_penalty(self, state: DaifugoState, player: str, delta: int,
                      reason: str) -> Transition[DaifugoState]:
        """D28: a referee's penalty counts in the seat's running points at once (the titles
        of D10 follow the finishing order alone)."""
        points = {**state.match.points, player: state.match.points[player] + delta}
        return Transition(replace(state, match=replace(state.match, points=points)),
                          (ScoreDelta(player, "rank", delta, reason),))

    def apply(self, state: DaifugoState, action: Action) -> Transition[DaifugoState]:
        return phases.apply(state, action)

    def legal_actions(self, state: DaifugoState, player: str) -> list[Action]:
        return phases.legal_actions(state, player)

    def to_act(self, state: DaifugoState) -> list[str]:
        return phases.to_act(state)

    view_type = views.DaifugoView

    def sheet_lines(self, deal):  # the score sheet's rows of a checked deal (engine/sheets.py)
        return sheet.lines(deal)

    def view(self, state: DaifugoState, player: str | None) -> dict:
        return views.view(state, player)
