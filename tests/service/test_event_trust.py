"""The trust modes keep their promises inside hosted events (docs/security.md, "Hosted
events"): with signing or sealing on, a table's token pushing a record that adds a referee act
(a penalty, a chombo, a deal from the cards) is refused 403 referee_key_required and nothing is
stored, unless the referee key comes with it (X-Referee-Key); acts already stored are not asked
again; the director's token needs no key; a plain service asks none. A table played through the
service's own signed or sealed endpoints, a referee's penalty among its acts, is pushed and
the event checks clean."""
from __future__ import annotations

import copy
import random

import pytest

from engine import adjudicate, records
from engine.events import parse_event
from engine.events.check import check_event
from engine.events.format import seat_ids
from service.sealing import new_key, parse_key
from tests.events.helpers import event
from tests.service.test_hosted_events import Hosted, app_client, grown, record_for

REFEREE_KEY = "event-referee-key"
WITH_KEY = {"X-Referee-Key": REFEREE_KEY}
MODES = {"signed": {"state_secrets": ("event-trust-secret",)},
         "sealed": {"seal_keys": (parse_key(new_key()),)}}


def client_in(redis_url: str, mode: str, **settings):
    settings.setdefault("referee_keys", (REFEREE_KEY,))
    return app_client(redis_url, **MODES.get(mode, {}), **settings)


def penalty(player: str, points: int = 1) -> dict:
    return {"action": {"type": "penalty", "player": player, "points": points,
                       "reason": "card exposed"}}


def stored(ev: Hosted, table: int = 1):
    return ev.document()["rounds"][0]["tables"][table - 1].get("result")


def refused(resp, path: str) -> None:
    assert resp.status_code == 403, resp.get_json()
    problem = resp.get_json()
    assert problem["code"] == "referee_key_required"
    assert path in problem["errors"], problem


def daifugo_table(client) -> tuple[Hosted, dict, dict]:
    """An event with round 1 started, table 1's random record, and the same five actions
    with a penalty against the table's second seat after them (not stored yet)."""
    ev = Hosted(client, event(8, rounds=1))
    ev.start_round()
    base = record_for(ev.document(), 1, 1, seed=3)
    with_penalty = grown(base, 5)
    with_penalty["deals"][0]["actions"].append(penalty(base["players"][1]))
    return ev, base, with_penalty


@pytest.mark.parametrize("mode", sorted(MODES))
def test_a_tables_record_adding_a_referee_act_needs_the_referee_key(redis_url, mode):
    ev, base, with_penalty = daifugo_table(client_in(redis_url, mode))
    ev.ok(ev.put_result(1, 1, {"record": grown(base, 5)}))
    before, version = stored(ev), ev.version
    for headers in ({}, {"X-Referee-Key": "guess"}, {"X-Referee-Key": ""}):
        refused(ev.put_result(1, 1, {"record": with_penalty}, **headers),
                "record.deals[0].actions[5]")
    assert stored(ev) == before and ev.document() and ev.version == version  # nothing changed
    ev.ok(ev.put_result(1, 1, {"record": with_penalty}, **WITH_KEY))
    # the same record again, one action longer: its penalty is stored, not asked for again
    longer = copy.deepcopy(with_penalty)
    longer["deals"][0]["actions"].append(base["deals"][0]["actions"][5])
    ev.ok(ev.put_result(1, 1, {"record": longer}))
    assert stored(ev) == {"record": longer}
    # the stored penalty changed (more points), or a second one: new acts, refused
    heavier = copy.deepcopy(longer)
    heavier["deals"][0]["actions"][5] = penalty(base["players"][1], 3)
    refused(ev.put_result(1, 1, {"record": heavier}), "record.deals[0].actions[5]")
    again = copy.deepcopy(longer)
    again["deals"][0]["actions"].append(penalty(base["players"][2]))
    refused(ev.put_result(1, 1, {"record": again}), "record.deals[0].actions[7]")
    assert stored(ev) == {"record": longer}


