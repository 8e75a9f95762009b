"""The seeded shuffle: the same seed deals the same cards on every machine and every version.

Algorithm (documented because tournaments verify deals by hand; changing it changes every deal,
and tests/engine/test_rng.py pins one seed's exact deal to catch that):

1. A *stream* is named by the seed (any string) and a label (e.g. "deal/0", "reshuffle/3"), so
   every shuffle of one game draws from its own stream and no state needs to store raw RNG bytes.
2. Block k of the stream is SHA-256 of the UTF-8 bytes of
   "card-referee/shuffle/v1" NUL seed NUL label NUL decimal(k); each block yields four unsigned
   64-bit big-endian integers, consumed in order.
3. A uniform integer in [0, n) takes the next 64-bit word w and rejects it while
   w >= 2**64 - (2**64 mod n) (so there is no modulo bias), then answers w mod n.
4. The shuffle is Fisher–Yates from the end: for i = len-1 down to 1, j = uniform(i + 1), swap
   positions i and j.

The seed commitment (`commitment`) is salted: the salt is part of neither the shuffle nor the
deal, only of what is published before play.
"""
from __future__ import annotations

import hashlib
import secrets
from typing import Iterator, Sequence, TypeVar

T = TypeVar("T")

_DOMAIN = b"card-referee/shuffle/v1"
_TWO_64 = 1 << 64


def _words(seed: str, label: str) -> Iterator[int]:
    prefix = _DOMAIN + b"\x00" + seed.encode() + b"\x00" + label.encode() + b"\x00"
    block = 0
    while True:
        digest = hashlib.sha256(prefix + str(block).encode()).digest()
        for offset in range(0, 32, 8):
            yield int.from_bytes(digest[offset:offset + 8], "big")
        block += 1


def _uniform(words: Iterator[int], n: int) -> int:
    limit = _TWO_64 - (_TWO_64 % n)
    while True:
        w = next(words)
        if w < limit:
            return w % n


def shuffled(items: Sequence[T], seed: str, label: str) -> list[T]:
    """A new list: `items` shuffled by the stream (seed, label)."""
    out = list(items)
    words = _words(seed, label)
    for i in range(len(out) - 1, 0, -1):
        j = _uniform(words, i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def new_seed() -> str:
    """A fresh seed for a deal the client did not seed (128 bits, hex)."""
    return secrets.token_hex(16)


def deck_seed(deck: Sequence[str]) -> str:
    """The seed of a deal from an explicit deck given none: derived from the deck's order, so
    the deal's later shuffles (Man's 3.9, Manteur's B16 and B18) replay the same without a
    seed. Such a deal's random decisions come from its `table`, never from this seed."""
    return "deck:" + hashlib.sha256(" ".join(deck).encode()).hexdigest()[:32]


def new_salt() -> str:
    """A fresh commitment salt (128 bits, hex), made at every deal."""
    return secrets.token_hex(16)


SALT_LENGTH = 32  # hex digits
_COMMITMENT = b"card-referee/commitment/v2"


def valid_salt(salt: str) -> bool:
    return (isinstance(salt, str) and len(salt) == SALT_LENGTH
            and all(c in "0123456789abcdef" for c in salt))


def commitment(seed: str, salt: str | None = None) -> str:
    """What a deal publishes before play (hex); seed and salt are revealed when it ends, to verify.

    Salted (every deal now): SHA-256 of the UTF-8 bytes of
    "card-referee/commitment/v2" NUL salt NUL seed, the salt 32 lowercase hex digits drawn at
    the deal, so a guessable seed (a referee's "readme") cannot be found from the commitment.
    Unsalted (salt None or "", deals made before salting): the bare SHA-256 of the seed."""
    if not salt:
        return hashlib.sha256(seed.encode()).hexdigest()
    return hashlib.sha256(_COMMITMENT + b"\x00" + salt.encode() + b"\x00" + seed.encode()
                          ).hexdigest()
