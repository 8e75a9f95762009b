"""Issue #13: trust in a client-held state — no forged deals (referee key, provenance, signed
next_match), no undone or forked moves (game id + move number; strict sequencing in Redis), no
peeking (sealed states, seat tokens, the seed revealed only at the end)."""
from __future__ import annotations

import hashlib
import random

import pytest

from service.app import create_app
from service.config import Settings, SettingsError
from service.sealing import new_key, parse_key

REFEREE_KEY = "trust-referee"
REFEREE = {"Authorization": f"Bearer {REFEREE_KEY}"}
PLAYERS = ["ann", "bob", "cho"]


def client_for(**settings):
    settings.setdefault("metrics", False)
    settings.setdefault("referee_keys", (REFEREE_KEY,))
    return create_app(Settings(**settings)).test_client()


def signed(**kw):
    return client_for(state_secrets=("trust-secret",), **kw)


def sealed(**kw):
    return client_for(seal_keys=(parse_key(new_key()),), **kw)


def deal(client, headers=None, **body):
    return client.post("/v1/games/man/deal", json={"players": PLAYERS, **body}, headers=headers)


def play_to_the_end(client, dealt: dict, tokens: dict | None = None, seed: int = 0):
    """Random legal actions until the game ends; returns every answer."""
    rnd = random.Random(seed)
    out, answers = dealt, []
    for _ in range(3000):
        if out["status"] == "finished":
            return answers
        legal = []
        for player in out["to_act"]:
            headers = {"X-Seat-Token": tokens[player]} if tokens else None
            resp = client.post("/v1/legal-actions", json={"state": out["state"], "player": player},
                               headers=headers)
            assert resp.status_code == 200, resp.get_json()
            legal += resp.get_json()["actions"]
        # a man ends the game (Man 5.4); the deal's seed is the server's, so take it when offered
        mans = [a for a in legal if a["type"] == "man"]
        action = mans[0] if mans else rnd.choice(legal)
        headers = {"X-Seat-Token": tokens[action["player"]]} if tokens else None
        resp = client.post("/v1/validate", json={"state": out["state"], "action": action},
                           headers=headers)
        out = resp.get_json()
        assert resp.status_code == 200 and out["valid"], out
        answers.append(out)
    raise AssertionError("the game did not end")


# ---------------------------------------------------------------- forged deals

@pytest.mark.parametrize("shaping", [{"seed": "mine"}, {"deck": None},
                                     {"match": {"totals": {"ann": 50}}}])
def test_a_shaped_deal_needs_the_referee_key(shaping):
    from engine.cards import deck_52
    if "deck" in shaping:
        shaping = {"deck": deck_52()}
    client = signed()
    refused = deal(client, **shaping)
    assert refused.status_code == 403 and refused.get_json()["code"] == "referee_key_required"
    wrong = deal(client, headers={"Authorization": "Bearer guess"}, **shaping)
    assert wrong.status_code == 403
    ok = deal(client, headers=REFEREE, **shaping)
    assert ok.status_code == 201, ok.get_json()
    assert ok.get_json()["state"]["meta"]["provenance"] == "referee"


def test_a_plain_deal_is_open_to_anyone_server_seeded_and_bound():
    client = signed()
    a, b = deal(client).get_json(), deal(client).get_json()
    assert a["state"]["meta"]["provenance"] == "server" and a["state"]["meta"]["move"] == 0
    assert a["game_id"] == a["state"]["meta"]["game_id"] != b["game_id"]
    assert a["seed_commitment"] != b["seed_commitment"]  # seeds drawn by the server


def test_without_signing_no_key_is_needed_and_no_binding_is_added():
    client = client_for()
    out = deal(client, seed="anything")
    assert out.status_code == 201 and "meta" not in out.get_json()["state"]


def test_provenance_cannot_be_rewritten():
    client = signed()
    state = deal(client, headers=REFEREE, seed="x").get_json()["state"]
    forged = {**state, "meta": {**state["meta"], "provenance": "server"}}
    resp = client.post("/v1/view", json={"state": forged, "player": "ann"})
    assert resp.status_code == 403 and resp.get_json()["code"] == "state_signature_invalid"