@pytest.mark.parametrize("mode", sorted(MODES))
def test_a_record_dealt_from_the_cards_or_with_a_chombo_needs_the_referee_key(redis_url, mode):
    client = client_in(redis_url, mode)
    options = {"preset": "referee"}  # Man's violations=chombo: the referee records a chombo
    ev = Hosted(client, event(8, game="man", table_size=4, rounds=1, options=options))
    ev.start_round()
    tables = parse_event(ev.document()).rounds[0].tables
    players = seat_ids(tables[0])
    dealt = adjudicate.deal("man", players, options, "chosen", seed_salt="0" * 32)
    chombo = {"type": "chombo", "player": players[0], "offender": players[1], "reason": "x"}
    assert adjudicate.validate(dealt["state"], chombo).valid
    record = {"format": records.FORMAT, "format_version": 1, "game": "man", "players": players,
              "options": options,
              "deals": [{"deal": {"seed": "chosen", "seed_salt": "0" * 32,
                                  "seed_commitment": dealt["seed_commitment"]},
                         "actions": [{"action": chombo}]}]}
    refused(ev.put_result(1, 1, {"record": record}), "record.deals[0].actions[0]")
    physical = random_physical_record(seat_ids(tables[1]), options)
    refused(ev.put_result(1, 2, {"record": physical}), "record.deals[0].deal")
    assert stored(ev, 1) is None and stored(ev, 2) is None
    ev.ok(ev.put_result(1, 1, {"record": record}, **WITH_KEY))
    ev.ok(ev.put_result(1, 2, {"record": physical}, **WITH_KEY))


def random_physical_record(players: list[str], options: dict) -> dict:
    """A record of Man whose first deal was entered from the cards (its hands)."""
    from tests.records import random_record

    for seed in range(40):
        record = random_record("man", random.Random(seed), deals=1, physical=1.0, ledger=0.0,
                               comments=0.0, options=options, players=players)
        if "hands" in record["deals"][0]["deal"]:
            return record
    raise AssertionError("no physical deal")


@pytest.mark.parametrize("mode", sorted(MODES))
def test_the_director_writes_referee_acts_without_the_key(redis_url, mode):
    ev, _, with_penalty = daifugo_table(client_in(redis_url, mode))
    resp = ev.client.put(f"/v1/events/{ev.id}/rounds/1/tables/1/result",
                         json={"record": with_penalty}, headers=ev.director)
    ev.ok(resp)
    assert stored(ev) == {"record": with_penalty}


def test_without_signing_or_sealing_no_key_is_asked(redis_url):
    ev, _, with_penalty = daifugo_table(client_in(redis_url, "plain"))
    ev.ok(ev.put_result(1, 1, {"record": with_penalty}))
    assert stored(ev) == {"record": with_penalty}


def test_with_no_referee_key_configured_nobody_adds_a_referee_act(redis_url):
    ev, _, with_penalty = daifugo_table(client_in(redis_url, "signed", referee_keys=()))
    resp = ev.put_result(1, 1, {"record": with_penalty}, **WITH_KEY)
    refused(resp, "record.deals[0].actions[5]")
    assert "nobody may" in resp.get_json()["detail"]
    ja = ev.put_result(1, 1, {"record": with_penalty}, **{"Accept-Language": "ja"})
    refused(ja, "record.deals[0].actions[5]")
    assert "審判用キー" in ja.get_json()["detail"]


