"""Passwords: what makes one too weak (refused with the reason), and Argon2id hashes (pwdlib),
computed off the event loop by a :class:`Hasher`. A password is never logged, stored or
returned.

An Argon2id hash takes tens of milliseconds of a core and 64 MB: a request that asks for one is
costly, so a route does every cheap check first (the limits, the username's form and owner,
the password's strength), and the hashes of one process run on a few threads at once
(``CARDROOM_HASHES_AT_ONCE``, 1 by default: a hash already keeps 4 threads busy, and a
replica is sized for one core). The ones waiting take turns by client address (a lane each,
served in rotation, a new lane before the one served last), so one address's flood delays
another address's hash by the hash under way, not by the whole flood; and each lane is paced
(``CARDROOM_HASH_BURST_PER_ADDRESS`` at once, then one every
``CARDROOM_HASH_SECONDS_PER_ADDRESS``), so a flood's hashes leave the cores to everyone else.
Past 8 waiting in a lane, or ``CARDROOM_HASH_QUEUE`` in all, 503 ``busy``.
"""

from __future__ import annotations

import asyncio
import math
import time
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

# the hashes that may wait in one lane (a client address); past that, 503 busy
LANE_MOST_WAITING = 8


class Hasher:
    """Argon2id hashes on ``at_once`` threads of their own, the waiting ones taking turns by
    lane (a client address), each lane paced by a token bucket (``burst`` hashes at once, then
    one every ``every_s`` seconds: a flood's hashes are spread out instead of keeping every
    core busy), at most :data:`LANE_MOST_WAITING` waiting in a lane and ``queue`` in all."""

    def __init__(self, at_once: int, queue: int, burst: int = 3, every_s: float = 1.0) -> None:
        self._burst, self._every = burst, every_s
        self._threads = ThreadPoolExecutor(at_once, thread_name_prefix="argon2")
        self._free = at_once
        self._queue = queue
        # the lanes with hashes waiting, in the order they are served (then moved to the end)
        self._lanes: OrderedDict[str, deque[asyncio.Future[None]]] = OrderedDict()
        self._last: str | None = None  # the lane served last
        self._buckets: dict[str, tuple[float, float]] = {}  # lane -> (hashes it may start, when)
        self._wake: asyncio.TimerHandle | None = None
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

    def refuse_if_full(self, lane: str) -> None:
        """503 ``busy`` if a hash for ``lane`` would find no place to wait: asked before any
        work a refused hash would waste (a limit's count, a lookup)."""
        if self.waiting >= self._queue or len(self._lanes.get(lane, ())) >= LANE_MOST_WAITING:
            raise ApiError(
                503,
                "busy",
                "Too many sign-ins at once: try again in a moment.",
                {"Retry-After": "2"},
            )

    def close(self) -> None:
        if self._wake is not None:
            self._wake.cancel()
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
        now = time.monotonic()
        if self._free > 0 and not self._lanes and self._ready_in(lane, now) == 0:
            self._free -= 1
            self._start(lane, now)
            return
        self.refuse_if_full(lane)
        turn = asyncio.get_running_loop().create_future()
        if lane not in self._lanes:
            # a lane joins the round before the one served last (which went to the end): one
            # address's flood delays a newcomer by the hash under way, not by one more
            self._lanes[lane] = deque()
            if self._last in self._lanes and self._last != lane:
                self._lanes.move_to_end(self._last)
        self._lanes[lane].append(turn)
        self.waiting += 1
        self._dispatch()
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self._free += 1  # handed a turn it will not use
                self._dispatch()
            else:
                self._leave(lane, turn)
            raise

    def _done(self, _: object) -> None:
        self.running -= 1
        self.hashed += 1
        self._free += 1
        self._dispatch()

    def _ready_in(self, lane: str, now: float) -> float:
        """Seconds until ``lane`` may start a hash (0: now)."""
        tokens, stamp = self._buckets.get(lane, (self._burst, now))
        tokens = min(self._burst, tokens + (now - stamp) / self._every)
        return 0.0 if tokens >= 1 else (1 - tokens) * self._every

    def _start(self, lane: str, now: float) -> None:
        tokens, stamp = self._buckets.get(lane, (self._burst, now))
        tokens = min(self._burst, tokens + (now - stamp) / self._every)
        if len(self._buckets) > 10_000:  # lanes long quiet are full again: forget them
            self._buckets = {
                key: (t, at)
                for key, (t, at) in self._buckets.items()
                if t + (now - at) / self._every < self._burst
            }
        self._buckets[lane] = (tokens - 1, now)
        self._last = lane

    def _dispatch(self) -> None:
        """Hand free turns to the next ready lanes in rotation; if every waiting lane is paced,
        look again when the first may go."""
        now = time.monotonic()
        while self._free > 0 and self._lanes:
            soonest = math.inf
            for lane in self._lanes:
                wait = self._ready_in(lane, now)
                if wait == 0:
                    break
                soonest = min(soonest, wait)
            else:
                if self._wake is None:
                    self._wake = asyncio.get_running_loop().call_later(soonest, self._woken)
                return
            turns = self._lanes[lane]
            turn = turns.popleft()
            self.waiting -= 1
            if turns:
                self._lanes.move_to_end(lane)
            else:
                del self._lanes[lane]
            if not turn.done():
                self._free -= 1
                self._start(lane, now)
                turn.set_result(None)

    def _woken(self) -> None:
        self._wake = None
        self._dispatch()

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