def test_next_match_is_signed_and_opens_the_next_deal_to_anyone():
    client = signed()
    answers = play_to_the_end(client, deal(client).get_json(), seed=3)
    final = answers[-1]
    assert final["status"] == "finished"
    nxt = final["next_match"]
    assert nxt["signature"] and set(nxt) >= {"totals", "games_played"}
    second = deal(client, match=nxt)
    assert second.status_code == 201, second.get_json()
    state = second.get_json()["state"]
    assert state["match"]["totals"] == {p: nxt["totals"][p] for p in PLAYERS}
    assert state["meta"]["provenance"] == "server"
    forged = {**nxt, "totals": {**nxt["totals"], "ann": 1000}}
    resp = deal(client, match=forged)
    assert resp.status_code == 422 and resp.get_json()["code"] == "deal_invalid"
    # a signed next_match is not a signed state, nor the other way round
    resp = client.post("/v1/view", json={"state": nxt, "player": "ann"})
    assert resp.status_code in (403, 422)


def test_the_final_answer_reveals_the_seed_that_matches_the_commitment():
    client = sealed()
    dealt = deal(client).get_json()
    answers = play_to_the_end(client, dealt, dealt["seat_tokens"], seed=5)
    assert all("seed" not in a for a in answers[:-1])
    seed, salt = answers[-1]["seed"], answers[-1]["seed_salt"]
    from engine import rng
    assert rng.commitment(seed, salt) == dealt["seed_commitment"]


# ---------------------------------------------------------------- undone and forked moves

def _first_move(client, dealt, tokens=None):
    # Sealed, `to_act` is the public one: it may list a seat that only may try (Man's opening
    # race lists everyone), so take the first listed seat that has an action.
    for player in dealt["to_act"]:
        headers = {"X-Seat-Token": tokens[player]} if tokens else None
        actions = client.post("/v1/legal-actions", json={"state": dealt["state"],
                                                          "player": player},
                              headers=headers).get_json()["actions"]
        if actions:
            return actions[0], client.post("/v1/validate", json={"state": dealt["state"],
                                                                 "action": actions[0]},
                                           headers=headers)
    raise AssertionError(f"no seat of to_act {dealt['to_act']} has an action")


def test_stateless_mode_accepts_an_older_state(redis_url):
    client = signed(redis_url=redis_url)
    dealt = deal(client).get_json()
    action, first = _first_move(client, dealt)
    assert first.get_json()["state"]["meta"]["move"] == 1
    again = client.post("/v1/validate", json={"state": dealt["state"], "action": action})
    assert again.status_code == 200  # the documented trade-off of the default mode


def test_strict_mode_refuses_stale_and_forked_states(redis_url):
    client = signed(redis_url=redis_url, sequence="strict")
    dealt = deal(client).get_json()
    action, first = _first_move(client, dealt)
    assert first.status_code == 200 and first.get_json()["valid"]
    # the same action on the same state is the move already taken, answered again (a lost
    # answer's retry); a different one is a fork (tests/service/test_strict_sequence.py)
    again = client.post("/v1/validate", json={"state": dealt["state"], "action": action})
    assert again.status_code == 200 and again.data == first.data
    for path, body in [("/v1/view", {"state": dealt["state"], "player": "ann"}),
                       ("/v1/legal-actions", {"state": dealt["state"], "player": "ann"})]:
        resp = client.post(path, json=body)
        assert resp.status_code == 409, path
        assert resp.get_json()["code"] == "state_superseded"
    latest = first.get_json()["state"]
    assert client.post("/v1/view", json={"state": latest, "player": "ann"}).status_code == 200


