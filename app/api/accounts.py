"""Accounts: a guest claims theirs with ``POST /api/account`` (a username and a password; the
player, history and ratings stay the same) and changes its password with
``PUT /api/account/password``, which signs every other device out."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, StringConstraints

from app.api.deps import CallerDep, PlayerDep, ServicesDep
from app.api.errors import ApiError
from app.api.passwords import hash_password, password_matches, refuse_weak
from app.api.sessions import client_address, within_limit
from app.db.accounts import (
    AlreadyClaimed,
    UsernameTaken,
    account_of,
    claim,
    is_username,
    set_password,
    username_key,
)

router = APIRouter(prefix="/api", tags=["accounts"])

USERNAME_RULE = (
    "A username has 3 to 24 characters: letters, digits, dots, dashes and underscores, "
    "starting with a letter or a digit."
)


class NewAccount(BaseModel):
    username: Annotated[str, StringConstraints(max_length=200)]
    password: Annotated[str, StringConstraints(max_length=1000)]


class NewPassword(BaseModel):
    current_password: Annotated[str, StringConstraints(max_length=1000)]
    new_password: Annotated[str, StringConstraints(max_length=1000)]


def clean_username(raw: str) -> str:
    username = raw.strip()
    if not is_username(username):
        raise ApiError(422, "invalid_username", USERNAME_RULE)
    return username


@router.post("/account", status_code=201)
async def claim_account(
    body: NewAccount, player: PlayerDep, services: ServicesDep
) -> dict[str, object]:
    username = clean_username(body.username)
    refuse_weak(body.password, username)
    try:
        await claim(services.db, player.id, username, await hash_password(body.password))
    except AlreadyClaimed:
        raise ApiError(409, "already_claimed", "You have an account already.") from None
    except UsernameTaken:
        raise ApiError(409, "username_taken", "That username is taken: choose another.") from None
    return {"id": player.id, "name": player.name, "username": username}


@router.put("/account/password", status_code=204, response_class=Response)
async def change_password(
    body: NewPassword, request: Request, caller: CallerDep, services: ServicesDep
) -> None:
    account = await account_of(services.db, caller.player.id)
    if account is None:
        raise ApiError(404, "no_account", "Create an account first: a guest has no password.")
    key, address = username_key(account.username), client_address(request)
    await within_limit(services, key, address)
    if not await password_matches(body.current_password, account.password_hash):
        await services.signins.failed(key, address)
        raise ApiError(403, "wrong_password", "The current password is not right.")
    refuse_weak(body.new_password, account.username)
    ended = await set_password(
        services.db,
        caller.player.id,
        await hash_password(body.new_password),
        keep_session=caller.session_id,
    )
    services.players.forget(ended)
