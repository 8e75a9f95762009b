"""The state codec: JSON round trips, and decode refusing inconsistent states with a path."""
import copy
import random

import pytest

from engine import adjudicate as adj
from engine.errors import InvalidState
from engine.games.manillen import GAME
from tests.manillen.helpers import act, new_deal, play, play_out, start


def mid_play():
    state = start({}, trump="H")
    rnd = random.Random(9)
    for _ in range(10):
        player = adj.game_by_id("manillen").to_act(GAME.decode(state))[0]
        card = rnd.choice(adj.legal_actions(state, player))["card"]
        state = act(state, "play", player, card=card).state
    return state


def broken(state, path, mutate):
    """`mutate` a copy of `state`: decode refuses it, naming exactly `path`."""
    bad = copy.deepcopy(state)
    mutate(bad)
    with pytest.raises(InvalidState) as err:
        GAME.decode(bad)
    assert err.value.path == path, (err.value.path, err.value.message)
    assert err.value.code == "state_invalid"
    with pytest.raises(InvalidState) as again:   # the front door answers the same
        adj.load_state(bad)
    assert (again.value.path, again.value.code) == (path, "state_invalid")
    return err.value


def test_round_trip_in_every_form_and_phase():
    for n in (2, 3, 4):
        state = new_deal(n, seed="rt", options={"blind_no_trump": True})
        assert GAME.encode(GAME.decode(state)) == state
        final, _, _ = play_out(start({}, n=n, trump="no_trump"), random.Random(n))
        assert GAME.encode(GAME.decode(final)) == final


def test_decode_refuses_a_duplicated_card():
    state = mid_play()
    err = broken(state, "state.hands",
                 lambda s: s["hands"]["p0"].__setitem__(0, s["hands"]["p1"][0]))
    assert "exactly once" in err.message


def test_decode_refuses_a_missing_card_and_wrong_hand_sizes():
    state = mid_play()
    assert "missing" in broken(state, "state.hands", lambda s: s["hands"]["p0"].pop()).message

    def move(s):
        s["hands"]["p1"].append(s["hands"]["p0"].pop())
    assert "must hold 6 cards" in broken(state, "state.hands.p0", move).message


def test_decode_refuses_ids_not_seated_and_wrong_types():
    state = mid_play()
    broken(state, "state.dealer", lambda s: s.__setitem__("dealer", "p9"))
    broken(state, "state.dealer", lambda s: s.__setitem__("dealer", 0))   # a seat: version 1
    broken(state, "state.dealer", lambda s: s.__setitem__("dealer", True))
    broken(state, "state.trick.leader", lambda s: s["trick"].__setitem__("leader", "p7"))
    broken(state, "state.trick.leader", lambda s: s["trick"].__setitem__("leader", 1))
    broken(state, "state.phase", lambda s: s.__setitem__("phase", "bidding"))
    broken(state, "state.hands.p0[0]", lambda s: s["hands"]["p0"].__setitem__(0, "S2"))
    broken(state, "state.hands.p2[1]", lambda s: s["hands"]["p2"].__setitem__(1, "s7"))
    broken(state, "state.options.undertrump",
           lambda s: s["options"].__setitem__("undertrump", "sometimes"))
    broken(state, "state.won", lambda s: s["won"].pop("p3"))
    broken(state, "state.won", lambda s: s["won"].__setitem__("p9", []))
    broken(state, "state.hands", lambda s: s["hands"].__setitem__("p9", []))
    broken(state, "state.won.p1", lambda s: s["won"].__setitem__("p1", {"a": 1}))
    broken(state, "state.match.scores", lambda s: s["match"]["scores"].pop("team_1_3"))
    # (a score below 0 is a referee's penalties, A41: a score that is no integer is refused)
    broken(state, "state.match.scores.team_0_2",
           lambda s: s["match"]["scores"].__setitem__("team_0_2", 1.5))
    broken(state, "state.match.carry", lambda s: s["match"].__setitem__("carry", 0))
    broken(state, "state.match.deal_number",
           lambda s: s["match"].__setitem__("deal_number", 2 ** 53))
    broken(state, "state.match.dealer", lambda s: s["match"].__setitem__("dealer", "p1"))
    broken(state, "state.multiplier", lambda s: s.__setitem__("multiplier", 2 ** 53))
    broken(state, "state.players", lambda s: s.__setitem__("players", ["p0", "p1", "p2", "p0"]))
    broken(state, "state.players", lambda s: s.__setitem__("players", ["p0"]))
    broken(state, "state.players[1]", lambda s: s["players"].__setitem__(1, ""))
    broken(state, "state.table", lambda s: s.__setitem__("table", {"p0": [[]] * 4}))
    broken(state, "state.leftover", lambda s: s.__setitem__("leftover", ["SA"]))
    broken(state, "state.doubling.calls[0]",
           lambda s: s["doubling"].__setitem__("calls", ["p0"]))
    broken(state, "state.doubling.calls[0]",
           lambda s: s["doubling"].__setitem__("calls", ["nobody"]))
    broken(state, "state.doubling.turn", lambda s: s["doubling"].__setitem__("turn", "p1"))
    broken(state, "state.trump", lambda s: s.__setitem__("trump", None))
    broken(state, "state.trump", lambda s: s.__setitem__("trump", "spades"))
    broken(state, "state.blind", lambda s: s.__setitem__("blind", True))
    broken(state, "state.thrown_in", lambda s: s.__setitem__("thrown_in", True))
    broken(state, "state.last_trick.leader",
           lambda s: s["last_trick"].__setitem__("leader", "p9"))
    broken(state, "state.last_trick.cards",
           lambda s: s["last_trick"].__setitem__("cards", s["last_trick"]["cards"][:3]))
    broken(state, "state.trick", lambda s: s.__setitem__("trick", None))
    broken(state, "state.seed", lambda s: s.pop("seed"))
    broken(state, "state.extra", lambda s: s.__setitem__("extra", 1))
    broken(state, "state.match.extra", lambda s: s["match"].__setitem__("extra", 1))