def test_strict_mode_without_its_store_answers_503(own_redis):
    client = signed(redis_url=own_redis.url, sequence="strict", redis_timeout_seconds=0.2)
    dealt = deal(client).get_json()
    player = dealt["to_act"][0]
    action = client.post("/v1/legal-actions", json={"state": dealt["state"], "player": player}
                         ).get_json()["actions"][0]
    own_redis.stop()
    for path, body in [("/v1/validate", {"state": dealt["state"], "action": action}),
                       ("/v1/view", {"state": dealt["state"], "player": player})]:
        resp = client.post(path, json=body)
        assert resp.status_code == 503 and resp.get_json()["code"] == "sequence_unavailable"


@pytest.mark.parametrize("env", [{"CARDREF_SEQUENCE": "strict"},
                                 {"CARDREF_SEQUENCE": "strict", "CARDREF_STATE_SECRET": "s"},
                                 {"CARDREF_SEQUENCE": "sometimes"},
                                 {"CARDREF_SEAL_KEYS": "too-short"}])
def test_impossible_settings_fail_at_start_up(env):
    with pytest.raises(SettingsError):
        Settings.from_env(env)


# ---------------------------------------------------------------- peeking

def test_sealed_states_are_opaque_and_round_trip():
    client = sealed()
    dealt = deal(client).get_json()
    state = dealt["state"]
    assert isinstance(state, str) and state.startswith("sealed.v2.")
    import base64
    payload = state.rsplit(".", 1)[1]
    raw = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
    assert b"hands" not in raw and b"seed" not in raw and b"stock" not in raw  # encrypted
    tampered = state[:-4] + ("AAAA" if state[-4:] != "AAAA" else "BBBB")
    resp = client.post("/v1/view", json={"state": tampered, "player": None})
    assert resp.status_code == 403 and resp.get_json()["code"] == "state_signature_invalid"
    other = sealed()  # another service's keys
    assert other.post("/v1/view", json={"state": state, "player": None}).status_code == 403


def test_seat_tokens_guard_views_legal_actions_and_actions():
    client = sealed()
    dealt = deal(client).get_json()
    tokens, state = dealt["seat_tokens"], dealt["state"]
    assert set(tokens) == set(PLAYERS)
    spectator = client.post("/v1/view", json={"state": state, "player": None})
    assert spectator.status_code == 200
    assert all(h is None for h in spectator.get_json()["view"]["hands"].values())
    for path in ("/v1/view", "/v1/legal-actions"):
        none = client.post(path, json={"state": state, "player": "ann"})
        assert none.status_code == 403 and none.get_json()["code"] == "seat_token_invalid"
        bobs = client.post(path, json={"state": state, "player": "ann"},
                           headers={"X-Seat-Token": tokens["bob"]})
        assert bobs.status_code == 403
        own = client.post(path, json={"state": state, "player": "ann"},
                          headers={"X-Seat-Token": tokens["ann"]})
        assert own.status_code == 200
    action, resp = _first_move(client, dealt, tokens)
    body = resp.get_json()
    assert resp.status_code == 200 and body["valid"] and isinstance(body["state"], str)
    assert body["view"]["viewer"] == action["player"]
    impostor = [p for p in PLAYERS if p != action["player"]][0]
    resp = client.post("/v1/validate", json={"state": dealt["state"], "action": action},
                       headers={"X-Seat-Token": tokens[impostor]})
    assert resp.status_code == 403 and resp.get_json()["code"] == "seat_token_invalid"


def test_a_refusal_names_whose_turn_it_is_before_what_a_hand_holds():
    """Out of turn, a card the player holds and a card they do not get the same answer."""
    from engine import adjudicate
    from tests.man.helpers import build
    s = build({"A": ["S5", "HA"], "B": ["D9", "H9"]}, ["H6"], top_by="A", turn="A")
    held = adjudicate.validate(s, {"type": "play", "player": "B", "cards": ["H9"]})
    not_held = adjudicate.validate(s, {"type": "play", "player": "B", "cards": ["HK"]})
    assert held.refusal.code == not_held.refusal.code == "not_your_turn"


# ---------------------------------------------------------------- referee acts

def _referee_actions():
    """Every referee-only action type of every registered game, found from the declarations
    (ActionType.referee_only): a game that declares a new one is covered without a new test."""
    from engine import registry
    return [(g.id, a) for g in registry.all_games() for a in g.actions if a.referee_only]


