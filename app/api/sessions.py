"""Signing in and out, one session per device: ``POST /api/session`` (a username and a
password), ``DELETE /api/session`` (this device), ``GET /api/sessions`` (the player's
devices), ``DELETE /api/sessions/{id}`` (one of them) and ``DELETE /api/sessions`` (all of
them: signed out everywhere)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, StringConstraints

from app.api.deps import CallerDep, ServicesDep, give_token, take_token
from app.api.errors import ApiError
from app.api.params import PathId
from app.api.passwords import password_matches
from app.db.accounts import AccountRecord, account_by_username, username_key
from app.db.sessions import end_sessions, list_sessions, open_session
from app.db.signin_limit import TooManyFailures
from app.identity import device_label
from app.services import Services

router = APIRouter(prefix="/api", tags=["sessions"])

BAD_CREDENTIALS = "That username and password do not match an account."


class SignIn(BaseModel):
    username: Annotated[str, StringConstraints(max_length=200)]
    password: Annotated[str, StringConstraints(max_length=1000)]


def client_address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def rate_limited(refusal: TooManyFailures) -> ApiError:
    minutes = -(-refusal.retry_after // 60)
    wait = "a minute" if minutes <= 1 else f"{minutes} minutes"
    return ApiError(
        429,
        "rate_limited",
        f"Too many failed sign-ins from here or for this username. Try again in {wait}.",
        {"Retry-After": str(refusal.retry_after)},
    )


async def sign_in_as(
    account: AccountRecord, request: Request, response: Response, services: Services
) -> dict[str, object]:
    """A new session for the account's player, on this device: the answer of a sign-in."""
    token = await open_session(services.db, account.player_id, device_label(request))
    give_token(response, services, token)
    return {"id": account.player_id, "name": account.name, "token": token}


async def within_limit(services: Services, key: str, address: str) -> None:
    """Refuse a password check (429) while the username or the address has failed too often."""
    try:
        await services.signins.check(key, address)
    except TooManyFailures as refusal:
        raise rate_limited(refusal) from None


@router.post("/session")
async def sign_in(
    body: SignIn, request: Request, response: Response, services: ServicesDep
) -> dict[str, object]:
    key, address = username_key(body.username.strip()), client_address(request)
    await within_limit(services, key, address)
    account = await account_by_username(services.db, body.username.strip())
    matches = await password_matches(body.password, account.password_hash if account else None)
    if account is None or not matches:
        await services.signins.failed(key, address)
        raise ApiError(401, "bad_credentials", BAD_CREDENTIALS)
    await services.signins.succeeded(key)
    return await sign_in_as(account, request, response, services)


@router.delete("/session", status_code=204, response_class=Response)
async def sign_out(caller: CallerDep, response: Response, services: ServicesDep) -> None:
    ended = await end_sessions(services.db, caller.player.id, only=caller.session_id)
    services.players.forget(ended)
    take_token(response, services)


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
    services.players.forget(ended)
    if session_id == caller.session_id:
        take_token(response, services)


@router.delete("/sessions", status_code=204, response_class=Response)
async def end_all(caller: CallerDep, response: Response, services: ServicesDep) -> None:
    services.players.forget(await end_sessions(services.db, caller.player.id))
    take_token(response, services)
