"""ManillenGame: the Game interface over the modules of this package."""
from __future__ import annotations

from typing import Any, Mapping

from engine.fields import Field
from engine.game import Action, DealSetup, Game, Transition

from . import phases, sides as sd
from .actions import ACTIONS
from .messages import TEMPLATES
from .options import OPTIONS, PRESETS
from .state import (STATE_SCHEMA, State, decode, decode_trusted, derived, encode, encode_match,
                    status_of)


class ManillenGame(Game[State]):
    id = "manillen"
    names = {"en": "Manillen", "ja": "マニーレン"}
    min_players = 2
    max_players = 4
    state_version = 1
    options = OPTIONS
    presets = PRESETS
    actions = ACTIONS
    match_fields = {
        "scores": Field("int_map", "running score of each score holder (team ids with 4 "
                        "players, player ids with 2 or 3)", required=False),
        "booms": Field("int_map", "booms won so far by each score holder", required=False),
        "carry": Field("int", "multiplier carried from 30–30 ties (A29, M-j)", required=False,
                       minimum=1),
        "deal_number": Field("int", "deals played so far in the match; picks the shuffle "
                             "stream", required=False, minimum=0),
        "dealer": Field("player", "who deals this deal (the previous dealer's left)",
                        required=False),
    }
    zero_sum = False
    rules_doc = "docs/rules/manillen.md"
    state_schema = STATE_SCHEMA
    refusals = {code: f"manillen {rule}" for code, (rule, *_texts) in TEMPLATES.items()}

    def deal(self, setup: DealSetup) -> State:
        return phases.deal(setup)

    def decode(self, data: Mapping[str, Any]) -> State:
        return decode(data)

    def decode_trusted(self, data: Mapping[str, Any]) -> State:
        return decode_trusted(data)

    def encode(self, state: State) -> dict:
        return encode(state)

    def apply(self, state: State, action: Action) -> Transition[State]:
        return phases.apply(state, action)

    def legal_actions(self, state: State, player: str) -> list[Action]:
        return phases.legal_actions(state, player)

    def to_act(self, state: State) -> list[str]:
        return [state.players[s] for s in phases.to_act_seats(state)]

    def status(self, state: State) -> str:
        return status_of(state)

    def view(self, state: State, player: str | None) -> dict:
        """What `player` may see. Own hand (hidden from the dealer's partner until trumps are
        named, A8, and from the dealer before they look when blind no-trump is on, A11);
        everyone's face-up table cards (A36); the left-over cards (A34); the current trick and
        the last completed trick only -- the seed forbids looking at earlier tricks, so
        captured cards and running card points are never shown, only how many tricks each
        side holds (the piles on the table)."""
        players = state.players
        n = state.n
        seat = players.index(player) if player is not None else None
        hand: list[str] | None = None
        hidden = False
        if seat is not None:
            hidden = ((state.phase == "blind" and seat == state.dealer)
                      or (n == 4 and state.phase in ("blind", "trump") and not state.trump_passed
                          and seat == (state.dealer + 2) % 4))
            hand = None if hidden else list(state.hands[seat])
        table = None
        if state.table is not None:
            table = {players[s]: [{"up": p[0] if p else None, "down": len(p) == 2}
                                  for p in state.table[s]] for s in range(2)}

        def seated(leader: int, cards) -> list[dict]:
            return [{"player": players[(leader + k) % n], "card": c} for k, c in enumerate(cards)]

        lt = state.last_trick
        d = derived(state)
        tricks_won = {side["id"]: sum(len(state.won[s]) for s in side["seats"]) // n
                      for side in sd.sides(players, state.dealer)}
        view = {
            "game": self.id,
            "players": list(players),
            "seat": player,
            "phase": state.phase,
            "status": d["status"],
            "dealer": players[state.dealer],
            "to_act": self.to_act(state),
            "trump": state.trump,
            "blind": state.blind,
            "trump_passed": state.trump_passed,
            "doubling": {"calls": [players[s] for s in state.calls],
                         "turn": None if state.doubling_turn is None
                         else players[state.doubling_turn]},
            "multiplier": d["multiplier"],
            "hand": hand,
            "hand_hidden": hidden,
            "hand_counts": {players[s]: len(state.hands[s]) for s in range(n)},
            "table": table,
            "leftover": list(state.leftover),
            "sides": [{"id": side["id"], "members": [players[s] for s in side["seats"]]}
                      for side in sd.sides(players, state.dealer)],
            "trick": None if state.leader is None or state.phase != "play"
            else {"leader": players[state.leader], "cards": seated(state.leader, state.trick)},
            "last_trick": None if lt is None else {
                "leader": players[lt.leader], "cards": seated(lt.leader, lt.cards),
                "winner": players[lt.winner]},
            "tricks_won": tricks_won,
            "match": encode_match(state.match, players[state.dealer]),
            "thrown_in": state.thrown_in,
            "result": d["result"],
            "next_match": d["next_match"],
            "next_dealer": d["next_dealer"],
            "legal_actions": [] if player is None
            else [a.to_json() for a in self.legal_actions(state, player)],
        }
        return view
