"""Dealing and the rules of play (Game.deal, Game.apply, Game.legal_actions, Game.to_act):
pure functions of a state, each returning a new one (states are never changed)."""
from __future__ import annotations

from engine import rng
from engine.cards import card_label
from engine.errors import InvalidDeal
from engine.state import Cards, replace
from engine.values import Action, DealSetup, Event, ScoreDelta, Transition

from .messages import refuse
from .options import DEFAULTS
from .state import DECK, VERSION, Match, Options, Play, RoundResult, State, beats


def deal(setup: DealSetup) -> State:
    """1.2: each seat gets `hand_size` cards from the shuffled deck (or the deck given, top
    card first); the rest is the stock. 1.3: the dealer named (else the first seat) leads."""
    options = Options(**{**DEFAULTS, **dict(setup.options)})
    players = tuple(setup.players)
    if setup.deck is not None:
        if sorted(setup.deck) != sorted(DECK):
            raise InvalidDeal("an explicit deck holds the 52 cards exactly once", "deck")
        deck = list(setup.deck)
    else:
        deck = rng.shuffled(DECK, setup.seed, "deal")
    n = options.hand_size
    hands = {p: tuple(deck[i * n:(i + 1) * n]) for i, p in enumerate(players)}
    leader = setup.dealer if setup.dealer is not None else players[0]
    return State(version=VERSION, players=players, options=options, seed=setup.seed,
                 phase="play", status="in_progress", match=Match(), hands=hands,
                 stock=tuple(deck[n * len(players):]), turn=leader, leader=leader, round=1,
                 plays=(), points={p: 0 for p in players}, last_round=None)


def to_act(s: State) -> list[str]:
    return [] if s.turn is None else [s.turn]


def action_text(s: State, action: Action) -> dict[str, str]:
    """What a button offering the action says (Game.action_text), card names from
    engine.cards."""
    if action.type == "pass":
        return {"en": "Pass", "ja": "パス"}
    label = card_label(action.get("card"))
    return {"en": f"Play {label['en']}", "ja": f"{label['ja']} を出す"}


def event_text(e: Event) -> dict[str, str]:
    """An event in words a referee reads out (Game.event_text), from its fields alone."""
    d = e.data
    if e.type == "played":
        label = card_label(d["cards"][0])
        return {"en": f"{d['player']} plays {label['en']}", "ja": f"{d['player']}が{label['ja']} を出す"}
    if e.type == "passed":
        return {"en": f"{d['player']} passes", "ja": f"{d['player']}はパス"}
    if e.type == "round_won":
        if d["player"] is None:
            return {"en": f"Round {d['round']}: no card played", "ja": f"第{d['round']}ラウンド: 出たカードなし"}
        label = card_label(d["card"])
        return {"en": f"{d['player']} wins round {d['round']} with {label['en']}",
                "ja": f"{d['player']}が{label['ja']}で第{d['round']}ラウンドを取る"}
    # deal_finished
    en = ", ".join(f"{p} {n}" for p, n in d["points"].items())
    ja = "、".join(f"{p} {n}" for p, n in d["points"].items())
    return {"en": f"Deal over: rounds won {en}", "ja": f"ディール終了: 取ったラウンド {ja}"}


def legal_actions(s: State, player: str) -> list[Action]:
    """2.1, 2.3: on your turn, any card you hold, or a pass (the only act of an empty hand)."""
    if player != s.turn:
        return []
    return [Action("play", player, {"card": c}) for c in s.hands[player]] + \
        [Action("pass", player, {})]


def apply(s: State, action: Action) -> Transition[State]:
    player = action.player
    if player != s.turn:
        raise refuse("not_your_turn", turn=s.turn, player=player)  # 2.2
    hands = dict(s.hands)
    if action.type == "play":
        card = action.get("card")
        if card not in s.hands[player]:
            raise refuse("card_not_in_hand", player=player, card=card)  # 2.1
        hands[player] = tuple(c for c in s.hands[player] if c != card)
        event = Event("played", {"player": player, "cards": [card]})
    else:
        card = None
        event = Event("passed", {"player": player})
    plays = s.plays + (Play(player, card),)
    seats = s.players
    if len(plays) < len(seats):  # 2.2: the next seat acts
        nxt = replace(s, hands=hands, plays=plays, turn=seats[(seats.index(player) + 1) % len(seats)])
        return Transition(nxt, (), (event,))
    return _end_round(s, hands, plays, event)


def _end_round(s: State, hands: dict[str, Cards], plays: tuple[Play, ...],
               event: Event) -> Transition[State]:
    """3.1: the highest card wins the round and a point; 3.2: the winner leads the next;
    3.3: the deal ends when every hand is empty or no card was played this round."""
    best: Play | None = None  # the act with the highest card so far (a pass has none)
    top = ""                  # its card
    for p in plays:
        if p.card is not None and (best is None or beats(p.card, top)):
            best, top = p, p.card
    winner = best.player if best else None
    points = dict(s.points)
    deltas: tuple[ScoreDelta, ...] = ()
    if winner is not None:
        points[winner] += 1
        deltas = (ScoreDelta(winner, "points", 1, "round won (3.1)",
                             text={"en": "Round won (3.1)", "ja": "ラウンドの勝ち(3.1)"}),)
    events = [event, Event("round_won", {"round": s.round, "player": winner,
                                         "card": best.card if best else None})]
    result = RoundResult(s.round, plays, winner)
    if winner is None or all(not h for h in hands.values()):
        events.append(Event("deal_finished", {"points": points}))
        nxt = replace(s, hands=hands, plays=(), points=points, last_round=result, turn=None,
                      phase="finished", status="finished")
    else:
        nxt = replace(s, hands=hands, plays=(), points=points, last_round=result,
                      turn=winner, leader=winner, round=s.round + 1)
    return Transition(nxt, deltas, tuple(events))
