"""The deal and the phases of a deal: (blind no-trump offer →) trump choice → doubling → play
→ over. Each action is checked here; the play obligations live in legality.py."""
from __future__ import annotations

from dataclasses import replace

from engine.cards import deck_32
from engine.game import Action, DealSetup, Event, InvalidDeal, ScoreDelta, Transition
from engine.rng import shuffled

from . import sides as sd
from .legality import check_play, play_rules
from .messages import refuse
from .options import DEAL_PATTERNS
from .scoring import deal_result, reason
from .state import LastTrick, Match, State
from .tricks import total_points, winner_offset

DECK_SET = frozenset(deck_32())


# ---------------------------------------------------------------- the deal

def _match(setup: DealSetup, names: list[str]) -> tuple[Match, str | None]:
    m = dict(setup.match or {})
    for key in ("scores", "booms"):
        given = m.get(key) or {}
        for k, v in given.items():
            if k not in names:
                raise InvalidDeal(f"{k!r} keeps no score here; score holders are {names}",
                                  f"match.{key}.{k}")
            if v < 0:
                raise InvalidDeal("must not be negative", f"match.{key}.{k}")
        m[key] = {h: given.get(h, 0) for h in names}
    match = Match(scores=m["scores"], booms=m["booms"], carry=m.get("carry", 1),
                  deal_number=m.get("deal_number", 0))
    for h in names:
        if match.booms[h] >= setup.options["booms_to_win"]:
            raise InvalidDeal(f"the match is over: {h} has won {match.booms[h]} booms",
                              "match.booms")
    dealer = m.get("dealer")
    if dealer is not None and dealer not in setup.players:
        raise InvalidDeal(f"dealer {dealer!r} is not one of the players", "match.dealer")
    return match, dealer


def deal(setup: DealSetup) -> State:
    players = tuple(setup.players)
    n = len(players)
    opts = dict(setup.options)
    names = sd.holders(players)
    match, match_dealer = _match(setup, names)
    # An explicit dealer wins; otherwise the match's next dealer (the deal passed left, A5).
    dealer_id = setup.dealer or match_dealer or players[0]
    dealer = players.index(dealer_id)
    if setup.deck is not None:
        deck = list(setup.deck)
        if len(deck) != 32 or set(deck) != DECK_SET:
            raise InvalidDeal("the deck must be the 32 cards 7–A of each suit, each once",
                              "deck")
    else:
        # Each deal of a match draws its own stream, so passing the same seed on gives a fresh
        # shuffle every deal: "deal" for the first, "deal/<n>" after.
        label = "deal" if match.deal_number == 0 else f"deal/{match.deal_number}"
        deck = shuffled(deck_32(), setup.seed, label)
    order = [(dealer + k) % n for k in range(1, n + 1)]     # A7: clockwise from dealer's left
    hands: list[list[str]] = [[] for _ in range(n)]
    pos = 0

    def give(seat: int, count: int, into: list[str]) -> None:
        nonlocal pos
        into.extend(deck[pos:pos + count])
        pos += count

    table = None
    leftover: list[str] = []
    if n == 4:
        for packet in DEAL_PATTERNS[opts["deal_pattern"]]:          # M-a
            for s in order:
                give(s, packet, hands[s])
    elif n == 3:
        for packet in (3, 4, 3):                 # A34: 10 each (packets: our choice)
            for s in order:
                give(s, packet, hands[s])
        leftover = deck[pos:pos + 2]
        pos += 2
    else:
        # A36, the seed's layout: 3 to hand, 4 face down, 2 to hand, 4 face up, 3 to hand.
        down: list[list[str]] = [[] for _ in range(2)]
        up: list[list[str]] = [[] for _ in range(2)]
        for step, count in (("hand", 3), ("down", 4), ("hand", 2), ("up", 4), ("hand", 3)):
            for s in order:
                give(s, count, hands[s] if step == "hand" else (down if step == "down" else up)[s])
        table = tuple(tuple((up[s][j], down[s][j]) for j in range(4)) for s in range(2))
    assert pos == 32
    phase = "blind" if opts["blind_no_trump"] else "trump"
    return State(options=opts, players=players, seed=setup.seed, dealer=dealer, phase=phase,
                 hands=tuple(tuple(h) for h in hands), table=table, leftover=tuple(leftover),
                 trump=None, blind=False, trump_passed=False, calls=(), doubling_turn=None,
                 leader=None, trick=(), last_trick=None, won=tuple(() for _ in range(n)),
                 match=match)


# ---------------------------------------------------------------- whose turn

def chooser(state: State) -> int:
    return (state.dealer + 2) % 4 if state.trump_passed else state.dealer


def next_to_play(state: State) -> int:
    return (state.leader + len(state.trick)) % state.n


def to_act_seats(state: State) -> list[int]:
    if state.phase in ("blind", "trump"):
        return [chooser(state)]
    if state.phase == "doubling":
        return [state.doubling_turn]
    if state.phase == "play":
        return [next_to_play(state)]
    return []


