"""The HTML pages. Each passes only ids to its template; the page's ES module fetches the rest
from the JSON API. A room, match or player page first checks that its id names something (the
same lookups the API makes); a page that names nothing answers the 404 page."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse, Response
from fastapi.templating import Jinja2Templates

from app.db.history import match_summary
from app.db.models import LARGEST_ID
from app.db.players import player_by_id
from app.rooms.errors import RoomError
from app.services import Services
from app.web.rules import option_rows, players_text
from games import REGISTRY

REPO_ROOT = Path(__file__).resolve().parents[2]
STATIC_DIR = REPO_ROOT / "static"
TEMPLATES_DIR = REPO_ROOT / "templates"

templates = Jinja2Templates(directory=TEMPLATES_DIR)

router = APIRouter(include_in_schema=False, default_response_class=HTMLResponse)


def page(path: str, *, name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """A page answers GET and HEAD alike (monitors and link checkers ask with HEAD)."""
    return router.api_route(path, methods=["GET", "HEAD"], name=name)


# Paths that are not pages: their errors stay JSON (app.api.errors).
NOT_PAGES = ("/api", "/ws", "/static", "/healthz")


def is_page(request: Request) -> bool:
    """Whether ``request`` is a browser's visit to a page: a GET or HEAD outside the API, the
    room sockets, the static files and the health check."""
    path = request.url.path
    outside = not any(path == p or path.startswith(p + "/") for p in NOT_PAGES)
    return outside and request.method in ("GET", "HEAD")


NOT_FOUND = {
    "page": "There is no such page.",
    "room": "There is no such room: it may have been closed.",
    "match": "There is no such match.",
    "player": "There is no such player.",
    "game": "There is no such game here.",
}


def not_found(request: Request, what: str = "page") -> HTMLResponse:
    return templates.TemplateResponse(
        request,
        "not_found.html",
        {"page": "not_found", "sentence": NOT_FOUND[what]},
        status_code=404,
    )


def not_found_page(request: Request) -> HTMLResponse | None:
    """The 404 page for an unknown page; ``None`` for the API's paths (a JSON error)."""
    return not_found(request) if is_page(request) else None


def services_of(request: Request) -> Services:
    return request.app.state.services


def parse_id(text: str) -> int | None:
    """A match's or player's id in a path, or ``None`` when it cannot name one."""
    if not (text.isascii() and text.isdigit()) or len(text) > len(str(LARGEST_ID)):
        return None
    number = int(text)
    return number if 1 <= number <= LARGEST_ID else None


@page("/", name="lobby")
async def lobby(request: Request) -> HTMLResponse:
    games = [engine.info for engine in REGISTRY.values()]
    min_hold = services_of(request).settings.min_seat_hold_seconds
    return templates.TemplateResponse(
        request, "lobby.html", {"page": "lobby", "games": games, "min_seat_hold": min_hold}
    )


@page("/games", name="your_games")
async def your_games(request: Request) -> HTMLResponse:
    return templates.TemplateResponse(request, "games.html", {"page": "games"})


@page("/games/{game_id}", name="rules")
async def rules(request: Request, game_id: str) -> Response:
    engine = REGISTRY.get(game_id)
    if engine is None:
        return not_found(request, "game")
    info = engine.info
    return templates.TemplateResponse(
        request,
        f"rules/{info.id}.html",
        {
            "page": "rules",
            "game": info,
            "players": players_text(info),
            "options": option_rows(info),
        },
    )


@page("/rooms/{room_id}", name="room")
async def room(request: Request, room_id: str) -> Response:
    try:
        await services_of(request).manager.room(room_id)
    except RoomError as error:
        if error.status == 404:
            return not_found(request, "room")
        raise
    return templates.TemplateResponse(request, "room.html", {"page": "room", "room_id": room_id})


@page("/matches", name="matches")
async def matches(request: Request) -> HTMLResponse:
    return templates.TemplateResponse(request, "matches.html", {"page": "matches"})


@page("/matches/{match_id}", name="match")
async def match(request: Request, match_id: str) -> Response:
    number = parse_id(match_id)
    if number is None or await match_summary(services_of(request).db, number) is None:
        return not_found(request, "match")
    return templates.TemplateResponse(
        request, "match.html", {"page": "matches", "match_id": number}
    )


@page("/players/{player_id}", name="player")
async def player(request: Request, player_id: str) -> Response:
    number = parse_id(player_id)
    if number is None or await player_by_id(services_of(request).db, number) is None:
        return not_found(request, "player")
    return templates.TemplateResponse(
        request, "player.html", {"page": "player", "player_id": number}
    )


@page("/signin", name="signin")
async def signin(request: Request) -> HTMLResponse:
    return templates.TemplateResponse(request, "signin.html", {"page": "account"})


@page("/account/new", name="claim")
async def claim(request: Request) -> HTMLResponse:
    return templates.TemplateResponse(request, "claim.html", {"page": "account"})


@page("/account", name="account")
async def account(request: Request) -> HTMLResponse:
    return templates.TemplateResponse(request, "account.html", {"page": "account"})


@router.get("/sw.js", response_class=FileResponse)
async def service_worker() -> FileResponse:
    """The service worker (push notifications), served from the root so its scope is the
    whole site."""
    return FileResponse(
        STATIC_DIR / "sw.js", media_type="text/javascript", headers={"Cache-Control": "no-cache"}
    )
