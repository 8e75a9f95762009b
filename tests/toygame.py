"""A tiny game defined only for the tests: it exercises the registry and every endpoint
without depending on a real game's rules. It is never registered in the product.

"High card": 2–4 players each get 2 cards; in seat order each plays one card; when everyone has
played, the highest rank (A low) scores +1 from each other player... kept zero-sum: the winner
gets +(n-1), everyone else −1. Two tricks, then the game is finished.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from engine import cards, rng
from engine.errors import InvalidDeal, InvalidState
from engine.fields import ActionType, Field, Option
from engine.game import Game
from engine.values import FINISHED, IN_PROGRESS, Action, DealSetup, Event, Lookup, Refusal, ScoreDelta, Transition

ORDER = {r: i for i, r in enumerate(cards.RANKS)}


@dataclass(frozen=True)
class ToyState:
    players: tuple
    options: dict
    seed: str
    hands: tuple
    trick: tuple
    turn: int
    done: bool
    seed_salt: str = ""

    def to_json(self):
        return {"game": "toy", "version": 1, "options": self.options, "players": list(self.players),
                "seed": self.seed, "phase": "done" if self.done else "play",
                "status": FINISHED if self.done else IN_PROGRESS,
                "hands": [list(h) for h in self.hands], "trick": [list(t) for t in self.trick],
                "turn": self.turn, "seed_salt": self.seed_salt}


class ToyGame(Game):
    id = "toy"
    names = {"en": "High card", "ja": "ハイカード"}
    min_players, max_players = 2, 4
    legal_actions_cacheable = True  # not for its cost: so the tests exercise the cache path
    options = (Option("stakes", Field("int", minimum=1, maximum=10), 1, "T1"),)
    presets = {"standard": {}, "high": {"stakes": 5}}
    actions = (ActionType("play", "play one card", "カードを1枚出す", {"card": Field("card")}, "T2"),)
    lookups = (Lookup("card-value", "the rank order of a card", "カードの強さの順位",
                      {"card": Field("card")}, {"card": Field("card"), "value": Field("int")},
                      lambda req, lang: {"card": req["card"], "value": ORDER[cards.rank_of(req["card"])]}),)

    def deal(self, setup: DealSetup) -> ToyState:
        deck = list(setup.deck) if setup.deck else rng.shuffled(cards.deck_52(), setup.seed, "deal")
        if len(deck) < 2 * len(setup.players) or len(set(deck)) != len(deck):
            raise InvalidDeal("the deck must hold two distinct cards per player", "deck")
        n = len(setup.players)
        hands = tuple(tuple(deck[i * 2:(i + 1) * 2]) for i in range(n))
        return ToyState(setup.players, dict(setup.options), setup.seed, hands, (), 0, False,
                        setup.seed_salt)

    def decode(self, data) -> ToyState:
        players = data["players"]
        if not (isinstance(players, list) and 2 <= len(players) <= 4
                and all(isinstance(p, str) for p in players) and len(set(players)) == len(players)):
            raise InvalidState("players: 2-4 distinct ids", "state.players")
        hands = data["hands"]
        if not isinstance(hands, list) or len(hands) != len(players):
            raise InvalidState("one hand per player", "state.hands")
        for i, h in enumerate(hands):
            if not isinstance(h, list):
                raise InvalidState("a hand is a list", f"state.hands[{i}]")
            for j, c in enumerate(h):
                if not cards.is_card(c):
                    raise InvalidState(f"{c!r} is not a card", f"state.hands[{i}][{j}]")
        trick = data["trick"]
        if not isinstance(trick, list) or not all(
                isinstance(t, list) and len(t) == 2 and t[0] in players and cards.is_card(t[1]) for t in trick):
            raise InvalidState("trick: [player, card] pairs", "state.trick")
        turn = data["turn"]
        if not isinstance(turn, int) or isinstance(turn, bool) or not 0 <= turn < len(players):
            raise InvalidState("turn out of range", "state.turn")
        options = data["options"]
        if not isinstance(options, dict) or not isinstance(options.get("stakes"), int):
            raise InvalidState("options.stakes must be an integer", "state.options")
        if data["phase"] not in ("play", "done") or not isinstance(data["seed"], str):
            raise InvalidState("phase must be play or done; seed a string", "state.phase")
        return ToyState(tuple(players), dict(options), data["seed"],
                        tuple(tuple(h) for h in hands), tuple(tuple(t) for t in trick),
                        turn, data["phase"] == "done", data.get("seed_salt", ""))

    def encode(self, state: ToyState) -> dict:
        return state.to_json()

    def apply(self, state: ToyState, action: Action) -> Transition:
        seat = state.players.index(action.player)
        if seat != state.turn:
            raise Refusal("not_your_turn", "It is not your turn.", "あなたの手番ではありません。", "toy T2")
        card = action.get("card")
        if card not in state.hands[seat]:
            raise Refusal("card_not_held", f"You do not hold {card}.", f"{card} を持っていません。", "toy T2")
        hands = list(state.hands)
        hands[seat] = cards.remove_cards(hands[seat], [card])
        trick = state.trick + ((action.player, card),)
        deltas, events = (), ()
        if len(trick) == len(state.players):
            winner = max(trick, key=lambda pc: ORDER[cards.rank_of(pc[1])])[0]
            stake = state.options["stakes"]
            deltas = tuple(ScoreDelta(p, "points", stake * (len(trick) - 1) if p == winner else -stake,
                                      "high card", text={"en": "High card", "ja": "ハイカード"})
                           for p in state.players)
            events = (Event("trick_won", {"player": winner}),)
            trick = ()
        done = all(not h for h in hands)
        nxt = replace(state, hands=tuple(tuple(h) for h in hands), trick=trick,
                      turn=(state.turn + 1) % len(state.players), done=done)
        return Transition(nxt, deltas, events)

    def legal_actions(self, state: ToyState, player: str) -> list[Action]:
        seat = state.players.index(player)
        if state.done or seat != state.turn:
            return []
        return [Action("play", player, {"card": c}) for c in state.hands[seat]]

    def action_text(self, state: ToyState, action: Action) -> dict[str, str]:
        label = cards.card_label(action.get("card"))
        return {"en": f"Play {label['en']}", "ja": f"{label['ja']} を出す"}

    def event_text(self, state: ToyState, event: Event) -> dict[str, str]:
        winner = event.data["player"]
        return {"en": f"{winner} wins the trick", "ja": f"{winner}がトリックを取る"}

    def to_act(self, state: ToyState) -> list[str]:
        return [] if state.done else [state.players[state.turn]]

    def status(self, state: ToyState) -> str:
        return FINISHED if state.done else IN_PROGRESS

    def view(self, state: ToyState, player):
        out = state.to_json()
        out.pop("seed")
        out["hands"] = [list(h) if p == player else len(h) for p, h in zip(state.players, state.hands)]
        return out
