"""Scoring of a deal, the 30–30 carry, booms and the match (A10, A11, A16–A18, A28–A33, M-j–M-l)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from engine.state import MAX_SAFE_INT, replace
from engine.values import FINISHED, IN_PROGRESS

from . import sides as sd
from .result import ManillenBoom, ManillenFactors, ManillenMatch, ManillenResult, ManillenSide
from .state import ManillenOptions, ManillenState
from .tricks import total_points


def _cap(value: int) -> int:
    """Integers in a state stay in JSON's safe range: a total past it is capped there (a score
    below 0, from a referee's penalties, A41, is bounded by MAX_PENALTY_POINTS a penalty)."""
    return value if value <= MAX_SAFE_INT else MAX_SAFE_INT


def multiplier(options: ManillenOptions, trump: str | None, blind: bool, calls: int,
               carry: int) -> tuple[int, ManillenFactors, bool]:
    """(product, factors, capped). A18: every factor multiplies: no-trump ×2 (A10) or blind
    no-trump ×4 (A11, M-c), each doubling call ×2 (A14–A17), the carry of earlier ties (A29).
    The seed's 'serious players' rule (multiplier_cap) bounds the product, whatever made it;
    so does JSON's safe integer range."""
    nt = _no_trump_factor(options, trump, blind)
    factors = ManillenFactors(no_trump=nt, doubling=_cap(2 ** calls), carry=carry)
    product, capped = _capped(options, nt * (2 ** calls) * carry)
    return product, factors, capped


def _no_trump_factor(options: ManillenOptions, trump: str | None, blind: bool) -> int:
    if trump == "no_trump":
        return options.blind_no_trump_multiplier if blind else 2
    return 1


def _capped(options: ManillenOptions, product: int) -> tuple[int, bool]:
    cap = MAX_SAFE_INT if options.multiplier_cap is None else options.multiplier_cap
    if product > cap:
        return cap, True
    return product, False


def threshold(options: ManillenOptions, n: int) -> int:
    """What a side must pass to score (A28, M-k): the option, or by default half the deal's
    total -- 60 card points plus the trick bonus of every trick: 30 on the Belgian base; on the
    French base 34 (4 players), 35 (3), 38 (2). An odd total rounds down (never with 2, 3, 4
    players)."""
    if options.score_threshold is not None:
        return options.score_threshold
    return _cap(60 + options.trick_bonus_points * sd.TRICKS[n]) // 2


def current_multiplier(state: ManillenState) -> int:
    """multiplier's product alone (every action settles it): no factors struct to throw away."""
    options = state.options
    return _capped(options, _no_trump_factor(options, state.trump, state.blind)
                   * (2 ** len(state.doubling.calls)) * state.match.carry)[0]


def multiplier_in_range(state: ManillenState, calls: int) -> bool:
    """Whether the deal's multiplier with `calls` doubling calls -- every factor multiplied
    (A18), before any multiplier_cap -- stays within JSON's safe range."""
    return factors_in_range(state.options, state.trump, state.blind, state.match.carry, calls)


def factors_in_range(options: ManillenOptions, trump: str | None, blind: bool, carry: int,
                     calls: int) -> bool:
    """multiplier_in_range of a deal told by its trump, blind no-trump, carry and calls."""
    return _no_trump_factor(options, trump, blind) * carry << calls <= MAX_SAFE_INT


def settle(state: ManillenState) -> ManillenState:
    """The state with its derived fields (status, multiplier, result, next_match, next_dealer)
    computed from the rest: the phases store them, decode checks them."""
    mult = current_multiplier(state)
    if state.phase != "over":
        return replace(state, status=IN_PROGRESS, multiplier=mult, result=None,
                       next_match=None, next_dealer=None)
    result, nxt = deal_result(state)
    return replace(state, status=FINISHED, multiplier=mult, result=result, next_match=nxt,
                   next_dealer=nxt.dealer)


class Counted(NamedTuple):
    """A deal played out as its end counts it: the trump (`no_trump`, blind or not), how
    many doubling calls were made, and each side's card points and tricks, the dealer's side
    first (sides.sides' order), the left-over cards in the dealer's side's points."""
    trump: str | None
    blind: bool
    calls: int
    sides: Sequence[tuple[int, int]]