def _sample(field, players):
    """A value that fits a declared field: the action must reach the rules, not the parser."""
    samples = {"player": players[-1], "str": "seen at the table", "card": "SA", "cards": [],
               "bool": False, "suit": "S", "str_list": [], "int_list": [], "object": {},
               "object_list": [], "int_map": {}, "str_list_map": {}, "str_list_list": []}
    if field.kind == "enum":
        return field.choices[0]
    if field.kind == "int":
        return field.minimum or 0
    return samples[field.kind]


def _referee_action(game_id, action_type, players):
    return {"type": action_type.name, "player": players[0],
            **{k: _sample(f, players) for k, f in action_type.fields.items() if f.required}}


def test_man_and_manillen_declare_their_referee_acts():
    # The two referee acts of today's games; the parametrized test below covers whatever the
    # declarations say, so this pins that they say it.
    assert {(g, a.name) for g, a in _referee_actions()} >= {("man", "chombo"),
                                                            ("manillen", "report_peek")}


@pytest.mark.parametrize("game_id,action_type", _referee_actions(),
                         ids=[f"{g}-{a.name}" for g, a in _referee_actions()])
@pytest.mark.parametrize("mode", ["signed", "sealed"])
def test_a_referee_only_action_needs_the_referee_key(game_id, action_type, mode):
    from engine import adjudicate, registry
    game = registry.get(game_id)
    players = [f"p{i}" for i in range(1, min(game.max_players, 4) + 1)]
    if mode == "signed":
        client = signed()
    else:
        client = sealed()
    dealt = client.post(f"/v1/games/{game_id}/deal", json={"players": players}).get_json()
    action = _referee_action(game_id, action_type, players)
    seat = {"X-Seat-Token": dealt["seat_tokens"][players[0]]} if mode == "sealed" else {}
    for headers in ({}, seat, {**seat, "Authorization": "Bearer guess"}):
        refused = client.post("/v1/validate", json={"state": dealt["state"], "action": action},
                              headers=headers)
        assert refused.status_code == 403, (headers, refused.get_json())
        assert refused.get_json()["code"] == "referee_key_required"
    # with the key (and no seat token) it is adjudicated: the engine's own ruling
    ruled = client.post("/v1/validate", json={"state": dealt["state"], "action": action},
                        headers=REFEREE)
    assert ruled.status_code == 200, ruled.get_json()
    if mode == "signed":
        plain = {k: v for k, v in dealt["state"].items() if k not in ("meta", "signature")}
        assert ruled.get_json()["valid"] == adjudicate.validate(plain, action).valid
    # a replay holding the act is a referee act too
    replay = {"deal": {"game": game_id, "players": players}, "actions": [action]}
    assert client.post("/v1/replay", json=replay).status_code == 403
    assert client.post("/v1/replay", json=replay, headers=REFEREE).status_code == 200


def test_a_seat_cannot_record_a_chombo_against_another():
    # bob, holding only his own seat token, charges ann with a chombo in the referee preset
    client = sealed()
    dealt = deal(client, options={"preset": "referee"}).get_json()
    tokens = dealt["seat_tokens"]
    chombo = {"type": "chombo", "player": "bob", "offender": "ann", "reason": "I say so"}
    resp = client.post("/v1/validate", json={"state": dealt["state"], "action": chombo},
                       headers={"X-Seat-Token": tokens["bob"]})
    assert resp.status_code == 403 and resp.get_json()["code"] == "referee_key_required"
    # the referee records it, without any seat's token; the answer shows a spectator's view
    resp = client.post("/v1/validate", json={"state": dealt["state"], "action": chombo},
                       headers=REFEREE)
    body = resp.get_json()
    assert resp.status_code == 200 and body["valid"], body
    assert {d["target"]: d["delta"] for d in body["score_deltas"]}["ann"] < 0
    assert body["view"]["viewer"] is None
    assert all(h is None or body["view"]["public"].get(p) for p, h in body["view"]["hands"].items())


