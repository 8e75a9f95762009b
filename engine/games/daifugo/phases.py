"""The deal and its phases: dealing (shuffled, from a deck, or given hands; D3, U1), the card
exchange (D11, U8), turns of play and passes (D6-D9, D25, U5), the follow-ups of a play (7-pass
D18, 10-discard D19), skips and reversals (D17, D20), finishing, foul finishes and 都落ち
(D10, D23, D24) and the end of the deal with titles and points (D-s, U15). What a play is and
may follow lives in plays.py."""
from __future__ import annotations

from itertools import combinations
from typing import AbstractSet, Any, Collection, Iterable, Sequence

import msgspec

from engine.cards import JOKERS, SUITS, deck_52, first_repeated, remove_cards
from engine.errors import InvalidDeal, InvalidOptions, shown
from engine.rng import shuffled
from engine.state import replace
from engine.values import Action, DealSetup, Event, ScoreDelta, Transition

from .events import FOUL_FINISH_TEXT
from .messages import from_play_error, refuse
from .options import DEFAULTS, play_rules, points_of
from .plays import (
    STRENGTH,
    FieldState,
    Play,
    PlayError,
    apply_play,
    check_jack_back_declaration,
    forbidden_finish,
    infer_reading,
    legal_plays,
)
from .rules import FORBIDDEN_FINISHES
from .state import (
    VERSION,
    DaifugoExchange,
    DaifugoMatch,
    DaifugoOptions,
    DaifugoOwed,
    DaifugoPlay,
    DaifugoResult,
    DaifugoState,
    last_deal,
    match_over,
)

TITLE_NAMES = {"daifugo": ("大富豪", "grand millionaire"), "fugo": ("富豪", "millionaire"),
               "heimin": ("平民", "commoner"), "hinmin": ("貧民", "poor"),
               "daihinmin": ("大貧民", "extreme poor")}
EXCHANGE_SIZES = {"2_1": (2, 1), "1_1": (1, 1), "1_0": (1, 0)}
# D9 (leader_may_pass): the UECda server (tndhms, devkit 20180826, server/src/daihu.c) counts
# every pass or refused submission since the last accepted play (number_renzoku_pass, reset
# only by a play, not by a clear) and at 20 ranks the players left at random (daihu.c 1121-1137).
PASS_LIMIT = 20


# ------------------------------------------------------------------------ helpers

def deck_of(options: Any) -> list[str]:
    """D1: 52 cards and the first `jokers` of BJ, RJ."""
    return deck_52() + list(JOKERS[:options.jokers])


# deck_of as a set, by the number of jokers (0-2, D-a): every card an action names is
# checked against it
_DECK_SETS = {n: frozenset(deck_52() + list(JOKERS[:n])) for n in range(len(JOKERS) + 1)}


def active(s: DaifugoState) -> list[str]:
    """Players still in the deal, in seat order."""
    if not s.finished and not s.fallen:
        return list(s.players)
    return still_in(s.players, s.finished, s.fallen)


def titles_for(n: int) -> list[str]:
    """D10 (seed ⑩): 大富豪, 富豪, 平民 × (n − 4), 貧民, 大貧民; with 3 players 大富豪, 平民,
    大貧民 (Decision)."""
    if n == 3:
        return ["daifugo", "heimin", "daihinmin"]
    return ["daifugo", "fugo"] + ["heimin"] * (n - 4) + ["hinmin", "daihinmin"]


def _next_in(s: DaifugoState, cur: str, among: Collection[str]) -> str:
    """The first of `among` after `cur` in the direction of play (cur itself last)."""
    players, n = s.players, len(s.players)
    i = players.index(cur)
    for k in range(1, n + 1):
        p = players[(i + s.direction * k) % n]
        if p in among:
            return p
    raise AssertionError("no candidate")


def _strength(card: str, suit_order: str) -> tuple[int, int]:
    """U8 / D-r: joker(s) first (RJ above BJ), then 2 downward; ties by the suit order."""
    if card in JOKERS:
        return (100 + JOKERS.index(card), 0)
    return (STRENGTH[card[1:]], -suit_order.index(card[0]))


