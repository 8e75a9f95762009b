"""ManteurGame: the Game interface over the modules of this package (rules:
docs/rules/manteur.md)."""
from __future__ import annotations

from typing import Any, Sequence

from engine.fields import Field
from engine.game import Action, DealSetup, Game, Lookup, Transition

from .events import EVENTS
from . import phases, sheet, views
from .actions import ACTIONS, parse_shape
from .declarations import ERRORS, DeclarationError
from .messages import CATALOGUE, DETAILS
from .options import OPTIONS, PRESETS
from .state import VERSION, ManteurState, invariants
from .truth import lookup_check, lookup_compare

_OPTIONS_FIELD = Field("object", "the declaration options of B-a, B-b, B-c, B-f (deck, jokers, "
                       "flush_above_full_house, allow_straights, allow_flushes, "
                       "min_declaration, ace_low_straight); defaults when left out",
                       required=False)

CHECK = Lookup(
    name="check",
    summary="Whether a hand contains a declaration (B11), with the proof a genuine declarer "
            "shows (B12).",
    summary_ja="手札に宣言の役が含まれるかどうか(B11)と、正しい宣言者が示す証拠(B12)。",
    request={"hand": Field("cards", "at most five cards, each once"),
             "declaration": Field("object", "{type, ranks?, kickers?} (B5, B10)"),
             "options": _OPTIONS_FIELD},
    response={"truthful": Field("bool", "the hand contains the declaration"),
              "proof": Field("object", "{cards, jokers: {joker: card it stands for}}; null "
                             "for a lie", nullable=True)},
    handler=lookup_check,
    # Memoized in the engine (truth.py, per sorted hand): a few µs warm, well under a
    # shared-cache round trip.
    cacheable=False)

COMPARE = Lookup(
    name="compare",
    summary="The order of two declarations (B9): 1 when a is higher, -1 when b is, 0 when "
            "they are the same.",
    summary_ja="二つの宣言の強さの順(B9): a が強ければ1、b が強ければ-1、同じなら0。",
    request={"a": Field("object", "a declaration {type, ranks?, kickers?}"),
             "b": Field("object", "a declaration {type, ranks?, kickers?}"),
             "options": _OPTIONS_FIELD},
    response={"order": Field("int", "1, -1 or 0", minimum=-1, maximum=1)},
    handler=lookup_compare,
    cacheable=False)


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
    match_fields = {"penalties": Field("int_map", "penalty points already taken, by player id "
                                       "(a game entered part-way)", required=False)}
    zero_sum = False  # penalty points are taken, never paid to anyone
    penalty_kind = "penalty"  # a referee's penalty counts in this unit (engine/referee.py)
    # B.6: a physical deal gives the starter's five cards (every other seat's hand is empty);
    # nothing else lies face up, so there is no table.
    accepts_hands = True
    rules_doc = "docs/rules/manteur.md"
    state_type = ManteurState
    refusals = CATALOGUE
    refusal_details = DETAILS
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

    def invariants(self, state: ManteurState) -> None:
        invariants(state)

    def apply(self, state: ManteurState, action: Action) -> Transition[ManteurState]:
        return phases.apply(state, action)

    def legal_actions(self, state: ManteurState, player: str) -> list[Action]:
        return phases.legal_actions(state, player)

    def to_act(self, state: ManteurState) -> list[str]:
        return phases.to_act(state)

    view_type = views.ManteurView

    def sheet_lines(self, deal):  # the score sheet's rows of a checked deal (engine/sheets.py)
        return sheet.lines(deal)

    def view(self, state: ManteurState, player: str | None) -> dict:
        return views.view(state, player)
