"""The deal and its phases: (tribute → [choose] → return → [lead] →) play → finished.
Each action is checked here in the order the brief asks: phase, whose turn, then the hand."""
from __future__ import annotations

from collections import Counter
from typing import Any, Iterable, Sequence, cast

from engine.cards import JOKERS, RANKS, double_deck_108, multiset_contains, remove_cards
from engine.errors import InvalidAction, InvalidDeal, shown
from engine.referee import in_referee_mode
from engine.rng import shuffled
from engine.state import replace
from engine.values import Action, DealSetup, Event, Transition

from . import combos
from .combos import ComboError, Reading, choose_reading, level_value, reading_from_json
from .messages import refuse
from .moves import legal_plays
from .options import combo_rules
from .scoring import finish_deal, tribute_payers
from .state import (
    DECK,
    LEVELS,
    TEAMS,
    VERSION,
    GuandanLeadBan,
    GuandanMatch,
    GuandanMove,
    GuandanOptions,
    GuandanOut,
    GuandanReading,
    GuandanState,
    GuandanTribute,
    GuandanTrick,
    team_of,
)

_WILD_FREE_RANKS = frozenset(RANKS)


# ---------------------------------------------------------------- the deal

def parse_match(setup: DealSetup, players: tuple[str, ...]) -> GuandanMatch:
    """The match a deal begins from: the request's `match` checked (none: a match's first
    deal), as a played deal and a reported match (reported.py) both begin."""
    m = dict(setup.match or {})
    levels = m.get("levels") or {}
    if not isinstance(levels, dict) or not set(levels) <= set(TEAMS):
        raise InvalidDeal(f"levels are given by team id {list(TEAMS)}", "match.levels")
    parsed_levels = {}
    for team in TEAMS:
        value = levels.get(team, "2")
        text = value.strip().upper() if isinstance(value, str) else value
        text = "10" if text in ("T", 10) else text
        if not isinstance(text, str) or text not in LEVELS:
            raise InvalidDeal(f"{shown(value)} is not a level (2 … 10, J, Q, K, A)", f"match.levels.{team}")
        parsed_levels[team] = text
    failures = m.get("a_failures") or {}
    if not set(failures) <= set(TEAMS) or any(v < 0 for v in failures.values()):
        raise InvalidDeal(f"non-negative counts by team id {list(TEAMS)}", "match.a_failures")
    order = tuple(m.get("previous_order") or ())
    if not set(order) <= set(players) or len(set(order)) != len(order) or len(order) not in (0, 2, 3, 4):
        raise InvalidDeal("the previous finish: 2 (a 1-2 finish), 3 or 4 distinct seated ids",
                          "match.previous_order")
    if len(order) == 2 and team_of(players, order[0]) != team_of(players, order[1]):
        raise InvalidDeal("a finish of two players is a 1-2 finish of one team", "match.previous_order")
    if len(order) == 3:
        order += tuple(p for p in players if p not in order)
    declarer = team_of(players, order[0]) if order else None
    if m.get("declarer") is not None and m["declarer"] != declarer:
        raise InvalidDeal(f"the declarer is the team of the previous 1st player ({declarer})",
                          "match.declarer")
    payers = tribute_payers(players, order, setup.options)
    if m.get("tribute_payers") is not None and tuple(m["tribute_payers"]) != payers:
        raise InvalidDeal(f"the previous finish makes {list(payers)} pay tribute",
                          "match.tribute_payers")
    return GuandanMatch(levels=parsed_levels, declarer=declarer,
                        a_failures={t: failures.get(t, 0) for t in TEAMS},
                        previous_order=order, tribute_payers=payers,
                        deal_number=m.get("deal_number", 0))


def _hands(setup: DealSetup, match: GuandanMatch) -> tuple[dict[str, tuple[str, ...]], list[Any]]:
    """Each seat's 27 cards, and every card with its holder in the order laid out (G-5)."""
    players = setup.players
    if setup.hands is not None:
        hands = {p: tuple(setup.hands[p]) for p in players}
        seen: Counter[Any] = Counter()
        for p in players:  # G-2: each card twice (two packs), each joker twice; named at once
            for i, c in enumerate(hands[p]):
                seen[c] += 1
                if seen[c] > DECK[c]:
                    raise InvalidDeal(f"{c} is given {seen[c]} times; the two packs hold "
                                      f"{DECK[c]} (G-2)", f"hands.{p}[{i}]")
        for p in players:
            if len(hands[p]) != 27:
                raise InvalidDeal(f"each hand has 27 cards (G-3), not {len(hands[p])}",
                                  f"hands.{p}")
        missing = sorted((DECK - seen).elements())
        if missing:  # counts right and no card too often leave none missing; kept as a guard
            raise InvalidDeal(f"every card of the two packs is dealt; missing {missing}", "hands")
        return hands, [(p, c) for p in players for c in hands[p]]
    if setup.deck is not None:
        deck = list(setup.deck)
        if Counter(deck) != DECK:
            raise InvalidDeal("the deck must be the 108 cards of two packs and four jokers", "deck")
    else:
        label = "deal" if match.deal_number == 0 else f"deal/{match.deal_number}"
        deck = shuffled(double_deck_108(), setup.seed, label)
    hands = {p: tuple(deck[i::4]) for i, p in enumerate(players)}
    return hands, [(players[i % 4], c) for i, c in enumerate(deck)]


