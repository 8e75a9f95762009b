"""The deal and the phases of a deal: (blind no-trump offer →) trump choice → doubling → play
→ over. Each action is checked here; the play obligations live in legality.py."""
from __future__ import annotations

from typing import Any

from engine.cards import deck_32
from engine.errors import InvalidDeal, shown
from engine.rng import shuffled
from engine.state import MAX_SAFE_INT, encode_state, replace
from engine.values import (
    Action,
    DealSetup,
    Event,
    Refusal,
    ScoreDelta,
    Transition,
    number_out_of_range,
)

from . import physical, sides as sd
from .cut import cut_for_dealer, cut_winner
from .legality import check_play, play_rules
from .messages import refuse
from .options import DEAL_PATTERNS
from .result import ManillenMatch
from .scoring import current_multiplier, multiplier_in_range, reason, reason_text, settle
from .state import (
    VERSION,
    ManillenCut,
    ManillenDoubling,
    ManillenLastTrick,
    ManillenOptions,
    ManillenState,
    ManillenTrick,
)
from .tricks import total_points, winner_offset

DECK_SET = frozenset(deck_32())
State = ManillenState


# ---------------------------------------------------------------- the deal

def _match(setup: DealSetup, names: list[str]) -> dict[str, Any]:
    """The match fields of the deal request, completed (score holders missing count 0)."""
    m = dict(setup.match or {})
    for key in ("scores", "booms"):
        given = m.get(key) or {}
        for k, v in given.items():
            if k not in names:
                raise InvalidDeal(f"{shown(k)} keeps no score here; score holders are {names}",
                                  f"match.{key}.{k}")
            low = -MAX_SAFE_INT if key == "scores" else 0  # A41: a penalty may go below 0
            if not low <= v <= MAX_SAFE_INT:
                raise InvalidDeal(f"must be an integer in [{low}, {MAX_SAFE_INT}]",
                                  f"match.{key}.{k}")
        m[key] = {h: given.get(h, 0) for h in names}
    for h in names:
        if m["booms"][h] >= setup.options["booms_to_win"]:
            raise InvalidDeal(f"the match is over: {h} has won {m['booms'][h]} booms",
                              "match.booms")
    dealer = m.get("dealer")
    if dealer is not None and dealer not in setup.players:
        raise InvalidDeal(f"dealer {shown(dealer)} is not one of the players", "match.dealer")
    return m


def deal(setup: DealSetup) -> State:
    players = tuple(setup.players)
    n = len(players)
    if n not in sd.TRICKS:
        raise InvalidDeal("Manillen is played by 2, 3, 4 or 6 players (A3, A34–A36)", "players")
    opts = ManillenOptions(**setup.options)
    if opts.french_form != "none" and (n != 4 or opts.blind_no_trump
                                       or opts.allow_pass_trump_to_partner):
        raise InvalidDeal("the French form (A37) is played by 4, with trumps turned up: no "
                          "blind no-trump, no en face", "options.french_form")
    m = _match(setup, sd.holders(players))
    # An explicit dealer wins (a referee or an organiser who seats the first dealer, and the
    # later deals of a match, which name the dealer the deal passed to, A5); otherwise the
    # first dealer is cut for (A5, first_dealer: cut, the default: the seed), from the seed,
    # or the first player (first_dealer: first_player).
    cut: list[tuple[str, str]] = []
    dealer_id = setup.dealer or m.get("dealer")
    if setup.deck is not None:
        physical.deck_table(setup)
    if setup.physical:   # hands or a deck: the cut as shown at the table if given, no seed
        cut = physical.cut(setup, players, dealer_id, opts.first_dealer)
        dealer_id = cut_winner(cut, players) if cut else dealer_id
    elif dealer_id is None and opts.first_dealer == "cut":
        cut = cut_for_dealer(players, setup.seed)
        dealer_id = cut_winner(cut, players)
    dealer_id = dealer_id or players[0]
    match = ManillenMatch(scores=m["scores"], booms=m["booms"], carry=m.get("carry", 1),
                          deal_number=m.get("deal_number", 0), dealer=dealer_id)
    dealer = players.index(dealer_id)
    if setup.hands is not None:
        hands_by_id, table, leftover, turned = physical.layout(
            setup, players, dealer_id, opts.french_form != "none")
        return _dealt(setup, opts, match, players, cut, hands_by_id, table, leftover, turned)
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
    # A7: clockwise from the dealer's left (A37, French form: counter-clockwise, from the right)
    order = [(dealer + sd.step(opts) * k) % n for k in range(1, n + 1)]
    hands: list[list[str]] = [[] for _ in range(n)]
    pos = 0

    def give(count: int, into: list[str]) -> None:
        nonlocal pos
        into.extend(deck[pos:pos + count])
        pos += count

    table = None
    leftover = []  # typed list[str] by physical.layout's answer above
    if n == 4:
        for packet in DEAL_PATTERNS[opts.deal_pattern]:             # M-a
            for s in order:
                give(packet, hands[s])
    elif n in (3, 6):
        # A34: 10 each, A35: 5 each (packets: our choice); the 2 left over are laid aside
        # face up and count for the dealer('s team).
        for packet in ((3, 4, 3) if n == 3 else (3, 2)):
            for s in order:
                give(packet, hands[s])
        give(2, leftover)
    else:
        # A36, the seed's layout: 3 to hand, 4 face down, 2 to hand, 4 face up, 3 to hand.
        down: list[list[str]] = [[] for _ in range(2)]
        up: list[list[str]] = [[] for _ in range(2)]
        for step, count in (("hand", 3), ("down", 4), ("hand", 2), ("up", 4), ("hand", 3)):
            for s in order:
                give(count, hands[s] if step == "hand" else (down if step == "down" else up)[s])
        table = {players[s]: tuple((up[s][j], down[s][j]) for j in range(4)) for s in range(2)}
    assert pos == 32
    # A37: the last card dealt (the dealer's) is turned up and fixes trumps; it stays in hand.
    turned = deck[31 - len(leftover)] if opts.french_form != "none" else None
    return _dealt(setup, opts, match, players, cut,
                  {p: tuple(h) for p, h in zip(players, hands)}, table, leftover, turned)


