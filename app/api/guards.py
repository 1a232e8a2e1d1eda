"""ASGI guards in front of the routes (plain HTTP only; room sockets never pass here)."""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.requests import HTTPConnection
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.api.errors import error_response
from app.identity import same_origin

SAFE_METHODS = frozenset(("GET", "HEAD", "OPTIONS"))


def header(scope: Scope, name: bytes) -> str | None:
    """The first ``name`` header of the request (``name`` in lower case), if any."""
    for key, value in scope["headers"]:
        if key == name:
            return value.decode("latin-1")
    return None


class LimitBodies:
    """A request body over ``max_bytes`` answers 413 ``too_large``: at once when its
    Content-Length says so, else as soon as the bytes received pass the limit, counted as they
    arrive (a chunked body has no length), so a body is never held whole to be refused."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = header(scope, b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
            await error_response(413, "too_large", self.message)(scope, receive, send)
            return
        received = 0

        async def counted() -> Message:
            nonlocal received
            message = await receive()
            received += len(message.get("body", b""))
            if received > self.max_bytes:
                # FastAPI lets an HTTPException out of its body parsing: the handler answers
                raise HTTPException(413, self.message)
            return message

        await self.app(scope, counted, send)

    @property
    def message(self) -> str:
        return f"A request body holds at most {self.max_bytes} bytes."


class RefuseCrossSite:
    """An unsafe request (any method but GET, HEAD and OPTIONS) sent by another site's page
    answers 403 ``forbidden_origin``; one with a body must say it is JSON, else 415
    ``unsupported_media_type``. A form or a ``text/plain`` fetch needs no CORS preflight, so
    without these checks another site's page could act with a visitor's cookie."""

    def __init__(
        self, app: ASGIApp, allowed_origins: list[str], open_paths: tuple[str, ...] = ()
    ) -> None:
        self.app = app
        self.allowed_origins = allowed_origins
        # paths a signed token in the address authorizes, never a cookie, so another site's
        # post can do no harm there: a mail program's one-click unsubscribe posts a form
        self.open_paths = open_paths

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        guarded = scope["type"] == "http" and scope["path"] not in self.open_paths
        if guarded and scope["method"] not in SAFE_METHODS:
            refusal = self.refusal(scope)
            if refusal is not None:
                await refusal(scope, receive, send)
                return
        await self.app(scope, receive, send)

    def refusal(self, scope: Scope) -> Response | None:
        if not same_origin(HTTPConnection(scope), self.allowed_origins):
            return error_response(403, "forbidden_origin", "This request comes from another site.")
        if has_body(scope) and not is_json(header(scope, b"content-type")):
            return error_response(
                415, "unsupported_media_type", "A request body is JSON (application/json)."
            )
        return None


def has_body(scope: Scope) -> bool:
    length = header(scope, b"content-length")
    chunked = header(scope, b"transfer-encoding") is not None
    return chunked or (length is not None and length.strip() != "0")


def is_json(content_type: str | None) -> bool:
    return (content_type or "").partition(";")[0].strip().lower() == "application/json"