def strongest(hand: Iterable[str], k: int, suit_order: str) -> tuple[str, ...]:
    return tuple(sorted(hand, key=lambda c: _strength(c, suit_order), reverse=True)[:k])


def weakest(hand: Iterable[str], k: int, suit_order: str) -> tuple[str, ...]:
    return tuple(sorted(hand, key=lambda c: _strength(c, suit_order))[:k])


def to_struct(play: Play, by: str) -> DaifugoPlay:
    return DaifugoPlay(by, play.cards, play.form, tuple(play.jokers), play.rank, play.suit,
                       play.low, play.high, play.stairs_form)


def to_play(p: DaifugoPlay) -> Play:
    return Play(tuple(p.cards), p.form, tuple(p.jokers), p.rank, p.suit, p.low, p.high,
                p.stairs_form)


def field_of(s: DaifugoState) -> FieldState:
    return FieldState(to_play(s.top) if s.top else None, s.revolution, s.jack_back,
                      frozenset(s.locked_suits) if s.locked_suits is not None else None,
                      s.sequence_lock)


# ------------------------------------------------------------------------ deal

def options_of(given: dict[str, Any]) -> Any:
    """The deal's options Struct from the resolved options (DealSetup.options)."""
    opts = {**DEFAULTS, **given}
    ff = opts.get("forbidden_finish") or []
    for i, item in enumerate(ff):
        if item not in FORBIDDEN_FINISHES:
            raise InvalidOptions(f"{shown(item)} is not one of {list(FORBIDDEN_FINISHES)}",
                                 f"options.forbidden_finish[{i}]")
    opts["forbidden_finish"] = tuple(f for f in FORBIDDEN_FINISHES if f in ff)
    try:
        return msgspec.convert(opts, DaifugoOptions)
    except msgspec.ValidationError as err:
        raise InvalidOptions(str(err), "options") from None


def parse_match(setup: DealSetup) -> DaifugoMatch:
    """The match a deal begins from: the request's `match` checked (none: a match's first
    deal), as a played deal and a reported match (reported.py) both begin."""
    players = setup.players
    m = dict(setup.match or {})
    points = dict(m.get("points") or {})
    for key in points:
        if key not in players:
            raise InvalidDeal(f"{shown(key)} in the match points is not seated", "match.points")
    order = tuple(m.get("finish_order") or ())
    if order and sorted(order) != sorted(players):
        raise InvalidDeal("the previous finishing order ranks every seated player once",
                          "match.finish_order")
    deal_no = int(m.get("deal") or (2 if order else 1))
    length = setup.options.get("match_deals")
    if length is not None and deal_no > length:  # D29: a finished match takes no more deals
        raise InvalidDeal(f"D29: the match of {length} deals is over; start a new match "
                          "without `match`", "match.deal")
    return DaifugoMatch(deal_no, {p: int(points.get(p, 0)) for p in players}, order)


def _hands(setup: DealSetup, options: Any, match: DaifugoMatch) -> dict[str, tuple[str, ...]]:
    players, n = setup.players, len(setup.players)
    deck = deck_of(options)
    if setup.hands is not None:
        seen: set[str] = set()
        for p in players:
            for i, c in enumerate(setup.hands[p]):
                if c not in deck:
                    raise InvalidDeal(f"{c} is not in this game's deck ({options.jokers} "
                                      "joker(s))", f"hands.{p}[{i}]")
                if c in seen:
                    raise InvalidDeal(f"{c} is dealt twice", f"hands.{p}[{i}]")
                seen.add(c)
        if len(seen) != len(deck):
            missing = sorted(set(deck) - seen)
            raise InvalidDeal(f"every card is dealt (D3); missing {missing}", "hands")
        lo = len(deck) // n
        for p in players:
            if not lo <= len(setup.hands[p]) <= lo + 1:
                raise InvalidDeal(f"hands are dealt as evenly as possible (D3): {lo} or "
                                  f"{lo + 1} cards each", f"hands.{p}")
        return {p: tuple(setup.hands[p]) for p in players}
    if setup.deck is not None:
        cards = list(setup.deck)
        if sorted(cards) != sorted(deck):
            raise InvalidDeal(f"an explicit deck holds the {len(deck)} cards of this game "
                              "exactly once", "deck")
    else:
        cards = shuffled(deck, setup.seed, "deal")
    order = match.finish_order
    if order and options.dealer == "daifugo":
        start = players.index(order[0])
    elif order:
        start = players.index(order[-1]) + 1
    elif setup.dealer is not None:
        start = players.index(setup.dealer) + 1
    else:
        start = 0
    hands: dict[str, list[str]] = {p: [] for p in players}
    for i, c in enumerate(cards):
        hands[players[(start + i) % n]].append(c)
    return {p: tuple(h) for p, h in hands.items()}