@pytest.mark.parametrize("mode", sorted(MODES))
def test_a_table_played_through_the_trusted_endpoints_is_pushed_and_the_event_checks_clean(
        redis_url, mode):
    client = client_in(redis_url, mode)
    ev = Hosted(client, event(8, game="man", table_size=4, rounds=1))
    ev.start_round()
    players = seat_ids(parse_event(ev.document()).rounds[0].tables[0])
    resp = client.post("/v1/games/man/deal", json={"players": players})
    assert resp.status_code == 201, resp.get_json()
    dealt = resp.get_json()
    tokens = dealt.get("seat_tokens") or {}
    assert bool(tokens) == (mode == "sealed")
    # the referee's penalty at the second step, posted with the key as at any table
    referee = {1: (penalty(players[2])["action"], {"Authorization": f"Bearer {REFEREE_KEY}"})}

    def still_trusted(out: dict) -> None:
        # the states stay signed or sealed, as at any table: the event changes nothing of them
        assert isinstance(out["state"], str) if mode == "sealed" else "signature" in out["state"]
    out, entries = played_out(client, dealt, random.Random(5), referee, still_trusted)
    assert out["status"] == "finished"
    record = {"format": records.FORMAT, "format_version": 1, "game": "man", "players": players,
              "deals": [{"deal": {"seed": out["seed"], "seed_salt": out["seed_salt"],
                                  "seed_commitment": dealt["seed_commitment"]},
                         "actions": entries}]}
    refused(ev.put_result(1, 1, {"record": record}), "record.deals[0].actions[1]")
    ev.ok(ev.put_result(1, 1, {"record": record}, **WITH_KEY))
    ev.ok(ev.put_result(1, 1, {"record": record}))  # pushed again: nothing new to ask for
    ev.ok(ev.post("/rounds/1/close"))
    checked = check_event(ev.document())
    assert checked["consistent"], checked["discrepancy"]
    assert ev.document()["rounds"][0]["tables"][0]["result"] == {"record": record}


def test_a_held_act_is_compared_with_the_record_the_push_replaces(redis_url, monkeypatch):
    """A push whose penalty the stored record held when it was read, while the record stored
    is replaced by one without it before the push is written (the director's correction): the
    push is computed again on what is stored now, and its penalty, no longer held, is refused."""
    import orjson
    import redis

    from service.event_store import EventStore

    ev, base, with_penalty = daifugo_table(client_in(redis_url, "signed"))
    ev.ok(ev.put_result(1, 1, {"record": with_penalty}, **WITH_KEY))
    longer = copy.deepcopy(with_penalty)
    longer["deals"][0]["actions"].append(base["deals"][0]["actions"][5])
    corrected = grown(base, 5)
    read, replaced = EventStore.table_record, []

    def read_then_replaced(store, eid, number, table):
        held = read(store, eid, number, table)
        if not replaced:  # right after the first read: another change of this table's result
            replaced.append(True)
            kept = redis.Redis.from_url(redis_url)
            kept.hset(f"cardref:ev:{{{eid}}}:results", "1.1", orjson.dumps({"record": corrected}))
            kept.hincrby(f"cardref:ev:{{{eid}}}", "version", 1)
        return held
    monkeypatch.setattr(EventStore, "table_record", read_then_replaced)
    refused(ev.put_result(1, 1, {"record": longer}), "record.deals[0].actions[5]")
    ev.version += 1  # the change made behind the API
    assert replaced and stored(ev) == {"record": corrected}


@pytest.mark.parametrize("mode", sorted(MODES))
def test_an_append_adding_a_referee_act_needs_the_referee_key(redis_url, mode):
    """An append carries only entries the stored record does not hold, so every referee act in
    it is new: a table's append with a penalty is refused without the key (its path in the
    append's own body) and nothing changes; with the key it lands; the director needs none."""
    from tests.records import record_append
    from tests.service.test_record_appends import append

    ev, base, with_penalty = daifugo_table(client_in(redis_url, mode))
    first = grown(base, 5)
    end = ev.ok(ev.put_result(1, 1, {"record": first}))["end"]
    body = {**record_append(first, with_penalty), "base": end["key"]}
    before, version = stored(ev), ev.version
    for headers in ({}, {"X-Referee-Key": "guess"}):
        refused(append(ev, 1, 1, body, **headers), "actions[0]")
    assert stored(ev) == before and ev.version == version
    end = ev.ok(append(ev, 1, 1, body, **WITH_KEY))["end"]
    assert stored(ev) == {"record": with_penalty}
    # the next append, a plain action: no key asked
    longer = copy.deepcopy(with_penalty)
    longer["deals"][0]["actions"].append(base["deals"][0]["actions"][5])
    end = ev.ok(append(ev, 1, 1, {**record_append(with_penalty, longer),
                                  "base": end["key"]}))["end"]
    # a second penalty appended by the director's token: no key asked
    again = copy.deepcopy(longer)
    again["deals"][0]["actions"].append(penalty(base["players"][2]))
    ev.ok(append(ev, 1, 1, {**record_append(longer, again), "base": end["key"]},
                 token=ev.director["Authorization"].split(" ", 1)[1]))
    assert stored(ev) == {"record": again}


