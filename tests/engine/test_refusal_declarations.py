"""Every refusal a game answers is one it declares (`Game.refusal_details`, declared beside its
messages in engine/<game>/messages.py), with exactly the declared details and types: the spec
publishes those declarations as `<Game><Code>Refusal`, so a client generated from openapi.yaml
reads every refusal's details typed."""
from __future__ import annotations

import ast
import random
import re
from functools import lru_cache

import pytest
from openapi_schema_validator import OAS30Validator

from engine import adjudicate, registry
from engine.adjudicate import ENGINE_REFUSAL_DETAILS
from engine.errors import InputError
from engine.fields import Field, details_schema, placeholders, refusal_details
from tests.conformance import helpers
from tests.sizing import examples

PRODUCT_GAMES = helpers.GAME_IDS
# The calls that make a refusal from a catalogue code (first argument).
REFUSING_CALLS = {"refuse", "_refuse", "PlayError", "Refusal"}


def fill_sent(game_id: str, name: str) -> bool:
    """Whether a keyword fill value `name` of the game's `refuse(...)` travels as a detail: its
    conformance facts' `fill_not_sent` names (a pattern) those its messages.py `refuse` keeps
    out (Manillen sends only its `details=`, Manteur keeps its `_ja` words out); by default
    every one is sent."""
    kept = helpers.facts(game_id).get("fill_not_sent")
    return kept is None or not re.fullmatch(kept, name)


def _sources(game_id: str) -> dict[str, ast.Module]:
    """The game's package's modules (where its conformance facts lie: engine/games/<id>/)."""
    package = helpers.facts_path(game_id).parent
    return {p.name: ast.parse(p.read_text(encoding="utf-8"))
            for p in sorted(package.glob("*.py"))}


def _literal_codes(node: ast.AST) -> list[str]:
    """`"code"` and `"a" if … else "b"`: the codes a call's first argument names."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return _literal_codes(node.body) + _literal_codes(node.orelse)
    return []


def _refusing_calls(game_id: str):
    """(codes, keyword names or None when unknowable, explicit details keys or None) of every
    refusing call with a literal code in the game's engine source."""
    for tree in _sources(game_id).values():
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and node.args):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", None))
            codes = _literal_codes(node.args[0]) if name in REFUSING_CALLS else []
            if not codes:
                continue
            keywords = {k.arg: k.value for k in node.keywords}
            explicit = keywords.get("details")
            explicit_keys = ([k.value for k in explicit.keys] if isinstance(explicit, ast.Dict)
                             else None)
            names = None if None in keywords else [k for k in keywords if k != "details"]
            yield name, codes, names, explicit_keys


def _uses(game_id: str) -> set[str]:
    """Every string literal of the game's engine outside messages.py (where codes are declared)
    that is not a dict key (catalogues are keyed by code): where codes are raised or chosen."""
    used: set[str] = set()
    for file, tree in _sources(game_id).items():
        if file == "messages.py":
            continue
        keys = {id(k) for node in ast.walk(tree) if isinstance(node, ast.Dict) for k in node.keys}
        used |= {node.value for node in ast.walk(tree)
                 if isinstance(node, ast.Constant) and isinstance(node.value, str)
                 and id(node) not in keys}
    return used


@pytest.mark.parametrize("game_id", PRODUCT_GAMES)
def test_every_code_has_a_declaration_and_every_declaration_is_used(game_id):
    game = registry.get(game_id)
    declared = set(game.refusal_details)
    assert declared == set(game.refusals), (sorted(declared ^ set(game.refusals)))
    raised = {c for _n, codes, *_r in _refusing_calls(game_id) for c in codes}
    assert raised, f"{game_id}: no refusing call found (the scan is stale)"
    assert raised - set(ENGINE_REFUSAL_DETAILS) <= declared, sorted(raised - declared)
    unused = sorted(declared - _uses(game_id))
    assert not unused, f"{game_id}: declared but never raised: {unused}"


@pytest.mark.parametrize("game_id", PRODUCT_GAMES)
def test_every_refusing_call_sends_the_declared_details(game_id):
    """Each call with a literal code sends its declared details: all the required ones, none
    undeclared (calls passing `**values` are checked by the whole games below)."""
    declared = registry.get(game_id).refusal_details
    checked = 0
    for name, codes, names, explicit_keys in _refusing_calls(game_id):
        if name == "Refusal":
            continue  # built from a catalogue entry elsewhere (e.g. DeclarationError)
        if explicit_keys is not None:
            sent = set(explicit_keys)
        elif names is None:
            continue
        else:
            sent = {n for n in names if fill_sent(game_id, n)}
        for code in codes:
            fields = declared[code]
            required = {k for k, f in fields.items() if f.required}
            assert required <= sent <= set(fields), (code, sorted(sent), sorted(fields))
            checked += 1
    # the scan still finds the calls: a game refuses at least once per code (ten at most asked)
    least = min(10, len(declared))
    assert checked >= least, f"{game_id}: only {checked} refusing calls checked"


@lru_cache(maxsize=None)
def _validator(game_id: str, code: str) -> OAS30Validator | None:
    fields = registry.get(game_id).refusal_details.get(code)
    if fields is None:
        fields = ENGINE_REFUSAL_DETAILS.get(code)
    return None if fields is None else OAS30Validator(details_schema(fields))


def refusal_errors(game_id: str, error: dict) -> list[str]:
    """Why a refusal's JSON does not fit its code's declaration (empty: it fits)."""
    checker = _validator(game_id, error.get("code"))
    if checker is None:
        return [f"{game_id}: undeclared refusal code {error.get('code')!r}"]
    return [f"{game_id} {error['code']} {'/'.join(map(str, e.absolute_path))}: {e.message}"
            for e in checker.iter_errors(error.get("details", {}))]


