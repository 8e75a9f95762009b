"""The deal and the turn machinery of a game of Man: the opening race (2.4), turns of play,
draw, pass and end_turn with their calls (3, 6), man and kaeshi chains (4, 5), chombo (8), and
the end of the game (7). Each action is checked here; what may be played, and who may man,
lives in legality.py."""
from __future__ import annotations

from collections import Counter
from typing import Any, Mapping, Optional, Sequence

from engine.cards import deck_52, first_repeated, rank_of, remove_cards
from engine.errors import InvalidDeal, shown
from engine.rng import shuffled
from engine.state import replace
from engine.values import Action, DealSetup, Event, Refusal, ScoreDelta, Transition

from . import legality as L
from .actions import call_words
from .messages import WHERE, is_violation, refuse
from .numbers import VALUE, hand_total, in_reach, man_numbers
from .options import DEFAULTS
from .scoring import (
    call_name,
    chain_deltas,
    chain_outcome,
    chombo_deltas,
    match_after,
    match_winner,
)
from .state import DECK_ORDER, VERSION, ManChain, ManLetGo, ManMatch, ManOptions, ManResult, ManState, make_call

HAND_SIZE = 3  # 2.1


# ------------------------------------------------------------------------ deal (2.x)

def deal(setup: DealSetup) -> ManState:
    """A new game: three cards each (2.1), the start card turned (2.3, 2.5)."""
    players = tuple(setup.players)
    n = len(players)
    options = {**DEFAULTS, **dict(setup.options)}
    physical = setup.hands is not None
    if setup.deck is not None and setup.table is not None:
        raise InvalidDeal("2.3: a deal from a deck turns its start cards from the deck, and "
                          "nothing of it is drawn at random: it takes no table", "table")
    if physical:
        hands, discard, stock = _from_table(setup, options)
    elif setup.deck is not None:
        deck = list(setup.deck)
        if Counter(deck) != Counter(deck_52()):
            raise InvalidDeal("an explicit deck must hold the 52 cards exactly once "
                              "(no jokers)", "deck")
    else:
        deck = shuffled(deck_52(), setup.seed, "deal")
    if not physical:
        # 2.1: each seat in seat order takes three cards together from the top.
        hands = {p: tuple(deck[HAND_SIZE * i:HAND_SIZE * (i + 1)])
                 for i, p in enumerate(players)}
        stock = deck[HAND_SIZE * n:]
    dealer = setup.dealer
    totals = {p: 0 for p in players}
    games_played = 0
    if setup.match:
        given = setup.match.get("totals") or {}
        for key in given:
            if key not in players:
                raise InvalidDeal(f"{shown(key)} in the match totals is not seated", "match.totals")
        totals = {p: int(given.get(p, 0)) for p in players}
        games_played = int(setup.match.get("games_played") or 0)
        named = setup.match.get("next_dealer")
        if named is not None and named not in players:
            raise InvalidDeal(f"{shown(named)} is not seated", "match.next_dealer")
        if named is not None and dealer is not None and dealer != named:
            raise InvalidDeal(f"7.1: the match names {shown(named)} to deal next", "dealer")
        dealer = dealer if named is None else named
        # 7.3: a finished match takes no more games.
        won = match_winner(totals, games_played, options["match_games"],
                           options["match_target"])
        if setup.match.get("over") or setup.match.get("winner") is not None or won:
            who = setup.match.get("winner") or won
            raise InvalidDeal(f"7.3: the match is over{f' ({who} won)' if who else ''}; "
                              "start a new match without `match`", "match.over")
    if physical and dealer is None:
        # 2.7: who deals is the table's fact, not a default the referee might not have meant.
        raise InvalidDeal("2.7: a deal from the table names its dealer (`dealer`, or the "
                          "match's `next_dealer`)", "dealer")
    dealer = dealer if dealer is not None else players[0]
    if not physical:
        discard = []  # typed list[str] by _from_table's answer above
        _turn_up(stock, discard, hands, options["start_card"] == "by_dealer",
                 options["no_opening_match"] == "flip_again")
    declared = options["calls"] == "declared"  # 2.2: then each player calls reach themselves
    state = ManState(
        version=VERSION, options=ManOptions(**options), players=players, seed=setup.seed,
        phase="opening", status="in_progress", match=ManMatch(totals, games_played, False, None),
        dealer=dealer, stock=tuple(stock), stock_known=not physical, discard=tuple(discard),
        hands=hands,
        start_cards=tuple(discard), top_by=None, top_manable=False, direction=1, turn=None,
        pending_draw=0, named_suit=None, first_turn={p: True for p in players}, drew=False,
        drawn_cards=(), drew_penalty=False,
        reach={p: in_reach(h) and not declared for p, h in hands.items()},  # 2.2
        last_call={p: "reach" if in_reach(h) and not declared else None
                   for p, h in hands.items()},
        public={p: False for p in players}, shown={p: False for p in players}, window=(),
        let_go=(), chain=None, reshuffles=0, result=None, next_dealer=None)
    return _settle(state)


