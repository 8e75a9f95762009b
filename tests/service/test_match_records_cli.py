"""`card-referee check FILE`: a match record checked offline, printed for a person (each deal, the
totals, the digest, the discrepancy with its deal, step and rule, counted from 1) or as the API's
report (`--json`); exit 0 consistent, 1 a discrepancy, 2 unreadable."""
from __future__ import annotations

import copy
import json
import random

import pytest

from engine import records
from service import cli
from tests.records import random_record


def _write(tmp_path, record, name="match.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    return str(path)


def test_json_output_is_the_api_report_and_exit_0_when_consistent(tmp_path, capsys):
    record = random_record("guandan", random.Random(1), deals=2)
    assert cli.main(["check", _write(tmp_path, record), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == records.check_record(copy.deepcopy(record))


def test_a_person_reads_each_deal_its_actions_the_totals_and_the_digest(tmp_path, capsys):
    record = random_record("daifugo", random.Random(4), deals=2, comments=0.3)
    assert cli.main(["check", _write(tmp_path, record)]) == 0
    out = capsys.readouterr().out
    report = records.check_record(copy.deepcopy(record))
    for k, entry in enumerate(record["deals"]):
        assert f"Deal {k + 1}: " in out
        if "seed" in entry["deal"]:
            assert entry["deal"]["seed_commitment"] in out
    assert "checked against the seed" in out
    assert report["digest"] in out and "the record carries it" in out
    assert "CONSISTENT" in out
    steps = sum(len(d["actions"]) for d in record["deals"])
    assert len([line for line in out.splitlines() if line[:1].isdigit()]) >= steps
    commented = [a["comment"] for d in record["deals"] for a in d["actions"] if "comment" in a]
    assert all(c in out for c in commented)
    assert "Match totals: " + ", ".join(f"{t} {v:+d}" for t, v in report["totals"].items()) in out


def test_a_discrepancy_is_printed_with_its_deal_step_and_rule_and_exits_1(tmp_path, capsys):
    record = random_record("man", random.Random(11), deals=1)
    entries = record["deals"][0]["actions"]
    i = next(i for i, e in enumerate(entries) if e["action"]["type"] == "play")
    entries.insert(i, copy.deepcopy(entries[i]))  # the same card played twice
    path = _write(tmp_path, record)
    assert cli.main(["check", path]) == 1
    out = capsys.readouterr().out
    found = records.check_record(copy.deepcopy(record))["discrepancy"]
    assert f"DISCREPANCY: deal 1, step {i + 2}: action_refused (rule {found['rule']})" in out
    assert cli.main(["check", path, "--lang", "ja"]) == 1
    ja = capsys.readouterr().out
    assert f"不整合: 第1局 手 {i + 2}" in ja and found["rule"] in ja
    assert cli.main(["check", path, "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["discrepancy"]["step"] == i + 1


def test_a_wrong_commitment_is_printed_as_such(tmp_path, capsys):
    record = random_record("manillen", random.Random(2), deals=1, physical=0)
    record["deals"][0]["deal"]["seed_commitment"] = "ab" * 32
    assert cli.main(["check", _write(tmp_path, record)]) == 1
    out = capsys.readouterr().out
    assert "DISCREPANCY: deal 1: commitment_mismatch" in out and "ab" * 32 in out


def test_stdin_is_read_for_dash(monkeypatch, capsys):
    import io

    record = random_record("manteur", random.Random(5), deals=1)
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(record)))
    assert cli.main(["check", "-", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["digest"] == record["digest"]


@pytest.mark.parametrize("content, says", [
    ("{not json", "not JSON"),
    ("[1, 2]", "record_invalid"),
    (json.dumps({"format": "card-referee/match-record", "format_version": 9, "game": "man",
                 "players": ["a", "b"], "deals": []}), "record_version_unsupported"),
    (json.dumps({"format": "card-referee/match-record", "format_version": 1, "game": "man",
                 "players": ["a", "b"], "deals": [{"deal": {"seed": 1}}]}),
     "record_invalid at deals[0].deal.seed"),
    ("[" * 5000 + "]" * 5000, "card-referee check: error:"),
])
def test_an_unreadable_record_is_one_line_and_exit_2(tmp_path, capsys, content, says):
    path = tmp_path / "bad.json"
    path.write_text(content)
    assert cli.main(["check", str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("card-referee check: error:") and says in err[0]


def test_a_missing_file_or_a_directory_is_exit_2(tmp_path, capsys):
    assert cli.main(["check", str(tmp_path / "none.json")]) == 2
    assert cli.main(["check", str(tmp_path)]) == 2
    assert "no such file" in capsys.readouterr().err


def test_check_help_describes_the_record_and_the_exit_status(capsys):
    with pytest.raises(SystemExit) as exit_:
        cli.main(["check", "--help"])
    assert exit_.value.code == 0
    text = capsys.readouterr().out
    for needle in ('"format": "card-referee/match-record"', "--json", "Exit status", "stdin"):
        assert needle in text
