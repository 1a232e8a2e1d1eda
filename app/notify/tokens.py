"""Signed links in mail (verify an address, unsubscribe): the parts a link names and an HMAC of
them under the deployment's key, so a link works without a sign-in and cannot be forged."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

KEY_NAME = "mail_links"
LONGEST = 200  # no link the server makes is longer; anything longer is not one


def new_key() -> str:
    return secrets.token_urlsafe(32)


class LinkSigner:
    def __init__(self, key: str) -> None:
        self._key = key.encode()

    def _mac(self, purpose: str, body: str) -> str:
        digest = hmac.new(self._key, f"{purpose}:{body}".encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()

    def sign(self, purpose: str, *parts: str | int) -> str:
        body = ".".join(str(part) for part in parts)
        return f"{body}.{self._mac(purpose, body)}"

    def check(self, purpose: str, token: str) -> list[str] | None:
        """The parts ``token`` signs for ``purpose``, or None if it does not."""
        body, _, mac = token[:LONGEST].rpartition(".")
        if len(token) > LONGEST or not body:
            return None
        if not hmac.compare_digest(mac.encode(), self._mac(purpose, body).encode()):
            return None
        return body.split(".")