def test_a_reported_peek_is_the_referees_to_post():
    # posted as the dealer's partner, whose own report would throw in a hand they dislike
    client = sealed()
    players = ["p1", "p2", "p3", "p4"]
    dealt = client.post("/v1/games/manillen/deal",
                        json={"players": players, "dealer": "p1"}).get_json()
    peek = {"type": "report_peek", "player": "p3"}
    resp = client.post("/v1/validate", json={"state": dealt["state"], "action": peek},
                       headers={"X-Seat-Token": dealt["seat_tokens"]["p3"]})
    assert resp.status_code == 403 and resp.get_json()["code"] == "referee_key_required"
    resp = client.post("/v1/validate", json={"state": dealt["state"], "action": peek},
                       headers=REFEREE)
    assert resp.status_code == 200 and resp.get_json()["valid"], resp.get_json()
    assert [e["type"] for e in resp.get_json()["events"]][0] == "thrown_in"


def test_without_referee_keys_nobody_may_post_a_referee_act_under_sealing():
    client = sealed(referee_keys=())
    dealt = deal(client, options={"preset": "referee"}).get_json()
    chombo = {"type": "chombo", "player": "bob", "offender": "ann", "reason": "x"}
    for headers in ({"X-Seat-Token": dealt["seat_tokens"]["bob"]}, REFEREE):
        resp = client.post("/v1/validate", json={"state": dealt["state"], "action": chombo},
                           headers=headers)
        assert resp.status_code == 403 and resp.get_json()["code"] == "referee_key_required"


def test_without_signing_or_sealing_a_referee_act_needs_no_key():
    # plain states: the client may edit the state anyway, so there is no referee to prove
    client = client_for()
    dealt = deal(client, options={"preset": "referee"}).get_json()
    chombo = {"type": "chombo", "player": "bob", "offender": "ann", "reason": "x"}
    resp = client.post("/v1/validate", json={"state": dealt["state"], "action": chombo})
    assert resp.status_code == 200 and resp.get_json()["valid"]


def test_games_list_publishes_which_actions_are_referee_only():
    client = client_for()
    games = {g["id"]: g for g in client.get("/v1/games").get_json()["games"]}
    flags = {(gid, a["type"]): a["referee_only"] for gid, g in games.items()
             for a in g["actions"]}
    assert flags[("man", "chombo")] is True and flags[("man", "play")] is False
    assert {k for k, v in flags.items() if v} == {(g, a.name) for g, a in _referee_actions()}


# ---------------------------------------------------------------- sealed lengths

def test_a_hidden_cards_length_does_not_show_in_the_sealed_state():
    from engine import adjudicate
    from service.sealing import Sealer
    from service.trust import STATE_PURPOSE
    sealer = Sealer([parse_key(new_key())])
    state = adjudicate.deal("man", PLAYERS, seed="padding")["state"]
    lengths = set()
    for card in ("H10", "H9"):  # a 10 is written one character longer than a 9
        variant = {**state, "hands": {**state["hands"], "ann": [card, *state["hands"]["ann"][1:]]}}
        sealed_state = sealer.seal(variant, STATE_PURPOSE)
        assert sealer.open(sealed_state, STATE_PURPOSE) == variant
        lengths.add(len(sealed_state))
    assert len(lengths) == 1, lengths


def test_sealed_lengths_move_in_whole_blocks_and_unpad_exactly():
    from service.sealing import PAD_BLOCK, Sealer
    sealer = Sealer([parse_key(new_key())])
    # strings of every length around a block boundary: each opens to exactly itself, and the
    # sealed length takes one of two values (one per block), never one per byte
    values = ["x" * n for n in range(PAD_BLOCK - 40, PAD_BLOCK + 40)]
    sealed_values = [sealer.seal(v, b"p") for v in values]
    assert [sealer.open(s, b"p") for s in sealed_values] == values
    assert len({len(s) for s in sealed_values}) == 2


