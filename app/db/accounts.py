"""Accounts: a player claimed with a username and a password (its Argon2id hash only)."""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass

from sqlalchemy import insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.models import Account, Player
from app.db.sessions import end_sessions, mark_signed_in
from app.timestamps import utcnow


class AlreadyClaimed(Exception):
    """The player has an account already."""


class UsernameTaken(Exception):
    """Another account has that username (in any case)."""


@dataclass(frozen=True)
class AccountRecord:
    player_id: int
    name: str
    username: str
    password_hash: str
    user_handle: str


USERNAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{2,23}")


def is_username(text: str) -> bool:
    """Whether ``text`` may be a username: 3 to 24 ASCII letters, digits, ``.``, ``-``, ``_``,
    the first a letter or a digit. Nothing else can name an account, so nothing else is
    looked up."""
    return USERNAME.fullmatch(text) is not None


def username_key(username: str) -> str:
    """What makes usernames the same: ``Ada`` and ``ada`` are one."""
    return username.casefold()


_COLUMNS = (Account.player_id, Player.name, Account.username, Account.password_hash)


async def claim(db: AsyncEngine, player_id: int, username: str, password_hash: str) -> None:
    """Give ``player_id`` an account. Raises :class:`AlreadyClaimed` or :class:`UsernameTaken`
    with nothing written."""
    try:
        async with db.begin() as conn:
            mine = await conn.execute(
                select(Account.player_id).where(Account.player_id == player_id)
            )
            if mine.first() is not None:
                raise AlreadyClaimed
            await conn.execute(
                insert(Account).values(
                    player_id=player_id,
                    username=username,
                    username_key=username_key(username),
                    password_hash=password_hash,
                    user_handle=secrets.token_urlsafe(32),
                    created_at=utcnow(),
                )
            )
    except IntegrityError:
        if await account_of(db, player_id) is not None:
            raise AlreadyClaimed from None
        raise UsernameTaken from None


async def _one(db: AsyncEngine, *where: object) -> AccountRecord | None:
    async with db.connect() as conn:
        row = (
            await conn.execute(
                select(*_COLUMNS, Account.user_handle)
                .join(Player, Player.id == Account.player_id)
                .where(*where)  # type: ignore[arg-type]
            )
        ).first()
    return AccountRecord(*row) if row else None


async def account_by_username(db: AsyncEngine, username: str) -> AccountRecord | None:
    if not is_username(username):
        return None
    return await _one(db, Account.username_key == username_key(username))


async def account_of(db: AsyncEngine, player_id: int) -> AccountRecord | None:
    return await _one(db, Account.player_id == player_id)


async def account_by_handle(db: AsyncEngine, user_handle: str) -> AccountRecord | None:
    return await _one(db, Account.user_handle == user_handle)


async def set_password(
    db: AsyncEngine, player_id: int, password_hash: str, *, keep_session: int
) -> list[str]:
    """Replace the password and end every other session of the player, in one transaction
    (the one kept has just proved who it is): the token hashes of the sessions ended."""
    async with db.begin() as conn:
        await conn.execute(
            update(Account)
            .where(Account.player_id == player_id)
            .values(password_hash=password_hash)
        )
        await mark_signed_in(conn, keep_session)
        return await end_sessions(conn, player_id, keep=keep_session)
