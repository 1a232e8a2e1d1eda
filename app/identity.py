"""Who is calling: the guest token from the cookie, a Bearer header or ``?token=``, and from
which site's page."""

from __future__ import annotations

import logging
from urllib.parse import unquote_plus, urlsplit

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


# A session's device in words, from its User-Agent: only these words are ever stored (the
# header itself is not), first match wins.
BROWSERS = (
    ("Edg/", "Edge"),
    ("OPR/", "Opera"),
    ("Firefox/", "Firefox"),
    ("Chrome/", "Chrome"),
    ("Chromium/", "Chromium"),
    ("Safari/", "Safari"),
)
SYSTEMS = (
    ("iPhone", "iPhone"),
    ("iPad", "iPad"),
    ("Android", "Android"),
    ("Windows", "Windows"),
    ("CrOS", "ChromeOS"),
    ("Mac OS X", "macOS"),
    ("Linux", "Linux"),
)


def device_label(connection: HTTPConnection) -> str:
    """``"Firefox on Android"``, ``"Chrome"``, ``"A program"``: which device a session is."""
    agent = connection.headers.get("user-agent", "")
    browser = next((name for mark, name in BROWSERS if mark in agent), None)
    system = next((name for mark, name in SYSTEMS if mark in agent), None)
    if browser and system:
        return f"{browser} on {system}"
    return browser or (f"A browser on {system}" if system else "A program")


# an origin as browsers compare them: (http|https, host in lower case, port)
Origin = tuple[str, str, int]
WEB_SCHEMES = {"http": "http", "https": "https", "ws": "http", "wss": "https"}
DEFAULT_PORTS = {"http": 80, "https": 443}


def parse_origin(url: str) -> Origin | None:
    """The origin of ``url``, the default port filled in; a socket's ws / wss count as http /
    https. ``None`` for anything else (``null``, a malformed port)."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    scheme = WEB_SCHEMES.get(parts.scheme)
    if scheme is None or not parts.hostname:
        return None
    return scheme, parts.hostname, port or DEFAULT_PORTS[scheme]


def same_origin(connection: HTTPConnection, allowed: list[str]) -> bool:
    """Whether the browser's page that sent the request is this site's (its scheme, as the
    proxy told uvicorn, its Host) or one of ``allowed``: by the ``Origin`` header, else the
    ``Referer``. Browsers send ``Origin`` on every socket upgrade and unsafe request; a script
    may send neither, and is let through."""
    claimed = connection.headers.get("origin") or connection.headers.get("referer")
    if claimed is None:
        return True
    origin = parse_origin(claimed)
    if origin is None:
        return False
    own = parse_origin(f"{connection.scope['scheme']}://{connection.headers.get('host', '')}")
    return origin == own or origin in {parse_origin(url) for url in allowed}


def redact_query_tokens(text: str) -> str:
    """``text`` with the value of every query parameter whose name, once decoded as the app
    decodes it (``%65`` is ``e``, ``+`` a space), is ``token`` (in any case) replaced by
    ``[redacted]``: a socket's ``?tok%65n=`` authenticates as ``?token=`` does."""
    if "?" not in text:
        return text
    head, _, query = text.partition("?")
    pairs = query.split("&")
    for index, pair in enumerate(pairs):
        name, equals, _ = pair.partition("=")
        if equals and unquote_plus(name).strip().lower() == "token":
            pairs[index] = f"{name}=[redacted]"
    return f"{head}?{'&'.join(pairs)}"


class RedactQueryTokens(logging.Filter):
    """uvicorn logs a socket's path with its query string: a script's ``?token=`` stays out of
    the log (browsers send the cookie instead), however its name is spelled."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(
                redact_query_tokens(arg) if isinstance(arg, str) else arg for arg in record.args
            )
        return True


REDACT_QUERY_TOKENS = RedactQueryTokens()