def _fuzzed(rnd: random.Random, pool: list[dict], players: list[str], cards: list[str]) -> dict:
    """An action likely refused: one once legal (maybe stale), by any seat, its cards maybe
    swapped for others of the deal."""
    action = dict(rnd.choice(pool))
    if rnd.random() < 0.3:
        action["player"] = rnd.choice(players)
    if cards and rnd.random() < 0.5:
        if isinstance(action.get("cards"), list) and action["cards"]:
            action["cards"] = rnd.sample(cards, k=min(len(cards), len(action["cards"])))
        elif isinstance(action.get("card"), str):
            action["card"] = rnd.choice(cards)
    return action


def _cards_of(state: dict) -> list[str]:
    hands = state.get("hands")
    if isinstance(hands, dict):
        return sorted({c for h in hands.values() if isinstance(h, list) for c in h
                       if isinstance(c, str)})
    return []


@pytest.mark.parametrize("game_id", PRODUCT_GAMES)
def test_refusals_of_whole_games_fit_their_declarations(game_id):
    """Random whole games, with actions likely refused posted along the way: every refusal's
    code is declared and its details fit the declaration exactly."""
    game = registry.get(game_id)
    seen: dict[str, int] = {}
    for seed in range(examples(6)):
        rnd = random.Random(f"refusals-{game_id}-{seed}")
        while True:  # a seat count the game deals (Manillen skips 5)
            players = [f"p{i}" for i in range(rnd.randint(game.min_players,
                                                          min(game.max_players, 6)))]
            try:
                out = adjudicate.deal(game_id, players, None, f"refusals-{seed}")
                break
            except InputError:
                continue
        state, to_act, status, pool = out["state"], out["to_act"], out["status"], []
        cards = _cards_of(state)
        for _ in range(1500):
            legal = [a for p in to_act for a in adjudicate.legal_actions(state, p)]
            pool = (pool + legal)[-200:]
            for _try in range(2):
                try:
                    answer = adjudicate.validate(state, _fuzzed(rnd, pool, players, cards))
                except InputError:
                    continue  # malformed for this state: a 422, not a refusal
                if isinstance(answer, adjudicate.Refused):
                    error = answer.refusal.to_json()
                    assert error["game"] == game_id  # clients pick the model by game and code
                    assert not refusal_errors(game_id, error), refusal_errors(game_id, error)
                    seen[error["code"]] = seen.get(error["code"], 0) + 1
            if status == "finished":
                break
            moving = [a for a in legal if a["type"] not in ("draw", "pass", "chombo", "end_turn")]
            applied = adjudicate.validate(state, rnd.choice(moving if moving and rnd.random() < 0.8
                                                            else legal))
            state, to_act, status = applied.state, applied.to_act, applied.status
    print(game_id, "refusals seen:", dict(sorted(seen.items())))
    assert len(seen) >= min(3, len(game.refusals)), f"{game_id}: only {sorted(seen)} refused"


def test_a_wrong_refusal_is_told_apart():
    good = {"code": "not_your_turn", "details": {"turn": "p1", "player": "p0"}}
    assert not refusal_errors("man", good)
    assert refusal_errors("man", {**good, "details": {"turn": "p1"}})
    assert refusal_errors("man", {**good, "details": {"turn": "p1", "player": "p0", "x": 1}})
    assert refusal_errors("man", {**good, "details": {"turn": 1, "player": "p0"}})
    assert refusal_errors("man", {"code": "no_such_code"})
    assert refusal_errors("man", {"code": "cards_empty", "details": {"card": "S5"}})


def test_details_derive_from_the_placeholders_of_both_languages():
    assert placeholders("It is {turn}'s turn, not {player}'s.", "{player} {call_ja}") == (
        "turn", "player", "call_ja")
    kinds = {"turn": Field("player"), "player": Field("player"), "call_ja": Field("str")}
    derived = refusal_details({"a": ("{turn} {player}", "{call_ja}"), "b": ("none", "なし")},
                              kinds, explicit={"b": {"x": Field("int")}},
                              sent=lambda n: not n.endswith("_ja"))
    assert {k: list(v) for k, v in derived.items()} == {"a": ["turn", "player"], "b": ["x"]}
    with pytest.raises(KeyError):
        refusal_details({"a": ("{unknown}", "")}, kinds)
    with pytest.raises(KeyError):
        refusal_details({"a": ("", "")}, kinds, explicit={"b": {}})


def test_what_a_refusal_says_for_people_is_a_text_in_both_languages_never_a_ja_twin():
    """A detail a person reads is one `text` {en, ja} beside its code (`where` and
    `where_text`), as on events: no game declares a `<name>_ja` detail."""
    for game_id in PRODUCT_GAMES:
        for code, fields in registry.get(game_id).refusal_details.items():
            twins = [name for name in fields if name.endswith("_ja")]
            assert not twins, (game_id, code, twins)


@pytest.mark.parametrize("code, shape", [("cards_duplicate", {"card": "card"}),
                                          ("not_your_turn", {"turn": "player",
                                                             "player": "player"})])
def test_a_code_shared_by_games_has_the_same_details_in_every_game(code, shape):
    """One code, one details shape: a client reads `cards_duplicate` or `not_your_turn` the
    same way whichever game answered it."""
    declaring = [g for g in PRODUCT_GAMES if code in registry.get(g).refusal_details]
    assert len(declaring) >= 3, declaring
    for game_id in declaring:
        fields = registry.get(game_id).refusal_details[code]
        assert {k: f.kind for k, f in fields.items()} == shape, (game_id, code)