def _physical(setup: DealSetup, options: GuandanOptions, match: GuandanMatch, level: str,
              hands: dict[str, tuple[str, ...]]) -> tuple[tuple[str, str] | None, str | None]:
    """A deal from the cards on the table (hands or a deck given) takes nothing from the seed, which the
    referee never sees. The first deal's lead (G-4): `table.cut_card`, the card turned up in
    the cut, whose holder leads; `table.leader` names the holder when both copies are in
    different hands (required then; else it must be the holder). D5 `random`: with a double
    tribute, `table.tribute_to_first` is the payer whose tribute goes to the 1st player if the
    two are equal (required when the hands make them equal). Returns ((leader, cut card) on a
    first deal, the tribute draw); (None, None) for a seeded deal. A deal from an explicit
    deck is physical too: the same `table`, the hands from the deck (G-3)."""
    if not setup.physical:
        return None, None
    table = setup.table or {}
    players = setup.players
    first = not match.previous_order
    if first and "cut_card" not in table:
        raise InvalidDeal("the first deal's card turned up in the cut decides who leads (G-4): "
                          "give it as table.cut_card", "table.cut_card")
    if not first and "cut_card" in table:
        raise InvalidDeal("only the first deal of a match is cut (G-4); later the tribute "
                          "decides the first lead (T-10)", "table.cut_card")
    lead = None
    if first:
        card = table["cut_card"]
        holders = [p for p in players if card in hands[p]]
        if not holders:
            raise InvalidDeal(f"no hand holds {card}", "table.cut_card")
        leader = table.get("leader")
        if leader is not None and leader not in players:
            raise InvalidDeal(f"{leader!r} is not one of the players", "table.leader")
        if len(holders) > 1 and leader is None:
            raise InvalidDeal(f"both copies of {card} are dealt ({' and '.join(holders)}): name "
                              "the holder of the turned-up one as table.leader", "table.leader")
        if leader is not None and leader not in holders:
            raise InvalidDeal(f"{leader} does not hold {card}; its holder leads (G-4): "
                              f"{' or '.join(holders)}", "table.leader")
        lead = (leader or holders[0], card)
    elif "leader" in table:
        raise InvalidDeal("after the first deal the tribute decides the first lead (T-10)",
                          "table.leader")
    draw = table.get("tribute_to_first")
    payers = match.tribute_payers
    double = options.equal_tribute == "random" and len(payers) == 2 and not (
        options.anti_tribute == "automatic" and sum(hands[p].count("RJ") for p in payers) >= 2)
    if draw is not None and not double:
        raise InvalidDeal("only a double tribute under equal_tribute random is drawn (D5)",
                          "table.tribute_to_first")
    if draw is not None and draw not in payers:
        raise InvalidDeal(f"one of the payers {list(payers)}", "table.tribute_to_first")
    if double and draw is None:
        values = {max((card_value(c, level) for c in highest_tribute_cards(hands[p], level)),
                      default=None) for p in payers}
        if len(values) == 1:
            raise InvalidDeal("the two tributes will be equal and equal_tribute random draws "
                              "who pays the 1st player (D5, T-5): give that payer as "
                              "table.tribute_to_first", "table.tribute_to_first")
    return lead, draw


def deal(setup: DealSetup) -> GuandanState:
    players = tuple(setup.players)
    options = GuandanOptions(**setup.options)
    match = parse_match(setup, players)
    hands, laid = _hands(setup, match)
    level = "2" if match.declarer is None else match.levels[match.declarer]
    lead, draw = _physical(setup, options, match, level, hands)
    base: dict[str, Any] = dict(
        version=VERSION, players=players, options=options, seed=setup.seed, status="in_progress",
        match=match, level=level, hands=hands, cut_card=None, tributes=(),
        anti_tribute=False, turn=None, trick=None, played=(), out=(), result=None,
        next_match=None, tribute_to_first=draw, barred=())
    order = match.previous_order
    if lead is not None:  # a physical first deal: the turned-up card's holder leads (G-4)
        return GuandanState(**{**base, "phase": "play", "turn": lead[0], "cut_card": lead[1]})
    if not order:
        # G-4, G-5: a non-joker card other than the first deal's wild, picked by the seed.
        holder, card = next(laid[i] for i in shuffled(range(108), setup.seed, "cut")
                            if laid[i][1] not in JOKERS and laid[i][1] != "H2")
        return GuandanState(**{**base, "phase": "play", "turn": holder, "cut_card": card})
    payers = match.tribute_payers
    big = sum(hands[p].count("RJ") for p in payers)
    if big >= 2 and options.anti_tribute == "automatic":
        return GuandanState(**{**base, "phase": "play", "turn": order[0], "anti_tribute": True})
    tributes = tuple(GuandanTribute(p, None, None, None) for p in payers)
    return GuandanState(**{**base, "phase": "tribute", "tributes": tributes})


