"""Replays of finished matches: rebuilt from seed + actions, each step shown as live play
shows it (:mod:`app.rooms.views`). Unfinished matches have no replay: nothing hidden leaks."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.history import match_summary
from app.db.matches import MatchRecord, MoveRow, load_match, load_moves
from app.rooms.errors import ErrorCode, RoomError, not_found
from app.rooms.views import last_seen, outcome_at
from app.timestamps import iso
from games import REGISTRY
from games.base import Engine, State

CHECKPOINT_EVERY = 32
CACHED_MATCHES = 64


@dataclass
class Replay:
    """A finished match, rebuilt from seed + actions; states kept every few moves so stepping
    back and forth applies at most ``CHECKPOINT_EVERY - 1`` moves. Finished matches never
    change, so a replay stays valid for as long as it is cached."""

    record: MatchRecord
    engine: Engine
    moves: list[MoveRow]
    summary: dict[str, Any]
    checkpoints: dict[int, State] = field(default_factory=dict)

    def state_at(self, seq: int) -> State:
        if not self.checkpoints:
            record = self.record
            self.checkpoints[0] = self.engine.setup(record.players, record.seed, record.options)
        start = max(s for s in self.checkpoints if s <= seq)
        state = self.checkpoints[start]
        for move in self.moves[start:seq]:
            state = self.engine.apply_unchecked(state, move.seat, move.action)
            if move.seq % CHECKPOINT_EVERY == 0:
                self.checkpoints[move.seq] = state
        return state

    def log(self) -> dict[str, Any]:
        """``GET /api/matches/{id}/replay``: the seed, options, seats and every action."""
        return {
            "seed": self.record.seed,
            "options": self.record.options,
            "seats": self.summary.get("seats", []),
            "actions": [
                {
                    "seq": m.seq,
                    "seat": m.seat,
                    "action": m.action,
                    "at": iso(m.at),
                    "stand_in": m.stand_in,
                }
                for m in self.moves
            ],
        }

    def step(self, seq: int) -> dict[str, Any]:
        """``GET /api/matches/{id}/replay/{seq}``: the table after move ``seq``, everything
        revealed, and each seat's own view of it."""
        moves, engine = self.moves, self.engine
        if not 0 <= seq <= len(moves):
            raise RoomError(ErrorCode.NOT_FOUND, f"This match has moves 0 to {len(moves)}.", 404)
        state = self.state_at(seq)
        seats = range(self.record.players)
        move = moves[seq - 1] if seq else None
        last = (move.seat, move.action) if move is not None else None
        # a match that ended without a final move (a forfeit) has its end stored
        stored = self.summary.get("outcome") if seq == len(moves) else None
        outcome = outcome_at(engine, state, stored)
        return {
            "seq": seq,
            "view": engine.reveal(state),
            "views": [engine.view(state, seat) for seat in seats],
            "to_act": sorted(engine.to_act(state)),
            "last": {"seat": move.seat, "action": move.action} if move is not None else None,
            "stand_in": move is not None and move.stand_in,
            "lasts": [last_seen(engine, last, seat) for seat in seats],
            "over": outcome is not None,
            "outcome": outcome,
            "move_count": len(moves),
        }


class Replays:
    """The replays of this process, the most recently used cached."""

    def __init__(self, db: AsyncEngine, size: int = CACHED_MATCHES) -> None:
        self.db = db
        self.size = size
        self._cached: OrderedDict[int, Replay] = OrderedDict()

    async def of(self, match_id: int) -> Replay:
        replay = self._cached.get(match_id)
        if replay is not None:
            self._cached.move_to_end(match_id)
            return replay
        record = await self._finished(match_id)
        moves = await load_moves(self.db, match_id)
        summary = await match_summary(self.db, match_id) or {}
        replay = Replay(record, REGISTRY[record.game], moves, summary)
        self._cached[match_id] = replay
        while len(self._cached) > self.size:
            self._cached.popitem(last=False)
        return replay

    async def _finished(self, match_id: int) -> MatchRecord:
        record = await load_match(self.db, match_id)
        if record is None:
            raise not_found("match")
        if record.status != "finished":
            raise RoomError(
                ErrorCode.MATCH_RUNNING, "A replay opens when the match is finished.", 409
            )
        if record.game not in REGISTRY:
            raise RoomError(ErrorCode.NOT_FOUND, "That game is no longer available.", 404)
        if record.engine_version != REGISTRY[record.game].version:
            raise RoomError(
                ErrorCode.RULES_CHANGED,
                "This match was played under rules that have changed since.",
                409,
            )
        return record
