"""Passwords: what makes one too weak (refused with the reason), and Argon2id hashes (pwdlib),
computed off the event loop by a :class:`Hasher`. A password is never logged, stored or
returned.

An Argon2id hash takes tens of milliseconds of a core and 64 MB: a request that asks for one is
costly, so a route does every cheap check first (the limits, the username's form and owner,
the password's strength), and the hashes of one process run on a few threads at once
(``CARDROOM_HASHES_AT_ONCE``, 1 by default: a hash already keeps 4 threads busy, and a
replica is sized for one core). The ones waiting take turns by client address (a lane each,
served in rotation, a new lane before the one served last), so one address's flood delays
another address's hash by the hash under way, not by the whole flood; past
``CARDROOM_HASH_QUEUE`` waiting, 503 ``busy``.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from pwdlib import PasswordHash
from pwdlib.hashers.argon2 import Argon2Hasher

from app.api.errors import ApiError

HASHER = PasswordHash((Argon2Hasher(),))  # Argon2id, the library's recommended parameters
SHORTEST = 10
LONGEST = 128
FEWEST_DIFFERENT = 5

# passwords long enough to pass, and among the first any attacker tries
COMMON = frozenset(
    {
        "1234567890",
        "0987654321",
        "12345678910",
        "123456789a",
        "a123456789",
        "1q2w3e4r5t",
        "1qaz2wsx3edc",
        "qwertyuiop",
        "qwerty1234",
        "qwerty12345",
        "asdfghjkl1",
        "password12",
        "password123",
        "password1234",
        "passw0rd12",
        "iloveyou12",
        "letmein123",
        "welcome123",
        "sunshine12",
        "football12",
        "baseball12",
        "princess12",
        "dragon1234",
        "monkey1234",
        "administrator",
        "abcdefghij",
        "abcd123456",
        "cardroom123",
    }
)
_DUMMY = HASHER.hash("the hash an unknown username is checked against")


def weakness(password: str, username: str) -> str | None:
    """Why ``password`` is too weak for ``username``, in words; ``None`` if it is fine."""
    if len(password) < SHORTEST:
        return f"A password needs at least {SHORTEST} characters."
    if len(password) > LONGEST:
        return f"A password holds at most {LONGEST} characters."
    if username.casefold() in password.casefold():
        return "A password must not contain the username."
    if password.casefold() in COMMON:
        return "This password is one of the most common ones: choose another."
    if len(set(password.casefold())) < FEWEST_DIFFERENT:
        return (
            f"A password needs at least {FEWEST_DIFFERENT} different characters: this one "
            "repeats too few to be hard to guess."
        )
    return None


def refuse_weak(password: str, username: str) -> None:
    reason = weakness(password, username)
    if reason is not None:
        raise ApiError(422, "weak_password", reason)


T = TypeVar("T")


class Hasher:
    """Argon2id hashes on ``at_once`` threads of their own, the waiting ones taking turns by
    lane (a client address) and at most ``queue`` of them waiting."""

    def __init__(self, at_once: int, queue: int) -> None:
        self._threads = ThreadPoolExecutor(at_once, thread_name_prefix="argon2")
        self._free = at_once
        self._queue = queue
        # the lanes with hashes waiting, in the order they are served (then moved to the end)
        self._lanes: OrderedDict[str, deque[asyncio.Future[None]]] = OrderedDict()
        self._last: str | None = None  # the lane served last
        self.waiting = 0
        self.running = 0
        self.most_at_once = 0  # the most hashes ever computed at once
        self.hashed = 0  # hashes computed (or checked) since the process started

    async def hash(self, password: str, lane: str) -> str:
        return await self._run(lane, HASHER.hash, password)

    async def matches(self, password: str, password_hash: str | None, lane: str) -> bool:
        """Whether ``password`` is the one ``password_hash`` was made from; with no hash (no
        such username) a hash is checked all the same, so the answer takes as long."""
        if password_hash is None:
            await self._run(lane, HASHER.verify, password, _DUMMY)
            return False
        return await self._run(lane, HASHER.verify, password, password_hash)

    def close(self) -> None:
        self._threads.shutdown(wait=False, cancel_futures=True)

    async def _run(self, lane: str, work: Callable[..., T], *args: str) -> T:
        await self._turn(lane)
        self.running += 1
        self.most_at_once = max(self.most_at_once, self.running)
        try:
            computing = asyncio.get_running_loop().run_in_executor(self._threads, work, *args)
        except BaseException:
            self._done(None)
            raise
        computing.add_done_callback(self._done)  # the thread's end frees the turn, even if
        return await asyncio.shield(computing)  # the request is cancelled meanwhile

    async def _turn(self, lane: str) -> None:
        if self._free > 0 and not self._lanes:
            self._free -= 1
            self._last = lane
            return
        if self.waiting >= self._queue:
            raise ApiError(
                503,
                "busy",
                "Too many sign-ins at once: try again in a moment.",
                {"Retry-After": "2"},
            )
        turn = asyncio.get_running_loop().create_future()
        if lane not in self._lanes:
            # a lane joins the round before the one served last (which went to the end): one
            # address's flood delays a newcomer by the hash under way, not by one more
            self._lanes[lane] = deque()
            if self._last in self._lanes and self._last != lane:
                self._lanes.move_to_end(self._last)
        self._lanes[lane].append(turn)
        self.waiting += 1
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self._pass_on()  # handed a turn it will not use
            else:
                self._leave(lane, turn)
            raise

    def _done(self, _: object) -> None:
        self.running -= 1
        self.hashed += 1
        self._pass_on()

    def _pass_on(self) -> None:
        """Hand a free turn to the next lane in rotation, or keep it."""
        while self._lanes:
            lane, turns = next(iter(self._lanes.items()))
            turn = turns.popleft()
            self.waiting -= 1
            self._last = lane
            if turns:
                self._lanes.move_to_end(lane)
            else:
                del self._lanes[lane]
            if not turn.done():
                turn.set_result(None)
                return
        self._free += 1

    def _leave(self, lane: str, turn: asyncio.Future[None]) -> None:
        turns = self._lanes.get(lane)
        if turns is not None and turn in turns:
            turns.remove(turn)
            self.waiting -= 1
            if not turns:
                del self._lanes[lane]

    def to_json(self) -> dict[str, int]:
        return {
            "running": self.running,
            "waiting": self.waiting,
            "most_at_once": self.most_at_once,
            "hashed": self.hashed,
        }
