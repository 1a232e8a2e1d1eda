"""The one call the turn-based side makes: :meth:`Notifier.your_turn`."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from sqlalchemy.ext.asyncio import AsyncConnection

from app.db import jobs
from app.db.notifications import (
    Settings,
    forget_old_notices,
    lock_settings,
    note_notice,
    subscriptions_of,
)
from app.notify.mail import MAIL, mail_due, mail_job_key
from app.rooms.ports import TurnNotice

PUSH = "push"
TIDY_EVERY = timedelta(hours=1)


class Notifier:
    def __init__(self, now: Callable[[], datetime]) -> None:
        self.now = now
        self._tidied: datetime | None = None

    async def your_turn(self, conn: AsyncConnection, notice: TurnNotice) -> None:
        """Schedule, in the caller's transaction, the notice's jobs for the player's channels:
        a ``push`` job per subscription of theirs (with push on), and their next ``mail``
        (with mail on, to a verified address). A notice scheduled again (the same player,
        kind, match and move) within a week schedules nothing: it is sent once."""
        now = self.now()
        settings = await lock_settings(conn, notice.player_id) or Settings()
        subscriptions = await subscriptions_of(conn, notice.player_id) if settings.push else []
        if not subscriptions and not settings.mails:
            return
        payload = notice.to_json()
        if not await note_notice(
            conn, notice.player_id, notice.key, payload, now, mail=settings.mails
        ):
            return
        for to in subscriptions:
            key = f"push:{to.id}:{notice.key}"
            await jobs.schedule(conn, PUSH, key, now, {"subscription_id": to.id, "notice": payload})
        if settings.mails:
            due = mail_due(settings, now)
            key = mail_job_key(notice.player_id, settings.mail_round, due)
            mail_round = {"player_id": notice.player_id, "round": settings.mail_round}
            await jobs.schedule(conn, MAIL, key, due, mail_round)
        if self._tidied is None or now - self._tidied >= TIDY_EVERY:
            self._tidied = now
            await forget_old_notices(conn, now)
