"""ManillenGame: the Game interface over the modules of this package."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Sequence

from engine.cards import deck_32, in_table_order
from engine.fields import Field
from engine.game import Game
from engine.parts import Match, PhysicalDeals, RefereeRules, ReportedDeals, Sanction, SheetLayout
from engine.state import encode_state, replace
from engine.summary import Standings, TableSummary
from engine.values import Action, DealSetup, Event, Refusal, ScoreDelta, Transition

from . import phases, reported as reported_deals, sides as sd, summary, words
from .actions import ACTIONS
from .events import EVENTS
from .invariants import invariants
from .messages import DETAILS, SANCTIONS, TEMPLATES
from .options import OPTIONS, PRESETS
from .physical import TABLE_FIELDS
from .sheet import columns as sheet_columns, lines as sheet_lines
from .state import VERSION, ManillenState
from .tricks import ORDER, sort_key
from .views import ManillenView

State = ManillenState


def count_penalty(state: State, player: str, delta: int, reason: str) -> Transition[State]:
    """A41: a referee's penalty counts at once in the running score of the seat's score holder
    (its team with 4 or 6 players, else the seat), so the boom and the match (A31, A32) and
    the next deal's `match` see it; a score may go below 0."""
    holder = next(h for h in sd.holders(state.players)
                  if player in sd.holder_members(state.players, h))
    m = state.match
    scores = {**m.scores, holder: m.scores[holder] + delta}
    return Transition(replace(state, match=replace(m, scores=scores)),
                      (ScoreDelta(holder, "points", delta, reason),))


def sanction_effect(state: State, action: Action, refusal: Refusal,
                    sanction: Sanction) -> Transition[State]:
    return phases.lose_deal(state, action.player)  # A39, the one effect of its own


