"""The state codec: JSON round trips, and decode refusing inconsistent states with a path."""
import copy
import random

import pytest

from engine import adjudicate as adj
from engine.game import InvalidState
from engine.manillen import GAME
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
    bad = copy.deepcopy(state)
    mutate(bad)
    with pytest.raises(InvalidState) as err:
        GAME.decode(bad)
    assert err.value.path.startswith(path), (err.value.path, err.value.message)
    return err.value


def test_round_trip_in_every_form_and_phase():
    for n in (2, 3, 4):
        state = new_deal(n, seed="rt", options={"blind_no_trump": True})
        assert GAME.encode(GAME.decode(state)) == state
        final, _, _ = play_out(start({}, n=n, trump="no_trump"), random.Random(n))
        assert GAME.encode(GAME.decode(final)) == final


def test_decode_refuses_a_duplicated_card():
    state = mid_play()
    err = broken(state, "state.hands", lambda s: s["hands"][0].__setitem__(0, s["hands"][1][0]))
    assert "exactly once" in err.message


def test_decode_refuses_a_missing_card_and_wrong_hand_sizes():
    state = mid_play()
    broken(state, "state.hands", lambda s: s["hands"][0].pop())
    def move(s):
        s["hands"][1].append(s["hands"][0].pop())
    broken(state, "state.hands", move)


def test_decode_refuses_indexes_out_of_range_and_wrong_types():
    state = mid_play()
    broken(state, "state.dealer", lambda s: s.__setitem__("dealer", 4))
    broken(state, "state.dealer", lambda s: s.__setitem__("dealer", True))
    broken(state, "state.trick.leader", lambda s: s["trick"].__setitem__("leader", 7))
    broken(state, "state.phase", lambda s: s.__setitem__("phase", "bidding"))
    broken(state, "state.hands[0][0]", lambda s: s["hands"][0].__setitem__(0, "S2"))
    broken(state, "state.options.undertrump",
           lambda s: s["options"].__setitem__("undertrump", "sometimes"))
    broken(state, "state.won", lambda s: s.__setitem__("won", s["won"][:3]))


def test_decode_refuses_edited_derived_fields():
    state = mid_play()
    broken(state, "state.multiplier", lambda s: s.__setitem__("multiplier", 8))
    broken(state, "state.status", lambda s: s.__setitem__("status", "finished"))
    final, _, _ = play_out(start({}, trump="S"), random.Random(1))
    def richer(s):
        s["next_match"]["scores"]["team_0_2"] += 50
    broken(final, "state.next_match", richer)
    broken(final, "state.last_trick.winner",
           lambda s: s["last_trick"].__setitem__("winner", (s["last_trick"]["winner"] + 1) % 4))


def test_decode_refuses_a_trick_led_by_the_wrong_player():
    state = play(start({}, trump="H"))
    broken(state, "state.trick.leader", lambda s: s["trick"].__setitem__("leader", 2))


def test_deal_refuses_bad_decks_and_matches():
    from engine.game import InvalidDeal
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
