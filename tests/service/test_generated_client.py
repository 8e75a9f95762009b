"""A client generated from openapi.yaml by openapi-python-client, default configuration, plays a
complete deal of every game against the service running under gunicorn (issue #14).

Every call goes through the generated client and its models: the deal, each seat's legal
actions, each action posted back as the model the service listed, each state posted back as the
model it came in. States are signed, so a model that lost or changed a single field on its round
trip would be refused (403). Generation failing, or warning, fails the test (never a skip).
"""
from __future__ import annotations

import importlib
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine import registry
from tests.service.serving import gunicorn_service

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "openapi.yaml"
PACKAGE = "card_referee_client"
REFEREE_KEY = "generated-client-referee"
PRODUCT_GAMES = sorted(g.id for g in registry.all_games() if g.id not in ("toy", "crash"))
MAX_STEPS = 1500
ENGINE_WIDE = ("game_finished", "number_out_of_range")  # refused alike in every game
# one worker runs this file: the client is generated, and the service started, once
pytestmark = pytest.mark.xdist_group("generated_client")


def _generator() -> list[str]:
    exe = Path(sys.executable).with_name("openapi-python-client")
    if exe.exists():
        return [str(exe)]
    found = shutil.which("openapi-python-client")
    assert found, ("openapi-python-client is not installed: `pip install -e .[dev]` "
                   "(this test is never skipped)")
    return [found]


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    """The client package, generated with the default configuration into a temporary dir."""
    out = tmp_path_factory.mktemp("client") / "generated"
    env = {**os.environ,
           # its post-generation hooks run ruff: the venv's, next to the generator
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    proc = subprocess.run(_generator() + ["generate", "--path", str(SPEC), "--output-path", str(out)],
                          capture_output=True, text=True, env=env, timeout=120)
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, output
    assert "warning" not in output.lower(), output
    assert "error" not in output.lower(), output
    assert (out / PACKAGE / "__init__.py").exists(), output
    sys.path.insert(0, str(out))
    try:
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(out))


@pytest.fixture(scope="module")
def service(tmp_path_factory):
    """The service under gunicorn on a loopback port, signing states, with a referee key."""
    with gunicorn_service(tmp_path_factory.mktemp("gunicorn"),
                          CARDREF_STATE_SECRET="generated-client-test",
                          CARDREF_REFEREE_KEYS=REFEREE_KEY, CARDREF_REDIS_URL="") as base:
        yield base


def seat_count(game_id: str) -> int:
    game = registry.get(game_id)
    return 4 if game.min_players <= 4 <= game.max_players else game.min_players


def _model_name(game_id: str, action_type: str) -> str:
    return "".join(w.capitalize() for p in (game_id, action_type) for w in p.split("_")) + "Action"


def _type_of(action) -> str:
    kind = action.type_
    return getattr(kind, "value", kind)


def _choose(rnd: random.Random, legal: list):
    """A random legal action, preferring ones that move the deal on (a random walk through
    Man's draws and passes can take very long)."""
    moving = [a for a in legal if _type_of(a) not in ("draw", "pass", "chombo", "end_turn")]
    return rnd.choice(moving if moving and rnd.random() < 0.8 else legal)


def _pascal(game_id: str) -> str:
    return "".join(w.capitalize() for w in game_id.split("_"))


def _typed_refusal(error, sent: dict, game_id: str) -> str:
    """A refusal read as its own game's model for its code (`<Game><Code>Refusal`, or the
    engine-wide one for game_finished and number_out_of_range) losing nothing, its details
    a declared details model: the code. A Guandan not_your_turn is GuandanNotYourTurnRefusal,
    never another game's same-coded model."""
    code = sent["error"]["code"]
    assert sent["error"]["game"] == game_id
    engine_wide = _pascal(code) + "Refusal"
    own = _pascal(game_id) + engine_wide
    assert type(error).__name__ == (engine_wide if code in ENGINE_WIDE else own), \
        (type(error), game_id, code)
    if "details" in sent["error"]:
        assert type(error.details).__name__ == type(error).__name__ + "Details", error.details
    assert error.to_dict() == sent["error"]
    # a rule cited links to it: the rules page in the answer's language, at its number
    if "rule" in sent["error"]:
        number = sent["error"]["rule"].split(" ", 1)[1]
        assert error.rule_url == f"/v1/games/{game_id}/rules.en.html#{number}", error.rule_url
    return code


