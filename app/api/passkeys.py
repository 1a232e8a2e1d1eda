"""Passkeys (WebAuthn, checked by py_webauthn): an account adds one with
``POST /api/passkeys/registration/options`` then ``POST /api/passkeys/registration``, and
signs in with it alone with ``POST /api/passkeys/authentication/options`` then
``POST /api/passkeys/authentication``. ``GET /api/passkeys`` lists the account's,
``DELETE /api/passkeys/{id}`` removes one.

The relying party's id and origin are the request's host and scheme (settings ``rp_id`` and
``rp_origin`` pin them). Each challenge is stored until answered, once, within
:data:`CHALLENGE_LIFE`, so any server process can check the answer. Passkeys are discoverable
(kept on the authenticator with the account's handle), so a sign-in needs no username and its
options tell nothing about which usernames exist.

Adding a passkey needs a device that proved who it is lately (a sign-in or a claim within
``CARDROOM_REAUTH_SECONDS``) or the password sent with the options: a stolen session alone
cannot add one. Challenges are limited per client address (``CARDROOM_CHALLENGES_PER_ADDRESS``)
and forgotten once past their life.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from datetime import timedelta
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, StringConstraints
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    AuthenticatorTransport,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from app.api.addresses import client_key
from app.api.deps import CallerDep, PlayerDep, ServicesDep
from app.api.errors import ApiError
from app.api.params import PathId
from app.api.sessions import password_checked, sign_in_as, within_limit
from app.db.accounts import AccountRecord, account_of
from app.db.passkeys import (
    KnownPasskey,
    add_passkey,
    passkey_by_credential,
    passkey_used,
    passkeys_of,
    remove_passkey,
    save_challenge,
    take_challenge,
)
from app.db.players import Caller
from app.db.sessions import signed_in_at
from app.identity import device_label
from app.services import Services
from app.settings import Settings
from app.text import UnfitText, clean_text

router = APIRouter(prefix="/api/passkeys", tags=["passkeys"])

CHALLENGE_LIFE = timedelta(minutes=5)
TRANSPORTS = {transport.value for transport in AuthenticatorTransport}
BASE64URL = re.compile(r"[A-Za-z0-9_-]{1,1400}")  # a challenge's text
# WebAuthn's credential ids are at most 1,023 bytes: 1,364 characters of base64url
LONGEST_CREDENTIAL_ID = 1023
CREDENTIAL_ID = re.compile(r"[A-Za-z0-9_-]{1,1364}")
REGISTER, AUTHENTICATE = "register", "authenticate"
TOO_MANY_CHALLENGES = "Too many passkey requests from here."


class Answer(BaseModel):
    credential: dict[str, Any]


class NewPasskey(Answer):
    label: Annotated[str, StringConstraints(max_length=200)] | None = None


class Reauthentication(BaseModel):
    password: Annotated[str, StringConstraints(max_length=1000)] | None = None


class SignInOptions(BaseModel):
    username: str | None = None  # accepted, not needed: passkeys are discoverable


def relying_party(request: Request, settings: Settings) -> tuple[str, str]:
    """``(rp id, origin)``: the request's host and scheme unless settings pin them."""
    origin = settings.rp_origin or f"{request.url.scheme}://{request.headers.get('host', '')}"
    return settings.rp_id or urlsplit(origin).hostname or "", origin


def challenge_of(credential: dict[str, Any]) -> str:
    """The challenge the browser signed, from the credential's client data."""
    try:
        encoded = credential["response"]["clientDataJSON"]
        client_data = json.loads(base64.urlsafe_b64decode(encoded + "=" * (-len(encoded) % 4)))
        challenge = client_data["challenge"]
    except (KeyError, TypeError, ValueError, binascii.Error):
        raise ApiError(400, "bad_credential", "That passkey answer is malformed.") from None
    if not isinstance(challenge, str) or not BASE64URL.fullmatch(challenge):
        raise ApiError(400, "bad_credential", "That passkey answer is malformed.")
    return challenge


async def use_challenge(
    services: Services, credential: dict[str, Any], purpose: str
) -> tuple[bytes, int | None]:
    challenge = challenge_of(credential)
    known, player_id = await take_challenge(services.db, challenge, purpose, services.clock.now())
    if not known:
        raise ApiError(
            400,
            "stale_challenge",
            "That passkey request expired or was already answered: please try again.",
        )
    return base64url_to_bytes(challenge), player_id


async def hand_out(services: Services, challenge: bytes, purpose: str, player: int | None) -> None:
    await services.limits.tidy()
    now = services.clock.now()
    await save_challenge(
        services.db,
        bytes_to_base64url(challenge),
        purpose,
        player,
        now=now,
        expires_at=now + CHALLENGE_LIFE,
    )


def passkey_label(raw: str) -> str:
    try:
        return clean_text(raw, what="label", longest=64)
    except UnfitText as unfit:
        raise ApiError(422, "invalid_request", str(unfit)) from None


def known_transports(claimed: object) -> list[str]:
    """The transports a browser named for a new passkey, those WebAuthn knows only."""
    if not isinstance(claimed, list):
        return []
    return sorted({t for t in claimed if isinstance(t, str) and t in TRANSPORTS})


async def account_needed(services: Services, player_id: int) -> AccountRecord:
    account = await account_of(services.db, player_id)
    if account is None:
        raise ApiError(404, "no_account", "Create an account first: passkeys belong to accounts.")
    return account


