"""What ``python -m app`` serves with: uvicorn's own protocols, with the limits a server
exposed without the proxy needs (uvicorn has none of them).

- :class:`HttpProtocol` (uvicorn's httptools protocol): a request's head, its line and headers,
  must fit in ``CARDROOM_MAX_HEADER_BYTES`` (else ``431`` and the connection closes) and arrive
  within ``CARDROOM_HEADER_TIMEOUT_SECONDS`` of the connection or of the request's first byte
  (else the connection closes; one that says nothing at all too). httptools keeps a header
  it has not seen the end of in memory however long it grows, and uvicorn's keep-alive timer
  runs only between requests.
- :class:`WebSocketProtocol` (uvicorn's websockets protocol): the protocol's pings and pongs
  count in the socket's rate limit, the endpoint's own bucket of messages, handed over in the
  scope (``CARDROOM_MESSAGES_PER_SECOND``, ``CARDROOM_MESSAGE_BURST``), and
  ``CARDROOM_MESSAGE_OVERFLOW`` past it the socket is closed with 4029 (the endpoint does the
  same for messages). What a read brought (up to 256 KB: tens of thousands of tiny frames) is
  parsed 4 KB at a time, the next slice only once the endpoint took the last one's messages,
  and nothing before the endpoint's accept; a socket closed for flooding is never parsed
  again. So a flood is cut off after a few KB of it.

Both are plain subclasses: other servers (uvicorn's command line, gunicorn, hypercorn) serve
the same app without them.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.config import Config
from uvicorn.protocols.http.httptools_impl import STATUS_LINE, HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState
from websockets.frames import Frame
from websockets.http11 import Request

from app.realtime.endpoint import CLOSE_FLOOD, RATE_LIMIT_EXTENSION, RateLimit
from app.settings import get_settings

FLOOD_LINGER_S = 1.0  # a socket closed for flooding is closed for good this much later
HEAD_OVERHEAD = 4  # ": " and CRLF around each header, as counted against the limit


class HttpProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with a bound on a request head's size and time."""

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        settings = get_settings()
        self.head_limit = settings.max_header_bytes
        self.head_timeout = settings.header_timeout_seconds
        # bytes read of the head under way (None between a head's end and the next request)
        self.head_bytes: int | None = 0
        self.head_timer: asyncio.TimerHandle | None = None
        self.refused = False
        self.default_headers = server_state.default_headers

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.refused:
            return
        if self.head_bytes is not None:
            self.head_bytes += len(data)
        super().data_received(data)
        # still no end of the head (else head_bytes is None): all of it was head
        if self.head_bytes is not None and self.head_bytes > self.head_limit:
            self._refuse_head()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self.head_bytes is None:  # a request after another on this connection: counted
            self.head_bytes = 0  # from the next read (this one is at most 256 KB)
            self._arm()

    def on_headers_complete(self) -> None:
        self.head_bytes = None
        self._disarm()
        size = len(self.url) + sum(
            len(name) + len(value) + HEAD_OVERHEAD for name, value in self.headers
        )
        if size > self.head_limit:  # a whole head in one read
            self._refuse_head()
            return
        super().on_headers_complete()

    def on_body(self, body: bytes) -> None:
        if not self.refused:
            super().on_body(body)

    def on_message_complete(self) -> None:
        if not self.refused:
            super().on_message_complete()

    def _arm(self) -> None:
        if self.head_timer is None:
            self.head_timer = self.loop.call_later(self.head_timeout, self._head_too_slow)

    def _disarm(self) -> None:
        if self.head_timer is not None:
            self.head_timer.cancel()
            self.head_timer = None

    def _head_too_slow(self) -> None:
        self.head_timer = None
        if not self.transport.is_closing():
            self.transport.close()

    def _refuse_head(self) -> None:
        self.refused = True
        self.head_bytes = None
        self._disarm()
        if self.transport.is_closing():
            return
        message = b"Request header fields too large."
        self.transport.write(
            b"".join(
                [
                    STATUS_LINE[431],
                    *(name + b": " + value + b"\r\n" for name, value in self.default_headers),
                    b"content-type: text/plain; charset=utf-8\r\n",
                    b"content-length: " + str(len(message)).encode() + b"\r\n",
                    b"connection: close\r\n\r\n",
                    message,
                ]
            )
        )
        self.transport.close()


class WebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websockets protocol: pings and pongs count against the socket's rate limit
    (the endpoint's own, handed to it in the scope), and what a read brought is parsed a slice
    at a time, the next slice only once the endpoint has taken the messages of the last."""

    SLICE = 4096

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        settings = get_settings()
        self.frame_limit = RateLimit(
            settings.messages_per_second, settings.message_burst, settings.message_overflow
        )
        self.flooded = False
        self.pending = b""  # read, not yet parsed: waits for the endpoint to take its messages

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        if self.handshake_initiated and not self.close_sent:  # the app's task has not run yet
            self.scope["extensions"][RATE_LIMIT_EXTENSION] = self.frame_limit  # type: ignore[index]

    def data_received(self, data: bytes) -> None:
        if self.flooded:
            return  # dropped unread
        if self.pending:
            data, self.pending = self.pending + data, b""
        if self.handshake_initiated and not self.handshake_complete:
            # frames before the endpoint's answer (it may hold a flooder's socket a while):
            # kept unparsed, and nothing more is read till then
            self.pending = data
            self.transport.pause_reading()
            self.read_paused = True
            return
        self._parse(data)

    def _parse(self, data: bytes) -> None:
        for start in range(0, len(data), self.SLICE):
            if self.flooded or self.transport.is_closing():
                return  # the rest is never parsed
            super().data_received(data[start : start + self.SLICE])
            if self.read_paused:  # messages wait for the endpoint (reading paused till then)
                self.pending = data[start + self.SLICE :]
                return

    async def receive(self) -> Any:
        message = await self.queue.get()
        if self.queue.empty() and self.read_paused and self.handshake_complete and not self.flooded:
            self.read_paused = False
            if self.pending:
                pending, self.pending = self.pending, b""
                self._parse(pending)
            if not self.read_paused:  # all of it parsed: read on
                self.transport.resume_reading()
        return message

    async def send(self, message: Any) -> None:
        await super().send(message)
        if message["type"] == "websocket.close" and message.get("code") == CLOSE_FLOOD:
            self._linger()  # the endpoint closed a flood
        elif message["type"] == "websocket.accept" and self.read_paused and self.queue.empty():
            self.read_paused = False  # what came before the accept is parsed now
            if self.pending:
                pending, self.pending = self.pending, b""
                self._parse(pending)
            if not self.read_paused and not self.flooded:
                self.transport.resume_reading()

    def handle_ping(self) -> None:
        if self._counted():
            super().handle_ping()

    def handle_pong(self, event: Frame) -> None:
        if self._counted():
            super().handle_pong(event)

    def _counted(self) -> bool:
        limit = self.frame_limit
        if limit.allow() or not limit.exhausted:
            return True
        self.conn.fail(CLOSE_FLOOD, "Too many messages.")
        self.transport.write(b"".join(self.conn.data_to_send()))
        self.close_sent = True
        self.queue.put_nowait({"type": "websocket.disconnect", "code": CLOSE_FLOOD})
        self._linger()
        return False

    def _linger(self) -> None:
        """After the close frame: nothing the client sends is parsed any more, and nobody waits
        for its closing handshake. The connection is shut for writing at once (the close frame
        goes out with a FIN), reading stops, and it is closed a moment later: closed at once
        with the flood unread, it would be reset, and the reset could overtake the close
        frame."""
        self.flooded = True
        if self.transport.is_closing():
            return
        self.transport.pause_reading()  # the flood waits in the kernel's buffers, unread
        self.read_paused = True
        if self.transport.can_write_eof():
            self.transport.write_eof()
        if self.close_timer is not None:
            self.close_timer.cancel()
        self.close_timer = self.loop.call_later(FLOOD_LINGER_S, self.transport.close)