# ---------------------------------------------------------------- helpers

def _reading(r: Reading) -> GuandanReading:
    return GuandanReading(r.type, r.rank, r.length, tuple(r.wilds))


def _combo(r: GuandanReading) -> Reading:
    return Reading(r.type, r.rank, r.length, tuple(r.wilds))


def _read(top: GuandanMove) -> GuandanReading:
    """The reading of top_play's move: a play, never a pass, so it has one."""
    assert top.reading is not None, "top_play answers a play, never a pass"
    return top.reading


def top_play(s: GuandanState) -> GuandanMove | None:
    if s.trick is None:
        return None
    for move in reversed(s.trick.plays):
        if move.reading is not None:
            return move
    return None


def _out_players(s: GuandanState) -> set[str]:
    """Who takes no more turns: the players out (P-7) and the void hands (R-6)."""
    return {o.player for o in s.out} | set(s.void)


def _deal_over(s: GuandanState) -> bool:
    """P-8: both players of one team are out; or (R-6, a void hand ranks last) at most one
    player still plays, so every place is known."""
    outs = [o.player for o in s.out]
    teams_out = [team_of(s.players, p) for p in outs]
    if len(set(teams_out)) < len(teams_out):
        return True
    return bool(s.void) and len(s.players) - len(outs) - len(s.void) <= 1


def _finished(s: GuandanState, events: Iterable[Event],
              forfeit: str | None = None) -> Transition[GuandanState]:
    """The deal ends (P-8, R-6, R-7): the result, the next match, the level deltas."""
    done = replace(s, phase="finished", status="finished", turn=None, trick=None, barred=(),
                   lead_bans=())
    result, next_match, deltas, more = finish_deal(done, forfeit)
    done = replace(done, result=result, next_match=next_match)
    return Transition(done, deltas, tuple(events) + more)


def _next_active(s: GuandanState, after: str, out: set[str]) -> str:
    i = s.players.index(after)
    for k in range(1, 5):
        p = s.players[(i + k) % 4]
        if p not in out:
            return p
    raise AssertionError("no active player")


def partner(players: Sequence[str], p: str) -> str:
    return players[(players.index(p) + 2) % 4]


def receivers(s: GuandanState) -> tuple[str, ...]:
    order = s.match.previous_order
    return tuple(order[:2]) if len(s.tributes) == 2 else tuple(order[:1])


def card_value(card: str, level: str) -> int:
    """A card's level-order value (L-3); jokers are their own rank."""
    return level_value(card if card in JOKERS else card[1:], level)


def highest_tribute_cards(hand: Iterable[str], level: str) -> list[str]:
    """T-4: the cards of the highest level-order rank, the wilds apart (distinct cards)."""
    wild = "H" + level
    cands = [c for c in hand if c != wild]
    if not cands:
        return []
    top = max(card_value(c, level) for c in cands)
    return sorted({c for c in cands if card_value(c, level) == top})


def _natural_rank_value(card: str) -> int:
    return {"J": 11, "Q": 12, "K": 13, "A": 14}.get(card[1:], 0) or int(card[1:])


def returns_received(s: GuandanState, t: GuandanTribute, card: str) -> bool:
    """T-8, D6 return_same_card: giving back `card` would hand the receiver's tribute back. `never` (the
    default, the seed): any card identical to the one received, since the two copies cannot be
    told apart at a table; `other_copy`: only the very card, i.e. no other copy is held."""
    if card != t.card:
        return False
    assert t.receiver is not None, "a tribute is returned only once it has its receiver"
    return s.options.return_same_card == "never" or s.hands[t.receiver].count(card) == 1


def allowed_returns(s: GuandanState, t: GuandanTribute) -> list[str]:
    """T-7, T-8, D6: the distinct cards the receiver of `t` may give back."""
    assert t.receiver is not None, "a tribute is returned only once it has its receiver"
    hand = s.hands[t.receiver]
    cands = sorted({c for c in hand if not returns_received(s, t, c)})
    if s.options.return_max == "any" or not cands:
        return cands
    eligible = [c for c in cands if c not in JOKERS and _natural_rank_value(c) <= 10
                and not (s.options.return_excludes_level and c[1:] == s.level)]
    if eligible:
        return eligible
    low = min(card_value(c, s.level) for c in cands)
    return [c for c in cands if card_value(c, s.level) == low]