def test_a_plain_service_asks_no_key_of_an_append(redis_url):
    from tests.records import record_append
    from tests.service.test_record_appends import append

    ev, base, with_penalty = daifugo_table(client_in(redis_url, "plain"))
    first = grown(base, 5)
    end = ev.ok(ev.put_result(1, 1, {"record": first}))["end"]
    ev.ok(append(ev, 1, 1, {**record_append(first, with_penalty), "base": end["key"]}))
    assert stored(ev) == {"record": with_penalty}


# ------------------------------------------------------------------ an event's committed deals
# A table deals its round's same deals by naming them (`event_deal`) with its own token
# (X-Event-Token): the service deals each with the seed and salt the round committed to, as if
# it had drawn them, so no referee key is needed in any mode and provenance stays `server`.

def event_deal(ev: Hosted, k: int, number: int = 1) -> dict:
    return {"event": ev.id, "round": number, "deal": k}


def dealt_by_name(client, players: list[str], ev: Hosted, k: int, token: str | None,
                  match=None, host_token: str | None = None, number: int = 1, **extra):
    body = {"players": players, "event_deal": event_deal(ev, k, number), **extra}
    if match is not None:
        body["match"] = match
    headers = {**({"X-Event-Token": token} if token is not None else {}),
               **({"X-Host-Token": host_token} if host_token else {})}
    return client.post("/v1/games/man/deal", json=body, headers=headers)


def played_out(client, dealt: dict, rnd: random.Random,
               acts: dict[int, tuple[dict, dict]] | None = None,
               each=lambda out: None) -> tuple[dict, list[dict]]:
    """The deal played to its end through /v1/validate as its seats (their tokens under
    sealing), Man's declaration whenever offered, `acts` posted at their steps (an action and
    its headers: a referee's), `each` called with every answer: (the last answer, the
    record's entries)."""
    tokens, out, entries = dealt.get("seat_tokens") or {}, dealt, []
    for step in range(400):
        if out["status"] == "finished":
            return out, entries
        if acts and step in acts:
            action, headers = acts[step]
        else:
            legal = []
            for player in out["to_act"]:
                seat = {"X-Seat-Token": tokens[player]} if tokens else {}
                answer = client.post("/v1/legal-actions", headers=seat,
                                     json={"state": out["state"], "player": player})
                assert answer.status_code == 200, answer.get_json()
                legal += answer.get_json()["actions"]
            mans = [a for a in legal if a["type"] == "man"]
            action = {k: v for k, v in (mans[0] if mans else rnd.choice(legal)).items()
                      if k not in ("text", "game")}
            headers = {"X-Seat-Token": tokens[action["player"]]} if tokens else {}
        answer = client.post("/v1/validate", json={"state": out["state"], "action": action},
                             headers=headers)
        assert answer.status_code == 200 and answer.get_json()["valid"], answer.get_json()
        out = answer.get_json()
        each(out)
        entries.append({"action": action, **({"score_deltas": out["score_deltas"]}
                                             if out["score_deltas"] else {})})
    raise AssertionError("the deal did not finish")


def same_cards(client, answer: dict, players: list[str], seed: str, salt: str, match=None):
    """Each seat's view of the answer's deal is its view of a plain deal with that seed."""
    plain = adjudicate.deal("man", players, None, seed, match=match, seed_salt=salt)
    tokens = answer.get("seat_tokens") or {}
    for player in players:
        seat = {"X-Seat-Token": tokens[player]} if tokens else {}
        seen = client.post("/v1/view", json={"state": answer["state"], "player": player},
                           headers=seat)
        assert seen.status_code == 200, seen.get_json()
        assert seen.get_json()["view"] == adjudicate.view(plain["state"], player)


