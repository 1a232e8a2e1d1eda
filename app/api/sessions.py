"""Signing in and out, one session per device: ``POST /api/session`` (a username and a
password), ``DELETE /api/session`` (this device), ``GET /api/sessions`` (the player's
devices), ``DELETE /api/sessions/{id}`` (one of them) and ``DELETE /api/sessions`` (all of
them: signed out everywhere)."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Annotated, TypeVar

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, StringConstraints

from app.api.addresses import client_key
from app.api.deps import CallerDep, ServicesDep, give_token, take_token
from app.api.errors import ApiError
from app.api.params import PathId
from app.db.accounts import AccountRecord, account_by_username, username_key
from app.db.limits import Ticket, TooMany
from app.db.sessions import (
    device_owner,
    end_sessions,
    hash_token,
    list_sessions,
    open_session,
    remember_device,
)
from app.identity import device_label
from app.services import Services

T = TypeVar("T")
DEVICE_COOKIE = "cardroom_device"
DEVICE_MAX_AGE = 400 * 24 * 3600

router = APIRouter(prefix="/api", tags=["sessions"])

BAD_CREDENTIALS = "That username and password do not match an account."


class SignIn(BaseModel):
    username: Annotated[str, StringConstraints(max_length=200)]
    password: Annotated[str, StringConstraints(max_length=1000)]


SIGN_INS = "Too many failed sign-ins from here or for this username."


def rate_limited(refusal: TooMany, what: str = SIGN_INS) -> ApiError:
    minutes = -(-refusal.retry_after // 60)
    wait = "a minute" if minutes <= 1 else f"{minutes} minutes"
    return ApiError(
        429,
        "rate_limited",
        f"{what} Try again in {wait}.",
        {"Retry-After": str(refusal.retry_after)},
    )


async def within_limit(attempt: Awaitable[T], what: str = SIGN_INS) -> T:
    """The attempt counted by a limit (app/db/limits.py); past it, 429 with ``Retry-After``."""
    try:
        return await attempt
    except TooMany as refusal:
        raise rate_limited(refusal, what) from None


async def known_device(request: Request, services: Services, player_id: int) -> str | None:
    """The hash of this browser's device cookie if ``player_id``'s account signed in on it."""
    token = request.cookies.get(DEVICE_COOKIE)
    if not token or len(token) > 64:
        return None
    owner = await device_owner(services.db, token)
    return hash_token(token) if owner == player_id else None


async def sign_in_as(
    account: AccountRecord, request: Request, response: Response, services: Services
) -> dict[str, object]:
    """A new session for the account's player, on this device: the answer of a sign-in. A
    browser the account had not signed in on yet gets a device cookie (see
    :func:`password_checked`)."""
    token = await open_session(services.db, account.player_id, device_label(request))
    give_token(response, services, token)
    if await known_device(request, services, account.player_id) is None:
        response.set_cookie(
            DEVICE_COOKIE,
            await remember_device(services.db, account.player_id),
            max_age=DEVICE_MAX_AGE,
            path="/api",
            httponly=True,
            samesite="lax",
            secure=services.settings.secure_cookies,
        )
    return {"id": account.player_id, "name": account.name, "token": token}


async def password_checked(
    services: Services, request: Request, username: str, password: str
) -> AccountRecord | None:
    """The account ``username`` names if ``password`` is its password, ``None`` otherwise
    (no such account, or another password).

    The attempt is counted before the hash is checked, per username and per client address,
    so at most the limit's number of passwords are ever checked in a window (429 past it,
    the right password too while it lasts). On a browser the account signed in on before (its
    device cookie) the attempt counts for that device instead of the username: someone else
    failing for the username does not lock its owner out there."""
    key, address = username_key(username), client_key(request)
    services.hasher.refuse_if_full(address)
    account, device = None, None
    if DEVICE_COOKIE in request.cookies:  # whose browser it is needs the account first
        account = await account_by_username(services.db, username)
        device = await known_device(request, services, account.player_id) if account else None
    ticket: Ticket = await within_limit(services.limits.signin(key, address, device))
    if device is None:
        account = await account_by_username(services.db, username)
    try:
        matches = await services.hasher.matches(
            password, account.password_hash if account else None, address
        )
    except ApiError:  # busy: no password was checked
        await services.limits.log.give_back(ticket)
        raise
    if account is None or not matches:
        return None
    await services.limits.signin_succeeded(key, ticket, device)
    return account


@router.post("/session")
async def sign_in(
    body: SignIn, request: Request, response: Response, services: ServicesDep
) -> dict[str, object]:
    account = await password_checked(services, request, body.username.strip(), body.password)
    if account is None:
        raise ApiError(401, "bad_credentials", BAD_CREDENTIALS)
    return await sign_in_as(account, request, response, services)


@router.delete("/session", status_code=204, response_class=Response)
async def sign_out(caller: CallerDep, response: Response, services: ServicesDep) -> None:
    ended = await end_sessions(services.db, caller.player.id, only=caller.session_id)
    take_token(response, services)
    await services.sessions_ended(caller.player.id, ended)


@router.get("/sessions")
async def sessions(caller: CallerDep, services: ServicesDep) -> list[dict[str, object]]:
    found = await list_sessions(services.db, caller.player.id)
    return [session.to_json(caller.session_id) for session in found]


@router.delete("/sessions/{session_id}", status_code=204, response_class=Response)
async def end_one(
    session_id: PathId, caller: CallerDep, response: Response, services: ServicesDep
) -> None:
    ended = await end_sessions(services.db, caller.player.id, only=session_id)
    if not ended:
        raise ApiError(404, "not_found", "You have no such session.")
    if session_id == caller.session_id:
        take_token(response, services)
    await services.sessions_ended(caller.player.id, ended)


@router.delete("/sessions", status_code=204, response_class=Response)
async def end_all(caller: CallerDep, response: Response, services: ServicesDep) -> None:
    ended = await end_sessions(services.db, caller.player.id)
    take_token(response, services)
    await services.sessions_ended(caller.player.id, ended)
