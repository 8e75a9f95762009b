"""Card Referee engine: the rules of every game, pure Python, no HTTP, no I/O.

Public surface:
    engine.cards      card notation and decks
    engine.rng        the seeded, version-stable shuffle
    engine.fields     the small type vocabulary options, actions and lookups are declared in
    engine.game       the Game interface, Transition, Refusal and the input errors
    engine.registry   games register themselves; discover() imports every game package
    engine.adjudicate one call per endpoint shape, shared by the service and the CLI
"""

# Bumped whenever any ruling could change; cache keys are namespaced by it so a deploy
# never serves a stale cached answer.
ENGINE_VERSION = "1"
