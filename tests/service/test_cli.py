"""The referee's console commands."""
import json

from engine import rng
from service import cli


def test_verify_seed_matches_the_commitment_published_at_the_deal(capsys):
    assert cli.main(["verify-seed", "table-7", rng.commitment("table-7")]) == 0
    assert capsys.readouterr().out.strip() == "match"
    assert cli.main(["verify-seed", "table-8", rng.commitment("table-7")]) == 1


def test_replay_prints_every_step_and_stops_at_a_refusal(tmp_path, capsys):
    from engine import adjudicate

    dealt = adjudicate.deal("man", ["a", "b", "c"], seed="cli")
    state = dealt["state"]
    actions = []
    for _ in range(6):
        legal = [a for p in state["players"] for a in adjudicate.legal_actions(state, p)]
        out = adjudicate.validate(state, legal[0])
        actions.append(legal[0])
        state = out.state
        if out.status == "finished":
            break
    log = tmp_path / "game.json"
    log.write_text(json.dumps({"deal": {"game": "man", "players": ["a", "b", "c"], "seed": "cli"},
                               "actions": actions}))
    assert cli.main(["replay", str(log)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["state"] == state and len(printed["steps"]) == len(actions)

    bad = actions + [{"type": "pass", "player": "zz"}]
    log.write_text(json.dumps({"deal": {"game": "man", "players": ["a", "b", "c"], "seed": "cli"},
                               "actions": bad}))
    assert cli.main(["replay", str(log)]) == 2  # a malformed action: the log itself is bad


def test_openapi_command_writes_the_committed_spec(tmp_path):
    from tests.service.test_openapi import generated_spec

    target = tmp_path / "spec.yaml"
    assert cli.main(["openapi", str(target)]) == 0
    assert target.read_text() == generated_spec()
