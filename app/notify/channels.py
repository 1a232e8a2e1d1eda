"""The channels a process sends notices by, built once at start from the settings: Web Push
always, mail when ``CARDROOM_SMTP_URL`` names a server."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

import httpx
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.notifications import server_key
from app.jobs import Handler
from app.notify import push, tokens
from app.notify.mail import MAIL, VERIFY_MAIL, Mailer, SmtpServer
from app.notify.notifier import PUSH
from app.notify.origins import PushOrigins
from app.notify.push import Pusher
from app.notify.tokens import LinkSigner
from app.settings import Settings

PUSH_TIMEOUT_S = 10.0


@dataclass
class Channels:
    origins: PushOrigins
    pusher: Pusher
    links: LinkSigner
    mailer: Mailer | None  # None: the site sends no mail

    @classmethod
    async def open(
        cls, db: AsyncEngine, settings: Settings, now: Callable[[], datetime]
    ) -> Channels:
        if settings.vapid_private_key:
            vapid = push.load_key(settings.vapid_private_key)
        else:
            vapid = push.load_key(await server_key(db, push.KEY_NAME, push.new_key))
        origins = PushOrigins(settings.push_endpoint_origins)
        # no redirects: the server posts to the endpoint's push service and nowhere else
        client = httpx.AsyncClient(timeout=PUSH_TIMEOUT_S, follow_redirects=False)
        pusher = Pusher(db, now, origins, vapid, f"mailto:{settings.mail_from}", client)
        links = LinkSigner(await server_key(db, tokens.KEY_NAME, tokens.new_key))
        mailer = None
        if settings.smtp_url:
            smtp = SmtpServer.from_url(settings.smtp_url)
            mailer = Mailer(db, now, smtp, settings.mail_from, settings.site_origin, links)
        return cls(origins, pusher, links, mailer)

    @property
    def public_key(self) -> str:
        return push.public_key(self.pusher.vapid)

    def handlers(self) -> dict[str, Handler]:
        found: dict[str, Handler] = {PUSH: self.pusher.send}
        if self.mailer is not None:
            found[MAIL] = self.mailer.send_gathered
            found[VERIFY_MAIL] = self.mailer.send_verification
        return found

    async def close(self) -> None:
        await self.pusher.client.aclose()
