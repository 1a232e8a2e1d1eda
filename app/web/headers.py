"""Headers on every HTTP answer: nothing is MIME-sniffed, and pages load only this site's
scripts and cannot be framed by another site."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

PAGE_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",  # the pages' ES modules only: no inline script anywhere
        "style-src 'self' 'unsafe-inline'",  # renderers set style attributes (balance.js)
        "img-src 'self' data:",  # the favicon is a data: URL (templates/base.html)
        "connect-src 'self'",  # the JSON API and the room socket (ws / wss to this host)
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'self'",
    )
)


NOSNIFF = (b"x-content-type-options", b"nosniff")
PAGE_HEADERS = (
    (b"content-security-policy", PAGE_POLICY.encode()),
    (b"x-frame-options", b"SAMEORIGIN"),
)


class SecurityHeaders:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_headed(message: Message) -> None:
            if message["type"] == "http.response.start":
                # the raw list, not MutableHeaders: this runs on every answer of the API
                headers = message["headers"] = list(message.get("headers", ()))
                headers.append(NOSNIFF)
                if any(k == b"content-type" and v.startswith(b"text/html") for k, v in headers):
                    headers.extend(PAGE_HEADERS)
            await send(message)

        await self.app(scope, receive, send_headed)
