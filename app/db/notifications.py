"""Notifications' data: server keys, each player's settings and address, push subscriptions,
and the notices sent (``turn_notices``: each once, a mail's gathering among them).

A mail *round* is one mail of a player's: the notices waiting when a mail goes are marked with
its round, the settings row counts rounds (``mail_round``) and stamps the last one
(``mail_sent_at``). Whoever schedules or gathers a player's mail first writes that row
(:func:`lock_settings`), so on Postgres they take turns on its row lock and on SQLite on the
database's write lock: a notice is either in a round's mail or waits for the next round.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app.db.models import NotificationSettings as SettingsRow
from app.db.models import PushSubscription, ServerKey, TurnNoticeRow
from app.db.upsert import upsert
from app.timestamps import aware

KEPT = timedelta(days=7)
"""How long a notice sent is remembered (a notice scheduled again within it is not sent)."""


async def server_key(db: AsyncEngine, name: str, make: Callable[[], str]) -> str:
    """The deployment's key ``name``, made by ``make`` the first time any process asks."""
    async with db.begin() as conn:
        await conn.execute(
            upsert(conn, ServerKey)
            .values(name=name, value=make())
            .on_conflict_do_nothing(index_elements=["name"])
        )
        return (await conn.execute(select(ServerKey.value).where(ServerKey.name == name))).one()[0]


@dataclass(frozen=True)
class Settings:
    """A player's notification settings; a player who set nothing has the defaults."""

    push: bool = True
    email: str = "off"
    address: str | None = None
    verified: bool = False
    verify_nonce: str | None = None
    verify_sent_at: datetime | None = None
    mail_round: int = 0
    mail_sent_at: datetime | None = None

    @property
    def mails(self) -> bool:
        """Whether notices go to the player's mail: asked for, to an address verified."""
        return self.email != "off" and self.verified and self.address is not None


_COLUMNS = (
    SettingsRow.push,
    SettingsRow.email,
    SettingsRow.address,
    SettingsRow.verified,
    SettingsRow.verify_nonce,
    SettingsRow.verify_sent_at,
    SettingsRow.mail_round,
    SettingsRow.mail_sent_at,
)


def _settings(row: Any) -> Settings:
    push, email, address, verified, nonce, verify_sent, mail_round, mail_sent = row
    return Settings(
        push,
        email,
        address,
        verified,
        nonce,
        aware(verify_sent) if verify_sent else None,
        mail_round,
        aware(mail_sent) if mail_sent else None,
    )


async def settings_of(db: AsyncEngine, player_id: int) -> Settings:
    async with db.connect() as conn:
        row = (
            await conn.execute(select(*_COLUMNS).where(SettingsRow.player_id == player_id))
        ).first()
    return _settings(row) if row is not None else Settings()


async def lock_settings(conn: AsyncConnection, player_id: int) -> Settings | None:
    """The player's settings, their row written (unchanged) first so that whoever else
    schedules or gathers this player's mail waits for this transaction; None for a player
    who set nothing."""
    row = (
        await conn.execute(
            update(SettingsRow)
            .where(SettingsRow.player_id == player_id)
            .values(mail_round=SettingsRow.mail_round)
            .returning(*_COLUMNS)
        )
    ).first()
    return _settings(row) if row is not None else None


async def _save(conn: AsyncConnection, player_id: int, **values: Any) -> None:
    await conn.execute(
        upsert(conn, SettingsRow)
        .values(player_id=player_id, **values)
        .on_conflict_do_update(index_elements=["player_id"], set_=values)
    )


async def _forget_waiting_mail(conn: AsyncConnection, player_id: int) -> None:
    """Notices waiting for a mail that will not go (mail stopped, or another address)."""
    await conn.execute(
        update(TurnNoticeRow)
        .where(TurnNoticeRow.player_id == player_id, TurnNoticeRow.mail_waits)
        .values(mail_waits=False)
    )


async def save_preferences(db: AsyncEngine, player_id: int, *, push: bool, email: str) -> Settings:
    async with db.begin() as conn:
        await _save(conn, player_id, push=push, email=email)
        if email == "off":
            await _forget_waiting_mail(conn, player_id)
    return await settings_of(db, player_id)


async def set_address(
    conn: AsyncConnection, player_id: int, address: str, nonce: str, now: datetime
) -> None:
    """A new address, unverified until the link signing ``nonce`` is followed."""
    await _save(
        conn, player_id, address=address, verified=False, verify_nonce=nonce, verify_sent_at=now
    )
    await _forget_waiting_mail(conn, player_id)


async def verify_address(db: AsyncEngine, player_id: int, nonce: str) -> bool:
    """Whether the link of ``nonce`` was the player's pending one; it verifies the address,
    once."""
    async with db.begin() as conn:
        verified = await conn.execute(
            update(SettingsRow)
            .where(SettingsRow.player_id == player_id, SettingsRow.verify_nonce == nonce)
            .values(verified=True, verify_nonce=None)
        )
    return verified.rowcount == 1


async def stop_mail(db: AsyncEngine, player_id: int) -> None:
    """The player unsubscribed: no more mail (an unknown player changes nothing)."""
    async with db.begin() as conn:
        await conn.execute(
            update(SettingsRow).where(SettingsRow.player_id == player_id).values(email="off")
        )
        await _forget_waiting_mail(conn, player_id)


