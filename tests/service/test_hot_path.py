"""The shortcuts /v1/validate takes (docs/performance.md): each must answer exactly what the
long way answers."""
import pytest

from engine import registry
from service.schemas import Schemas
from tests.service.conftest import deal_toy

# As gunicorn's environ: the server ends the body at its declared length.
SERVER_ENDS_BODY = {"wsgi.input_terminated": True}


@pytest.fixture(scope="module")
def validate_request():
    return Schemas(registry.all_games()).validate_request


@pytest.mark.parametrize("body", [
    {"state": {"game": "toy"}, "action": {"type": "play"}},
    {"state": "sealed.v1.abc.def", "action": {}},
    {"action": {"type": "play"}, "state": {}},
])
def test_quick_load_takes_what_load_takes(validate_request, body):
    assert validate_request.quick_load(body) == validate_request.load(body)


@pytest.mark.parametrize("body", [
    {"state": {}, "action": {}, "extra": 1},  # unknown field
    {"state": {}},                            # missing action
    {"state": None, "action": {}},            # null
    {"state": [], "action": {}},              # neither object nor sealed string
    {"state": {}, "action": []},
    {"state": {}, "action": None},
    [{"state": {}, "action": {}}],
    "state",
])
def test_quick_load_leaves_every_other_body_to_marshmallow(validate_request, body):
    assert validate_request.quick_load(body) is None


def test_a_body_the_server_ends_reads_as_any_other(client):
    state = deal_toy(client, deck=["SA", "H2", "DK", "C3"])["state"]
    action = {"type": "play", "player": "ann", "card": "SA"}
    plain = client.post("/v1/validate", json={"state": state, "action": action})
    ended = client.post("/v1/validate", json={"state": state, "action": action},
                        environ_overrides=SERVER_ENDS_BODY)
    assert ended.status_code == plain.status_code == 200
    assert ended.get_json() == plain.get_json()


def test_a_body_the_server_ends_past_the_limit_is_413(make_client):
    client = make_client(max_body_bytes=2048)
    resp = client.post("/v1/validate", data=b'{"state": "' + b"x" * 4096 + b'"}',
                       content_type="application/json", environ_overrides=SERVER_ENDS_BODY)
    assert resp.status_code == 413 and resp.get_json()["code"] == "body_too_large"


def test_every_answer_carries_request_id_language_and_vary_once(client):
    for resp in (client.post("/v1/validate", json={"state": {}, "action": {}}),  # 422
                 client.get("/healthz"), client.get("/nowhere"),
                 client.get("/v1/games/toy/rules")):
        headers = resp.headers
        assert len(headers.getlist("X-Request-ID")) == 1, resp.status
        assert len(headers.getlist("Content-Language")) == 1, resp.status
        assert "Accept-Language" in headers.get("Vary", ""), resp.status
