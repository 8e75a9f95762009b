"""GuandanGame: the Game interface over the modules of this package (rules:
docs/rules/guandan.md)."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from engine.fields import Field
from engine.game import Game
from engine.referee import Sanction
from engine.schema import by_key
from engine.state import replace
from engine.values import Action, DealSetup, Refusal, ScoreDelta, Transition

from . import phases, sheet, views
from .actions import ACTIONS
from .combos import TYPES
from .events import EVENTS
from .invariants import invariants
from .lookups import CLASSIFY
from .messages import DETAILS, MESSAGES, SANCTIONS
from .options import OPTIONS, PRESETS
from .state import LEVELS, VERSION, GuandanState, team_of


class GuandanGame(Game[GuandanState]):
    id = "guandan"
    names = {"en": "Guandan", "ja": "掼蛋(グアンダン)"}
    team_ids = ("team1", "team2")  # state.TEAMS (G-1)
    min_players = 4
    max_players = 4
    state_version = VERSION
    options = OPTIONS
    presets = PRESETS
    actions = ACTIONS
    lookups = (CLASSIFY,)
    match_fields = {
        "levels": Field("object", "each team's level by team id (team1: seats 0 and 2, team2: "
                        "seats 1 and 3), '2' … 'A'", required=False,
                        schema=by_key({"type": "string", "enum": list(LEVELS)})),
        "declarer": Field("str", "the team of the previous 1st player (L-2); checked",
                          required=False, nullable=True),
        "a_failures": Field("int_map", "failures as declarer at A by team id (S-5)",
                            required=False),
        "previous_order": Field("str_list", "the previous deal's finish: 1st and 2nd (a 1-2 "
                                "finish) or all four", required=False),
        "tribute_payers": Field("str_list", "who pays tribute (T-2, T-3); checked",
                                required=False),
        "deal_number": Field("int", "deals played so far; picks the shuffle stream",
                             required=False, minimum=0),
    }
    zero_sum = False
    penalty_kind = "level"  # a referee's penalty counts in this unit (engine/referee.py)
    legal_actions_cacheable = True  # thousands of plays per lead: more than a Redis round trip
    combinations = TYPES  # every listed play carries its reading, whose type is its kind
    combination_path = ("reading", "type")
    accepts_hands = True
    # A physical deal: what the rules draw at random, from the table (phases._physical)
    table_fields = {
        "cut_card": Field(
            "card", "the first deal (G-4): the card turned up in the cut; its holder leads. "
            "Required on a match's first deal, refused later",
            "最初のディール(G-4): カットで表にしたカード。その持ち主が最初に出す。対戦の最初の"
            "ディールでは必須、それ以降は指定できない", required=False),
        "leader": Field(
            "player", "the first deal: the holder of the turned-up card when both copies are "
            "in different hands (required then; else, if given, the holder)",
            "最初のディール: 同じカードの2枚が別々の手札にあるときの、表にしたカードの持ち主"
            "(そのとき必須。それ以外で与えるならその持ち主)", required=False),
        "tribute_to_first": Field(
            "player", "equal_tribute random (D5, T-5): with a double tribute, the payer whose "
            "tribute goes to the 1st player if the two are equal, drawn by the referee; "
            "required when the hands make them equal, refused without a double tribute under "
            "random. Hidden from the seats",
            "equal_tribute が random(D5、T-5): ダブル進貢で2枚が同じ強さのとき1位に渡す側の"
            "進貢者(審判が決める)。手札から同じ強さになるときは必須、random でのダブル進貢が"
            "ないときは指定できない。各席には見せない", required=False)}
    rules_doc = "docs/rules/guandan.md"
    state_type = GuandanState
    refusals = {code: f"guandan {rule}" for code, (rule, *_texts) in MESSAGES.items()}
    refusal_details = DETAILS
    events = EVENTS
    sanctions = SANCTIONS  # referee mode (R-1 … R-5)

    def deal(self, setup: DealSetup) -> GuandanState:
        return phases.deal(setup)

    def invariants(self, state: GuandanState) -> None:
        invariants(state)

    def count_penalty(self, state: GuandanState, player: str, delta: int,
                      reason: str) -> Transition[GuandanState]:
        """S-9: a referee's level penalty counts against the seat's team: its delta is the
        team's at once, and the team's level moves when the deal ends (scoring.finish_deal),
        never below 2 nor past A; the deal's own level rank stays (L-2)."""
        team = team_of(state.players, player)
        moved = {**state.ledger_levels, team: state.ledger_levels.get(team, 0) + delta}
        return Transition(replace(state, ledger_levels={t: v for t, v in moved.items() if v}),
                          (ScoreDelta(team, "level", delta, reason),))

    def apply(self, state: GuandanState, action: Action) -> Transition[GuandanState]:
        return phases.apply(state, action)

    def legal_actions(self, state: GuandanState, player: str) -> list[Action]:
        return phases.legal_actions(state, player)

    def legal_actions_of_cards(self, state: GuandanState, player: str,
                               cards: tuple[str, ...]) -> list[Action] | None:
        if state.phase != "play":
            return None  # a tribute's or a return's few actions: the engine keeps the right ones
        return phases.play_actions_of(state, player, cards)

    def sanction_effect(self, state: GuandanState, action: Action, refusal: Refusal,
                        sanction: Sanction) -> Transition[GuandanState]:
        return phases.bar_for_round(state, action)  # the one effect of its own

    def referee_legal_actions(self, state: GuandanState) -> list[Action]:
        return phases.referee_acts(state)  # the referee's own acts

    def to_act(self, state: GuandanState) -> list[str]:
        return phases.to_act(state)

    view_type = views.GuandanView

    # the score holders (engine/sheets.py)
    def sheet_columns(self, players: Sequence[str], names: Mapping[str, str]) -> list[Any]:
        return sheet.columns(players, names)
    def sheet_lines(self, deal: Any) -> list[Any]:  # the score sheet's rows of a checked deal (engine/sheets.py)
        return sheet.lines(deal)

    def view(self, state: GuandanState, player: str | None) -> dict[str, Any]:
        return views.view(state, player)

