"""The rooms of this process: lifecycle, the match runner and bots.

Every change to a room (a seat taken or left, a bot added, a start or rematch, a move, a
stand-in, a forfeit, a timeout, moves made by another process) is a command run by
:meth:`RoomManager._run`: one at a time per room, holding the room's lock while it changes
memory and the database together; then :meth:`RoomManager._after` takes the steps that follow
every change in one place (the room and state messages, the other processes, bots, timers).
The database backs the same rules with constraints (migration 0004), so two processes cannot
break them either.

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
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from app.db import matches as match_db
from app.db import rooms as room_db
from app.db.clock import iso
from app.db.movelog import MoveCommit, UnstorableMove
from app.db.outcomes import Termination, with_termination
from app.db.players import PlayerRecord
from app.db.store import Store
from app.rooms import referee
from app.rooms.bots import LEVELS, BotPlayer
from app.rooms.clock import SYSTEM_CLOCK, Clock
from app.rooms.errors import ActionRefused, ErrorCode, RoomError, forbidden, not_found
from app.rooms.keyed_locks import KeyedLocks
from app.rooms.lifecycle import RoomStatus
from app.rooms.ports import Audience, Broker
from app.rooms.referee import Forfeit, StandIn, TimerMove, Verdict
from app.rooms.rematch import Proposal
from app.rooms.runtime import RoomRuntime
from app.rooms.table import TableSettings
from games import REGISTRY, IllegalAction, InvalidOptions, MalformedAction
from games.base import Action, Seat

log = logging.getLogger(__name__)

ROOM_ID = re.compile(r"[A-Za-z0-9_-]{1,16}")  # what secrets.token_urlsafe makes
NO_MATCH = "No match is running in this room."
CHAT_HISTORY = 50  # chat messages a (re)connecting reader gets back


@dataclass(frozen=True)
class RoomLimits:
    """What one player may hold at once, and how long an unused room stays in memory."""

    open_rooms: int = 10  # rooms a player hosts that are waiting or playing
    bot_matches: int = 2  # running matches a player hosts where every seat is a bot
    idle_seconds: float = 300.0  # a loaded room nobody uses is dropped from memory after it


@dataclass(slots=True)
class Effects:
    """What a room change means for everyone else; :meth:`RoomManager._after` acts on it."""

    room: bool = False  # seats, status or connections changed: a room message
    state: bool = False  # the match state changed: a state message to every viewer
    first: Seat | None = None  # whose sockets get the new state first (the mover's)
    event: dict[str, Any] | None = None  # for the other processes
    refusal: ActionRefused | None = None  # raised to the caller once the change is out
    ended: int | None = None  # the match this change ended, for ``RoomManager.on_match_end``


Command = Callable[[], Awaitable[Effects]]


class RoomManager:
    def __init__(
        self,
        db: AsyncEngine,
        store: Store,
        broker: Broker,
        audience: Audience,
        *,
        bot_delay: float,
        snapshot_every: int,
        bot_think: float = 0.3,
        bot_quick: float = 0.025,
        limits: RoomLimits | None = None,
        clock: Clock = SYSTEM_CLOCK,
        rematch_seconds: float = 60.0,
    ) -> None:
        self.db = db
        self.store = store
        self.broker = broker
        self.audience = audience
        self.bot_delay = bot_delay
        self.snapshot_every = max(1, snapshot_every)
        self.limits = limits or RoomLimits()
        self.clock = clock  # timers, seat holds, idle rooms, bots' pace and move time stamps
        self.rematch_seconds = rematch_seconds  # how long a rematch proposal waits
        self._runtimes: dict[str, RoomRuntime] = {}
        self._loading: dict[str, asyncio.Future[RoomRuntime]] = {}
        self._hosting = KeyedLocks[int]()  # a player's room creations, one at a time
        self.bots = BotPlayer(
            bot_think, quick_s=bot_quick, clock=clock.monotonic, sleep=clock.sleep
        )
        self.process_id = uuid.uuid4().hex
        self.on_match_end: Callable[[int], object] | None = None
        """Told the id of every match that ends in this process with a result."""

    # -- loading ---------------------------------------------------------------------
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
        runtime = await self._load(room_id)
        self._runtimes[room_id] = runtime
        await self.broker.subscribe(room_id)
        await self.broker.publish(room_id, {"kind": "presence_query"})
        self._check_attendance(runtime)
        return runtime

    async def _load(self, room_id: str) -> RoomRuntime:
        room = await self.store.load_room(room_id)
        if room is None or room.game not in REGISTRY:
            raise not_found("room")
        runtime = RoomRuntime(room, touched=self.clock.monotonic())
        await self._load_match(runtime)
        return runtime

    async def _load_match(self, runtime: RoomRuntime) -> None:
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
        try:
            runtime.load_match(match, snapshot, moves)
        except Exception:  # the engine cannot rebuild it: the room must not stay wedged
            log.exception("room %s: match %d cannot be rebuilt", runtime.room.id, match.id)
            await self._set_aside(runtime, match, "cannot_rebuild")

    async def _set_aside(
        self, runtime: RoomRuntime, match: match_db.MatchRecord, reason: str
    ) -> None:
        """A match these rules cannot go on with is never replayed with them: a running one
        ends, aborted and unrated; a finished one keeps its result, with no table to show."""
        runtime.match, runtime.state = match, None
        if match.status == "finished":
            runtime.terminal = with_termination(match.outcome)
            return
        players = len(runtime.room.seats)
        outcome = {
            "scores": [0] * players,
            "winners": [],
            "rounds": [],
            "detail": {"reason": reason},
            "termination": Termination.ABORTED,
        }
        count = await self.store.load_move_count(match.id)
        end = runtime.match_end(outcome, count, self.clock.now(), self.snapshot_every, rated=False)
        await self.store.finish(end)
        runtime.end(outcome)

    async def _reload_room(self, runtime: RoomRuntime) -> None:
        room = await self.store.load_room(runtime.room.id)
        if room is None:
            return
        match_changed = room.match_id != runtime.room.match_id
        runtime.set_room(room)
        if match_changed:
            await self._load_match(runtime)
            self._check_attendance(runtime)

    def _unused(self, runtime: RoomRuntime) -> bool:
        """Nobody here watches it, no bot of ours plays in it, no timer of its runs, and no
        change of it is under way."""
        if runtime.bot_tasks or runtime.timer is not None or runtime.lock.locked():
            return False
        if runtime.rematch is not None and runtime.rematch.timer is not None:
            return False  # a proposal of ours waits for answers
        connected, spectators = self.audience.present(runtime.room.id)
        return not connected and not spectators

    def forget(self, room_id: str) -> None:
        """Drop a room nobody here watches and no bot of ours is playing in."""
        runtime = self._runtimes.get(room_id)
        if runtime is not None and not runtime.playing and self._unused(runtime):
            self._drop(room_id)

    def evict_idle(self, now: float | None = None) -> list[str]:
        """Drop the rooms unused for the limit's idle time (a running match too: it is
        rebuilt from the database when someone comes back); returns their ids."""
        now = self.clock.monotonic() if now is None else now
        idle = [
            room_id
            for room_id, runtime in self._runtimes.items()
            if now - runtime.touched >= self.limits.idle_seconds and self._unused(runtime)
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
            await self.clock.sleep(self.limits.idle_seconds / 4)
            self.evict_idle()

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
    @property
    def rooms_in_memory(self) -> int:
        return len(self._runtimes)

    @property
    def loads_under_way(self) -> int:
        return len(self._loading)

    def loaded(self, room_id: str) -> RoomRuntime | None:
        return self._runtimes.get(room_id)

    def room_json(self, runtime: RoomRuntime) -> dict[str, Any]:
        connected, spectators = self.audience.present(runtime.room.id)
        return runtime.room_json(connected, spectators, self.clock.now())

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
                result.append(RoomRuntime(room).room_json(set(), [], self.clock.now()))
        return result

    # -- the serialized path -----------------------------------------------------------
    async def _run(self, runtime: RoomRuntime, command: Command) -> Effects:
        """Run one change of the room, alone, then take the steps that follow it."""
        async with runtime.lock:
            effects = await command()
        await self._after(runtime, effects)
        if effects.refusal is not None:
            raise effects.refusal
        return effects

    async def _after(self, runtime: RoomRuntime, effects: Effects) -> None:
        room_id = runtime.room.id
        # A move's new state goes out first: it acknowledges the move. Otherwise the room
        # does, since its seats and status frame the state that follows.
        if effects.room and effects.first is None:
            self.audience.room_changed(room_id)
        if effects.state:
            self.audience.state_changed(room_id, first=effects.first)
        if effects.room and effects.first is not None:
            self.audience.room_changed(room_id)
        if effects.event is not None:
            await self.broker.publish(room_id, effects.event)
        if effects.ended is not None and self.on_match_end is not None:
            self.on_match_end(effects.ended)
        self._schedule_bots(runtime)
        self._watch(runtime)

    async def _room_command(self, runtime: RoomRuntime, command: Command) -> dict[str, Any]:
        """A change of seats or status asked over HTTP: answered with the room as it left it."""
        await self._run(runtime, command)
        return self.room_json(runtime)

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
            raise RoomError(ErrorCode.UNKNOWN_GAME, f"There is no game {game!r}.", 422)
        try:
            checked = engine.check_options(options, seats)
        except InvalidOptions as error:
            raise RoomError(ErrorCode.INVALID_OPTIONS, str(error), 422) from None
        settings = TableSettings.parse(table)
        room_id = secrets.token_urlsafe(6)
        async with self._hosting.hold(host.id):  # the count and the new room, together
            if await room_db.open_rooms_of(self.db, host.id) >= self.limits.open_rooms:
                raise RoomError(
                    ErrorCode.TOO_MANY_ROOMS,
                    f"You have {self.limits.open_rooms} open rooms already: play or finish "
                    "one of them first.",
                    429,
                )
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
            raise RoomError(ErrorCode.INVALID_LEVEL, "A bot level is easy, normal or hard.", 422)
        room = await self.create_room(
            player, game=game, seats=opponents + 1, options=None, private=True
        )
        room_id = room["id"]
        await self.take_seat(room_id, 0, player)
        for seat in range(1, opponents + 1):
            await self.add_bot(room_id, seat, player, level)
        return await self.start(room_id, player)

    async def take_seat(self, room_id: str, seat: int, player: PlayerRecord) -> dict[str, Any]:
        runtime = await self.runtime(room_id)

        async def take() -> Effects:
            self._check_seat_number(runtime, seat)
            if runtime.seat_of(player.id) is not None:
                raise RoomError(ErrorCode.ALREADY_SEATED, "You already have a seat in this room.")
            return await self._seat_change(
                runtime, await room_db.claim_seat(self.db, room_id, seat, player.id)
            )

        return await self._room_command(runtime, take)

    async def leave_seat(self, room_id: str, seat: int, player: PlayerRecord) -> dict[str, Any]:
        runtime = await self.runtime(room_id)

        async def leave() -> Effects:
            self._check_seat_number(runtime, seat)
            occupant = runtime.room.seats[seat]
            own = occupant.player is not None and occupant.player.id == player.id
            host_bot = occupant.bot is not None and runtime.room.host.id == player.id
            if not own and not host_bot:
                raise forbidden("That seat is not yours to clear.")
            return await self._seat_change(
                runtime, await room_db.clear_seat(self.db, room_id, seat)
            )

        return await self._room_command(runtime, leave)

    async def add_bot(
        self, room_id: str, seat: int, player: PlayerRecord, level: str
    ) -> dict[str, Any]:
        runtime = await self.runtime(room_id)

        async def add() -> Effects:
            self._check_seat_number(runtime, seat)
            if runtime.room.host.id != player.id:
                raise forbidden("Only the host can add bots.")
            if level not in LEVELS:
                raise RoomError(
                    ErrorCode.INVALID_LEVEL, "A bot level is easy, normal or hard.", 422
                )
            return await self._seat_change(
                runtime, await room_db.put_bot(self.db, room_id, seat, level)
            )

        return await self._room_command(runtime, add)

    async def _seat_change(self, runtime: RoomRuntime, change: room_db.SeatChange) -> Effects:
        await self._reload_room(runtime)  # another process may have changed it too
        if change is room_db.SeatChange.ROOM_PLAYING:
            raise RoomError(
                ErrorCode.ROOM_PLAYING, "Seats cannot change while the match is running."
            )
        if change is room_db.SeatChange.ALREADY_SEATED:
            raise RoomError(ErrorCode.ALREADY_SEATED, "You already have a seat in this room.")
        if change is room_db.SeatChange.SEAT_TAKEN:
            raise RoomError(ErrorCode.SEAT_TAKEN, "That seat is taken.")
        return Effects(room=True, event={"kind": "room"})

    async def start(self, room_id: str, player: PlayerRecord) -> dict[str, Any]:
        """The host starts the room's first match."""
        runtime = await self.runtime(room_id)

        async def start() -> Effects:
            if player.id != runtime.room.host.id:
                raise forbidden("Only the host can start the match.")
            if runtime.room.status != RoomStatus.WAITING:
                raise RoomError(ErrorCode.ALREADY_STARTED, "The match has already started.")
            return await self._begin(runtime)

        return await self._room_command(runtime, start)

    async def rematch(self, room_id: str, player: PlayerRecord, *, accept: bool) -> dict[str, Any]:
        """Propose or accept a rematch (``accept``), or decline one. The new match starts
        when every human seat has accepted: at once at a table with one human (or none, when
        the host calls it)."""
        runtime = await self.runtime(room_id)

        async def agree() -> Effects:
            room = runtime.room
            if room.status != RoomStatus.FINISHED:
                raise RoomError(ErrorCode.NOT_FINISHED, "A rematch follows a finished match.")
            seat = runtime.seat_of(player.id)
            if seat is None and (not accept or player.id != room.host.id):
                raise forbidden("Only the host or a seated player can call a rematch.")
            now = self.clock.now()
            proposal = runtime.rematch
            if not accept or proposal is None or not proposal.live(now):
                runtime.drop_rematch()
                proposal = None
            if not accept:
                return Effects(room=True, event={"kind": "rematch", "rematch": None})
            if proposal is None:
                expires = now + timedelta(seconds=self.rematch_seconds)
                proposal = Proposal.new(room, expires)
            if seat is not None:
                proposal.accepted.add(seat)
            if proposal.agreed(room):
                runtime.drop_rematch()
                return await self._begin(runtime)
            if runtime.rematch is not proposal:
                runtime.rematch = proposal
                proposal.timer = asyncio.get_running_loop().create_task(
                    self._lapse(runtime, proposal), name=f"rematch {room.id}"
                )
            return Effects(room=True, event={"kind": "rematch", "rematch": proposal.to_json()})

        return await self._room_command(runtime, agree)

    async def _lapse(self, runtime: RoomRuntime, proposal: Proposal) -> None:
        """A proposal nobody completed lapses at its time."""
        await self.clock.sleep((proposal.expires_at - self.clock.now()).total_seconds())

        async def lapse() -> Effects:
            if runtime.rematch is not proposal:
                return Effects()  # it started, or was declined, meanwhile
            proposal.timer = None  # this task: not cancelled by the drop
            runtime.drop_rematch()
            return Effects(room=True, event={"kind": "rematch", "rematch": None})

        await self._run(runtime, lapse)

    async def _begin(self, runtime: RoomRuntime) -> Effects:
        """A new match in a room whose every seat is filled (its first, or a rematch)."""
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
            await self._reload_room(runtime)
            if not all(s.filled for s in runtime.room.seats):
                raise RoomError(ErrorCode.SEATS_EMPTY, "A seat was left meanwhile.")
            raise RoomError(ErrorCode.ALREADY_STARTED, "The match has already started.")
        runtime.begin(match)
        self._check_attendance(runtime)
        return Effects(room=True, state=True, event={"kind": "room"})

    async def _check_bot_matches(self, runtime: RoomRuntime) -> None:
        room = runtime.room
        if any(s.player is not None for s in room.seats):
            return
        if await room_db.bot_matches_of(self.db, room.host.id) >= self.limits.bot_matches:
            raise RoomError(
                ErrorCode.TOO_MANY_BOT_MATCHES,
                f"You already have {self.limits.bot_matches} matches of bots alone running.",
                429,
            )

    def _check_seat_number(self, runtime: RoomRuntime, seat: int) -> None:
        if not 0 <= seat < len(runtime.room.seats):
            raise not_found("seat")

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
        if referee.attendance(runtime, present, self.clock):  # a seat handed back to its player
            self.audience.room_changed(runtime.room.id)
            self.audience.state_changed(runtime.room.id)
            self._schedule_bots(runtime)
        self._watch(runtime)

    # -- timers --------------------------------------------------------------------------
    def _watch(self, runtime: RoomRuntime) -> None:
        """(Re)arm the room's timer for its next deadline or seat hold (a timer still waiting
        is cancelled; one that is due has let go of ``runtime.timer`` and runs to its end)."""
        if runtime.timer is not None:
            runtime.timer.cancel()
        runtime.timer = None
        delay = referee.next_due(runtime, self.clock)
        if delay is not None:
            runtime.timer = asyncio.get_running_loop().create_task(
                self._time(runtime, delay), name=f"timer {runtime.room.id}"
            )

    async def _time(self, runtime: RoomRuntime, delay: float) -> None:
        await self.clock.sleep(delay)
        # Due now: from here on no other change may cancel this task (it would stop a move
        # half made). Changes meanwhile arm timers of their own; the last one here re-arms.
        if runtime.timer is asyncio.current_task():
            runtime.timer = None
        try:
            for verdict in referee.verdicts(runtime, self.clock):
                await self._carry_out(runtime, verdict)
        except ActionRefused as refused:
            log.info("a timer's move in %s was refused: %s", runtime.room.id, refused.code)
        except Exception:
            log.exception("enforcing the table settings of room %s failed", runtime.room.id)
        self._watch(runtime)

    async def _carry_out(self, runtime: RoomRuntime, verdict: Verdict) -> None:
        if isinstance(verdict, StandIn):
            await self._run(runtime, lambda: self._stand_in(runtime, verdict.seat))
        elif isinstance(verdict, Forfeit):
            await self.forfeit(runtime, verdict.seat, verdict.reason)
        elif isinstance(verdict, TimerMove):
            await self.play_for(runtime, verdict.seat, verdict.action)

    async def _stand_in(self, runtime: RoomRuntime, seat: Seat) -> Effects:
        if not runtime.playing or runtime.absent_since.pop(seat, None) is None:
            return Effects()  # its player came back meanwhile
        runtime.set_away(seat, True)
        return Effects(room=True, state=True)

    # -- play --------------------------------------------------------------------------
    async def submit(
        self, room_id: str, player_id: int, action: Any, seq: int | None = None
    ) -> None:
        runtime = await self.runtime(room_id)
        seat = runtime.seat_of(player_id)
        if seat is None:
            raise ActionRefused(ErrorCode.NOT_SEATED, "You are watching: only seated players act.")
        await self._run(runtime, lambda: self._play(runtime, seat, action, seq))

    async def play_for(self, runtime: RoomRuntime, seat: Seat, action: Action) -> None:
        """A move the server makes for a seat (a bot's, or a timer's fallback)."""
        seq = runtime.seq  # the table it was chosen for: a move made meanwhile makes it stale
        await self._run(runtime, lambda: self._play(runtime, seat, action, seq))

    async def _play(
        self, runtime: RoomRuntime, seat: Seat, action: Any, seq: int | None
    ) -> Effects:
        state, match = runtime.state, runtime.match
        if state is None or match is None or not runtime.playing:
            raise ActionRefused(ErrorCode.ILLEGAL_ACTION, NO_MATCH)
        if seq is not None and seq != runtime.seq:
            raise ActionRefused(
                ErrorCode.STALE, f"The table has moved on (now at move {runtime.seq})."
            )
        engine = runtime.engine
        if seat not in engine.to_act(state):
            raise ActionRefused(ErrorCode.NOT_YOUR_TURN, "It is not your turn.")
        try:
            action = engine.parse_action(action)  # all that follows uses the canonical form
            new_state = engine.apply(state, seat, action)
        except MalformedAction as error:
            raise ActionRefused(ErrorCode.BAD_MESSAGE, error.message) from None
        except IllegalAction as error:
            not_yours = error.code == ErrorCode.NOT_YOUR_TURN
            code = ErrorCode.NOT_YOUR_TURN if not_yours else ErrorCode.ILLEGAL_ACTION
            raise ActionRefused(code, error.message) from None
        outcome = engine.outcome(new_state)
        ended = None if outcome is None else runtime.closing(with_termination(outcome.to_json()))
        next_seq, at = runtime.seq + 1, self.clock.now()
        stand_in = runtime.stand_in(seat) is not None
        commit = MoveCommit(
            room_id=runtime.room.id,
            match_id=match.id,
            seq=next_seq,
            seat=seat,
            action=action,
            at=at,
            end=None
            if ended is None
            else runtime.match_end(ended, next_seq, at, self.snapshot_every),
            snapshot=new_state if next_seq % self.snapshot_every == 0 else None,
            stand_in=stand_in,
        )
        try:
            stored = await self.store.append(commit)
        except UnstorableMove as unstored:  # nothing was written: the room goes on as it was
            raise ActionRefused(ErrorCode.ILLEGAL_ACTION, str(unstored)) from None
        if not stored:
            runtime.catch_up(await self.store.load_moves(match.id, runtime.seq))
            runtime.settle()
            refusal = ActionRefused(
                ErrorCode.STALE, "Another move was made first; here is the table now."
            )
            return Effects(room=runtime.terminal is not None, state=True, refusal=refusal)
        runtime.advance(seat, action, new_state, commit.at, stand_in=stand_in)
        if ended is not None:
            runtime.end(ended)
        event = {
            "kind": "move",
            "match_id": match.id,
            "seq": next_seq,
            "seat": seat,
            "action": action,
            "stand_in": stand_in,
        }
        return Effects(
            room=ended is not None,
            state=True,
            first=seat,
            event=event,
            ended=None if ended is None else match.id,
        )

    async def forfeit(self, runtime: RoomRuntime, seat: Seat, reason: str) -> None:
        """End the match now: ``seat`` loses, every other seat shares the win."""

        async def forfeit() -> Effects:
            if runtime.match is None or not runtime.playing:
                return Effects()
            players = len(runtime.room.seats)
            outcome = {
                "scores": [0 if s == seat else 1 for s in range(players)],
                "winners": [s for s in range(players) if s != seat],
                "rounds": [],
                "detail": {"forfeit": seat, "reason": reason},
                "termination": Termination.FORFEIT,
            }
            outcome = runtime.closing(outcome, forfeited=seat if reason == "absent" else None)
            return await self._close(runtime, outcome)

        await self._run(runtime, forfeit)

    async def _close(self, runtime: RoomRuntime, outcome: dict[str, Any]) -> Effects:
        """End the running match between moves with ``outcome`` (a forfeit, a claimed win)."""
        end = runtime.match_end(outcome, runtime.seq, self.clock.now(), self.snapshot_every)
        await self.store.finish(end)
        runtime.end(outcome)
        return Effects(room=True, state=True, event={"kind": "room"}, ended=end.match_id)

    async def claim(self, room_id: str, player: PlayerRecord) -> dict[str, Any]:
        """A player still at the table ends the match when every opponent is away past the
        seat hold (a stand-in plays each of them): the players at the table win, the away
        seats have abandoned it."""
        runtime = await self.runtime(room_id)

        async def claim() -> Effects:
            seat = runtime.seat_of(player.id)
            if seat is None:
                raise forbidden("Only a seated player can claim the win.")
            if runtime.match is None or not runtime.playing:
                raise RoomError(ErrorCode.CANNOT_CLAIM, "No match is running in this room.")
            seats = range(len(runtime.room.seats))
            away = [s for s in seats if runtime.stand_in(s) is not None]
            if seat in away or len(away) != len(runtime.room.seats) - 1:
                raise RoomError(
                    ErrorCode.CANNOT_CLAIM,
                    "You can claim the win only when every opponent has been away longer "
                    "than the seat hold.",
                )
            outcome = runtime.closing(
                {
                    "scores": [0 if s in away else 1 for s in seats],
                    "winners": [s for s in seats if s not in away],
                    "rounds": [],
                    "detail": {"claimed_by": seat},
                    "termination": Termination.CLAIMED,
                }
            )
            return await self._close(runtime, outcome)

        return await self._room_command(runtime, claim)

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
            await self.clock.sleep(self.bot_delay)
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
                await self._run(runtime, lambda: self._play(runtime, seat, action, seq))
            except ActionRefused as refused:
                log.info("bot in %s seat %d refused: %s", runtime.room.id, seat, refused.code)
        except Exception:
            log.exception("bot in room %s seat %d failed", runtime.room.id, seat)
        finally:
            runtime.bot_tasks.pop(seat, None)
        self._schedule_bots(runtime)

    async def close(self) -> None:
        """Stop every room's timer and bots, then the bots' worker processes."""
        tasks = [
            task
            for runtime in self._runtimes.values()
            for task in (
                runtime.timer,
                runtime.rematch.timer if runtime.rematch else None,
                *runtime.bot_tasks.values(),
            )
            if task is not None
        ]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self.bots.close()

    # -- chat --------------------------------------------------------------------------
    async def chat(self, room_id: str, player: PlayerRecord, text: str) -> None:
        """Players' chat reaches everyone; spectators' chat stays among spectators while
        the match runs."""
        runtime = await self.runtime(room_id)
        seated = runtime.seat_of(player.id) is not None
        channel = "players" if seated else "spectators"
        at = await room_db.add_chat(self.db, room_id, player.id, text, channel)
        payload = {
            "type": "chat",
            "from": player.to_json(),
            "text": text,
            "at": iso(at),
            "channel": channel,
        }
        self.audience.chat(runtime.room.id, payload)
        await self.broker.publish(room_id, {"kind": "chat", "message": payload})

    async def chat_history(self, runtime: RoomRuntime, player_id: int) -> dict[str, Any]:
        """The ``chat_history`` message for a reader who (re)connects: the room's latest chat
        they may see, oldest first (a seated player's holds no spectators' chat while the
        match runs)."""
        players_only = runtime.playing and runtime.seat_of(player_id) is not None
        messages = await room_db.recent_chat(
            self.db, runtime.room.id, players_only=players_only, limit=CHAT_HISTORY
        )
        return {"type": "chat_history", "messages": messages}

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
        if kind == "rematch":
            proposal = event["rematch"]
            runtime.drop_rematch()
            if proposal is not None and runtime.room.status == RoomStatus.FINISHED:
                runtime.rematch = Proposal.from_json(proposal)
            self.audience.room_changed(room_id)
            return

        async def follow() -> Effects:
            match = runtime.match
            if kind == "move" and match is not None and event["match_id"] == match.id:
                if event["seq"] == runtime.seq + 1:
                    move = match_db.MoveRow(
                        event["seq"],
                        event["seat"],
                        event["action"],
                        self.clock.now(),
                        bool(event.get("stand_in")),
                    )
                    runtime.catch_up([move])
                elif event["seq"] > runtime.seq:
                    runtime.catch_up(await self.store.load_moves(match.id, runtime.seq))
                runtime.settle()
            else:
                await self._reload_room(runtime)
            return Effects(room=True, state=True)

        await self._run(runtime, follow)
