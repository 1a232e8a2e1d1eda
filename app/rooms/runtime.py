"""One room as this process holds it: the room record and the match state, in memory.

The state is rebuilt from ``setup(seed)`` plus the stored moves (from the latest
snapshot on), and so are the timers: each move's time stamp says when the seats
to act began waiting. Nothing lives only here.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

import orjson

from app.db.bot_names import bot_name
from app.db.clock import aware, iso
from app.db.matches import MatchEnd, MatchRecord, MoveRow
from app.db.outcomes import with_termination
from app.db.rooms import RoomRecord
from app.rooms.lifecycle import RoomStatus
from app.rooms.messages import outcome_at, state_messages
from app.rooms.rematch import Proposal
from app.rooms.table import TableSettings
from games import get_game
from games.base import Action, Engine, Seat, State

TAKEOVER_LEVEL = "normal"
SPECTATOR_NAMES = 50  # listed by name in the room; all are counted
PLAYED_FOR_SIZE = 50  # the stand-in's latest moves kept for a seat's returning player


class RoomRuntime:
    def __init__(self, room: RoomRecord, *, touched: float = 0.0) -> None:
        self.room = room
        self.table = TableSettings.parse(room.table)
        self.engine: Engine = get_game(room.game)
        self.lock = asyncio.Lock()
        self.match: MatchRecord | None = None
        self.state: State | None = None
        self.seq = 0
        self.last: tuple[Seat, Action] | None = None
        self.terminal: dict[str, Any] | None = None
        self.changed_at: datetime | None = None
        self.clock_used: dict[Seat, float] = {}
        self.away: set[Seat] = set()
        # the moves a stand-in made for each seat, until its player moves again (in memory)
        self.played_for: dict[Seat, list[dict[str, Any]]] = {}
        self.rematch: Proposal | None = None
        self.absent_since: dict[Seat, float] = {}
        self.remote_present: dict[str, set[int]] = {}
        self.bot_tasks: dict[Seat, asyncio.Task[None]] = {}
        self.timer: asyncio.Task[None] | None = None
        self.touched = touched  # when this process last used the room (the manager's clock)

    def set_room(self, room: RoomRecord) -> None:
        self.room = room
        self.table = TableSettings.parse(room.table)

    # -- match state -----------------------------------------------------------------
    def load_match(
        self, match: MatchRecord, snapshot: tuple[int, State] | None, moves: list[MoveRow]
    ) -> None:
        self.match = match
        if snapshot is not None:
            self.seq, self.state = snapshot
        else:
            self.seq = 0
            self.state = self.engine.setup(match.players, match.seed, match.options)
        self.last = None
        self.terminal = with_termination(match.outcome) if match.status == "finished" else None
        self.changed_at = aware(match.started_at)
        self.clock_used = {}
        self.away.clear()
        self.played_for.clear()
        self.drop_rematch()
        self.absent_since.clear()
        if snapshot is not None and moves and moves[0].seq == self.seq:
            made, moves = moves[0], moves[1:]  # the snapshot's own move, already in its state
            self.last = (made.seat, made.action)
            self._note_stand_in(made.seat, made.action, made.stand_in)
            self.changed_at = aware(made.at)
        self.catch_up(moves)

    def advance(
        self, seat: Seat, action: Action, state: State, at: datetime, *, stand_in: bool = False
    ) -> None:
        at = aware(at)
        if self.state is not None and self.changed_at is not None:
            spent = max(0.0, (at - self.changed_at).total_seconds())
            for waiting in self.engine.to_act(self.state):
                self.clock_used[waiting] = self.clock_used.get(waiting, 0.0) + spent
        self.state = state
        self.seq += 1
        self.last = (seat, action)
        self._note_stand_in(seat, action, stand_in)
        self.changed_at = at

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
        for move in moves:
            if self.state is not None and move.seq == self.seq + 1:
                new_state = self.engine.apply_unchecked(self.state, move.seat, move.action)
                self.advance(move.seat, move.action, new_state, move.at, stand_in=move.stand_in)

    def begin(self, match: MatchRecord) -> None:
        """A new match starts at this table."""
        self.room.status = RoomStatus(self.room.status).moved_to(RoomStatus.PLAYING)
        self.room.match_id = match.id
        self.load_match(match, None, [])

    def end(self, outcome: dict[str, Any]) -> None:
        """The match is over with ``outcome`` (which says why, under ``termination``)."""
        self.terminal = outcome
        self.room.status = RoomStatus(self.room.status).moved_to(RoomStatus.FINISHED)

    def ended_by_rules(self) -> dict[str, Any] | None:
        """The outcome of a match whose rules have ended it, as the room stores it."""
        return None if self.state is None else outcome_at(self.engine, self.state, None)

    def settle(self) -> None:
        """After moves made elsewhere: if the rules ended the match, the room has finished."""
        outcome = self.ended_by_rules() if self.terminal is None else None
        if outcome is not None and self.room.status == RoomStatus.PLAYING:
            self.end(self.closing(outcome))

    def closing(self, outcome: dict[str, Any], forfeited: Seat | None = None) -> dict[str, Any]:
        """The outcome of the match ending now, saying who abandoned it (``abandoned``, when
        any did): the human seats a stand-in plays, and ``forfeited`` (a seat lost by
        absence)."""
        abandoned = {s for s in self.away if self.room.seats[s].player is not None}
        if forfeited is not None:
            abandoned.add(forfeited)
        return {**outcome, "abandoned": sorted(abandoned)} if abandoned else outcome

    def match_end(
        self,
        outcome: dict[str, Any],
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
            outcome=outcome,
            at=at,
            has_snapshot=move_count >= snapshot_every,
            rated=rated,
            abandoned=frozenset(outcome.get("abandoned", ())),
        )

    @property
    def playing(self) -> bool:
        return (
            self.state is not None
            and self.room.status == RoomStatus.PLAYING
            and self.terminal is None
        )

    def to_act(self) -> frozenset[Seat]:
        if self.state is None or self.terminal is not None:
            return frozenset()
        return self.engine.to_act(self.state)

    def seat_of(self, player_id: int) -> Seat | None:
        return self.room.seat_of(player_id)

    def bot_level(self, seat: Seat) -> str | None:
        """Who plays ``seat`` for the server: its bot, or a stand-in for an away player."""
        level = self.room.seats[seat].bot
        if level is None and seat in self.away:
            return TAKEOVER_LEVEL
        return level

    def set_away(self, seat: Seat, away: bool) -> None:
        if away:
            self.away.add(seat)
        else:
            self.away.discard(seat)

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

    # -- messages ----------------------------------------------------------------------
    def state_frame(self, viewer: Seat | None) -> str | None:
        """The ``state`` message for one viewer, serialised."""
        return self.state_frames((viewer,)).get(viewer)

    def state_frames(self, viewers: Iterable[Seat | None]) -> dict[Seat | None, str]:
        """The ``state`` message for each of ``viewers``, serialised (none before a match)."""
        if self.state is None or self.match is None:
            return {}
        return {
            viewer: orjson.dumps(message).decode()
            for viewer, message in self.state_messages(viewers).items()
        }

    def state_messages(self, viewers: Iterable[Seat | None]) -> dict[Seat | None, dict[str, Any]]:
        assert self.state is not None and self.match is not None
        messages = state_messages(
            self.engine,
            self.state,
            viewers,
            match_id=self.match.id,
            seq=self.seq,
            last=self.last,
            outcome=self.terminal if self.terminal is not None else self.ended_by_rules(),
        )
        deadlines = self.deadlines()
        stamps = {str(seat): iso(when) for seat, when in deadlines.items()}
        for viewer, message in messages.items():
            if stamps:
                message["deadlines"] = stamps
            played = self.played_for.get(viewer) if viewer is not None else None
            if played and (viewer not in self.away or not self.playing):  # back, or the end
                message["played_for_you"] = [
                    {
                        "seq": p["seq"],
                        "action": self.engine.redact_action(p["action"], viewer, viewer),
                    }
                    for p in played
                ]
        return messages

    def stand_in(self, seat: Seat) -> str | None:
        """The level of the bot playing for ``seat``'s away player, if one does."""
        if seat in self.away and self.room.seats[seat].player is not None:
            return TAKEOVER_LEVEL
        return None

    def rematch_json(self, now: datetime) -> dict[str, Any] | None:
        live = self.rematch is not None and self.rematch.live(now)
        return self.rematch.to_json() if live and self.rematch is not None else None

    def room_json(
        self, connected: set[int], spectators: list[dict[str, Any]], now: datetime
    ) -> dict[str, Any]:
        room = self.room
        present = connected.union(*self.remote_present.values())
        return {
            "id": room.id,
            "game": room.game,
            "options": room.options,
            "table": self.table.to_json(),
            "status": room.status,
            "host": room.host.to_json(),
            "private": room.private,
            "seats": [
                {
                    "seat": s.seat,
                    "player": s.player.to_json() if s.player else None,
                    "bot": s.bot,
                    "connected": s.bot is not None
                    or (s.player is not None and s.player.id in present),
                    "away": s.seat in self.away,
                    "stand_in": self.stand_in(s.seat),
                    **({"name": bot_name(room.id, s.seat)} if s.bot is not None else {}),
                }
                for s in room.seats
            ],
            "match_id": room.match_id,
            "rematch": self.rematch_json(now),
            # the first names only: every arrival sends the room to everyone in it
            "spectators": spectators[:SPECTATOR_NAMES],
            "spectator_count": len(spectators),
        }
