"""The deal and the round machine of Manteur (B3, B13–B18 and options B-d, B-e, B-g, B-h):
declare, accept, exchange and challenge, to the penalty limit. Rounds:

    exchange? (the opener only with B-d) -> declare -> respond --accept--> exchange -> declare
                                                       \\--challenge--> next round, or the end

Who acts is checked first, so a refusal never tells anything of the hand to another seat.
"""
from __future__ import annotations

from collections import Counter
from itertools import combinations
from typing import Any, Mapping, Sequence, cast

from engine.errors import InvalidDeal, shown
from engine.rng import shuffled
from engine.state import replace
from engine.values import Action, DealSetup, Event, ScoreDelta, Transition

from .declarations import Declaration, DeclarationError, describe, is_higher, to_json, validate
from .ladder import ladder
from .messages import WHERE, refuse
from .options import DEFAULTS, rules_of
from .state import (
    VERSION,
    ManteurCall,
    ManteurDeclaration,
    ManteurMatch,
    ManteurOptions,
    ManteurProof,
    ManteurResult,
    ManteurReveal,
    ManteurState,
    deck_of,
)
from .truth import check
from .words import challenge_text

HAND_SIZE = 5  # B3
MAX_EXCHANGE = 4  # B15


# ------------------------------------------------------------------------ seats (B-h, B-g)

def step(s: ManteurState, seat: str, eliminated: tuple[str, ...] | None = None) -> str:
    """The next player still in after `seat` in the direction of play (B13, B-h)."""
    out = set(s.eliminated if eliminated is None else eliminated)
    players, d = s.players, (1 if s.options.direction == "cw" else -1)
    i = players.index(seat)
    for k in range(1, len(players) + 1):
        p = players[(i + d * k) % len(players)]
        if p not in out:
            return p
    raise AssertionError("nobody left")


def _opening_phase(options: ManteurOptions) -> str:
    return "exchange" if options.opener_may_exchange else "declare"  # B-d


def _round_cards(options: ManteurOptions, seed: str, number: int) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """B3, B16: all the cards shuffled, five to the starter, the rest the stock."""
    deck = shuffled(deck_of(options), seed, f"deal/{number}")
    return tuple(deck[:HAND_SIZE]), tuple(deck[HAND_SIZE:])


# ------------------------------------------------------------------------ deal (B3)

def deal(setup: DealSetup) -> ManteurState:
    players = tuple(setup.players)
    options = ManteurOptions(**{**DEFAULTS, **dict(setup.options)})
    rules_of(options)  # the declaration options are consistent
    starter = setup.dealer if setup.dealer is not None else players[0]  # B3: chosen freely
    if setup.hands is not None:
        hand, stock, starter = _from_table(setup, options)
    elif setup.deck is not None:
        deck = list(setup.deck)
        if Counter(deck) != Counter(deck_of(options)):
            raise InvalidDeal(f"an explicit deck must hold the {len(deck_of(options))} cards "
                              "of the deck in use exactly once", "deck")
        hand, stock = tuple(deck[:HAND_SIZE]), tuple(deck[HAND_SIZE:])
    else:
        hand, stock = _round_cards(options, setup.seed, 1)
    penalties = {p: 0 for p in players}
    if setup.match and setup.match.get("penalties") is not None:
        for p, n in setup.match["penalties"].items():
            if p not in penalties:
                raise InvalidDeal(f"{shown(p)} is not seated", f"match.penalties.{p}")
            if not 0 <= n < options.penalty_limit:
                raise InvalidDeal(f"0 to {options.penalty_limit - 1} (penalty_limit)",
                                  f"match.penalties.{p}")
            penalties[p] = n
    return ManteurState(
        version=VERSION, options=options, players=players, seed=setup.seed,
        phase=_opening_phase(options), status="in_progress",
        match=ManteurMatch(penalties, 0), round=1, starter=starter, holder=starter,
        hand=hand, stock=stock, stock_known=setup.hands is None, discard=(), exchanged=None,
        calls=(), eliminated=(),
        reshuffles=0, last_round=None, result=None)


