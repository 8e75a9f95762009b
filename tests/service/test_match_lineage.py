"""A match is bound to its lineage: the match id made at its first deal, the deal number and the
players in their seats, under the signature or seal. A finished deal's next_match continues that
match only (same game, same seats, the next deal; once under strict sequencing), and a match that
a referee did not begin says so wherever its totals are shown — anyone could have played every
seat of a throwaway deal to sign themselves any score."""
from __future__ import annotations

import random

import pytest

from service.app import create_app
from service.config import Settings
from service.sealing import new_key, parse_key

REFEREE = {"Authorization": "Bearer lineage-referee"}
MAN = ["ann", "bob", "cho"]
MANILLEN = ["ann", "bob", "cho", "dan"]


def client_for(**settings):
    settings.setdefault("metrics", False)
    settings.setdefault("referee_keys", ("lineage-referee",))
    if "seal_keys" not in settings:
        settings.setdefault("state_secrets", ("lineage-secret",))
    return create_app(Settings(**settings)).test_client()


def deal(client, game="man", players=MAN, headers=None, **body):
    return client.post(f"/v1/games/{game}/deal", json={"players": players, **body},
                       headers=headers)


def finish(client, dealt: dict, seed: int = 0) -> dict:
    """Every seat played by one client, random legal actions (a man when offered, to end Man
    quickly) until the deal ends: the final answer."""
    rnd = random.Random(seed)
    out = dealt
    tokens = dealt.get("seat_tokens")
    for _ in range(3000):
        if out["status"] == "finished":
            return out
        legal = []
        for player in out["to_act"]:
            headers = {"X-Seat-Token": tokens[player]} if tokens else None
            legal += client.post("/v1/legal-actions", json={"state": out["state"],
                                 "player": player}, headers=headers).get_json()["actions"]
        mans = [a for a in legal if a["type"] == "man"]
        action = mans[0] if mans else rnd.choice(legal)
        headers = {"X-Seat-Token": tokens[action["player"]]} if tokens else None
        resp = client.post("/v1/validate", json={"state": out["state"], "action": action},
                           headers=headers)
        assert resp.status_code == 200 and resp.get_json()["valid"], resp.get_json()
        out = resp.get_json()
    raise AssertionError("the deal did not end")


def test_a_next_match_continues_its_own_match_in_the_same_seats_only():
    client = client_for()
    first = deal(client).get_json()
    lineage = first["lineage"]
    assert lineage["deal"] == 1 and first["state"]["meta"]["match_id"] == lineage["match_id"]
    final = finish(client, first, seed=1)
    summary = final["next_match"]
    assert summary["lineage"] == {"match_id": lineage["match_id"], "deal": 1, "game": "man",
                                  "players": MAN, "provenance": "server"}
    for players in (["bob", "ann", "cho"], ["ann", "bob", "eve"], ["ann", "bob"]):
        other = deal(client, players=players, match=summary)
        assert other.status_code == 422 and other.get_json()["code"] == "deal_invalid", players
    nxt = deal(client, match=summary)
    assert nxt.status_code == 201, nxt.get_json()
    assert nxt.get_json()["lineage"] == {"match_id": lineage["match_id"], "deal": 2,
                                         "provenance": "server"}
    # a lineage cannot be made up outside a signed summary
    made_up = {"totals": {"ann": 5}, "lineage": summary["lineage"]}
    assert deal(client, match=made_up, headers=REFEREE).status_code == 422


def test_a_match_not_begun_by_a_referee_says_so_wherever_its_totals_are_shown():
    client = client_for()
    # the forgery: a throwaway deal, every seat played by one client, a signed next_match
    throwaway = deal(client).get_json()
    assert throwaway["lineage"]["provenance"] == "server"
    summary = finish(client, throwaway, seed=2)["next_match"]
    assert summary["lineage"]["provenance"] == "server"
    # passed on by a referee or not, the match stays one anyone could have played
    for headers in (None, REFEREE):
        resp = deal(client, match=summary, headers=headers)
        assert resp.status_code == 201, resp.get_json()
        out = resp.get_json()
        assert out["lineage"]["provenance"] == "server"
        assert out["state"]["meta"]["match_provenance"] == "server"
        view = client.post("/v1/view", json={"state": out["state"], "player": None}).get_json()
        assert view["lineage"]["provenance"] == "server"


def test_a_referee_match_stays_a_referees_only_while_every_deal_is_dealt_with_the_key():
    client = client_for()
    begun = deal(client, headers=REFEREE).get_json()
    assert begun["lineage"]["provenance"] == "referee"
    final = finish(client, begun, seed=3)
    assert final["lineage"]["provenance"] == "referee"
    summary = final["next_match"]
    assert summary["lineage"]["provenance"] == "referee"
    kept = deal(client, match=summary, headers=REFEREE).get_json()
    assert kept["lineage"] == {**kept["lineage"], "deal": 2, "provenance": "referee"}
    lost = deal(client, match=summary).get_json()  # dealt by anyone: no longer a referee's
    assert lost["lineage"]["provenance"] == "server"


