"""Sealed states (CARDREF_SEAL_KEYS): AES-256-GCM, so a state leaves the service as one opaque
string that no client can read or change.

A key is 32 random bytes in URL-safe base64; several may be configured: the first seals, any
opens (rotation). A sealed string is `sealed.v1.<key id>.<base64url(nonce ‖ ciphertext+tag)>`;
the key id (first 8 hex digits of the key's SHA-256) picks the key without trying each. The
nonce is 12 random bytes per seal; the associated data binds the string to its purpose, so a
sealed match summary is never accepted as a state or the other way round.
"""
from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import os
from typing import Any, Sequence

import orjson
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

PREFIX = "sealed.v1."


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
        body = aead.encrypt(nonce, orjson.dumps(value), purpose)
        return f"{PREFIX}{kid}.{base64.urlsafe_b64encode(nonce + body).decode().rstrip('=')}"

    def open(self, text: Any, purpose: bytes) -> Any:
        if not isinstance(text, str) or not text.startswith(PREFIX):
            raise SealError("not a sealed value of this service")
        kid, _, payload = text[len(PREFIX):].partition(".")
        aead = self._by_id.get(kid)
        if aead is None:
            raise SealError("sealed with a key this service does not hold")
        try:
            raw = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
            return orjson.loads(aead.decrypt(raw[:12], raw[12:], purpose))
        except (binascii.Error, ValueError, InvalidTag, orjson.JSONDecodeError):
            raise SealError("the sealed value was changed or is not ours") from None

    def mac(self, message: bytes) -> str:
        """A short HMAC under the first key (seat tokens)."""
        return hmac.new(self._keys[0][2], message, hashlib.sha256).hexdigest()[:32]

    def mac_matches(self, message: bytes, given: Any) -> bool:
        if not isinstance(given, str) or not given.isascii():
            return False
        return any(hmac.compare_digest(
            hmac.new(k, message, hashlib.sha256).hexdigest()[:32].encode(), given.encode())
            for _, _, k in self._keys)
