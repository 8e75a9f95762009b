"""ManteurGame: the Game interface over the modules of this package (rules:
docs/rules/manteur.md)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Sequence

from engine.cards import in_table_order
from engine.fields import Field
from engine.game import Game
from engine.parts import Match, PhysicalDeals, RefereeRules, ReportedDeals, SheetLayout
from engine.summary import Standings, TableSummary
from engine.values import Action, DealSetup, Event, Transition

from . import phases, reported as reported_deals, summary, views, words
from .actions import ACTIONS, parse_shape
from .declarations import ERRORS, PIQUET_RANKS, STANDARD_RANKS, DeclarationError
from .events import EVENTS
from .invariants import invariants
from .lookups import CHECK, COMPARE
from .messages import CATALOGUE, DETAILS, SANCTIONS
from .options import DEFAULTS, OPTIONS, PRESETS
from .sheet import lines as sheet_lines
from .state import VERSION, ManteurOptions, ManteurState, deck_of

# B.6: the fields that name cards taken from a stock of unknown order, by action: the cards
# received in an exchange (B15) and a new round's five cards (B16).
UNSEEN_DRAW_FIELDS = {"exchange": "drawn", "deal": "cards"}


def names_unseen_draw(state_json: Mapping[str, Any], action_json: Mapping[str, Any]) -> bool:
    """B.6: an exchange's cards received, or a new round's five cards, in a physical game
    (`stock_known` false), when at least one card is named (an exchange of none names none)."""
    kind = action_json.get("type")
    field = UNSEEN_DRAW_FIELDS.get(kind) if isinstance(kind, str) else None
    return field is not None and state_json.get("stock_known") is False and \
        bool(action_json.get(field))


class ManteurGame(Game[ManteurState]):
    id = "manteur"
    names = {"en": "Manteur (Poker Menteur)", "ja": "マントゥール(ポーカー・マントゥール)"}
    min_players = 2
    max_players = 8  # B2 (the seed: 2-8)
    state_version = VERSION
    options = OPTIONS
    presets = PRESETS
    actions = ACTIONS
    lookups = (CHECK, COMPARE)
    match = Match({"penalties": Field("int_map", "penalty points already taken, by player id "
                                      "(a game entered part-way)", required=False)})
    zero_sum = False  # penalty points are taken, never paid to anyone
    standings_fewest_first = True  # the fewest penalty points place first (B17)
    # B.6: a physical deal gives the starter's five cards (every other seat's hand is empty);
    # nothing else lies face up, so there is no table.
    physical = PhysicalDeals(names_unseen_draw=names_unseen_draw)
    rules_doc = "docs/rules/manteur.md"
    state_type = ManteurState
    refusals = CATALOGUE
    refusal_details = DETAILS
    # penalty points, counted with the challenges' (B22); referee mode (B19 … B21)
    referee = RefereeRules("penalty", SANCTIONS, count_penalty=phases.count_penalty)
    sheet = SheetLayout(lines=sheet_lines)  # the score sheet's rows of a checked deal
    # an event's table without a referee reports the loser of each round
    reported = ReportedDeals(reported_deals.ManteurReportedDeal, reported_deals.score,
                             reported_deals.of_deal)
    # A malformed declaration (in an action or a lookup) answers 422 with its own code.
    input_errors = {**ERRORS, DeclarationError.code: ERRORS["declaration_not_object"]}
    events = EVENTS

    def parse_action(self, data: Any, players: Sequence[str]) -> Action:
        action = super().parse_action(data, players)
        if action.type == "declare":
            fields = {**action.fields, "declaration": parse_shape(action.get("declaration"))}
            action = Action(action.type, action.player, fields)
        return action

    def deal(self, setup: DealSetup) -> ManteurState:
        return phases.deal(setup)

    def deck(self, options: Mapping[str, Any]) -> list[str]:
        """B1, B-a: the deck the options choose and its jokers; each suit from its lowest
        rank to the A (B4)."""
        rules = ManteurOptions(**{**DEFAULTS, **dict(options)})
        ranks = PIQUET_RANKS if rules.deck == "piquet32" else STANDARD_RANKS
        return in_table_order(deck_of(rules), ranks)

    def invariants(self, state: ManteurState) -> None:
        invariants(state)

    def apply(self, state: ManteurState, action: Action) -> Transition[ManteurState]:
        return phases.apply(state, action)

    def legal_actions(self, state: ManteurState, player: str) -> list[Action]:
        return phases.legal_actions(state, player)

    def action_text(self, state: ManteurState, action: Action) -> dict[str, str]:
        return words.action_text(state, action)

    def event_text(self, state: ManteurState, event: Event) -> dict[str, str]:
        return words.event_text(event)

    def to_act(self, state: ManteurState) -> list[str]:
        return phases.to_act(state)

    view_type = views.ManteurView

    def view(self, state: ManteurState, player: str | None) -> dict[str, Any]:
        return views.view(state, player)

    def summary(self, state: ManteurState, viewer: str | None) -> TableSummary:
        return summary.summary(state, viewer)

    def standings(self, state: ManteurState) -> Standings:
        return summary.standings(state)
