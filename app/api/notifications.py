"""How a player is told it is their turn: ``GET``/``PUT /api/account/notifications`` (push on
or off; mail off, for each turn or daily) and ``PUT /api/account/email`` (an account's address,
mailed a link that verifies it; only a verified address gets mail). Guests have push only."""

from __future__ import annotations

import re
import secrets
from datetime import timedelta
from typing import Annotated, Any, Literal

from fastapi import APIRouter
from pydantic import BaseModel, StringConstraints

from app.api.deps import PlayerDep, ServicesDep
from app.api.errors import ApiError
from app.db import jobs
from app.db.accounts import account_of
from app.db.notifications import Settings, save_preferences, set_address, settings_of
from app.notify.mail import VERIFY_MAIL
from app.services import Services

router = APIRouter(prefix="/api/account", tags=["notifications"])

ADDRESS = re.compile(r"[^@\s\x00-\x1f\x7f]+@[^@\s\x00-\x1f\x7f]+\.[^@\s\x00-\x1f\x7f.]+")
RESEND_AFTER = timedelta(minutes=1)  # one verification mail a minute per player


class Preferences(BaseModel):
    push: bool
    email: Literal["off", "each_turn", "daily"]


class NewAddress(BaseModel):
    email: Annotated[str, StringConstraints(strip_whitespace=True, max_length=254)]


def answer(settings: Settings, services: Services) -> dict[str, Any]:
    return {
        "push": settings.push,
        "email": settings.email,
        "email_address": settings.address,
        "email_verified": settings.verified,
        "mail_available": services.channels.mailer is not None,
    }


async def refuse_guests(services: Services, player_id: int, what: str) -> None:
    if await account_of(services.db, player_id) is None:
        raise ApiError(403, "account_needed", f"Create an account first: {what}.")


def refuse_without_mail(services: Services) -> None:
    if services.channels.mailer is None:
        raise ApiError(409, "no_mail", "This site sends no mail.")


@router.get("/notifications")
async def preferences(player: PlayerDep, services: ServicesDep) -> dict[str, Any]:
    return answer(await settings_of(services.db, player.id), services)


@router.put("/notifications")
async def set_preferences(
    body: Preferences, player: PlayerDep, services: ServicesDep
) -> dict[str, Any]:
    if body.email != "off":
        await refuse_guests(services, player.id, "a guest is told by push only, not by mail")
        refuse_without_mail(services)
    saved = await save_preferences(services.db, player.id, push=body.push, email=body.email)
    return answer(saved, services)


@router.put("/email", status_code=202)
async def set_email(body: NewAddress, player: PlayerDep, services: ServicesDep) -> dict[str, Any]:
    await refuse_guests(services, player.id, "mail goes to accounts only")
    refuse_without_mail(services)
    if len(body.email) < 3 or not ADDRESS.fullmatch(body.email):
        raise ApiError(422, "invalid_email", "That is not a mail address like ada@example.com.")
    now = services.clock.now()
    sent = (await settings_of(services.db, player.id)).verify_sent_at
    if sent is not None and now < sent + RESEND_AFTER:
        wait = int((sent + RESEND_AFTER - now).total_seconds()) + 1
        raise ApiError(
            429,
            "rate_limited",
            "A confirmation mail went a moment ago: wait a minute before asking again.",
            {"Retry-After": str(wait)},
        )
    nonce = secrets.token_hex(16)
    async with services.db.begin() as conn:
        await set_address(conn, player.id, body.email, nonce, now)
        payload = {"player_id": player.id, "nonce": nonce}
        await jobs.schedule(conn, VERIFY_MAIL, f"verify:{player.id}:{nonce}", now, payload)
    services.jobs.wake()
    return answer(await settings_of(services.db, player.id), services)
