"""Who is calling: the guest token from the cookie, a Bearer header or ``?token=``."""

from __future__ import annotations

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
