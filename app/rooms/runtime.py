"""One room as this process holds it: the room record and the match state, in memory.

The state is rebuilt from ``setup(seed)`` plus the stored moves (from the latest
snapshot on), so nothing lives only here.
"""

from __future__ import annotations

import asyncio
from typing import Any

import orjson

from app.db.matches import MatchRecord, MoveRow
from app.db.rooms import RoomRecord
from games import get_game
from games.base import Action, Engine, Seat, State


class RoomRuntime:
    def __init__(self, room: RoomRecord) -> None:
        self.room = room
        self.engine: Engine = get_game(room.game)
        self.lock = asyncio.Lock()
        self.match: MatchRecord | None = None
        self.state: State | None = None
        self.seq = 0
        self.last: tuple[Seat, Action] | None = None
        self.bot_tasks: dict[Seat, asyncio.Task[None]] = {}
        self._frames: dict[Seat | None, str] = {}

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
        self._frames.clear()
        self.catch_up(moves)

    def advance(self, seat: Seat, action: Action, state: State) -> None:
        self.state = state
        self.seq += 1
        self.last = (seat, action)
        self._frames.clear()

    def catch_up(self, moves: list[MoveRow]) -> None:
        assert self.state is not None
        for move in moves:
            if move.seq == self.seq + 1:
                new_state = self.engine.apply(self.state, move.seat, move.action)
                self.advance(move.seat, move.action, new_state)

    @property
    def playing(self) -> bool:
        return self.state is not None and self.room.status == "playing"

    def to_act(self) -> frozenset[Seat]:
        if self.state is None:
            return frozenset()
        return self.engine.to_act(self.state)

    def seat_of(self, player_id: int) -> Seat | None:
        return self.room.seat_of(player_id)

    # -- messages ----------------------------------------------------------------------
    def state_frame(self, viewer: Seat | None) -> str | None:
        """The ``state`` message for one viewer, serialised once per move and viewer."""
        if self.state is None or self.match is None:
            return None
        frame = self._frames.get(viewer)
        if frame is None:
            frame = orjson.dumps(self.state_message(viewer)).decode()
            self._frames[viewer] = frame
        return frame

    def state_message(self, viewer: Seat | None) -> dict[str, Any]:
        assert self.state is not None and self.match is not None
        engine, state = self.engine, self.state
        outcome = engine.outcome(state)
        last = None
        if self.last is not None:
            actor, action = self.last
            shown = engine.redact_action(action, actor, viewer)
            last = {"seat": actor, "action": shown}
        return {
            "type": "state",
            "match_id": self.match.id,
            "seq": self.seq,
            "view": engine.view(state, viewer),
            "to_act": sorted(engine.to_act(state)),
            "legal": engine.legal_actions(state, viewer) if viewer is not None else [],
            "last": last,
            "over": outcome is not None,
            "outcome": outcome.to_json() if outcome is not None else None,
        }

    def room_json(self, connected: set[int], spectators: list[dict[str, Any]]) -> dict[str, Any]:
        room = self.room
        return {
            "id": room.id,
            "game": room.game,
            "options": room.options,
            "status": room.status,
            "host": room.host.to_json(),
            "private": room.private,
            "seats": [
                {
                    "seat": s.seat,
                    "player": s.player.to_json() if s.player else None,
                    "bot": s.bot,
                    "connected": s.bot is not None
                    or (s.player is not None and s.player.id in connected),
                }
                for s in room.seats
            ],
            "match_id": room.match_id,
            "spectators": spectators,
        }
