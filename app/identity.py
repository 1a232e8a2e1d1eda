"""Who is calling: the guest token from the cookie, a Bearer header or ``?token=``."""

from __future__ import annotations

import logging
import re
from urllib.parse import urlsplit

from starlette.requests import HTTPConnection

COOKIE_NAME = "cardroom_token"


def token_of(connection: HTTPConnection, *, allow_query: bool = False) -> str | None:
    header = connection.headers.get("authorization", "")
    scheme, _, credentials = header.partition(" ")
    if scheme.lower() == "bearer" and credentials.strip():
        return credentials.strip()
    cookie = connection.cookies.get(COOKIE_NAME)
    if cookie:
        return cookie
    if allow_query:
        return connection.query_params.get("token") or None
    return None


def same_origin(connection: HTTPConnection, allowed: list[str]) -> bool:
    """Browsers always send ``Origin`` on a WebSocket upgrade; scripts may leave it out."""
    origin = connection.headers.get("origin")
    if origin is None:
        return True
    if origin in allowed:
        return True
    return urlsplit(origin).netloc.lower() == connection.headers.get("host", "").lower()


QUERY_TOKEN = re.compile(r"(?<=[?&]token=)[^&\s\"]+")


class RedactQueryTokens(logging.Filter):
    """uvicorn logs a socket's path with its query string: a script's ``?token=`` stays out of
    the log (browsers send the cookie instead)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(
                QUERY_TOKEN.sub("[redacted]", arg) if isinstance(arg, str) else arg
                for arg in record.args
            )
        return True


REDACT_QUERY_TOKENS = RedactQueryTokens()