def _tribute_of(s: GuandanState, player: str, field: str) -> tuple[int, GuandanTribute] | None:
    for i, t in enumerate(s.tributes):
        if getattr(t, field) == player:
            return i, t
    return None


# Paying a tribute and giving a card back: the phase, the player's side of the tribute, the card
# that side records, and the refusals, in the order they are checked.
_HAND_OVERS = {
    "tribute": ("payer", "card", "no_tribute_due", "not_a_payer", "tribute_already_paid"),
    "return": ("receiver", "returned", "no_return_due", "return_wrong_player",
               "return_already_given"),
}


def _hand_over(s: GuandanState, phase: str, player: str, card: object
               ) -> tuple[int, GuandanTribute]:
    """The checks a tribute and a return both make first. Returns the tribute (index, record)
    whose card `player` owes; refuses when none is due, `player` owes none, it is already
    given, or `card` is not in the hand."""
    side, recorded, not_due, not_yours, already = _HAND_OVERS[phase]
    if s.phase != phase:
        raise refuse(not_due)
    found = _tribute_of(s, player, side)
    if found is None:
        raise refuse(not_yours, player=player)
    if getattr(found[1], recorded) is not None:
        raise refuse(already, player=player)
    if card not in s.hands[player]:
        raise refuse("card_not_in_hand", player=player, card=card)
    return found


def _handed_over(s: GuandanState, i: int, player: str, given: str,
                 **recorded: str) -> GuandanState:
    """`given` leaves `player`'s hand and is recorded on tribute `i` (card= or returned=)."""
    tributes = list(s.tributes)
    tributes[i] = replace(tributes[i], **recorded)
    return replace(s, hands={**s.hands, player: tuple(remove_cards(s.hands[player], [given]))},
                   tributes=tuple(tributes))


# ---------------------------------------------------------------- play

def _declared(action: Action) -> Reading | None:
    raw = action.get("reading")
    if raw is None:
        return None
    try:
        return reading_from_json(raw)
    except ValueError as err:
        raise InvalidAction(str(err), "action.reading") from None


def _play(s: GuandanState, action: Action) -> Transition[GuandanState]:
    declared = _declared(action)
    player = action.player
    if s.phase != "play":
        raise refuse("tribute_first", phase=s.phase)
    if s.turn != player:
        raise refuse("not_your_turn", turn=s.turn, player=player)
    if player in s.barred and s.trick is not None:
        raise refuse("barred_this_round", player=player)
    cards = tuple(action.get("cards"))
    hand = s.hands[player]
    if not multiset_contains(hand, cards):
        # the first card of the play the hand runs out of (a second copy counts), named as
        # every game's card_not_in_hand names it: one `card`
        have, need = Counter(hand), Counter[str]()
        for c in cards:
            need[c] += 1
            if need[c] > have[c]:
                raise refuse("card_not_in_hand", player=player, card=c)
    top = top_play(s)
    rules = combo_rules(s.options)
    try:
        reading = choose_reading(cards, s.level, rules, declared,
                                 None if top is None else _combo(_read(top)))
    except ComboError as err:
        code = "does_not_beat_bomb" if err.code == "does_not_beat" and err.rule == "B-2" else err.code
        details = {}
        if err.code == "ambiguous_reading":
            details["readings"] = [combos.reading_to_json(r) for r in err.readings]
        raise refuse(code, **details) from None
    bans = s.lead_bans
    if s.trick is None and bans:  # a lead: R-3, then the bans of this lead are spent
        banned = lead_banned_types(s, player)
        if reading.type in banned:
            raise refuse("lead_type_barred", player=player)
        bans = tuple(replace(b, waiting=False) for b in bans if b.waiting)
    rest = tuple(remove_cards(hand, cards))
    move = GuandanMove(player, cards, _reading(reading))
    trick = GuandanTrick((s.trick.plays if s.trick else ()) + (move,))
    events = [Event("played", {"player": player, "cards": list(cards),
                             "reading": combos.reading_to_json(reading)})]
    out = s.out
    if not rest:
        out = out + (GuandanOut(player, cards),)
        events.append(Event("went_out", {"player": player, "place": len(out)}))
    elif s.options.count_disclosure == "announce" and len(rest) <= s.options.count_threshold:
        events.append(Event("count_announced", {"player": player, "count": len(rest)}))
    s2 = replace(s, hands={**s.hands, player: rest}, trick=trick, played=s.played + cards,
                 out=out, lead_bans=bans)
    if _deal_over(s2):  # P-8: one team's two players are out
        return _finished(s2, events)
    return Transition(replace(s2, turn=_next_active(s2, player, _out_players(s2))), (),
                      tuple(events))


