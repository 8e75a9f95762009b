"""Events: tournaments of any game as one document computed by pure engine code
(docs/events.md): the format (format.py), what the rounds so far say (roster.py), the next
round's seating (seating.py) and the standings (standings.py: imported from there, its
`standings` function would hide the module's name here). No I/O."""
from .format import FORMAT, FORMAT_VERSION, Event, InvalidEvent, digest, parse_event
from .seating import deal_seeds, next_round, reveal_round, verify_seating

__all__ = ["FORMAT", "FORMAT_VERSION", "Event", "InvalidEvent", "deal_seeds", "digest",
           "next_round", "parse_event", "reveal_round", "verify_seating"]
