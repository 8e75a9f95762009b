"""What the conformance tests share: the registered games, random tables and options drawn from
what each game publishes, random legal play-outs of deals and matches, and the checks' facts.

Nothing here names a game: every game comes from the registry (engine.registry), every answer
from engine.adjudicate, every option from the game's own `options` and `presets`.
"""
from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import msgspec
from hypothesis import strategies as st

from engine import adjudicate, registry
from engine.errors import InvalidDeal, InvalidOptions
from engine.fields import parse_fields
from tests.spec import committed_spec, component_validator
from tests.state_schema import null_admitted

ROOT = Path(__file__).resolve().parents[2]

# Guards of the tests, never of the engine: a random walk of draws and passes can run long.
MAX_STEPS = 1500  # actions in one deal
MAX_DEALS = 12  # deals in one match, for games whose match has no end (or a far one)
LEGAL_SAMPLE = 8  # listed legal actions validated at each step when more are listed


def product_game_ids() -> list[str]:
    """Every game the registry finds in the engine's packages (wherever they live under
    `engine`), sorted; games that tests register themselves (tests/toygame.py) live outside
    the engine and are left out."""
    return sorted(g.id for g in registry.all_games()
                  if type(g).__module__.split(".")[0] == "engine")


GAME_IDS = product_game_ids()


def jsonable(value: Any) -> Any:
    """The value as a client receives it: through JSON (tuples become lists)."""
    return json.loads(json.dumps(value))


# ------------------------------------------------------------------ tables and options

def _option_value(draw, option) -> Any:
    f = option.field
    if f.kind == "enum":
        return draw(st.sampled_from(list(f.choices)))
    if f.kind == "bool":
        return draw(st.booleans())
    if f.kind == "int":
        low = f.minimum if f.minimum is not None else 0
        high = f.maximum if f.maximum is not None else low + 4
        # near the minimum: limits and targets stay small, so matches end within the test
        return draw(st.integers(low, min(high, low + 4)))
    if f.kind == "str_list" and f.choices:
        return draw(st.lists(st.sampled_from(list(f.choices)), unique=True, max_size=3))
    return option.default


@st.composite
def tables(draw, game_id: str) -> dict:
    """A deal request's table: a player count the game allows, a preset (or none) and some of
    its published options set to one of their published values (or left at the default).
    Combinations the game refuses are rejected by the engine's own check (resolve_options)."""
    game = registry.get(game_id)
    request: dict = {}
    preset = draw(st.sampled_from([None, *sorted(game.presets)]))
    if preset is not None:
        request["preset"] = preset
    for option in game.options:
        if draw(st.integers(0, 2)) == 0:
            request[option.name] = _option_value(draw, option)
    counts = list(range(game.min_players, game.max_players + 1))
    first = draw(st.sampled_from(counts))
    return {"options": request, "counts": [first] + [c for c in counts if c != first],
            "seed": f"conformance-{draw(st.integers(0, 10**9))}"}


def deal(game_id: str, table: dict, match: dict | None = None,
         players: list[str] | None = None) -> dict | None:
    """The first answer of a deal of `table` (and its players as `players`), or None when the
    game refuses the options drawn however they are eased. A player count the game does not
    deal to (one its range holds but its rules exclude) is replaced by the next; an option the
    game refuses in this combination (the path it names) falls back to its default, then the
    preset is dropped, so most drawn tables are played rather than rejected."""
    options = dict(table["options"])
    for count in ([len(players)] if players else table["counts"]):
        seats = players or [f"p{i}" for i in range(count)]
        for _ in range(len(options) + 1):
            try:
                out = adjudicate.deal(game_id, seats, options, table["seed"], match=match)
            except InvalidOptions:
                return None
            except InvalidDeal as err:
                if err.path.startswith("options."):
                    name = err.path.split(".")[1]
                    if name in options:
                        del options[name]
                    elif "preset" in options:
                        del options["preset"]
                    else:
                        return None
                    continue
                if err.path == "players" and not players:
                    break
                raise
            out["players"] = seats
            table["options"] = options  # what the match's later deals are dealt with
            return out
    if players:
        return None
    raise AssertionError(f"{game_id} deals to none of {table['counts']} players")


# ------------------------------------------------------------------ play-outs

class Step(msgspec.Struct):
    """One action of a play-out: the state it was taken in, who could act, every legal action
    each of them had listed, the action taken and the answer."""
    state: dict
    to_act: list
    legal: dict
    action: dict
    applied: Any


def pick(rnd: random.Random, legal: list[dict]) -> dict:
    """Mostly an action that names cards (a play takes the deal on, where a random walk of
    passes and draws can run long), else any."""
    carded = [a for a in legal if a.get("cards") or a.get("card")]
    return rnd.choice(carded if carded and rnd.random() < 0.8 else legal)


def play_deal(game_id: str, first: dict, rnd: random.Random) -> Iterator[Step]:
    """Random legal actions from a dealt answer to the deal's end (or MAX_STEPS)."""
    state, to_act, status = first["state"], first["to_act"], first["status"]
    for _ in range(MAX_STEPS):
        if status == "finished":
            return
        legal = {p: adjudicate.legal_actions(state, p) for p in to_act}
        every = [a for actions in legal.values() for a in actions]
        assert every, f"{to_act} may act in {game_id} but none has a legal action"
        action = pick(rnd, every)
        applied = adjudicate.validate(state, action)
        assert applied.valid, (action, applied.refusal.code, applied.refusal.en)
        yield Step(state, list(to_act), legal, action, applied)
        state, to_act, status = applied.state, applied.to_act, applied.status
    raise AssertionError(f"a deal of {game_id} ran past {MAX_STEPS} actions")


