"""Hidden-information checks shared by the games' property tests: which cards a view shows."""
from __future__ import annotations

from typing import Any

from engine.cards import is_card


def _walk(view: Any):
    """Every key and every scalar anywhere in a JSON view."""
    stack = [view]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            for key, value in item.items():
                yield "key", key
                stack.append(value)
        elif isinstance(item, list):
            stack.extend(item)
        else:
            yield "value", item


def keys_in(view: Any) -> set[str]:
    return {item for kind, item in _walk(view) if kind == "key"}


def cards_shown(view: Any) -> set[str]:
    """Every card token anywhere in a view, as a key or a value."""
    return {item for _, item in _walk(view) if isinstance(item, str) and is_card(item)}


def assert_no_leak(view: dict, hidden: set[str], who: str | None) -> None:
    """No hidden card anywhere in the view, and no seed (it fixes every later shuffle)."""
    leaked = cards_shown(view) & hidden
    assert not leaked, f"{who!r} sees hidden cards {sorted(leaked)}"
    assert "seed" not in keys_in(view), f"{who!r} sees the seed"
    assert "seed_salt" not in keys_in(view), f"{who!r} sees the seed's commitment salt"
