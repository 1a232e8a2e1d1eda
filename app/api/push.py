"""Web Push subscriptions: the key browsers subscribe with, and each browser's subscription
(``PushSubscription.toJSON()``), kept only when its endpoint is at a known push service."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Response
from pydantic import BaseModel, ConfigDict, StringConstraints

from app.api.deps import PlayerDep, ServicesDep
from app.api.errors import ApiError
from app.api.params import PathId
from app.db.notifications import subscribe, unsubscribe
from app.notify.push import is_auth_secret, is_client_key

router = APIRouter(prefix="/api/push", tags=["push"])


class SubscriptionKeys(BaseModel):
    p256dh: Annotated[str, StringConstraints(max_length=100)]
    auth: Annotated[str, StringConstraints(max_length=40)]


class NewSubscription(BaseModel):
    model_config = ConfigDict(extra="ignore")  # toJSON() has expirationTime too

    endpoint: Annotated[str, StringConstraints(max_length=1024)]
    keys: SubscriptionKeys


@router.get("/key")
async def push_key(services: ServicesDep) -> dict[str, str]:
    return {"public_key": services.channels.public_key}


@router.post("/subscriptions", status_code=201)
async def add_subscription(
    body: NewSubscription, player: PlayerDep, services: ServicesDep
) -> dict[str, int]:
    if not services.channels.origins.allows(body.endpoint):
        raise ApiError(
            422, "unknown_push_service", "That endpoint is not at a push service this site knows."
        )
    if not is_client_key(body.keys.p256dh) or not is_auth_secret(body.keys.auth):
        raise ApiError(
            422,
            "invalid_subscription",
            "keys.p256dh must be a P-256 public key and keys.auth 16 bytes, both base64url.",
        )
    now = services.clock.now()
    stored = await subscribe(
        services.db, player.id, body.endpoint, body.keys.p256dh, body.keys.auth, now
    )
    return {"id": stored}


@router.delete("/subscriptions/{subscription_id}", status_code=204, response_class=Response)
async def remove_subscription(
    subscription_id: PathId, player: PlayerDep, services: ServicesDep
) -> None:
    if not await unsubscribe(services.db, player.id, subscription_id):
        raise ApiError(404, "not_found", "You have no push subscription of that number.")
