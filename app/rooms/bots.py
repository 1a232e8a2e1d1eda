"""Server-side bots: ``games.bots.choose`` for a seat, without holding up the event loop.

A bot sees only what its seat sees: :func:`games.bots.info_set` is built from the room's state
and the bot's seat, and the policy decides from that alone.

``easy`` and ``normal`` decide within a few milliseconds, so they run inline. ``hard`` searches
for up to ``CARDROOM_BOT_THINK_MS`` (300 ms) of pure-Python CPU time, so it runs in a process
pool: a thread would hold the GIL through the search and starve the event loop. Measured on
this project's 2-core box with 300 ms Plus & Minus searches back to back, an asyncio loop
ticking every millisecond lagged 7.5 ms at the median and 45 ms at p99 with the search in a
thread, against 0.14 ms and 6 ms with it in a process (0.17 ms and 3 ms with no search at
all). The pool starts with the first hard move (``spawn``, since the server runs threads that
``fork`` would copy mid-work), keeps one core for the event loop, and is shut down by
:meth:`BotPlayer.close`. Searches wait their room's turn at a :class:`FairScheduler`, so one
room's backlog of searches cannot hold up another room's bot.

A bot's random stream comes from the match: :func:`decision_seed` of its seed, the move number
and the seat, so a decision (a tie broken at random, an ``easy`` bot's pick) is the same
whenever it is made again at that table, after a restart too; only the hard bot's clock can
make it differ. The stream is a hash of the seed, which itself never leaves the server.

A bot's reply time tells nothing of its hand: every decision takes its level's fixed time from
the request, at least, whatever the bot had to choose from. A hard bot with a single legal
action (in ABspecken's secret phase, usually "cannot") still waits its room's turn and holds a
slot for the whole budget, as a search would; ``easy`` and ``normal`` answer after
``QUICK_S``, above the slowest inline decision measured.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import multiprocessing
import os
import random
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import partial

from app.rooms.bot_scheduler import FairScheduler
from games import REGISTRY
from games.base import Action, Engine, Seat, State
from games.bots import DEFAULT_BUDGET_S, LEVELS, choose, info_set

__all__ = ["LEVELS", "BotPlayer", "decide", "decision_seed"]

log = logging.getLogger(__name__)

IN_POOL = frozenset({"hard"})
"""Levels that think long enough to need a worker process."""
MAX_WORKERS = 4
PER_ROOM = 2
"""Searches one room may run at once: ABspecken's seats choose at the same time."""
QUICK_S = 0.025
"""How long ``easy`` and ``normal`` take at least. Over every seat of 20 random playouts of each
game, the slowest inline decision took 13 ms on a quiet 2-core box (p99 under 9 ms with the
box busy with other test runs, whose spikes hit ``easy``'s one ``random.choice`` as well)."""

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]


def loop_time() -> float:
    """The running event loop's clock, which ``asyncio.sleep`` counts in."""
    return asyncio.get_running_loop().time()


def decision_seed(match_seed: int, seq: int, seat: Seat) -> int:
    """The random seed of a bot's decision for ``seat`` at move ``seq`` of the match seeded
    ``match_seed``: a hash, so it tells nothing of the seed (and so of the deal)."""
    digest = hashlib.sha256(f"cardroom bot:{match_seed}:{seq}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def decide(game: str, state: State, seat: Seat, level: str, seed: int, budget_s: float) -> Action:
    """One bot decision from scratch; also the function the worker processes run."""
    engine = REGISTRY[game]
    return choose(
        engine, info_set(engine, state, seat), level, random.Random(seed), budget_s=budget_s
    )


class BotPlayer:
    """Chooses bots' actions for one server process.

    ``clock`` and ``sleep`` measure and pad each decision's time; tests pass a fake pair.
    """

    def __init__(
        self,
        think_s: float = DEFAULT_BUDGET_S,
        workers: int | None = None,
        *,
        quick_s: float = QUICK_S,
        clock: Clock = loop_time,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self.think_s = think_s
        self.quick_s = quick_s
        # One core stays with the event loop: searches queue rather than slow every room down.
        self.workers = workers or max(1, min(MAX_WORKERS, (os.cpu_count() or 2) - 1))
        self._clock = clock
        self._sleep = sleep
        self._scheduler = FairScheduler(self.workers, per_room=PER_ROOM)
        self._pool: ProcessPoolExecutor | None = None
        self._rng = random.Random()

    async def choose(
        self,
        engine: Engine,
        state: State,
        seat: Seat,
        level: str,
        *,
        room: str = "",
        seed: int | None = None,
    ) -> Action:
        """The bot's action, no sooner than its level's think time after the request; a
        failing bot logs and plays a random legal action instead. ``room`` is whose turn
        a search waits for at the worker pool; ``seed`` the decision's random seed
        (:func:`decision_seed`; a fresh one if not given)."""
        ready_at = self._clock() + (self.think_s if level in IN_POOL else self.quick_s)
        if seed is None:
            seed = self._rng.getrandbits(63)
        action = await self._decide(engine, state, seat, level, room, seed)
        wait = ready_at - self._clock()
        if wait > 0:
            await self._sleep(wait)
        return action

    async def _decide(
        self, engine: Engine, state: State, seat: Seat, level: str, room: str, seed: int
    ) -> Action:
        game = engine.info.id
        try:
            if level in IN_POOL:
                return await self._scheduler.run(room, self._job(engine, state, seat, level, seed))
            return decide(game, state, seat, level, seed, self.think_s)
        except BrokenProcessPool:
            log.exception("the bot worker pool broke; starting a new one on the next move")
        except Exception:
            log.exception("%s bot in %s seat %d failed; playing at random", level, game, seat)
        return random.Random(seed).choice(engine.legal_actions(state, seat))

    def _job(
        self, engine: Engine, state: State, seat: Seat, level: str, seed: int
    ) -> Callable[[], Awaitable[Action]]:
        """A search in a worker; with one legal action, a wait as long as a search instead."""
        legal = engine.legal_actions(state, seat)
        if len(legal) == 1:
            return partial(self._idle, legal[0])
        return partial(self._search, engine.info.id, state, seat, level, seed)

    async def _idle(self, action: Action) -> Action:
        await self._sleep(self.think_s)
        return action

    async def _search(self, game: str, state: State, seat: Seat, level: str, seed: int) -> Action:
        pool = self._workers()
        try:
            return await asyncio.wrap_future(
                pool.submit(decide, game, state, seat, level, seed, self.think_s)
            )
        except BrokenProcessPool:
            if self._pool is pool:  # not one a search that broke earlier has replaced already
                self._pool = None
            raise

    def _workers(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers, mp_context=multiprocessing.get_context("spawn")
            )
        return self._pool

    async def close(self) -> None:
        """Stop the worker processes (a search under way finishes within its budget)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)
