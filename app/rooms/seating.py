"""Seating: rooms made (alone or as a table against bots at once), seats taken, left and given
to bots, and the start of a match once every seat is filled (the first, or a rematch)."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from app.db.players import PlayerRecord
from app.db.rooms import SeatChange
from app.db.store import Store
from app.rooms.bots import LEVELS
from app.rooms.clock import Clock
from app.rooms.commands import CommandRunner, Effects
from app.rooms.directory import RoomDirectory
from app.rooms.errors import ErrorCode, RoomError, forbidden, not_found
from app.rooms.keyed_locks import KeyedLocks
from app.rooms.lifecycle import RoomStatus
from app.rooms.runtime import RoomRuntime
from app.rooms.table import TableSettings
from games import REGISTRY, InvalidOptions

BAD_LEVEL = "A bot level is easy, normal or hard."


@dataclass(frozen=True)
class RoomLimits:
    """What one player may hold at once, and how long an unused room stays in memory."""

    open_rooms: int = 10  # rooms a player hosts that are waiting or playing
    bot_matches: int = 2  # running matches a player hosts where every seat is a bot
    idle_seconds: float = 300.0  # a loaded room nobody uses is dropped from memory after it
    match_moves: int = 5000  # the most moves a match may have: the last one ends it, aborted
    min_seat_hold: int = 30  # the shortest seat hold a new room may ask for (seconds)
    min_turn: int = 3600  # the shortest turn-based deadline a new room may ask for (seconds)


class Seating:
    def __init__(
        self,
        runner: CommandRunner,
        directory: RoomDirectory,
        store: Store,
        clock: Clock,
        limits: RoomLimits,
    ) -> None:
        self.runner = runner
        self.directory = directory
        self.store = store
        self.clock = clock
        self.limits = limits
        self._hosting = KeyedLocks[int]()  # a player's room creations, one at a time
        self.on_begin: Callable[[RoomRuntime], None] | None = None
        """Told of every match begun (its absent players' seat holds start)."""

    async def create_room(
        self,
        host: PlayerRecord,
        *,
        game: str,
        seats: int,
        options: Mapping[str, Any] | None,
        private: bool,
        table: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:
        """A new waiting room, as everyone sees it."""
        engine = REGISTRY.get(game)
        if engine is None:
            raise RoomError(ErrorCode.UNKNOWN_GAME, f"There is no game {game!r}.", 422)
        try:
            checked = engine.check_options(options, seats)
        except InvalidOptions as error:
            raise RoomError(ErrorCode.INVALID_OPTIONS, str(error), 422) from None
        settings = TableSettings.parse(
            table, min_hold=self.limits.min_seat_hold, min_turn=self.limits.min_turn
        )
        room_id = secrets.token_urlsafe(6)
        async with self._hosting.hold(host.id):  # the count and the new room, together
            if await self.store.open_rooms_of(host.id) >= self.limits.open_rooms:
                raise RoomError(
                    ErrorCode.TOO_MANY_ROOMS,
                    f"You have {self.limits.open_rooms} open rooms already: play or finish "
                    "one of them first.",
                    429,
                )
            await self.store.create_room(
                room_id=room_id,
                game=game,
                options=checked,
                table=settings.to_json(),
                seats=seats,
                host_id=host.id,
                private=private,
            )
        return self.runner.room_json(await self.directory.runtime(room_id))

    async def play_now(
        self, player: PlayerRecord, *, game: str, level: str, opponents: int
    ) -> dict[str, Any]:
        """A started table against bots in one step: the caller in seat 0, bots elsewhere."""
        if level not in LEVELS:
            raise RoomError(ErrorCode.INVALID_LEVEL, BAD_LEVEL, 422)
        room = await self.create_room(
            player, game=game, seats=opponents + 1, options=None, private=True
        )
        runtime = await self.directory.runtime(room["id"])
        await self.take_seat(runtime, 0, player)
        for seat in range(1, opponents + 1):
            await self.add_bot(runtime, seat, player, level)
        return await self.start(runtime, player)

    async def take_seat(
        self, runtime: RoomRuntime, seat: int, player: PlayerRecord
    ) -> dict[str, Any]:
        async def take() -> Effects:
            self._check_seat_number(runtime, seat)
            if runtime.seat_of(player.id) is not None:
                raise RoomError(ErrorCode.ALREADY_SEATED, "You already have a seat in this room.")
            change = await self.store.claim_seat(runtime.room.id, seat, player.id)
            return await self._seat_change(runtime, change)

        return await self.runner.answered(runtime, take)

    async def leave_seat(
        self, runtime: RoomRuntime, seat: int, player: PlayerRecord
    ) -> dict[str, Any]:
        async def leave() -> Effects:
            self._check_seat_number(runtime, seat)
            occupant = runtime.room.seats[seat]
            own = occupant.player is not None and occupant.player.id == player.id
            host_bot = occupant.bot is not None and runtime.room.host.id == player.id
            if not own and not host_bot:
                raise forbidden("That seat is not yours to clear.")
            change = await self.store.clear_seat(runtime.room.id, seat)
            return await self._seat_change(runtime, change)

        return await self.runner.answered(runtime, leave)

    async def add_bot(
        self, runtime: RoomRuntime, seat: int, player: PlayerRecord, level: str
    ) -> dict[str, Any]:
        async def add() -> Effects:
            self._check_seat_number(runtime, seat)
            if runtime.room.host.id != player.id:
                raise forbidden("Only the host can add bots.")
            if level not in LEVELS:
                raise RoomError(ErrorCode.INVALID_LEVEL, BAD_LEVEL, 422)
            change = await self.store.put_bot(runtime.room.id, seat, level)
            return await self._seat_change(runtime, change)

        return await self.runner.answered(runtime, add)

    async def _seat_change(self, runtime: RoomRuntime, change: SeatChange) -> Effects:
        await self.reload(runtime)  # another process may have changed it too
        if change is SeatChange.ROOM_PLAYING:
            raise RoomError(
                ErrorCode.ROOM_PLAYING, "Seats cannot change while the match is running."
            )
        if change is SeatChange.ALREADY_SEATED:
            raise RoomError(ErrorCode.ALREADY_SEATED, "You already have a seat in this room.")
        if change is SeatChange.SEAT_TAKEN:
            raise RoomError(ErrorCode.SEAT_TAKEN, "That seat is taken.")
        return Effects(room=True, event={"kind": "room"})

    async def reload(self, runtime: RoomRuntime) -> None:
        """The room's row again; a match begun elsewhere meanwhile starts its seat holds."""
        if await self.directory.reload_room(runtime) and self.on_begin is not None:
            self.on_begin(runtime)

    async def start(self, runtime: RoomRuntime, player: PlayerRecord) -> dict[str, Any]:
        """The host starts the room's first match."""

        async def start() -> Effects:
            if player.id != runtime.room.host.id:
                raise forbidden("Only the host can start the match.")
            if runtime.room.status != RoomStatus.WAITING:
                raise RoomError(ErrorCode.ALREADY_STARTED, "The match has already started.")
            return await self.begin(runtime)

        return await self.runner.answered(runtime, start)

    async def begin(self, runtime: RoomRuntime) -> Effects:
        """A new match in a room whose every seat is filled (its first, or a rematch); run
        inside a command."""
        room = runtime.room
        if not all(s.filled for s in room.seats):
            raise RoomError(ErrorCode.SEATS_EMPTY, "Every seat must be filled before the start.")
        await self._check_bot_matches(runtime)
        match = await self.store.start_match(
            room,
            seed=secrets.randbits(63),
            engine_version=runtime.engine.version,
            from_status=room.status,
            at=self.clock.now(),
        )
        if match is None:  # another process changed the room first
            await self.reload(runtime)
            if not all(s.filled for s in runtime.room.seats):
                raise RoomError(ErrorCode.SEATS_EMPTY, "A seat was left meanwhile.")
            raise RoomError(ErrorCode.ALREADY_STARTED, "The match has already started.")
        runtime.begin(match)
        if self.on_begin is not None:
            self.on_begin(runtime)
        return Effects(room=True, state=True, event={"kind": "room"})

    async def _check_bot_matches(self, runtime: RoomRuntime) -> None:
        room = runtime.room
        if any(s.player is not None for s in room.seats):
            return
        if await self.store.bot_matches_of(room.host.id) >= self.limits.bot_matches:
            raise RoomError(
                ErrorCode.TOO_MANY_BOT_MATCHES,
                f"You already have {self.limits.bot_matches} matches of bots alone running.",
                429,
            )

    @staticmethod
    def _check_seat_number(runtime: RoomRuntime, seat: int) -> None:
        if not 0 <= seat < len(runtime.room.seats):
            raise not_found("seat")
