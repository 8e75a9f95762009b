"""Compressed answers (service/compression.py): an answer over CARDREF_COMPRESS_MIN_BYTES is
compressed in the encoding the client prefers (zstd, br, gzip) and decompresses to the very
JSON it would have been; none without Accept-Encoding, none for a small answer, none with
compression off; every answer varies by Accept-Encoding; problem answers too; security headers,
signed states and ETags' conditional requests as they were."""
from __future__ import annotations

import gzip

import brotli
import orjson
import pytest
from backports import zstd

from bench import payloads
from service.app import create_app
from service.config import Settings

SECRET = "compression-test"
DECODE = {"gzip": gzip.decompress, "br": brotli.decompress, "zstd": zstd.decompress}


@pytest.fixture(scope="module")
def client():
    return create_app(Settings(metrics=False, state_secrets=(SECRET,))).test_client()


@pytest.fixture(scope="module")
def leader(client):
    """A signed 27-card Guandan leader's state (the service's own deal) and its seat."""
    dealt = client.post("/v1/games/guandan/deal", json={
        "players": ["p0", "p1", "p2", "p3"]}).get_json()
    return dealt["state"], dealt["to_act"][0]


def post(client, path, body, encoding=None):
    headers = {"Accept-Encoding": encoding} if encoding is not None else {}
    return client.post(path, json=body, headers=headers)


@pytest.mark.parametrize("accept, chosen", [
    ("gzip", "gzip"), ("br", "br"), ("zstd", "zstd"),
    ("gzip, deflate, br, zstd", "br"),  # a browser's: the service's first choice
    ("gzip;q=1.0, br;q=0.5", "gzip"),     # the client's preference wins
    ("*", "br"),
])
def test_a_large_answer_is_compressed_as_the_client_prefers_and_decompresses_unchanged(
        client, leader, accept, chosen):
    state, player = leader
    body = {"state": state, "player": player}
    plain = post(client, "/v1/legal-actions", body)
    assert plain.headers.get("Content-Encoding") is None
    packed = post(client, "/v1/legal-actions", body, accept)
    assert packed.headers["Content-Encoding"] == chosen
    assert int(packed.headers["Content-Length"]) == len(packed.data) < len(plain.data) // 10
    assert orjson.loads(DECODE[chosen](packed.data)) == orjson.loads(plain.data)
    for answer in (plain, packed):
        assert "Accept-Encoding" in answer.headers["Vary"]
        assert "Accept-Language" in answer.headers["Vary"]
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
        assert answer.headers["X-Frame-Options"] == "DENY"


def test_the_27_card_leaders_answer_is_at_most_15_kb_on_a_browsers_wire():
    """The bench's 27-card leader (1,411 plays), every play with its reading and its words: br,
    which every browser offers and the service prefers, keeps it under 15 KB (gzip at level 1
    does not: ~26 KB)."""
    state = payloads.guandan_leader()
    plain = create_app(Settings(metrics=False)).test_client()
    packed = post(plain, "/v1/legal-actions", {"state": state, "player": payloads.to_act(state)},
                  "gzip, deflate, br, zstd")
    assert packed.headers["Content-Encoding"] == "br" and len(packed.data) <= 15_000
    assert orjson.loads(brotli.decompress(packed.data))["count"] > 1000


def test_identity_and_small_answers_are_sent_as_they_are(client, leader):
    state, player = leader
    body = {"state": state, "player": player}
    assert post(client, "/v1/legal-actions", body, "identity").headers.get(
        "Content-Encoding") is None
    small = client.get("/healthz", headers={"Accept-Encoding": "gzip"})
    assert len(small.data) < 1024 and small.headers.get("Content-Encoding") is None
    assert "Accept-Encoding" in small.headers["Vary"]


