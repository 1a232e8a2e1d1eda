"""Mail's gathering (app/notify/mail.py) in process on a real database, on a ManualClock, with a
real SMTP server: at most one mail per player per 15 minutes, the turns that come due meanwhile
gathered into the next one; a notice scheduled twice mailed once; two processes running the
due jobs at once send each mail once."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from sqlalchemy import insert
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.engine import make_engine
from app.db.migrate import upgrade_to_head
from app.db.models import NotificationSettings, Player
from app.jobs import JobRunner
from app.notify.mail import MAIL, Mailer, SmtpServer
from app.notify.notifier import Notifier
from app.notify.tokens import LinkSigner
from app.rooms.clock import ManualClock
from app.rooms.ports import TurnNotice
from tests.support.server import run_on_own_loop
from tests.support.smtp import Inbox, smtp_server, text_of

START = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
ADDRESS = "ada@example.com"


async def mailed_player(db: AsyncEngine, email: str = "each_turn") -> int:
    async with db.begin() as conn:
        player_id = (
            await conn.execute(
                insert(Player)
                .values(name="Ada", token_hash="t" * 64, created_at=START)
                .returning(Player.id)
            )
        ).scalar_one()
        await conn.execute(
            insert(NotificationSettings).values(
                player_id=player_id, push=True, email=email, address=ADDRESS, verified=True
            )
        )
    return player_id


def runner(db: AsyncEngine, clock: ManualClock, smtp_port: int) -> JobRunner:
    smtp = SmtpServer("127.0.0.1", smtp_port, None, None)
    mailer = Mailer(db, clock.now, smtp, "turns@cardroom.test", "https://c.test", LinkSigner("k"))
    return JobRunner(db, clock, {MAIL: mailer.send_gathered})


def notice(player_id: int, seq: int, mover: str) -> TurnNotice:
    return TurnNotice(player_id, "room1", 3, "abstrac", "ABSTRAC", mover, None, "your_turn", seq)


async def tell(db: AsyncEngine, notifier: Notifier, *notices: TurnNotice) -> None:
    async with db.begin() as conn:
        for one in notices:
            await notifier.your_turn(conn, one)


def test_turns_within_15_minutes_of_a_mail_are_gathered_into_the_next_one(
    database_url: str,
) -> None:
    clock = ManualClock(START)
    notifier = Notifier(clock.now)

    async def scenario(inbox: Inbox, port: int) -> None:
        db = make_engine(database_url)
        try:
            await upgrade_to_head(db)
            player = await mailed_player(db)
            jobs = runner(db, clock, port)
            await tell(db, notifier, notice(player, 1, "Grace"))
            assert await jobs.run_due() == 1
            assert [m["Subject"] for m in inbox.mails] == ["Your turn at ABSTRAC"]
            await clock.advance(60)
            await tell(db, notifier, notice(player, 3, "Linus"))
            await clock.advance(5 * 60)
            await tell(db, notifier, notice(player, 5, "Barbara"), notice(player, 3, "Linus"))
            assert await jobs.run_due() == 0  # 6 minutes after the mail: the next one waits
            await clock.advance(9 * 60 - 1)
            assert await jobs.run_due() == 0
            await clock.advance(1)  # 15 minutes after the first mail
            assert await jobs.run_due() == 1
            assert len(inbox.mails) == 2
            gathered = inbox.mails[1]
            assert gathered["Subject"] == "2 turns wait for you"
            text = text_of(gathered)
            assert text.count("Linus moved.") == 1 and "Barbara moved." in text
            assert "Grace" not in text
            await clock.advance(20 * 60)  # long after: the next turn is mailed at once
            await tell(db, notifier, notice(player, 7, "Edsger"))
            assert await jobs.run_due() == 1
            assert "Edsger moved." in text_of(inbox.mails[2])
        finally:
            await db.dispose()

    with smtp_server() as (inbox, port):
        run_on_own_loop(scenario(inbox, port))


def test_two_processes_running_the_due_mail_at_once_send_it_once(database_url: str) -> None:
    clock = ManualClock(START)
    notifier = Notifier(clock.now)

    async def scenario(inbox: Inbox, port: int) -> list[int]:
        engines = [make_engine(database_url) for _ in range(2)]
        try:
            await upgrade_to_head(engines[0])
            player = await mailed_player(engines[0], "daily")
            runners = [runner(db, clock, port) for db in engines]
            await tell(engines[0], notifier, notice(player, 1, "Grace"))
            assert await runners[0].run_due() == 1
            # each process schedules the same next turns: the daily window gathers them
            await clock.advance(60)
            for db in engines:
                await tell(db, notifier, notice(player, 2, "Linus"), notice(player, 4, "Ken"))
            await clock.advance(24 * 3600)
            return list(await asyncio.gather(*(r.run_due() for r in runners)))
        finally:
            for db in engines:
                await db.dispose()

    with smtp_server() as (inbox, port):
        ran = run_on_own_loop(scenario(inbox, port))
        assert sum(ran) >= 1  # the gathered mail's job ran (each process may have one)
        subjects = [mail["Subject"] for mail in inbox.mails]
        assert subjects == ["Your turn at ABSTRAC", "2 turns wait for you"]
