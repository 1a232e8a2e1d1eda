"""``GET /ws/rooms/{id}``: a seated player plays that seat, everyone else watches.

The endpoint is plain ASGI, served in front of FastAPI (:class:`RoomSockets`): a socket lives
as long as its player stays, and through FastAPI's router and middleware every frame sent would
pass their wrappers, and every socket would keep their frames alive. None of them has anything
to do here: the endpoint checks the origin and the token itself.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.db.driver import ConnectionLost
from app.db.players import PlayerRecord
from app.identity import same_origin, token_of
from app.realtime.hub import Connection, close_socket
from app.realtime.protocol import (
    ActionMessage,
    BadMessage,
    ChatMessage,
    PaceMessage,
    RematchMessage,
    encode,
    error,
    parse,
)
from app.rooms.errors import ActionRefused, ErrorCode, RoomError
from app.rooms.runtime import RoomRuntime
from app.services import Services
from app.settings import Settings

log = logging.getLogger(__name__)

T = TypeVar("T")

CLOSE_POLICY = 1008
CLOSE_TOO_BIG = 1009
CLOSE_SERVER_ERROR = 1011
CLOSE_TRY_AGAIN = 1013  # the database is out of reach: clients reconnect (with backoff)
CLOSE_FLOOD = 4029  # the client went on sending far past its rate limit
# the server's protocol may hand the socket's RateLimit in the scope, to count its pings too
# (app/serving.py)
RATE_LIMIT_EXTENSION = "cardroom.rate_limit"
CLOSE_UNAUTHORIZED = 4401
CLOSE_NO_ROOM = 4404

# the database lost the connection, failed the statement, or no pool connection came free
OUT_OF_REACH = (ConnectionLost, DBAPIError, PoolTimeout)


class RateLimit:
    """A token bucket: ``rate`` messages a second, bursts up to ``burst``; past it, the bucket
    goes into debt, and ``overflow`` messages past the limit it is ``exhausted``.

    A flooding client hears ``rate_limited`` at most once a second and the rest of what it
    sends past the limit is dropped without an answer; a client that keeps on (``overflow``
    more) is closed with 4029, so a flood stops costing the server its reading and parsing.
    """

    __slots__ = ("burst", "floor", "rate", "stamp", "tokens", "warned")

    def __init__(self, rate: float, burst: int, overflow: int = 0) -> None:
        self.rate, self.burst = rate, burst
        self.floor = -float(overflow)
        self.tokens = float(burst)
        self.stamp = time.monotonic()
        self.warned = -1.0

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        # a refused message digs the debt no deeper than the exhausted state
        self.tokens = max(self.tokens - 1, self.floor - 1)
        return self.tokens >= 0

    @property
    def exhausted(self) -> bool:
        """More than ``overflow`` messages past the limit (and not paid back since)."""
        return self.tokens < self.floor

    def should_warn(self) -> bool:
        now = time.monotonic()
        if now - self.warned < 1.0:
            return False
        self.warned = now
        return True


class PlayerLimits:
    """One :class:`RateLimit` a player, shared by all their sockets on this process (chat).
    A bucket that has filled up again is forgotten, so this holds only the players who spoke
    lately."""

    __slots__ = ("buckets", "burst", "rate", "sweep_at")

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, burst
        self.buckets: dict[int, RateLimit] = {}
        self.sweep_at = PLAYER_LIMITS_SWEEP

    def allow(self, player_id: int) -> bool:
        bucket = self.buckets.get(player_id)
        if bucket is None:
            if len(self.buckets) >= self.sweep_at:
                self._forget_full()
            bucket = self.buckets[player_id] = RateLimit(self.rate, self.burst)
        return bucket.allow()

    def _forget_full(self) -> None:
        now = time.monotonic()
        self.buckets = {
            player: bucket
            for player, bucket in self.buckets.items()
            if bucket.tokens + (now - bucket.stamp) * bucket.rate < bucket.burst
        }
        # many players still speaking: sweep again only when they have doubled (O(1) a call)
        self.sweep_at = max(PLAYER_LIMITS_SWEEP, 2 * len(self.buckets))


PLAYER_LIMITS_SWEEP = 4096  # players held before the full buckets are forgotten


class Cooldowns:
    """Players whose socket was just closed for flooding (4029), until when: a new socket of
    theirs on this process waits unanswered till then and is closed with 4029 (no greeting,
    no presence, no chat history read), so reconnecting at once floods nothing."""

    __slots__ = ("seconds", "until")

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.until: dict[int, float] = {}

    @classmethod
    def of(cls, settings: Settings) -> Cooldowns:
        """As long as a flooded bucket takes to fill up again (4 s by default)."""
        overdraft = settings.message_burst + settings.message_overflow
        return cls(min(overdraft / settings.messages_per_second, 60.0))

    def start(self, player_id: int) -> None:
        now = time.monotonic()
        if len(self.until) >= PLAYER_LIMITS_SWEEP:
            self.until = {p: t for p, t in self.until.items() if t > now}
        self.until[player_id] = now + self.seconds

    def left(self, player_id: int) -> float:
        """Seconds of the player's cooldown still to run (0: none)."""
        until = self.until.get(player_id)
        if until is None:
            return 0.0
        left = until - time.monotonic()
        if left <= 0:
            del self.until[player_id]
        return max(left, 0.0)


