"""The play obligations (A21–A26, M-f–M-i; seed play rules 1–3).

`play_rules` answers which of a player's cards may be played to the current trick and, layer
by layer, which obligation narrowed the choice, so a refusal can name the obligation broken and
list the cards that would have been legal.
"""
from __future__ import annotations

from typing import Any, Sequence

from .messages import refuse
from .sides import partners, step
from .tricks import strength, winner_offset

Layer = tuple[str, list[str], dict[str, Any]]


def play_rules(playable: Sequence[str], trick: Sequence[str], leader: int, seat: int, n: int,
               dealer: int, trump: str | None,
               opts: Any) -> tuple[list[str], list[Layer]]:
    """(legal cards, layers); each layer is (refusal code, cards satisfying it, message args).
    `trump` is the trump suit or None for no-trump."""
    cards = list(playable)
    layers: list[Layer] = []
    if not trick:
        return cards, layers                      # A19/A20: the leader plays any card
    led = trick[0][0]
    win = winner_offset(trick, trump)
    best = trick[win]
    # A23 / seed rule 2: the duty to win does not apply while a partner is winning.
    partner_winning = (leader + step(opts) * win) % n in partners(n, dealer, seat)

    in_suit = [c for c in cards if c[0] == led]
    if in_suit:
        # A21 / seed rule 1: follow suit.
        layers.append(("must_follow_suit", in_suit, {"suit": led}))
        mode = opts.must_overtake_in_suit                    # M-g
        applies = mode == "opponent_winning" or (mode == "trump_lead_only" and led == trump)
        exempt = partner_winning and not (
            led == trump and opts.overtrump_on_trump_lead_even_if_partner_wins)   # M-i
        # A24 / seed rule 2: beat the trick in the led suit when that can win it (it cannot
        # once a non-trump lead has been trumped).
        if applies and not exempt and best[0] == led:
            higher = [c for c in in_suit if strength(c) > strength(best)]
            if higher:
                layers.append(("must_overtake", higher, {"suit": led}))
        return layers[-1][1], layers

    if trump is None:
        return cards, layers                      # no-trump and void: nothing can win
    trumps = [c for c in cards if c[0] == trump]
    in_trick = [c for c in trick if c[0] == trump]
    best_trump = max(in_trick, key=strength) if in_trick else None
    exempt = partner_winning and not opts.must_trump_when_partner_winning   # A23, M-f
    if not exempt:
        # A22 trump when void; A25 overtrump when the trick is already trumped.
        winning = trumps if best_trump is None else [
            t for t in trumps if strength(t) > strength(best_trump)]
        if winning:
            code = "must_trump" if best_trump is None else "must_overtrump"
            layers.append((code, winning, {}))
            return winning, layers
    if best_trump is not None:
        # Seed rule 3 / A26: free to play anything, except a trump below the highest trump in
        # a trick led in another suit -- unless nothing else is held (M-h variants).
        mode = opts.undertrump
        if mode == "forbidden_unless_forced":
            lower = [t for t in trumps if strength(t) < strength(best_trump)]
            rest = [c for c in cards if c not in lower]
            if lower and rest:
                layers.append(("no_undertrump", rest, {"best": best_trump}))
                return rest, layers
        elif mode == "required_if_holding_trump" and not exempt and trumps:
            layers.append(("must_undertrump", trumps, {}))
            return trumps, layers
    return cards, layers


def check_play(card: str, playable: Sequence[str], trick: Sequence[str], leader: int,
               seat: int, n: int, dealer: int, trump: str | None,
               opts: Any) -> None:
    """Raise the Refusal naming the first obligation `card` breaks (card is playable)."""
    legal, layers = play_rules(playable, trick, leader, seat, n, dealer, trump, opts)
    if card in legal:
        return
    for code, allowed, kw in layers:
        if card not in allowed:
            raise refuse(code, details={"required": list(legal), "card": card},
                         cards=list(legal), **kw)
    raise AssertionError("a card outside the legal set broke no obligation")
