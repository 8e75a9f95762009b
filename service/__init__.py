"""Card Referee HTTP service: Flask app factory, routes, schemas, cache, signing, errors.

Knows nothing of any single game's rules: games come from `engine.registry`.
"""
