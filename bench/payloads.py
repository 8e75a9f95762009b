"""The requests the benches send, built in one place: one `Case` per row of `make bench`'s table
(bench/endpoints.py), each a path, the body (or many distinct bodies, for a cold lookup) and the
headers a client would send; and the same states and requests for the other benches
(validate_vs_floor.py, cpu_per_request.py, engine_costs.py, wsgi_costs.py). Built here, apart
from the timing, so tests can post every one to the service and see it answered 200
(tests/bench/test_payloads.py).

A mid-game state is a seeded deal (4 seats where the game allows) a dozen first-legal actions
in (`mid_game`). States are signed or sealed by a `Guard` holding the same keys the bench's
services run with (SERVICE_ENV), as the service itself binds them (`Binder`); a sealed state's
request carries the acting seat's token (X-Seat-Token), as a client holding it would send.
"""
from __future__ import annotations

import itertools
import random
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine import adjudicate, registry  # noqa: E402

# Every game of the engine's packages (the registry's; not a toy a test registers itself).
GAMES = tuple(g.id for g in registry.all_games() if type(g).__module__.startswith("engine."))
STATE_SECRET = "bench-secret"
SEAL_KEY = "YmVuY2gtc2VhbC1rZXktMzItYnl0ZXMtbG9uZy0hISE"  # 32 bytes, URL-safe base64
REFEREE_KEY = "bench-referee"
REFEREE = {"Authorization": f"Bearer {REFEREE_KEY}"}
# The two trust modes the bench runs a service in (both with the referee key, for the seeded
# deals of /v1/replay): signed states (the default measured everywhere) and sealed ones.
SERVICE_ENV = {
    "signed": {"CARDREF_STATE_SECRET": STATE_SECRET, "CARDREF_REFEREE_KEYS": REFEREE_KEY},
    "sealed": {"CARDREF_SEAL_KEYS": SEAL_KEY, "CARDREF_REFEREE_KEYS": REFEREE_KEY},
}
REPLAY_LENGTHS = (100, 1000)
GZIP = {"Accept-Encoding": "gzip"}  # what every HTTP library sends
BROWSER = {"Accept-Encoding": "gzip, deflate, br, zstd"}  # what a browser sends
LARGE_STATE_BYTES = 10_000


@dataclass
class Case:
    """One row: `bodies` holds one body (sent again and again) or many distinct ones (a cold
    lookup: each sent once, so none is a cache hit)."""
    group: str
    name: str
    path: str
    bodies: list[bytes]
    service: str = "signed"
    headers: dict = field(default_factory=dict)
    status: int = 200
    note: str = ""
    # Targets of the row beside the table's (bench/endpoints.py judges them): its answer's
    # bytes on the wire at most `size_limit` (0: not judged), its req/s at least `min_ratio`
    # of the floor's (0: not judged), and the row it is the compressed twin of (`plain_twin`:
    # the two rates give compression's CPU cost).
    size_limit: int = 0
    min_ratio: float = 0.0
    plain_twin: str = ""

    @property
    def cold(self) -> bool:
        return len(self.bodies) > 1


def seats_of(game_id: str) -> int:
    game = registry.get(game_id)
    return 4 if game.min_players <= 4 <= game.max_players else game.min_players


def first_legal(state: dict) -> dict | None:
    for player in state["players"]:
        actions = adjudicate.legal_actions(state, player)
        if actions:
            return actions[0]
    return None


def to_act(state: dict) -> str:
    action = first_legal(state)
    return action["player"] if action else state["players"][0]


def onward(state: dict) -> Iterator[dict]:
    """The states a deal passes through when every move is the first legal action, up to (not
    including) the one that finishes it."""
    while True:
        action = first_legal(state)
        out = adjudicate.validate(state, action) if action else None
        if out is None or out.status == "finished":
            return
        state = out.state
        yield state


def played(game_id: str, players: list[str], steps: int, seed: str = "bench",
           options: dict | None = None) -> dict:
    """A seeded deal `steps` first-legal actions in (fewer if the deal ends first)."""
    state = dealt = adjudicate.deal(game_id, players, options, seed=seed)["state"]
    for state in itertools.islice(onward(dealt), steps):  # noqa: B007 (read after the loop)
        pass  # the last state reached is the one wanted
    return state


def mid_game(game_id: str, steps: int = 12) -> dict:
    return played(game_id, [f"p{i}" for i in range(seats_of(game_id))], steps)


