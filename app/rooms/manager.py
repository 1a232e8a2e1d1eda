"""The rooms of this process: lifecycle, the match runner and bots.

A move goes: check the sender may act -> ``engine.apply`` -> commit the move
(group commit, see ``app.db.movelog``) -> update the in-memory state -> tell the
local audience -> publish to the other processes. A refused action changes
nothing and reaches only its sender.
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
import uuid
from collections.abc import Mapping
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from app.db import matches as match_db
from app.db import rooms as room_db
from app.db.clock import iso, utcnow
from app.db.movelog import MoveCommit, MoveLog
from app.db.players import PlayerRecord
from app.db.startlog import StartLog
from app.rooms.bots import LEVELS, BotPlayer
from app.rooms.errors import ActionRefused, RoomError, forbidden, not_found
from app.rooms.ports import Audience, Broker
from app.rooms.referee import Referee
from app.rooms.runtime import RoomRuntime
from app.rooms.table import TableSettings
from games import REGISTRY, IllegalAction, InvalidOptions, MalformedAction
from games.base import Action, Seat

log = logging.getLogger(__name__)

ROOM_ID = re.compile(r"[A-Za-z0-9_-]{1,16}")  # what secrets.token_urlsafe makes


class RoomManager:
    def __init__(
        self,
        db: AsyncEngine,
        movelog: MoveLog,
        broker: Broker,
        audience: Audience,
        *,
        bot_delay: float,
        snapshot_every: int,
        starts: StartLog,
        bot_think: float = 0.3,
    ) -> None:
        self.db = db
        self.starts = starts
        self.movelog = movelog
        self.broker = broker
        self.audience = audience
        self.bot_delay = bot_delay
        self.snapshot_every = max(1, snapshot_every)
        self._runtimes: dict[str, RoomRuntime] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self.bots = BotPlayer(bot_think)
        self.process_id = uuid.uuid4().hex
        self.referee = Referee(self)

    # -- loading ---------------------------------------------------------------------
    async def runtime(self, room_id: str) -> RoomRuntime:
        runtime = self._runtimes.get(room_id)
        if runtime is not None:
            return runtime
        if not ROOM_ID.fullmatch(room_id):
            raise not_found("room")
        lock = self._loading.setdefault(room_id, asyncio.Lock())
        async with lock:
            runtime = self._runtimes.get(room_id)
            if runtime is None:
                runtime = await self._load(room_id)
                self._runtimes[room_id] = runtime
                await self.broker.subscribe(room_id)
                await self.broker.publish(room_id, {"kind": "presence_query"})
                self._check_attendance(runtime)
        self._loading.pop(room_id, None)
        return runtime

    async def _load(self, room_id: str) -> RoomRuntime:
        room = await room_db.load_room(self.db, room_id)
        if room is None or room.game not in REGISTRY:
            raise not_found("room")
        runtime = RoomRuntime(room)
        await self._load_match(runtime)
        return runtime

    async def _load_match(self, runtime: RoomRuntime) -> None:
        match_id = runtime.room.match_id
        if match_id is None:
            return
        match = await match_db.load_match(self.db, match_id)
        if match is None:
            return
        snapshot = await match_db.load_snapshot(self.db, match_id)
        moves = await match_db.load_moves(self.db, match_id, snapshot[0] if snapshot else 0)
        runtime.load_match(match, snapshot, moves)

    async def _reload_room(self, runtime: RoomRuntime) -> None:
        room = await room_db.load_room(self.db, runtime.room.id)
        if room is None:
            return
        match_changed = room.match_id != runtime.room.match_id
        runtime.set_room(room)
        if match_changed:
            await self._load_match(runtime)
            self._check_attendance(runtime)

    def forget(self, room_id: str) -> None:
        """Drop a room nobody here watches and no bot of ours is playing in."""
        runtime = self._runtimes.get(room_id)
        if runtime is None or runtime.bot_tasks or runtime.lock.locked() or runtime.playing:
            return
        connected, spectators = self.audience.present(room_id)
        if connected or spectators:
            return
        del self._runtimes[room_id]
        asyncio.get_running_loop().create_task(self.broker.unsubscribe(room_id))

    async def resume(self) -> None:
        """After a start: every room in play gets its bots, timers and seat holds going again."""
        for room_id in await room_db.playing_rooms(self.db):
            try:
                runtime = await self.runtime(room_id)
            except Exception:
                log.exception("could not resume room %s", room_id)
                continue
            self._schedule_bots(runtime)

    # -- reading ---------------------------------------------------------------------
    def loaded(self, room_id: str) -> RoomRuntime | None:
        return self._runtimes.get(room_id)

    def room_json(self, runtime: RoomRuntime) -> dict[str, Any]:
        connected, spectators = self.audience.present(runtime.room.id)
        return runtime.room_json(connected, spectators)

    async def room(self, room_id: str) -> dict[str, Any]:
        return self.room_json(await self.runtime(room_id))

    async def open_rooms(self) -> list[dict[str, Any]]:
        rooms = await room_db.list_open_rooms(self.db)
        result = []
        for room in rooms:
            runtime = self._runtimes.get(room.id)
            if runtime is not None:
                result.append(self.room_json(runtime))
            else:
                result.append(RoomRuntime(room).room_json(set(), []))
        return result

    # -- lifecycle ---------------------------------------------------------------------
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
        engine = REGISTRY.get(game)
        if engine is None:
            raise RoomError("unknown_game", f"There is no game {game!r}.", 422)
        try:
            checked = engine.check_options(options, seats)
        except InvalidOptions as error:
            raise RoomError("invalid_options", str(error), 422) from None
        settings = TableSettings.parse(table)
        room_id = secrets.token_urlsafe(6)
        await room_db.create_room(
            self.db,
            room_id=room_id,
            game=game,
            options=checked,
            table=settings.to_json(),
            seats=seats,
            host_id=host.id,
            private=private,
        )
        return await self.room(room_id)

    async def play_now(
        self, player: PlayerRecord, *, game: str, level: str, opponents: int
    ) -> dict[str, Any]:
        """A started table against bots in one step: the caller in seat 0, bots elsewhere."""
        if level not in LEVELS:
            raise RoomError("invalid_level", "A bot level is easy, normal or hard.", 422)
        room = await self.create_room(
            player, game=game, seats=opponents + 1, options=None, private=True
        )
        room_id = room["id"]
        if not await room_db.claim_seat(self.db, room_id, 0, player.id):
            raise RoomError("seat_taken", "That seat is taken.")
        for seat in range(1, opponents + 1):
            await room_db.put_bot(self.db, room_id, seat, level)
        await self._reload_room(await self.runtime(room_id))
        return await self.start(room_id, player, rematch=False)

    async def take_seat(self, room_id: str, seat: int, player: PlayerRecord) -> dict[str, Any]:
        runtime = await self.runtime(room_id)
        self._check_seat_number(runtime, seat)
        if runtime.room.status == "playing":
            raise RoomError("room_playing", "The match is already running.")
        if runtime.seat_of(player.id) is not None:
            raise RoomError("already_seated", "You already have a seat in this room.")
        if not await room_db.claim_seat(self.db, room_id, seat, player.id):
            raise RoomError("seat_taken", "That seat is taken.")
        return await self._room_changed(runtime)

    async def leave_seat(self, room_id: str, seat: int, player: PlayerRecord) -> dict[str, Any]:
        runtime = await self.runtime(room_id)
        self._check_seat_number(runtime, seat)
        occupant = runtime.room.seats[seat]
        own = occupant.player is not None and occupant.player.id == player.id
        host_bot = occupant.bot is not None and runtime.room.host.id == player.id
        if not own and not host_bot:
            raise forbidden("That seat is not yours to clear.")
        if runtime.room.status == "playing":
            raise RoomError("room_playing", "Seats cannot change while the match is running.")
        await room_db.clear_seat(self.db, room_id, seat)
        return await self._room_changed(runtime)

    async def add_bot(
        self, room_id: str, seat: int, player: PlayerRecord, level: str
    ) -> dict[str, Any]:
        runtime = await self.runtime(room_id)
        self._check_seat_number(runtime, seat)
        if runtime.room.host.id != player.id:
            raise forbidden("Only the host can add bots.")
        if level not in LEVELS:
            raise RoomError("invalid_level", "A bot level is easy, normal or hard.", 422)
        if runtime.room.status == "playing":
            raise RoomError("room_playing", "Seats cannot change while the match is running.")
        if not await room_db.put_bot(self.db, room_id, seat, level):
            raise RoomError("seat_taken", "That seat is taken.")
        return await self._room_changed(runtime)

    async def start(self, room_id: str, player: PlayerRecord, *, rematch: bool) -> dict[str, Any]:
        runtime = await self.runtime(room_id)
        room = runtime.room
        if rematch:
            if room.status != "finished":
                raise RoomError("not_finished", "A rematch follows a finished match.")
            if player.id != room.host.id and runtime.seat_of(player.id) is None:
                raise forbidden("Only the host or a seated player can call a rematch.")
        else:
            if player.id != room.host.id:
                raise forbidden("Only the host can start the match.")
            if room.status != "waiting":
                raise RoomError("already_started", "The match has already started.")
        if not all(s.filled for s in room.seats):
            raise RoomError("seats_empty", "Every seat must be filled before the start.")
        match = await match_db.start_match(
            self.db,
            room,
            seed=secrets.randbits(63),
            engine_version=runtime.engine.version,
            from_status=room.status,
            starts=self.starts,
        )
        if match is None:
            raise RoomError("already_started", "The match has already started.")
        async with runtime.lock:
            room.status, room.match_id = "playing", match.id
            runtime.load_match(match, None, [])
        self._check_attendance(runtime)
        result = await self._room_changed(runtime, reload=False)
        self.audience.state_changed(room_id)
        self._schedule_bots(runtime)
        self.referee.watch(runtime)
        return result

    def _check_seat_number(self, runtime: RoomRuntime, seat: int) -> None:
        if not 0 <= seat < len(runtime.room.seats):
            raise not_found("seat")

    async def _room_changed(self, runtime: RoomRuntime, *, reload: bool = True) -> dict[str, Any]:
        if reload:
            await self._reload_room(runtime)
        self.audience.room_changed(runtime.room.id)
        await self.broker.publish(runtime.room.id, {"kind": "room"})
        return self.room_json(runtime)

    def presence_changed(self, room_id: str) -> None:
        runtime = self._runtimes.get(room_id)
        if runtime is None:
            return
        local, _ = self.audience.present(room_id)
        asyncio.get_running_loop().create_task(self._announce_presence(room_id, local))
        self._check_attendance(runtime)
        self.audience.room_changed(room_id)
        self.forget(room_id)

    async def _announce_presence(self, room_id: str, players: set[int]) -> None:
        event = {"kind": "presence", "process": self.process_id, "players": sorted(players)}
        await self.broker.publish(room_id, event)

    def _check_attendance(self, runtime: RoomRuntime) -> None:
        local, _ = self.audience.present(runtime.room.id)
        present = local.union(*runtime.remote_present.values())
        if self.referee.attendance(runtime, present):
            self.seats_changed(runtime)
        self.referee.watch(runtime)

    def seats_changed(self, runtime: RoomRuntime) -> None:
        """A seat was handed to a stand-in bot or back: tell everyone, let bots move."""
        self.audience.room_changed(runtime.room.id)
        self.audience.state_changed(runtime.room.id)
        self._schedule_bots(runtime)

    # -- play --------------------------------------------------------------------------
    async def submit(
        self, room_id: str, player_id: int, action: Any, seq: int | None = None
    ) -> None:
        runtime = await self.runtime(room_id)
        seat = runtime.seat_of(player_id)
        if seat is None:
            raise ActionRefused("not_seated", "You are watching: only seated players act.")
        await self._play(runtime, seat, action, seq)

    async def _play(self, runtime: RoomRuntime, seat: Seat, action: Any, seq: int | None) -> None:
        async with runtime.lock:
            state, match = runtime.state, runtime.match
            if state is None or match is None or not runtime.playing:
                raise ActionRefused("illegal_action", "No match is running in this room.")
            if seq is not None and seq != runtime.seq:
                raise ActionRefused("stale", f"The table has moved on (now at move {runtime.seq}).")
            engine = runtime.engine
            if seat not in engine.to_act(state):
                raise ActionRefused("not_your_turn", "It is not your turn.")
            try:
                new_state = engine.apply(state, seat, action)
            except MalformedAction as error:
                raise ActionRefused("bad_message", error.message) from None
            except IllegalAction as error:
                code = "not_your_turn" if error.code == "not_your_turn" else "illegal_action"
                raise ActionRefused(code, error.message) from None
            outcome = engine.outcome(new_state)
            next_seq, at = runtime.seq + 1, utcnow()
            commit = MoveCommit(
                room_id=runtime.room.id,
                match_id=match.id,
                seq=next_seq,
                seat=seat,
                action=action,
                at=at,
                end=None
                if outcome is None
                else runtime.match_end(outcome.to_json(), next_seq, at, self.snapshot_every),
                snapshot=new_state if next_seq % self.snapshot_every == 0 else None,
            )
            if not await self.movelog.append(commit):
                runtime.catch_up(await match_db.load_moves(self.db, match.id, runtime.seq))
                self.audience.state_changed(runtime.room.id)
                self.referee.watch(runtime)
                raise ActionRefused("stale", "Another move was made first; here is the table now.")
            runtime.advance(seat, action, new_state, commit.at)
            if outcome is not None:
                runtime.room.status = "finished"
        self.audience.state_changed(runtime.room.id, first=seat)
        if outcome is not None:
            self.audience.room_changed(runtime.room.id)
        await self.broker.publish(
            runtime.room.id,
            {"kind": "move", "match_id": match.id, "seq": next_seq, "seat": seat, "action": action},
        )
        self._schedule_bots(runtime)
        self.referee.watch(runtime)

    async def play_for(self, runtime: RoomRuntime, seat: Seat, action: Action) -> None:
        """A move the server makes for a seat (a bot's, or a timer's fallback)."""
        await self._play(runtime, seat, action, runtime.seq)

    async def forfeit(self, runtime: RoomRuntime, seat: Seat, reason: str) -> None:
        """End the match now: ``seat`` loses, every other seat shares the win."""
        async with runtime.lock:
            match = runtime.match
            if match is None or not runtime.playing:
                return
            players = len(runtime.room.seats)
            winners = [s for s in range(players) if s != seat]
            outcome = {
                "scores": [0 if s == seat else 1 for s in range(players)],
                "winners": winners,
                "rounds": [],
                "detail": {"forfeit": seat, "reason": reason},
            }
            end = runtime.match_end(outcome, runtime.seq, utcnow(), self.snapshot_every)
            await self.movelog.finish(end)
            runtime.end_by_forfeit(outcome)
        self.audience.room_changed(runtime.room.id)
        self.audience.state_changed(runtime.room.id)
        await self.broker.publish(runtime.room.id, {"kind": "room"})

    # -- bots --------------------------------------------------------------------------
    def _schedule_bots(self, runtime: RoomRuntime) -> None:
        if not runtime.playing:
            return
        for seat in runtime.to_act():
            level = runtime.bot_level(seat)
            if level is not None and seat not in runtime.bot_tasks:
                runtime.bot_tasks[seat] = asyncio.get_running_loop().create_task(
                    self._bot_turn(runtime, seat, level), name=f"bot {runtime.room.id}/{seat}"
                )

    async def _bot_turn(self, runtime: RoomRuntime, seat: Seat, level: str) -> None:
        try:
            await asyncio.sleep(self.bot_delay)
            if runtime.state is None or seat not in runtime.to_act():
                return
            level = runtime.bot_level(seat) or ""
            if not level:
                return  # its player came back
            seq = runtime.seq  # a hard bot thinks in a worker: the table may move meanwhile
            action = await self.bots.choose(
                runtime.engine, runtime.state, seat, level, room=runtime.room.id
            )
            try:
                await self._play(runtime, seat, action, seq)
            except ActionRefused as refused:
                log.info("bot in %s seat %d refused: %s", runtime.room.id, seat, refused.code)
        except Exception:
            log.exception("bot in room %s seat %d failed", runtime.room.id, seat)
        finally:
            runtime.bot_tasks.pop(seat, None)
        self._schedule_bots(runtime)

    async def close(self) -> None:
        """Stop the bots' worker processes."""
        await self.bots.close()

    # -- chat --------------------------------------------------------------------------
    async def chat(self, room_id: str, player: PlayerRecord, text: str) -> None:
        """Players' chat reaches everyone; spectators' chat stays among spectators while
        the match runs."""
        runtime = await self.runtime(room_id)
        seated = runtime.seat_of(player.id) is not None
        channel = "players" if seated else "spectators"
        at = await room_db.add_chat(self.db, room_id, player.id, text)
        payload = {
            "type": "chat",
            "from": player.to_json(),
            "text": text,
            "at": iso(at),
            "channel": channel,
        }
        self.audience.chat(runtime.room.id, payload)
        await self.broker.publish(room_id, {"kind": "chat", "message": payload})

    # -- other processes ---------------------------------------------------------------
    async def on_event(self, room_id: str, event: dict[str, Any]) -> None:
        runtime = self._runtimes.get(room_id)
        if runtime is None:
            return
        kind = event.get("kind")
        if kind == "chat":
            self.audience.chat(room_id, event["message"])
            return
        if kind == "presence_query":
            local, _ = self.audience.present(room_id)
            await self._announce_presence(room_id, local)
            return
        if kind == "presence":
            runtime.remote_present[event["process"]] = set(event["players"])
            self._check_attendance(runtime)
            self.audience.room_changed(room_id)
            return
        async with runtime.lock:
            match = runtime.match
            if kind == "move" and match is not None and event["match_id"] == match.id:
                if event["seq"] == runtime.seq + 1:
                    move = match_db.MoveRow(event["seq"], event["seat"], event["action"], utcnow())
                    runtime.catch_up([move])
                elif event["seq"] > runtime.seq:
                    runtime.catch_up(await match_db.load_moves(self.db, match.id, runtime.seq))
                if runtime.state is not None and runtime.engine.is_over(runtime.state):
                    runtime.room.status = "finished"
            else:
                await self._reload_room(runtime)
        self.audience.room_changed(room_id)
        self.audience.state_changed(room_id)
        self._schedule_bots(runtime)
        self.referee.watch(runtime)