@dataclass(frozen=True)
class Subscription:
    id: int
    player_id: int
    endpoint: str
    p256dh: str
    auth: str


_SUBSCRIPTION = (
    PushSubscription.id,
    PushSubscription.player_id,
    PushSubscription.endpoint,
    PushSubscription.p256dh,
    PushSubscription.auth,
)


async def subscribe(
    db: AsyncEngine, player_id: int, endpoint: str, p256dh: str, auth: str, now: datetime
) -> int:
    """Keep a browser's subscription for the player (a browser subscribed before, maybe for
    another player, is now this one's): its id."""
    values = {"player_id": player_id, "p256dh": p256dh, "auth": auth, "created_at": now}
    async with db.begin() as conn:
        stored = await conn.execute(
            upsert(conn, PushSubscription)
            .values(endpoint=endpoint, **values)
            .on_conflict_do_update(index_elements=["endpoint"], set_=values)
            .returning(PushSubscription.id)
        )
        return stored.scalar_one()


async def unsubscribe(db: AsyncEngine, player_id: int, subscription_id: int) -> bool:
    """Whether the player had that subscription; it is gone."""
    async with db.begin() as conn:
        removed = await conn.execute(
            delete(PushSubscription).where(
                PushSubscription.id == subscription_id, PushSubscription.player_id == player_id
            )
        )
    return removed.rowcount == 1


async def subscriptions_of(conn: AsyncConnection, player_id: int) -> list[Subscription]:
    found = await conn.execute(
        select(*_SUBSCRIPTION)
        .where(PushSubscription.player_id == player_id)
        .order_by(PushSubscription.id)
    )
    return [Subscription(*row) for row in found]


async def subscription(db: AsyncEngine, subscription_id: int) -> Subscription | None:
    async with db.connect() as conn:
        row = (
            await conn.execute(select(*_SUBSCRIPTION).where(PushSubscription.id == subscription_id))
        ).first()
    return Subscription(*row) if row is not None else None


async def drop_subscription(db: AsyncEngine, subscription_id: int) -> None:
    """The push service said the subscription is gone (404, 410)."""
    async with db.begin() as conn:
        await conn.execute(delete(PushSubscription).where(PushSubscription.id == subscription_id))


async def note_notice(
    conn: AsyncConnection,
    player_id: int,
    key: str,
    notice: dict[str, Any],
    now: datetime,
    *,
    mail: bool,
) -> bool:
    """Remember a notice (waiting for the next mail when ``mail``): False if it was noted
    before, within :data:`KEPT`, and so must not be sent again."""
    noted = await conn.execute(
        upsert(conn, TurnNoticeRow)
        .values(player_id=player_id, key=key, notice=notice, created_at=now, mail_waits=mail)
        .on_conflict_do_nothing(index_elements=["key"])
        .returning(TurnNoticeRow.id)
    )
    return noted.first() is not None


async def forget_old_notices(conn: AsyncConnection, now: datetime) -> None:
    """Notices older than :data:`KEPT`, none waiting for a mail any more."""
    await conn.execute(
        delete(TurnNoticeRow).where(
            TurnNoticeRow.created_at < now - KEPT, TurnNoticeRow.mail_waits.is_(False)
        )
    )


async def open_round(conn: AsyncConnection, player_id: int, mail_round: int, now: datetime) -> int:
    """Round ``mail_round`` of the player's mail takes every notice waiting for it, and the
    next round begins (stamped ``now``): how many it took. Call it after
    :func:`lock_settings`, in that transaction; a round that takes nothing begins nothing."""
    taken = await conn.execute(
        update(TurnNoticeRow)
        .where(
            TurnNoticeRow.player_id == player_id,
            TurnNoticeRow.mail_waits,
            TurnNoticeRow.mail_round.is_(None),
        )
        .values(mail_round=mail_round)
    )
    if taken.rowcount:
        await conn.execute(
            update(SettingsRow)
            .where(SettingsRow.player_id == player_id, SettingsRow.mail_round == mail_round)
            .values(mail_round=mail_round + 1, mail_sent_at=now)
        )
    return taken.rowcount


async def gathered(conn: AsyncConnection, player_id: int, mail_round: int) -> list[dict[str, Any]]:
    """The notices round ``mail_round`` took and has not sent yet, oldest first."""
    found = await conn.execute(
        select(TurnNoticeRow.notice)
        .where(
            TurnNoticeRow.player_id == player_id,
            TurnNoticeRow.mail_waits,
            TurnNoticeRow.mail_round == mail_round,
        )
        .order_by(TurnNoticeRow.id)
    )
    return list(found.scalars())


async def mailed(db: AsyncEngine, player_id: int, mail_round: int) -> None:
    """Round ``mail_round``'s mail went: its notices wait no more."""
    async with db.begin() as conn:
        await conn.execute(
            update(TurnNoticeRow)
            .where(TurnNoticeRow.player_id == player_id, TurnNoticeRow.mail_round == mail_round)
            .values(mail_waits=False)
        )
