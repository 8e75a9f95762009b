"""The first dealer chosen by a cut (A5, option `first_dealer: cut`).

A5: each player cuts a packet and shows its bottom card; the strongest card deals (the seed:
最初のディーラーはカットで最も強いカードを示したプレイヤー). Strength is the game's own order,
10 A K Q J 9 8 7 (A1); suits do not rank, so players tied for the strongest card cut again,
in seat order, until one is left. Each round is a fresh cut of the whole pack drawn from the
deal's seed (`engine.rng.shuffled`, label `cut`, then `cut/<round>`): within a round the shown
cards are distinct. The cut is recorded in the state (`cut`, in the order shown) and replayed by
decode, which refuses a dealer the cut does not give.
"""
from __future__ import annotations

from typing import Sequence

from engine.cards import deck_32
from engine.rng import shuffled

from .tricks import strength


def _survivors(shown: Sequence[tuple[str, str]]) -> list[str]:
    best = max(strength(c) for _, c in shown)
    return [p for p, c in shown if strength(c) == best]


def cut_for_dealer(players: Sequence[str], seed: str) -> list[tuple[str, str]]:
    """The cuts (player, card) in the order shown; the last round has one strongest card."""
    contenders, out, rnd = list(players), [], 0
    while True:
        pack = shuffled(deck_32(), seed, "cut" if rnd == 0 else f"cut/{rnd}")
        shown = list(zip(contenders, pack))
        out += shown
        contenders = _survivors(shown)
        if len(contenders) == 1:
            return out
        rnd += 1


def cut_winner(cut: Sequence[tuple[str, str]], players: Sequence[str]) -> str | None:
    """Who the recorded cut makes the dealer, or None when it is not a well-formed cut (each
    round: the contenders in seat order, distinct cards; only the tied strongest cut again)."""
    contenders, i = list(players), 0
    while True:
        shown = list(cut[i:i + len(contenders)])
        if ([p for p, _ in shown] != contenders
                or len({c for _, c in shown}) != len(shown)):
            return None
        i += len(shown)
        contenders = _survivors(shown)
        if len(contenders) == 1:
            return contenders[0] if i == len(cut) else None