def _dealt(setup: DealSetup, opts: ManillenOptions, match: ManillenMatch,
           players: tuple[str, ...], cut: list[tuple[str, str]],
           hands: dict[str, tuple[str, ...]], table: dict[str, Any] | None, leftover: list[str],
           turned: str | None) -> State:
    """The first state of a deal, from the cards as dealt (shuffled, a deck or a table)."""
    state = State(
        version=VERSION, players=players, options=opts, seed=setup.seed,
        phase="blind" if opts.blind_no_trump else "trump", status="in_progress", match=match,
        dealer=match.dealer, cut=tuple(ManillenCut(p, c) for p, c in cut),
        hands=hands, table=table,
        leftover=tuple(leftover), trump=None, blind=False, trump_passed=False, turned=None,
        doubling=ManillenDoubling(calls=(), turn=None), multiplier=1, trick=None,
        last_trick=None, won={p: () for p in players}, thrown_in=False, revoked_by=None,
        result=None,
        next_match=None, next_dealer=None)
    if turned is not None:
        state = _after_trump(replace(state, phase="trump", trump=turned[0], turned=turned))
    return settle(state)


# ---------------------------------------------------------------- seats, turns, cards

def left_of(state: State, player: str, k: int = 1) -> str:
    """The player `k` seats on from `player` in the direction of play: clockwise (seat i+1
    sits on seat i's left), or counter-clockwise in the French form (A37)."""
    players = state.players
    return players[(players.index(player) + sd.step(state.options) * k) % len(players)]


def trump_suit(state: State) -> str | None:
    return None if state.trump in (None, "no_trump") else state.trump


def playable(state: State, player: str) -> list[str]:
    """Cards `player` may choose from: the hand, plus (2 players) the face-up table cards."""
    cards = list(state.hands[player])
    if state.table is not None:
        cards.extend(pile[0] for pile in state.table[player] if pile)
    return cards


def dealer_partners(state: State) -> list[str]:
    """The dealer's partners (4 or 6 players), who may not look before trumps (A8, A35)."""
    players = state.players
    seat = players.index(state.dealer)
    return [players[s] for s in sd.partners(len(players), seat, seat)
            if len(players) in sd.TEAMS]


def partners_of(state: State, player: str) -> list[str]:
    players = state.players
    return [players[s] for s in sd.partners(len(players), players.index(state.dealer),
                                            players.index(player))]


def chooser(state: State) -> str:
    return left_of(state, state.dealer, 2) if state.trump_passed else state.dealer


def next_to_play(state: State) -> str:
    trick = state.trick
    assert trick is not None, "asked only in the play phase, which has a trick"
    return left_of(state, trick.leader, len(trick.cards))


