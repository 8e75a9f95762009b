"""Card Referee engine: the rules of every game, pure Python, no HTTP, no I/O.

Public surface:
    engine.cards      card notation and decks
    engine.rng        the seeded, version-stable shuffle
    engine.fields     the small type vocabulary options, actions and lookups are declared in
    engine.values     what crosses the game interface: Action, Transition, Refusal, DealSetup …
    engine.game       the Game interface (and, re-exported, the values and the input errors)
    engine.registry   finds the games: discover() imports every package of engine.games
    engine.features   what the engine adds to every game at registration (the referee's ledger)
    engine.games      one package per game, exposing its Game as GAME
    engine.adjudicate one call per endpoint shape, shared by the service and the CLI
"""

# Bumped whenever any ruling (or a cached answer's shape) could change; cache keys are
# namespaced by it so a deploy never serves a stale cached answer.
ENGINE_VERSION = "2"  # 2: listed actions and score deltas carry their words (`text`), every
                      # listed Guandan play its reading