def test_two_and_three_player_layouts_are_checked():
    two = start({}, n=2, trump="H")
    broken(two, "state.table", lambda s: s.__setitem__("table", None))
    broken(two, "state.table", lambda s: s["table"].pop("p1"))
    broken(two, "state.table.p1", lambda s: s["table"]["p1"].pop())
    broken(two, "state.table.p0[2]", lambda s: s["table"]["p0"][2].append("SA"))
    three = start({}, n=3, trump="H")
    broken(three, "state.leftover", lambda s: s.__setitem__("leftover", []))
    broken(three, "state.table", lambda s: s.__setitem__("table", {}))
    broken(three, "state.match.scores", lambda s: s["match"].__setitem__(
        "scores", {"team_0_2": 0, "team_1_3": 0}))


def test_decode_refuses_edited_derived_fields():
    state = mid_play()
    broken(state, "state.multiplier", lambda s: s.__setitem__("multiplier", 8))
    broken(state, "state.status", lambda s: s.__setitem__("status", "finished"))
    final, _, _ = play_out(start({}, trump="S"), random.Random(1))
    def richer(s):
        s["next_match"]["scores"]["team_0_2"] += 50
    broken(final, "state.next_match", richer)
    broken(final, "state.next_dealer", lambda s: s.__setitem__("next_dealer", s["dealer"]))
    broken(final, "state.result", lambda s: s["result"].__setitem__("tie", not s["result"]["tie"]))
    broken(final, "state.result.sides[0].score",
           lambda s: s["result"]["sides"][0].__setitem__("score", -1))
    broken(final, "state.last_trick.winner", lambda s: s["last_trick"].__setitem__(
        "winner", next(p for p in s["players"] if p != s["last_trick"]["winner"])))


def test_decode_refuses_a_trick_led_by_the_wrong_player():
    state = play(start({}, trump="H"))
    broken(state, "state.trick.leader", lambda s: s["trick"].__setitem__("leader", "p2"))


@pytest.mark.parametrize("version", [1, 2])
def test_an_older_version_state_is_refused_as_unsupported(version):
    state = copy.deepcopy(mid_play())
    state["version"] = version
    with pytest.raises(InvalidState) as err:
        GAME.decode(state)
    assert (err.value.path, err.value.code) == ("state.version", "state_invalid")
    with pytest.raises(InvalidState) as err:
        adj.load_state(state)
    assert (err.value.path, err.value.code) == ("state.version", "state_version_unsupported")


def test_deal_refuses_bad_decks_and_matches():
    from engine.errors import InvalidDeal
    with pytest.raises(InvalidDeal):
        adj.deal("manillen", ["a", "b", "c", "d"], seed="x", deck=["S7"] * 32)
    with pytest.raises(InvalidDeal):
        adj.deal("manillen", ["a", "b", "c", "d"], seed="x", match={"scores": {"a": 3}})
    with pytest.raises(InvalidDeal):
        adj.deal("manillen", ["a", "b", "c", "d"], seed="x", match={"dealer": "zz"})
    state = adj.deal("manillen", ["a", "b", "c"], seed="x", match={"scores": {"a": 3}})["state"]
    assert state["match"]["scores"] == {"a": 3, "b": 0, "c": 0}


def test_decode_checks_options_of_the_right_type_even_after_a_good_set_was_seen():
    state = mid_play()
    GAME.decode(state)  # the good set is now remembered
    flag = next(k for k, v in state["options"].items() if v is False)  # e.g. blind_no_trump
    bad = copy.deepcopy(state)
    bad["options"][flag] = 0  # equal to False, and hashes like it, but not a boolean
    with pytest.raises(InvalidState) as err:
        GAME.decode(bad)
    assert err.value.path == f"state.options.{flag}"