def _from_table(setup: DealSetup, options: dict[str, Any]
                ) -> tuple[dict[str, tuple[str, ...]], list[str], list[str]]:
    """2.7: a deal from the cards on the table: three cards a seat (2.1) and the start cards
    as turned (2.3, 2.5), each of the 52 at most once; the rest is the stock, its order
    unknown (the unseen cards, in deck order). Errors name the card and where it was given."""
    table, given_hands = setup.table, setup.hands
    assert given_hands is not None, "called only for a physical deal: the hands are given"
    if table is None:
        raise InvalidDeal("2.7: a deal from the table gives the start card(s) too: "
                          "table.start_cards", "table")
    where: dict[str, str] = {}

    def place(card: str, path: str) -> None:
        if card not in DECK_ORDER:
            raise InvalidDeal(f"{card} is not in Man's deck (52 cards, no jokers, 1.1)", path)
        if card in where:
            raise InvalidDeal(f"{card} is given twice ({where[card]} and {path}): the deck "
                              "holds each card once (1.1)", path)
        where[card] = path

    hands = {}
    for p in setup.players:
        hand = tuple(given_hands[p])
        if len(hand) != HAND_SIZE:
            raise InvalidDeal(f"each seat is dealt {HAND_SIZE} cards (2.1); {p} has "
                              f"{len(hand)}", f"hands.{p}")
        for i, c in enumerate(hand):
            place(c, f"hands.{p}[{i}]")
        hands[p] = hand
    start = list(table["start_cards"])
    if not start:
        raise InvalidDeal("2.3: at least the start card", "table.start_cards")
    for i, c in enumerate(start):
        place(c, f"table.start_cards[{i}]")
    stock = [c for c in deck_52() if c not in where]
    by_dealer = options["start_card"] == "by_dealer"
    flip_again = options["no_opening_match"] == "flip_again"
    for i, c in enumerate(start):
        stops = _turning_stops(hands, c, by_dealer, flip_again)
        last = i == len(start) - 1
        if stops and not last:
            raise InvalidDeal(f"2.3, 2.5: turning stops at {c}; no card is turned on top of "
                              "it", f"table.start_cards[{i + 1}]")
        if not stops and last and stock:
            why = ("an effect card (2.3)" if rank_of(c) in L.EFFECT_RANKS
                   else "a card nobody can match (2.5, flip_again)")
            raise InvalidDeal(f"{c} is {why}: the dealer turns another card on top of it; "
                              "list every card turned, in order", f"table.start_cards[{i}]")
    return hands, start, stock


def _turning_stops(hands: Mapping[str, Sequence[str]], card: str, stop_at_effect: bool,
                   flip_again: bool) -> bool:
    """2.3, 2.5: whether the dealer stops turning at `card` (_turn_up's rule)."""
    if rank_of(card) in L.EFFECT_RANKS:
        return stop_at_effect
    return not flip_again or _someone_matches(hands, card)


def _someone_matches(hands: Mapping[str, Sequence[str]], top: str) -> bool:
    return any(rank_of(c) == rank_of(top) or c[0] == top[0] for h in hands.values() for c in h)


def _turn_up(stock: list[str], discard: list[str], hands: Mapping[str, Sequence[str]],
             stop_at_effect: bool, flip_again: bool) -> None:
    """2.3: turn cards until the start card is not an effect card (by_dealer: stop at each
    effect card, the dealer turns the next with `flip`); 2.5 (flip_again): and until some
    player can match it. A full pass of the stock always finds one (every suit held in a hand
    has plain cards outside the hands, or the hands hold all of them and so every rank), so
    this ends without reshuffling."""
    while stock:
        card = stock.pop(0)
        discard.append(card)
        if _turning_stops(hands, card, stop_at_effect, flip_again):
            return


def _settle(state: ManState) -> ManState:
    """2.5 dealer_left_starts: a settled start card nobody can match; the player left of the
    dealer begins."""
    if rank_of(state.top) in L.EFFECT_RANKS or _someone_matches(state.hands, state.top):
        return state
    return replace(state, phase="play", turn=_step(state, state.dealer))


def _flip(s: ManState, seat: str, a: Action) -> Transition[ManState]:
    """2.3 (start_card=by_dealer): the dealer turns the next card onto an effect start card."""
    if s.phase == "chain":
        raise refuse("man_chain_open")
    if s.phase != "opening" or rank_of(s.top) not in L.EFFECT_RANKS:
        raise refuse("flip_not_due")
    if seat != s.dealer:
        raise refuse("not_dealer", dealer=s.dealer, player=seat)
    stock, discard = list(s.stock), list(s.discard)
    named = a.get("cards")
    if s.stock_known:
        if named is not None:
            raise refuse("stock_cards_not_allowed")
        _turn_up(stock, discard, s.hands, s.options.start_card == "by_dealer",
                 s.options.no_opening_match == "flip_again")
    else:
        _turn_named(s, seat, stock, discard, named)
    turned = discard[len(s.discard):]
    new = _settle(replace(s, stock=tuple(stock), discard=tuple(discard),
                          start_cards=s.start_cards + tuple(turned)))
    return Transition(new, (), (Event("start_cards_turned", {"player": seat,
                                                             "cards": turned}),))