def _from_table(setup: DealSetup, options: ManteurOptions) -> tuple[tuple[Any, ...], tuple[Any, ...], str]:
    """B.6: a physical deal: the starter's five cards (B3), every other seat's hand empty; the
    starter follows from the cards (a `dealer` given must agree). The rest is the stock, its
    order unknown: the unseen cards in deck order. Errors name the card and where it was."""
    deck = deck_of(options)
    hands = cast(Mapping[str, tuple[str, ...]], setup.hands)  # a physical deal: hands given
    dealt = [p for p in setup.players if hands[p]]
    if len(dealt) != 1:
        raise InvalidDeal("B3: only the starter is dealt cards: one seat's five cards, every "
                          f"other hand empty (cards given to {dealt or 'nobody'})", "hands")
    starter = dealt[0]
    if setup.dealer is not None and setup.dealer != starter:
        raise InvalidDeal(f"B3: {starter} holds the dealt hand, so {starter} starts, not "
                          f"{setup.dealer}", "dealer")
    hand = tuple(hands[starter])
    if len(hand) != HAND_SIZE:
        raise InvalidDeal(f"B3: the starter is dealt {HAND_SIZE} cards, not {len(hand)}",
                          f"hands.{starter}")
    for i, c in enumerate(hand):
        path = f"hands.{starter}[{i}]"
        if c not in deck:
            raise InvalidDeal(f"{c} is not in the deck in use (B-a: {options.deck}, "
                              f"{options.jokers} joker(s))", path)
        if c in hand[:i]:
            raise InvalidDeal(f"{c} is given twice (B1: each card once)", path)
    return hand, tuple(c for c in deck if c not in hand), starter


def _unseen(s: ManteurState, stock: list[Any], card: str, before: Sequence[str],
            giving: Sequence[str] = ()) -> None:
    """B.6: `card` comes off the unknown stock: it must be one nobody has seen."""
    if card in stock:
        stock.remove(card)
        return
    if card not in deck_of(s.options):
        why = "not in the deck"
    elif card in before:
        why = "named twice"
    elif card in giving:
        why = "being given back"
    elif card in s.hand:
        why = "in the hand"  # the holder's: only the holder receives cards
    else:
        # the face-down discards (or anywhere else the seat cannot see): never where
        why = "not in the stock"
    raise refuse("stock_card_seen", card=card, where=why,
                 where_text={"en": why, "ja": WHERE[why]})


# ------------------------------------------------------------------------ apply

def to_act(s: ManteurState) -> list[str]:
    if s.phase == "finished":
        return []
    return [step(s, s.holder)] if s.phase == "respond" else [s.holder]


def apply(s: ManteurState, action: Action) -> Transition[ManteurState]:
    turn = to_act(s)[0]
    if action.player != turn:
        raise refuse("not_your_turn", turn=turn, player=action.player)  # before anything else
    if s.phase == "deal" and action.type != "deal":
        raise refuse("deal_first", holder=s.holder)  # B.6
    return _HANDLERS[action.type](s, action.player, action)


def _deal_round(s: ManteurState, seat: str, a: Action) -> Transition[ManteurState]:
    """B.6 with B16: the cards dealt to the new round's starter, from an unknown stock."""
    if s.phase != "deal":
        raise refuse("deal_not_due")
    cards = a.get("cards")
    if cards is None:
        raise refuse("stock_cards_required")
    if len(cards) != HAND_SIZE:
        raise refuse("stock_cards_count", given=len(cards), count=HAND_SIZE)
    stock = list(s.stock)
    for i, c in enumerate(cards):
        _unseen(s, stock, c, cards[:i])
    new = replace(s, hand=tuple(cards), stock=tuple(stock), phase=_opening_phase(s.options))
    return Transition(new, (), (Event("dealt", {"player": seat}),))


def _last(s: ManteurState) -> Declaration | None:
    return s.calls[-1].declaration.model() if s.calls else None


def _words(d: Declaration) -> dict[str, Any]:
    return {"en": describe(d), "ja": describe(d, "ja")}