def to_act(state: State) -> list[str]:
    if state.phase in ("blind", "trump"):
        return [chooser(state)]
    if state.phase == "doubling":
        turn = state.doubling.turn
        assert turn is not None, "the doubling phase asks someone (invariants.py)"
        return [turn]
    if state.phase == "play":
        return [next_to_play(state)]
    return []


def call_due(state: State) -> str:
    return "double" if len(state.doubling.calls) % 2 == 0 else "redouble"


def call_in_range(state: State) -> bool:
    """Whether one more doubling call keeps the deal's multiplier -- every factor multiplied
    (A18), before any multiplier_cap -- within JSON's safe range (±(2^53 − 1)). The seed lets
    the calls go on until one side stops; a call past the range is refused
    `number_out_of_range`, as every action that would take a number past it, and is not
    listed, so the side asked may only pass."""
    return multiplier_in_range(state, len(state.doubling.calls) + 1)


# ---------------------------------------------------------------- transitions

def _candidates(state: State, calls: tuple[str, ...]) -> list[str]:
    players = state.players
    seats = sd.doubling_candidates(len(players), players.index(state.dealer),
                                   [players.index(c) for c in calls], state.options)
    return [players[s] for s in seats]


def _can_double(state: State, calls: tuple[str, ...]) -> list[str]:
    """Players who may make the next call, or [] when the doubling is over (max_doublings
    reached, M-d). The seed's multiplier_cap bounds the *score* ("however compounded, at most
    ×4"), not the calls, so calls stay possible under it; only max_doublings limits them."""
    most = state.options.max_doublings
    if most is not None and len(calls) >= most:
        return []
    return _candidates(state, calls)


def _start_play(state: State) -> State:
    # A19: the player on the dealer's left leads the first trick.
    return replace(state, phase="play", doubling=replace(state.doubling, turn=None),
                   trick=ManillenTrick(leader=left_of(state, state.dealer), cards=()))


def _after_trump(state: State) -> State:
    cands = _can_double(state, ())
    if cands:
        return replace(state, phase="doubling", doubling=ManillenDoubling(calls=(),
                                                                          turn=cands[0]))
    return _start_play(state)


def _wrong_phase(state: State, action: Action) -> Refusal:
    return refuse("wrong_phase", details={"phase": state.phase}, action=action.type,
                  phase=state.phase)


def _not_your_turn(state: State, action: Action) -> Refusal:
    turn = to_act(state)[0]  # one seat at a time; a finished deal refused before (A31)
    return refuse("not_your_turn", details={"turn": turn, "player": action.player},
                  turn=turn, player=action.player)


def apply(state: State, action: Action) -> Transition[State]:
    if state.phase == "over":
        raise refuse("game_finished")
    tr = _HANDLERS[action.type](state, action.player, action)
    if tr.state.phase == "over":          # settled already: its result made the events
        return tr
    return Transition(settle(tr.state), tr.score_deltas, tr.events)


def _look(state: State, player: str, action: Action) -> Transition[State]:
    if state.phase != "blind":
        raise _wrong_phase(state, action)
    if player != state.dealer:
        raise _not_your_turn(state, action)
    return Transition(replace(state, phase="trump"), events=(
        Event("hand_looked_at", {"player": player}),))


def _trump_named(state: State, player: str) -> Event:
    return Event("trump_named", {"player": player, "trump": state.trump,
                                 "blind": state.blind,
                                 "multiplier": current_multiplier(state)})


def _blind(state: State, player: str, action: Action) -> Transition[State]:
    if not state.options.blind_no_trump:
        raise refuse("blind_no_trump_disabled")
    if state.phase == "trump" and player == state.dealer and not state.trump_passed:
        raise refuse("blind_no_trump_too_late")
    if state.phase != "blind":
        raise _wrong_phase(state, action)
    if player != state.dealer:
        raise _not_your_turn(state, action)
    named = replace(state, trump="no_trump", blind=True)
    return Transition(_after_trump(named), events=(_trump_named(named, player),))


def _choose(state: State, player: str, action: Action) -> Transition[State]:
    if state.phase != "trump":
        raise _wrong_phase(state, action)
    if player != chooser(state):
        raise _not_your_turn(state, action)
    # A9, A13: any suit, or no-trump; the chooser need not hold the suit.
    named = replace(state, trump=action.get("trump"))
    return Transition(_after_trump(named), events=(_trump_named(named, player),))