def _turn_named(s: ManState, seat: str, stock: list[str], discard: list[str],
                named: Sequence[str] | None) -> None:
    """3.10 with 2.3: the dealer's `flip` from an unknown stock names every card turned, up
    to the one where turning stops (_turn_up's rule), each an unseen card."""
    if not named:
        raise refuse("stock_cards_required")
    for i, card in enumerate(named):
        _take_unseen(s, seat, stock, card, named[:i])
        discard.append(card)
        stops = _turning_stops(s.hands, card, True, s.options.no_opening_match == "flip_again")
        if stops and i < len(named) - 1:
            raise refuse("flip_stops_earlier", card=card)
        if not stops and i == len(named) - 1 and stock:
            raise refuse("flip_goes_on", card=card)


def _take_unseen(s: ManState, seat: str | None, stock: list[str], card: str,
                 before: Sequence[str]) -> None:
    """3.10: `card` comes off the unknown stock: it must be one nobody has seen. The refusal
    says only what `seat` can see (its hand, the discard pile, its own action): a card in
    another hand is "not in the stock", never where, so that refusals map no hidden card."""
    if card in stock:
        stock.remove(card)
        return
    if card not in DECK_ORDER:
        why = "not in the deck"
    elif card in before:
        why = "named twice"
    elif seat in s.hands and card in s.hands[seat]:
        why = "in your hand"
    elif card in s.discard:
        why = "on the discard pile"
    else:
        why = "not in the stock"
    raise refuse("stock_card_seen", card=card, where=why,
                 where_text={"en": why, "ja": WHERE[why]})


def _deal_call(s: ManState, seat: str, a: Action) -> Transition[ManState]:
    """2.2 with calls=declared: a player whose dealt hand is in reach calls リーチ before any
    other action of theirs; checked like every call (6.2)."""
    if s.phase == "chain":
        raise refuse("man_chain_open")
    given = a.get("call")
    if L.deal_call_owed(s, seat):
        _check_call(s, "reach", given, None)
    elif s.options.calls == "declared" and s.first_turn[seat] and s.last_call[seat] is None:
        raise refuse("call_wrong", call=given, call_text=_call_text(given), expected=None,
                     expected_text={"en": "none (the hand totals over 13)",
                                    "ja": "なし(合計が13を超えています)"})
    else:
        raise refuse("call_not_due")
    ja, en = call_words("reach")
    new = replace(s, reach={**s.reach, seat: True}, last_call={**s.last_call, seat: "reach"})
    return Transition(new, (), (Event("called", {"player": seat, "code": "reach",
                                                 "text": {"en": en, "ja": ja}, "deal": True}),))


# ------------------------------------------------------------------------ apply

def apply(state: ManState, action: Action) -> Transition[ManState]:
    """Check and carry out one action; with violations=chombo a rule violation is penalised
    instead of refused."""
    player = action.player
    try:
        if action.type in _NEED_DEAL_CALL and L.deal_call_owed(state, player) and \
                (state.phase != "chain" or action.type == "man"):
            raise refuse("call_missing", expected="reach",  # 2.2 / 6.2
                         expected_text=_call_text("reach"))
        return _HANDLERS[action.type](state, player, action)
    except Refusal as refusal:
        # 8.4: in referee mode a violation is not refused but penalised (8.1).
        if state.options.violations == "chombo" and is_violation(refusal):
            return _chombo(state, player, refusal.rule, refusal.code, refusal.en,
                              {"en": refusal.en, "ja": refusal.ja})
        raise


# -- shared checks ---------------------------------------------------------------

def _own_turn(s: ManState, seat: str) -> None:
    if s.phase == "chain":
        raise refuse("man_chain_open")
    if s.phase == "opening":
        raise refuse("opening_race_play_only")
    if seat != s.turn:
        raise refuse("not_your_turn", turn=s.turn, player=seat)


def _call_for(s: ManState, seat: str, hand: Sequence[str], passed: bool) -> str:
    """6.1: the call a player must make ending a turn with `hand`."""
    was = s.reach[seat]
    if passed:
        return "pass_continue" if was else "pass"
    if not in_reach(hand):
        return "reach_cancel" if was else "hai"
    if len(hand) == 1:
        return "tanki_reach_continue" if was else "tanki_reach"
    return "reach_continue" if was else "reach"


def _check_call(s: ManState, code: str, given: str | None, suit: str | None) -> None:
    """6.2: with declared calls the call must be given and right; a call given in
    automatic mode is checked too."""
    if given is None:
        if s.options.calls == "declared":
            raise refuse("call_missing", expected=code, expected_text=_call_text(code, suit))
        return
    if given != code:
        raise refuse("call_wrong", call=given, call_text=_call_text(given), expected=code,
                     expected_text=_call_text(code, suit))


