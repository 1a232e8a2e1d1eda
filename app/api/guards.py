"""ASGI guards in front of the routes (plain HTTP only; room sockets never pass here)."""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.api.errors import error_response


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
