"""Lookups answer in the caller's language: every explanation a lookup gives (Man's man-numbers
derivations, Daifugo's uecda-table error) follows Accept-Language."""
from __future__ import annotations

JA = {"Accept-Language": "ja"}


def test_man_numbers_derivations_follow_accept_language(client):
    body = {"hand": ["SA", "HA", "D2"]}
    en = client.post("/v1/games/man/man-numbers", json=body)
    ja = client.post("/v1/games/man/man-numbers", json=body, headers=JA)
    assert en.status_code == ja.status_code == 200
    assert ja.headers["Content-Language"] == "ja" and en.headers["Content-Language"] == "en"
    english, japanese = en.get_json(), ja.get_json()
    # the same numbers, the same count of ways, each in its language
    assert {k: v for k, v in japanese.items() if k != "derivations"} == \
        {k: v for k, v in english.items() if k != "derivations"}
    assert {n: len(w) for n, w in japanese["derivations"].items()} == \
        {n: len(w) for n, w in english["derivations"].items()}
    assert english["derivations"]["13"] == ["A as 10 + A + 2"]
    assert japanese["derivations"]["13"] == ["A(10として) + A + 2"]
    assert japanese["derivations"]["1"] == ["2 − A(Aは1枚として数える)"]
    assert english["derivations"]["1"] == ["2 − A (As counted once)"]
    every = [w for ways in japanese["derivations"].values() for w in ways]
    assert not any("as 10" in w or "counted once" in w for w in every)


def test_uecda_table_errors_follow_accept_language(client):
    body = {"kind": "play", "table": ["0" * 15] * 4}  # too few rows
    en = client.post("/v1/games/daifugo/uecda-table", json=body).get_json()
    ja = client.post("/v1/games/daifugo/uecda-table", json=body, headers=JA).get_json()
    assert not en["valid"] and not ja["valid"]
    assert en["error"] == "a table is 5 to 8 rows of 15 digits"
    assert ja["error"] == "表は15桁の数字が5〜8行です"
    play = {"kind": "play", "cards": ["S3", "H5"]}  # no play of D5/D6
    ja_play = client.post("/v1/games/daifugo/uecda-table", json=play, headers=JA).get_json()
    assert ja_play["error"].startswith("not_a_combination: ") and "階段" in ja_play["error"]