def _physical(setup: DealSetup, options: Any, match: DaifugoMatch,
              hands: dict[str, tuple[str, ...]]) -> tuple[str | None, tuple[str, ...] | None]:
    """A deal from the cards on the table (hands or a deck given) takes nothing from the seed, which the
    referee never sees: what the rules draw at random is the referee's, in the deal's `table`.
    The first leader (D4, D-b `random_then_daihinmin` on a match's first deal): `table.leader`,
    refused where it follows from the cards or the match. D9's pass limit (`leader_may_pass`):
    `table.pass_limit_order`, every seated player once, refused without the option.
    A deal from an explicit deck is physical too: the same `table`, the hands from the deck.
    Returns (the given leader, the pass-limit order); (None, None) for a seeded deal."""
    if not setup.physical:
        return None, None
    table = setup.table or {}
    players = setup.players
    leader = table.get("leader")
    drawn = options.first_leader == "random_then_daihinmin" and not match.finish_order
    if drawn and leader is None:
        raise InvalidDeal("the first leader of a match is drawn at random (D4, first_leader "
                          "random_then_daihinmin): give who leads as table.leader",
                          "table.leader")
    if leader is not None and not drawn:
        if match.finish_order:
            why = "the previous deal's finishing order (D4, next_leader)"
        else:
            card = "S3" if options.first_leader == "spade3_first" else "D3"
            why = f"the cards: {card}'s holder, " + next(p for p in players if card in hands[p])
        raise InvalidDeal(f"the first leader follows from {why}; give no table.leader",
                          "table.leader")
    if leader is not None and leader not in players:
        raise InvalidDeal(f"{leader!r} is not one of the players", "table.leader")
    order = table.get("pass_limit_order")
    if options.leader_may_pass and order is None:
        raise InvalidDeal("20 passes in a row end the deal and rank the players left at random "
                          "(D9, leader_may_pass): give that order as table.pass_limit_order, "
                          "every player once", "table.pass_limit_order")
    if order is not None:
        if not options.leader_may_pass:
            raise InvalidDeal("without leader_may_pass there is no pass limit (D9)",
                              "table.pass_limit_order")
        if sorted(order) != sorted(players):
            raise InvalidDeal(f"every seated player once: {list(players)}",
                              "table.pass_limit_order")
        order = tuple(order)
    return leader, order


def deal(setup: DealSetup) -> DaifugoState:
    players = tuple(setup.players)
    options = options_of(dict(setup.options))
    match = parse_match(setup)
    hands = _hands(setup, options, match)
    leader, pass_limit_order = _physical(setup, options, match, hands)
    s = DaifugoState(
        version=VERSION, options=options, players=players, seed=setup.seed, phase="exchange",
        status="in_progress", match=match, hands=hands, leader=None, turn=None, direction=1,
        top=None, pile=(), discards=(), revolution=False, jack_back=False, locked_suits=None,
        sequence_lock=False, passed=(), passed_field=(), jack_backs_used=0, finished=(),
        fallen=(), owed=None, exchange=(), result=None, next_match=None,
        passes_in_a_row=0, pass_limit_order=pass_limit_order)
    order = match.finish_order
    if options.exchange == "none" or not order:
        return _start_play(s, leader)
    big, small = EXCHANGE_SIZES[options.exchange]
    pairs = [(order[0], order[-1], big)]
    if len(players) >= 4 and small:
        pairs.append((order[1], order[-2], small))
    held = {p: list(h) for p, h in hands.items()}
    exchange = []
    for upper, lower, k in pairs:
        tribute = strongest(held[lower], k, options.tribute_suit_order)  # D11, U8: forced
        held[lower] = remove_cards(held[lower], tribute)
        held[upper] += tribute
        returned = None
        if options.exchange_top_gives == "weakest":
            returned = weakest(held[upper], k, options.tribute_suit_order)
            held[upper] = remove_cards(held[upper], returned)
            held[lower] += returned
        exchange.append(DaifugoExchange(upper, lower, k, tribute, returned))
    s = replace(s, hands={p: tuple(h) for p, h in held.items()}, exchange=tuple(exchange))
    if all(e.returned is not None for e in exchange):
        return _start_play(s)
    return s


