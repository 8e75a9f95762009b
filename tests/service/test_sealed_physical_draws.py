"""Sealed physical deals: a card named as drawn from a stock of unknown order (man 3.10,
manteur B.6) is the referee's to enter. The engine refuses a named card that lies elsewhere
(`stock_card_seen`, "not in the stock") and takes it otherwise, so a seat posting its own draws
with its token could map which unseen cards are out of the stock (in Man, in the other hands;
in Manteur, among the face-down discards). Under sealing such an act needs the referee key and
a seat token alone gets 403 `referee_key_required` before anything is adjudicated: the same
answer wherever the card lies. A server-shuffled deal names no drawn card and is unaffected."""
from __future__ import annotations

import pytest

from service.app import create_app
from service.config import Settings
from service.sealing import new_key, parse_key

KEY = "physical-draws-referee"
REFEREE = {"Authorization": f"Bearer {KEY}"}


def client_for(mode: str = "sealed"):
    settings = {"metrics": False, "referee_keys": (KEY,)}
    if mode == "sealed":
        settings["seal_keys"] = (parse_key(new_key()),)
    else:
        settings["state_secrets"] = ("physical-draws-secret",)
    return create_app(Settings(**settings)).test_client()


def dealt(client, game: str, body: dict) -> dict:
    resp = client.post(f"/v1/games/{game}/deal", json=body, headers=REFEREE)
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()


def act(client, state, action: dict, headers: dict) -> dict:
    resp = client.post("/v1/validate", json={"state": state, "action": action}, headers=headers)
    body = resp.get_json()
    assert resp.status_code == 200 and body["valid"], body
    return body


def seat(tokens: dict | None, player: str) -> dict:
    return {"X-Seat-Token": tokens[player]} if tokens else {}


def as_seat_and_as_referee(client, state, tokens, elsewhere: dict, in_stock: dict):
    """Each action posted with its seat's token only, then with the referee key: the seat's two
    answers (a card out of the stock, a card in it), and the referee's two."""
    seat_answers = [client.post("/v1/validate", json={"state": state, "action": a},
                                headers=seat(tokens, a["player"])) for a in (elsewhere, in_stock)]
    referee_answers = [client.post("/v1/validate", json={"state": state, "action": a},
                                   headers=REFEREE) for a in (elsewhere, in_stock)]
    return seat_answers, referee_answers


def assert_same_refusal_of_the_key(answers, named) -> None:
    # Byte for byte the same answer whether or not the card is in the stock: the status, the
    # problem's code and every other word of it; and no card named in it.
    first, second = answers
    assert first.status_code == second.status_code == 403
    assert first.get_json()["code"] == "referee_key_required"
    assert first.get_data() == second.get_data()
    assert not [card for card in named if card in first.get_data(as_text=True)]


# ------------------------------------------------------------------------ man (3.10)

MAN_HANDS = {"ann": ["H9", "C2", "SA"], "bob": ["D4", "D5", "D6"], "cho": ["C7", "C9", "CK"]}


def man_after_ace(client):
    """A physical deal (2.7): ann plays SA on S10, skipping bob; cho is on turn and may draw."""
    out = dealt(client, "man", {"players": list(MAN_HANDS), "dealer": "ann", "hands": MAN_HANDS,
                                "table": {"start_cards": ["S10"]}})
    tokens = out.get("seat_tokens")
    after = act(client, out["state"], {"type": "play", "player": "ann", "cards": ["SA"]},
                seat(tokens, "ann"))
    assert after["to_act"] == ["cho"]
    return after["state"], tokens


def test_sealed_a_seat_may_not_name_its_own_draw_from_a_physical_man_stock():
    client = client_for()
    state, tokens = man_after_ace(client)
    # H9 lies in ann's hand, DK in the stock: cho sees neither
    mine, referee = as_seat_and_as_referee(
        client, state, tokens, {"type": "draw", "player": "cho", "cards": ["H9"]},
        {"type": "draw", "player": "cho", "cards": ["DK"]})
    assert_same_refusal_of_the_key(mine, ["H9", "DK"])
    # with the referee key the draw is adjudicated as before
    refused, taken = (r.get_json() for r in referee)
    assert referee[0].status_code == 200 and refused["valid"] is False
    assert refused["error"]["code"] == "stock_card_seen"
    assert refused["error"]["details"]["where"] == "not in the stock"
    assert referee[1].status_code == 200 and taken["valid"] is True
    assert [e["type"] for e in taken["events"]][:1] == ["drew"]
    seen = client.post("/v1/view", json={"state": taken["state"], "player": "cho"},
                       headers=seat(tokens, "cho")).get_json()["view"]
    assert "DK" in seen["hands"]["cho"]