def _winners(players: tuple[str, ...], done: ManteurResult) -> list[str]:
    """B17, B-g: who won the match: the last player left (elimination mode), else everyone
    but the one who reached the limit."""
    return [done.winner] if done.winner is not None else [p for p in players if p != done.loser]


def _declare(s: ManteurState, seat: str, a: Action) -> Transition[ManteurState]:
    if s.phase == "respond":
        raise refuse("respond_first", declarer=s.holder)
    rules = rules_of(s.options)
    data = a.get("declaration")
    try:
        d = validate(Declaration(data["type"], tuple(data["ranks"]), tuple(data["kickers"])),
                     rules, "action.declaration")
    except DeclarationError as err:
        raise err.to_refusal() from None  # B-a, B-b, B-c, B-f: not in this game
    refusal = is_higher(d, _last(s), rules)  # B8
    if refusal is not None:
        raise refusal
    exchanged = s.exchanged or 0
    call = ManteurCall(seat, ManteurDeclaration(d.type, d.ranks, d.kickers), exchanged)
    new = replace(s, calls=s.calls + (call,), phase="respond", exchanged=None)
    return Transition(new, (), (Event("declared", {
        "player": seat, "declaration": to_json(d), "text": _words(d),
        "exchanged": exchanged, "next": step(s, seat)}),))


def _accept(s: ManteurState, seat: str, a: Action) -> Transition[ManteurState]:
    if s.phase != "respond":
        raise refuse("nothing_to_respond", holder=s.holder)
    last = _last(s)
    if ladder(rules_of(s.options)).top_reached(last):
        raise refuse("nothing_higher", last=_words(cast(Declaration, last)))  # the top: a call
    new = replace(s, holder=seat, phase="exchange", exchanged=None)  # B15
    return Transition(new, (), (Event("accepted", {"player": seat, "from": s.holder}),))


def _exchange(s: ManteurState, seat: str, a: Action) -> Transition[ManteurState]:
    if s.phase == "respond":
        raise refuse("respond_first", declarer=s.holder)
    if s.phase == "declare":
        if s.exchanged is not None:
            raise refuse("already_exchanged", player=seat)
        raise refuse("opener_may_not_exchange")  # B-d
    cards = list(a.get("cards"))
    if len(cards) > MAX_EXCHANGE:
        raise refuse("exchange_too_many", count=len(cards))
    for i, c in enumerate(cards):
        if c in cards[:i]:
            raise refuse("cards_duplicate", card=c)
        if c not in s.hand:
            raise refuse("card_not_in_hand", player=seat, card=c)
    named = a.get("drawn")
    if s.stock_known and named is not None:
        raise refuse("stock_cards_not_allowed")
    if not s.stock_known:
        return _exchange_named(s, seat, cards, named)
    stock, discard, reshuffles = list(s.stock), list(s.discard), s.reshuffles
    drawn, events = [], []
    for _ in cards:
        if not stock:
            # B18: the discards (never the hand, nor the cards being given back now) are
            # shuffled into a new stock.
            stock = shuffled(discard, s.seed, f"reshuffle/{reshuffles}")
            events.append(Event("reshuffled", {"number": reshuffles, "count": len(stock)}))
            discard, reshuffles = [], reshuffles + 1
        drawn.append(stock.pop(0))
    hand = tuple(c for c in s.hand if c not in cards) + tuple(drawn)
    new = replace(s, hand=hand, stock=tuple(stock), discard=tuple(discard) + tuple(cards),
                  reshuffles=reshuffles, exchanged=len(cards), phase="declare")
    return Transition(new, (), (*events, Event("exchanged", {"player": seat,
                                                             "count": len(cards)})))


