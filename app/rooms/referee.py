"""Enforces a room's table settings: turn timers, the seat hold, bot takeover and forfeits.

A seated player with no connection (on any process) is *absent*; after the
room's seat hold an absent seat is handed to a bot until its player returns, or
forfeits, as the room chose. A turn timer that runs out plays the game's
fallback move for that seat (the rules' own choice for a player who does not
answer), or forfeits. Deadlines come from the move log's time stamps, so they
survive a restart.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

from app.db.clock import utcnow
from app.rooms.errors import ActionRefused
from app.rooms.runtime import RoomRuntime

if TYPE_CHECKING:
    from app.rooms.manager import RoomManager

log = logging.getLogger(__name__)


class Referee:
    def __init__(self, manager: RoomManager) -> None:
        self._manager = manager

    def attendance(self, runtime: RoomRuntime, present: set[int]) -> bool:
        """Note who is absent or back; ``True`` when a seat changed hands."""
        if not runtime.playing:
            runtime.absent_since.clear()
            return False
        changed = False
        for seat in runtime.room.seats:
            if seat.player is None:
                continue
            if seat.player.id in present:
                runtime.absent_since.pop(seat.seat, None)
                if seat.seat in runtime.away:
                    runtime.set_away(seat.seat, False)  # handed back to its player
                    changed = True
            elif seat.seat not in runtime.away:
                runtime.absent_since.setdefault(seat.seat, time.monotonic())
        return changed

    def watch(self, runtime: RoomRuntime) -> None:
        """(Re)arm the room's timer for its next deadline."""
        if runtime.timer is not None and runtime.timer is not asyncio.current_task():
            runtime.timer.cancel()
        runtime.timer = None
        delay = self._next_due(runtime)
        if delay is not None:
            runtime.timer = asyncio.get_running_loop().create_task(
                self._wait(runtime, delay), name=f"timer {runtime.room.id}"
            )

    def _next_due(self, runtime: RoomRuntime) -> float | None:
        if not runtime.playing or not (runtime.absent_since or runtime.table.turn_seconds):
            return None  # nothing to time: most rooms, after every move
        hold = runtime.table.seat_hold_seconds
        now_mono, now = time.monotonic(), utcnow()
        waits = [since + hold - now_mono for since in runtime.absent_since.values()]
        waits += [(when - now).total_seconds() for when in runtime.deadlines().values()]
        return max(0.0, min(waits)) if waits else None

    async def _wait(self, runtime: RoomRuntime, delay: float) -> None:
        await asyncio.sleep(delay)
        try:
            await self._enforce(runtime)
        except Exception:
            log.exception("enforcing the table settings of room %s failed", runtime.room.id)
        if runtime.timer is asyncio.current_task():
            runtime.timer = None
            self.watch(runtime)

    async def _enforce(self, runtime: RoomRuntime) -> None:
        manager, table = self._manager, runtime.table
        if not runtime.playing:
            return
        now_mono = time.monotonic()
        for seat, since in list(runtime.absent_since.items()):
            if now_mono - since < table.seat_hold_seconds:
                continue
            del runtime.absent_since[seat]
            if table.on_absent == "forfeit":
                await manager.forfeit(runtime, seat, "absent")
                return
            runtime.set_away(seat, True)
            manager.seats_changed(runtime)
        now = utcnow()
        for seat, deadline in runtime.deadlines().items():
            if deadline > now:
                continue
            if table.on_absent == "forfeit":
                await manager.forfeit(runtime, seat, "timeout")
                return
            if runtime.state is None:
                return
            action = runtime.engine.fallback_action(runtime.state, seat)
            try:
                await manager.play_for(runtime, seat, action)
            except ActionRefused as refused:
                log.info("timer move in %s refused: %s", runtime.room.id, refused.code)
            return  # the move re-arms the timer for what follows