def _call_text(code: str, suit: str | None = None) -> dict[str, Any]:
    """A call in words, {en, ja} (refusal details, like the `called` event's text)."""
    ja, en = call_words(code, suit)
    return {"en": en, "ja": ja}


def _finish_turn(s: ManState, seat: str, ch: dict[str, Any], next_seat: str, given: str | None,
                 passed: bool = False, suit: str | None = None) -> tuple[ManState, Event]:
    """End `seat`'s turn: check and record the call (6.1), hand publicity (3.6), the first
    turn (3.4), and hand the turn on."""
    hands = ch.get("hands", s.hands)
    hand = hands[seat]
    code = _call_for(s, seat, hand, passed)
    _check_call(s, code, given, suit)

    ch.update(reach={**s.reach, seat: in_reach(hand)}, last_call={**s.last_call, seat: code},
              public={**s.public, seat: len(hand) >= L.BIG_HAND},
              first_turn={**s.first_turn, seat: False}, turn=next_seat, drew=False,
              drawn_cards=(), drew_penalty=False, phase="play")
    ja, en = call_words(code, suit)
    event = Event("called", {"player": seat, "code": code, "text": {"en": en, "ja": ja},
                           **({"suit": suit} if suit else {})})
    return replace(s, **ch), event


def _step(s: ManState, seat: str, steps: int = 1, direction: int | None = None) -> str:
    """The player `steps` seats on from `seat` in the direction of play."""
    players = s.players
    d = s.direction if direction is None else direction
    return players[(players.index(seat) + d * steps) % len(players)]


# -- the man window (5.3) ----------------------------------------------------------

def _let_go(s: ManState, who: Sequence[str] | None = None) -> tuple[ManLetGo, ...]:
    """The window on the top card closes for `who` (default: all it holds): with
    let_pass=blocked each of them let that number go (recorded whether or not their hand made
    it, so a record says nothing about a hand)."""
    if s.options.let_pass != "blocked" or not s.top_manable or s.top_by is None:
        return s.let_go
    number = L.top_rank_value(s)
    out = list(s.let_go)
    for p in (s.window if who is None else who):
        record = ManLetGo(p, number, s.top_by)
        if record not in out:
            out.append(record)
    return tuple(out)


def _forget(let_go: tuple[ManLetGo, ...], seat: str) -> tuple[ManLetGo, ...]:
    """5.3: `seat`'s hand changed, so every number they let go is open to them again."""
    return tuple(x for x in let_go if x.player != seat)


def _window_on_draw(s: ManState, seat: str) -> dict[str, Any]:
    """5.3: a draw (the one-card draw or a penalty draw) changes the drawer's hand, which
    reopens the top card for them; next_action: it closes for everyone else."""
    mine = s.top_manable and s.top_by != seat
    if s.options.man_window == "until_covered":
        open_ = set(s.window) | ({seat} if mine else set())
        return dict(window=tuple(p for p in s.players if p in open_),
                    let_go=_forget(s.let_go, seat))
    return dict(window=(seat,) if mine else (), let_go=_forget(_let_go(s), seat))


def _window_on_turn_end(s: ManState) -> dict[str, Any]:
    """5.3: end_turn or pass (the hand unchanged): next_action closes the window."""
    if s.options.man_window == "until_covered":
        return {}
    return dict(window=(), let_go=_let_go(s))


# -- play (2.4, 3.1, 3.2, 3.7, 3.8) ------------------------------------------------

