"""The Game subclass: the declarations the registry and the service publish, and the five
operations, each delegating to the module that holds its rules."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.cards import in_table_order
from engine.game import Game
from engine.values import Action, DealSetup, Event, Transition

from . import phases, views
from .actions import ACTIONS
from .events import EVENTS
from .invariants import invariants
from .messages import CATALOGUE, DETAILS
from .options import GAME_ID, OPTIONS, PRESETS
from .state import DECK, RANK_ORDER, VERSION, State


class HighCardGame(Game[State]):
    # 1. who it is
    id = GAME_ID  # the package's name (options.py)
    names = {"en": "High card", "ja": "ハイカード"}
    min_players, max_players = 2, 4  # 1.1
    # the rules page inside the package, as a path from the repository's root
    rules_doc = f"engine/games/{GAME_ID}/rules.md"
    # 2. its published contract
    options = OPTIONS
    presets = PRESETS
    actions = ACTIONS
    events = EVENTS
    refusals = CATALOGUE
    refusal_details = DETAILS
    state_type = State
    state_version = VERSION
    view_type = views.View
    zero_sum = False  # a round's winner gains a point that nobody pays
    # 3. its optional parts (engine/parts.py), none here: every deal stands alone (no `match`),
    # deals come from a deck (no `physical`), the referee's penalties count in points with
    # nothing sanctioned (the default `referee`), the score sheet has a column per seat (no
    # `sheet`)

    # 4. the five operations
    def deal(self, setup: DealSetup) -> State:
        return phases.deal(setup)

    def deck(self, options: Mapping[str, Any]) -> list[str]:
        """1.1: the deck `deal` shuffles, as GET /v1/games shows it: each suit from its lowest
        rank to its highest. (A deck an option changes is built here from the options.)"""
        return in_table_order(DECK, RANK_ORDER)

    def invariants(self, state: State) -> None:
        invariants(state)

    def apply(self, state: State, action: Action) -> Transition[State]:
        return phases.apply(state, action)

    def legal_actions(self, state: State, player: str) -> list[Action]:
        return phases.legal_actions(state, player)

    def action_text(self, state: State, action: Action) -> dict[str, str]:
        return phases.action_text(state, action)

    def event_text(self, state: State, event: Event) -> dict[str, str]:
        return phases.event_text(event)

    def to_act(self, state: State) -> list[str]:
        return phases.to_act(state)

    def view(self, state: State, player: str | None) -> dict[str, Any]:
        return views.view(state, player)