def _deal_leader(s: DaifugoState) -> str:
    """D4 / D-b / U2: who leads this deal."""
    o = s.options
    order = s.match.finish_order

    def holder(card: str) -> str:
        return next(p for p in s.players if card in s.hands[p])

    if o.first_leader == "diamond3_every_game":
        return holder("D3")
    if order:
        return order[-1] if o.next_leader == "daihinmin" else order[0]
    if o.first_leader == "diamond3_first_then_daihinmin":
        return holder("D3")
    if o.first_leader == "spade3_first":
        return holder("S3")
    return shuffled(list(s.players), s.seed, "leader")[0]


def _start_play(s: DaifugoState, given: str | None = None) -> DaifugoState:
    """Play begins; `given`: the referee's first leader of a physical deal (D4)."""
    lead = given or _deal_leader(s)
    return replace(s, phase="play", leader=lead, turn=lead)


# ------------------------------------------------------------------------ apply

def apply(s: DaifugoState, action: Action) -> Transition[DaifugoState]:
    events: list[Event] = []
    new = _HANDLERS[action.type](s, action.player, action, events)
    deltas: tuple[ScoreDelta, ...] = ()
    if new.phase == "finished" and s.phase != "finished":
        assert new.result is not None, "a finished deal has its result (invariants.py)"
        deltas = _deltas(new)
        events.append(Event("deal_finished", {"order": list(new.result.finish_order),
                                              "titles": dict(new.result.titles)}))
        if match_over(new):  # D29
            totals = match_totals(new)
            top = max(totals.values())
            events.append(Event("match_finished", {
                "winners": [p for p in new.players if totals[p] == top],
                "totals": totals, "deals_played": new.match.deal}))
    return Transition(new, deltas, tuple(events))


def _deltas(s: DaifugoState) -> tuple[ScoreDelta, ...]:
    r = s.result
    assert r is not None, "asked only of a finished deal, which has its result"
    out = []
    for i, p in enumerate(r.finish_order):
        t = r.titles[p]
        ja, en = TITLE_NAMES[t]
        # the reason in English like every game's; the title's words in both languages
        out.append(ScoreDelta(p, "rank", r.points[p], en, {"title": t, "place": i + 1},
                              {"en": en, "ja": ja}))
    return tuple(out)


def _in_turn(s: DaifugoState, player: str) -> None:
    """Whose turn it is, checked before anything about cards."""
    if s.phase == "finished":
        raise refuse("player_out", player=player)
    if s.phase == "exchange":
        raise refuse("exchange_in_progress", waiting=", ".join(_waiting(s)))
    if s.phase in ("give", "discard"):
        o = s.owed
        assert o is not None, "the give and discard phases have what is owed (invariants.py)"
        if s.phase == "give":
            raise refuse("seven_pass_pending", player=o.player, count=o.give,
                         receiver=o.receiver)
        raise refuse("ten_discard_pending", player=o.player, count=o.discard)
    if player not in active(s):
        raise refuse("player_out", player=player)
    if player != s.turn:
        raise refuse("not_your_turn", turn=s.turn, player=player)


def _waiting(s: DaifugoState) -> list[str]:
    return [e.upper for e in s.exchange if e.returned is None]


def _check_cards(s: DaifugoState, player: str, cards: Sequence[str]) -> None:
    if not cards:
        raise refuse("cards_empty")
    if len(set(cards)) != len(cards):
        raise refuse("cards_duplicate", card=first_repeated(cards))
    deck: AbstractSet[str] | None = _DECK_SETS.get(s.options.jokers)
    if deck is None:
        deck = set(deck_of(s.options))
    for c in cards:
        if c not in deck:
            raise refuse("jokers_not_in_game")
    for c in cards:
        if c not in s.hands[player]:
            raise refuse("card_not_in_hand", player=player, card=c)


