"""DaifugoGame: the Game interface over the modules of this package (rules:
docs/rules/daifugo.md)."""
from __future__ import annotations

from collections.abc import Mapping
from types import SimpleNamespace
from typing import Any

from engine.cards import in_table_order
from engine.fields import Field
from engine.game import Game
from engine.parts import Match, PhysicalDeals, RefereeRules, SheetLayout
from engine.state import replace
from engine.summary import Standings, TableSummary
from engine.values import Action, DealSetup, Event, ScoreDelta, Transition

from . import phases, summary, views, words
from .actions import ACTIONS
from .events import EVENTS
from .invariants import invariants
from .lookups import UECDA_TABLE
from .messages import DETAILS, MESSAGES, SANCTIONS
from .options import OPTIONS, PRESETS
from .plays import ORDER
from .reported import REPORTED
from .sheet import lines as sheet_lines
from .state import VERSION, DaifugoState


def count_penalty(state: DaifugoState, player: str, delta: int,
                  reason: str) -> Transition[DaifugoState]:
    """D28: a referee's penalty counts in the seat's running points at once (the titles of
    D10 follow the finishing order alone)."""
    points = {**state.match.points, player: state.match.points[player] + delta}
    return Transition(replace(state, match=replace(state.match, points=points)),
                      (ScoreDelta(player, "rank", delta, reason),))


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
    match = Match({
        "deal": Field("int", "this deal's number (the last state's next_match.deal)",
                      required=False, minimum=1),
        "points": Field("int_map", "running points by player id", required=False),
        "finish_order": Field("str_list", "the previous deal's finishing order (titles, "
                              "exchange, next leader, 都落ち); empty: none", required=False)})
    zero_sum = False  # rank_points 5/4/3/2/1 (UECda) is not zero-sum
    # A physical deal (hands given) takes what the rules draw at random from the referee
    # (phases._physical): nothing of it lies face up, but it is what the table decided.
    physical = PhysicalDeals({
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
            "指定できない。各席には見せない", required=False)})
    rules_doc = "docs/rules/daifugo.md"
    state_type = DaifugoState
    refusals = {code: f"daifugo {rule}" for code, (rule, *_t) in MESSAGES.items()}
    refusal_details = DETAILS
    events = EVENTS
    # a penalty counts in ranks, in the running points (D28); referee mode (D26, D27)
    referee = RefereeRules("rank", SANCTIONS, count_penalty=count_penalty)
    sheet = SheetLayout(lines=sheet_lines)  # the score sheet's rows of a checked deal
    reported = REPORTED  # the players out in order and the fouls, placed and scored (D10, D24)

    def deal(self, setup: DealSetup) -> DaifugoState:
        return phases.deal(setup)

    def deck(self, options: Mapping[str, Any]) -> list[str]:
        """D1, D-a: 52 cards and `jokers` jokers; each suit in strength order, 3 to 2 (D2)."""
        return in_table_order(phases.deck_of(SimpleNamespace(jokers=options["jokers"])), ORDER)

    def invariants(self, state: DaifugoState) -> None:
        invariants(state)

    def apply(self, state: DaifugoState, action: Action) -> Transition[DaifugoState]:
        return phases.apply(state, action)

    def legal_actions(self, state: DaifugoState, player: str) -> list[Action]:
        return phases.legal_actions(state, player)

    def action_text(self, state: DaifugoState, action: Action) -> dict[str, str]:
        return words.action_text(state, action)

    def event_text(self, state: DaifugoState, event: Event) -> dict[str, str]:
        return words.event_text(event)

    def to_act(self, state: DaifugoState) -> list[str]:
        return phases.to_act(state)

    view_type = views.DaifugoView

    def view(self, state: DaifugoState, player: str | None) -> dict[str, Any]:
        return views.view(state, player)

    def summary(self, state: DaifugoState, viewer: str | None) -> TableSummary:
        return summary.summary(state, viewer)

    def standings(self, state: DaifugoState) -> Standings:
        return summary.standings(state)
