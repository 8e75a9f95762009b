"""The games: one package each, and nothing else here.

A game is a package `engine/games/<id>/` whose name is the game's id and whose `__init__.py`
exposes its one instance of the Game interface (engine/game.py) as `GAME`. The registry
(engine/registry.py) finds every package here on first use, imports it and registers its
`GAME`; nothing else imports a game by name. Adding a game is adding a package.

The files of a game, by convention (every game here follows it):
    game.py        the Game subclass: the declarations and the operations, delegating to:
    state.py       the state, declared once as msgspec Structs (engine/state.py)
    invariants.py  what a state must satisfy beyond its types (Game.invariants)
    options.py     the options and presets; actions.py, events.py: what the game publishes
    phases.py      dealing and the rules of each phase (Game.deal, Game.apply)
    messages.py    the refusals, in both languages, with the rule each cites
    views.py       what a seat or a spectator may see (Game.view)
    lookups.py     the game's lookups (Game.lookups), when it has any
    sheet.py       its score sheet's columns and rows (engine/sheets.py)
"""