def _play(s: ManState, seat: str, a: Action) -> Transition[ManState]:
    cards = list(a.get("cards"))
    suit = a.get("suit")
    if s.phase == "chain":
        raise refuse("man_chain_open")
    top = s.top
    top_rank = rank_of(top)
    # Whose turn it is, before what the hand holds: a refusal never tells one seat what
    # another holds.
    if s.phase == "opening":
        if top_rank in L.EFFECT_RANKS:
            raise refuse("start_card_unsettled", card=top)  # 2.6
    elif seat != s.turn:
        raise refuse("not_your_turn", turn=s.turn, player=seat)
    hand = s.hands[seat]
    if not cards:
        raise refuse("cards_empty")
    if len(set(cards)) != len(cards):
        raise refuse("cards_duplicate", card=first_repeated(cards))
    for c in cards:
        if c not in hand:
            raise refuse("card_not_in_hand", player=seat, card=c)
    # every card is a hand's, so no joker (1.1): its rank is c[1:], its suit c[0]
    rank = cards[0][1:]
    if any(c[1:] != rank for c in cards):
        raise refuse("ranks_differ")  # 3.2
    # L.matches of one rank's cards: that rank is the top card's, or a card is of the suit
    target = L.target_suit(s)
    if rank != top_rank and not any(c[0] == target for c in cards):
        raise refuse("card_does_not_match", cards=list(cards), top=top, suit=target)
    if s.pending_draw and rank not in L.ANSWER_RANKS:
        raise refuse("pending_draw_must_answer", pending=s.pending_draw)  # 3.8
    if rank == "8" and suit is None:
        raise refuse("suit_required")
    if rank != "8" and suit is not None:
        raise refuse("suit_not_allowed")

    k = len(cards) if s.options.multi_card_effects == "per_card" else 1  # 3.2
    pending, direction, skip, named = s.pending_draw, s.direction, 0, None
    if rank == "2":
        pending += 2 * k  # 3.7 / 3.8: stacks
    elif rank == "3":
        pending += 3 * k
    elif rank == "8":
        pending, named = 0, suit  # 3.7: names a suit, cancels a pending draw
    elif rank == "A":
        skip = k  # 3.8: the skip carries a pending draw on past the skipped
    elif rank == "J" and k % 2:
        direction = -direction  # 3.8: the reverse carries it back the other way
    next_seat = _step(s, seat, 1 + skip, direction)
    manable = not s.first_turn[seat]  # 5.2
    new_hand = tuple(remove_cards(hand, cards))
    # 5.3: the covered card's window closes; the player's own hand changed. The new card may
    # be manned by everyone else, except (let_pass=blocked) who let this number of this
    # player's go with the hand they still hold.
    let_go = _forget(_let_go(s), seat)
    if manable:
        number = VALUE[rank]
        # who let this number of this player's go (a ManLetGo(p, number, seat) in let_go)
        blocked = {x.player for x in let_go if x.number == number and x.by == seat}
        window = tuple(p for p in s.players if p != seat and p not in blocked)
    else:
        window = ()
    ch = dict(hands={**s.hands, seat: new_hand},
              discard=s.discard + tuple(cards), pending_draw=pending, direction=direction,
              named_suit=named, top_by=seat, top_manable=manable, let_go=let_go,
              window=window)
    played = Event("played", {"player": seat, "cards": list(cards),
                              **({"suit": suit} if suit else {}),
                              **({"opening": True} if s.phase == "opening" else {}),
                              "pending_draw": pending, "skipped": skip,
                              "direction": direction})
    new, call = _finish_turn(s, seat, ch, next_seat, a.get("call"), suit=named)
    return Transition(new, (), (played, call))


# -- drawing (3.3, 3.8, 3.9) ------------------------------------------------------

# what a draw takes: (cards, stock, discard, reshuffles, events), or None (the game ends drawn)
_Taken = Optional[tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], int, list[Event]]]


def _take(s: ManState, count: int, named: Sequence[str] | None = None,
          seat: str | None = None) -> _Taken:
    """Draw `count` cards: (cards, stock, discard, reshuffles, events), or None when the
    stock runs out under stock_exhausted=draw_game (3.9). An unknown stock (3.10) draws the
    `named` cards instead."""
    if not s.stock_known:
        return _take_named(s, count, named, seat)
    stock, discard, reshuffles = list(s.stock), s.discard, s.reshuffles
    drawn: list[str] = []
    events: list[Event] = []
    while len(drawn) < count:
        if not stock:
            if s.options.stock_exhausted == "draw_game":
                return None
            rest = discard[:-1]
            if not rest:
                break  # every other card is in a hand: nothing left to draw
            # 3.9: the discard pile except its top card becomes the new stock.
            stock = shuffled(rest, s.seed, f"reshuffle/{reshuffles}")
            discard = discard[-1:]
            events.append(Event("reshuffled", {"number": reshuffles, "count": len(stock)}))
            reshuffles += 1
        drawn.append(stock.pop(0))
    return tuple(drawn), tuple(stock), discard, reshuffles, events


def _take_named(s: ManState, count: int, named: Sequence[str] | None,
                seat: str | None) -> _Taken:
    """3.10: `_take` from an unknown stock. The table says which cards came off it, in the
    order drawn; they are checked as drawn: while the stock holds cards each must be one of
    them, and once it is empty the discard pile below its top card becomes the stock again
    (3.9), its order unknown too, so nothing is shuffled by a seed the table never saw."""
    stock, discard, reshuffles = list(s.stock), s.discard, s.reshuffles
    refill = len(discard) - 1 if s.options.stock_exhausted == "reshuffle" else 0
    if s.options.stock_exhausted == "draw_game" and len(stock) < count:
        expected = None  # 3.9: the game ends drawn before anything is drawn
    else:
        expected = min(count, len(stock) + refill)
    if named is None:
        if expected:
            raise refuse("stock_cards_required")
        named = []
    if len(named) != (expected or 0):
        raise refuse("stock_cards_count", given=len(named), count=expected or 0)
    if expected is None:
        return None
    drawn: list[str] = []
    events: list[Event] = []
    for card in named:
        if not stock:
            stock = sorted(discard[:-1], key=DECK_ORDER.__getitem__)
            discard = discard[-1:]
            events.append(Event("reshuffled", {"number": reshuffles, "count": len(stock)}))
            reshuffles += 1
        _take_unseen(s, seat, stock, card, drawn)
        drawn.append(card)
    return tuple(drawn), tuple(stock), discard, reshuffles, events


