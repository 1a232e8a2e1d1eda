"""Web Push: the deployment's VAPID key (RFC 8292), and the ``push`` jobs' handler, which
encrypts a notice to one browser's subscription (RFC 8291, ``aes128gcm``) and posts it to its
push service with an async HTTP client (the event loop never waits on the network).

A subscription answered 404 or 410 is gone and dropped; a push service that is busy (429, 5xx)
or out of reach fails the job, tried again after its lease; the ``Topic`` header comes from
the notice's key, so a notice sent again replaces the first at the push service.
"""

from __future__ import annotations

import base64
import hashlib
import json
import logging
import os
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import http_ece
import httpx
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from py_vapid import Vapid02
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.jobs import Job
from app.db.notifications import Subscription, drop_subscription, subscription
from app.notify.origins import PushOrigins
from app.notify.words import details, headline, room_path
from app.rooms.ports import TurnNotice

log = logging.getLogger(__name__)

KEY_NAME = "vapid"
TTL_LEAST = timedelta(minutes=1)
TTL_MOST = timedelta(days=1)  # a notice of no deadline is worth nothing after a day
SIGNED_FOR = timedelta(hours=12)  # a VAPID token's life (RFC 8292: at most 24 hours)
GONE = (404, 410)


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def new_key() -> str:
    """A new VAPID private key: its P-256 scalar, base64url."""
    scalar = ec.generate_private_key(ec.SECP256R1()).private_numbers().private_value
    return b64url(scalar.to_bytes(32, "big"))


def load_key(text: str) -> Vapid02:
    """A VAPID key from its base64url scalar (what :func:`new_key` makes, and ``vapid
    --gen``'s raw form) or base64url DER; ValueError if it is neither."""
    try:
        return Vapid02.from_string(text.strip())
    except Exception as error:  # py_vapid raises what its parsers raise
        raise ValueError("not a VAPID private key (base64url P-256 scalar or DER)") from error


def public_key(vapid: Vapid02) -> str:
    """The application server key browsers subscribe with: the uncompressed point."""
    point = vapid.public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    return b64url(point)


def is_client_key(p256dh: str) -> bool:
    """Whether ``p256dh`` is a P-256 public point (uncompressed), as a browser sends."""
    try:
        point = b64url_decode(p256dh)
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        return False
    return len(point) == 65


def is_auth_secret(auth: str) -> bool:
    try:
        return len(b64url_decode(auth)) == 16
    except ValueError:
        return False


def topic(notice: TurnNotice) -> str:
    """RFC 8030's Topic: at most 32 base64url characters, the same for the same notice."""
    return b64url(hashlib.sha256(notice.key.encode()).digest())[:32]


def message(notice: TurnNotice) -> dict[str, Any]:
    """What the service worker shows (``static/sw.js``): public facts of the match only."""
    return {
        "title": headline(notice),
        "body": details(notice),
        "url": room_path(notice),
        "tag": f"turn:{notice.match_id}",
        "kind": notice.kind,
        "game": notice.game,
        "room_id": notice.room_id,
        "match_id": notice.match_id,
        "deadline": notice.deadline.isoformat() if notice.deadline else None,
    }


def encrypt(content: bytes, to: Subscription) -> bytes:
    return http_ece.encrypt(
        content,
        salt=os.urandom(16),
        private_key=ec.generate_private_key(ec.SECP256R1()),  # a new one for every message
        dh=b64url_decode(to.p256dh),
        auth_secret=b64url_decode(to.auth),
        version="aes128gcm",
    )


class PushFailed(Exception):
    """The push service could not take the message now: the job is tried again."""


class Pusher:
    def __init__(
        self,
        db: AsyncEngine,
        now: Callable[[], datetime],
        origins: PushOrigins,
        vapid: Vapid02,
        subject: str,
        client: httpx.AsyncClient,
    ) -> None:
        self.db, self.now, self.origins = db, now, origins
        self.vapid, self.subject, self.client = vapid, subject, client

    def ttl(self, notice: TurnNotice) -> int:
        left = notice.deadline - self.now() if notice.deadline else TTL_MOST
        return int(min(max(left, TTL_LEAST), TTL_MOST).total_seconds())

    def authorization(self, endpoint: str) -> str:
        scheme, _, rest = endpoint.partition("://")
        claims = {
            "aud": f"{scheme}://{rest.split('/', 1)[0]}",
            "sub": self.subject,
            "exp": int((self.now() + SIGNED_FOR).timestamp()),
        }
        return self.vapid.sign(claims)["Authorization"]

    async def send(self, job: Job) -> None:
        """The ``push`` job: one notice to one subscription."""
        notice = TurnNotice.from_json(job.payload["notice"])
        to = await subscription(self.db, job.payload["subscription_id"])
        if to is None or to.player_id != notice.player_id:
            return  # unsubscribed since, or the browser belongs to another player now
        if not self.origins.allows(to.endpoint):
            log.warning("push subscription %s names no known push service: not sent", to.id)
            return
        body = encrypt(json.dumps(message(notice)).encode(), to)
        headers = {
            "Authorization": self.authorization(to.endpoint),
            "Content-Encoding": "aes128gcm",
            "Content-Type": "application/octet-stream",
            "TTL": str(self.ttl(notice)),
            "Topic": topic(notice),
            "Urgency": "normal",
        }
        try:
            answer = await self.client.post(to.endpoint, content=body, headers=headers)
        except httpx.HTTPError as error:
            raise PushFailed(f"push service out of reach: {error}") from error
        if answer.status_code in GONE:
            await drop_subscription(self.db, to.id)
        elif answer.status_code == 429 or answer.status_code >= 500:
            raise PushFailed(f"push service answered {answer.status_code}")
        elif answer.status_code >= 400:
            log.warning("push service refused a message (%s): not sent", answer.status_code)
