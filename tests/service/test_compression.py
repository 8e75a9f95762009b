"""Compressed answers (service/compression.py): an answer over CARDREF_COMPRESS_MIN_BYTES is
compressed in the encoding the client prefers (br, zstd, gzip) and decompresses to the very
JSON it would have been; none without Accept-Encoding, none for a small answer, none with
compression off; every answer varies by Accept-Encoding; problem answers too; security headers,
signed states and ETags' conditional requests as they were. A cached answer's compressed
bodies are cached beside it: made once per encoding, found again (in process or in Redis),
negotiated as any answer, and only for cached answers, within the cache's bounds."""
from __future__ import annotations

import gzip
import uuid

import brotli
import orjson
import pytest
from backports import zstd
from hypothesis import given, settings, strategies as st

import service.app as service_app
from bench import payloads
from service.app import create_app
from service.cache import LOCAL_CACHE_BYTES, Cache, LocalLRU
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
    which every browser offers and the service prefers, keeps it under 15 KB (gzip does not:
    ~18 KB at the cached answers' level)."""
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
    for configured in (Settings(metrics=False, state_secrets=(SECRET,), compression=False),
                       Settings(metrics=False, state_secrets=(SECRET,),
                                compress_min_bytes=10_000_000)):
        answer = post(create_app(configured).test_client(), "/v1/legal-actions", body, "gzip")
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


# --- Compressed bodies cached beside the answer they compress ---------------------------------

ENCODINGS = ("br", "zstd", "gzip")


class RecordingCache(Cache):
    """The service's cache (both tiers, unchanged), noting every key written: how a test sees
    a compressed body made and kept, or found and not made again."""

    max_bytes = LOCAL_CACHE_BYTES

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.local = LocalLRU(self.local._size, self.max_bytes)
        self.written: list[str] = []

    def set(self, key: str, value: bytes) -> None:
        self.written.append(key)
        super().set(key, value)

    def compressed_keys(self) -> list[str]:
        return [k for k in self.written if k.rsplit(":", 1)[-1] in ENCODINGS]


def recording_app(monkeypatch, max_bytes: int = LOCAL_CACHE_BYTES, **settings):
    """(a test client, its app's recording cache)."""
    monkeypatch.setattr(service_app, "Cache", type("Bounded", (RecordingCache,),
                                                  {"max_bytes": max_bytes}))
    app = create_app(Settings(metrics=False, **settings))
    return app.test_client(), app.extensions["card_referee"].cache


@pytest.fixture(scope="module")
def leader_state():
    return payloads.guandan_leader()


def leader_question(state: dict, tag: str = "") -> dict:
    """The 27-card leader's legal actions (~450 KB of JSON: a cached enumeration); `tag`
    renames the seats, another question of the same work."""
    state = payloads.renamed(state, tag) if tag else state
    return {"state": state, "player": payloads.to_act(state)}


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_a_cached_answers_compressed_body_is_made_once_and_decompresses_to_its_exact_bytes(
        monkeypatch, leader_state, encoding):
    client, cache = recording_app(monkeypatch)
    body = leader_question(leader_state)
    plain = post(client, "/v1/legal-actions", body)
    assert plain.status_code == 200 and len(plain.data) > 100_000
    answers = [post(client, "/v1/legal-actions", body, encoding) for _ in range(3)]
    for answer in answers:
        assert answer.status_code == 200 and answer.headers["Content-Encoding"] == encoding
        assert int(answer.headers["Content-Length"]) == len(answer.data)
        assert "Accept-Encoding" in answer.headers["Vary"]
        assert DECODE[encoding](answer.data) == plain.data  # the very bytes, not just the JSON
    assert answers[0].data == answers[1].data == answers[2].data
    # the enumeration and one compressed body, written once, under the answer's key
    answer_key, compressed = cache.written
    assert compressed == f"{answer_key}:{encoding}"
    assert cache.get(compressed) == answers[0].data


def test_a_repeated_question_is_answered_with_the_cached_compressed_body(monkeypatch,
                                                                           leader_state):
    """The body sent is the cache's: one put there by hand (br at another level than the
    service's) is the one the next answer carries, and nothing is compressed or written."""
    client, cache = recording_app(monkeypatch)
    body = leader_question(leader_state)
    first = post(client, "/v1/legal-actions", body, "br")
    [key] = cache.compressed_keys()
    planted = brotli.compress(brotli.decompress(first.data), quality=0)
    assert planted != first.data
    cache.set(key, planted)
    written = len(cache.written)
    again = post(client, "/v1/legal-actions", body, "br")
    assert again.data == planted and int(again.headers["Content-Length"]) == len(planted)
    assert len(cache.written) == written


def test_another_instance_finds_the_compressed_body_in_redis(monkeypatch, leader_state,
                                                            redis_url):
    body = leader_question(leader_state, f"-{uuid.uuid4().hex[:8]}")  # a key no run has used
    first_client, _ = recording_app(monkeypatch, redis_url=redis_url)
    made = post(first_client, "/v1/legal-actions", body, "zstd")
    other_client, other = recording_app(monkeypatch, redis_url=redis_url)
    found = post(other_client, "/v1/legal-actions", body, "zstd")
    assert found.headers["Content-Encoding"] == "zstd" and found.data == made.data
    assert other.written == []  # the enumeration and its compressed body, both found


@pytest.mark.parametrize("accept", [None, "identity", "*;q=0", "identity;q=1, *;q=0",
                                    "deflate", "compress, x-unknown"])
def test_an_answer_not_compressed_caches_no_compressed_body(monkeypatch, leader_state, accept):
    """No encoding the service and the client share (flask-compress's negotiation): the
    answer as it is, and nothing beside it in the cache."""
    client, cache = recording_app(monkeypatch)
    body = leader_question(leader_state)
    answer = post(client, "/v1/legal-actions", body, accept)
    assert answer.status_code == 200 and "Content-Encoding" not in answer.headers
    assert orjson.loads(answer.data)["count"] > 1000
    assert len(cache.written) == 1 and cache.compressed_keys() == []


def test_a_range_header_on_a_cached_answer_is_ignored(monkeypatch, leader_state):
    """A POST answer is never partial (werkzeug answers ranges of conditional GETs only): the
    whole compressed body, as without Range."""
    client, _ = recording_app(monkeypatch)
    body = leader_question(leader_state)
    whole = post(client, "/v1/legal-actions", body, "gzip")
    ranged = client.post("/v1/legal-actions", json=body,
                         headers={"Accept-Encoding": "gzip", "Range": "bytes=0-99"})
    assert ranged.status_code == 200 and ranged.data == whole.data
    assert "Content-Range" not in ranged.headers


def test_only_answers_that_are_cached_have_compressed_bodies_cached(monkeypatch, leader_state):
    """What a stranger can make the service keep: an answer made for one request (a pick of
    cards, a refusal, the spec) is compressed for it and forgotten."""
    client, cache = recording_app(monkeypatch)
    body = leader_question(leader_state)
    cards = orjson.loads(post(client, "/v1/legal-actions", body).data)["actions"][5]["cards"]
    cache.written.clear()
    picked = post(client, "/v1/legal-actions", {**body, "cards": cards}, "gzip")
    refused = post(client, "/v1/legal-actions",
                   {**body, **{f"unknown{i}": 1 for i in range(200)}}, "gzip")
    spec = client.get("/openapi.json", headers={"Accept-Encoding": "gzip"})
    assert picked.status_code == 200 and refused.status_code == 422
    for answer in (refused, spec):
        assert answer.headers["Content-Encoding"] == "gzip"
    assert cache.written == []


def test_compressed_bodies_stay_within_the_caches_bounds(monkeypatch, leader_state):
    """Many large questions, each asked in every encoding: at most one compressed body per
    encoding beside each answer, each far smaller than it, and all of it within the
    in-process cache's byte bound (the oldest questions go first, bodies and all)."""
    bound = 2_000_000  # four or so of these answers with their bodies
    client, cache = recording_app(monkeypatch, max_bytes=bound)
    questions = [leader_question(leader_state, f"-bound{i}") for i in range(7)]
    sizes: dict[str, int] = {}
    for question in questions:
        for encoding in (None, *ENCODINGS, *ENCODINGS):
            answer = post(client, "/v1/legal-actions", question, encoding)
            assert answer.status_code == 200
        answer_key = cache.written[-4]
        assert cache.written[-3:] == [f"{answer_key}:{e}" for e in ENCODINGS]
        sizes.update({k: len(cache.local.get(k) or b"") for k in cache.written[-4:]})
        assert all(sizes[k] * 10 < sizes[answer_key] for k in cache.written[-3:])
    assert len(cache.written) == 4 * len(questions)
    held = [k for k in cache.written if cache.local.get(k) is not None]
    assert sum(sizes[k] for k in held) <= bound
    assert cache.written[0] not in held and set(cache.written[-4:]) <= set(held)


ACCEPT_PART = st.tuples(
    st.sampled_from(["br", "zstd", "gzip", "deflate", "identity", "*", "BR", "x-unknown"]),
    st.sampled_from(["", ";q=0", ";q=0.001", ";q=0.5", ";q=1", ";q=1.0"]))


@pytest.fixture(scope="module")
def plain_client():
    """One app for every example of a property (its cache filling up as they ask)."""
    return create_app(Settings(metrics=False)).test_client()


@settings(max_examples=25, deadline=None)
@given(parts=st.lists(ACCEPT_PART, min_size=1, max_size=4))
def test_a_cached_answer_is_negotiated_as_every_answer_and_is_the_same_answer(
        plain_client, leader_state, parts):
    """Whatever Accept-Encoding says: the encoding chosen for a cached answer is the one
    chosen for an answer made anew (the spec), and the bytes decompress to the answer's."""
    accept = ", ".join(token + q for token, q in parts)
    body = leader_question(leader_state)
    plain = post(plain_client, "/v1/legal-actions", body).data
    spec = plain_client.get("/openapi.json", headers={"Accept-Encoding": accept})
    encoding = spec.headers.get("Content-Encoding")
    for _ in range(2):  # made (the first time this encoding is asked for), then found
        answer = post(plain_client, "/v1/legal-actions", body, accept)
        assert answer.headers.get("Content-Encoding") == encoding
        assert (DECODE[encoding](answer.data) if encoding else answer.data) == plain