def _pass_trump(state: State, player: str, action: Action) -> Transition[State]:
    if not state.options.allow_pass_trump_to_partner or len(state.players) != 4:
        raise refuse("trump_pass_disabled")
    if state.phase != "trump":
        raise _wrong_phase(state, action)
    if state.trump_passed:
        raise refuse("trump_already_passed")
    if player != state.dealer:
        raise _not_your_turn(state, action)
    return Transition(replace(state, trump_passed=True), events=(
        Event("trump_choice_passed", {"player": player, "to": left_of(state, player, 2)}),))


def _report_peek(state: State, player: str, action: Action) -> Transition[State]:
    # A8, A35, M-m: a partner of the dealer looked before trumps were named: thrown in.
    if (len(state.players) not in sd.TEAMS or state.phase not in ("blind", "trump")
            or state.trump_passed or player not in dealer_partners(state)):
        raise refuse("peek_report_not_allowed")
    over = settle(replace(state, phase="over", thrown_in=True))
    return Transition(over, events=(Event("thrown_in", {
        "player": player, "next_dealer": over.next_dealer}),))


def _speak(state: State, player: str, action: Action) -> Transition[State]:
    # A37: in manille parlée a player may tell the partner about to play one of the allowed
    # signals; in manille muette (and the Belgian game) nothing may be said.
    if state.options.french_form != "parlee":
        raise refuse("speech_not_allowed")
    if state.phase != "play" or next_to_play(state) not in partners_of(state, player):
        raise refuse("speech_not_now", details={"to_act": to_act(state)}, player=player)
    return Transition(state, events=(Event("spoke", {
        "player": player, "to": next_to_play(state), "says": action.get("says")}),))


def _call(state: State, player: str, action: Action) -> Transition[State]:
    if state.phase != "doubling":
        raise _wrong_phase(state, action)
    if player != state.doubling.turn:
        raise _not_your_turn(state, action)
    due = call_due(state)
    if action.type != "pass" and action.type != due:
        side = "the non-dealing side" if due == "double" else "the dealer's side"
        raise refuse("wrong_doubling_call", details={"due": due}, side=side, call=due,
                     posted=action.type)
    if action.type != "pass" and not call_in_range(state):
        raise number_out_of_range()
    calls = state.doubling.calls
    if action.type == "pass":
        cands = _candidates(state, calls)
        later = cands[cands.index(player) + 1:]
        if later:
            return Transition(replace(state, doubling=ManillenDoubling(calls, later[0])),
                              events=(Event("passed", {"player": player}),))
        return Transition(_start_play(state), events=(
            Event("passed", {"player": player}),
            Event("doubling_ended", {"multiplier": current_multiplier(state),
                                     "calls": len(calls)}),))
    calls = calls + (player,)
    doubled = replace(state, doubling=ManillenDoubling(calls, None))
    multiplier = current_multiplier(doubled)
    event = Event("doubled", {"player": player, "call": due, "calls": len(calls),
                              "multiplier": multiplier})
    nxt = _can_double(state, calls)
    if nxt:
        return Transition(replace(doubled, doubling=ManillenDoubling(calls, nxt[0])),
                          events=(event,))
    return Transition(_start_play(doubled), events=(event, Event("doubling_ended", {
        "multiplier": multiplier, "calls": len(calls)}),))


def _play(state: State, player: str, action: Action) -> Transition[State]:
    if state.phase != "play":
        raise _wrong_phase(state, action)
    if player != next_to_play(state):
        raise _not_your_turn(state, action)
    card = action.get("card")
    cards_ok = playable(state, player)
    if card not in cards_ok:
        raise refuse("card_not_playable", details={"card": card, "playable": cards_ok},
                     player=player, card=card,
                     table=" or among their face-up table cards" if state.table else "")
    players = state.players
    n = len(players)
    trick = state.trick
    assert trick is not None, "the play phase has a trick"
    leader = players.index(trick.leader)
    trump = trump_suit(state)
    check_play(card, cards_ok, trick.cards, leader, players.index(player), n,
               players.index(state.dealer), trump, state.options)
    hands, table = state.hands, state.table
    if card in hands[player]:
        hands = {**hands, player: tuple(c for c in hands[player] if c != card)}
    else:
        # A36: a face-up table card is played; the card beneath it turns face up.
        assert table is not None, "a playable card not in hand lies face up on the table"
        table = {**table, player: tuple(p[1:] if p and p[0] == card else p
                                        for p in table[player])}
    cards = trick.cards + (card,)
    events = [Event("played", {"player": player, "cards": [card]})]
    if len(cards) < n:
        return Transition(replace(state, hands=hands, table=table,
                                  trick=ManillenTrick(trick.leader, cards)), events=tuple(events))
    # A27, A20: the trick is complete; its winner takes it and leads next.
    winner = left_of(state, trick.leader, winner_offset(cards, trump))
    won = {**state.won, winner: state.won[winner] + cards}
    new = replace(state, hands=hands, table=table, won=won,
                  trick=ManillenTrick(winner, ()),
                  last_trick=ManillenLastTrick(trick.leader, cards, winner))
    number = sum(map(len, won.values())) // n
    events.append(Event("trick_won", {"player": winner, "trick": number,
                                      "cards": list(cards), "points": total_points(cards)}))
    if number < sd.TRICKS[n]:
        return Transition(new, events=tuple(events))
    return _finish(settle(replace(new, phase="over", trick=None)), events)