def _pass(s: GuandanState, action: Action) -> Transition[GuandanState]:
    player = action.player
    if s.phase != "play":
        raise refuse("tribute_first", phase=s.phase)
    if s.turn != player:
        raise refuse("not_your_turn", turn=s.turn, player=player)
    top, trick = top_play(s), s.trick
    if top is None or trick is None:  # (top_play is None whenever the trick is)
        raise refuse("lead_cannot_pass")
    s2 = replace(s, trick=GuandanTrick(trick.plays + (GuandanMove(player, (), None),)))
    events = [Event("passed", {"player": player})]
    won = _trick_won(s2, events)
    if won is not None:
        return Transition(won, (), tuple(events))
    return Transition(replace(s2, turn=_next_active(s, player, _out_players(s))),
                      (), tuple(events))


def _trick_won(s: GuandanState, events: list[Any]) -> GuandanState | None:
    """P-4: when every other active player has passed since the last play, the trick is won
    and its winner leads (the state after; None while the trick goes on)."""
    top, trick = top_play(s), s.trick
    assert top is not None and trick is not None, "asked after a pass, which follows a play"
    plays = trick.plays
    passes = len(plays) - 1 - max(i for i, m in enumerate(plays) if m.reading is not None)
    out = _out_players(s)
    others = [p for p in s.players if p not in out and p != top.player]
    if passes < len(others):
        return None
    leader = top.player
    if leader in out:  # P-5: 接风 (R-6: a void hand's lead goes the same way)
        leader = partner(s.players, leader)
        if leader in out:  # the partner's hand is void: the next player on in turn
            leader = _next_active(s, leader, out)
        events.append(Event("jiefeng", {"from": top.player, "leader": leader}))
    events.append(Event("trick_won", {"player": top.player, "leader": leader}))
    # a right to play lost in this round comes back with the next lead
    return replace(s, trick=None, turn=leader, barred=())


# ---------------------------------------------------------------- tribute

def _assign(s: GuandanState, assignment: dict[str, str], events: list[Any]) -> GuandanState:
    """Deliver the tribute cards (payer -> receiver) and open the return phase (T-11)."""
    hands = dict(s.hands)
    tributes = []
    for t in s.tributes:
        to = assignment[t.payer]
        assert t.card is not None, "assigned once every tribute is paid"
        hands[to] = hands[to] + (t.card,)
        tributes.append(replace(t, receiver=to))
        events.append(Event("tribute_received", {"payer": t.payer, "receiver": to, "card": t.card}))
    return replace(s, hands=hands, tributes=tuple(tributes), phase="return")


def _equal_order(s: GuandanState) -> tuple[str, str]:
    """D5 clockwise / random: (payer to the 1st player, payer to the 2nd)."""
    first = s.match.previous_order[0]
    payers = [t.payer for t in s.tributes]
    if s.options.equal_tribute == "clockwise":
        to_first = s.players[(s.players.index(first) + 1) % 4]  # plays right after the 1st
    elif s.tribute_to_first is not None:  # a physical deal: the referee's draw, no seed
        to_first = s.tribute_to_first
    else:
        to_first = shuffled(sorted(payers), s.seed, f"tribute/{s.match.deal_number}")[0]
    return to_first, next(p for p in payers if p != to_first)


def _tribute(s: GuandanState, action: Action) -> Transition[GuandanState]:
    player, card = action.player, action.get("card")
    i, _ = _hand_over(s, "tribute", player, card)
    if card == "H" + s.level:
        raise refuse("tribute_wild", card=card)
    highest = highest_tribute_cards(s.hands[player], s.level)
    if card not in highest:
        raise refuse("tribute_not_highest", highest=highest)
    s2 = _handed_over(s, i, player, card, card=card)
    events: list[Any] = [Event("tribute_paid", {"payer": player, "card": card})]
    if any(x.card is None for x in s2.tributes):
        return Transition(s2, (), tuple(events))
    order = s.match.previous_order
    if len(s2.tributes) == 1:
        return Transition(_assign(s2, {player: order[0]}, events), (), tuple(events))
    a, b = s2.tributes
    assert a.card is not None and b.card is not None, "both paid: checked above"
    va, vb = card_value(a.card, s.level), card_value(b.card, s.level)
    if va != vb:  # T-3: the higher to the 1st player
        hi, lo = (a, b) if va > vb else (b, a)
        return Transition(_assign(s2, {hi.payer: order[0], lo.payer: order[1]}, events),
                          (), tuple(events))
    if s.options.equal_tribute == "winners_choose":  # T-5 [seed]: the 1st player chooses
        return Transition(replace(s2, phase="choose"), (), tuple(events))
    to_first, to_second = _equal_order(s2)
    return Transition(_assign(s2, {to_first: order[0], to_second: order[1]}, events),
                      (), tuple(events))