def _exchange_named(s: ManteurState, seat: str, cards: list[Any], named: Any
                    ) -> Transition[ManteurState]:
    """B15 from an unknown stock (B.6): the table names the cards received, in the order
    received; while the stock holds cards each must be one of them, and once it is empty the
    discards become the stock again (B18: not the cards being given back now), its order
    unknown too, so nothing is shuffled by a seed the table never saw."""
    if named is None:
        if cards:
            raise refuse("stock_cards_required")
        named = []
    if len(named) != len(cards):
        raise refuse("stock_cards_count", given=len(named), count=len(cards))
    stock, discard, reshuffles = list(s.stock), list(s.discard), s.reshuffles
    events = []
    order = {c: i for i, c in enumerate(deck_of(s.options))}
    for i, card in enumerate(named):
        if not stock:
            stock = sorted(discard, key=order.__getitem__)
            events.append(Event("reshuffled", {"number": reshuffles, "count": len(stock)}))
            discard, reshuffles = [], reshuffles + 1
        _unseen(s, stock, card, named[:i], cards)
    hand = tuple(c for c in s.hand if c not in cards) + tuple(named)
    new = replace(s, hand=hand, stock=tuple(stock), discard=tuple(discard) + tuple(cards),
                  reshuffles=reshuffles, exchanged=len(cards), phase="declare")
    return Transition(new, (), (*events, Event("exchanged", {"player": seat,
                                                             "count": len(cards)})))


def _challenge(s: ManteurState, seat: str, a: Action) -> Transition[ManteurState]:
    if s.phase != "respond":
        raise refuse("nothing_to_respond", holder=s.holder)
    rules = rules_of(s.options)
    call = s.calls[-1]
    d = call.declaration.model()
    proof = check(s.hand, d, rules)  # B11
    truthful = proof is not None
    loser = seat if truthful else s.holder  # B14
    match, eliminated, done = round_lost(s.players, s.options, s.match, s.eliminated, loser)
    total, penalties = match.penalties[loser], match.penalties
    shown = None if proof is None else ManteurProof(proof.cards, dict(proof.jokers))
    reveal = ManteurReveal(s.round, s.holder, seat, call.declaration, s.hand, truthful, shown,
                           loser)
    delta = ScoreDelta(loser, "penalty", 1, (
        f"B14: {seat} challenged {s.holder}'s {describe(d)}, which was "
        f"{'true' if truthful else 'a lie'}"), {"total": total},
        challenge_text(seat, s.holder, d, truthful))
    events = [Event("challenged", {
        "player": seat, "declarer": s.holder, "declaration": to_json(d), "text": _words(d),
        "hand": list(s.hand), "truthful": truthful,
        "proof": None if proof is None else proof.to_json(), "loser": loser,
        "penalties": total})]
    if eliminated != s.eliminated:
        events.append(Event("eliminated", {"player": loser}))
    if done is not None:
        new = replace(s, phase="finished", status="finished", match=match, last_round=reveal,
                      result=done, eliminated=eliminated, exchanged=None)
        events.append(Event("match_finished", {"loser": done.loser, "winner": done.winner,
                                               "winners": _winners(s.players, done),
                                          "penalties": penalties}))
        return Transition(new, (delta,), tuple(events))
    # B16, B-e: a new round, all cards shuffled, dealt to the next starter.
    if s.options.next_round_starter == "loser":
        starter = loser if loser not in eliminated else step(s, loser, eliminated)
    else:
        starter = step(s, s.starter, eliminated)
    new, started = _new_round(s, match, eliminated, starter, reveal)
    events.append(started)
    return Transition(new, (delta,), tuple(events))


def round_lost(players: Sequence[str], options: ManteurOptions, match: ManteurMatch,
               eliminated: tuple[str, ...], loser: str
               ) -> tuple[ManteurMatch, tuple[str, ...], ManteurResult | None]:
    """What losing a round costs (B14, B17, B-g): one penalty point to `loser`, one round more
    in the match; at the limit the game ends with that loser (penalty mode), or the loser is
    out and, once one player is left, that player wins (elimination). The match after the
    round, who is out, and the result once the game is over (else None)."""
    total = match.penalties[loser] + 1
    after = ManteurMatch({**match.penalties, loser: total}, match.rounds + 1)
    if total < options.penalty_limit:
        return after, eliminated, None
    if options.mode == "penalty":
        return after, eliminated, ManteurResult(loser, None)
    out = eliminated + (loser,)
    left = [p for p in players if p not in out]
    return after, out, ManteurResult(loser, left[0]) if len(left) == 1 else None