ROOM_PATH = re.compile(r"/ws/rooms/(?P<room_id>[^/]+)")


class RoomSockets:
    """ASGI: a room socket is served here for its whole life, everything else goes to ``app``
    (FastAPI, whose lifespan puts the services on its state).

    ``__call__`` is ``async def`` so that every server sees an ASGI3 app (uvicorn, gunicorn's
    uvicorn worker and hypercorn all ask ``iscoroutinefunction``), and it is the socket's loop
    itself rather than a call awaiting another coroutine: the frame of such a call would stay
    on every socket's stack as long as the socket (about 250 bytes each). For the same reason
    the socket speaks plain ASGI messages (a starlette ``WebSocket`` kept for a socket's whole
    life, with its parsed headers and cookies, costs more than 1 KB a socket), and what only
    the handshake and the greeting need lives in functions of their own, whose frames are gone
    when the socket settles down to wait.
    """

    def __init__(self, app: ASGIApp, services: Callable[[], Services]) -> None:
        self.app = app
        self.services = services
        # made with the first socket's settings
        self.chat_limits: PlayerLimits | None = None
        self.cooldowns: Cooldowns | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        room_id = _room_of(scope)
        if room_id is None:
            await self.app(scope, receive, send)
            return
        services = self.services()
        settings = services.settings
        if self.cooldowns is None:
            self.cooldowns = Cooldowns.of(settings)
        cooldowns = self.cooldowns
        admitted = await admit(
            scope, receive, send, services, cooldowns, f"room {room_id}", _loader(room_id, services)
        )
        if admitted is None:
            return
        player, runtime = admitted
        connection = Connection(send, player, room_id)
        services.hub.join(connection)
        limit = rate_limit(scope, settings)
        if self.chat_limits is None:
            self.chat_limits = PlayerLimits(settings.chat_per_minute / 60, settings.chat_burst)
        chat_limits = self.chat_limits
        code = None
        try:
            await _greet(connection, runtime, services)
            connection.send(encode(await services.manager.chat_history(runtime, player.id)))
            while True:
                frame = screen(await receive(), limit, settings.max_frame_bytes, connection)
                if frame is not None:
                    await _handle(frame, connection, services, chat_limits)
        except Closing as closing:
            code = closing.code
            if closing.flood:
                cooldowns.start(player.id)
        except OUT_OF_REACH as lost:
            # a move the database did not take even after the move log's retry: it was not
            # acknowledged, and the client resyncs when it reconnects
            log.warning(
                "room %s: closing a socket, the database is out of reach: %s", room_id, lost
            )
            code = CLOSE_TRY_AGAIN
        except Exception:
            log.exception("room %s: a socket's handler failed", room_id)
            code = CLOSE_SERVER_ERROR
        finally:
            services.hub.leave(connection)
            await connection.close(code)
            await services.manager.presence_changed(room_id)


def _room_of(scope: Scope) -> str | None:
    """The room a socket asks for; ``None`` for anything else. (The match is not kept: it
    would live as long as the socket.)"""
    if scope["type"] != "websocket":
        return None
    match = ROOM_PATH.fullmatch(scope["path"])
    return None if match is None else match["room_id"]


def rate_limit(scope: Scope, settings: Settings) -> RateLimit:
    """The socket's bucket: the one the server's protocol counts its pings in, if it hands one
    (``python -m app``), else a new one."""
    return (scope.get("extensions") or {}).get(RATE_LIMIT_EXTENSION) or RateLimit(
        settings.messages_per_second, settings.message_burst, settings.message_overflow
    )


class Closing(Exception):
    """The socket's loop ends: closed with ``code`` (``None``: the client left); ``flood``:
    for flooding, so the player's next sockets wait out a cooldown."""

    def __init__(self, code: int | None = None, *, flood: bool = False) -> None:
        self.code, self.flood = code, flood