def _take(s: GuandanState, action: Action) -> Transition[GuandanState]:
    if s.phase != "choose":
        raise refuse("no_choice_due")
    first, second = s.match.previous_order[:2]
    if action.player != first:
        raise refuse("not_your_choice", first=first)
    payer = action.get("payer")
    payers = [t.payer for t in s.tributes]
    if payer not in payers:
        raise refuse("choice_not_a_payer", payer=payer)
    other = next(p for p in payers if p != payer)
    events: list[Any] = [Event("tribute_taken", {"player": first, "payer": payer})]
    return Transition(_assign(s, {payer: first, other: second}, events), (), tuple(events))


def _first_leader(s: GuandanState) -> str | None:
    """T-10: single — the payer; double — whoever paid the 1st player (None: the payers agree)."""
    if len(s.tributes) == 1:
        return s.tributes[0].payer
    a, b = s.tributes
    assert a.card is not None and b.card is not None, "asked once the returns are in"
    equal = card_value(a.card, s.level) == card_value(b.card, s.level)
    if equal and s.options.equal_tribute == "winners_choose":
        return None
    first = s.match.previous_order[0]
    return a.payer if a.receiver == first else b.payer


def _return(s: GuandanState, action: Action) -> Transition[GuandanState]:
    player, card = action.player, action.get("card")
    i, t = _hand_over(s, "return", player, card)
    allowed = allowed_returns(s, t)
    if card not in allowed:
        if returns_received(s, t, card):
            raise refuse("return_received_card", card=card)
        if card not in JOKERS and _natural_rank_value(card) <= 10:
            raise refuse("return_level_card")
        if any(c not in JOKERS and _natural_rank_value(c) <= 10 for c in allowed):
            raise refuse("return_above_cap")
        raise refuse("return_not_lowest")
    s2 = _handed_over(s, i, player, card, returned=card)
    if any(x.returned is None for x in s2.tributes):
        return Transition(s2, (), (Event("return_given", {"player": player}),))
    hands = dict(s2.hands)
    events = []
    for x in s2.tributes:  # T-9: revealed together
        assert x.returned is not None, "every return is in: checked above"
        hands[x.payer] = hands[x.payer] + (x.returned,)
        events.append(Event("returned", {"player": x.receiver, "to": x.payer, "card": x.returned}))
    s3 = replace(s2, hands=hands)
    leader = _first_leader(s3)
    if leader is None:
        return Transition(replace(s3, phase="lead"), (), tuple(events))
    events.append(Event("first_leader_named", {"player": leader}))
    return Transition(replace(s3, phase="play", turn=leader), (), tuple(events))


def _lead(s: GuandanState, action: Action) -> Transition[GuandanState]:
    if s.phase != "lead":
        raise refuse("no_lead_choice_due")
    payers = [t.payer for t in s.tributes]
    if action.player not in payers:
        raise refuse("lead_choice_not_yours")
    leader = action.get("leader")
    if leader not in payers:
        raise refuse("leader_not_a_payer")
    return Transition(replace(s, phase="play", turn=leader), (),
                      (Event("first_leader_named", {"player": leader}),))


def _can_claim_anti(s: GuandanState, player: str) -> bool:
    """T-6, D14 optional: whether `player` may claim anti-tribute, judged from what `player`
    sees (the own hand and the tributes paid, which are shown): a payer during the tribute,
    no claim shown to fail yet, and the paying side may hold both big jokers. In a double
    tribute the partner's hand is hidden: it may hold any big joker the payer does not, unless
    the partner paid a tribute other than a big joker (T-4: then it holds none)."""
    if not (s.phase == "tribute" and s.options.anti_tribute == "optional"
            and not s.anti_tribute_failed and any(t.payer == player for t in s.tributes)):
        return False
    if s.hands[player].count("RJ") + sum(t.card == "RJ" for t in s.tributes) >= 2:
        return True
    partners = [t for t in s.tributes if t.payer != player]
    return bool(partners) and all(t.card in (None, "RJ") for t in partners)


def _anti_holds(s: GuandanState) -> bool:
    """T-6: the paying side holds both big jokers (hands and tributes paid)."""
    return sum(s.hands[t.payer].count("RJ") + (t.card == "RJ") for t in s.tributes) >= 2


def _anti(s: GuandanState, action: Action) -> Transition[GuandanState]:
    if not _can_claim_anti(s, action.player):
        raise refuse("anti_tribute_not_available")
    if not _anti_holds(s):
        # T-6, D14 optional: the claim is made at the table and the paying side shows it does
        # not hold both big jokers; the tribute goes on, and no second claim is heard
        return Transition(replace(s, anti_tribute_failed=True), (),
                          (Event("anti_tribute_failed", {"player": action.player}),))
    hands = dict(s.hands)
    for t in s.tributes:  # a tribute already paid goes back to its payer
        if t.card is not None:
            hands[t.payer] = hands[t.payer] + (t.card,)
    first = s.match.previous_order[0]
    return Transition(replace(s, hands=hands, tributes=(), anti_tribute=True, phase="play",
                              turn=first), (),
                      (Event("anti_tribute_claimed", {"player": action.player, "leader": first}),))


