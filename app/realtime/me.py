"""``GET /ws/me``: a player's own socket, whatever page they are on. It is sent how many of
their matches wait for them (``{"type":"games","waiting": n}``) on connect and again whenever
that may have changed (``app/realtime/games_feed.py``); the client sends only pings.

Plain ASGI in front of FastAPI, as the room sockets are (``app/realtime/endpoint.py``), with
their handshake and their limits: the origin, the token, the frame size and the rate.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from starlette.types import ASGIApp, Receive, Scope, Send

from app.db.players import PlayerRecord
from app.realtime.endpoint import (
    CLOSE_SERVER_ERROR,
    Closing,
    Cooldowns,
    admit,
    rate_limit,
    screen,
)
from app.realtime.hub import Connection
from app.realtime.protocol import BadMessage, PingMessage, error, parse
from app.rooms.errors import ErrorCode
from app.services import Services

log = logging.getLogger(__name__)

ME_PATH = "/ws/me"


class PlayerSockets:
    """ASGI: ``/ws/me`` is served here for its whole life, everything else goes to ``app``."""

    def __init__(self, app: ASGIApp, services: Callable[[], Services]) -> None:
        self.app = app
        self.services = services
        self.cooldowns: Cooldowns | None = None  # made with the first socket's settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket" or scope["path"] != ME_PATH:
            await self.app(scope, receive, send)
            return
        services = self.services()
        settings = services.settings
        if self.cooldowns is None:
            self.cooldowns = Cooldowns.of(settings)
        cooldowns = self.cooldowns
        admitted = await admit(scope, receive, send, services, cooldowns, ME_PATH, _anyone)
        if admitted is None:
            return
        player, _ = admitted
        connection = Connection(send, player, ME_PATH)
        limit = rate_limit(scope, settings)
        services.games.join(connection)  # which counts for it
        code = None
        try:
            while True:
                frame = screen(await receive(), limit, settings.max_frame_bytes, connection)
                if frame is not None:
                    _answer(frame, connection)
        except Closing as closing:
            code = closing.code
            if closing.flood:
                cooldowns.start(player.id)
        except Exception:
            log.exception("%s: a socket's handler failed", ME_PATH)
            code = CLOSE_SERVER_ERROR
        finally:
            services.games.leave(connection)
            await connection.close(code)


async def _anyone(player: PlayerRecord) -> bool:
    """Every known player has a socket of their own."""
    return True


def _answer(frame: str | bytes, connection: Connection) -> None:
    try:
        request = parse(frame)
    except BadMessage as bad:
        connection.send(error(ErrorCode.BAD_MESSAGE, str(bad)))
        return
    if isinstance(request, PingMessage):
        connection.send('{"type":"pong"}')
    else:
        connection.send(error(ErrorCode.BAD_MESSAGE, "This socket takes only pings."))