def screen(
    message: Message, limit: RateLimit, max_bytes: int, connection: Connection
) -> str | bytes | None:
    """A message the server's ASGI receive gave: the frame to handle, or ``None`` (nothing to
    handle, or past the rate limit: ``rate_limited`` at most once a second); raises
    :class:`Closing` when the socket is done (the client left, a frame too big, a flood)."""
    if message["type"] != "websocket.receive":  # websocket.disconnect
        # the server's protocol closed it for flooding (4029)
        raise Closing(flood=message.get("code") == CLOSE_FLOOD)
    frame = message.get("text")
    if frame is None:
        frame = message.get("bytes")
        if frame is None:
            return None
    if len(frame) > max_bytes:
        raise Closing(CLOSE_TOO_BIG)
    if not limit.allow():
        if limit.exhausted:
            raise Closing(CLOSE_FLOOD, flood=True)
        if limit.should_warn():
            connection.send(error(ErrorCode.RATE_LIMITED, "Slow down: too many messages."))
        return None
    return frame


def _loader(
    room_id: str, services: Services
) -> Callable[[PlayerRecord], Awaitable[RoomRuntime | None]]:
    async def load(player: PlayerRecord) -> RoomRuntime | None:
        try:
            return await services.manager.runtime(room_id)
        except RoomError:
            return None

    return load


async def admit(
    scope: Scope,
    receive: Receive,
    send: Send,
    services: Services,
    cooldowns: Cooldowns,
    what: str,
    load: Callable[[PlayerRecord], Awaitable[T | None]],
) -> tuple[PlayerRecord, T] | None:
    """The handshake: accept the socket of a known player, with what ``load`` gives for them
    (``None``: there is no such room), or refuse it with the reason. A player just closed for
    flooding waits out the cooldown unanswered (the server's protocol reads nothing before the
    accept), then hears 4029."""
    if (await receive())["type"] != "websocket.connect":
        return None
    handshake = HTTPConnection(scope)
    if not same_origin(handshake, services.settings.allowed_origins):
        await close_socket(send, CLOSE_POLICY)  # before the accept: the upgrade is refused (403)
        return None
    token = token_of(handshake, allow_query=True)
    scope["headers"] = []  # read now; the server would keep them for the socket's whole life
    loaded: T | None = None
    try:
        player = await services.players.by_token(token) if token else None
        if player is not None and (wait := cooldowns.left(player.id)) > 0:
            await asyncio.sleep(wait)
            await send({"type": "websocket.accept"})
            await close_socket(send, CLOSE_FLOOD, "Too many messages: wait a moment.")
            return None
        if player is not None:
            loaded = await load(player)
    except OUT_OF_REACH as lost:
        log.warning("%s: turning a socket away, the database is out of reach: %s", what, lost)
        await send({"type": "websocket.accept"})
        await close_socket(send, CLOSE_TRY_AGAIN, "Try again in a moment.")
        return None
    # Accepted first, so that a browser can read why it is turned away and stop retrying.
    await send({"type": "websocket.accept"})
    if player is None:
        await close_socket(send, CLOSE_UNAUTHORIZED, "Choose a name first.")
        return None
    if loaded is None:
        await close_socket(send, CLOSE_NO_ROOM, "No such room.")
        return None
    return player, loaded


async def _greet(connection: Connection, runtime: RoomRuntime, services: Services) -> None:
    """``hello`` with the room, the room again as everyone sees the arrival, then the state."""
    manager = services.manager
    connection.send(manager.hello(runtime, connection.player))
    await manager.presence_changed(connection.room_id)
    frame = manager.state_frame(runtime, connection.player.id)
    if frame is not None:
        connection.send(frame)


async def _handle(
    frame: str | bytes, connection: Connection, services: Services, chat_limits: PlayerLimits
) -> None:
    try:
        request = parse(frame)
    except BadMessage as bad:
        connection.send(error(ErrorCode.BAD_MESSAGE, str(bad)))
        return
    if isinstance(request, ActionMessage):
        try:
            await services.manager.submit(
                connection.room_id, connection.player.id, request.action, request.seq
            )
        except (ActionRefused, RoomError) as refused:
            connection.send(error(refused.code, refused.message, request.ref))
    elif isinstance(request, RematchMessage):
        rematch = services.manager.rematch(
            connection.room_id, connection.player, accept=request.accept
        )
        await _answered(connection, rematch, request.ref)
    elif isinstance(request, PaceMessage):
        pace = services.manager.pace(
            connection.room_id, connection.player, request.pace, request.turn_seconds
        )
        await _answered(connection, pace, request.ref)
    elif isinstance(request, ChatMessage):
        if chat_limits.allow(connection.player.id):
            await services.manager.chat(connection.room_id, connection.player, request.text)
        else:
            connection.send(error(ErrorCode.RATE_LIMITED, "Slow down: too much chat."))
    else:
        connection.send('{"type":"pong"}')


async def _answered(
    connection: Connection, change: Awaitable[object], ref: str | int | None
) -> None:
    """A room change asked over the socket: a refusal is its sender's to hear."""
    try:
        await change
    except RoomError as refused:
        connection.send(error(refused.code, refused.message, ref))
