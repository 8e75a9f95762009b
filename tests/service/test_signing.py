"""State signing (CARDREF_STATE_SECRET): HMAC-SHA256 over canonical JSON, with rotation."""
from service.signing import Signer, canonical_json
from tests.service.conftest import deal_toy


def test_every_returned_state_is_signed_and_accepted_back(make_client):
    client = make_client(state_secrets=("s3cret",))
    out = deal_toy(client, deck=["SA", "H2", "DK", "C3"])
    assert out["state"]["signature"].startswith("v1:")
    resp = client.post("/v1/validate", json={"state": out["state"],
                                             "action": {"type": "play", "player": "ann", "card": "SA"}})
    body = resp.get_json()
    assert resp.status_code == 200 and body["valid"] and body["state"]["signature"].startswith("v1:")
    assert client.get("/readyz").get_json()["signing"] == "enabled"


def test_tampered_signed_state_is_refused_403(make_client):
    client = make_client(state_secrets=("s3cret",))
    state = deal_toy(client, deck=["SA", "H2", "DK", "C3"])["state"]
    better = {**state, "hands": [["SA", "SK"], ["DK", "C3"]]}  # ann deals herself a king
    for endpoint, body in [("/v1/validate", {"state": better,
                                             "action": {"type": "play", "player": "ann", "card": "SK"}}),
                           ("/v1/legal-actions", {"state": better, "player": "ann"}),
                           ("/v1/view", {"state": better, "player": "ann"})]:
        resp = client.post(endpoint, json=body)
        assert resp.status_code == 403, endpoint
        assert resp.get_json()["code"] == "state_signature_invalid"


def test_unsigned_state_is_refused_when_signing_is_on(make_client):
    unsigned = deal_toy(make_client())["state"]
    client = make_client(state_secrets=("s3cret",))
    resp = client.post("/v1/view", json={"state": unsigned, "player": "ann"})
    assert resp.status_code == 403 and resp.get_json()["code"] == "state_signature_invalid"


def test_rotation_old_secret_still_verifies_new_one_signs(make_client):
    old = make_client(state_secrets=("old",))
    state = deal_toy(old)["state"]
    rotated = make_client(state_secrets=("new", "old"))
    resp = rotated.post("/v1/view", json={"state": state, "player": "ann"})
    assert resp.status_code == 200
    fresh = deal_toy(rotated)["state"]
    assert old.post("/v1/view", json={"state": fresh, "player": "ann"}).status_code == 403


def test_without_a_secret_nothing_is_signed_or_checked(client):
    state = deal_toy(client)["state"]
    assert "signature" not in state
    assert client.post("/v1/view", json={"state": {**state, "signature": "v1:junk"},
                                         "player": "ann"}).status_code == 200


def test_canonical_json_ignores_key_order_and_the_signature():
    a = {"b": 1, "a": [1, {"y": 2, "x": 1}], "signature": "zzz"}
    b = {"a": [1, {"x": 1, "y": 2}], "b": 1}
    assert canonical_json(a) == canonical_json(b) == b'{"a":[1,{"x":1,"y":2}],"b":1}'
    signer = Signer(["k"])
    assert signer.verify(signer.sign(b)) == b


def test_signed_json_is_the_signed_state_serialized_once():
    import orjson

    signer = Signer(["k"])
    state = {"b": [1, 2], "a": {"y": "é", "x": None}}
    fragment = signer.signed_json(state)
    assert orjson.loads(orjson.dumps({"s": fragment}))["s"] == signer.sign(state)
    assert signer.verify(orjson.loads(orjson.dumps(fragment))) == state
    assert Signer([]).signed_json(state) is state