@pytest.mark.parametrize("sealing", [False, True])
def test_a_next_match_starts_one_deal_under_strict_sequencing(redis_url, sealing):
    settings = {"seal_keys": (parse_key(new_key()),)} if sealing else {}
    client = client_for(redis_url=redis_url, sequence="strict", **settings)
    first = deal(client).get_json()
    # under sealing the match's next deal is its host's (the host token of its first deal)
    host = {"X-Host-Token": first["host_token"]} if sealing else None
    summary = finish(client, first, seed=4)["next_match"]
    nxt = deal(client, match=summary, headers=host)
    assert nxt.status_code == 201, nxt.get_json()
    # the same request again (its answer lost): the same deal, not a second one
    again = deal(client, match=summary, headers=host)
    assert again.status_code == 201 and again.get_json()["game_id"] == nxt.get_json()["game_id"]
    assert again.get_json()["seed_commitment"] == nxt.get_json()["seed_commitment"]
    # any other deal from the same summary: refused
    other = deal(client, match=summary, options={}, headers=host)
    assert other.status_code == 409 and other.get_json()["code"] == "match_superseded"
    replayed = client.post("/v1/replay", json={"deal": {"game": "man", "players": MAN,
                                                        "match": summary}, "actions": []},
                           headers=host)
    assert replayed.status_code == 409 and replayed.get_json()["code"] == "match_superseded"


def _hands_seen(client, dealt: dict, tokens: dict) -> dict:
    """Every seat's hand as its view shows it, each asked with the token given."""
    return {p: client.post("/v1/view", json={"state": dealt["state"], "player": p},
                           headers={"X-Seat-Token": t}).get_json()
            for p, t in tokens.items()}


@pytest.mark.parametrize("strict", [False, True])
def test_a_stranger_reposting_the_hosts_next_deal_request_gets_no_seat_token(redis_url, strict):
    # Under sealing a deal's answer carries every seat's token. The next deal's request is made
    # of public parts only (players, the next_match that reached the seat ending the deal,
    # options), and the same request gets the same deal (a lost answer's retry): whoever posts
    # it, before or after the host, must get no deal of the match, let alone its tokens.
    settings = {"redis_url": redis_url, "sequence": "strict"} if strict else {}
    client = client_for(seal_keys=(parse_key(new_key()),), **settings)
    first = deal(client).get_json()
    summary = finish(client, first, seed=7)["next_match"]
    body = {"players": MAN, "match": summary, "options": {"preset": "standard"}}
    replay_body = {"deal": {"game": "man", **body}, "actions": []}
    player_token = {"X-Host-Token": first["seat_tokens"]["ann"]}  # a seat's is not the host's
    for headers in (None, player_token, {"X-Host-Token": "0" * 32}):
        before = client.post("/v1/games/man/deal", json=body, headers=headers)
        assert before.status_code == 403, before.get_json()
        assert before.get_json()["code"] == "host_token_invalid"
        assert "seat_tokens" not in before.get_json()
        replayed = client.post("/v1/replay", json=replay_body, headers=headers)
        assert replayed.status_code == 403 and "seat_tokens" not in replayed.get_json()
    # the stranger used nothing up: the host deals the next deal, and its players see it
    host = {"X-Host-Token": first["host_token"]}
    nxt = client.post("/v1/games/man/deal", json=body, headers=host)
    assert nxt.status_code == 201, nxt.get_json()
    dealt = nxt.get_json()
    assert dealt["lineage"]["deal"] == 2 and dealt["host_token"] == first["host_token"]
    assert all(v.get("view") for v in _hands_seen(client, dealt, dealt["seat_tokens"]).values())
    # after the host, the same public body again: still nothing
    after = client.post("/v1/games/man/deal", json=body)
    assert after.status_code == 403 and after.get_json()["code"] == "host_token_invalid"
    # the host's own retry (its answer lost) is the same deal with the same tokens
    again = client.post("/v1/games/man/deal", json=body, headers=host).get_json()
    assert again["seat_tokens"] == dealt["seat_tokens"] and again["game_id"] == dealt["game_id"]
    # the referee needs no host token, and the answer hands the match's on
    by_referee = client.post("/v1/games/man/deal", json=body, headers=REFEREE)
    assert by_referee.status_code == 201  # the same request: the same deal (strict or not)
    assert by_referee.get_json()["game_id"] == dealt["game_id"]
    assert by_referee.get_json()["host_token"] == first["host_token"]


def test_a_dealer_other_than_the_next_matchs_needs_the_referee_key():
    # Manillen: the signed next_match names the next dealer; a top-level dealer overriding it
    # shapes the deal like any other referee act.
    client = client_for()
    summary = finish(client, deal(client, "manillen", MANILLEN).get_json(), seed=5)["next_match"]
    chosen = [p for p in MANILLEN if p != summary["dealer"]][0]
    forced = deal(client, "manillen", MANILLEN, match=summary, dealer=chosen)
    assert forced.status_code == 403 and forced.get_json()["code"] == "referee_key_required"
    passed_on = deal(client, "manillen", MANILLEN, match=summary)
    assert passed_on.status_code == 201
    assert passed_on.get_json()["state"]["dealer"] == summary["dealer"]
    by_referee = deal(client, "manillen", MANILLEN, match=summary, dealer=chosen,
                      headers=REFEREE)
    assert by_referee.status_code == 201 and by_referee.get_json()["state"]["dealer"] == chosen


def test_a_deal_the_engine_refuses_does_not_use_up_the_next_match(redis_url):
    client = client_for(redis_url=redis_url, sequence="strict")
    summary = finish(client, deal(client).get_json(), seed=6)["next_match"]
    typo = deal(client, match=summary, options={"no_such_option": True})
    assert typo.status_code == 422 and typo.get_json()["code"] == "options_invalid"
    assert deal(client, match=summary).status_code == 201