def test_states_sealed_before_padding_still_open():
    import base64
    import os

    import orjson
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    from service.sealing import Sealer, _key_id
    from service.trust import STATE_PURPOSE
    key = parse_key(new_key())
    nonce = os.urandom(12)
    body = AESGCM(key).encrypt(nonce, orjson.dumps({"a": 1}), STATE_PURPOSE)  # as v1 sealed
    old = f"sealed.v1.{_key_id(key)}.{base64.urlsafe_b64encode(nonce + body).decode().rstrip('=')}"
    assert Sealer([key]).open(old, STATE_PURPOSE) == {"a": 1}
    # relabelled as a padded (v2) string it is refused: the version is under the tag
    from service.sealing import SealError
    with pytest.raises(SealError):
        Sealer([key]).open(old.replace("sealed.v1.", "sealed.v2.", 1), STATE_PURPOSE)


# ---------------------------------------------------------------- seat tokens across rotations

def _ann_move(client, state, token):
    """ann's view of `state`, asked with `token`."""
    return client.post("/v1/view", json={"state": state, "player": "ann"},
                       headers={"X-Seat-Token": token})


def test_seat_tokens_outlive_a_seal_key_rotation():
    old_key, new_key_ = parse_key(new_key()), parse_key(new_key())
    tokens_keys = ("seat-tokens-1",)
    before = client_for(seal_keys=(old_key,), seat_token_keys=tokens_keys)
    dealt = deal(before).get_json()
    tokens = dealt["seat_tokens"]
    # rotation, step 1: the new key seals, the old still opens; a move re-seals the state
    during = client_for(seal_keys=(new_key_, old_key), seat_token_keys=tokens_keys)
    _, moved = _first_move(during, dealt, tokens)
    assert moved.status_code == 200 and moved.get_json()["valid"], moved.get_json()
    resealed = moved.get_json()["state"]
    # step 2: the old key is gone; the re-sealed state and the tokens of the deal still work
    after = client_for(seal_keys=(new_key_,), seat_token_keys=tokens_keys)
    for player in PLAYERS:
        resp = after.post("/v1/legal-actions", json={"state": resealed, "player": player},
                          headers={"X-Seat-Token": tokens[player]})
        assert resp.status_code == 200, resp.get_json()
    nxt = moved.get_json()["to_act"][0]
    action = after.post("/v1/legal-actions", json={"state": resealed, "player": nxt},
                        headers={"X-Seat-Token": tokens[nxt]}).get_json()["actions"][0]
    resp = after.post("/v1/validate", json={"state": resealed, "action": action},
                      headers={"X-Seat-Token": tokens[nxt]})
    assert resp.status_code == 200 and resp.get_json()["valid"], resp.get_json()
    # the old state, sealed under the removed key, is what no longer opens
    assert after.post("/v1/view", json={"state": dealt["state"], "player": None}
                      ).status_code == 403


def test_seat_token_keys_rotate_on_their_own():
    seal = (parse_key(new_key()),)
    first = client_for(seal_keys=seal, seat_token_keys=("t1",))
    dealt = deal(first).get_json()
    ann = dealt["seat_tokens"]["ann"]
    rotating = client_for(seal_keys=seal, seat_token_keys=("t2", "t1"))
    assert _ann_move(rotating, dealt["state"], ann).status_code == 200
    newer = deal(rotating).get_json()  # issued under t2, the first key
    done = client_for(seal_keys=seal, seat_token_keys=("t2",))
    assert _ann_move(done, newer["state"], newer["seat_tokens"]["ann"]).status_code == 200
    refused = _ann_move(done, dealt["state"], ann)  # issued under the removed t1
    assert refused.status_code == 403 and refused.get_json()["code"] == "seat_token_invalid"