@pytest.mark.parametrize("mode", ["plain", *sorted(MODES)])
def test_a_table_token_deals_its_rounds_committed_deals_without_the_referee_key(redis_url, mode):
    client = client_in(redis_url, mode)
    ev = Hosted(client, event(8, game="man", table_size=4, rounds=1, same_deals=2))
    ev.start_round()
    players = seat_ids(parse_event(ev.document()).rounds[0].tables[0])
    committed = [d["seed_commitment"] for d in ev.document()["rounds"][0]["deals"]]
    seeds = client.get(f"/v1/events/{ev.id}/rounds/1/deals", headers=ev.director).get_json()
    token, rnd, deals = ev.tables[1], random.Random(7), []
    match = host = values = None  # the next_match as sent, and its values (the engine's)
    for k in (1, 2):  # the match's first deal, then its next from the signed next_match
        resp = dealt_by_name(client, players, ev, k, token, match, host)
        assert resp.status_code == 201, resp.get_json()
        dealt = resp.get_json()
        assert dealt["seed_commitment"] == committed[k - 1]
        if mode != "plain":  # the service's own deal, not the referee's
            assert dealt["lineage"] == {**dealt["lineage"], "deal": k, "provenance": "server"}
        same = seeds["deals"][k - 1]
        same_cards(client, dealt, players, same["seed"], same["seed_salt"], values)
        out, entries = played_out(client, dealt, rnd)
        assert (out["seed"], out["seed_salt"]) == (same["seed"], same["seed_salt"])
        deals.append({"deal": {"seed": out["seed"], "seed_salt": out["seed_salt"],
                               "seed_commitment": dealt["seed_commitment"]},
                      "actions": entries})
        values = adjudicate.replay(
            {"game_id": "man", "players": players, "seed": same["seed"],
             "seed_salt": same["seed_salt"], "match": values},
            [e["action"] for e in entries])["next_match"]
        match, host = out["next_match"], dealt.get("host_token")
    record = {"format": records.FORMAT, "format_version": 1, "game": "man", "players": players,
              "deals": deals}
    assert records.referee_acts(record) == []
    ev.ok(ev.put_result(1, 1, {"record": record}))  # the table's token alone: no referee act
    ev.ok(ev.post("/rounds/1/close"))
    checked = check_event(ev.document())
    assert checked["consistent"], checked["discrepancy"]
    assert checked["checked"]["same_deals"] == 2


def problem_of(resp, status: int, code: str) -> dict:
    assert resp.status_code == status, resp.get_json()
    assert resp.get_json()["code"] == code, resp.get_json()
    return resp.get_json()


@pytest.mark.parametrize("mode", sorted(MODES))
def test_an_events_committed_deal_needs_a_live_token_of_that_round(redis_url, mode):
    client = client_in(redis_url, mode)
    ev = Hosted(client, event(8, game="man", table_size=4, rounds=2, same_deals=2))
    started = ev.start_round()
    players = seat_ids(parse_event(ev.document()).rounds[0].tables[0])
    one, two = (t["token"] for t in started["tables"])
    for token in (None, "", "guess", f"{one.partition('.')[0]}.wrong"):
        problem_of(dealt_by_name(client, players, ev, 1, token), 403, "event_token_invalid")
    # the referee key is no event's token: it shapes deals, it does not name the event's
    keyed = client.post("/v1/games/man/deal", headers={"Authorization": f"Bearer {REFEREE_KEY}"},
                        json={"players": players, "event_deal": event_deal(ev, 1)})
    problem_of(keyed, 403, "event_token_invalid")
    director = ev.director["Authorization"].removeprefix("Bearer ")
    for token in (one, two, director):  # any table of the round (the same deals), the director
        assert dealt_by_name(client, players, ev, 2, token).status_code == 201
    # revoked: refused from then on
    token_id = two.partition(".")[0]
    assert client.delete(f"/v1/events/{ev.id}/tokens/{token_id}",
                         headers=ev.director).status_code in (200, 204)
    problem_of(dealt_by_name(client, players, ev, 1, two), 403, "event_token_invalid")
    # the round closed: its table tokens are revoked; the next round's token is not its
    ev.ok(ev.post("/rounds/1/close"))
    problem_of(dealt_by_name(client, players, ev, 1, one), 403, "event_token_invalid")
    later = ev.start_round()["tables"][0]["token"]
    problem_of(dealt_by_name(client, players, ev, 1, later), 403, "event_token_invalid")
    # the director deals a closed round's deal from its revealed seed: the same commitment
    closed = dealt_by_name(client, players, ev, 1, director)
    assert closed.status_code == 201, closed.get_json()
    assert closed.get_json()["seed_commitment"] == \
        ev.document()["rounds"][0]["deals"][0]["seed_commitment"]
    assert dealt_by_name(client, players, ev, 1, later, number=2).status_code == 201