def play_match(game_id: str, table: dict, rnd: random.Random) -> Iterator[tuple[int, dict, Step | None]]:
    """Deals of one match: each finished deal's `next_match`, as a client receives it, is the
    next deal's `match`, until the game says the match is over (no next_match, or a deal with
    it refused on its `match`) or MAX_DEALS. Yields (deal number, dealt answer, step) for every
    action, and (deal number, dealt answer, None) for each deal first."""
    match, players = None, None
    for number in range(MAX_DEALS):
        try:
            dealt = deal(game_id, table, match, players)
        except InvalidDeal as err:
            assert number and err.path.startswith("match"), err
            return  # the match is over
        if dealt is None:
            return
        players = dealt["players"]
        yield number, dealt, None
        last = None
        for step in play_deal(game_id, dealt, rnd):
            yield number, dealt, step
            last = step
        if last is None or last.applied.next_match is None:
            return
        match = jsonable(last.applied.next_match)
        # what a deal request's `match` may carry, as the game declares it: a summary that
        # does not parse is a broken answer, never the end of the match
        parse_fields(registry.get(game_id).match.fields, match, "match")
        table = {**table, "seed": f"{table['seed']}-{number + 1}"}


# ------------------------------------------------------------------ rules pages

@cache
def rules_pages(game_id: str) -> dict[str, str]:
    """The game's rules page (its `rules_doc`) and the Japanese one beside it."""
    doc = registry.get(game_id).rules_doc
    assert doc.endswith(".md"), f"{game_id} names no rules page ({doc!r})"
    return {lang: (ROOT / path).read_text(encoding="utf-8")
            for lang, path in (("en", doc), ("ja", doc[:-3] + ".ja.md"))}


# ------------------------------------------------------------------ hidden information

@cache
def hidden_view_fields(game_id: str) -> tuple[str, ...]:
    """The view's fields the game declares never shown (engine/state.py Hidden: x-hidden)."""
    game = registry.get(game_id)
    if game.view_type is None:
        return ()
    _, components = msgspec.json.schema_components([game.view_type])
    out = set()
    for schema in components.values():
        for name, prop in (schema.get("properties") or {}).items():
            if prop.get("x-hidden"):
                out.add(name)
    return tuple(sorted(out))


def facts_path(game_id: str) -> Path:
    """Where a game's facts are: `conformance.json` in the game's own package (a game copied
    from templates/game brings its own), so the tests hold no file per game."""
    module = sys.modules[type(registry.get(game_id)).__module__]
    return Path(module.__file__).resolve().parent / "conformance.json"


@cache
def facts(game_id: str) -> dict:
    """What the tests must know of a game that it does not declare: where its seats' hands lie
    in a state (facts_path)."""
    path = facts_path(game_id)
    assert path.exists(), f"{game_id} declares no hands for the hidden-information check: " \
        f"add {path}"
    return json.loads(path.read_text(encoding="utf-8"))


def hands_of(game_id: str, state: dict) -> dict[str, list[str]]:
    """Each seat's hand in a state, by the game's facts: `hands` names a map seat -> cards, or
    `hand` and `holder` one hand and the seat that holds it."""
    f = facts(game_id)
    if "hands" in f:
        return {p: list(h or ()) for p, h in state[f["hands"]].items()}
    holder = state[f["holder"]]
    return {holder: list(state[f["hand"]])} if holder else {}


def face_down(game_id: str, state: dict) -> set[str]:
    """Cards lying face down on the table (the facts' `face_down_piles`: state maps seat ->
    piles, each a list of cards top first, the top face up and the rest face down)."""
    out: set[str] = set()
    for key in facts(game_id).get("face_down_piles", ()):
        for piles in (state.get(key) or {}).values():
            for pile in piles:
                out |= set(pile[1:])
    return out


def _without(view, keys: set):
    if isinstance(view, dict):
        return {k: _without(v, keys) for k, v in view.items() if k not in keys}
    if isinstance(view, list):
        return [_without(v, keys) for v in view]
    return view


def scanned(game_id: str, view: dict) -> dict:
    """The view without what the facts say names cards that are no seat's secret: public
    records (`public_records`: a cut, the start cards turned, a challenged hand shown) and
    what a joker stands for (`not_cards`)."""
    f = facts(game_id)
    return _without(view, set(f.get("public_records", ())) | set(f.get("not_cards", ())))


def public_seats(game_id: str, state: dict) -> set[str]:
    """Seats whose hand the rules lay open (the facts' `public_when`: state maps seat -> flag)."""
    out = set()
    for flag in facts(game_id).get("public_when", ()):
        out |= {p for p, on in state[flag].items() if on}
    return out


# ------------------------------------------------------------------ the spec's response schemas

@cache
def spec_components() -> dict:
    spec = committed_spec()
    return null_admitted(spec["components"])


@cache
def answer_validator(name: str):
    """openapi.yaml's schema `name` (a response's), as a validator."""
    components = spec_components()
    assert name in components["schemas"], f"openapi.yaml has no {name}"
    return component_validator(components, name)


def schema_errors(name: str, answer: Any) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
            for e in answer_validator(name).iter_errors(answer)][:5]