def _new_round(s: ManteurState, match: ManteurMatch, eliminated: tuple[str, ...], starter: str,
               reveal: ManteurReveal | None) -> tuple[ManteurState, Event]:
    """B16: all cards gathered and dealt to `starter` for the next round."""
    number = s.round + 1
    if s.stock_known:
        hand, stock, phase = *_round_cards(s.options, s.seed, number), _opening_phase(s.options)
    else:
        # B.6: every card is gathered and dealt again at the table; the round waits for the
        # starter's five (`deal`), since no seed may choose them.
        hand, stock, phase = (), tuple(deck_of(s.options)), "deal"
    new = replace(s, phase=phase, match=match, round=number,
                  starter=starter, holder=starter, hand=hand, stock=stock, discard=(),
                  exchanged=None, calls=(), eliminated=eliminated, last_round=reveal)
    return new, Event("round_started", {"round": number, "starter": starter})


def count_penalty(s: ManteurState, player: str, delta: int,
                  reason: str) -> Transition[ManteurState]:
    """B22: a referee's penalty points count with the challenges' (B17) at once. Reaching the
    limit ends the game (penalty mode) or eliminates the player (elimination mode: the last
    one left wins; a player holding or dealt this round's hand takes it out of play, so the
    round is void and a new one is dealt, B16). A withdrawal gives the points back; an
    eliminated player back below the limit is in again from the next turn."""
    total = s.match.penalties[player] + delta
    match = ManteurMatch({**s.match.penalties, player: total}, s.match.rounds)
    scored = (ScoreDelta(player, "penalty", delta, reason, {"total": total}),)
    limit, eliminated = s.options.penalty_limit, s.eliminated
    if total < limit:
        if player not in eliminated:
            return Transition(replace(s, match=match), scored)
        back = tuple(p for p in eliminated if p != player)
        return Transition(replace(s, match=match, eliminated=back), scored,
                          (Event("reinstated", {"player": player, "penalties": total}),))
    if player in eliminated:  # already out: the points only count
        return Transition(replace(s, match=match), scored)
    events: list[Event] = []
    done = None
    if s.options.mode == "penalty":
        done = ManteurResult(player, None)
    else:
        eliminated = eliminated + (player,)
        events.append(Event("eliminated", {"player": player}))
        left = [p for p in s.players if p not in eliminated]
        if len(left) == 1:
            done = ManteurResult(player, left[0])
    if done is not None:
        new = replace(s, phase="finished", status="finished", match=match, result=done,
                      eliminated=eliminated, exchanged=None)
        events.append(Event("match_finished", {"loser": done.loser, "winner": done.winner,
                                               "winners": _winners(s.players, done),
                                               "penalties": match.penalties}))
        return Transition(new, scored, tuple(events))
    if player in (s.holder, s.starter):
        starter = s.starter if s.starter not in eliminated else step(s, s.starter, eliminated)
        new, started = _new_round(s, match, eliminated, starter, s.last_round)
        return Transition(new, scored, (*events, started))
    return Transition(replace(s, match=match, eliminated=eliminated), scored, tuple(events))


_HANDLERS = {"declare": _declare, "accept": _accept, "exchange": _exchange,
             "challenge": _challenge, "deal": _deal_round}


# ------------------------------------------------------------------------ legal actions

def legal_actions(s: ManteurState, player: str) -> list[Action]:
    """Every accept / challenge / exchange the player may make now, and a bounded set of
    declarations: for each hand type and each first named rank (or none), the lowest one
    higher than the last declaration (ladder.py). Every other higher declaration is legal too."""
    if player not in to_act(s):
        return []
    if s.phase == "deal":
        return [Action("deal", player)]  # B.6: the table fills in the five cards
    last = _last(s)
    steps = ladder(rules_of(s.options))
    if s.phase == "respond":
        out = [] if steps.top_reached(last) else [Action("accept", player)]
        return out + [Action("challenge", player)]
    out = []
    if s.phase == "exchange":
        for n in range(MAX_EXCHANGE + 1):
            out.extend(Action("exchange", player, {"cards": list(c)})
                       for c in combinations(s.hand, n))
    out.extend(Action("declare", player, {"declaration": to_json(d)})
               for d in steps.representatives(last))
    return out
