"""One room as this process holds it: the room record and the match state, in memory.

The state is rebuilt from ``setup(seed)`` plus the stored moves (from the latest
snapshot on), and so are the timers: each move's time stamp says when the seats
to act began waiting. Nothing lives only here. Who is to act and whether the rules
ended the match are worked out once per state (by the engine's ``play``, or here after a
trusted move) and kept beside it.
"""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
from typing import Any

from app.db.matches import MatchEnd, MatchRecord, MoveRow
from app.db.rooms import RoomRecord
from app.rooms.lifecycle import RoomStatus
from app.rooms.rematch import PaceVote, Proposal
from app.rooms.table import TableSettings
from app.timestamps import aware
from games import get_game
from games.base import Action, Engine, Outcome, Seat, State

TAKEOVER_LEVEL = "normal"
PLAYED_FOR_SIZE = 50  # the stand-in's latest moves kept for a seat's returning player
NOBODY: frozenset[Seat] = frozenset()


class RoomRuntime:
    def __init__(self, room: RoomRecord, *, touched: float = 0.0) -> None:
        self.room = room
        self.table = TableSettings.parse(room.table)
        self.seats_by_player = _seats_by_player(room)
        self.engine: Engine = get_game(room.game)
        self.lock = asyncio.Lock()
        self.match: MatchRecord | None = None
        self.state: State | None = None
        self.acting: frozenset[Seat] = NOBODY  # the seats to act at ``state``
        self.ruled: Outcome | None = None  # how the rules ended the match at ``state``
        self.seq = 0
        self.last: tuple[Seat, Action] | None = None
        self.terminal: Outcome | None = None  # how the match ended, as the room stores it
        self.changed_at: datetime | None = None
        self.clock_used: dict[Seat, float] = {}
        # each seat's moves of its own this match (not a stand-in's): a rated match needs some
        self.own_moves: list[int] = [0] * len(room.seats)
        self.away: set[Seat] = set()
        # the moves a stand-in made for each seat, until its player moves again (in memory)
        self.played_for: dict[Seat, list[dict[str, Any]]] = {}
        self.rematch: Proposal | None = None
        self.pace_vote: PaceVote | None = None  # a proposal to switch the match's pace
        self.absent_since: dict[Seat, float] = {}
        # who is connected to the room on each other process, and until when that holds
        # unless the process says so again (a process that crashed says nothing more)
        self.remote_present: dict[str, set[int]] = {}
        self.remote_until: dict[str, datetime] = {}
        self.shared = False  # another process has spoken of the room: it may be ahead of us
        self.bot_tasks: dict[Seat, asyncio.Task[None]] = {}
        self.timer: asyncio.Task[None] | None = None
        self.turns_kept: tuple[int, int] | None = None  # (match, seq) a turns job was kept at
        self.touched = touched  # when this process last used the room (the manager's clock)

    def set_room(self, room: RoomRecord) -> None:
        table = TableSettings.parse(room.table)
        paced = table.pace != self.table.pace
        self.room, self.table = room, table
        self.seats_by_player = _seats_by_player(room)
        if paced:
            self._paced()

    def switch_table(self, table: TableSettings) -> None:
        """The match goes on at another pace (the move under way's time still counts from
        the last move, wherever the match is loaded)."""
        self.room.table = table.to_json()
        self.table = table
        self._paced()

    def _paced(self) -> None:
        """At a turn-based table nobody is absent, and no stand-in plays for anyone."""
        if self.table.turn_based:
            self.absent_since.clear()
            self.away.clear()
        self.turns_kept = None  # written again, and a turn-based match's job kept

    # -- match state -----------------------------------------------------------------
    def load_match(
        self,
        match: MatchRecord,
        snapshot: tuple[int, State] | None,
        moves: list[MoveRow],
        *,
        own_moves: dict[Seat, int] | None = None,
    ) -> None:
        """The match from its latest snapshot (``None``: its start) and the moves after it
        (from the snapshot's own); ``own_moves``: each seat's own moves through the
        snapshot's (the stored count; those after it are counted here)."""
        self.match = match
        counted = own_moves or {}
        self.own_moves = [counted.get(seat, 0) for seat in range(match.players)]
        if snapshot is not None:
            self.seq, state = snapshot
        else:
            self.seq = 0
            state = self.engine.setup(match.players, match.seed, match.options)
        self._settle_on(state)
        self.last = None
        finished = match.status == "finished" and match.outcome is not None
        self.terminal = Outcome.from_json(match.outcome) if finished else None
        self.changed_at = aware(match.started_at)
        self.clock_used = {}
        self.away.clear()
        self.played_for.clear()
        self.drop_rematch()
        self.pace_vote = None
        self.absent_since.clear()
        if snapshot is not None and moves and moves[0].seq == self.seq:
            made, moves = moves[0], moves[1:]  # the snapshot's own move, already in its state
            self.last = (made.seat, made.action)
            self._note_stand_in(made.seat, made.action, made.stand_in)
            self.changed_at = aware(made.at)
        self.catch_up(moves)

    def _settle_on(self, state: State) -> None:
        """``state`` is the table now, reached by a trusted move: who acts and the rules'
        verdict, asked once."""
        self.state = state
        self.ruled = self.engine.outcome(state)
        self.acting = NOBODY if self.ruled is not None else self.engine.to_act(state)

    def _advance(
        self,
        seat: Seat,
        action: Action,
        at: datetime,
        *,
        stand_in: bool = False,
    ) -> None:
        """Note the move just made at ``at`` (timezone-aware); ``state``, ``acting`` and
        ``ruled`` are already its own."""
        self.seq += 1
        self.last = (seat, action)
        if not stand_in:
            self.own_moves[seat] += 1
        self._note_stand_in(seat, action, stand_in)
        self.changed_at = at
        if self.away and self.table.turn_based:
            # a stand-in plays one missed turn-based move, whoever made the move (its stand-in
            # here, or another process's): every seat is its player's again
            self.away.clear()

    def moved(
        self,
        seat: Seat,
        action: Action,
        state: State,
        acting: frozenset[Seat],
        ruled: Outcome | None,
        at: datetime,
        *,
        stand_in: bool = False,
    ) -> None:
        """``seat`` played ``action`` at ``at``, leaving ``state`` (whose seats to act and
        outcome the engine gave with it)."""
        self._spend(at)
        self.state, self.acting, self.ruled = state, acting, ruled
        self._advance(seat, action, at, stand_in=stand_in)

    def _spend(self, at: datetime) -> None:
        """The seats that waited for the move made at ``at`` (timezone-aware) spent the time
        since the last change (it counts only on a chess clock)."""
        if self.state is not None and self.changed_at is not None and self.table.clock:
            spent = max(0.0, (at - self.changed_at).total_seconds())
            for waiting in self.acting:
                self.clock_used[waiting] = self.clock_used.get(waiting, 0.0) + spent

    def _note_stand_in(self, seat: Seat, action: Action, stand_in: bool) -> None:
        """Keep what a stand-in plays for an away seat; its player's own move ends the list."""
        if stand_in:
            played = self.played_for.setdefault(seat, [])
            played.append({"seq": self.seq, "action": action})
            if len(played) > PLAYED_FOR_SIZE:
                del played[0]
        elif seat in self.played_for:
            del self.played_for[seat]

    def drop_rematch(self) -> None:
        if self.rematch is not None and self.rematch.timer is not None:
            self.rematch.timer.cancel()
        self.rematch = None

    def catch_up(self, moves: list[MoveRow]) -> None:
        """Apply stored moves (another process's, or the log after a snapshot)."""
        for move in moves:
            if self.state is not None and move.seq == self.seq + 1:
                at = aware(move.at)
                self._spend(at)
                self._settle_on(self.engine.apply_unchecked(self.state, move.seat, move.action))
                self._advance(move.seat, move.action, at, stand_in=move.stand_in)

    def begin(self, match: MatchRecord) -> None:
        """A new match starts at this table."""
        self.room.status = RoomStatus(self.room.status).moved_to(RoomStatus.PLAYING)
        self.room.match_id = match.id
        self.load_match(match, None, [])

    def end(self, outcome: Outcome) -> None:
        """The match is over with ``outcome`` (which says why)."""
        self.terminal = outcome
        self.room.status = RoomStatus(self.room.status).moved_to(RoomStatus.FINISHED)

    def outcome(self) -> Outcome | None:
        """How the match ended, if it has: as stored, else as its rules say at the state."""
        return self.terminal if self.terminal is not None else self.ruled

    def settle(self) -> None:
        """After moves made elsewhere: if the rules ended the match, the room has finished."""
        playing = self.room.status == RoomStatus.PLAYING
        if self.terminal is None and self.ruled is not None and playing:
            self.end(self.closing(self.ruled))

    def closing(self, outcome: Outcome, forfeited: Seat | None = None) -> Outcome:
        """The outcome of the match ending now, saying who abandoned it (when any did): the
        human seats a stand-in plays, and ``forfeited`` (a seat lost by absence)."""
        abandoned = {s for s in self.away if self.room.seats[s].player is not None}
        if forfeited is not None:
            abandoned.add(forfeited)
        return outcome.abandoning(abandoned)

    def match_end(
        self,
        outcome: Outcome,
        move_count: int,
        at: datetime,
        snapshot_every: int,
        *,
        rated: bool = True,
    ) -> MatchEnd:
        """What the commit that ends the running match with ``outcome`` (see :meth:`closing`)
        writes (``snapshot_every`` says whether a snapshot row may be left to delete)."""
        assert self.match is not None
        return MatchEnd(
            room_id=self.room.id,
            match_id=self.match.id,
            game=self.room.game,
            seats=tuple((s.player.id if s.player else None, s.bot) for s in self.room.seats),
            move_count=move_count,
            outcome=outcome.to_json(),
            at=at,
            has_snapshot=move_count >= snapshot_every,
            rated=rated,
            abandoned=frozenset(outcome.abandoned),
            own_moves=tuple(self.own_moves),
        )

    @property
    def playing(self) -> bool:
        return (
            self.state is not None
            and self.room.status == RoomStatus.PLAYING
            and self.terminal is None
        )

    def to_act(self) -> frozenset[Seat]:
        return NOBODY if self.terminal is not None else self.acting

    def seat_of(self, player_id: int) -> Seat | None:
        return self.seats_by_player.get(player_id)

    def bot_level(self, seat: Seat) -> str | None:
        """Who plays ``seat`` for the server: its bot, or a stand-in for an away player."""
        level = self.room.seats[seat].bot
        if level is None and seat in self.away:
            return TAKEOVER_LEVEL
        return level

    def stand_in(self, seat: Seat) -> str | None:
        """The level of the bot playing for ``seat``'s away player, if one does."""
        if seat in self.away and self.room.seats[seat].player is not None:
            return TAKEOVER_LEVEL
        return None

    def set_away(self, seat: Seat, away: bool) -> None:
        if away:
            self.away.add(seat)
        else:
            self.away.discard(seat)

    # -- presence elsewhere ------------------------------------------------------------
    def heard(self, process: str, players: set[int], until: datetime) -> bool:
        """``process`` says who is connected there, true until ``until``; ``True`` if that
        changes who is there."""
        changed = self.remote_present.get(process) != players
        self.shared = True
        self.remote_present[process] = players
        self.remote_until[process] = until
        return changed

    def remote_players(self, now: datetime) -> set[int]:
        """The players connected on processes heard from within their time."""
        until = self.remote_until
        return set().union(
            *(players for process, players in self.remote_present.items() if until[process] > now)
        )

    def forget_silent(self, now: datetime) -> bool:
        """Drop what processes not heard from in time said; ``True`` if any was dropped."""
        silent = [process for process, until in self.remote_until.items() if until <= now]
        for process in silent:
            del self.remote_present[process], self.remote_until[process]
        return bool(silent)

    # -- timers --------------------------------------------------------------------------
    def deadlines(self) -> dict[Seat, datetime]:
        """When each human seat to act runs out of time (empty without a turn timer)."""
        seconds = self.table.turn_seconds
        if not seconds or not self.playing or self.changed_at is None:
            return {}
        result = {}
        for seat in self.to_act():
            if self.bot_level(seat) is not None:
                continue
            allowed = seconds - self.clock_used.get(seat, 0.0) if self.table.clock else seconds
            result[seat] = self.changed_at + timedelta(seconds=max(0.0, allowed))
        return result


def _seats_by_player(room: RoomRecord) -> dict[int, Seat]:
    return {s.player.id: s.seat for s in room.seats if s.player is not None}
