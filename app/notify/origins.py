"""The push services a subscription may name: the server sends to no other address, so a
client cannot make it request an address of its choosing."""

from __future__ import annotations

import re
from collections.abc import Iterable
from urllib.parse import urlsplit

DEFAULT_PUSH_ORIGINS = [
    "https://fcm.googleapis.com",  # Chrome (Firebase Cloud Messaging)
    "https://updates.push.services.mozilla.com",  # Firefox (autopush)
    "https://*.notify.windows.com",  # Edge (Windows Push Notification Services: wns2-xxx)
    "https://web.push.apple.com",  # Safari
]
DEFAULT_PORTS = {"http": 80, "https": 443}
LABEL = "[a-z0-9-]+"  # what a * stands for: part of one name in the host, never a dot


def origin_of(url: str) -> tuple[str, str, int] | None:
    """``(scheme, host, port)`` of an http(s) URL without user info, else None."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname or "@" in parts.netloc:
        return None
    return parts.scheme, parts.hostname, port or DEFAULT_PORTS[parts.scheme]


def check_origin(pattern: str) -> str:
    """``pattern`` if it is an origin (``scheme://host[:port]``, ``*`` in the host for part
    of a name), else ValueError."""
    if origin_of(pattern.replace("*", "x")) is None or urlsplit(pattern).path not in ("", "/"):
        raise ValueError(f"{pattern!r} is not an origin like https://push.example.com")
    return pattern.rstrip("/")


Origin = tuple[str, re.Pattern[str], int]


def _compiled(pattern: str) -> Origin:
    found = origin_of(check_origin(pattern).replace("*", "x"))
    assert found is not None  # check_origin made sure
    host = urlsplit(pattern).hostname or ""
    return found[0], re.compile(re.escape(host).replace(r"\*", LABEL), re.IGNORECASE), found[2]


class PushOrigins:
    def __init__(self, patterns: Iterable[str]) -> None:
        self._origins = [_compiled(pattern) for pattern in patterns]

    def allows(self, endpoint: str) -> bool:
        found = origin_of(endpoint)
        if found is None:
            return False
        scheme, host, port = found
        return any(
            scheme == s and port == p and shape.fullmatch(host) for s, shape, p in self._origins
        )