def test_generation_is_clean_and_the_client_plays_every_game(generated, service):
    """Typed throughout: each game's deal request with its own options model (every declared
    option, at its default), each event read as a declared event model losing nothing, and a
    finished deal's next_match model passed as the next deal's `match` (signed: a changed or
    lost field would be refused)."""
    import json

    from card_referee_client import Client, models
    from card_referee_client.api.ops import healthz, readyz
    from card_referee_client.api.v1 import deal, legal_actions, list_games, validate_action, view
    from card_referee_client.models import Status, ValidateAccepted, ValidateRefused

    client = Client(base_url=service, raise_on_unexpected_status=True,
                    headers={"Authorization": f"Bearer {REFEREE_KEY}"}, timeout=30)
    with client:
        assert healthz.sync(client=client).status == "ok"
        ready = readyz.sync(client=client)
        assert sorted(ready.games) == PRODUCT_GAMES
        listed = list_games.sync(client=client)
        assert sorted(g.id for g in listed.games) == PRODUCT_GAMES

        finished, refused = {}, {}
        for game_id in PRODUCT_GAMES:
            game = registry.get(game_id)
            players = [f"p{i}" for i in range(seat_count(game_id))]
            rnd = random.Random(f"client-{game_id}")
            options_model = getattr(models, f"{_pascal(game_id)}Options")
            defaults = {o.name: list(o.default) if isinstance(o.default, tuple) else o.default
                        for o in game.options}
            options = options_model.from_dict(defaults)
            assert options.to_dict() == defaults  # the model carries every declared option
            request_model = getattr(models, f"{_pascal(game_id)}DealRequest")
            dealt = deal.sync(game=game_id, client=client, body=request_model(
                players=players, seed=f"client-{game_id}", options=options))
            assert dealt.state.game == game_id
            assert dealt.state.options.to_dict() == defaults
            state, status, to_act, steps = dealt.state, dealt.status, dealt.to_act, 0
            # the requests that carry a state are the game's own models, naming it (`game`)
            typed = {kind: getattr(models, f"{_pascal(game_id)}{kind}Request")
                     for kind in ("Validate", "LegalActions", "View")}
            named = {kind: getattr(models, f"{_pascal(game_id)}{kind}RequestGame")(game_id)
                     for kind in typed}

            def ask(kind, **fields):
                return typed[kind](game=named[kind], **fields)

            def post(action):
                answer = validate_action.sync_detailed(client=client, body=ask(
                    "Validate", state=state, action=action))
                return answer, json.loads(answer.content)

            stale = None  # an action listed earlier, posted again later: a refusal of the game's
            while status != "finished":
                assert steps < MAX_STEPS, f"{game_id}: not finished after {MAX_STEPS} actions"
                legal = []
                for player in to_act:
                    got = legal_actions.sync(client=client, body=ask(
                        "LegalActions", state=state, player=player))
                    assert got.count == len(got.actions)
                    # each parsed as its own game's model (`play` is in four games)
                    assert all(type(a).__name__ == _model_name(game_id, _type_of(a))
                               and a.game.value == game_id for a in got.actions), got.actions
                    legal += got.actions
                assert legal, f"{game_id}: {to_act} may act but have no legal action"
                chosen = _choose(rnd, legal)
                others = [p for p in players if p not in to_act]
                if others and len(refused.get(game_id, ())) < 3:  # a seat out of turn
                    wrong = type(chosen).from_dict({**chosen.to_dict(),
                                                    "player": others[steps % len(others)]})
                    answer, sent = post(wrong)
                    if not sent["valid"]:
                        refused.setdefault(game_id, []).append(_typed_refusal(
                            answer.parsed.error, sent, game_id))
                if stale is not None and steps % 5 == 0:
                    # an action of an earlier state, made by a seat whose turn it is now (a
                    # card it never held, a declaration since beaten …): most often refused,
                    # each refusal read as its game's model
                    answer, sent = post(type(stale).from_dict({**stale.to_dict(),
                                                               "player": to_act[0]}))
                    if not sent["valid"]:
                        refused.setdefault(game_id, []).append(_typed_refusal(
                            answer.parsed.error, sent, game_id))
                if steps % 7 == 0:
                    stale = chosen
                answer, sent = post(chosen)
                out = answer.parsed
                assert isinstance(out, ValidateAccepted), out
                # every event read as its own game's model, nothing lost on the way (games
                # share event types: `play` is in four)
                assert all(type(e).__name__ == f"{_pascal(game_id)}{_pascal(e.type_.value)}Event"
                           for e in out.events), out.events
                assert [e.to_dict() for e in out.events] == sent["events"]
                assert all(d.game.value == game_id for d in out.score_deltas)
                if steps % 10 == 0 or out.status == Status.FINISHED:
                    # each seat's and the spectator's view: its game's declared view model
                    for seat in [*players, None]:
                        seen = view.sync_detailed(client=client, body=ask(
                            "View", state=out.state, player=seat))
                        assert type(seen.parsed.view).__name__ == f"{_pascal(game_id)}View", \
                            seen.parsed
                        assert seen.parsed.view.to_dict() == json.loads(seen.content)["view"]
                state, to_act = out.state, out.to_act
                status = out.status.value
                steps += 1
            assert out.seed == f"client-{game_id}"
            # the finished deal refuses any action: the engine-wide refusal, typed too
            answer, sent_after = post(chosen)
            assert isinstance(answer.parsed, ValidateRefused), answer.parsed
            refused.setdefault(game_id, []).append(
                _typed_refusal(answer.parsed.error, sent_after, game_id))
            assert refused[game_id][-1] == "game_finished"
            if sent.get("next_match") is not None:
                summary = out.next_match
                assert type(summary).__name__ == f"{_pascal(game_id)}MatchSummary", summary
                assert summary.to_dict() == sent["next_match"]
                again = deal.sync(game=game_id, client=client,
                                  body=request_model(players=players, match=summary))
                assert again.state.game == game_id and again.status == "in_progress"
            finished[game_id] = steps
        assert sorted(finished) == PRODUCT_GAMES
        print("refusals read typed:", {g: sorted(set(c)) for g, c in refused.items()})
        # beyond game_finished, every game refused a seat out of turn and stale actions, each
        # refusal its own game's model with typed details
        assert all(len(set(codes)) > 2 for codes in refused.values()), refused


