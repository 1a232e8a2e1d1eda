"""Limits on what a client may try in a window of time, kept in the database so every server
process counts the same attempts: sign-ins (per username and per client address), account
claims (per player and per address), new guests and passkey challenges (per address).

An attempt is stored against the keys it counts for (SHA-256 hashes of ``kind:value``, so
neither a username nor an address is stored as sent) *before* the work it guards is done (a
password hash checked, a username looked up), in a transaction that counts the window with it
and one at a time per key: on Postgres under an advisory lock per key, on SQLite under the
database's one write lock, which its insert takes first. So at most ``most`` attempts ever
count in a window, on one process or several, however many race. An attempt past the limit
is rolled back (it did no work, so it does not lengthen the lockout) and refused with the
seconds until a place frees; while a key is full, a refusal is one read, no write, and for a
couple of seconds after one, not even the read (a flood's refusals cost the database little).

The same table keeps every kind (``signin_failures``: it first held failed sign-ins only).
:meth:`Limits.tidy` also forgets, at most once a minute per process, passkey challenges past
their life and guests nobody used (``app/db/players.py``).
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import delete, func, insert, select
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app.db.models import PasskeyChallenge
from app.db.models import SigninFailure as Attempt
from app.db.players import forget_unused_guests
from app.timestamps import aware

TIDY_EVERY_S = 60.0
# A key found full is refused from memory for this long (or until a place frees, if sooner)
# before the database is asked again: only ever more refusals, never one more attempt counted
# (another process's success clearing a username is seen here that much later).
REMEMBER_FULL = timedelta(seconds=2)
REMEMBER_AT_MOST = 100_000


def _seconds(wait: timedelta) -> int:
    return max(1, math.ceil(wait.total_seconds()))


class TooMany(Exception):
    """Past a limit: ``retry_after`` is the whole seconds until an attempt may count again."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(retry_after)
        self.retry_after = retry_after


@dataclass(frozen=True)
class Rule:
    """At most ``most`` attempts of ``kind`` through one value in any ``window``."""

    kind: str
    most: int
    window: timedelta


@dataclass(frozen=True)
class Ticket:
    """The rows one attempt stored: given back when the attempt turns out not to count (a
    sign-in that succeeded)."""

    ids: tuple[int, ...] = ()


def _key(kind: str, value: str) -> str:
    return hashlib.sha256(f"{kind}:{value}".encode()).hexdigest()


def _lock_id(key: str) -> int:
    """A Postgres advisory lock's id (a signed 64-bit number) for a key."""
    return int(key[:16], 16) - (1 << 63)


@dataclass
class AttemptLog:
    """Attempts counted per key over sliding windows (see the module's docstring)."""

    db: AsyncEngine
    now: Callable[[], datetime]
    horizon: timedelta  # the longest window: rows older than this count for nothing

    _swept: float = field(init=False, default=-math.inf)
    # keys found full lately: key -> (when a place frees, when it was seen full)
    _full: dict[str, tuple[datetime, datetime]] = field(init=False, default_factory=dict)

    async def take(self, hits: Sequence[tuple[Rule, str]]) -> Ticket:
        """Count one attempt against each ``(rule, value)``; raise :class:`TooMany` (having
        stored nothing) if any of them is past its limit."""
        now = self.now()
        rules = {_key(rule.kind, value): rule for rule, value in hits}
        wait = self._remembered(rules, now)
        if wait is None:
            async with self.db.connect() as conn:
                wait = self._wait(rules, await self._recent(conn, rules, now), now, ())
        if wait is not None:  # full already: one read (or none), no write
            raise TooMany(wait)
        await self._sweep(now)
        async with self.db.connect() as conn, conn.begin() as transaction:
            if conn.dialect.name == "postgresql":
                for key in sorted(rules):  # one order, so two takes never wait for each other
                    await conn.execute(select(func.pg_advisory_xact_lock(_lock_id(key))))
            # On SQLite the insert comes first: it takes the database's one write lock, and
            # the count after it sees every attempt committed before.
            stored = await conn.execute(
                insert(Attempt)
                .values([{"key": key, "at": now} for key in rules])
                .returning(Attempt.id)
            )
            mine = tuple(stored.scalars())
            recent = await self._recent(conn, rules, now)
            if any(len(recent.get(key, ())) > rule.most for key, rule in rules.items()):
                await transaction.rollback()
                raise TooMany(self._wait(rules, recent, now, mine) or 1)
        return Ticket(mine)

    async def _sweep(self, now: datetime) -> None:
        """Rows past every window go, at most once a minute in this process."""
        moment = time.monotonic()
        if moment - self._swept < TIDY_EVERY_S:
            return
        self._swept = moment
        async with self.db.begin() as conn:
            await conn.execute(delete(Attempt).where(Attempt.at <= now - self.horizon))

    async def give_back(self, ticket: Ticket) -> None:
        if ticket.ids:
            async with self.db.begin() as conn:
                await conn.execute(delete(Attempt).where(Attempt.id.in_(ticket.ids)))

    async def clear(self, keys: Sequence[tuple[Rule, str]], ticket: Ticket = Ticket()) -> None:
        """Forget every attempt through each ``(rule, value)`` and the ticket's (a sign-in
        that succeeded clears its username's failures and counts for nothing itself)."""
        hashed = [_key(rule.kind, value) for rule, value in keys]
        for key in hashed:
            self._full.pop(key, None)
        async with self.db.begin() as conn:
            await conn.execute(
                delete(Attempt).where(Attempt.key.in_(hashed) | Attempt.id.in_(ticket.ids))
            )

    @staticmethod
    async def _recent(
        conn: AsyncConnection, rules: dict[str, Rule], now: datetime
    ) -> dict[str, list[tuple[datetime, int]]]:
        """Each key's attempts within its window, newest first."""
        oldest = now - max(rule.window for rule in rules.values())
        rows = await conn.execute(
            select(Attempt.key, Attempt.at, Attempt.id)
            .where(Attempt.key.in_(rules), Attempt.at > oldest)
            .order_by(Attempt.at.desc(), Attempt.id.desc())
        )
        recent: dict[str, list[tuple[datetime, int]]] = {}
        for key, at, row_id in rows:
            at = aware(at)
            if at > now - rules[key].window:
                recent.setdefault(key, []).append((at, row_id))
        return recent

    def _wait(
        self,
        rules: dict[str, Rule],
        recent: dict[str, list[tuple[datetime, int]]],
        now: datetime,
        mine: tuple[int, ...],
    ) -> int | None:
        """Seconds until every key full without ``mine`` has a place again; ``None`` if none is
        full. The full ones are remembered for :data:`REMEMBER_FULL`."""
        frees = {}
        for key, rule in rules.items():
            others = [at for at, row_id in recent.get(key, ()) if row_id not in mine]
            if len(others) >= rule.most:
                # (an attempt stamped a moment after ``now``, by another process, waits no
                # longer than a window)
                frees[key] = min(others[rule.most - 1] + rule.window, now + rule.window)
        if len(self._full) > REMEMBER_AT_MOST:
            self._full.clear()
        for key, free in frees.items():
            self._full[key] = (free, now)
        return _seconds(max(frees.values()) - now) if frees else None

    def _remembered(self, rules: dict[str, Rule], now: datetime) -> int | None:
        """Seconds to wait if a key was seen full within :data:`REMEMBER_FULL` and still is by
        the clock, without asking the database (a flood's refusal is then no read at all)."""
        frees = []
        for key in rules:
            seen = self._full.get(key)
            if seen is None:
                continue
            free, noted = seen
            if now < free and now - noted < REMEMBER_FULL:
                frees.append(free)
            else:
                del self._full[key]
        return _seconds(max(frees) - now) if frees else None


