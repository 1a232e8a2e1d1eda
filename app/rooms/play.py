"""Play: a move submitted for a seat, validated once by the engine, committed, then shown; and
the ends of a match between moves (a forfeit, a claimed win).

A match has at most ``max_moves`` moves (``CARDROOM_MAX_MATCH_MOVES``): the move that reaches
the limit without ending the match by its rules ends it, aborted and unrated (``detail``:
``{"reason": "move_limit", "limit": n}``). Two players who keep undoing their moves, or two bots
that mirror each other, would otherwise hold a room, a match in memory and its growing move log
for ever."""

from __future__ import annotations

from functools import partial
from typing import Any

from app.db.movelog import MoveCommit, UnstorableMove
from app.db.players import PlayerRecord
from app.db.store import Store
from app.rooms.clock import Clock
from app.rooms.commands import CommandRunner, Effects
from app.rooms.errors import ActionRefused, ErrorCode, RoomError, forbidden
from app.rooms.runtime import RoomRuntime
from games import IllegalAction, MalformedAction
from games.base import Action, Outcome, Seat

NO_MATCH = "No match is running in this room."
MOVE_LIMIT = "move_limit"
"""The ``reason`` of a match aborted at the server's limit of moves."""


class Play:
    def __init__(
        self,
        runner: CommandRunner,
        store: Store,
        clock: Clock,
        *,
        snapshot_every: int,
        max_moves: int = 5000,
    ) -> None:
        self.runner = runner
        self.store = store
        self.clock = clock
        self.snapshot_every = snapshot_every
        self.max_moves = max(1, max_moves)

    async def submit(
        self, runtime: RoomRuntime, player_id: int, action: Any, seq: int | None
    ) -> None:
        """A client's move for its own seat, as it sent it."""
        seat = runtime.seats_by_player.get(player_id)
        if seat is None:
            raise ActionRefused(ErrorCode.NOT_SEATED, "You are watching: only seated players act.")
        await self.runner.run(runtime, partial(self._play, runtime, seat, action, seq))

    async def play_for(
        self, runtime: RoomRuntime, seat: Seat, action: Action, seq: int, *, away: bool = False
    ) -> None:
        """A move the server makes for a seat (a bot's, or a timer's fallback), chosen for
        the table at ``seq``: a move made meanwhile makes it stale, and so does the return of
        the player an ``away`` seat's stand-in chose it for (the move is theirs to make)."""
        server = partial(self._play, runtime, seat, action, seq, by_server=True, away=away)
        await self.runner.run(runtime, server)

    async def _play(
        self,
        runtime: RoomRuntime,
        seat: Seat,
        raw: Any,
        seq: int | None,
        *,
        by_server: bool = False,
        away: bool = False,
    ) -> Effects:
        state, match = runtime.state, runtime.match
        if state is None or match is None or not runtime.playing:
            raise ActionRefused(ErrorCode.ILLEGAL_ACTION, NO_MATCH)
        if away and runtime.stand_in(seat) is None:
            raise ActionRefused(ErrorCode.STALE, "The seat's player is back.")
        if seq is not None and seq != runtime.seq:
            raise ActionRefused(
                ErrorCode.STALE, f"The table has moved on (now at move {runtime.seq})."
            )
        try:
            move = runtime.engine.play(state, seat, raw)  # all that follows: the canonical form
        except MalformedAction as error:
            raise ActionRefused(ErrorCode.BAD_MESSAGE, error.message) from None
        except IllegalAction as error:
            not_yours = error.code == ErrorCode.NOT_YOUR_TURN
            code = ErrorCode.NOT_YOUR_TURN if not_yours else ErrorCode.ILLEGAL_ACTION
            raise ActionRefused(code, error.message) from None
        next_seq, at = runtime.seq + 1, self.clock.now()
        rated = True
        if move.outcome is not None:
            ended = runtime.closing(move.outcome)
        elif next_seq >= self.max_moves:  # the limit: this move ends the match, unrated
            limit = Outcome.aborted(len(runtime.room.seats), MOVE_LIMIT, limit=self.max_moves)
            ended, rated = runtime.closing(limit), False
        else:
            ended = None
        # the server stood in for the seat's player: a bot for an away player, or a timer's
        # fallback for one not connected (neither is a move of the player's own)
        stand_in = runtime.stand_in(seat) is not None or (
            by_server
            and runtime.room.seats[seat].player is not None
            and seat in runtime.absent_since
        )
        commit = MoveCommit(
            room_id=runtime.room.id,
            match_id=match.id,
            seq=next_seq,
            seat=seat,
            action=move.action,
            at=at,
            end=None
            if ended is None
            else runtime.match_end(ended, next_seq, at, self.snapshot_every, rated=rated),
            snapshot=move.state if next_seq % self.snapshot_every == 0 else None,
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
            shown = runtime.terminal is not None or runtime.table.turn_based  # (stand-ins end)
            return Effects(room=shown, state=True, refusal=refusal)
        runtime.moved(
            seat, move.action, move.state, move.to_act, move.outcome, at, stand_in=stand_in
        )
        handed_back = stand_in and runtime.table.turn_based  # (the move ends the stand-in's)
        if ended is not None:
            runtime.end(ended)
        event: dict[str, Any] = {
            "kind": "move",
            "match_id": match.id,
            "seq": next_seq,
            "seat": seat,
            "action": move.action,
            "stand_in": stand_in,
        }
        if ended is not None and move.outcome is None:
            # the rules did not end it, so a process that applies the move would play on: the
            # others read the room again, as after a forfeit
            event = {"kind": "room"}
        return Effects(
            room=ended is not None or handed_back,
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
            outcome = Outcome.forfeit(len(runtime.room.seats), seat, reason)
            absent = seat if reason == "absent" else None
            return await self._close(runtime, runtime.closing(outcome, forfeited=absent))

        await self.runner.run(runtime, forfeit)

    async def claim(self, runtime: RoomRuntime, player: PlayerRecord) -> dict[str, Any]:
        """A player still at the table ends the match when every opponent is away past the
        seat hold (a stand-in plays each of them): the players at the table win, the away
        seats have abandoned it."""

        async def claim() -> Effects:
            seat = runtime.seat_of(player.id)
            if seat is None:
                raise forbidden("Only a seated player can claim the win.")
            if runtime.match is None or not runtime.playing:
                raise RoomError(ErrorCode.CANNOT_CLAIM, NO_MATCH)
            players = len(runtime.room.seats)
            away = {s for s in range(players) if runtime.stand_in(s) is not None}
            if seat in away or len(away) != players - 1:
                raise RoomError(
                    ErrorCode.CANNOT_CLAIM,
                    "You can claim the win only when every opponent has been away longer "
                    "than the seat hold.",
                )
            outcome = runtime.closing(Outcome.claimed(players, away, seat))
            return await self._close(runtime, outcome)

        return await self.runner.answered(runtime, claim)

    async def _close(self, runtime: RoomRuntime, outcome: Outcome) -> Effects:
        """End the running match between moves with ``outcome`` (a forfeit, a claimed win)."""
        end = runtime.match_end(outcome, runtime.seq, self.clock.now(), self.snapshot_every)
        await self.store.finish(end)
        runtime.end(outcome)
        return Effects(room=True, state=True, event={"kind": "room"}, ended=end.match_id)