class Binder:
    """Binds a plain state as the service in one trust mode would (signed or sealed), with
    the seat tokens a sealed state's seats are handed at the deal. `secret`: the signing
    secret of a signed service; '' leaves the state plain (a service without signing)."""

    def __init__(self, mode: str, secret: str = STATE_SECRET):
        from service.sealing import parse_key
        from service.trust import Guard

        self.mode = mode
        if mode == "sealed":
            self.guard = Guard((), (parse_key(SEAL_KEY),), (REFEREE_KEY,), None)
        else:
            self.guard = Guard((secret,) if secret else (), (), (REFEREE_KEY,), None)

    def bind(self, state: dict) -> tuple[object, dict]:
        """(the state as posted, {seat: token}: empty unless sealed)."""
        meta = self.guard.new_meta("server")
        posted = orjson.loads(orjson.dumps(self.guard.outgoing(state, meta)))
        return posted, self.guard.seat_tokens(meta, state["players"]) or {}


def _body(obj) -> bytes:
    return orjson.dumps(obj)


def renamed(state: dict, tag: str) -> dict:
    """The same state with every seat id given a suffix: another cache key for the same work
    (seat ids are short strings that no card code or field name equals)."""
    text = orjson.dumps(state)
    for player in state["players"]:
        text = text.replace(b'"' + player.encode() + b'"', b'"' + f"{player}{tag}".encode() + b'"')
    return orjson.loads(text)


def validate_request(game_id: str, mode: str = "signed", state: dict | None = None,
                     secret: str = STATE_SECRET) -> tuple[bytes, dict]:
    """(body, headers) of a /v1/validate request: the state (mid-game unless given), bound as
    a service in `mode` binds it, and its next first-legal action; sealed, the acting seat's
    token."""
    state = state if state is not None else mid_game(game_id)
    action = first_legal(state)
    posted, tokens = Binder(mode, secret).bind(state)
    headers = {"X-Seat-Token": tokens[action["player"]]} if tokens else {}
    return _body({"state": posted, "action": action}), headers


def player_request(game_id: str, mode: str = "signed", state: dict | None = None,
                   secret: str = STATE_SECRET) -> tuple[bytes, dict]:
    """(body, headers) of a /v1/view or /v1/legal-actions request: the state (mid-game unless
    given), bound as in `validate_request`, and the player whose move it is; sealed, that
    player's seat token."""
    state = state if state is not None else mid_game(game_id)
    player = to_act(state)
    posted, tokens = Binder(mode, secret).bind(state)
    headers = {"X-Seat-Token": tokens[player]} if tokens else {}
    return _body({"state": posted, "player": player}), headers


def validate_case(game_id: str, mode: str, state: dict | None = None, name: str | None = None,
                  note: str = "") -> Case:
    body, headers = validate_request(game_id, mode, state)
    return Case("validate", name or f"{game_id} {mode}", "/v1/validate", [body], mode, headers,
                note=note)


def large_state() -> tuple[str, dict]:
    """A state of about LARGE_STATE_BYTES: Manteur at 6 seats, whose state keeps the deal's
    declarations, a few hundred actions in. (Guandan's and an 8-seat Daifugo's states stay
    under 3 KB through a whole deal: they keep no history.)"""
    dealt = played("manteur", [f"p{i}" for i in range(6)], 0)
    for state in itertools.chain([dealt], onward(dealt)):
        if len(orjson.dumps(state)) >= LARGE_STATE_BYTES:
            break
    return "manteur", state


def cold_player_bodies(state: dict, count: int, run: str, binder: Binder) -> list[bytes]:
    """`count` /v1/legal-actions bodies of the same state and seat to act, each under other
    seat ids (`renamed`): the same work, another cache key. The seat to act is found once (for
    a 27-card leader that is an enumeration of its own) and renamed like the others."""
    player = to_act(state)
    return [_body({"state": binder.bind(renamed(state, f"{run}{k}"))[0],
                   "player": f"{player}{run}{k}"}) for k in range(count)]