def call_due(state: State) -> str:
    return "double" if len(state.calls) % 2 == 0 else "redouble"


# ---------------------------------------------------------------- transitions

def _can_double(state: State, calls: tuple[int, ...]) -> list[int]:
    """Seats that may make the next call, or [] when the doubling is over (max_doublings
    reached, M-d). The seed's multiplier_cap bounds the *score* ("however compounded, at most
    ×4"), not the calls, so calls stay possible under it; only max_doublings limits them."""
    opts = state.options
    if opts["max_doublings"] is not None and len(calls) >= opts["max_doublings"]:
        return []
    return sd.doubling_candidates(state.n, state.dealer, calls, opts)


def _start_play(state: State) -> State:
    # A19: the player on the dealer's left leads the first trick.
    return replace(state, phase="play", doubling_turn=None, leader=(state.dealer + 1) % state.n,
                   trick=())


def _after_trump(state: State) -> State:
    cands = _can_double(state, ())
    if cands:
        return replace(state, phase="doubling", calls=(), doubling_turn=cands[0])
    return _start_play(state)


def _wrong_phase(state: State, action: Action):
    return refuse("wrong_phase", details={"phase": state.phase}, action=action.type,
                  phase=state.phase)


def _not_your_turn(state: State, action: Action):
    waiting = [state.players[s] for s in to_act_seats(state)]
    return refuse("not_your_turn", details={"to_act": waiting}, player=action.player,
                  waiting=", ".join(waiting))


def apply(state: State, action: Action) -> Transition[State]:
    if state.phase == "over":
        raise refuse("game_finished")
    seat = state.players.index(action.player)
    kind = action.type
    handler = _HANDLERS[kind]
    return handler(state, seat, action)


def _look(state: State, seat: int, action: Action) -> Transition[State]:
    if state.phase != "blind":
        raise _wrong_phase(state, action)
    if seat != state.dealer:
        raise _not_your_turn(state, action)
    return Transition(replace(state, phase="trump"), events=(
        Event("hand_looked_at", {"player": action.player}),))


def _trump_named(state: State, seat: int) -> Event:
    return Event("trump_named", {"player": state.players[seat], "trump": state.trump,
                                 "blind": state.blind, "multiplier": state.multiplier()})


def _blind(state: State, seat: int, action: Action) -> Transition[State]:
    if not state.options["blind_no_trump"]:
        raise refuse("blind_no_trump_disabled")
    if state.phase == "trump" and seat == state.dealer and not state.trump_passed:
        raise refuse("blind_no_trump_too_late")
    if state.phase != "blind":
        raise _wrong_phase(state, action)
    if seat != state.dealer:
        raise _not_your_turn(state, action)
    named = replace(state, trump="no_trump", blind=True)
    return Transition(_after_trump(named), events=(_trump_named(named, seat),))


def _choose(state: State, seat: int, action: Action) -> Transition[State]:
    if state.phase != "trump":
        raise _wrong_phase(state, action)
    if seat != chooser(state):
        raise _not_your_turn(state, action)
    # A9, A13: any suit, or no-trump; the chooser need not hold the suit.
    named = replace(state, trump=action.get("trump"))
    return Transition(_after_trump(named), events=(_trump_named(named, seat),))


def _pass_trump(state: State, seat: int, action: Action) -> Transition[State]:
    if not state.options["allow_pass_trump_to_partner"] or state.n != 4:
        raise refuse("trump_pass_disabled")
    if state.phase != "trump":
        raise _wrong_phase(state, action)
    if state.trump_passed:
        raise refuse("trump_already_passed")
    if seat != state.dealer:
        raise _not_your_turn(state, action)
    return Transition(replace(state, trump_passed=True), events=(
        Event("trump_choice_passed", {"player": action.player,
                                      "to": state.players[(seat + 2) % 4]}),))


def _report_peek(state: State, seat: int, action: Action) -> Transition[State]:
    # A8, M-m: the dealer's partner looked before trumps were named: the hand is thrown in.
    if (state.n != 4 or state.phase not in ("blind", "trump") or state.trump_passed
            or seat != (state.dealer + 2) % 4):
        raise refuse("peek_report_not_allowed")
    over = replace(state, phase="over", thrown_in=True)
    res = deal_result(over)
    return Transition(over, events=(Event("thrown_in", {
        "player": action.player, "next_dealer": res["next_dealer"]}),))


