"""The rooms this process holds in memory: loaded on first use, set aside when their rules
cannot go on, dropped when nobody uses them (and rebuilt from the database when asked again)."""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable, Callable, Iterator

from app.db.matches import MatchRecord
from app.db.store import Store
from app.rooms.clock import Clock
from app.rooms.errors import not_found
from app.rooms.ports import Audience, Broker
from app.rooms.runtime import RoomRuntime
from games import REGISTRY
from games.base import Outcome

log = logging.getLogger(__name__)

ROOM_ID = re.compile(r"[A-Za-z0-9_-]{1,16}")  # what secrets.token_urlsafe makes


class RoomDirectory:
    def __init__(
        self,
        store: Store,
        broker: Broker,
        audience: Audience,
        clock: Clock,
        *,
        idle_seconds: float,
        snapshot_every: int,
    ) -> None:
        self.store = store
        self.broker = broker
        self.audience = audience
        self.clock = clock
        self.idle_seconds = idle_seconds
        self.snapshot_every = snapshot_every
        self._runtimes: dict[str, RoomRuntime] = {}
        self._loading: dict[str, asyncio.Future[RoomRuntime]] = {}
        self.on_open: Callable[[RoomRuntime], Awaitable[None]] | None = None
        """Told of every room loaded into memory (its seat holds start)."""

    def __iter__(self) -> Iterator[RoomRuntime]:
        return iter(list(self._runtimes.values()))

    @property
    def in_memory(self) -> int:
        return len(self._runtimes)

    @property
    def loads_under_way(self) -> int:
        return len(self._loading)

    def loaded(self, room_id: str) -> RoomRuntime | None:
        return self._runtimes.get(room_id)

    async def runtime(self, room_id: str) -> RoomRuntime:
        runtime = self._runtimes.get(room_id)
        if runtime is None:
            if not ROOM_ID.fullmatch(room_id):
                raise not_found("room")
            loading = self._loading.get(room_id)
            if loading is None:  # the first asker loads it; the others wait for that load
                loading = asyncio.ensure_future(self._open(room_id))
                self._loading[room_id] = loading
                loading.add_done_callback(lambda _: self._loading.pop(room_id, None))
            runtime = await asyncio.shield(loading)
        runtime.touched = self.clock.monotonic()
        return runtime

    async def _open(self, room_id: str) -> RoomRuntime:
        room = await self.store.load_room(room_id)
        if room is None or room.game not in REGISTRY:
            raise not_found("room")
        runtime = RoomRuntime(room, touched=self.clock.monotonic())
        await self.load_match(runtime)
        self._runtimes[room_id] = runtime
        await self.broker.subscribe(room_id)
        await self.broker.publish(room_id, {"kind": "presence_query"})
        if self.on_open is not None:
            await self.on_open(runtime)
        return runtime

    async def load_match(self, runtime: RoomRuntime) -> None:
        """The room's match from the database: its latest snapshot and the moves after it."""
        match_id = runtime.room.match_id
        if match_id is None:
            return
        match = await self.store.load_match(match_id)
        if match is None:
            return
        if match.engine_version != runtime.engine.version:
            log.warning(
                "room %s: match %d was played under %s rules version %s, now %s",
                runtime.room.id,
                match.id,
                match.game,
                match.engine_version,
                runtime.engine.version,
            )
            await self._set_aside(runtime, match, "rules_changed")
            return
        snapshot = await self.store.load_snapshot(match_id)
        # from the snapshot's own move on: it is the table's last move, and its time starts
        # the turn that follows
        moves = await self.store.load_moves(match_id, max(0, snapshot[0] - 1) if snapshot else 0)
        # the seats' own moves up to the snapshot's (the runtime counts those after it)
        counted = await self.store.load_own_moves(match_id, snapshot[0]) if snapshot else {}
        try:
            runtime.load_match(match, snapshot, moves, own_moves=counted)
            # whom it waits for is stored as of these moves (by whoever made them): a load is
            # no change to write, nor a reason to run its turns job again
            runtime.turns_kept = (match.id, runtime.seq)
        except Exception:  # the engine cannot rebuild it: the room must not stay wedged
            log.exception("room %s: match %d cannot be rebuilt", runtime.room.id, match.id)
            await self._set_aside(runtime, match, "cannot_rebuild")

    async def _set_aside(self, runtime: RoomRuntime, match: MatchRecord, reason: str) -> None:
        """A match these rules cannot go on with is never replayed with them: a running one
        ends, aborted and unrated; a finished one keeps its result, with no table to show."""
        runtime.match, runtime.state = match, None
        if match.status == "finished":
            runtime.terminal = None if match.outcome is None else Outcome.from_json(match.outcome)
            return
        outcome = Outcome.aborted(len(runtime.room.seats), reason)
        count = await self.store.load_move_count(match.id)
        end = runtime.match_end(outcome, count, self.clock.now(), self.snapshot_every, rated=False)
        await self.store.finish(end)
        runtime.end(outcome)

    async def reload_room(self, runtime: RoomRuntime) -> bool:
        """Read the room's row again (another process may have changed it); ``True`` when it
        holds another match now (loaded)."""
        room = await self.store.load_room(runtime.room.id)
        if room is None:
            return False
        match_changed = room.match_id != runtime.room.match_id
        runtime.set_room(room)
        if match_changed:
            await self.load_match(runtime)
        return match_changed

    # -- leaving memory ------------------------------------------------------------------
    def _unused(self, runtime: RoomRuntime) -> bool:
        """Nobody here watches it, no bot of ours plays in it, no timer of its runs, and no
        change of it is under way."""
        if runtime.bot_tasks or runtime.timer is not None or runtime.lock.locked():
            return False
        if runtime.rematch is not None and runtime.rematch.timer is not None:
            return False  # a proposal of ours waits for answers
        return not self.audience.present(runtime.room.id)

    def forget(self, room_id: str) -> None:
        """Drop a room nobody here watches and no bot of ours is playing in."""
        runtime = self._runtimes.get(room_id)
        if runtime is not None and not runtime.playing and self._unused(runtime):
            self._drop(room_id)

    def evict_idle(self, now: float | None = None) -> list[str]:
        """Drop the rooms unused for the idle time (a running match too: it is rebuilt from
        the database when someone comes back); returns their ids."""
        now = self.clock.monotonic() if now is None else now
        idle = [
            room_id
            for room_id, runtime in self._runtimes.items()
            if now - runtime.touched >= self.idle_seconds and self._unused(runtime)
        ]
        for room_id in idle:
            self._drop(room_id)
        return idle

    def _drop(self, room_id: str) -> None:
        del self._runtimes[room_id]
        asyncio.get_running_loop().create_task(self._unsubscribe(room_id))

    async def _unsubscribe(self, room_id: str) -> None:
        if room_id not in self._runtimes and room_id not in self._loading:  # not back meanwhile
            await self.broker.unsubscribe(room_id)

    async def sweep(self) -> None:
        """Evict idle rooms, a few times per idle period, until cancelled."""
        while True:
            await self.clock.sleep(self.idle_seconds / 4)
            self.evict_idle()
