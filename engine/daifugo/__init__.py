"""Daifugo (大富豪 / 大貧民): the pure rules core (rules page: docs/rules/daifugo.md).

Modules:
    engine.daifugo.rules  `PlayRules`, the option values the play predicates read, and the
                          three presets (`seed` default, `seed_full`, `uecda`)
    engine.daifugo.plays  reading cards as a play (singles, sets, stairs, jokers as wild),
                          following the field, effects of a play, reading inference and
                          legal-play enumeration
    engine.daifugo.uecda  the UECda 8x15 card tables <-> cards

No game state machine and no registration yet: the phases (turns, passes, clearing, finishing,
titles, exchange) are built on these modules.
"""