def test_sealed_the_dealer_may_not_name_its_own_flip_from_a_physical_man_stock():
    client = client_for()
    hands = {"ann": ["H9", "C4", "SK"], "bob": ["H5", "C6", "S9"]}
    out = dealt(client, "man", {"players": list(hands), "dealer": "ann", "hands": hands,
                                "table": {"start_cards": ["S2"]},
                                "options": {"start_card": "by_dealer"}})
    # H5 lies in bob's hand; D7 then H7 come off the stock (2.3: turning stops at H7)
    mine, referee = as_seat_and_as_referee(
        client, out["state"], out["seat_tokens"],
        {"type": "flip", "player": "ann", "cards": ["H5"]},
        {"type": "flip", "player": "ann", "cards": ["D7", "H7"]})
    assert_same_refusal_of_the_key(mine, ["H5", "D7", "H7"])
    assert referee[0].get_json()["error"]["details"]["where"] == "not in the stock"
    assert referee[1].get_json()["valid"] is True


def test_sealed_a_draw_naming_no_card_stays_the_seats():
    # Nothing named, nothing to learn: the seat's own draw without cards is refused by the
    # rules (3.10: the table names the card), not for want of the key.
    client = client_for()
    state, tokens = man_after_ace(client)
    resp = client.post("/v1/validate", json={"state": state, "action": {
        "type": "draw", "player": "cho"}}, headers=seat(tokens, "cho"))
    assert resp.status_code == 200
    assert resp.get_json()["error"]["code"] == "stock_cards_required"


def test_signed_only_a_seat_still_names_its_own_physical_draw():
    # With signing alone every hand is in the state the seats hold: nothing to protect.
    client = client_for("signed")
    state, _ = man_after_ace(client)
    body = act(client, state, {"type": "draw", "player": "cho", "cards": ["DK"]}, {})
    assert body["state"]["hands"]["cho"] == ["C7", "C9", "CK", "DK"]


@pytest.mark.parametrize("mode", ["sealed", "signed"])
def test_a_server_shuffled_man_deal_is_drawn_by_the_seat_with_its_token(mode):
    client = client_for(mode)
    out = client.post("/v1/games/man/deal", json={"players": ["ann", "bob", "cho"],
                                                  "options": {"start_card": "in_deal"}})
    assert out.status_code == 201
    out = out.get_json()
    tokens = out.get("seat_tokens")
    for _ in range(40):  # the first seat that may draw draws, with its own token only
        listed = [a for player in out["to_act"] for a in client.post(
            "/v1/legal-actions", json={"state": out["state"], "player": player},
            headers=seat(tokens, player)).get_json()["actions"]]
        draws = [a for a in listed if a["type"] == "draw"]
        if draws:
            body = act(client, out["state"], draws[0], seat(tokens, draws[0]["player"]))
            assert "drew" in [e["type"] for e in body["events"]]
            return
        out = act(client, out["state"], listed[0], seat(tokens, listed[0]["player"]))
    raise AssertionError("no seat could draw")


# ------------------------------------------------------------------------ manteur (B.6)

FIVE = ["SA", "HA", "DA", "CK", "S2"]
MANTEUR_PLAYERS = ["ann", "bob", "cho"]


def manteur_physical(client):
    hands = {p: list(FIVE) if p == "bob" else [] for p in MANTEUR_PLAYERS}
    out = dealt(client, "manteur", {"players": MANTEUR_PLAYERS, "hands": hands})
    return out["state"], out.get("seat_tokens")