async def proven_lately(
    services: Services,
    request: Request,
    caller: Caller,
    account: AccountRecord,
    password: str | None,
) -> None:
    """Refuse (403) to add a passkey unless this device signed in lately or the password came
    with the request (checked, and counted, as a sign-in's)."""
    if password is not None:
        if await password_checked(services, request, account.username, password) is None:
            raise ApiError(403, "wrong_password", "That password is not right.")
        return
    at = await signed_in_at(services.db, caller.session_id)
    lately = timedelta(seconds=services.settings.reauth_seconds)
    if at is None or services.clock.now() - at > lately:
        raise ApiError(
            403,
            "password_needed",
            "Type your password to add a passkey: this device has not signed in lately.",
        )


@router.post("/registration/options")
async def registration_options(
    request: Request,
    caller: CallerDep,
    services: ServicesDep,
    body: Reauthentication | None = None,
) -> dict[str, Any]:
    player = caller.player
    account = await account_needed(services, player.id)
    await proven_lately(services, request, caller, account, body.password if body else None)
    await within_limit(services.limits.challenge(client_key(request)), TOO_MANY_CHALLENGES)
    rp_id, _ = relying_party(request, services.settings)
    known = await passkeys_of(services.db, player.id)
    options = generate_registration_options(
        rp_id=rp_id,
        rp_name=services.settings.rp_name,
        user_name=account.username,
        user_id=account.user_handle.encode(),
        user_display_name=account.name,
        exclude_credentials=[
            PublicKeyCredentialDescriptor(id=base64url_to_bytes(p.credential_id)) for p in known
        ],
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED,
            user_verification=UserVerificationRequirement.REQUIRED,
        ),
    )
    await hand_out(services, options.challenge, REGISTER, player.id)
    return json.loads(options_to_json(options))


@router.post("/registration", status_code=201)
async def register(
    body: NewPasskey, request: Request, player: PlayerDep, services: ServicesDep
) -> dict[str, object]:
    await account_needed(services, player.id)
    challenge, owner = await use_challenge(services, body.credential, REGISTER)
    if owner != player.id:
        raise ApiError(400, "stale_challenge", "That passkey request was not yours: try again.")
    rp_id, origin = relying_party(request, services.settings)
    try:
        verified = verify_registration_response(
            credential=body.credential,
            expected_challenge=challenge,
            expected_rp_id=rp_id,
            expected_origin=origin,
            require_user_verification=True,
        )
    except (WebAuthnException, ValueError, KeyError, TypeError):
        raise ApiError(
            400, "bad_credential", "The new passkey could not be checked: please try again."
        ) from None
    if len(verified.credential_id) > LONGEST_CREDENTIAL_ID:
        raise ApiError(
            400,
            "bad_credential",
            f"That passkey's id is longer than WebAuthn allows ({LONGEST_CREDENTIAL_ID} bytes).",
        )
    transports = body.credential["response"].get("transports")
    try:
        added = await add_passkey(
            services.db,
            player.id,
            bytes_to_base64url(verified.credential_id),
            bytes_to_base64url(verified.credential_public_key),
            verified.sign_count,
            known_transports(transports),
            services.clock.now(),
            passkey_label(body.label) if body.label else device_label(request),
        )
    except KnownPasskey:
        raise ApiError(409, "known_passkey", "That passkey is added already.") from None
    return added.to_json()


@router.post("/authentication/options")
async def authentication_options(
    body: SignInOptions, request: Request, services: ServicesDep
) -> dict[str, Any]:
    await within_limit(services.limits.challenge(client_key(request)), TOO_MANY_CHALLENGES)
    rp_id, _ = relying_party(request, services.settings)
    options = generate_authentication_options(
        rp_id=rp_id, user_verification=UserVerificationRequirement.REQUIRED
    )
    await hand_out(services, options.challenge, AUTHENTICATE, None)
    return json.loads(options_to_json(options))


@router.post("/authentication")
async def authenticate(
    body: Answer, request: Request, response: Response, services: ServicesDep
) -> dict[str, object]:
    challenge, _ = await use_challenge(services, body.credential, AUTHENTICATE)
    credential_id = body.credential.get("id")
    passkey = (
        await passkey_by_credential(services.db, credential_id)
        if isinstance(credential_id, str) and CREDENTIAL_ID.fullmatch(credential_id)
        else None
    )
    refused = ApiError(401, "bad_credentials", "That passkey does not belong to an account here.")
    if passkey is None:
        raise refused
    rp_id, origin = relying_party(request, services.settings)
    try:
        verified = verify_authentication_response(
            credential=body.credential,
            expected_challenge=challenge,
            expected_rp_id=rp_id,
            expected_origin=origin,
            credential_public_key=base64url_to_bytes(passkey.public_key),
            credential_current_sign_count=passkey.sign_count,
            require_user_verification=True,
        )
    except (WebAuthnException, ValueError, KeyError, TypeError):
        raise refused from None
    await passkey_used(services.db, passkey.id, verified.new_sign_count, services.clock.now())
    account = await account_needed(services, passkey.player_id)
    return await sign_in_as(account, request, response, services)


@router.get("")
async def list_passkeys(player: PlayerDep, services: ServicesDep) -> list[dict[str, object]]:
    return [p.to_json() for p in await passkeys_of(services.db, player.id)]


@router.delete("/{passkey_id}", status_code=204, response_class=Response)
async def delete_passkey(passkey_id: PathId, player: PlayerDep, services: ServicesDep) -> None:
    if not await remove_passkey(services.db, player.id, passkey_id):
        raise ApiError(404, "not_found", "You have no such passkey.")
