"""ManGame: the Game interface over the modules of this package (rules: docs/rules/man.md)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.cards import RANKS, deck_52, in_table_order
from engine.fields import Field
from engine.game import Game
from engine.parts import Match, PhysicalDeals, RefereeRules, ReportedDeals, SheetLayout
from engine.state import replace
from engine.summary import Standings, TableSummary
from engine.values import Action, DealSetup, Event, ScoreDelta, Transition

from . import phases, reported as reported_deals, summary, views, words
from .actions import ACTIONS
from .events import EVENTS
from .invariants import invariants
from .lookups import MAN_NUMBERS
from .messages import DETAILS, MESSAGES
from .options import OPTIONS, PRESETS
from .sheet import lines as sheet_lines
from .state import VERSION, ManState

# 3.10 (with 2.3): the fields that name cards taken from a stock of unknown order, by action.
UNSEEN_DRAW_FIELDS = {"draw": "cards", "flip": "cards"}


def next_match(state: ManState) -> dict[str, Any] | None:
    """The match after this game (7.1, 7.2): running totals, games played, the next dealer,
    whether the match is over and its winner; the next deal takes it as `match`."""
    if state.status != "finished":
        return None
    m = state.match
    return {"totals": dict(m.totals), "games_played": m.games_played,
            "next_dealer": state.next_dealer, "over": m.over, "winner": m.winner}


def count_penalty(state: ManState, player: str, delta: int, reason: str) -> Transition[ManState]:
    """7.4: a referee's penalty counts in the seat's running match total at once, so the
    match's end and winner (7.2) and the next deal's `match` see it; paid to nobody."""
    totals = {**state.match.totals, player: state.match.totals[player] + delta}
    return Transition(replace(state, match=replace(state.match, totals=totals)),
                      (ScoreDelta(player, "points", delta, reason),))


def names_unseen_draw(state_json: Mapping[str, Any], action_json: Mapping[str, Any]) -> bool:
    """3.10: a draw or a flip from a physical deal's stock (`stock_known` false) that names
    at least one card (an empty list names none: a drawn game's draw, 3.9)."""
    kind = action_json.get("type")
    field = UNSEEN_DRAW_FIELDS.get(kind) if isinstance(kind, str) else None
    return field is not None and state_json.get("stock_known") is False and \
        bool(action_json.get(field))


class ManGame(Game[ManState]):
    id = "man"
    names = {"en": "Man", "ja": "まん"}
    min_players = 2
    max_players = 8  # 1.1: 2-6 usual, up to 8 allowed
    state_version = VERSION
    options = OPTIONS
    presets = PRESETS
    actions = ACTIONS
    lookups = (MAN_NUMBERS,)
    match = Match({"totals": Field("int_map", "running totals by player id", required=False),
                   "games_played": Field("int", "games already played", required=False,
                                         minimum=0),
                   "next_dealer": Field("player", "who deals this game (7.1); a `dealer` "
                                        "given with it must agree", required=False,
                                        nullable=True),
                   "over": Field("bool", "the match has ended (7.3: no more games)",
                                 required=False),
                   "winner": Field("player", "the match's winner once over", required=False,
                                   nullable=True)}, next_match=next_match)
    zero_sum = True
    # 2.7: a deal from the cards on the table: each seat's three cards, and the start cards.
    physical = PhysicalDeals({"start_cards": Field(
        "cards", "every card the dealer turned face up, in the order turned (2.3, 2.5): the "
        "effect cards (and, with flip_again, cards nobody could match) first, the start card "
        "itself last; with start_card=by_dealer up to the first effect card",
        "親が表にしたカードすべて(めくった順、2.3、2.5)。効果カード(flip_again では誰も"
        "合わせられなかったカードも)が先、台札そのものが最後。start_card=by_dealer では"
        "最初の効果カードまで")}, names_unseen_draw=names_unseen_draw)
    referee = RefereeRules("points", count_penalty=count_penalty)  # 7.4
    sheet = SheetLayout(lines=sheet_lines)  # the score sheet's rows of a checked deal
    # an event's table without a referee reports each game's man, chombo or draw
    reported = ReportedDeals(reported_deals.ManReportedDeal, reported_deals.score,
                             reported_deals.of_deal)
    rules_doc = "docs/rules/man.md"
    state_type = ManState
    refusals = {code: f"man {rule}" for code, (rule, *_texts) in MESSAGES.items()}
    refusal_details = DETAILS
    events = EVENTS

    def deal(self, setup: DealSetup) -> ManState:
        return phases.deal(setup)

    def deck(self, options: Mapping[str, Any]) -> list[str]:
        """1.1: one 52-card deck; each suit from A (1) to K (13), as man numbers count."""
        return in_table_order(deck_52(), RANKS)

    def invariants(self, state: ManState) -> None:
        invariants(state)

    def apply(self, state: ManState, action: Action) -> Transition[ManState]:
        return phases.apply(state, action)

    def legal_actions(self, state: ManState, player: str) -> list[Action]:
        return phases.legal_actions(state, player)

    def action_text(self, state: ManState, action: Action) -> dict[str, str]:
        return words.action_text(state, action)

    def event_text(self, state: ManState, event: Event) -> dict[str, str]:
        return words.event_text(event)

    def to_act(self, state: ManState) -> list[str]:
        return phases.to_act(state)

    def public_to_act(self, state: ManState) -> list[str]:
        # to_act lists who could man the top card, read from their hands: sealed answers give
        # the public list instead (phases.public_to_act).
        return phases.public_to_act(state)

    view_type = views.ManView

    def view(self, state: ManState, player: str | None) -> dict[str, Any]:
        return views.view(state, player)

    def summary(self, state: ManState, viewer: str | None) -> TableSummary:
        return summary.summary(state, viewer)

    def standings(self, state: ManState) -> Standings:
        return summary.standings(state)
