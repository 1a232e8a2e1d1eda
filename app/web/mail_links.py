"""The links in mail, which work without a sign-in (each is signed, ``app/notify/tokens.py``):
``/email/verify`` confirms an address; ``/email/unsubscribe`` stops the player's mail, at one
click (RFC 8058: the mail program posts ``List-Unsubscribe=One-Click``; a person who opens it
gets a page with the button, since a GET must not unsubscribe: link checkers open links)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse

from app.db.notifications import settings_of, stop_mail, verify_address
from app.notify.mail import UNSUBSCRIBE_PATH, VERIFY_FOR, VERIFY_PATH
from app.web.pages import services_of, templates

router = APIRouter(include_in_schema=False, default_response_class=HTMLResponse)

Token = Annotated[str, Query(max_length=200)]
NOT_OURS = "This link is not one of ours, or it was cut short: open it from the mail again."


def said(request: Request, heading: str, sentence: str, status: int = 200) -> HTMLResponse:
    return templates.TemplateResponse(
        request,
        "mail_link.html",
        {"page": "mail_link", "heading": heading, "sentence": sentence},
        status_code=status,
    )


@router.api_route(VERIFY_PATH, methods=["GET", "HEAD"])
async def verify_email(request: Request, token: Token = "") -> HTMLResponse:
    services = services_of(request)
    parts = services.channels.links.check("verify", token)
    if parts is None or len(parts) != 2 or not parts[0].isdigit():
        return said(request, "Not confirmed", NOT_OURS, 400)
    player_id, nonce = int(parts[0]), parts[1]
    sent = (await settings_of(services.db, player_id)).verify_sent_at
    fresh = sent is not None and services.clock.now() < sent + VERIFY_FOR
    if not fresh or not await verify_address(services.db, player_id, nonce):
        return said(
            request,
            "Not confirmed",
            "This link was used already, or it is too old, or another address was set since. "
            "Set the address again on your account page for a new link.",
            410,
        )
    return said(request, "Address confirmed", "From now on cardroom may tell you by mail.")


def unsubscribing(token: str, request: Request) -> int | None:
    parts = services_of(request).channels.links.check("unsubscribe", token)
    return int(parts[0]) if parts and len(parts) == 1 and parts[0].isdigit() else None


@router.api_route(UNSUBSCRIBE_PATH, methods=["GET", "HEAD"])
async def unsubscribe_page(request: Request, token: Token = "") -> HTMLResponse:
    if unsubscribing(token, request) is None:
        return said(request, "No such link", NOT_OURS, 400)
    return templates.TemplateResponse(
        request, "unsubscribe.html", {"page": "mail_link", "token": token}
    )


@router.post(UNSUBSCRIBE_PATH)
async def unsubscribe(request: Request, token: Token = "") -> HTMLResponse:
    player_id = unsubscribing(token, request)
    if player_id is None:
        return said(request, "No such link", NOT_OURS, 400)
    await stop_mail(services_of(request).db, player_id)
    return said(request, "Unsubscribed", "cardroom sends you no more mail.")