def _call(state: State, seat: int, action: Action) -> Transition[State]:
    if state.phase != "doubling":
        raise _wrong_phase(state, action)
    if seat != state.doubling_turn:
        raise _not_your_turn(state, action)
    due = call_due(state)
    if action.type != "pass" and action.type != due:
        side = "the non-dealing side" if due == "double" else "the dealer's side"
        raise refuse("wrong_doubling_call", details={"due": due}, side=side, call=due,
                     posted=action.type)
    cands = sd.doubling_candidates(state.n, state.dealer, state.calls, state.options)
    if action.type == "pass":
        later = cands[cands.index(seat) + 1:]
        if later:
            return Transition(replace(state, doubling_turn=later[0]), events=(
                Event("passed", {"player": action.player}),))
        return Transition(_start_play(state), events=(
            Event("passed", {"player": action.player}),
            Event("doubling_ended", {"multiplier": state.multiplier(),
                                     "calls": len(state.calls)}),))
    calls = state.calls + (seat,)
    doubled = replace(state, calls=calls)
    event = Event("doubled", {"player": action.player, "call": due, "calls": len(calls),
                              "multiplier": doubled.multiplier()})
    nxt = _can_double(state, calls)
    if nxt:
        return Transition(replace(doubled, doubling_turn=nxt[0]), events=(event,))
    return Transition(_start_play(doubled), events=(event, Event("doubling_ended", {
        "multiplier": doubled.multiplier(), "calls": len(calls)}),))


def _play(state: State, seat: int, action: Action) -> Transition[State]:
    if state.phase != "play":
        raise _wrong_phase(state, action)
    if seat != next_to_play(state):
        raise _not_your_turn(state, action)
    card = action.get("card")
    playable = state.playable(seat)
    if card not in playable:
        raise refuse("card_not_playable", details={"card": card, "playable": playable},
                     player=action.player, card=card,
                     table=" or among their face-up table cards" if state.table else "")
    n = state.n
    check_play(card, playable, state.trick, state.leader, seat, n, state.dealer,
               state.trump_suit, state.options)
    hands = list(state.hands)
    table = state.table
    if card in hands[seat]:
        hands[seat] = tuple(c for c in hands[seat] if c != card)
    else:
        # A36: a face-up table card is played; the card beneath it turns face up.
        row = tuple(p[1:] if p and p[0] == card else p for p in table[seat])
        table = tuple(row if s == seat else table[s] for s in range(2))
    trick = state.trick + (card,)
    new = replace(state, hands=tuple(hands), table=table, trick=trick)
    events = [Event("card_played", {"player": action.player, "card": card})]
    if len(trick) < n:
        return Transition(new, events=tuple(events))
    # A27, A20: the trick is complete; its winner takes it and leads next.
    winner = (state.leader + winner_offset(trick, state.trump_suit)) % n
    won = tuple(w + trick if s == winner else w for s, w in enumerate(state.won))
    new = replace(new, won=won, trick=(), leader=winner,
                  last_trick=LastTrick(state.leader, trick, winner))
    number = sum(len(w) for w in won) // n
    events.append(Event("trick_won", {"player": state.players[winner], "trick": number,
                                      "cards": list(trick), "points": total_points(trick)}))
    if number < sd.TRICKS[n]:
        return Transition(new, events=tuple(events))
    return _finish(replace(new, phase="over", leader=None), events)


def _finish(state: State, events: list[Event]) -> Transition[State]:
    res = deal_result(state)
    threshold = state.options["score_threshold"]
    deltas = []
    # A28: only a side over the threshold scores; each of its score holders records it (A34).
    for side, seats in zip(res["sides"], sd.sides(state.players, state.dealer)):
        if side["score"] > 0:
            for h in seats["holders"]:
                deltas.append(ScoreDelta(h, "points", side["score"],
                                         reason(side, res, threshold)))
    events.append(Event("deal_scored", {
        "sides": res["sides"], "multiplier": res["multiplier"], "factors": res["factors"],
        "capped": res["capped"], "tie": res["tie"], "scores": res["scores"],
        "next_carry": res["next_match"]["carry"]}))
    if res["boom"]:
        events.append(Event("boom", dict(res["boom"])))
    if res["match_over"]:
        events.append(Event("match_won", {"winner": res["match_winner"],
                                          "booms": res["next_match"]["booms"]}))
    return Transition(state, score_deltas=tuple(deltas), events=tuple(events))


_HANDLERS = {
    "look_at_hand": _look,
    "blind_no_trump": _blind,
    "choose_trump": _choose,
    "pass_trump_choice": _pass_trump,
    "report_peek": _report_peek,
    "double": _call,
    "redouble": _call,
    "pass": _call,
    "play": _play,
}


# ---------------------------------------------------------------- legal actions

def legal_actions(state: State, player: str) -> list[Action]:
    """The moves `player` may make now. The referee report `report_peek` is accepted but not
    listed: it is not a move of the game."""
    seat = state.players.index(player)
    if seat not in to_act_seats(state):
        return []
    if state.phase == "blind":
        return [Action("blind_no_trump", player), Action("look_at_hand", player)]
    if state.phase == "trump":
        out = [Action("choose_trump", player, {"trump": t})
               for t in ("S", "H", "D", "C", "no_trump")]
        if (state.options["allow_pass_trump_to_partner"] and state.n == 4
                and not state.trump_passed):
            out.append(Action("pass_trump_choice", player))
        return out
    if state.phase == "doubling":
        return [Action(call_due(state), player), Action("pass", player)]
    legal, _ = play_rules(state.playable(seat), state.trick, state.leader, seat, state.n,
                          state.dealer, state.trump_suit, state.options)
    return [Action("play", player, {"card": c}) for c in legal]