def _draw(s: ManState, seat: str, a: Action) -> Transition[ManState]:
    _own_turn(s, seat)
    if s.pending_draw:
        count = s.pending_draw  # 3.8: the whole pending amount
    else:
        if s.drew:
            raise refuse("already_drew")  # 3.3: one draw per turn
        count = 1
    if L.must_play(s, seat):
        raise refuse("must_play_big_hand")  # 3.5
    ends = bool(s.pending_draw) and s.options.penalty_draw_ends_turn
    if not ends and a.get("call") is not None:
        raise refuse("call_wrong", call=a.get("call"), call_text=_call_text(a.get("call")),
                     expected=None, expected_text={"en": "none (the turn goes on)",
                                                   "ja": "なし(手番は続きます)"})
    if s.stock_known and a.get("cards") is not None:
        raise refuse("stock_cards_not_allowed")
    taken = _take(s, count, a.get("cards"), seat)
    if taken is None:
        if a.get("call") is not None:  # 3.9: the game ends before any call is due
            raise refuse("call_wrong", call=a.get("call"), call_text=_call_text(a.get("call")),
                         expected=None, expected_text={"en": "none (the game is drawn)",
                                                       "ja": "なし(流局)"})
        return _finish(s, _result("draw"), (), (
            Event("deal_drawn", {"reason": "stock_exhausted"}),))
    drawn, stock, discard, reshuffles, events = taken
    new_hand = s.hands[seat] + drawn
    ch = dict(hands={**s.hands, seat: new_hand}, stock=stock,
              discard=discard, reshuffles=reshuffles, pending_draw=0)
    ev = Event("drew", {"player": seat, "count": len(drawn),
                        "penalty": bool(s.pending_draw)})
    # 5.3: the drawer's hand changed: they may man the top card (a plain man after a penalty
    # draw, 5.5; mekuri after the one-card draw of their turn).
    ch.update(_window_on_draw(s, seat))
    if ends:
        new, call = _finish_turn(s, seat, ch, _step(s, seat), a.get("call"))
        return Transition(new, (), (*events, ev, call))
    ch.update(drew=True, drawn_cards=s.drawn_cards + drawn, drew_penalty=bool(s.pending_draw))
    return Transition(replace(s, **ch), (), (*events, ev))


def _end_turn_action(s: ManState, seat: str, a: Action) -> Transition[ManState]:
    _own_turn(s, seat)
    if not s.drew:
        raise refuse("draw_first")  # 3.3
    if L.must_play(s, seat):
        raise refuse("must_play_big_hand")  # 3.5: including a card just drawn
    new, call = _finish_turn(s, seat, _window_on_turn_end(s), _step(s, seat), a.get("call"))
    return Transition(new, (), (call,))


def _pass(s: ManState, seat: str, a: Action) -> Transition[ManState]:
    _own_turn(s, seat)
    if not s.first_turn[seat]:
        raise refuse("pass_after_first_turn")  # 3.4
    if s.drew:
        raise refuse("pass_after_draw")
    if L.must_play(s, seat):
        raise refuse("must_play_big_hand")
    # 3.4: a pending draw passes on unchanged.
    new, call = _finish_turn(s, seat, _window_on_turn_end(s), _step(s, seat), a.get("call"),
                             passed=True)
    return Transition(new, (), (Event("passed", {"player": seat,
                                                  "pending_draw": s.pending_draw}), call))


# -- man (4, 5) -----------------------------------------------------------------

def _man(s: ManState, seat: str, a: Action) -> Transition[ManState]:
    if s.phase == "opening" or (s.phase == "play" and s.top_by is None):
        raise refuse("man_on_start_card")  # 5.2
    if s.phase == "chain":
        assert s.chain is not None, "the chain phase has its chain (invariants.py)"
        # 5.4: the card's player may counter-man (a man on a man, not on their own card)
        if seat in {c.player for c in s.chain.calls}:
            raise refuse("man_already_called")
        if seat in s.chain.declined:
            raise refuse("man_window_closed", player=seat)
    else:
        if not s.top_manable:
            raise refuse("man_on_first_turn_card")  # 5.2
        if seat == s.top_by:
            raise refuse("man_own_card")  # 5.1
        if seat not in s.window:
            raise refuse("man_window_closed", player=seat)  # 5.3
    hand = s.hands[seat]
    number = L.top_rank_value(s)
    if not in_reach(hand):
        raise refuse("man_not_in_reach", total=hand_total(hand))  # 4 / 8.3
    if number not in man_numbers(hand):
        raise refuse("man_number_not_made", number=number)  # 5.1
    kinds = L.man_kinds(s, seat)
    call = make_call(seat, kinds)
    if s.chain is None or s.phase != "chain":
        assert s.top_by is not None, "5.2 refused a man on the start card above"
        chain = ManChain(s.top, s.top_by, (call,), ())
        against = s.top_by
    else:
        against = s.chain.calls[-1].player
        chain = ManChain(s.chain.card, s.chain.against, s.chain.calls + (call,), ())
    shown = {**s.shown, seat: True}  # 5.4: the caller shows
    new = replace(s, phase="chain", chain=chain, shown=shown, window=())
    ev = Event("kaeshi_called" if "kaeshi" in kinds else "man_called", {
        "player": seat, "against": against, "card": s.top,
        "number": number, "kinds": list(kinds), "multiplier": call.multiplier,
        "name": call_name(call), "hand": list(hand)})
    if not L.chain_eligible(new):
        return _resolve(new, (ev,))
    return Transition(new, (), (ev,))