@dataclass
class Limits:
    """Every limit of one server process, from its settings, on the services' clock."""

    db: AsyncEngine
    now: Callable[[], datetime]
    signin_window: timedelta
    failures_per_username: int
    failures_per_address: int
    claims_per_player: int = 10
    claims_per_address: int = 50
    address_window: timedelta = timedelta(minutes=10)
    guests_per_address: int = 30
    challenges_per_address: int = 60
    guests_unused_for: timedelta = timedelta(days=30)
    log: AttemptLog = field(init=False)
    _tidied: float = field(init=False, default=-math.inf)
    _guests_after: int = field(init=False, default=0)  # where the next pass over guests goes on

    def __post_init__(self) -> None:
        signin, address = self.signin_window, self.address_window
        self.username = Rule("username", self.failures_per_username, signin)
        self.device = Rule("device", self.failures_per_username, signin)
        self.signin_address = Rule("address", self.failures_per_address, signin)
        self.claim_player = Rule("claim-player", self.claims_per_player, signin)
        self.claim_address = Rule("claim-address", self.claims_per_address, signin)
        self.guest_address = Rule("guest-address", self.guests_per_address, address)
        self.challenge_address = Rule("challenge-address", self.challenges_per_address, address)
        self.log = AttemptLog(self.db, self.now, max(signin, address))

    async def signin(self, username_key: str, address: str, device: str | None = None) -> Ticket:
        """A password about to be checked for ``username_key`` from ``address``. From a device
        the account signed in on before (``device``, its cookie's hash) it counts for that
        device instead of the username, so nobody else's failures lock the owner out there."""
        first = (self.device, device) if device is not None else (self.username, username_key)
        return await self.log.take([first, (self.signin_address, address)])

    async def signin_succeeded(
        self, username_key: str, ticket: Ticket, device: str | None = None
    ) -> None:
        """The password was right: the attempt does not count, nor do the username's (or the
        device's) failures before it."""
        cleared = [(self.username, username_key)]
        if device is not None:
            cleared.append((self.device, device))
        await self.log.clear(cleared, ticket)

    async def claim(self, player_id: int, address: str) -> Ticket:
        """A claim about to look a username up (whether it is taken tells who exists)."""
        return await self.log.take(
            [(self.claim_player, str(player_id)), (self.claim_address, address)]
        )

    async def new_guest(self, address: str) -> Ticket:
        return await self.log.take([(self.guest_address, address)])

    async def challenge(self, address: str) -> Ticket:
        """A passkey challenge about to be handed out (and stored until it lapses)."""
        return await self.log.take([(self.challenge_address, address)])

    async def tidy(self) -> None:
        """At most once every :data:`TIDY_EVERY_S` in this process: forget the passkey
        challenges past their life and a batch of guests nobody used."""
        moment = time.monotonic()
        if moment - self._tidied < TIDY_EVERY_S:
            return
        self._tidied = moment
        now = self.now()
        async with self.db.begin() as conn:
            await conn.execute(delete(PasskeyChallenge).where(PasskeyChallenge.expires_at < now))
        _, self._guests_after = await forget_unused_guests(
            self.db, now - self.guests_unused_for, self._guests_after
        )
