"""Sealed states (CARDREF_SEAL_KEYS): AES-256-GCM, so a state leaves the service as one opaque
string that no client can read or change.

A key is 32 random bytes in URL-safe base64; several may be configured: the first seals, any
opens (rotation). A sealed string is `sealed.v2.<key id>.<base64url(nonce ‖ ciphertext+tag)>`;
the key id (first 8 hex digits of the key's SHA-256) picks the key without trying each. The
nonce is 12 random bytes per seal; the associated data binds the string to its format version
and its purpose, so a sealed match summary is never accepted as a state or the other way round.

Padding (v2): AES-GCM hides a value's bytes, not its length, and a state's length follows its
hidden cards ("10" is a byte longer than "9"). The JSON is padded before sealing to the next
multiple of PAD_BLOCK bytes: one 0x80 byte, then zeros (ISO/IEC 7816-4), so unpadding is
unambiguous (strip the zeros, then the one 0x80). A hidden difference of a few bytes then shows
only when it crosses a block boundary (about one state in PAD_BLOCK per byte of difference);
a bigger block shows it less often and costs more on every answer (half a block on average):
512 bytes is a third of a typical state. `sealed.v1.` strings (unpadded, made before) still
open while their key is configured.
"""
from __future__ import annotations

import base64
import binascii
import hashlib
import os
from typing import Any, Sequence

import orjson
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

PREFIX = "sealed.v2."
LEGACY_PREFIX = "sealed.v1."  # unpadded; opened, never made
PAD_BLOCK = 512
_V2 = b"sealed.v2\x00"  # prefixed to the purpose: the associated data of a v2 seal


def _pad(body: bytes) -> bytes:
    size = -(-(len(body) + 1) // PAD_BLOCK) * PAD_BLOCK
    return body + b"\x80" + bytes(size - len(body) - 1)


def _unpad(padded: bytes) -> bytes:
    body = padded.rstrip(b"\x00")
    if not body.endswith(b"\x80"):
        raise ValueError("bad padding")
    return body[:-1]


class SealError(Exception):
    pass


def parse_key(text: str) -> bytes:
    try:
        key = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise ValueError("a seal key is URL-safe base64") from None
    if len(key) != 32:
        raise ValueError(f"a seal key is 32 bytes (AES-256), not {len(key)}")
    return key


def new_key() -> str:
    """A fresh key in the form CARDREF_SEAL_KEYS takes."""
    return base64.urlsafe_b64encode(os.urandom(32)).decode().rstrip("=")


def _key_id(key: bytes) -> str:
    return hashlib.sha256(key).hexdigest()[:8]


class Sealer:
    def __init__(self, keys: Sequence[bytes]):
        self._keys = [(_key_id(k), AESGCM(k), k) for k in keys]
        self._by_id = {kid: aead for kid, aead, _ in self._keys}

    @property
    def enabled(self) -> bool:
        return bool(self._keys)

    def seal(self, value: Any, purpose: bytes) -> str:
        kid, aead, _ = self._keys[0]
        nonce = os.urandom(12)
        body = aead.encrypt(nonce, _pad(orjson.dumps(value)), _V2 + purpose)
        return f"{PREFIX}{kid}.{base64.urlsafe_b64encode(nonce + body).decode().rstrip('=')}"

    def open(self, text: Any, purpose: bytes) -> Any:
        if not isinstance(text, str):
            raise SealError("not a sealed value of this service")
        if text.startswith(PREFIX):
            rest, padded = text[len(PREFIX):], True
        elif text.startswith(LEGACY_PREFIX):
            rest, padded = text[len(LEGACY_PREFIX):], False
        else:
            raise SealError("not a sealed value of this service")
        kid, _, payload = rest.partition(".")
        aead = self._by_id.get(kid)
        if aead is None:
            raise SealError("sealed with a key this service does not hold")
        try:
            raw = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
            if padded:
                return orjson.loads(_unpad(aead.decrypt(raw[:12], raw[12:], _V2 + purpose)))
            return orjson.loads(aead.decrypt(raw[:12], raw[12:], purpose))
        except (binascii.Error, ValueError, InvalidTag, orjson.JSONDecodeError):
            raise SealError("the sealed value was changed or is not ours") from None