def _play(s: DaifugoState, player: str, action: Action, ev: list[Any]) -> DaifugoState:
    _in_turn(s, player)
    cards = list(action.get("cards") or ())
    _check_cards(s, player, cards)
    rules = play_rules(s.options)
    field = field_of(s)
    try:
        play = infer_reading(cards, action.get("jokers") or None, field, rules,
                             has_passed=player in s.passed_field)
    except PlayError as err:
        raise from_play_error(err) from None
    declared = bool(action.get("jack_back"))
    if declared:
        ok, code = check_jack_back_declaration(play, rules, s.jack_backs_used)
        if not ok:
            assert code is not None, "check_jack_back_declaration names its refusal"
            raise refuse(code)
    out = apply_play(field, play, rules, jack_back_declared=declared)
    hand = remove_cards(s.hands[player], play.cards)
    pile = s.pile + play.cards
    f = out.field
    s = replace(
        s, hands={**s.hands, player: tuple(hand)},
        top=to_struct(f.top, player) if f.top is not None else None,
        pile=pile if not out.clears else (), discards=s.discards + (pile if out.clears else ()),
        revolution=f.revolution, jack_back=f.jack_back,
        locked_suits=tuple(x for x in SUITS if x in f.locked_suits)
        if f.locked_suits is not None else None, sequence_lock=f.sequence_lock,
        direction=-s.direction if out.reverses else s.direction,
        jack_backs_used=s.jack_backs_used + (1 if declared else 0), passes_in_a_row=0,
        passed=() if out.clears or not s.options.pass_locks_until_clear else s.passed,
        passed_field=() if out.clears else s.passed_field)
    ev.append(Event("played", {"player": player, **play.to_action(), "form": play.form,
                             "effects": list(out.effects)}))
    cleared_at = len(ev)
    if not hand:
        s = _finish(s, player, forbidden_finish(play, field, rules), ev)
    if out.clears:
        # D9 / U5: the field cleared, before the player went out; `by` is who leads next, the
        # player, or the next still in after them when these were their last cards (known
        # once they are out: a miyako-ochi may have sent the previous daifugo down too)
        ev.insert(cleared_at, Event("field_cleared", {"reason": out.clear_reason,
                                                      "by": _leader_after(s, player)}))
    if len(active(s)) <= 1:
        return _end_deal(_clear_if_all_passed(s, player, ev))
    give = discard = 0
    receiver = None
    if hand:
        others = [p for p in active(s) if p != player]
        if out.seven_pass and others:
            receiver = _next_in(s, player, others)
            give = min(out.seven_pass, len(hand))
        discard = min(out.ten_discard, len(hand) - give)
    if give or discard:
        return replace(s, phase="give" if give else "discard", turn=player,
                       owed=DaifugoOwed(player, give, discard, receiver, out.skips))
    return _advance(s, player, out.skips, ev)


def _finish(s: DaifugoState, player: str, foul: tuple[str, ...], ev: list[Any]) -> DaifugoState:
    """D10: out of the deal; D24: a foul finish ranks last among those still open; D23: the
    first finisher other than the last 大富豪 sends them down at once."""
    if foul:
        ev.append(Event("penalized", {"player": player, "code": "foul_finish", "rule": "daifugo D24",
                                    "text": FOUL_FINISH_TEXT, "reasons": list(foul)}))
    else:
        ev.append(Event("went_out", {"player": player, "place": len(s.finished) + 1}))
    finished, fallen, fell = place_out(s.players, s.finished, s.fallen, player, bool(foul),
                                       s.match.finish_order, s.options.miyako_ochi)
    if fell is not None:
        ev.append(Event("miyako_ochi", {"player": fell}))
    return replace(s, finished=finished, fallen=fallen)


def still_in(players: Sequence[str], finished: Sequence[str], fallen: Sequence[str]) -> list[str]:
    """The players still in the deal, in seat order (active)."""
    out = set(finished) | set(fallen)
    return [p for p in players if p not in out]


