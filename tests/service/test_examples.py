"""examples/: one whole tournament match per game, made by tools/make_examples.py. Each is what the
tool makes (so the files stay true to the engine), is filled in like a real tournament's (tags,
seeded and physical deals, the referee's rulings, results and totals), and checks consistent
with its recorded totals through the CLI and over HTTP, as README shows."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from engine import records, registry, sheets
from engine.referee import LEDGER_ACTION_TYPES
from service import cli
from tools import make_examples

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
# the games with an example match: a game needs none to be served (a new one has none yet)
GAMES = sorted(p.stem for p in EXAMPLES.glob("*.json"))
CJK = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def example_bytes(game_id: str) -> bytes:
    return (EXAMPLES / f"{game_id}.json").read_bytes()


def example(game_id: str) -> dict:
    return json.loads(example_bytes(game_id))


def test_every_example_is_of_a_registered_game_and_made_by_its_plan():
    assert GAMES and set(GAMES) <= {g.id for g in registry.all_games()}, GAMES
    assert sorted(plan.game for plan in make_examples.PLANS) == GAMES


@pytest.mark.parametrize("plan", make_examples.PLANS, ids=lambda p: p.game)
def test_each_example_is_what_tools_make_examples_makes(plan):
    made = make_examples.make(plan)
    assert make_examples.dumps(made) == example_bytes(plan.game).decode("utf-8"), \
        "examples/ differs from what the engine plays now: run python -m tools.make_examples"


@pytest.mark.parametrize("game_id", GAMES)
def test_each_example_is_filled_in_like_a_tournaments_match(game_id):
    record = example(game_id)
    game = registry.get(game_id)
    tags = record["tags"]
    assert {"event", "site", "date", "round", "table", "referee", "names", "engine"} <= set(tags)
    assert set(tags["names"]) == set(record["players"])
    deals = record["deals"]
    assert all("result" in d and d["result"]["status"] == "finished" for d in deals)
    assert "totals" in record and record["digest"].startswith("sha256:")
    seeded = [d for d in deals if "seed" in d["deal"]]
    assert all({"seed_salt", "seed_commitment"} <= set(d["deal"]) for d in seeded)
    if game.physical is not None:
        assert any("hands" in d["deal"] for d in deals), "a deal from the physical cards"
    actions = [a for d in deals for a in d["actions"]]
    rulings = [a for a in actions if a["action"]["type"] in LEDGER_ACTION_TYPES | {"chombo"}]
    assert {a["action"]["type"] for a in rulings} & {"warning", "penalty", "chombo"}
    assert any(a.get("comment") for a in actions)
    if next((p for p in make_examples.PLANS if p.game == game_id)).deals > 1:
        assert len(deals) > 1
    else:  # Manteur: a deal is a whole game of rounds, each ended by a challenge
        assert sum(a["action"]["type"] == "challenge" for a in actions) > 1


def test_some_examples_name_their_players_in_japanese_and_man_has_a_chombo():
    assert any(CJK.search(n) for g in GAMES for n in example(g)["tags"]["names"].values())
    assert any(a["action"]["type"] == "chombo"
               for d in example("man")["deals"] for a in d["actions"])


@pytest.mark.parametrize("game_id", GAMES)
def test_each_example_checks_consistent_over_http_with_its_recorded_totals(client, game_id):
    record = example(game_id)
    resp = client.post("/v1/records/check", data=example_bytes(game_id),
                       content_type="application/json")
    assert resp.status_code == 200, resp.get_json()
    report = resp.get_json()
    assert report["consistent"] and report["discrepancy"] is None
    assert report["digest"] == record["digest"] and report["digest_matches"] is True
    assert report["totals"] == record["totals"]
    assert [d["totals"] for d in report["deals"]] == [d["result"]["totals"] for d in record["deals"]]


@pytest.mark.parametrize("game_id", GAMES)
def test_each_example_checks_consistent_through_the_cli_with_its_recorded_totals(game_id, capsys):
    record = example(game_id)
    assert cli.main(["check", str(EXAMPLES / f"{game_id}.json"), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["consistent"] and report["digest_matches"] is True
    assert report["totals"] == record["totals"]
    assert cli.main(["check", str(EXAMPLES / f"{game_id}.json"), "--lang", "ja"]) == 0
    assert record["digest"] in capsys.readouterr().out


@pytest.mark.parametrize("game_id", GAMES)
def test_each_examples_sheet_through_the_cli_is_the_checked_records(game_id, capsys):
    record = example(game_id)
    report = records.check_record(example(game_id), keep_steps=True)
    assert report["consistent"] and report["totals"] == record["totals"]
    assert cli.main(["sheet", str(EXAMPLES / f"{game_id}.json"), "--format", "csv"]) == 0
    assert capsys.readouterr().out == sheets.render(record, report, "csv", "en")


def test_the_readme_checks_an_example_with_curl():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for path in re.findall(r"@(examples/\w+\.json)", readme):
        assert (ROOT / path).exists(), path
    assert "/v1/records/check" in readme and "/v1/records/sheet" in readme


ELIDED = "…"


def _fits(printed, actual, where="answer") -> list[str]:
    """Where a printed answer (docs' `…` marks what it leaves out: a string cut short, a list's
    items, an object's other keys) differs from the service's."""
    if isinstance(printed, str) and printed.endswith(ELIDED):
        ok = isinstance(actual, str) and actual.startswith(printed[:-1])
        return [] if ok else [f"{where}: {actual!r} does not start {printed[:-1]!r}"]
    if printed == [ELIDED]:
        return [] if isinstance(actual, list) else [f"{where}: not a list"]
    if isinstance(printed, dict):
        if not isinstance(actual, dict):
            return [f"{where}: not an object"]
        wrong = [f"{where}.{k}: missing" for k in printed if k != ELIDED and k not in actual]
        if ELIDED not in printed:
            wrong += [f"{where}.{k}: not printed" for k in actual if k not in printed]
        for key, value in printed.items():
            if key != ELIDED and key in actual:
                wrong += _fits(value, actual[key], f"{where}.{key}")
        return wrong
    return [] if printed == actual else [f"{where}: printed {printed!r}, answered {actual!r}"]


@pytest.mark.parametrize("page", ["records.md", "records.ja.md"])
def test_the_docs_verify_deal_example_answers_what_the_docs_print(page):
    # The page's curl command and the answer printed under it: run against the service, the
    # answer must be the printed one (`…` elides), so the example cannot rot.
    from service.app import create_app
    from service.config import Settings

    text = (ROOT / "docs" / page).read_text(encoding="utf-8")
    found = re.search(r"curl -s localhost:8000(/v1/verify-deal) .*?-d '(\{.*?\})'\n```\s*\n"
                      r"```json\n(.*?)\n```", text, re.S)
    assert found, f"docs/{page} shows no verify-deal example"
    path, body, printed = found.group(1), json.loads(found.group(2)), json.loads(found.group(3))
    resp = create_app(Settings(metrics=False)).test_client().post(path, json=body)
    assert resp.status_code == 200, resp.get_json()
    assert printed["matches"] is True, "the example shows a deal that verifies"
    assert not _fits(printed, resp.get_json()), _fits(printed, resp.get_json())
