"""Accounts: a guest claims theirs with ``POST /api/account`` (a username and a password; the
player, history and ratings stay the same) and changes its password with
``PUT /api/account/password``, which signs every other device out (and may remove the
account's passkeys).

Every check that costs nothing comes before a password is hashed: the username's form, the
password's strength, the limit on claims (per player and per client address: whether a
username is taken tells who exists), whether the player has an account already and whether
the username is taken.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, StringConstraints

from app.api.addresses import client_key
from app.api.deps import CallerDep, ServicesDep
from app.api.errors import ApiError
from app.api.passwords import refuse_weak
from app.api.sessions import password_checked, within_limit
from app.db.accounts import (
    AlreadyClaimed,
    UsernameTaken,
    account_by_username,
    account_of,
    claim,
    is_username,
    set_password,
)
from app.db.passkeys import remove_passkeys
from app.db.sessions import mark_signed_in

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
    remove_passkeys: bool = False  # a stolen device may have added one


TOO_MANY_CLAIMS = "Too many tries at creating an account from here."
TAKEN = "That username is taken: choose another."


def clean_username(raw: str) -> str:
    username = raw.strip()
    if not is_username(username):
        raise ApiError(422, "invalid_username", USERNAME_RULE)
    return username


ALREADY = "You have an account already."


@router.post("/account", status_code=201)
async def claim_account(
    body: NewAccount, request: Request, caller: CallerDep, services: ServicesDep
) -> dict[str, object]:
    player, address = caller.player, client_key(request)
    username = clean_username(body.username)
    refuse_weak(body.password, username)
    services.hasher.refuse_if_full(address)
    await within_limit(services.limits.claim(player.id, address), TOO_MANY_CLAIMS)
    if await account_of(services.db, player.id) is not None:
        raise ApiError(409, "already_claimed", ALREADY)
    if await account_by_username(services.db, username) is not None:
        raise ApiError(409, "username_taken", TAKEN)
    password_hash = await services.hasher.hash(body.password, address)
    try:
        await claim(services.db, player.id, username, password_hash)
    except AlreadyClaimed:  # a claim racing this one
        raise ApiError(409, "already_claimed", ALREADY) from None
    except UsernameTaken:
        raise ApiError(409, "username_taken", TAKEN) from None
    await mark_signed_in(services.db, caller.session_id)
    return {"id": player.id, "name": player.name, "username": username}


@router.put("/account/password", status_code=204, response_class=Response)
async def change_password(
    body: NewPassword, request: Request, caller: CallerDep, services: ServicesDep
) -> None:
    account = await account_of(services.db, caller.player.id)
    if account is None:
        raise ApiError(404, "no_account", "Create an account first: a guest has no password.")
    refuse_weak(body.new_password, account.username)
    checked = await password_checked(services, request, account.username, body.current_password)
    if checked is None:
        raise ApiError(403, "wrong_password", "The current password is not right.")
    ended = await set_password(
        services.db,
        caller.player.id,
        await services.hasher.hash(body.new_password, client_key(request)),
        keep_session=caller.session_id,
    )
    if body.remove_passkeys:
        await remove_passkeys(services.db, caller.player.id)
    await services.sessions_ended(caller.player.id, ended)
