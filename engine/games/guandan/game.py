"""GuandanGame: the Game interface over the modules of this package (rules:
docs/rules/guandan.md)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.cards import RANKS, double_deck_108, in_table_order
from engine.fields import Field
from engine.game import Game
from engine.parts import Match, PhysicalDeals, RefereeRules, Sanction, SheetLayout
from engine.schema import by_key
from engine.state import replace
from engine.summary import Standings, TableSummary
from engine.values import Action, DealSetup, Event, Refusal, ScoreDelta, Transition

from . import phases, summary, views, words
from .actions import ACTIONS
from .combos import TYPES
from .events import EVENTS
from .invariants import invariants
from .lookups import CLASSIFY
from .messages import DETAILS, MESSAGES, SANCTIONS
from .options import OPTIONS, PRESETS
from .reported import REPORTED
from .sheet import columns as sheet_columns, lines as sheet_lines
from .state import LEVELS, VERSION, GuandanState, team_of


def count_penalty(state: GuandanState, player: str, delta: int,
                  reason: str) -> Transition[GuandanState]:
    """S-9: a referee's level penalty counts against the seat's team: its delta is the team's
    at once, and the team's level moves when the deal ends (scoring.finish_deal), never below
    2 nor past A; the deal's own level rank stays (L-2)."""
    team = team_of(state.players, player)
    moved = {**state.ledger_levels, team: state.ledger_levels.get(team, 0) + delta}
    return Transition(replace(state, ledger_levels={t: v for t, v in moved.items() if v}),
                      (ScoreDelta(team, "level", delta, reason),))


def sanction_effect(state: GuandanState, action: Action, refusal: Refusal,
                    sanction: Sanction) -> Transition[GuandanState]:
    return phases.bar_for_round(state, action)  # the one effect of its own


class GuandanGame(Game[GuandanState]):
    id = "guandan"
    names = {"en": "Guandan", "ja": "掼蛋(グアンダン)"}
    team_ids = ("team1", "team2")  # state.TEAMS (G-1)
    partnerships = {4: ((0, 2), (1, 3))}  # G-1: partners sit opposite
    min_players = 4
    max_players = 4
    state_version = VERSION
    options = OPTIONS
    presets = PRESETS
    actions = ACTIONS
    lookups = (CLASSIFY,)
    match = Match({
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
    })
    zero_sum = False
    legal_actions_cacheable = True  # thousands of plays per lead: more than a Redis round trip
    combinations = TYPES  # every listed play carries its reading, whose type is its kind
    combination_path = ("reading", "type")
    # A physical deal: what the rules draw at random, from the table (phases._physical)
    physical = PhysicalDeals({
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
            "ないときは指定できない。各席には見せない", required=False)})
    rules_doc = "docs/rules/guandan.md"
    state_type = GuandanState
    refusals = {code: f"guandan {rule}" for code, (rule, *_texts) in MESSAGES.items()}
    refusal_details = DETAILS
    events = EVENTS
    # a penalty counts in levels (S-9); referee mode (R-1 … R-7)
    referee = RefereeRules("level", SANCTIONS, count_penalty=count_penalty,
                           sanction_effect=sanction_effect, legal_actions=phases.referee_acts)
    sheet = SheetLayout(sheet_columns, sheet_lines)  # the teams' columns, each deal's levels
    reported = REPORTED  # a deal's finishing order, scored by the level-up code (§9)

    def deal(self, setup: DealSetup) -> GuandanState:
        return phases.deal(setup)

    def deck(self, options: Mapping[str, Any]) -> list[str]:
        """Two 54-card decks: every card twice; each suit from 2 to A, the jokers last."""
        return in_table_order(double_deck_108(), RANKS[1:] + RANKS[:1])

    def invariants(self, state: GuandanState) -> None:
        invariants(state)

    def apply(self, state: GuandanState, action: Action) -> Transition[GuandanState]:
        return phases.apply(state, action)

    def legal_actions(self, state: GuandanState, player: str) -> list[Action]:
        return phases.legal_actions(state, player)

    def action_text(self, state: GuandanState, action: Action) -> dict[str, str]:
        return words.action_text(state, action)

    def event_text(self, state: GuandanState, event: Event) -> dict[str, str]:
        return words.event_text(state, event)

    def legal_actions_of_cards(self, state: GuandanState, player: str,
                               cards: tuple[str, ...]) -> list[Action] | None:
        if state.phase != "play":
            return None  # a tribute's or a return's few actions: the engine keeps the right ones
        return phases.play_actions_of(state, player, cards)

    def to_act(self, state: GuandanState) -> list[str]:
        return phases.to_act(state)

    view_type = views.GuandanView

    def view(self, state: GuandanState, player: str | None) -> dict[str, Any]:
        return views.view(state, player)

    def summary(self, state: GuandanState, viewer: str | None) -> TableSummary:
        return summary.summary(state, viewer)

    def standings(self, state: GuandanState) -> Standings:
        return summary.standings(state)

