"""The real thing: the service under gunicorn (2 sync workers) on a loopback port."""
import gzip
import json
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from service.metrics import FLUSH_SECONDS
from tests.service.serving import gunicorn_service

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.drill  # real servers: left out of `make test-fast`


def _get(url):
    with urllib.request.urlopen(url, timeout=5) as resp:
        return resp.status, resp.read()


def _post(url, body):
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=5) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def test_service_runs_under_gunicorn_with_redis(redis_url, tmp_path):
    with gunicorn_service(tmp_path, CARDREF_REDIS_URL=redis_url,
                          CARDREF_STATE_SECRET="gunicorn-test") as base:
        status, body = _get(base + "/readyz")
        ready = json.loads(body)
        assert ready["cache"]["redis"] == "ok" and ready["signing"] == "enabled"
        games = json.loads(_get(base + "/v1/games")[1])["games"]
        assert games, "no game registered in the product"
        game = games[0]
        seats = game["players"]["min"] if game["players"]["min"] > 2 else 4 if game["players"]["max"] >= 4 else 2
        players = [f"p{i}" for i in range(seats)]
        status, dealt = _post(f"{base}/v1/games/{game['id']}/deal", {"players": players})
        assert status == 201 and dealt["state"]["signature"]
        player = dealt["to_act"][0]
        status, legal = _post(base + "/v1/legal-actions", {"state": dealt["state"], "player": player})
        assert status == 200 and legal["count"] >= 1
        status, out = _post(base + "/v1/validate", {"state": dealt["state"], "action": legal["actions"][0]})
        assert status == 200 and out["valid"] is True
        tampered = {**dealt["state"], "seed": "other"}
        status, out = _post(base + "/v1/validate", {"state": tampered, "action": legal["actions"][0]})
        assert status == 403 and out["code"] == "state_signature_invalid"
        # both workers' counts, merged from their multiprocess files: the scraped worker's at
        # once, the other's once its counts are flushed (within metrics.FLUSH_SECONDS)
        for _ in range(6):
            _get(base + "/healthz")
        deadline = time.monotonic() + 3 * FLUSH_SECONDS
        while True:
            metrics = _get(base + "/metrics")[1].decode()
            line = next(x for x in metrics.splitlines()
                        if x.startswith('cardref_http_requests_total{method="GET",route="/healthz",status="200"}'))
            if float(line.split()[-1]) >= 7 or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        assert float(line.split()[-1]) >= 7


def _raw(url, body=None, **headers):
    """(status, headers, bytes as sent): urllib does not decompress."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method="POST" if data else "GET",
                                 headers={"Content-Type": "application/json", **headers})
    with urllib.request.urlopen(req, timeout=10) as resp:
        return resp.status, resp.headers, resp.read()


def test_answers_are_compressed_under_gunicorn_and_decompress_unchanged(tmp_path):
    """Under the product's gunicorn and gevent workers: a large answer comes gzipped with
    its length, Vary and security headers, and decompresses to the answer sent plain; a file
    sent as it is read (Swagger UI's bundle) too; a small answer as it is."""
    with gunicorn_service(tmp_path, CARDREF_STATE_SECRET="gunicorn-test") as base:
        status, dealt = _post(base + "/v1/games/guandan/deal",
                              {"players": ["p0", "p1", "p2", "p3"]})
        assert status == 201
        body = {"state": dealt["state"], "player": dealt["to_act"][0]}
        _, plain_headers, plain = _raw(base + "/v1/legal-actions", body)
        status, headers, packed = _raw(base + "/v1/legal-actions", body, **{
            "Accept-Encoding": "gzip"})
        assert status == 200 and headers["Content-Encoding"] == "gzip"
        assert plain_headers.get("Content-Encoding") is None
        assert int(headers["Content-Length"]) == len(packed) and len(packed) * 10 < len(plain)
        assert "Accept-Encoding" in headers["Vary"] and headers["X-Frame-Options"] == "DENY"
        assert json.loads(gzip.decompress(packed)) == json.loads(plain)
        action = json.loads(plain)["actions"][0]
        status, out = _post(base + "/v1/validate", {"state": dealt["state"], "action": action})
        assert status == 200 and out["valid"] is True
        _, _, bundle = _raw(base + "/docs/assets/swagger-ui-bundle.js")
        status, headers, packed = _raw(base + "/docs/assets/swagger-ui-bundle.js",
                                       **{"Accept-Encoding": "gzip"})
        assert headers["Content-Encoding"] == "gzip" and gzip.decompress(packed) == bundle
        _, headers, small = _raw(base + "/healthz", **{"Accept-Encoding": "gzip"})
        assert headers.get("Content-Encoding") is None and json.loads(small)
