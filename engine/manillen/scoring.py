"""Scoring of a deal, the 30–30 carry, booms and the match (A10, A11, A16–A18, A28–A33, M-j–M-l)."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from . import sides as sd
from .tricks import total_points


def multiplier(options: Mapping, trump: str | None, blind: bool, calls: int,
               carry: int) -> tuple[int, dict, bool]:
    """(product, factors, capped). A18: every factor multiplies: no-trump ×2 (A10) or blind
    no-trump ×4 (A11, M-c), each doubling call ×2 (A14–A17), the carry of earlier ties (A29).
    The seed's 'serious players' rule (multiplier_cap) bounds the product, whatever made it."""
    nt = 1
    if trump == "no_trump":
        nt = options["blind_no_trump_multiplier"] if blind else 2
    factors = {"no_trump": nt, "doubling": 2 ** calls, "carry": carry}
    product = nt * (2 ** calls) * carry
    cap = options["multiplier_cap"]
    if cap is not None and product > cap:
        return cap, factors, True
    return product, factors, False


def deal_result(state: Any) -> dict:
    """Everything the finished deal decided, JSON-native. Pure function of the final state,
    so decode can recompute it and refuse a state whose stored result was edited."""
    opts = state.options
    players = state.players
    n = len(players)
    m = state.match
    names = sd.holders(players)
    next_dealer = (state.dealer + 1) % n
    if state.thrown_in:
        # M-m: a peek by the dealer's partner throws the hand in; nothing scores, the carry
        # stands, and the deal passes on (or is redealt by the same dealer).
        if opts["partner_peek_penalty"] == "redeal_same_dealer":
            next_dealer = state.dealer
        nxt = {"scores": dict(m.scores), "booms": dict(m.booms), "carry": m.carry,
               "deal_number": m.deal_number + 1, "dealer": players[next_dealer]}
        return {"thrown_in": True, "sides": [], "multiplier": None, "factors": None,
                "capped": False, "tie": False, "deltas": {}, "scores": dict(m.scores),
                "boom": None, "match_over": False, "match_winner": None, "next_match": nxt,
                "next_dealer": players[next_dealer]}
    product, factors, capped = multiplier(opts, state.trump, state.blind, len(state.calls),
                                          m.carry)
    threshold = opts["score_threshold"]
    bonus = opts["trick_bonus_points"]
    out_sides = []
    deltas = {h: 0 for h in names}
    for side in sd.sides(players, state.dealer):
        cards = [c for s in side["seats"] for c in state.won[s]]
        if side["seats"][0] == state.dealer:
            cards = cards + list(state.leftover)   # A34: the left-over cards count for the dealer
        tricks = sum(len(state.won[s]) for s in side["seats"]) // n
        card_points = total_points(cards)
        total = card_points + bonus * tricks       # M-k
        score = (total - threshold) * product if total > threshold else 0   # A28
        for h in side["holders"]:
            deltas[h] += score
        out_sides.append({"id": side["id"], "members": [players[s] for s in side["seats"]],
                          "card_points": card_points, "tricks": tricks, "points": total,
                          "score": score})
    tie = all(s["score"] == 0 for s in out_sides)
    # A29, M-j: a tie scores nothing and multiplies the next deal; otherwise the carry resets.
    if tie:
        carry = m.carry * opts["tie_carry_multiplier"] if opts["tie_carry_cumulative"] \
            else opts["tie_carry_multiplier"]
    else:
        carry = 1
    scores = {h: m.scores[h] + deltas[h] for h in names}
    booms = dict(m.booms)
    boom = None
    match_over = False
    match_winner = None
    target = opts["target_points"]
    reached = [h for h in names if scores[h] >= target]
    if reached:
        # A31, A33: the boom goes to the side that reached the target with the higher total;
        # an exact tie at the top plays another deal.
        top = max(scores[h] for h in reached)
        leaders = [h for h in reached if scores[h] == top]
        if len(leaders) == 1:
            winner = leaders[0]
            booms[winner] += 1
            boom = {"winner": winner, "scores": dict(scores)}
            if booms[winner] >= opts["booms_to_win"]:     # A32, M-l
                match_over = True
                match_winner = winner
    next_scores = {h: 0 for h in names} if boom else dict(scores)
    nxt = {"scores": next_scores, "booms": booms, "carry": carry,
           "deal_number": m.deal_number + 1, "dealer": players[next_dealer]}
    return {"thrown_in": False, "sides": out_sides, "multiplier": product, "factors": factors,
            "capped": capped, "tie": tie, "deltas": deltas, "scores": scores, "boom": boom,
            "match_over": match_over, "match_winner": match_winner, "next_match": nxt,
            "next_dealer": players[next_dealer]}


def reason(side: Mapping, result: Mapping, threshold: int) -> str:
    f = result["factors"]
    text = (f"{side['points']} points: {side['points'] - threshold} over {threshold}"
            f" × no-trump {f['no_trump']} × doubling {f['doubling']} × carry {f['carry']}")
    if result["capped"]:
        text += f", capped at ×{result['multiplier']}"
    return f"{text} = {side['score']}"


def holders_of(side_id: str, players: Sequence[str], dealer: int) -> list[str]:
    for side in sd.sides(players, dealer):
        if side["id"] == side_id:
            return side["holders"]
    return []
