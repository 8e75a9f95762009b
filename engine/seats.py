"""Seat ids as people read them: two ids that look alike are the same seat to a reader.

`seat_key` is the form two seat ids are compared in (docs/integrating.md "Player ids"): NFKC
(full-width and half-width forms, ligatures), case folded, default-ignorable characters removed
(zero-width spaces and joiners, bidi controls, soft hyphens, variation selectors, Hangul fillers),
and the Cyrillic and Greek letters that look like Latin ones written as those (a small skeleton
after Unicode TR39's confusables, for the letters seat ids are made of). A deal refuses two seats
with one key, and a seat whose key is one of the game's team ids (its score sheet's columns).
"""
from __future__ import annotations

import unicodedata

# Cyrillic and Greek letters (lower case: the key is case folded first) that a reader takes for
# a Latin letter; after TR39 confusables.txt, upper-case look-alikes through their lower case.
_LOOKALIKES = str.maketrans({
    # Cyrillic
    "а": "a", "в": "b", "с": "c", "ԁ": "d", "е": "e", "ё": "e", "һ": "h", "н": "h", "і": "i",
    "ї": "i", "ј": "j", "к": "k", "ӏ": "l", "м": "m", "о": "o", "р": "p", "ԛ": "q", "ѕ": "s",
    "т": "t", "у": "y", "ү": "y", "х": "x", "ԝ": "w", "ʏ": "y", "ɡ": "g",
    # Greek
    "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p",
    "τ": "t", "υ": "u", "χ": "x", "ζ": "z",
})

# Default-ignorable code points outside category Cf (which is dropped whole): combining grapheme
# joiner, Mongolian free variation selectors, Hangul fillers, variation selectors.
_IGNORABLE = {0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x3164, 0xFFA0,
              *range(0x180B, 0x1810), *range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)}


def _ignorable(ch: str) -> bool:
    return unicodedata.category(ch) == "Cf" or ord(ch) in _IGNORABLE


def seat_key(seat: str) -> str:
    """The form in which two seat ids that look alike are equal (`ann`, `Ann`, Cyrillic `аnn`,
    `a\u200bnn`, full-width `ａｎｎ` share one)."""
    text = unicodedata.normalize("NFKC", seat).casefold()
    text = "".join(ch for ch in text if not _ignorable(ch))
    return unicodedata.normalize("NFKC", text.translate(_LOOKALIKES))
