"""Shared request dependencies: the process's services and the calling player."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request, Response

from app.api.errors import ApiError
from app.db.players import Caller, PlayerRecord
from app.identity import COOKIE_NAME, token_of
from app.services import Services

COOKIE_MAX_AGE = 400 * 24 * 3600


# Each dependency takes the request alone: FastAPI solves a dependency of dependencies at every
# request, and the chain services -> caller -> player cost more than the route's own work.


def services_of(request: Request) -> Services:
    return request.app.state.services


async def get_services(request: Request) -> Services:
    # async, though it awaits nothing: FastAPI runs a plain ``def`` dependency on its thread
    # pool, a thread hop on every request
    return services_of(request)


ServicesDep = Annotated[Services, Depends(get_services)]


async def optional_caller(request: Request) -> Caller | None:
    token = token_of(request)
    return await services_of(request).players.caller(token) if token else None


OptionalCallerDep = Annotated[Caller | None, Depends(optional_caller)]


async def optional_player(request: Request) -> PlayerRecord | None:
    caller = await optional_caller(request)
    return caller.player if caller is not None else None


OptionalPlayerDep = Annotated[PlayerRecord | None, Depends(optional_player)]


async def current_caller(request: Request) -> Caller:
    caller = await optional_caller(request)
    if caller is None:
        raise ApiError(401, "unauthorized", "Choose a name first (POST /api/players).")
    return caller


CallerDep = Annotated[Caller, Depends(current_caller)]


async def current_player(request: Request) -> PlayerRecord:
    return (await current_caller(request)).player


PlayerDep = Annotated[PlayerRecord, Depends(current_player)]


def give_token(response: Response, services: Services, token: str) -> None:
    """The session's token, in the HttpOnly cookie the pages and sockets send."""
    response.set_cookie(
        COOKIE_NAME,
        token,
        max_age=COOKIE_MAX_AGE,
        httponly=True,
        samesite="lax",
        secure=services.settings.secure_cookies,
    )


def take_token(response: Response, services: Services) -> None:
    response.delete_cookie(
        COOKIE_NAME, httponly=True, samesite="lax", secure=services.settings.secure_cookies
    )