def _decline(s: ManState, seat: str, a: Action) -> Transition[ManState]:
    if s.phase != "chain":
        raise refuse("no_man_chain")
    assert s.chain is not None, "the chain phase has its chain (invariants.py)"
    if seat in {c.player for c in s.chain.calls}:
        raise refuse("not_eligible_to_decline", player=seat)
    if seat in s.chain.declined:
        raise refuse("already_declined", player=seat)
    new = replace(s, chain=replace(s.chain, declined=s.chain.declined + (seat,)))
    ev = Event("declined", {"player": seat})
    if not L.chain_eligible(new):
        return _resolve(new, (ev,))  # 5.4: everyone eligible declined
    return Transition(new, (), (ev,))


def _resolve(s: ManState, events: tuple[Any, ...]) -> Transition[ManState]:
    assert s.chain is not None, "resolved only when the open chain's last eligible player acts"
    winner, loser, stake, reason = chain_outcome(s.chain)
    deltas = chain_deltas(s.chain)
    won = Event("stake_won", {"winner": winner, "loser": loser, "stake": stake, "reason": reason})
    return _finish(s, _result("man", winner=winner, loser=loser, stake=stake, reason=reason),
                   deltas,
                   (*events, won))


# -- chombo (8) -----------------------------------------------------------------

def _chombo_action(s: ManState, seat: str, a: Action) -> Transition[ManState]:
    if s.options.violations != "chombo":
        raise refuse("chombo_not_enabled")
    offender = a.get("offender")
    if offender not in s.players:
        raise refuse("chombo_offender_unknown", offender=offender)
    reason = a.get("reason")
    # the referee's own words travel as typed, inside a sentence in each language
    return _chombo(s, offender, "man 8.1", "chombo_recorded", reason,
                   {"en": f"Chombo reported: {reason}", "ja": f"チョンボの報告:{reason}"},
                   reported_by=seat)


def _chombo(s: ManState, offender: str, rule: str, code: str, reason: str, text: dict[str, Any],
            reported_by: str | None = None) -> Transition[ManState]:
    deltas = chombo_deltas(s.players, offender, f"{rule}: {reason}", text)
    ev = Event("penalized", {"player": offender, "rule": rule, "code": code, "text": text,
                             **({"reported_by": reported_by} if reported_by else {})})
    result = _result("chombo", offender=offender, rule=rule, code=code, reason=reason)
    return _finish(s, result, deltas, (ev,))


def _result(kind: str, winner: str | None = None, loser: str | None = None, stake: int = 0,
            offender: str | None = None, rule: str | None = None, code: str | None = None,
            reason: str | None = None) -> ManResult:
    return ManResult(kind, winner, loser, stake, offender, rule, code, reason)


def _finish(s: ManState, result: ManResult, deltas: tuple[ScoreDelta, ...],
            events: tuple[Any, ...]) -> Transition[ManState]:
    """End the game: match totals updated, 7.1 the winner deals next (else the same
    dealer)."""
    if result.kind == "man":
        next_dealer = result.winner
    elif s.options.dealer_after_no_winner == "left":
        next_dealer = _step(s, s.dealer, direction=1)
    else:
        next_dealer = s.dealer
    match = match_after(s.match, deltas, s.options.match_games, s.options.match_target)  # 7.2
    new = replace(s, phase="finished", status="finished", result=result,
                  next_dealer=next_dealer, window=(), match=match)
    ended = Event("deal_finished", {"result": result.kind, "next_dealer": next_dealer,
                                "totals": dict(match.totals)})
    if match.winner is None:
        return Transition(new, deltas, (*events, ended))
    won = Event("match_finished", {"winner": match.winner, "winners": [match.winner],
                                   "totals": dict(match.totals),
                                   "games_played": match.games_played})
    return Transition(new, deltas, (*events, ended, won))


# the handler for each action type (actions.py)
_HANDLERS = {"play": _play, "draw": _draw, "pass": _pass, "end_turn": _end_turn_action,
             "man": _man, "decline": _decline, "chombo": _chombo_action, "flip": _flip,
             "call": _deal_call}