def legal_cases(cold_count: int, rnd: random.Random, leader_count: int | None = None
                ) -> Iterator[Case]:
    """Each game's mid-game legal actions, and a Guandan leader's cold and cached. `cold_count`
    fresh states for a cold mid-game row, `leader_count` (default the same) for the leader's."""
    binder = Binder("signed")
    run = f"-{rnd.getrandbits(24):06x}-"  # this run's seat ids: no earlier run cached them
    for game_id in GAMES:
        state = mid_game(game_id)
        game = registry.get(game_id)
        if game.legal_actions_cacheable:
            # A client's state changes with every move: its typical request is a cache miss.
            yield Case("legal-actions", f"{game_id} mid-game, cold", "/v1/legal-actions",
                       cold_player_bodies(state, cold_count, run, binder),
                       note="a new state each request (cached enumeration: misses)")
        else:
            yield Case("legal-actions", f"{game_id} mid-game", "/v1/legal-actions",
                       [_body({"state": binder.bind(state)[0], "player": to_act(state)})])
    leader = guandan_leader()
    bodies = cold_player_bodies(leader, leader_count or cold_count, run, binder)
    cold, cached = "guandan leader, 27 cards, cold", "guandan leader, 27 cards, cached"
    yield Case("legal-actions", cold, "/v1/legal-actions", bodies)
    yield Case("legal-actions", cached, "/v1/legal-actions", bodies[:1])
    # What a browser asks for (br, as the service prefers). Each new question: enumerated,
    # then compressed once at the cached bodies' level (service/compression.py); its rate
    # against the cold row above is that compression's cost. Its own seat ids: the cold row's
    # questions are cached by the time it runs.
    yield Case("legal-actions", f"{cold}, compressed", "/v1/legal-actions",
               cold_player_bodies(leader, leader_count or cold_count, f"{run}z", binder),
               headers=dict(BROWSER), plain_twin=cold,
               note="a browser's Accept-Encoding, a new question each request: compressed once")
    # The same answer asked again: its compressed body comes from the cache beside the
    # enumeration; against the cached row above, what is left of compression's cost.
    yield Case("legal-actions", f"{cached}, compressed", "/v1/legal-actions", bodies[:1],
               headers=dict(BROWSER), size_limit=15_000, plain_twin=cached,
               note="a browser's Accept-Encoding (br chosen); the answer's size on the wire "
                    "is judged")
    yield Case("legal-actions", "guandan leader, 27 cards, cards picked", "/v1/legal-actions",
               [_body({"state": binder.bind(leader)[0], "player": to_act(leader),
                       "cards": picked_cards(leader)})],
               size_limit=2_000, min_ratio=0.5,
               note="the plays of the cards a player tapped: enumerated from those cards")


def picked_cards(state: dict) -> list[str]:
    """The cards a phone's player taps to see what they make: of the seat to act's plays,
    the cards that read the most ways (W-11: a tube or a plate, read two or three ways)."""
    ways: dict[tuple[str, ...], int] = {}
    for action in adjudicate.legal_actions(state, to_act(state)):
        if action.get("cards"):
            key = tuple(sorted(action["cards"]))
            ways[key] = ways.get(key, 0) + 1
    return list(max(ways, key=lambda cards: (ways[cards], len(cards))))


def guandan_leader() -> dict:
    """A fresh Guandan deal: its leader holds 27 cards and may lead anything (the widest
    enumeration of any game)."""
    return played("guandan", [f"p{i}" for i in range(4)], 0)


def view_cases() -> Iterator[Case]:
    binder = Binder("signed")
    for game_id in ("man", "guandan"):
        state = mid_game(game_id)
        yield Case("view", f"{game_id} mid-game", "/v1/view",
                   [_body({"state": binder.bind(state)[0], "player": state["players"][0]})])


def deal_cases() -> Iterator[Case]:
    for game_id in GAMES:
        yield Case("deal", game_id, f"/v1/games/{game_id}/deal",
                   [_body({"players": [f"p{i}" for i in range(seats_of(game_id))]})], status=201)


def lasting_choices(state: dict, legal: list[dict], rnd: random.Random) -> list[dict]:
    """The Man actions to choose from for a deal that must last: mostly draws and discards,
    never a man (a chain, once called, ends the deal when its last player declines, 5.4) nor an
    action that ends the deal while another is legal."""
    slow = [a for a in legal if a["type"] in ("draw", "discard")]
    for pool in (slow if slow and rnd.random() < 0.9 else legal, legal):
        going_on = [a for a in pool if a["type"] != "man"
                    and adjudicate.validate(state, a).status != "finished"]
        if going_on:
            return going_on
    return legal