def test_a_signed_state_compressed_is_still_accepted_posted_back(client, leader):
    state, player = leader
    listed = post(client, "/v1/legal-actions", {"state": state, "player": player}, "gzip")
    action = orjson.loads(gzip.decompress(listed.data))["actions"][0]
    answer = post(client, "/v1/validate", {"state": state, "action": action}, "gzip")
    assert answer.headers["Content-Encoding"] == "gzip"
    out = orjson.loads(gzip.decompress(answer.data))
    assert out["valid"] and out["state"]["signature"]
    following = post(client, "/v1/legal-actions",
                     {"state": out["state"], "player": out["to_act"][0]})
    assert following.status_code == 200, following.get_json()


def test_a_large_problem_answer_is_compressed_too_and_keeps_its_status(client, leader):
    state, player = leader
    body = {"state": state, "player": player, **{f"unknown{i}": 1 for i in range(200)}}
    plain = post(client, "/v1/legal-actions", body)
    packed = post(client, "/v1/legal-actions", body, "gzip")
    assert plain.status_code == packed.status_code == 422 and len(plain.data) > 1024
    assert packed.headers["Content-Encoding"] == "gzip"
    assert packed.headers["Content-Type"] == "application/problem+json"
    assert orjson.loads(gzip.decompress(packed.data)) == orjson.loads(plain.data)
    assert "Accept-Encoding" in packed.headers["Vary"]
    small = post(client, "/v1/legal-actions", {"state": state, "player": "nobody"}, "gzip")
    assert small.status_code == 422 and small.headers.get("Content-Encoding") is None
    assert "Accept-Encoding" in small.headers["Vary"]


def test_a_conditional_get_of_a_compressed_answer_is_answered_304(client):
    first = client.get("/openapi.json", headers={"Accept-Encoding": "gzip"})
    assert first.headers["Content-Encoding"] == "gzip" and first.headers["ETag"].endswith(
        ':gzip"')
    again = client.get("/openapi.json", headers={"Accept-Encoding": "gzip",
                                                 "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and not again.data
    plain = client.get("/openapi.json")
    assert plain.headers.get("Content-Encoding") is None and plain.headers["ETag"] != \
        first.headers["ETag"]
    assert client.get("/openapi.json", headers={
        "If-None-Match": plain.headers["ETag"]}).status_code == 304


def test_compression_off_or_a_higher_threshold_sends_answers_as_they_are(leader):
    state, player = leader
    body = {"state": state, "player": player}
    for settings in (Settings(metrics=False, state_secrets=(SECRET,), compression=False),
                     Settings(metrics=False, state_secrets=(SECRET,),
                              compress_min_bytes=10_000_000)):
        answer = post(create_app(settings).test_client(), "/v1/legal-actions", body, "gzip")
        assert answer.status_code == 200 and answer.headers.get("Content-Encoding") is None
    off = create_app(Settings(metrics=False, compression=False)).test_client()
    assert "Accept-Encoding" not in off.get("/healthz").headers["Vary"]


def test_settings_read_compression_from_the_environment():
    settings = Settings.from_env({"CARDREF_COMPRESSION": "off",
                                  "CARDREF_COMPRESS_MIN_BYTES": "4096"})
    assert settings.compression is False and settings.compress_min_bytes == 4096
    assert Settings.from_env({}).compression is True


def test_the_leaders_answer_is_the_same_bytes_whichever_worker_compresses(leader):
    """Compression is per answer, not per process: a bench payload's state (bound by the
    bench's own keys) answered by a fresh app decompresses to what another app answers."""
    body, headers = payloads.player_request("guandan", state=payloads.guandan_leader())
    env = {**payloads.SERVICE_ENV["signed"], "CARDREF_METRICS": "off"}
    answers = [create_app(Settings.from_env(env)).test_client().post(
        "/v1/legal-actions", data=body, headers={"Content-Type": "application/json",
                                                  "Accept-Encoding": "gzip", **headers})
        for _ in range(2)]
    assert gzip.decompress(answers[0].data) == gzip.decompress(answers[1].data)