def counted_sides(state: ManillenState) -> list[tuple[int, int]]:
    """Each side's card points and tricks at the deal's end, the dealer's side first (A28;
    A34, A35: the left-over cards count for the dealer's side)."""
    players, n = state.players, len(state.players)
    out = []
    for side in sd.sides(players, players.index(state.dealer)):
        members = tuple(players[s] for s in side["seats"])
        cards = [c for p in members for c in state.won[p]]
        if members[0] == state.dealer:
            cards += state.leftover                # A34: the left-over cards count for the dealer
        out.append((total_points(cards), sum(len(state.won[p]) for p in members) // n))
    return out


def deal_result(state: ManillenState) -> tuple[ManillenResult, ManillenMatch]:
    """Everything the finished deal decided, and the match as the next deal begins. Pure
    function of the final state, so decode can recompute it and refuse an edited copy."""
    if state.thrown_in:
        return scored_deal(state.options, state.players, state.match, state.dealer, None)
    return scored_deal(state.options, state.players, state.match, state.dealer,
                       Counted(state.trump, state.blind, len(state.doubling.calls),
                               counted_sides(state)))


def scored_deal(opts: ManillenOptions, players: Sequence[str], m: ManillenMatch, dealer_id: str,
                counted: Counted | None) -> tuple[ManillenResult, ManillenMatch]:
    """What a deal dealt by `dealer_id` in match `m` decided, and the match as the next deal
    begins: thrown in (`counted` None) or played out as `counted` says (A28–A33)."""
    n = len(players)
    names = sd.holders(players)
    dealer = players.index(dealer_id)
    next_dealer = players[(dealer + sd.step(opts)) % n]     # A5; A37 to the right
    if counted is None:
        # M-m: a peek by the dealer's partner throws the hand in; nothing scores, the carry
        # stands, and the deal passes on (or is redealt by the same dealer).
        if opts.partner_peek_penalty == "redeal_same_dealer":
            next_dealer = dealer_id
        nxt = ManillenMatch(scores=dict(m.scores), booms=dict(m.booms), carry=m.carry,
                            deal_number=_cap(m.deal_number + 1), dealer=next_dealer)
        return ManillenResult(
            thrown_in=True, sides=(), multiplier=None, factors=None, capped=False,
            threshold=threshold(opts, n), tie=False,
            deltas={}, scores=dict(m.scores), boom=None, match_over=False,
            match_winner=None), nxt
    product, factors, capped = multiplier(opts, counted.trump, counted.blind, counted.calls,
                                          m.carry)
    limit = threshold(opts, n)
    bonus = opts.trick_bonus_points
    sides = sd.sides(players, dealer)
    totals = [_cap(cp + bonus * tricks) for cp, tricks in counted.sides]   # M-k
    # A29 (the seed): an even split (30-30; 34-34, 35-35, 38-38 on the French base) scores
    # nothing, whatever the threshold; otherwise a side over the threshold scores the excess.
    even = len(set(totals)) == 1
    out_sides = []
    deltas = {h: 0 for h in names}
    for side, (card_points, tricks), total in zip(sides, counted.sides, totals):
        members = tuple(players[s] for s in side["seats"])
        score = _cap((total - limit) * product) if total > limit and not even else 0   # A28
        for h in side["holders"]:
            deltas[h] = _cap(deltas[h] + score)
        out_sides.append(ManillenSide(id=side["id"], members=members, card_points=card_points,
                                      tricks=tricks, points=total, score=score))
    tie = all(s.score == 0 for s in out_sides)
    # A29, M-j: a tie scores nothing and multiplies the next deal; otherwise the carry resets.
    if tie:
        carry = _cap(m.carry * opts.tie_carry_multiplier) if opts.tie_carry_cumulative \
            else opts.tie_carry_multiplier
    else:
        carry = 1
    scores = {h: _cap(m.scores[h] + deltas[h]) for h in names}
    booms = dict(m.booms)
    boom = None
    match_over = False
    match_winner = None
    target = opts.target_points
    reached = [h for h in names if scores[h] >= target]
    if reached:
        # A31, A33: the boom goes to the side that reached the target with the higher total;
        # an exact tie at the top plays another deal.
        top = max(scores[h] for h in reached)
        leaders = [h for h in reached if scores[h] == top]
        if len(leaders) == 1:
            winner = leaders[0]
            booms[winner] = _cap(booms[winner] + 1)
            boom = ManillenBoom(winner=winner, scores=dict(scores))
            if booms[winner] >= opts.booms_to_win:     # A32, M-l
                match_over = True
                match_winner = winner
    next_scores = {h: 0 for h in names} if boom else dict(scores)
    nxt = ManillenMatch(scores=next_scores, booms=booms, carry=carry,
                        deal_number=_cap(m.deal_number + 1), dealer=next_dealer)
    return ManillenResult(
        thrown_in=False, sides=tuple(out_sides), multiplier=product, factors=factors,
        capped=capped, threshold=limit, tie=tie, deltas=deltas, scores=scores, boom=boom,
        match_over=match_over, match_winner=match_winner), nxt


def reason_text(side: ManillenSide, result: ManillenResult) -> dict[str, str]:
    """A side's score in words for people (A28 … A34), in both languages."""
    f, threshold = result.factors, result.threshold
    assert f is not None, "a side scores only in a deal played out, which has its factors"
    en = (f"{side.points} card points, {side.points - threshold} over {threshold}"
          f" × no-trump {f.no_trump} × doubling {f.doubling} × carry {f.carry}")
    ja = (f"カード点{side.points}点({threshold}点を{side.points - threshold}点超過)"
          f" × ノートランプ{f.no_trump} × ダブル{f.doubling} × 持ち越し{f.carry}")
    if result.capped:
        en += f", capped at ×{result.multiplier}"
        ja += f"、上限×{result.multiplier}"
    return {"en": f"{en} = {side.score}", "ja": f"{ja} = {side.score}点"}


def reason(side: ManillenSide, result: ManillenResult) -> str:
    f, threshold = result.factors, result.threshold
    assert f is not None, "a side scores only in a deal played out, which has its factors"
    text = (f"{side.points} points: {side.points - threshold} over {threshold}"
            f" × no-trump {f.no_trump} × doubling {f.doubling} × carry {f.carry}")
    if result.capped:
        text += f", capped at ×{result.multiplier}"
    return f"{text} = {side.score}"
