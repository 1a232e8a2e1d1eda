"""``create_app()``: the site as one ASGI application. FastAPI serves the pages and the API, and
its lifespan starts this process's services; room sockets are served in front of it."""

from __future__ import annotations

import gc
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp

from app.api import (
    accounts,
    games,
    matches,
    notifications,
    passkeys,
    players,
    push,
    ratings,
    rooms,
    sessions,
)
from app.api.errors import RefuseNulBytes
from app.api.errors import install as install_error_handlers
from app.api.guards import LimitBodies, RefuseCrossSite
from app.identity import REDACT_QUERY_TOKENS
from app.notify.mail import UNSUBSCRIBE_PATH
from app.realtime.endpoint import RoomSockets
from app.realtime.me import PlayerSockets
from app.services import Services
from app.settings import Settings, get_settings
from app.web import mail_links, pages
from app.web.headers import SecurityHeaders


class OneLineForBadText(logging.Filter):
    """uvicorn logs a traceback for every text frame that is not UTF-8 (and closes the socket
    with 1007): a client can send those as fast as it likes, so it is one line, without it."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and str(record.msg).startswith("Invalid UTF-8"):
            error = record.exc_info[1]
            record.msg = f"{str(record.msg).rstrip('.')} (closed with 1007): %s"
            record.args = (error,)
            record.exc_info = record.exc_text = None
        return True


ONE_LINE_FOR_BAD_TEXT = OneLineForBadText()


def create_app(settings: Settings | None = None) -> ASGIApp:
    settings = settings or get_settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        services = await Services.start(settings)
        app.state.services = services
        gc.freeze()  # what is alive now lives as long as the process: never scan it again
        try:
            yield
        finally:
            await services.stop()

    for server_log in ("uvicorn.error", "uvicorn.access"):
        logging.getLogger(server_log).addFilter(REDACT_QUERY_TOKENS)
    logging.getLogger("uvicorn.error").addFilter(ONE_LINE_FOR_BAD_TEXT)
    app = FastAPI(title="cardroom", lifespan=lifespan)
    install_error_handlers(app, not_found_page=pages.not_found_page)
    # the routers are tried in this order: the rooms' (every seat, start and rematch) first
    routers = (rooms, players, games, matches, ratings, accounts, sessions, passkeys)
    for module in (*routers, notifications, push):
        app.include_router(module.router)
    app.include_router(rooms.play_router)
    app.include_router(pages.router)
    app.include_router(mail_links.router)
    app.mount("/static", StaticFiles(directory=pages.STATIC_DIR), name="static")

    @app.get("/healthz", include_in_schema=False)
    async def health() -> dict[str, Any]:
        services = app.state.services
        manager, reviews = services.manager, services.reviews
        return {
            "status": "ok",
            "rooms_in_memory": manager.rooms_in_memory,
            "loads_under_way": manager.loads_under_way,
            "reviews": {"waiting": reviews.waiting, "stored": reviews.stored},
            "passwords": services.hasher.to_json(),
        }

    # Room sockets first: each coroutine a socket waits in costs memory for its whole life, so
    # no wrapper below is on their path (the socket checks its origin itself). The room id and
    # the token are looked up, never stored, so a NUL in them is harmless. A player's own socket
    # (/ws/me) is served just behind them.
    guarded = RefuseCrossSite(
        RefuseNulBytes(app), settings.allowed_origins, open_paths=(UNSUBSCRIBE_PATH,)
    )
    guarded = LimitBodies(guarded, settings.max_body_bytes)

    def services() -> Services:
        return app.state.services

    return RoomSockets(PlayerSockets(SecurityHeaders(guarded), services), services)
