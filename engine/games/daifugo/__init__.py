"""Daifugo (大富豪 / 大貧民): a climbing game (rules page: docs/rules/daifugo.md).

Modules:
    rules    `PlayRules`, the option values the play predicates read, and presets
    plays    reading cards as a play, following the field, effects, inference, enumeration
    uecda    the UECda 8x15 card tables <-> cards
    options  the game's options and presets; state: the state, declared once
    phases   deal, exchange, turns, follow-ups, finishing, titles; views: what a seat sees
    game     the Game over these; its instance is GAME here (engine/registry.py finds it)
"""
from .game import DaifugoGame

GAME = DaifugoGame()  # found and registered by engine/registry.py

__all__ = ["GAME", "DaifugoGame"]
