"""The requests `make bench` sends (bench/payloads.py) are ones the service answers as a client
would be answered: every row's body accepted (an action valid, a lookup answered), the cold
rows' bodies each another cache key, the replays' answers growing linearly with their length.
No timing here: speed is judged by the bench itself."""
from __future__ import annotations

import gzip
import hashlib

import brotli
import orjson
import pytest

from bench import payloads
from service.app import create_app
from service.config import Settings
from service.sealing import parse_key


@pytest.fixture(scope="module")
def clients():
    made = {}
    for mode, env in payloads.SERVICE_ENV.items():
        settings = Settings.from_env({**env, "CARDREF_METRICS": "off"})
        made[mode] = create_app(settings).test_client()
    return made


@pytest.fixture(scope="module")
def cases():
    return payloads.all_cases(cold_count=3, seed=1)


def post(client, case, body):
    return client.post(case.path, data=body, headers={"Content-Type": "application/json",
                                                       **case.headers})


DECODE = {"gzip": gzip.decompress, "br": brotli.decompress}


def answer_json(answer):
    """The answer's JSON, decompressed when the row asked for a compressed one."""
    encoding = answer.headers.get("Content-Encoding")
    if encoding is not None:
        return orjson.loads(DECODE[encoding](answer.data))
    return answer.get_json()


def test_every_row_is_answered_as_a_client_would_be(clients, cases):
    groups = set()
    for case in cases:
        for body in case.bodies:
            answer = post(clients[case.service], case, body)
            data = answer_json(answer)
            assert answer.status_code == case.status, (case.name, data)
            # a row that asks for compression gets it (br where a browser's header offers it)
            wanted = case.headers.get("Accept-Encoding")
            assert answer.headers.get("Content-Encoding") == \
                (None if wanted is None else "br" if "br" in wanted else wanted), case.name
            if case.group == "validate":
                assert data["valid"] is True, (case.name, data)
            if case.group == "replay":
                assert data["stopped"] is None and data["status"] == "in_progress", case.name
            if case.group == "legal-actions":
                assert data["count"] > 0, case.name
        groups.add(case.group)
    assert groups == {"validate", "legal-actions", "view", "deal", "replay", "lookup"}


def test_every_game_is_validated_signed_and_sealed_and_dealt(cases):
    validated = {(c.name.split()[0], c.service) for c in cases if c.group == "validate"}
    for game in payloads.GAMES:
        assert (game, "signed") in validated and (game, "sealed") in validated
    assert {c.path for c in cases if c.group == "deal"} == {
        f"/v1/games/{g}/deal" for g in payloads.GAMES}


@pytest.mark.parametrize("mode", sorted(payloads.SERVICE_ENV))
def test_each_games_requests_are_answered_in_each_trust_mode(clients, mode):
    """The requests bench/cpu_per_request.py sends, signed and sealed: a validate of the next
    move and the view and legal actions of the seat to act (sealed: with that seat's token)."""
    for game in payloads.GAMES:
        state = payloads.mid_game(game)
        body, headers = payloads.validate_request(game, mode, state)
        assert bool(headers) == (mode == "sealed"), game
        answer = clients[mode].post("/v1/validate", data=body, headers={
            "Content-Type": "application/json", **headers})
        assert answer.status_code == 200 and answer.get_json()["valid"] is True, game
        body, headers = payloads.player_request(game, mode, state)
        for path in ("/v1/view", "/v1/legal-actions"):
            answer = clients[mode].post(path, data=body, headers={
                "Content-Type": "application/json", **headers})
            assert answer.status_code == 200, (game, path, answer.get_json())
        assert answer.get_json()["count"] > 0, game


def test_validated_states_are_mid_game(cases):
    """A dozen actions in, not a fresh deal: the move a client typically posts."""
    for game in payloads.GAMES:
        state = payloads.mid_game(game)
        dealt = payloads.played(game, state["players"], 0)
        assert state != dealt, game


def test_the_large_state_is_ten_kilobytes():
    _, state = payloads.large_state()
    assert len(orjson.dumps(state)) >= payloads.LARGE_STATE_BYTES


def test_the_guandan_leader_holds_twenty_seven_cards():
    state = payloads.guandan_leader()
    leader = payloads.to_act(state)
    hand = state["hands"][leader]
    assert len(hand) == 27


def test_cold_rows_send_a_new_cache_key_each_request(clients, cases):
    """A cold row's bodies ask for the same work under distinct keys (the cache identity the
    routes hash: the state and player, or the parsed lookup)."""
    cold = [c for c in cases if c.cold]
    assert {c.group for c in cold} == {"legal-actions", "lookup"}
    for case in cold:
        assert len(set(case.bodies)) == len(case.bodies), case.name
        bodies = [orjson.loads(b) for b in case.bodies]
        if case.group == "legal-actions":
            keys = {hashlib.sha256(orjson.dumps([b["state"]["players"], b["player"]])).digest()
                    for b in bodies}
            assert len(keys) == len(bodies), case.name


def test_a_new_run_draws_new_cold_bodies():
    first = payloads.classify_bodies(50, payloads.random.Random(1))
    second = payloads.classify_bodies(50, payloads.random.Random(2))
    assert not set(first) & set(second)


def test_replay_answers_grow_linearly_with_their_actions(clients):
    """The answer of 1,000 actions is within 1.5x of ten times the answer of 100 (each step
    carries its action, events and deltas, never the whole state again)."""
    deal, actions = payloads.long_man_actions(1000)
    sizes = {}
    for n in (100, 1000):
        answer = clients["signed"].post("/v1/replay", json={"deal": deal, "actions": actions[:n]},
                                        headers=payloads.REFEREE)
        assert answer.status_code == 200 and answer.get_json()["stopped"] is None
        sizes[n] = len(answer.data)
    per_action = {n: size / n for n, size in sizes.items()}
    assert per_action[1000] <= 1.5 * per_action[100], sizes


def test_the_seal_key_is_a_valid_aes_key():
    assert len(parse_key(payloads.SEAL_KEY)) == 32


def test_size_judged_rows_meet_their_limits_here_too(clients, cases):
    """The 27-card leader's legal actions gzipped within 15 KB, the plays of the cards a
    player picked within 2 KB (the bench judges them on the wire again)."""
    judged = {c.name: c for c in cases if c.size_limit}
    assert {"guandan leader, 27 cards, cached, compressed",
            "guandan leader, 27 cards, cards picked"} <= set(judged)
    for case in judged.values():
        answer = post(clients[case.service], case, case.bodies[0])
        assert answer.status_code == 200 and len(answer.data) <= case.size_limit, \
            (case.name, len(answer.data))
    picked = answer_json(post(clients["signed"], judged["guandan leader, 27 cards, cards picked"],
                              judged["guandan leader, 27 cards, cards picked"].bodies[0]))
    # the picked cards read several ways (W-11): each reading listed, all of those cards
    assert picked["count"] > 1 and len({tuple(sorted(a["cards"])) for a in picked["actions"]}) == 1


def test_compressed_rows_have_their_uncompressed_twin(cases):
    names = {(c.group, c.name) for c in cases}
    twins = [c for c in cases if c.plain_twin]
    assert len(twins) >= 2
    for case in twins:
        assert (case.group, case.plain_twin) in names and "gzip" in case.headers["Accept-Encoding"]