def lose_deal(state: State, offender: str) -> Transition[State]:
    """A39 (referee mode): a revoke loses the deal for the offender's side. Every card not yet
    won (hands, face-up table piles, the trick on the table) goes to the other side, and the
    deal is scored as if its tricks had been played (A28–A30)."""
    players = state.players
    dealer = players.index(state.dealer)
    seat = players.index(offender)
    other = next(side for side in sd.sides(players, dealer) if seat not in side["seats"])
    taker = players[other["seats"][0]]
    rest = [c for p in players for c in state.hands[p]]
    if state.table:
        rest += [c for p in players for pile in state.table[p] for c in pile]
    if state.trick is not None:
        rest += list(state.trick.cards)
    won = {**state.won, taker: state.won[taker] + tuple(rest)}
    over = settle(replace(state, hands={p: () for p in players}, won=won, trick=None,
                          table=None if state.table is None else
                          {p: tuple(() for _ in piles) for p, piles in state.table.items()},
                          phase="over", revoked_by=offender))
    return _finish(over, [])


def _finish(state: State, events: list[Event]) -> Transition[State]:
    res, nxt = state.result, state.next_match
    assert res is not None and nxt is not None, "settle() gives a deal over its result"
    deltas = []
    # A28: only a side over the threshold scores; each of its score holders records it (A34).
    for side, seats in zip(res.sides, sd.sides(state.players,
                                                state.players.index(state.dealer))):
        if side.score > 0:
            for h in seats["holders"]:
                deltas.append(ScoreDelta(h, "points", side.score, reason(side, res),
                                         text=reason_text(side, res)))
    js = encode_state(res)
    events.append(Event("deal_finished", {
        "sides": js["sides"], "multiplier": res.multiplier, "factors": js["factors"],
        "capped": res.capped, "tie": res.tie, "scores": js["scores"],
        "next_carry": nxt.carry}))
    if res.boom:
        events.append(Event("boom_reached", js["boom"]))
    if res.match_over:
        assert res.match_winner is not None, "a match over has its winner (scoring.deal_result)"
        events.append(Event("match_finished", {
            "winner": res.match_winner, "winners": sd.holder_members(state.players, res.match_winner),
            "booms": dict(nxt.booms)}))
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
    "speak": _speak,
}


# ---------------------------------------------------------------- legal actions

def legal_actions(state: State, player: str) -> list[Action]:
    """The moves `player` may make now. The referee report `report_peek` and the spoken signal
    `speak` (parlée, A37; by the partner of the player to act) are accepted but not listed:
    they are not moves of the game."""
    if player not in to_act(state):
        return []
    if state.phase == "blind":
        return [Action("blind_no_trump", player), Action("look_at_hand", player)]
    if state.phase == "trump":
        out = [Action("choose_trump", player, {"trump": t})
               for t in ("S", "H", "D", "C", "no_trump")]
        if (state.options.allow_pass_trump_to_partner and len(state.players) == 4
                and not state.trump_passed):
            out.append(Action("pass_trump_choice", player))
        return out
    if state.phase == "doubling":
        calls = [Action(call_due(state), player)] if call_in_range(state) else []
        return [*calls, Action("pass", player)]
    players, trick = state.players, state.trick
    assert trick is not None, "the only phase left is play, which has a trick"
    legal, _ = play_rules(playable(state, player), trick.cards,
                          players.index(trick.leader), players.index(player),
                          len(players), players.index(state.dealer), trump_suit(state),
                          state.options)
    return [Action("play", player, {"card": c}) for c in legal]