# ---------------------------------------------------------------- who acts, what is legal

def to_act(s: GuandanState) -> list[str]:
    if s.phase == "play":
        assert s.turn is not None, "the play phase has a player on turn (invariants.py)"
        return [s.turn]
    if s.phase == "tribute":
        return [t.payer for t in s.tributes if t.card is None]
    if s.phase == "choose":
        return [s.match.previous_order[0]]
    if s.phase == "return":
        # every tribute has its receiver once the return phase opens (_assign)
        return cast("list[str]", [t.receiver for t in s.tributes if t.returned is None])
    if s.phase == "lead":
        return [t.payer for t in s.tributes]
    return []


def play_actions(s: GuandanState, player: str) -> list[Action]:
    """Every legal play, each (multiset, type, rank, length) once and each with its reading
    (W-11: posted back as listed, it is the play meant, whether or not the same cards read
    otherwise too); pass when following."""
    out = _plays(s, player, s.hands[player])
    top = top_play(s)
    if top is not None:
        if player in s.barred:  # only a pass until the round ends
            return [Action("pass", player, {})]
        out.append(Action("pass", player, {}))
    return out


def play_actions_of(s: GuandanState, player: str, cards: tuple[str, ...]) -> list[Action]:
    """The legal plays of exactly `cards` (a multiset, canonical), as `play_actions` lists
    them, in its order: the plays of the picked cards as if they were the whole hand, those
    of all of them kept. The enumerator builds each play from the per-rank counts of the
    cards it uses, never from the rest of the hand, so a play reads and is written the same
    either way; only the types of that many cards are generated (tests/guandan/
    test_enumeration.py and tests/engine/test_legal_action_filters.py compare the two)."""
    if s.phase != "play" or player not in to_act(s) or not cards or \
            len(cards) > combos.MAX_PLAY or not multiset_contains(s.hands[player], cards):
        return []
    if player in s.barred and top_play(s) is not None:  # only a pass
        return []
    return _plays(s, player, cards, size=len(cards))


def _plays(s: GuandanState, player: str, cards: Sequence[str],
           size: int = 0) -> list[Action]:
    """The plays among `cards` (the whole hand; or, with `size`, the picked cards, of which
    the plays of all of them), each with its reading."""
    top = top_play(s)
    rules = combo_rules(s.options)
    plays = legal_plays(cards, s.level, rules, None if top is None else _combo(_read(top)),
                        size)
    if top is None and s.lead_bans:  # a lead of a type the partner's offence barred
        # (what else the hand could lead decides R-3: the whole hand's plays)
        banned = lead_banned_types(s, player, None if size else plays)
        plays = [p for p in plays if p[1].type not in banned]
    to_json = combos.reading_to_json
    # (the reading object rides along as the action's note: its words, Game.action_text)
    return [Action("play", player, {"cards": list(c), "reading": to_json(r)}, note=r)
            for c, r in plays]


def bar_for_round(s: GuandanState, action: Action) -> Transition[GuandanState]:
    """R-2 (referee mode, 掼蛋竞赛规则 越序): an out-of-turn play is taken back and its player
    may not play again in this round; after an out-of-turn pass neither the player nor the
    partner may follow. The right comes back with the next lead (`_pass`). R-3: after an
    out-of-turn play its player's partner, if they lead the next round, may not lead the
    play's combination type."""
    seats = [action.player]
    if action.type == "pass":
        seats.append(partner(s.players, action.player))
    if s.phase != "play" or action.player in _out_players(s):
        return Transition(s)  # out of turn before play (tribute phases): only taken back
    s2 = replace(s, barred=s.barred + tuple(p for p in seats if p not in s.barred))
    types = _played_types(s, action) if action.type == "play" else ()
    mate = partner(s.players, action.player)
    if not types or mate in _out_players(s):
        return Transition(s2)
    bans = [b for b in s2.lead_bans if not (b.player == mate and b.offender == action.player)]
    old = next((b for b in s2.lead_bans if b.player == mate and b.offender == action.player
                and b.waiting == (s.trick is None)), None)
    merged = tuple(t for t in TYPES_ORDER if t in types or (old is not None and t in old.types))
    ban = GuandanLeadBan(mate, action.player, merged, waiting=s.trick is None)
    return Transition(replace(s2, lead_bans=tuple(bans) + (ban,)), (), (Event(
        "lead_type_barred", {"player": mate, "offender": action.player,
                             "types": list(merged)}),))


TYPES_ORDER = combos.TYPES


