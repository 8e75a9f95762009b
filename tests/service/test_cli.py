"""The referee's console commands."""
import json
import shlex
import subprocess
import sys
from pathlib import Path

from engine import rng
from service import cli


def test_verify_seed_checks_seed_and_salt_against_the_commitment(capsys):
    salt = rng.new_salt()
    committed = rng.commitment("table-7", salt)
    assert cli.main(["verify-seed", "table-7", committed, "--salt", salt]) == 0
    assert capsys.readouterr().out.strip() == "match"
    assert cli.main(["verify-seed", "table-8", committed, "--salt", salt]) == 1
    assert cli.main(["verify-seed", "table-7", committed, "--salt", rng.new_salt()]) == 1
    # a salted commitment never passes as a bare one
    assert cli.main(["verify-seed", "table-7", committed]) == 1
    assert cli.main(["verify-seed", "table-7", committed, "--salt", "not-a-salt"]) == 2


def test_verify_seed_without_a_salt_checks_an_unsalted_commitment(capsys):
    # deals made before commitments were salted published the seed's bare SHA-256
    assert cli.main(["verify-seed", "table-7", rng.commitment("table-7")]) == 0
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
    log.write_text(json.dumps({"deal": {"game": "man", "players": ["a", "b", "c"], "seed": "cli",
                                        "seed_salt": dealt["state"]["seed_salt"]},
                               "actions": actions}))
    assert cli.main(["replay", str(log), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["state"] == state and len(printed["steps"]) == len(actions)

    bad = actions + [{"type": "pass", "player": "zz"}]
    log.write_text(json.dumps({"deal": {"game": "man", "players": ["a", "b", "c"], "seed": "cli",
                                        "seed_salt": dealt["state"]["seed_salt"]},
                               "actions": bad}))
    assert cli.main(["replay", str(log)]) == 2  # a malformed action: the log itself is bad


def test_replay_prints_a_table_of_steps_for_a_person(tmp_path, capsys):
    actions = [{"type": "penalty", "player": "bob", "points": 2, "reason": "slow play"},
               {"type": "warning", "player": "ann"}]
    log = tmp_path / "table.json"
    log.write_text(json.dumps({"deal": {"game": "man", "players": ["ann", "bob"],
                                        "seed": "table"}, "actions": actions}))
    assert cli.main(["replay", str(log)]) == 0
    lines = capsys.readouterr().out.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("#"))
    assert lines[head].split() == ["#", "player", "action", "score", "to", "act", "status"]
    assert lines[head + 1].split()[:6] == ["1", "bob", "penalty", "points=2", "reason=slow",
                                           "play"]
    assert "bob -2" in lines[head + 1]
    assert lines[head + 2].split()[:3] == ["2", "ann", "warning"]
    assert lines[-1].startswith("Totals: bob -2")
    assert cli.main(["replay", str(log), "--lang", "ja"]) == 0
    assert "合計: bob -2" in capsys.readouterr().out


def test_openapi_command_writes_the_committed_spec(tmp_path):
    from tests.service.test_openapi import generated_spec

    target = tmp_path / "spec.yaml"
    assert cli.main(["openapi", str(target)]) == 0
    assert target.read_text() == generated_spec()


# ---------------------------------------------------------------- bad input (issue #14)

import pytest  # noqa: E402

GOOD_DEAL = {"game": "man", "players": ["a", "b", "c"], "seed": "cli"}


@pytest.mark.parametrize("content, says", [
    (None, "no such file"),
    ("{not json", "not JSON"),
    ("[1, 2]", "JSON object"),
    ('{"actions": []}', "no deal"),
    ('{"deal": {"players": ["a", "b"]}, "actions": []}', "deal.game"),
    ('{"deal": {"game": "man"}, "actions": []}', "deal.players"),
    ('{"deal": {"game": "nope", "players": ["a", "b"]}, "actions": []}', "game_unknown"),
    (json.dumps({"deal": GOOD_DEAL, "actions": {"x": 1}}), "actions"),
    (json.dumps({"deal": GOOD_DEAL, "actions": [{"type": "pass", "player": "zz"}]}), "action"),
    (json.dumps({"deal": GOOD_DEAL, "actions": [7]}), "action"),
    ("\xff\xfe", ""),
])
def test_replay_bad_input_is_one_line_and_exit_2(tmp_path, capsys, content, says):
    path = tmp_path / "log.json"
    if content is not None:
        if content == "\xff\xfe":
            path.write_bytes(b"\xff\xfe\x00")
        else:
            path.write_text(content)
    assert cli.main(["replay", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("card-referee replay: error:"), err
    assert "Traceback" not in err and says in lines[0]


def test_replay_directory_is_bad_input(tmp_path, capsys):
    assert cli.main(["replay", str(tmp_path)]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_refused_action_exits_1_distinct_from_bad_input(tmp_path, capsys):
    from engine import adjudicate

    state = adjudicate.deal("man", ["a", "b", "c"], seed="cli")["state"]
    legal = {(a["type"], a.get("player")) for p in state["players"]
             for a in adjudicate.legal_actions(state, p)}
    # A well-formed action by a seated player that is not legal now: refused, not malformed.
    player = next(p for p in state["players"] if ("pass", p) not in legal)
    path = tmp_path / "log.json"
    path.write_text(json.dumps({"deal": GOOD_DEAL, "actions": [{"type": "pass", "player": player}]}))
    code = cli.main(["replay", str(path), "--json"])
    out = capsys.readouterr().out
    assert code == 1, out
    assert json.loads(out)["stopped"]["error"]["code"]


def test_replay_help_describes_the_log_format(capsys):
    with pytest.raises(SystemExit) as exit_:
        cli.main(["replay", "--help"])
    assert exit_.value.code == 0
    text = capsys.readouterr().out
    for needle in ('"deal"', '"actions"', "deal.game", "deal.players", "Exit status", "stdin"):
        assert needle in text


def test_usage_errors_exit_2(capsys):
    with pytest.raises(SystemExit) as exit_:
        cli.main(["replay"])
    assert exit_.value.code == 2


def test_healthcheck_asks_the_bound_address_and_exits_by_the_answer(monkeypatch, capsys):
    import http.server
    import socket
    import threading

    assert cli.healthz_url("0.0.0.0:8000") == "http://127.0.0.1:8000/healthz"
    assert cli.healthz_url("[::]:9000") == "http://[::1]:9000/healthz"
    assert cli.healthz_url("10.1.2.3:81") == "http://10.1.2.3:81/healthz"
    assert cli.main(["healthcheck", "--bind", "unix:/run/referee.sock"]) == 2

    answers = {"/healthz": 200}

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(answers.get(self.path, 404))
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        bind = f"0.0.0.0:{server.server_address[1]}"
        monkeypatch.setenv("CARDREF_BIND", bind)  # what the Docker image's HEALTHCHECK follows
        assert cli.main(["healthcheck"]) == 0
        answers["/healthz"] = 503
        assert cli.main(["healthcheck"]) == 1
        assert "answered 503" in capsys.readouterr().err
    finally:
        server.shutdown()
        server.server_close()
    with socket.socket() as unused:  # a port nothing listens on: unhealthy, not a traceback
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    assert cli.main(["healthcheck", "--bind", f"127.0.0.1:{port}", "--timeout", "1"]) == 1


def test_serve_stops_cleanly_on_ctrl_c(tmp_path):
    """Ctrl-C in a terminal sends SIGINT to the whole process group (master and workers): the
    service stops within the graceful timeout and prints no traceback."""
    import os
    import signal
    import subprocess
    import sys
    import time
    import urllib.request

    from tests.redis_server import free_port
    from tests.service.serving import ROOT

    port = free_port()
    env = {**os.environ, "HOME": str(tmp_path), "CARDREF_BIND": f"127.0.0.1:{port}",
           "CARDREF_WORKERS": "2", "CARDREF_LOG_FORMAT": "text"}
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    proc = subprocess.Popen([sys.executable, "-m", "service.cli", "serve"], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2):
                    break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline, "serve did not start"
                time.sleep(0.2)
        os.killpg(proc.pid, signal.SIGINT)
        out, _ = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    text = out.decode()
    assert proc.returncode == 0, text
    assert "Traceback" not in text and "SystemExit" not in text, text
    assert "Shutting down: Master" in text


# ---------------------------------------------------------------- card-referee event

EVENT_SALT = "0123456789abcdef0123456789abcdef"


def _event_file(tmp_path, document, name="event.json"):
    path = tmp_path / name
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def test_event_next_round_writes_the_engines_next_round_and_reveal_round_reveals_it(
        tmp_path, capsys):
    from engine.events import next_round, reveal_round, verify_seating
    from tests.events.helpers import event

    start = event(7)
    source = _event_file(tmp_path, start)
    assert cli.main(["event", "next-round", str(source), "--seed", "r1",
                     "--salt", EVENT_SALT]) == 0
    seated = json.loads(capsys.readouterr().out)
    assert seated == next_round(start, "r1", EVENT_SALT)
    assert "seed" not in seated["rounds"][0]

    out = tmp_path / "revealed.json"
    assert cli.main(["event", "reveal-round", str(_event_file(tmp_path, seated, "seated.json")),
                     "--round", "1", "--seed", "r1", "--salt", EVENT_SALT, "-o", str(out)]) == 0
    revealed = json.loads(out.read_text(encoding="utf-8"))
    assert revealed == reveal_round(seated, 1, "r1", EVENT_SALT)
    assert verify_seating(revealed, 1)


def test_event_next_round_seats_a_plan_from_a_file(tmp_path, capsys):
    from tests.events.helpers import event

    plan = _event_file(tmp_path, {"tables": [["p3", "p2", "p1", "p0"]], "byes": ["p4"]},
                       "plan.json")
    assert cli.main(["event", "next-round", str(_event_file(tmp_path, event(5))),
                     "--seed", "r1", "--plan", str(plan)]) == 0
    rnd = json.loads(capsys.readouterr().out)["rounds"][0]
    assert rnd["method"] == "fixed" and rnd["byes"] == ["p4"]
    assert [s["entrant"] for s in rnd["tables"][0]["seats"]] == ["p3", "p2", "p1", "p0"]


@pytest.mark.parametrize("args, says", [
    (["next-round", "{file}", "--seed", "r1", "--salt", "XYZ"], "event_invalid at seed_salt"),
    (["next-round", "{bad}", "--seed", "r1"], "event_invalid at format"),
    (["reveal-round", "{file}", "--round", "1", "--seed", "r1"], "event_invalid at rounds"),
    (["next-round", "{missing}", "--seed", "r1"], "no such file"),
])
def test_event_commands_name_a_fault_in_one_line_and_exit_2(tmp_path, capsys, args, says):
    from tests.events.helpers import event

    files = {"file": _event_file(tmp_path, event(5)),
             "bad": _event_file(tmp_path, {**event(5), "format": "x"}, "bad.json"),
             "missing": tmp_path / "nowhere.json"}
    assert cli.main(["event", *(a.format(**files) for a in args)]) == 2
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1, err


def test_event_reveal_round_with_a_wrong_seed_is_commitment_mismatch(tmp_path, capsys):
    from engine.events import next_round
    from tests.events.helpers import event

    seated = _event_file(tmp_path, next_round(event(6), "r1", EVENT_SALT))
    assert cli.main(["event", "reveal-round", str(seated), "--round", "1", "--seed", "r2",
                     "--salt", EVENT_SALT]) == 2
    assert "commitment_mismatch at rounds[0].seed_commitment" in capsys.readouterr().err


def _played_event(tmp_path, broken: bool = False):
    from engine.events import next_round, reveal_round
    from tests.events.helpers import event

    ev = next_round(event(5), "r1", EVENT_SALT)
    table = ev["rounds"][0]["tables"][0]
    table["result"] = {"reported": {"places": {s["entrant"]: k + 1
                                               for k, s in enumerate(table["seats"])}}}
    ev = reveal_round(ev, 1, "r1", EVENT_SALT)
    if broken:
        ev["rounds"][0]["seed"] = "not the seed"
    return ev, _event_file(tmp_path, ev, "played.json")


def test_event_standings_prints_the_table_or_the_report_as_json(tmp_path, capsys):
    from engine.events.publish import standings_report

    ev, path = _played_event(tmp_path)
    assert cli.main(["event", "standings", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == standings_report(ev, "en")
    assert cli.main(["event", "standings", str(path), "--lang", "ja"]) == 0
    out = capsys.readouterr().out
    first = standings_report(ev, "ja")["standings"][0]
    assert "順位" in out and "整合" in out
    assert out.splitlines()[2].split()[0] == "1" and first["entrant"] in out.splitlines()[2]


def test_event_check_exits_1_naming_the_discrepancy(tmp_path, capsys):
    _, path = _played_event(tmp_path)
    assert cli.main(["event", "check", str(path)]) == 0
    assert "CONSISTENT" in capsys.readouterr().out
    _, broken = _played_event(tmp_path, broken=True)
    assert cli.main(["event", "check", str(broken)]) == 1
    out = capsys.readouterr().out
    assert "DISCREPANCY: commitment_mismatch at rounds[0]" in out and "Round 1" in out


@pytest.mark.parametrize("fmt", ["text", "csv", "html"])
def test_event_sheet_writes_the_engines_sheet_and_exits_by_the_check(tmp_path, capsys, fmt):
    from engine.events.publish import sheet

    ev, path = _played_event(tmp_path)
    out = tmp_path / f"sheet.{fmt}"
    assert cli.main(["event", "sheet", str(path), "--format", fmt, "--lang", "ja",
                     "-o", str(out)]) == 0
    assert out.read_bytes().decode("utf-8") == sheet(ev, fmt, "ja")  # as written: CSV ends rows CRLF
    _, broken = _played_event(tmp_path, broken=True)
    assert cli.main(["event", "sheet", str(broken), "--format", fmt]) == 1


def test_output_into_a_pipe_closed_early_ends_without_a_traceback():
    """`card-referee … | head`: the reader may close the pipe before the command has written
    everything (here before it writes at all); the command stops quietly, no Python traceback
    on stderr, and says so with 141 (128 + SIGPIPE), as a shell reports it."""
    root = Path(__file__).resolve().parents[2]
    shell = (f"{shlex.quote(sys.executable)} -m service.cli check --json "
             f"{shlex.quote(str(root / 'examples' / 'guandan.json'))} | true")
    done = subprocess.run(["bash", "-o", "pipefail", "-c", shell], capture_output=True,
                          text=True, timeout=60, cwd=root)
    assert "Traceback" not in done.stderr and "BrokenPipe" not in done.stderr, done.stderr
    assert done.returncode == 141