def place_out(players: Sequence[str], finished: tuple[str, ...], fallen: tuple[str, ...],
              player: str, foul: bool, previous_order: Sequence[str], miyako_ochi: bool
              ) -> tuple[tuple[str, ...], tuple[str, ...], str | None]:
    """`player` goes out (D10), on a foul finish (D24) to the lowest place still open
    (`fallen` is ranked from the bottom); the first to finish other than the last 大富豪
    sends them down at once (D23, the third value: who fell, else None). A played deal
    (_finish) and a reported one (reported.py) are both placed here."""
    if foul:
        return finished, fallen + (player,), None
    finished = finished + (player,)
    prev = previous_order[0] if previous_order else None
    if len(finished) == 1 and miyako_ochi and prev is not None and prev != player \
            and prev in still_in(players, finished, fallen):
        return finished, fallen + (prev,), prev
    return finished, fallen, None


def _advance(s: DaifugoState, player: str, skips: int, ev: list[Any]) -> DaifugoState:
    """The turn moves on after `player`'s play and its follow-ups."""
    act = active(s)
    if len(act) <= 1:
        return _end_deal(s)
    s = replace(s, phase="play", owed=None)
    if s.top is None:  # cleared: the last player leads, or the next one still in (U5)
        return replace(s, turn=_leader_after(s, player))
    cur = player
    for _ in range(skips):  # D17: each skipped player counts as having passed (Decision)
        cands = [p for p in act if p != player and p not in s.passed]
        if not cands:
            break
        q = _next_in(s, cur, cands)
        ev.append(Event("skipped", {"player": q}))
        s = replace(s, passed=s.passed + (q,),
                    passed_field=s.passed_field + ((q,) if q not in s.passed_field else ()))
        cur = q
    return _move_on(s, cur, ev)


def _all_passed(s: DaifugoState) -> bool:
    """D9 / D-f / U5: has everyone who must pass for the field to clear passed?"""
    need = set(active(s))
    if not s.options.clear_requires_last_player_pass and s.top is not None:
        need.discard(s.top.by)
    return need <= set(s.passed)


def _leader_after(s: DaifugoState, last: str) -> str:
    """Who leads a field cleared after `last`'s play (D9, U5): `last`, or when they have gone
    out the next player still in (`last` again when nobody is: the deal is over)."""
    act = active(s)
    return last if last in act or not act else _next_in(s, last, act)


def _clear_by_passes(s: DaifugoState, ev: list[Any]) -> DaifugoState:
    """The field clears by passes: the last player leads, or the next one still in (U5)."""
    assert s.top is not None, "both callers clear a field that has a top play"
    lead = _leader_after(s, s.top.by)
    ev.append(Event("field_cleared", {"reason": "passes", "by": lead}))
    return replace(s, top=None, pile=(), discards=s.discards + s.pile, jack_back=False,
                   locked_suits=None, sequence_lock=False, passed=(), passed_field=(),
                   turn=lead)


def _clear_if_all_passed(s: DaifugoState, player: str, ev: list[Any]) -> DaifugoState:
    """The last move of a deal clears the field as any other move would (D9): the play that
    ends the deal leaves a field everyone else has passed on cleared, with its event (the
    UECda server clears it there too, daihu.c 1140-1155)."""
    if s.top is not None and _all_passed(s):
        return replace(_clear_by_passes(s, ev), turn=None)
    return s


def _move_on(s: DaifugoState, cur: str, ev: list[Any]) -> DaifugoState:
    """D9 / D-f / U5: clear the field when everyone who must has passed, else the next
    player (with the pass lock, the next who has not passed) is on turn. On a clear field
    (leader_may_pass) everyone having passed in turn starts it again: the pass round is
    forgotten and the player who had the lead leads again, as the UECda server does
    (daihu.c 1140-1162: its `flash` on an empty field; last_player is the lead)."""
    act = active(s)
    if s.top is None:
        if set(act) <= set(s.passed):
            # the first to pass a clear field is the one who had the lead: nobody else acts
            # on a clear field before its leader
            lead = s.passed[0] if s.passed[0] in act else _next_in(s, s.passed[0], act)
            ev.append(Event("field_cleared", {"reason": "passes", "by": lead}))
            return replace(s, passed=(), passed_field=(), turn=lead)
    elif _all_passed(s):
        return _clear_by_passes(s, ev)
    lock = s.options.pass_locks_until_clear
    cands = [p for p in act if not (lock and p in s.passed)]
    return replace(s, turn=_next_in(s, cur, cands))


