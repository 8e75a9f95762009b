"""Daifugo (大富豪 / 大貧民): a climbing game (rules page: docs/rules/daifugo.md).

Modules:
    rules    `PlayRules`, the option values the play predicates read, and presets
    plays    reading cards as a play, following the field, effects, inference, enumeration
    uecda    the UECda 8x15 card tables <-> cards
    options  the game's options and presets; state: the state, declared once
    phases   deal, exchange, turns, follow-ups, finishing, titles; views: what a seat sees
    game     the Game over these; registered here
"""
from engine.registry import register

from .game import DaifugoGame

GAME = register(DaifugoGame())

__all__ = ["GAME", "DaifugoGame"]