def test_without_seat_token_keys_tokens_follow_the_seal_keys():
    # the documented default: keys derived from the seal keys issue the tokens, so removing a
    # seal key ends the tokens it issued (set CARDREF_SEAT_TOKEN_KEYS to rotate independently)
    old_key, new_key_ = parse_key(new_key()), parse_key(new_key())
    dealt = deal(client_for(seal_keys=(old_key,))).get_json()
    tokens = dealt["seat_tokens"]
    _, moved = _first_move(client_for(seal_keys=(new_key_, old_key)), dealt, tokens)
    assert moved.status_code == 200
    after = client_for(seal_keys=(new_key_,))
    resp = _ann_move(after, moved.get_json()["state"], tokens["ann"])
    assert resp.status_code == 403 and resp.get_json()["code"] == "seat_token_invalid"


def test_seat_tokens_issued_under_the_seal_key_itself_still_verify():
    # tokens of releases before seat-token keys: an HMAC under the seal key
    import hmac as hmac_mod
    key = parse_key(new_key())
    client = client_for(seal_keys=(key,))
    dealt = deal(client).get_json()
    message = b"seat\x00" + dealt["game_id"].encode() + b"\x00ann"
    legacy = hmac_mod.new(key, message, hashlib.sha256).hexdigest()[:32]
    assert legacy != dealt["seat_tokens"]["ann"]  # new tokens come from a derived key
    assert _ann_move(client, dealt["state"], legacy).status_code == 200


def test_seat_token_keys_without_sealing_fail_at_start_up():
    with pytest.raises(SettingsError):
        Settings.from_env({"CARDREF_SEAT_TOKEN_KEYS": "t1"})


# ---------------------------------------------------------------- salted commitments

def test_a_referee_chosen_seed_is_not_found_from_its_commitment():
    # the README's seed: a bare SHA-256 would give it away to anyone who tries the word
    client = sealed()
    dealt = deal(client, headers=REFEREE, seed="readme").get_json()
    assert dealt["seed_commitment"] != hashlib.sha256(b"readme").hexdigest()
    other = deal(client, headers=REFEREE, seed="readme").get_json()
    assert other["seed_commitment"] != dealt["seed_commitment"]  # a fresh salt per deal


def test_the_salt_is_hidden_like_the_seed_and_revealed_with_it():
    from engine import rng
    client = sealed()
    dealt = deal(client, headers=REFEREE, seed="readme").get_json()
    tokens = dealt["seat_tokens"]
    for player in PLAYERS:
        view = client.post("/v1/view", json={"state": dealt["state"], "player": player},
                           headers={"X-Seat-Token": tokens[player]}).get_json()["view"]
        assert "seed" not in view and "seed_salt" not in view
    answers = play_to_the_end(client, dealt, tokens, seed=7)
    assert all("seed_salt" not in a and "seed_salt" not in a.get("view", {})
               for a in answers[:-1])
    final = answers[-1]
    assert final["seed"] == "readme" and rng.valid_salt(final["seed_salt"])
    assert rng.commitment(final["seed"], final["seed_salt"]) == dealt["seed_commitment"]
    from service import cli
    assert cli.main(["verify-seed", final["seed"], dealt["seed_commitment"],
                     "--salt", final["seed_salt"]]) == 0


def test_a_chosen_salt_is_a_referee_act():
    client = signed()
    salt = "0123456789abcdef0123456789abcdef"
    refused = deal(client, seed_salt=salt)
    assert refused.status_code == 403 and refused.get_json()["code"] == "referee_key_required"
    ok = deal(client, headers=REFEREE, seed="table", seed_salt=salt).get_json()
    from engine import rng
    assert ok["seed_commitment"] == rng.commitment("table", salt)
    assert deal(client, headers=REFEREE, seed_salt="short").status_code == 422


def test_a_state_dealt_before_salting_reveals_no_salt():
    # states in flight from before: no seed_salt, committed by the seed's bare SHA-256
    client = signed()
    dealt = deal(client).get_json()
    from service.signing import Signer
    plain = {k: v for k, v in dealt["state"].items() if k not in ("signature", "seed_salt")}
    old = Signer(("trust-secret",)).sign(plain)
    answers = play_to_the_end(client, {**dealt, "state": old}, seed=3)
    final = answers[-1]
    assert final["seed_salt"] is None and final["seed"] == dealt["state"]["seed"]
