"""The template game (templates/game, docs/adding-a-game.md) is a game as it stands: copied to
`engine/games/<new id>/` in a copy of the repository, with nothing in it renamed and nothing else
edited (the spec regenerated, as the guide says), the registry finds it under the new id, the
service serves it (games list, deal, validate, legal actions, view, replay, records check, its
rules page from inside its package) and the conformance tests, parametrized by every registered
game, pass for it.

The copy runs in subprocesses, so this process's registry never sees the new game. The tests
that compare openapi.yaml with the generated spec are not run there: a new game changes the spec.
The table page is left out (its deck list is being removed separately).
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = ROOT / "templates" / "game"
NEW_ID = "copied_cards"  # no name the template uses: the id must come from the package's name
SKIP = shutil.ignore_patterns("__pycache__", "node_modules", ".hypothesis", "*.pyc")


def run(tree: Path, *args: str, timeout: int = 600) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    return subprocess.run([sys.executable, *args], cwd=tree, env=env, capture_output=True,
                          text=True, timeout=timeout)


@pytest.fixture(scope="module")
def tree(tmp_path_factory) -> Path:
    """A copy of the repository with templates/game copied, unchanged, to engine/games/<NEW_ID>
    and openapi.yaml regenerated from the code (the guide's step after adding a game)."""
    out = tmp_path_factory.mktemp("template") / "repo"
    out.mkdir()
    for name in ("engine", "service", "docs", "tests"):
        shutil.copytree(ROOT / name, out / name, ignore=SKIP)
    for name in ("openapi.yaml", "pyproject.toml"):
        shutil.copy2(ROOT / name, out / name)
    shutil.copytree(TEMPLATE, out / "engine" / "games" / NEW_ID, ignore=SKIP)
    done = run(out, "-m", "service.cli", "openapi", "openapi.yaml")
    assert done.returncode == 0, done.stderr[-3000:]
    return out


# Run in the copy: every endpoint the brief of a game names, through the service's test client.
SERVED = r'''
import json, random, sys
from service.app import create_app
from service.config import Settings
from engine import records
from tests.records import random_record

GAME = sys.argv[1]
client = create_app(Settings(metrics=False)).test_client()


def post(path, body, status=200):
    resp = client.post(path, json=body)
    assert resp.status_code == status, (path, resp.status_code, resp.get_json())
    return resp.get_json()


games = {g["id"]: g for g in client.get("/v1/games").get_json()["games"]}
assert GAME in games, sorted(games)
listed = games[GAME]
assert listed["refusals"] == {"not_your_turn": f"{GAME} 2.2", "card_not_in_hand": f"{GAME} 2.1"}
assert listed["rules"] == f"/v1/games/{GAME}/rules"  # served from inside the package
# its deck, as the table page's card picker reads it: one deck (no option changes it), 52 cards
assert listed["deck"]["options"] == [] and len(listed["deck"]["decks"]) == 1, listed["deck"]
deck = listed["deck"]["decks"][0]
assert deck["size"] == 52 and [c["card"] for c in deck["cards"][:3]] == ["S2", "S3", "S4"], deck
assert deck["cards"][12] == {"card": "SA", "copies": 1, "names": {"en": "♠A", "ja": "♠A"}}

dealt = post(f"/v1/games/{GAME}/deal", {"players": ["ann", "bob", "cy"], "seed": "s"}, 201)
state = dealt["state"]
assert state["game"] == GAME and dealt["to_act"] == ["ann"]
hand = state["hands"]["ann"]
foreign = state["hands"]["bob"][0]

legal = post("/v1/legal-actions", {"state": state, "player": "ann"})["actions"]
assert sorted(a["type"] for a in legal) == ["pass"] + ["play"] * len(hand)

played = post("/v1/validate", {"state": state,
                               "action": {"type": "play", "player": "ann", "card": hand[0]}})
assert played["valid"] and played["to_act"] == ["bob"], played
assert [e["type"] for e in played["events"]] == ["played"]

refused = post("/v1/validate", {"state": state,
                                "action": {"type": "play", "player": "ann", "card": foreign}})
assert not refused["valid"], refused
assert refused["error"]["code"] == "card_not_in_hand", refused
assert refused["error"]["rule"] == f"{GAME} 2.1", refused

view = post("/v1/view", {"state": state, "player": "bob"})["view"]
assert view["hands"]["ann"] is None and view["hands"]["bob"] == state["hands"]["bob"]
assert view["hand_counts"]["ann"] == len(hand) and view["stock"] is None

actions = [{"type": "play", "player": p, "card": state["hands"][p][0]} for p in ("ann", "bob", "cy")]
replayed = post("/v1/replay", {"deal": {"game": GAME, "players": ["ann", "bob", "cy"], "seed": "s"},
                               "actions": actions})
assert replayed["stopped"] is None and len(replayed["steps"]) == 3, replayed
assert sum(replayed["totals"].values()) == 1, replayed["totals"]  # one round, one point (3.1)

record = random_record(GAME, random.Random(7), deals=2)
assert post("/v1/records/check", record)["consistent"]

for lang in ("en", "ja"):
    page = client.get(f"/v1/games/{GAME}/rules?lang={lang}")
    assert page.status_code == 200, (lang, page.status_code, page.get_data(as_text=True)[:300])
    text = page.get_data(as_text=True)
    assert "2.1" in text and "card_not_in_hand" in text
    assert ("手番" in text) == (lang == "ja")
# the HTML page anchors each rule, so a refusal's rule links to its statement
html = client.get(f"/v1/games/{GAME}/rules.html").get_data(as_text=True)
assert 'id="2.1"' in html and 'id="T-a"' in html, html[:500]
print("served")
'''


def test_the_copied_template_is_listed_dealt_adjudicated_and_its_rules_page_served(tree):
    done = run(tree, "-c", SERVED, NEW_ID)
    assert done.returncode == 0 and "served" in done.stdout, done.stdout[-2000:] + done.stderr[-4000:]


def test_the_conformance_tests_pass_for_the_copied_template(tree):
    done = run(tree, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0",
               "tests/conformance", "-k", NEW_ID)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    # the copy was checked, not skipped: 8 tests parametrized by game ran for it
    assert re.search(r"\b8 passed", done.stdout), done.stdout[-2000:]


# The suite's tests parametrized by the registered games (beyond tests/conformance), each
# with how many of its tests run for one game: none needs the new game to be named anywhere.
REGISTRY_TESTS = {
    "tests/engine/test_hidden_information.py": 3,
    "tests/engine/test_rules_translations.py": 7,
    "tests/engine/test_refusal_declarations.py": 3,
    "tests/engine/test_refusal_catalogue.py": 2,
    "tests/engine/test_referee_ledger.py": 3,
    "tests/engine/test_referee_standings.py": 1,
    "tests/engine/test_event_vocabulary.py": 4,
    "tests/engine/test_descriptions.py": 1,
    "tests/engine/test_score_sheets.py": 3,
    "tests/engine/test_decks.py": 1,
}


def test_the_suites_tests_over_every_game_and_the_table_pages_pass_for_the_copied_template(tree):
    """REGISTRY_TESTS for the copy; and the table page's card picker offers every game's deck
    as GET /v1/games publishes it, the copy's among them, and the page's code names no game
    (tests/table/test_page_decks.py, in node: no browser). One run: a run's start costs."""
    page_files = len(list((ROOT / "service" / "table").glob("*.*")))
    done = run(tree, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0",
               *REGISTRY_TESTS, "tests/table/test_page_decks.py",
               "-k", f"{NEW_ID} or offers_each_games_deck or page_names_no_game")
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    expected = sum(REGISTRY_TESTS.values()) + 1 + page_files
    assert re.search(rf"\b{expected} passed", done.stdout), done.stdout[-2000:]


def test_the_template_rules_pages_define_the_same_numbers_and_every_rule_cited():
    """The copy brings its rules page in both languages (its `rules_doc` points inside the
    package): the same rule numbers on both, every refusal's rule among them."""
    found = []
    for name in ("rules.md", "rules.ja.md"):
        text = (TEMPLATE / name).read_text(encoding="utf-8")
        found.append(re.findall(r"^(?:## )?(\d+(?:\.\d+)?|T-[a-z])[. ]", text, re.M))
    assert found[0] == found[1] and len(found[0]) >= 10, found
    messages = (TEMPLATE / "messages.py").read_text(encoding="utf-8")
    for rule in re.findall(r'"(\d+\.\d+)", "', messages):
        assert rule in found[0], rule
