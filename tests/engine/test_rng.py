from collections import Counter

from engine import cards, rng

# Pinned: the exact order this seed deals. If this test fails, every recorded tournament deal
# would change; bump the algorithm's domain string (v1 -> v2) deliberately instead.
PINNED_SEED = "card-referee-pinned-seed"


def test_shuffle_is_a_permutation():
    deck = cards.deck_52()
    out = rng.shuffled(deck, "abc", "deal")
    assert Counter(out) == Counter(deck) and out != deck


def test_same_seed_and_label_same_order_different_label_differs():
    deck = cards.deck_52()
    assert rng.shuffled(deck, "s", "deal") == rng.shuffled(deck, "s", "deal")
    assert rng.shuffled(deck, "s", "deal") != rng.shuffled(deck, "s", "reshuffle/1")
    assert rng.shuffled(deck, "s", "deal") != rng.shuffled(deck, "t", "deal")


def test_pinned_deal_of_one_seed():
    assert rng.shuffled(cards.deck_52(), PINNED_SEED, "deal") == [
        "D2", "C6", "CQ", "S5", "D4", "D8", "SJ", "SQ", "DA", "DQ", "S8", "CK", "S7",
        "HA", "S3", "C10", "HJ", "HK", "SK", "C3", "C4", "D6", "C2", "HQ", "H2", "H10",
        "S4", "H3", "H8", "H4", "H7", "C5", "D5", "H5", "DK", "C8", "H9", "CA", "C7",
        "C9", "D10", "S2", "CJ", "S6", "D7", "D9", "D3", "SA", "H6", "S10", "DJ", "S9",
    ]


def test_two_deck_multiset_shuffle_keeps_duplicates():
    deck = cards.double_deck_108()
    assert Counter(rng.shuffled(deck, "x", "deal")) == Counter(deck)


def test_shuffle_is_roughly_uniform_on_small_input():
    # 3 items: 6 orders; 6,000 seeds should put each within a loose band of 1,000.
    counts = Counter(tuple(rng.shuffled("abc", str(i), "deal")) for i in range(6000))
    assert len(counts) == 6 and all(800 < n < 1200 for n in counts.values())


def test_an_unsalted_commitment_is_sha256_of_the_seed():
    # what deals published before commitments were salted; verify-seed without --salt
    assert rng.commitment("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    assert rng.commitment("abc", "") == rng.commitment("abc")


def test_a_salted_commitment_is_pinned_and_hides_a_guessable_seed():
    import hashlib
    salt = "00112233445566778899aabbccddeeff"
    # pinned: tournaments check commitments by hand, so the encoding never changes silently
    assert rng.commitment("readme", salt) == hashlib.sha256(
        b"card-referee/commitment/v2\x00" + salt.encode() + b"\x00readme").hexdigest()
    assert rng.commitment("readme", salt) != hashlib.sha256(b"readme").hexdigest()
    assert rng.commitment("readme", salt) != rng.commitment("readme", rng.new_salt())
    assert rng.valid_salt(rng.new_salt()) and not rng.valid_salt("readme")