def _rank_the_rest(s: DaifugoState, ev: list[Any]) -> DaifugoState:
    """D9 (leader_may_pass): PASS_LIMIT passes in a row end the deal. The UECda server ranks
    the players left at random, each next place drawn uniformly among those still unranked
    (daihu.c 1121-1137), i.e. a uniformly random order; here the order is the deal's seeded
    shuffle (engine/rng.py, stream "pass_limit") of the players left in seat order, so a
    replay ranks them the same; a physical deal takes the referee's `pass_limit_order` instead
    (the players left, in that order). They go to `fallen` (ranked from the bottom), holding their
    cards, above any foul finisher already there."""
    if s.pass_limit_order is not None:  # a physical deal: the referee's order, no seed
        rest = [p for p in s.pass_limit_order if p in active(s)]
    else:
        rest = shuffled(active(s), s.seed, "pass_limit")
    ev.append(Event("pass_limit_reached", {"passes": s.passes_in_a_row, "ranked": rest}))
    return _end_deal(replace(s, fallen=fall_at_pass_limit(s.fallen, rest)))


def fall_at_pass_limit(fallen: tuple[str, ...], rest: Sequence[str]) -> tuple[str, ...]:
    """D9: the players left at the pass limit, in the order drawn, take the places above
    those already ranked from the bottom."""
    return fallen + tuple(reversed(rest))


def _pass(s: DaifugoState, player: str, action: Action, ev: list[Any]) -> DaifugoState:
    _in_turn(s, player)
    if s.top is None and not s.options.leader_may_pass:
        raise refuse("must_lead")
    ev.append(Event("passed", {"player": player}))
    s = replace(s, passed=s.passed + ((player,) if player not in s.passed else ()),
                passed_field=s.passed_field + ((player,) if player not in s.passed_field else ()),
                passes_in_a_row=s.passes_in_a_row + 1)
    s = _move_on(s, player, ev)
    if s.options.leader_may_pass and s.passes_in_a_row >= PASS_LIMIT:
        return _rank_the_rest(replace(s, turn=None), ev)
    return s


def _follow_up(s: DaifugoState, player: str, action: Action, ev: list[Any]) -> DaifugoState:
    kind = action.type
    o = s.owed
    if s.phase == "exchange":
        raise refuse("exchange_in_progress", waiting=", ".join(_waiting(s)))
    if o is None or o.player != player or s.phase != kind:
        raise refuse("nothing_to_give" if kind == "give" else "nothing_to_discard",
                     player=player)
    count = o.give if kind == "give" else o.discard
    cards = list(action.get("cards") or ())
    if len(cards) != count:
        raise refuse("give_count" if kind == "give" else "discard_count", count=count)
    _check_cards(s, player, cards)
    hand = tuple(remove_cards(s.hands[player], cards))
    hands = {**s.hands, player: hand}
    if kind == "give":
        assert o.receiver is not None, "a 7-pass names who receives (invariants.py)"
        hands[o.receiver] = s.hands[o.receiver] + tuple(cards)
        ev.append(Event("gave", {"player": player, "to": o.receiver, "count": count}))
        s = replace(s, hands=hands, owed=replace(o, give=0))
    else:
        ev.append(Event("discarded", {"player": player, "cards": cards}))
        s = replace(s, hands=hands, discards=s.discards + tuple(cards),
                    owed=replace(o, discard=0))
    if not hand:
        s = _finish(s, player, (), ev)
        if len(active(s)) <= 1:
            return _end_deal(_clear_if_all_passed(s, player, ev))
    if kind == "give" and o.discard and hand:
        return replace(s, phase="discard", owed=replace(o, give=0,
                                                        discard=min(o.discard, len(hand))))
    return _advance(s, player, o.skips, ev)