def test_a_preset_alone_is_sent_alone_and_each_game_deals_at_its_own_path(generated, service):
    """An options model with only a preset sends only the preset (a default the spec put in
    the model would be sent too and override the preset's value), and each game's own deal
    path (`deal_<game>`) takes that game's deal request."""
    from card_referee_client import Client, api, models

    with Client(base_url=service, raise_on_unexpected_status=True, timeout=30) as client:
        for game_id in PRODUCT_GAMES:
            game = registry.get(game_id)
            preset = next(p for p, values in sorted(game.presets.items()) if values)
            options = getattr(models, f"{_pascal(game_id)}Options")(
                preset=getattr(models, f"{_pascal(game_id)}OptionsPreset")(preset))
            assert options.to_dict() == {"preset": preset}
            players = [f"p{i}" for i in range(seat_count(game_id))]
            dealer = importlib.import_module(f"{api.__name__}.v1.deal_{game_id}")
            dealt = dealer.sync(client=client, body=getattr(
                models, f"{_pascal(game_id)}DealRequest")(players=players, options=options))
            resolved = dealt.state.options.to_dict()
            assert {k: resolved[k] for k in game.presets[preset]} == {
                k: list(v) if isinstance(v, tuple) else v
                for k, v in game.presets[preset].items()}, (game_id, preset)


