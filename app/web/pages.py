"""The HTML pages. Each passes only ids to its template; the page's ES module fetches the rest
from the JSON API, so this layer needs no database and imports nothing else from ``app``."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

REPO_ROOT = Path(__file__).resolve().parents[2]
STATIC_DIR = REPO_ROOT / "static"
TEMPLATES_DIR = REPO_ROOT / "templates"

templates = Jinja2Templates(directory=TEMPLATES_DIR)

router = APIRouter(include_in_schema=False, default_response_class=HTMLResponse)


@router.get("/", name="lobby")
async def lobby(request: Request) -> HTMLResponse:
    return templates.TemplateResponse(request, "lobby.html", {"page": "lobby"})


@router.get("/rooms/{room_id}", name="room")
async def room(request: Request, room_id: str) -> HTMLResponse:
    return templates.TemplateResponse(request, "room.html", {"page": "room", "room_id": room_id})


@router.get("/matches", name="matches")
async def matches(request: Request) -> HTMLResponse:
    return templates.TemplateResponse(request, "matches.html", {"page": "matches"})


@router.get("/matches/{match_id}", name="match")
async def match(request: Request, match_id: int) -> HTMLResponse:
    return templates.TemplateResponse(
        request, "match.html", {"page": "matches", "match_id": match_id}
    )


@router.get("/players/{player_id}", name="player")
async def player(request: Request, player_id: int) -> HTMLResponse:
    return templates.TemplateResponse(
        request, "player.html", {"page": "player", "player_id": player_id}
    )