def _played_types(s: GuandanState, action: Action) -> tuple[str, ...]:
    """The combination types an out-of-turn play was made as (R-3): the declared reading's,
    else every reading's of its cards; none when they form no combination."""
    try:
        found = combos.readings(action.get("cards"), s.level, combo_rules(s.options))
        declared = _declared(action)
    except (ValueError, InvalidAction):
        return ()
    if declared is not None:
        found = [r for r in found if r == declared] or found
    return tuple(t for t in TYPES_ORDER if any(r.type == t for r in found))


def lead_banned_types(s: GuandanState, player: str,
                      plays: list[tuple[tuple[str, ...], Reading]] | None = None) -> frozenset[str]:
    """R-3: the types `player` may not lead now (bans not waiting for a later lead). A hand
    with no lead of another type leads freely: a ban never leaves a player without a play."""
    banned = frozenset(t for b in s.lead_bans if b.player == player and not b.waiting
                       for t in b.types)
    if not banned:
        return banned
    if plays is None:
        plays = legal_plays(s.hands[player], s.level, combo_rules(s.options), None)
    if all(r.type in banned for _cards, r in plays):
        return frozenset()
    return banned


# ---------------------------------------------------------------- the referee's acts

def _referee_act_allowed(s: GuandanState) -> None:
    if not in_referee_mode(s):
        raise refuse("referee_mode_required")


def _void_hand(s: GuandanState, action: Action) -> Transition[GuandanState]:
    """R-6 (贡错牌 found after play began): the payer's hand is void, put face down; the
    payer takes no more turns and ranks last (下游)."""
    _referee_act_allowed(s)
    player = action.player
    if s.phase != "play" or player not in {t.payer for t in s.tributes} \
            or player in _out_players(s):
        raise refuse("void_hand_not_allowed", player=player)
    s2 = replace(s, void=s.void + (player,), barred=tuple(p for p in s.barred if p != player),
                 lead_bans=tuple(b for b in s.lead_bans if b.player != player))
    said = {"reason": action.get("reason")} if action.get("reason") else {}
    events: list[Any] = [Event("hand_voided", {"player": player, **said})]
    if _deal_over(s2):
        return _finished(s2, events)
    out = _out_players(s2)
    if s2.turn in out:
        s2 = replace(s2, turn=_next_active(s2, s2.turn, out))
    if s2.trick is not None:
        won = _trick_won(s2, events)
        if won is not None:
            s2 = won
    return Transition(s2, (), tuple(events))


def _forfeit(s: GuandanState, action: Action) -> Transition[GuandanState]:
    """R-7 (明显传递信号, grave and repeated): the offender's team loses the deal, scored as
    the opponents' 1st-and-2nd finish."""
    _referee_act_allowed(s)
    if s.phase != "play":
        raise refuse("forfeit_not_allowed", phase=s.phase)
    said = {"reason": action.get("reason")} if action.get("reason") else {}
    team = team_of(s.players, action.player)
    return _finished(s, [Event("deal_forfeited", {"player": action.player, "team": team,
                                                  **said})], forfeit=action.player)


def referee_acts(s: GuandanState) -> list[Action]:
    """The referee's own acts now (referee mode, during play): a void hand for each payer
    still playing (R-6), a forfeit for each seat (R-7)."""
    if s.phase != "play" or not in_referee_mode(s):
        return []
    out = _out_players(s)
    payers = {t.payer for t in s.tributes}
    return [Action("void_hand", p, {}) for p in s.players if p in payers and p not in out] + \
        [Action("forfeit", p, {}) for p in s.players]


def legal_actions(s: GuandanState, player: str) -> list[Action]:
    if player not in to_act(s):
        return []
    if s.phase == "play":
        return play_actions(s, player)
    if s.phase == "tribute":
        out = [Action("tribute", player, {"card": c})
               for c in highest_tribute_cards(s.hands[player], s.level)]
        if _can_claim_anti(s, player):
            out.append(Action("anti_tribute", player, {}))
        return out
    if s.phase == "choose":
        return [Action("take", player, {"payer": t.payer}) for t in s.tributes]
    if s.phase == "return":
        found = _tribute_of(s, player, "receiver")
        assert found is not None, "to_act listed `player` as a receiver"
        _, t = found
        return [Action("return", player, {"card": c}) for c in allowed_returns(s, t)]
    if s.phase == "lead":
        return [Action("lead", player, {"leader": t.payer}) for t in s.tributes]
    return []


HANDLERS = {"play": _play, "pass": _pass, "tribute": _tribute, "take": _take, "return": _return,
            "lead": _lead, "anti_tribute": _anti, "void_hand": _void_hand, "forfeit": _forfeit}


def apply(s: GuandanState, action: Action) -> Transition[GuandanState]:
    return HANDLERS[action.type](s, action)