@pytest.fixture(scope="module")
def mypy_cache(tmp_path_factory) -> Path:
    """One mypy cache for every check of this module: the generated package is read once."""
    return tmp_path_factory.mktemp("mypy-cache")


def _mypy_strict_then_run(path: Path, service: str, cache: Path) -> str:
    """`mypy --strict` on a program using the generated client, then its run against the
    service: its output."""
    package_dir = Path(sys.modules[PACKAGE].__file__).parents[1]
    env = {**os.environ, "MYPYPATH": str(package_dir), "PYTHONPATH": str(package_dir)}
    checked = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent",
         "--cache-dir", str(cache), str(path)],
        capture_output=True, text=True, env=env, timeout=300)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    ran = subprocess.run([sys.executable, str(path), service], capture_output=True, text=True,
                         env=env, timeout=120)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    return ran.stdout


def test_a_python_front_end_draws_daifugo_tables_and_buttons_in_both_languages(
        generated, service, mypy_cache):
    """tests/service/client_table_program.py, typed by the generated client alone (`mypy
    --strict`), plays a Daifugo deal and at every step draws each seat's and the spectator's
    table from `to_act`, `summary` and `standings`, the deck's card names and the listed
    actions' `text`, in English and in Japanese: every string non-empty, Japanese where the
    API's words are."""
    import re

    output = _mypy_strict_then_run(ROOT / "tests" / "service" / "client_table_program.py",
                                   service, mypy_cache)
    print(output)
    drawn = re.search(r"^daifugo: (\d+) actions, (\d+) tables drawn in en and ja, (\d+) lines "
                      r"worded apart$", output, re.MULTILINE)
    assert drawn and all(int(n) > 0 for n in drawn.groups()), output
    # the first table of a seat to act: its buttons, worded in each language
    shown = dict(re.findall(r"^table (en|ja): (.*)$", output, re.MULTILINE))
    assert set(shown) == {"en", "ja"} and shown["en"] != shown["ja"], output
    assert re.search(r"\| \[Play ", shown["en"]) and re.search(r"\| \[\S+ を出す", shown["ja"]), shown


def test_the_python_of_docs_integrating_passes_mypy_strict_and_runs(generated, service, tmp_path,
                                                                   mypy_cache):
    """docs/integrating.md's Python quick start, against the client generated here: `mypy
    --strict` finds nothing, and it runs against the service (its base URL swapped in)."""
    import re

    page = (ROOT / "docs" / "integrating.md").read_text(encoding="utf-8")
    snippets = re.findall(r"```python\n(.*?)```", page, re.DOTALL)
    assert snippets, "docs/integrating.md has no Python snippet"
    package_dir = Path(sys.modules[PACKAGE].__file__).parents[1]
    env = {**os.environ, "MYPYPATH": str(package_dir), "PYTHONPATH": str(package_dir)}
    for i, snippet in enumerate(snippets):
        path = tmp_path / f"snippet_{i}.py"
        path.write_text(snippet, encoding="utf-8")
        checked = subprocess.run(
            [sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent",
             "--cache-dir", str(mypy_cache), str(path)],
            capture_output=True, text=True, env=env, timeout=300)
        assert checked.returncode == 0, checked.stdout + checked.stderr
        path.write_text(snippet.replace("http://127.0.0.1:8000", service), encoding="utf-8")
        ran = subprocess.run([sys.executable, str(path)], capture_output=True, text=True,
                             env=env, timeout=60)
        assert ran.returncode == 0, ran.stdout + ran.stderr