@pytest.mark.parametrize("mode", sorted(MODES))
def test_an_event_deal_past_the_same_deals_or_beside_a_seed_is_refused(redis_url, mode):
    client = client_in(redis_url, mode)
    ev = Hosted(client, event(8, game="man", table_size=4, rounds=2, same_deals=2))
    ev.start_round()
    players = seat_ids(parse_event(ev.document()).rounds[0].tables[0])
    token, director = ev.tables[1], ev.director["Authorization"].removeprefix("Bearer ")
    past = problem_of(dealt_by_name(client, players, ev, 3, token), 422, "event_deal_unknown")
    assert "event_deal.deal" in past["errors"]
    problem_of(dealt_by_name(client, players, ev, 1, director, number=2), 422,
               "event_deal_unknown")  # round 2 is not seated yet
    unknown = {"players": players, "event_deal": {**event_deal(ev, 1), "event": "x" * 22}}
    problem_of(client.post("/v1/games/man/deal", json=unknown, headers={"X-Event-Token": token}),
               422, "event_deal_unknown")
    hands = {p: [] for p in players}
    for extra in ({"seed": "mine"}, {"seed_salt": "0" * 32}, {"hands": hands},
                  {"deck": ["H9"]}):
        conflict = problem_of(dealt_by_name(client, players, ev, 1, token, **extra), 422,
                              "event_deal_conflict")
        assert next(iter(extra)) in conflict["errors"]
    # with the referee key too: the committed deal is the event's, never the caller's shape
    keyed = client.post("/v1/games/man/deal", json={
        "players": players, "event_deal": event_deal(ev, 1), "seed": "mine"},
        headers={"X-Event-Token": token, "Authorization": f"Bearer {REFEREE_KEY}"})
    problem_of(keyed, 422, "event_deal_conflict")
    # the header's bound holds on every deal, as X-Host-Token's; a replay names no event
    long = client.post("/v1/games/man/deal", json={"players": players},
                       headers={"X-Event-Token": "x" * 513})
    problem_of(long, 422, "request_invalid")
    replay = client.post("/v1/replay", json={"deal": {
        "game": "man", "players": players, "event_deal": event_deal(ev, 1)}, "actions": []},
        headers={"X-Event-Token": token})
    problem_of(replay, 422, "request_invalid")


@pytest.mark.parametrize("mode", sorted(MODES))
def test_under_sealing_a_table_token_reads_no_seed_of_its_open_round(redis_url, mode):
    client = client_in(redis_url, mode)
    ev = Hosted(client, event(8, game="man", table_size=4, rounds=1, same_deals=2))
    ev.start_round()
    path = f"/v1/events/{ev.id}/rounds/1/deals"
    committed = [d["seed_commitment"] for d in ev.document()["rounds"][0]["deals"]]
    table = client.get(path, headers={"Authorization": f"Bearer {ev.tables[1]}"})
    director = client.get(path, headers=ev.director)
    assert table.status_code == director.status_code == 200
    assert [d["seed_commitment"] for d in director.get_json()["deals"]] == committed
    assert all(d["seed"] and d["seed_salt"] for d in director.get_json()["deals"])
    if mode == "sealed":  # secrecy: the commitments only
        assert table.get_json()["deals"] == [{"seed_commitment": c} for c in committed]
    else:  # signing promises integrity, not secrecy: the table sees what the director does
        assert table.get_json() == director.get_json()
    ev.ok(ev.post("/rounds/1/close"))  # now public in the document
    assert client.get(path, headers=ev.director).get_json() == director.get_json()
