"""Mail: the ``mail`` jobs' handler (a player's turns gathered, one mail per window), the
``verify_mail`` jobs' handler (the link that verifies an address), sent by SMTP with
aiosmtplib (STARTTLS when the server offers it).

At most one mail goes to a player per :data:`MAIL_EVERY` window (15 minutes for
``each_turn``, a day for ``daily``): a notice waits for its player's next round
(``app/db/notifications.py``), and the round's job is due when the window since the last mail
has passed. Every mail carries a one-click unsubscribe link (RFC 8058) that needs no sign-in.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from urllib.parse import unquote, urlencode, urlsplit

import aiosmtplib
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db import jobs
from app.db.jobs import Job
from app.db.notifications import (
    Settings,
    gathered,
    lock_settings,
    mailed,
    open_round,
    settings_of,
)
from app.notify.tokens import LinkSigner
from app.notify.words import details, headline, room_path
from app.rooms.ports import TurnNotice

log = logging.getLogger(__name__)

MAIL = "mail"
VERIFY_MAIL = "verify_mail"
MAIL_EVERY = {"each_turn": timedelta(minutes=15), "daily": timedelta(days=1)}
VERIFY_FOR = timedelta(days=2)  # how long a verification link works
VERIFY_PATH = "/email/verify"
UNSUBSCRIBE_PATH = "/email/unsubscribe"


def mail_due(settings: Settings, now: datetime) -> datetime:
    """When the player's next mail may go: now, or a window after the last one."""
    if settings.mail_sent_at is None:
        return now
    return max(now, settings.mail_sent_at + MAIL_EVERY[settings.email])


def mail_job_key(player_id: int, mail_round: int, due: datetime) -> str:
    return f"mail:{player_id}:{mail_round}:{int(due.timestamp())}"


@dataclass(frozen=True)
class SmtpServer:
    host: str
    port: int
    username: str | None
    password: str | None

    @classmethod
    def from_url(cls, url: str) -> SmtpServer:
        """``smtp://[user[:password]@]host[:port]``; ValueError for anything else."""
        parts = urlsplit(url)
        try:
            port = parts.port or 25
        except ValueError as error:
            raise ValueError(f"the SMTP URL's port is not a number: {url!r}") from error
        if parts.scheme != "smtp" or not parts.hostname or parts.path not in ("", "/"):
            raise ValueError("an SMTP URL is smtp://[user[:password]@]host[:port]")
        user = unquote(parts.username) if parts.username else None
        password = unquote(parts.password) if parts.password else None
        return cls(parts.hostname, port, user, password)


class Mailer:
    def __init__(
        self,
        db: AsyncEngine,
        now: Callable[[], datetime],
        smtp: SmtpServer,
        sender: str,
        site: str,
        links: LinkSigner,
    ) -> None:
        self.db, self.now, self.smtp = db, now, smtp
        self.sender, self.site, self.links = sender, site.rstrip("/"), links

    def link(self, path: str, token: str) -> str:
        return f"{self.site}{path}?{urlencode({'token': token})}"

    def verify_link(self, player_id: int, nonce: str) -> str:
        return self.link(VERIFY_PATH, self.links.sign("verify", player_id, nonce))

    def unsubscribe_link(self, player_id: int) -> str:
        return self.link(UNSUBSCRIBE_PATH, self.links.sign("unsubscribe", player_id))

    def compose(self, player_id: int, to: str, subject: str, text: str) -> EmailMessage:
        unsubscribe = self.unsubscribe_link(player_id)
        mail = EmailMessage()
        mail["From"] = self.sender
        mail["To"] = to
        mail["Subject"] = subject
        mail["Date"] = format_datetime(self.now())
        mail["Message-ID"] = make_msgid(domain=self.sender.rpartition("@")[2] or None)
        mail["List-Unsubscribe"] = f"<{unsubscribe}>"
        mail["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
        mail.set_content(f"{text}\n\n-- \nNo more mail from cardroom: {unsubscribe}\n")
        return mail

    async def deliver(self, mail: EmailMessage) -> None:
        await aiosmtplib.send(
            mail,
            hostname=self.smtp.host,
            port=self.smtp.port,
            username=self.smtp.username,
            password=self.smtp.password,
            start_tls=None,  # STARTTLS when the server offers it
            timeout=30,
        )

    async def send_gathered(self, job: Job) -> None:
        """The ``mail`` job: the notices waiting for the player's round, in one mail."""
        player_id, mail_round = job.payload["player_id"], job.payload["round"]
        now = self.now()
        async with self.db.begin() as conn:
            settings = await lock_settings(conn, player_id)
            if settings is None or not settings.mails:
                return  # mail stopped since: its notices were let go
            if settings.mail_round == mail_round:  # else a round taken before, tried again
                due = mail_due(settings, now)
                if due > now:  # the player chose a longer window since
                    key = mail_job_key(player_id, mail_round, due)
                    await jobs.schedule(conn, MAIL, key, due, job.payload)
                    return
                await open_round(conn, player_id, mail_round, now)
            notices = [TurnNotice.from_json(n) for n in await gathered(conn, player_id, mail_round)]
        if not notices:
            return
        assert settings.address is not None  # settings.mails
        await self.deliver(
            self.compose(player_id, settings.address, *gathering(notices, self.site))
        )
        await mailed(self.db, player_id, mail_round)

    async def send_verification(self, job: Job) -> None:
        """The ``verify_mail`` job: the link that verifies the address just set."""
        player_id, nonce = job.payload["player_id"], job.payload["nonce"]
        settings = await settings_of(self.db, player_id)
        if settings.verify_nonce != nonce or settings.address is None:
            return  # verified, or another address set since
        text = (
            "Someone, we hope you, asked cardroom to tell you by mail when it is your turn.\n"
            f"Follow this link to confirm this address (it works for {VERIFY_FOR.days} days):\n"
            f"{self.verify_link(player_id, nonce)}\n\n"
            "If it was not you, do nothing: no mail follows unless the address is confirmed."
        )
        mail = self.compose(player_id, settings.address, "Confirm your address for cardroom", text)
        await self.deliver(mail)


def gathering(notices: list[TurnNotice], site: str) -> tuple[str, str]:
    """A mail's subject and text for the notices it gathers."""
    subject = headline(notices[0]) if len(notices) == 1 else f"{len(notices)} turns wait for you"
    parts = [f"{headline(n)}\n{details(n)}\n{site}{room_path(n)}" for n in notices]
    return subject, "\n\n".join(parts)
