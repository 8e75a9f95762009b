"""No input makes a 500: hostile bodies get 4xx problems; a crash inside a game is a 500
problem without a stack trace, and is logged."""
import json

from hypothesis import HealthCheck, given, settings, strategies as st

from engine import registry
from tests.service.conftest import deal_toy
from tests.sizing import examples
from tests.toygame import ToyGame

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12)

# The client is stateless between requests (that is the product), so one per test is right.
SHARED_CLIENT = [HealthCheck.function_scoped_fixture]

def post_json(client, endpoint, body):
    # stdlib json: it writes integers of any size, which a hostile client may send
    return client.post(endpoint, data=json.dumps(body), content_type="application/json")


ENDPOINTS = ["/v1/validate", "/validate", "/v1/legal-actions", "/v1/view", "/v1/replay",
             "/v1/games/toy/deal", "/v1/games/toy/card-value", "/v1/records/sheet"]


@settings(max_examples=examples(150), suppress_health_check=SHARED_CLIENT)
@given(endpoint=st.sampled_from(ENDPOINTS), body=json_values)
def test_random_json_bodies_never_make_a_500(client, endpoint, body):
    resp = post_json(client, endpoint, body)
    assert resp.status_code < 500, resp.get_data(as_text=True)


@settings(max_examples=examples(150), suppress_health_check=SHARED_CLIENT)
@given(mutation=st.dictionaries(st.sampled_from(["hands", "trick", "turn", "players", "options", "phase", "seed"]),
                                json_values, min_size=1, max_size=3),
       action=st.fixed_dictionaries({"type": st.just("play"), "player": st.sampled_from(["ann", "bob"]),
                                     "card": st.sampled_from(["SA", "H2", "DK", "C3"])}))
def test_hand_edited_states_never_make_a_500(client, mutation, action):
    state = {**deal_toy(client, deck=["SA", "H2", "DK", "C3"])["state"], **mutation}
    for endpoint, body in [("/v1/validate", {"state": state, "action": action}),
                           ("/v1/legal-actions", {"state": state, "player": "ann"}),
                           ("/v1/view", {"state": state, "player": "ann"})]:
        resp = post_json(client, endpoint, body)
        assert resp.status_code < 500, (endpoint, resp.get_data(as_text=True))


@settings(max_examples=examples(60), suppress_health_check=SHARED_CLIENT)
@given(raw=st.binary(max_size=64))
def test_random_bytes_are_400_not_500(client, raw):
    resp = client.post("/v1/validate", data=raw, content_type="application/json")
    assert resp.status_code in (400, 422)


class CrashingGame(ToyGame):
    id = "crash"

    def apply(self, state, action):
        raise RuntimeError("secret internals")

    def encode(self, state):
        return {**super().encode(state), "game": "crash"}


def test_an_unexpected_exception_is_a_500_problem_without_a_stack_trace(make_client, caplog):
    registry.register(CrashingGame())
    try:
        client = make_client()
        state = client.post("/v1/games/crash/deal", json={"players": ["ann", "bob"]}).get_json()["state"]
        action = {"type": "play", "player": "ann", "card": state["hands"][0][0]}
        resp = client.post("/v1/validate", json={"state": state, "action": action})
        body = resp.get_json()
        assert resp.status_code == 500 and body["code"] == "internal_error"
        assert "secret internals" not in json.dumps(body) and "Traceback" not in json.dumps(body)
        assert "secret internals" in caplog.text
    finally:
        registry.unregister("crash")
