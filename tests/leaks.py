"""Hidden-information checks shared by the games' property tests: which cards a view shows."""
from __future__ import annotations

from typing import Any

from engine.cards import is_card


def keys_in(view: Any) -> set[str]:
    """Every object key anywhere in a view."""
    found: set[str] = set()
    stack = [view]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            found.update(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def cards_shown(view: Any) -> set[str]:
    """Every card token anywhere in a view (keys and values, at any depth)."""
    found: set[str] = set()
    stack = [view]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if is_card(item):
                found.add(item)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def assert_no_leak(view: dict, hidden: set[str], who: str | None) -> None:
    """No hidden card anywhere in the view, and no seed (it fixes every later shuffle)."""
    leaked = cards_shown(view) & hidden
    assert not leaked, f"{who!r} sees hidden cards {sorted(leaked)}"
    assert "seed" not in keys_in(view), f"{who!r} sees the seed"
