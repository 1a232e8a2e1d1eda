"""Bot turns: a task per seat a bot (or a stand-in) plays, started when that seat is to act."""

from __future__ import annotations

import asyncio
import logging

from app.rooms.bots import BotPlayer, decision_seed
from app.rooms.clock import Clock
from app.rooms.errors import ActionRefused
from app.rooms.play import Play
from app.rooms.runtime import RoomRuntime
from games.base import Seat

log = logging.getLogger(__name__)


class BotTurns:
    def __init__(self, play: Play, bots: BotPlayer, clock: Clock, delay: float) -> None:
        self.play = play
        self.bots = bots
        self.clock = clock
        self.delay = delay  # how long a bot waits before it moves

    def schedule(self, runtime: RoomRuntime) -> None:
        """A turn for every seat to act that the server plays and that has none yet."""
        if not runtime.playing:
            return
        for seat in runtime.to_act():
            if seat not in runtime.bot_tasks and runtime.bot_level(seat) is not None:
                runtime.bot_tasks[seat] = asyncio.get_running_loop().create_task(
                    self._turn(runtime, seat), name=f"bot {runtime.room.id}/{seat}"
                )

    async def _turn(self, runtime: RoomRuntime, seat: Seat) -> None:
        try:
            await self.clock.sleep(self.delay)
            if runtime.state is None or seat not in runtime.to_act():
                return
            level = runtime.bot_level(seat)
            if level is None:
                return  # its player came back
            seq = runtime.seq  # a hard bot thinks in a worker: the table may move meanwhile
            away = runtime.stand_in(seat) is not None  # and its player may come back
            seed = None if runtime.match is None else decision_seed(runtime.match.seed, seq, seat)
            action = await self.bots.choose(
                runtime.engine, runtime.state, seat, level, room=runtime.room.id, seed=seed
            )
            try:
                await self.play.play_for(runtime, seat, action, seq, away=away)
            except ActionRefused as refused:
                log.info("bot in %s seat %d refused: %s", runtime.room.id, seat, refused.code)
        except Exception:
            log.exception("bot in room %s seat %d failed", runtime.room.id, seat)
        finally:
            runtime.bot_tasks.pop(seat, None)
        self.schedule(runtime)