class ManillenGame(Game[State]):
    id = "manillen"
    names = {"en": "Manillen", "ja": "マニーレン"}
    team_ids = ("team_0_2", "team_1_3", "team_0_2_4", "team_1_3_5")  # sides.TEAMS (A3, A35)
    # A3, A35: teams seated alternately (three players' partnership changes by deal: none fixed)
    partnerships = {4: ((0, 2), (1, 3)), 6: ((0, 2, 4), (1, 3, 5))}
    min_players = 2
    max_players = 6                   # not 5: 2, 3, 4 or 6 (A3, A34–A36)
    state_type = ManillenState
    state_version = VERSION
    options = OPTIONS
    presets = PRESETS
    actions = ACTIONS
    match = Match({
        "scores": Field("int_map", "running score of each score holder (team ids with 4 "
                        "or 6 players, player ids with 2 or 3)", required=False),
        "booms": Field("int_map", "booms won so far by each score holder", required=False),
        "carry": Field("int", "multiplier carried from 30–30 ties (A29, M-j)", required=False,
                       minimum=1),
        "deal_number": Field("int", "deals played so far in the match; picks the shuffle "
                             "stream", required=False, minimum=0),
        "dealer": Field("player", "who deals this deal (the previous dealer's left)",
                        required=False),
    })
    zero_sum = False
    # A physical deal: each seat's hand and the rest of the layout (physical.py)
    physical = PhysicalDeals(TABLE_FIELDS)
    rules_doc = "docs/rules/manillen.md"
    refusals = {code: f"manillen {rule}" for code, (rule, *_texts) in TEMPLATES.items()}
    refusal_details = DETAILS
    events = EVENTS
    # a penalty counts in the score holder's points (A41); referee mode (A38 … A40)
    referee = RefereeRules("points", SANCTIONS, count_penalty=count_penalty,
                           sanction_effect=sanction_effect)
    sheet = SheetLayout(sheet_columns, sheet_lines)  # a column per score holder
    # an event's table without a referee reports each deal's trump, doublings and card points
    reported = ReportedDeals(reported_deals.ManillenReportedDeal, reported_deals.score,
                             reported_deals.of_deal)

    def deal(self, setup: DealSetup) -> State:
        return phases.deal(setup)

    def deck(self, options: Mapping[str, Any]) -> list[str]:
        """The 32-card piquet deck; each suit from the 7 to the ten, its highest card."""
        return in_table_order(deck_32(), ORDER[::-1])

    def invariants(self, state: State) -> None:
        invariants(state)

    def apply(self, state: State, action: Action) -> Transition[State]:
        return phases.apply(state, action)

    def legal_actions(self, state: State, player: str) -> list[Action]:
        return phases.legal_actions(state, player)

    def action_text(self, state: State, action: Action) -> dict[str, str]:
        return words.action_text(state, action)

    def event_text(self, state: State, event: Event) -> dict[str, str]:
        return words.event_text(state, event)

    def to_act(self, state: State) -> list[str]:
        return phases.to_act(state)

    view_type = ManillenView

    def summary(self, state: State, viewer: str | None) -> TableSummary:
        return summary.summary(state, viewer)

    def standings(self, state: State) -> Standings:
        return summary.standings(state)

    def view(self, state: State, player: str | None) -> dict[str, Any]:
        """What `player` may see. Own hand (hidden from the dealer's partner until trumps are
        named, A8, and from the dealer before they look when blind no-trump is on, A11);
        everyone's face-up table cards (A36); the left-over cards (A34); the current trick and
        the last completed trick only -- the seed forbids looking at earlier tricks, so
        captured cards and running card points are never shown, only how many tricks each
        side holds (the piles on the table)."""
        players = state.players
        n = len(players)
        hand: list[str] | None = None
        hidden = False
        if player is not None:
            hidden = ((state.phase == "blind" and player == state.dealer)
                      or (state.phase in ("blind", "trump") and not state.trump_passed
                          and player in phases.dealer_partners(state)))
            # by suit, strongest first (the state keeps the order dealt)
            hand = None if hidden else sorted(state.hands[player], key=sort_key)
        table = None
        if state.table is not None:
            table = {p: [{"up": pile[0] if pile else None, "down": len(pile) == 2}
                         for pile in piles] for p, piles in state.table.items()}

        def seated(leader: str, cards: Sequence[str]) -> list[dict[str, Any]]:
            return [{"player": phases.left_of(state, leader, k), "card": c}
                    for k, c in enumerate(cards)]

        lt = state.last_trick
        sides = sd.sides(players, players.index(state.dealer))
        trick = state.trick
        return {
            "game": self.id,
            "players": list(players),
            "seat": player,
            "phase": state.phase,
            "status": state.status,
            "dealer": state.dealer,
            "cut": [{"player": c.player, "card": c.card} for c in state.cut],
            "to_act": self.to_act(state),
            "trump": state.trump,
            "blind": state.blind,
            "trump_passed": state.trump_passed,
            "turned": state.turned,
            "doubling": {"calls": list(state.doubling.calls), "turn": state.doubling.turn},
            "multiplier": state.multiplier,
            "hand": hand,
            "hand_hidden": hidden,
            "hand_counts": {p: len(state.hands[p]) for p in players},
            "table": table,
            "leftover": list(state.leftover),
            "sides": [{"id": side["id"], "members": [players[s] for s in side["seats"]]}
                      for side in sides],
            "trick": None if trick is None
            else {"leader": trick.leader, "cards": seated(trick.leader, trick.cards)},
            "last_trick": None if lt is None else {
                "leader": lt.leader, "cards": seated(lt.leader, lt.cards), "winner": lt.winner},
            "tricks_won": {side["id"]: sum(len(state.won[players[s]]) for s in side["seats"])
                           // n for side in sides},
            "match": encode_state(state.match),
            "thrown_in": state.thrown_in,
            "revoked_by": state.revoked_by,
            "result": None if state.result is None else encode_state(state.result),
            "next_match": None if state.next_match is None else encode_state(state.next_match),
            "next_dealer": state.next_dealer,
            "legal_actions": [] if player is None
            else [a.to_json() for a in self.legal_actions(state, player)],
        }