def long_man_actions(count: int, seed: str = "bench") -> tuple[dict, list[dict]]:
    """(deal request, `count` legal actions) of one Man deal that lasts: its players mostly
    draw and discard (the stock is shuffled again when it runs out), so a deal runs to
    any length. Seeded: the same actions every run."""
    rnd = random.Random(seed)
    players = [f"p{i}" for i in range(4)]
    deal = {"game": "man", "players": players, "seed": seed}
    out = adjudicate.deal("man", players, seed=seed)
    state, actions = out["state"], []
    while len(actions) < count:
        legal = [a for p in out["to_act"] for a in adjudicate.legal_actions(state, p)]
        action = rnd.choice(lasting_choices(state, legal, rnd))
        applied = adjudicate.validate(state, action)
        assert applied.status != "finished", "the deal ended: lasting_choices let it"
        actions.append(action)
        state, out = applied.state, {"to_act": applied.to_act}
    return deal, actions


def replay_cases() -> Iterator[Case]:
    deal, actions = long_man_actions(max(REPLAY_LENGTHS))
    for n in REPLAY_LENGTHS:
        # A chosen seed is a referee act when states are signed.
        yield Case("replay", f"man, {n} actions", "/v1/replay",
                   [_body({"deal": deal, "actions": actions[:n]})], headers=dict(REFEREE))


def classify_bodies(count: int, rnd: random.Random) -> list[bytes]:
    """Distinct 6-card sets holding both level-2 wilds (H2 twice, two decks): each reading
    tries every substitution, the lookup's costliest shape (engine/games/guandan/game.py)."""
    from engine.cards import deck_52

    plain = [c for c in deck_52() if c != "H2"]
    seen: set[tuple] = set()
    bodies = []
    while len(bodies) < count:
        cards = tuple(sorted(rnd.sample(plain, 4)))
        if cards in seen:
            continue
        seen.add(cards)
        bodies.append(_body({"cards": [*cards, "H2", "H2"], "level": "2"}))
    return bodies


def lookup_cases(cold_count: int, rnd: random.Random) -> Iterator[Case]:
    classify = classify_bodies(cold_count, rnd)
    yield Case("lookup", "guandan classify, cold", "/v1/games/guandan/classify", classify)
    yield Case("lookup", "guandan classify, cached", "/v1/games/guandan/classify", classify[:1])
    uncached = "computed each time: cheaper than a cache round trip"
    yield Case("lookup", "man man-numbers", "/v1/games/man/man-numbers",
               [_body({"hand": ["SA", "S8", "H2", "D5", "C9", "HK", "S3"]})], note=uncached)
    yield Case("lookup", "manteur check", "/v1/games/manteur/check",
               [_body({"hand": ["S2", "BJ", "CK", "D7", "S9"],
                       "declaration": {"type": "two_pair", "ranks": ["K", "2"],
                                       "kickers": ["9"]}})], note=uncached)
    yield Case("lookup", "manteur compare", "/v1/games/manteur/compare",
               [_body({"a": {"type": "pair", "ranks": ["K"]},
                       "b": {"type": "pair", "ranks": ["2"]}})], note=uncached)
    yield Case("lookup", "daifugo uecda-table", "/v1/games/daifugo/uecda-table",
               [_body({"kind": "hand", "cards": ["S3", "BJ", "H10", "DK", "C5", "S7"]})],
               note=uncached)


def all_cases(cold_count: int = 2000, seed: int | None = None) -> list[Case]:
    """Every row, in table order. `seed`: the cold lookups' random sets (the bench draws a new
    one each run, so a cache that outlives a run — Redis — still misses them)."""
    rnd = random.Random(seed)
    cases = [validate_case(g, mode) for mode in ("signed", "sealed") for g in GAMES]
    # A typical answer (a ~2 KB state) compressed on every request: its cost per request.
    zipped = validate_case("guandan", "signed", name="guandan signed, gzip",
                           note="Accept-Encoding: gzip: each answer compressed")
    zipped.headers.update(GZIP)
    zipped.plain_twin = "guandan signed"
    cases.append(zipped)
    game_id, big = large_state()
    cases.append(validate_case(game_id, "signed", big,
                               f"{game_id} 6 seats, {len(orjson.dumps(big)) // 1000} KB state",
                               "the largest state of any game: Manteur keeps its declarations"))
    # A cold 27-card enumeration answers a few dozen a second (a twentieth of the floor's
    # rate): a sixth as many fresh states is plenty, and spares the bench's wrk tens of MB of
    # bodies. A cold mid-game Guandan enumeration answers at about half the floor's rate: it
    # gets the full count.
    cases += legal_cases(cold_count, rnd, leader_count=max(2, cold_count // 6))
    cases += view_cases()
    cases += deal_cases()
    cases += replay_cases()
    cases += lookup_cases(cold_count, rnd)
    return cases
