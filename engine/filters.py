"""The filters of a legal-actions request: only actions of some types, only those that name
exactly the cards a player picked, only plays of some kinds of combination.

A phone front end's "tap cards, see the plays they make" is one small request: the picked cards
narrow a 27-card Guandan leader's thousands of plays to the few that use exactly those cards,
and a game whose enumeration is costly answers that from the picked cards alone
(Game.legal_actions_of_cards). Every filter is generic: what an action's cards are comes from
its declared fields (every field of kind `card` or `cards`), what its combination is from the
game's declaration (Game.combinations, Game.combination_path).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import CardError, parse_cards
from .errors import InputError, shown
from .game import Game
from .values import Action

# The code of a filter that cannot be read (the request's own code: a filter is part of it).
FILTER_INVALID = "request_invalid"


@dataclass(frozen=True)
class ActionFilter:
    """`types`: only actions of these types; `cards`: only actions whose cards (sorted,
    canonical) are exactly these; `combinations`: only actions whose combination (the game's
    `combination_path`) is one of these. None: that filter is not asked for."""

    types: frozenset[str] | None = None
    cards: tuple[str, ...] | None = None
    combinations: frozenset[str] | None = None

    @property
    def narrows(self) -> bool:
        return self.types is not None or self.cards is not None or \
            self.combinations is not None

    def keep(self, game: Game[Any], actions: list[Action]) -> list[Action]:
        """The actions that pass every filter asked for, in their order."""
        if not self.narrows:
            return actions
        if self.types is not None:
            actions = [a for a in actions if a.type in self.types]
        if self.cards is not None:
            actions = [a for a in actions if named_cards(game, a) == self.cards]
        if self.combinations is not None:
            path, wanted = game.combination_path, self.combinations
            actions = [a for a in actions if combination_of(a, path) in wanted]
        return actions


NO_FILTER = ActionFilter()


def parse_filter(game: Game[Any], types: Sequence[str] | None = None,
                 cards: Sequence[Any] | None = None,
                 combinations: Sequence[Any] | None = None) -> ActionFilter:
    """The filters as asked: `cards` in any notation engine/cards.py reads (kept as a sorted
    multiset), `combinations` among the game's declared ones. Anything else is an InputError
    (422 request_invalid) naming the offending entry. An empty `types` list filters nothing
    (as it always has); an empty `cards` or `combinations` list is refused: it would ask for
    nothing, which no client means."""
    wanted_types = frozenset(types) if types else None
    picked = None
    if cards is not None:
        if not isinstance(cards, Sequence) or isinstance(cards, str) or not cards:
            raise InputError("`cards` is the cards picked: a non-empty list of cards", "cards",
                             FILTER_INVALID)
        try:
            picked = tuple(sorted(parse_cards(cards)))
        except CardError as err:
            raise InputError(str(err), f"cards[{err.index}]", FILTER_INVALID) from None
    kinds = None
    if combinations is not None:
        if not isinstance(combinations, Sequence) or isinstance(combinations, str) \
                or not combinations:
            raise InputError("`combinations` is a non-empty list of combination kinds",
                             "combinations", FILTER_INVALID)
        for index, kind in enumerate(combinations):
            if kind not in game.combinations:
                known = (f"its kinds: {', '.join(game.combinations)}" if game.combinations
                         else "it names no combinations")
                raise InputError(f"{shown(kind)} is no combination of {game.id} ({known})",
                                 f"combinations[{index}]", FILTER_INVALID)
        kinds = frozenset(combinations)
    return ActionFilter(wanted_types, picked, kinds)


def card_fields(game: Game[Any], action_type: str) -> tuple[str, ...]:
    """The fields of an action type that name cards (declared of kind `card` or `cards`),
    computed once per game and type."""
    memo = game.__dict__.setdefault("_card_fields", {})
    found = memo.get(action_type)
    if found is None:
        spec = game.action_map().get(action_type)
        found = memo[action_type] = tuple(
            name for name, f in (spec.fields.items() if spec else ())
            if f.kind in ("card", "cards"))
    return found  # type: ignore[no-any-return]


def named_cards(game: Game[Any], action: Action) -> tuple[str, ...] | None:
    """The cards an action names, sorted (its `card` and `cards` fields together); None for
    an action that names none (a pass, a draw, a call): no picked cards are its cards."""
    names = card_fields(game, action.type)
    found: list[str] = []
    for name in names:
        value = action.fields.get(name)
        if isinstance(value, str):
            found.append(value)
        elif isinstance(value, (list, tuple)):
            found.extend(value)
    return tuple(sorted(found)) if found else None


def combination_of(action: Action, path: Sequence[str]) -> Any:
    """The value at `path` in an action's fields (the game's combination kind), or None."""
    if not path:
        return None
    value: Any = action.fields
    for key in path:
        if not isinstance(value, Mapping):
            return None
        value = value.get(key)
    return value