def manteur_discards_face_down(client):
    """bob declares a pair of aces, cho accepts and exchanges CK and S2 (face down) for H3 and
    C9 (entered by the referee), declares, and ann accepts: ann may exchange."""
    state, tokens = manteur_physical(client)
    steps = [({"type": "declare", "player": "bob",
               "declaration": {"type": "pair", "ranks": ["A"]}}, "bob"),
             ({"type": "accept", "player": "cho"}, "cho"),
             ({"type": "exchange", "player": "cho", "cards": ["CK", "S2"],
               "drawn": ["H3", "C9"]}, None),
             ({"type": "declare", "player": "cho",
               "declaration": {"type": "pair", "ranks": ["A"], "kickers": ["K"]}}, "cho"),
             ({"type": "accept", "player": "ann"}, "ann")]
    for action, who in steps:
        state = act(client, state, action, REFEREE if who is None else seat(tokens, who))["state"]
    return state, tokens


def test_sealed_a_seat_may_not_name_the_cards_it_receives_from_a_physical_manteur_stock():
    client = client_for()
    state, tokens = manteur_discards_face_down(client)
    # CK lies among the face-down discards, H4 in the stock: ann sees neither
    mine, referee = as_seat_and_as_referee(
        client, state, tokens, {"type": "exchange", "player": "ann", "cards": ["H3"],
                                "drawn": ["CK"]},
        {"type": "exchange", "player": "ann", "cards": ["H3"], "drawn": ["H4"]})
    assert_same_refusal_of_the_key(mine, ["CK", "H4"])
    refused, taken = (r.get_json() for r in referee)
    assert refused["valid"] is False and refused["error"]["code"] == "stock_card_seen"
    assert refused["error"]["details"]["where"] == "not in the stock"
    assert taken["valid"] is True and [e["type"] for e in taken["events"]] == ["exchanged"]


def test_sealed_an_exchange_of_no_card_stays_the_seats():
    client = client_for()
    state, tokens = manteur_discards_face_down(client)
    body = act(client, state, {"type": "exchange", "player": "ann", "cards": []},
               seat(tokens, "ann"))
    assert [e["type"] for e in body["events"]] == ["exchanged"]


def test_sealed_a_new_physical_manteur_round_is_dealt_by_the_referee():
    # B.6 with B16: the new round's five cards come off a stock nobody has seen the order of,
    # entered as the first round's were (with the key), not by the starter.
    client = client_for()
    state, tokens = manteur_physical(client)
    state = act(client, state, {"type": "declare", "player": "bob",
                                "declaration": {"type": "pair", "ranks": ["A"]}},
                seat(tokens, "bob"))["state"]
    out = act(client, state, {"type": "challenge", "player": "cho"}, seat(tokens, "cho"))
    starter = out["to_act"][0]
    deal = {"type": "deal", "player": starter, "cards": ["H2", "H3", "H4", "H5", "H6"]}
    resp = client.post("/v1/validate", json={"state": out["state"], "action": deal},
                       headers=seat(tokens, starter))
    assert resp.status_code == 403 and resp.get_json()["code"] == "referee_key_required"
    body = act(client, out["state"], deal, REFEREE)
    assert [e["type"] for e in body["events"]] == ["dealt"]


@pytest.mark.parametrize("mode", ["sealed", "signed"])
def test_a_server_shuffled_manteur_exchange_is_the_seats(mode):
    client = client_for(mode)
    out = client.post("/v1/games/manteur/deal", json={"players": MANTEUR_PLAYERS}).get_json()
    tokens = out.get("seat_tokens")
    opener = out["to_act"][0]
    out = act(client, out["state"], {"type": "declare", "player": opener,
                                     "declaration": {"type": "high_card"}}, seat(tokens, opener))
    holder = out["to_act"][0]
    out = act(client, out["state"], {"type": "accept", "player": holder}, seat(tokens, holder))
    exchanges = [a for a in client.post(
        "/v1/legal-actions", json={"state": out["state"], "player": holder},
        headers=seat(tokens, holder)).get_json()["actions"]
        if a["type"] == "exchange" and len(a["cards"]) == 2]
    body = act(client, out["state"], exchanges[0], seat(tokens, holder))
    assert [e["type"] for e in body["events"]][-1:] == ["exchanged"]