# 2.2 / 6.2: with declared calls these wait for the player's deal call (decline, a referee's
# chombo record and the call itself do not)
_NEED_DEAL_CALL = frozenset({"play", "draw", "pass", "end_turn", "man", "flip"})


# ------------------------------------------------------------------------ queries

def to_act(s: ManState) -> list[str]:
    """Who may act now: the opening racers, the players eligible in an open chain, or the
    player on turn followed by anyone who may man the top card."""
    if s.phase == "finished":
        return []
    if s.phase == "chain":
        return L.chain_eligible(s)
    # 2.2 with declared calls (none owes one otherwise)
    owed = [p for p in s.players if L.deal_call_owed(s, p)] \
        if s.options.calls == "declared" else ()
    if s.phase == "opening":
        unsettled = rank_of(s.top) in L.EFFECT_RANKS
        return [p for p in s.players if p in owed or (p == s.dealer if unsettled
                                                       else bool(_opening_plays(s, p)))]
    # A seat that owes its deal call is listed anyway, so whether it may man does not matter.
    turn = s.turn
    assert turn is not None, "the play phase has a player on turn (invariants.py)"
    manning = L.may_man_in_play(s, [p for p in s.players if p != turn and p not in owed])
    return [turn] + [p for p in s.players if p != turn and (p in owed or p in manning)]


def public_to_act(s: ManState) -> list[str]:
    """to_act as the table sees it (sealed answers): from public facts only, never a hidden
    hand. The players on turn or in a chain as to_act has them (public already); in the opening
    race every player, since who can match the start card is in the hands (2.4); in play, the
    player on turn and every player whose window on the top card is open (5.3) and whose last
    call left them in reach (6.1: the calls are public) — whether their hand makes the number
    is theirs to know, and a man that does not is refused (a chombo in referee mode, 8.3); with
    declared calls, every player who may still owe the deal's リーチ (2.2), since only their
    hand says whether they do."""
    if s.phase in ("finished", "chain"):
        return to_act(s)
    may_owe = {p for p in s.players
               if s.options.calls == "declared" and s.first_turn[p] and s.last_call[p] is None}
    if s.phase == "opening":
        unsettled = rank_of(s.top) in L.EFFECT_RANKS
        return [p for p in s.players if p in may_owe or not unsettled or p == s.dealer]
    turn = s.turn
    assert turn is not None, "the play phase has a player on turn (invariants.py)"
    return [turn] + [p for p in s.players if p != turn and (p in may_owe or (
        s.top_manable and p != s.top_by and p in s.window and s.reach[p]))]


def _opening_plays(s: ManState, seat: str) -> list[Any]:
    if rank_of(s.top) in L.EFFECT_RANKS:
        return []
    return L.play_options(s, seat)


def _with_call(s: ManState, seat: str, kind: str, fields: dict[str, Any],
               code: str | None) -> Action:
    if code is not None and s.options.calls == "declared":
        fields = {**fields, "call": code}
    return Action(kind, seat, fields)


def legal_actions(s: ManState, player: str) -> list[Action]:
    """Every action `player` may take now, each with its due call under calls=declared."""
    seat = player
    out: list[Action] = []
    if s.phase == "finished":
        return out
    if s.phase == "chain":
        if seat in L.chain_eligible(s):
            if L.may_man(s, seat):
                out.append(Action("man", player))
            out.append(Action("decline", player))
        return out
    if L.deal_call_owed(s, seat):
        return [Action("call", player, {"call": "reach"})]  # 2.2: before anything else
    if s.phase == "opening" and rank_of(s.top) in L.EFFECT_RANKS:
        return [Action("flip", player)] if seat == s.dealer else []  # 2.3 by_dealer
    if s.phase == "opening":
        plays = _opening_plays(s, seat)
    else:
        if L.may_man(s, seat):
            out.append(Action("man", player))
        if seat != s.turn:
            return out
        plays = L.play_options(s, seat)
    hand = s.hands[seat]
    for cards, suit in plays:
        after = tuple(remove_cards(hand, cards))
        fields = {"cards": list(cards), **({"suit": suit} if suit else {})}
        out.append(_with_call(s, seat, "play", fields, _call_for(s, seat, after, False)))
    if s.phase == "opening":
        return out
    forced = L.must_play(s, seat)
    if not forced and (s.pending_draw or not s.drew):
        code = None
        # 6.2: the call a turn-ending penalty draw needs depends on the cards drawn; from an
        # unknown stock (3.10) the client fills in the cards and that call.
        if s.pending_draw and s.options.penalty_draw_ends_turn and s.stock_known:
            taken = _take(s, s.pending_draw)
            if taken is not None:
                code = _call_for(s, seat, hand + taken[0], False)
        out.append(_with_call(s, seat, "draw", {}, code))
    if s.drew and not forced:
        out.append(_with_call(s, seat, "end_turn", {}, _call_for(s, seat, hand, False)))
    if s.first_turn[seat] and not s.drew and not forced:
        out.append(_with_call(s, seat, "pass", {}, _call_for(s, seat, hand, True)))
    return out