def _exchange(s: DaifugoState, player: str, action: Action, ev: list[Any]) -> DaifugoState:
    due = next((i for i, e in enumerate(s.exchange) if e.upper == player
                and e.returned is None), None) if s.phase == "exchange" else None
    if due is None:
        raise refuse("no_exchange_due", player=player)
    e = s.exchange[due]
    cards = list(action.get("cards") or ())
    if len(cards) != e.count:
        raise refuse("exchange_count", count=e.count)
    _check_cards(s, player, cards)
    hands = {**s.hands, player: tuple(remove_cards(s.hands[player], cards)),
             e.lower: s.hands[e.lower] + tuple(cards)}
    exchange = list(s.exchange)
    exchange[due] = replace(e, returned=tuple(cards))
    ev.append(Event("exchanged", {"player": player, "to": e.lower, "count": e.count}))
    s = replace(s, hands=hands, exchange=tuple(exchange))
    return _start_play(s) if not _waiting(s) else s


def _end_deal(s: DaifugoState) -> DaifugoState:
    """D10 / D-s / U15: the finishing order, titles, points; the next deal's match."""
    result, _running, following = deal_result(s.players, s.options, s.match, s.finished,
                                               s.fallen)
    return replace(s, phase="finished", status="finished", turn=None, owed=None,
                   result=result, next_match=following)


def deal_result(players: Sequence[str], options: DaifugoOptions, match: DaifugoMatch,
                finished: tuple[str, ...], fallen: tuple[str, ...]
                ) -> tuple[DaifugoResult, dict[str, int], DaifugoMatch | None]:
    """The end of a deal from its places: the finishing order, titles, points (D10, D-s,
    U15), each seat's running points after it, and the next deal's match (None after the
    match's last deal, D29). A played deal (_end_deal) and a reported one (reported.py) are
    both scored here."""
    order = finished + tuple(still_in(players, finished, fallen)) + tuple(reversed(fallen))
    titles = dict(zip(order, titles_for(len(order))))
    table = points_of(options.rank_points)
    index = {"daifugo": 0, "fugo": 1, "heimin": 2, "hinmin": 3, "daihinmin": 4}
    points = {p: table[index[titles[p]]] for p in order}
    result = DaifugoResult(order, titles, points)
    running = {p: match.points[p] + points[p] for p in players}
    # D29: the match's last deal leaves no next deal
    following = None if last_deal(options, match) else DaifugoMatch(match.deal + 1, running,
                                                                     order)
    return result, running, following


def match_totals(s: DaifugoState) -> dict[str, int]:
    """Each seat's running points: before this deal while it is played (the referee's
    penalties, D28, included), after it once finished."""
    won = s.result.points if s.result is not None else {}
    return {p: s.match.points[p] + won.get(p, 0) for p in s.players}


_HANDLERS = {"play": _play, "pass": _pass, "give": _follow_up, "discard": _follow_up,
             "exchange": _exchange}


# ------------------------------------------------------------------------ queries

def to_act(s: DaifugoState) -> list[str]:
    if s.phase == "exchange":
        return _waiting(s)
    return [s.turn] if s.turn is not None else []


def legal_actions(s: DaifugoState, player: str) -> list[Action]:
    if s.phase == "exchange":
        e = next((e for e in s.exchange if e.upper == player and e.returned is None), None)
        if e is None:
            return []
        return [Action("exchange", player, {"cards": list(c)})
                for c in combinations(s.hands[player], e.count)]
    if player != s.turn:
        return []
    if s.phase in ("give", "discard"):
        assert s.owed is not None, "the give and discard phases have what is owed (invariants.py)"
        k = s.owed.give if s.phase == "give" else s.owed.discard
        return [Action(s.phase, player, {"cards": list(c)})
                for c in combinations(s.hands[player], k)]
    if s.phase != "play":
        return []
    rules = play_rules(s.options)
    may_pass = s.top is not None or s.options.leader_may_pass     # D9
    out = [Action("pass", player, {})] if may_pass else []
    for play in legal_plays(s.hands[player], field_of(s), rules,
                            has_passed=player in s.passed_field):
        fields = play.to_action()
        out.append(Action("play", player, fields))
        if rules.jack_back == "declared" and \
                check_jack_back_declaration(play, rules, s.jack_backs_used)[0]:
            out.append(Action("play", player, {**fields, "jack_back": True}))
    return out
