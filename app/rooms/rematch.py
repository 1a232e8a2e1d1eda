"""Agreements of a table: a rematch, or a running match's new pace. A seated human
proposes, every other human seat accepts.

A proposal lives in the room's memory (and goes to the other processes with the room's
events); it lapses at ``expires_at`` or when anyone declines. Bots accept at once.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from app.db.rooms import RoomRecord
from app.rooms.table import TableSettings
from app.timestamps import aware, iso
from games.base import Seat


@dataclass
class Proposal:
    accepted: set[Seat]
    expires_at: datetime
    # the task that lets it lapse, on the process that made it (others check the time)
    timer: Any = field(default=None, compare=False)

    @classmethod
    def new(cls, room: RoomRecord, expires_at: datetime) -> Proposal:
        """A proposal the room's bots have accepted already."""
        return cls({s.seat for s in room.seats if s.bot is not None}, expires_at)

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Proposal:
        return cls(set(raw["accepted"]), aware(datetime.fromisoformat(raw["expires_at"])))

    def agreed(self, room: RoomRecord) -> bool:
        """Every human seat has accepted."""
        return {s.seat for s in room.seats if s.player is not None} <= self.accepted

    def live(self, now: datetime) -> bool:
        return now < self.expires_at

    def to_json(self) -> dict[str, Any]:
        return {"accepted": sorted(self.accepted), "expires_at": iso(self.expires_at)}


@dataclass
class PaceVote:
    """A proposed pace and who has accepted it."""

    table: TableSettings  # the table as it would be
    votes: Proposal

    def to_json(self) -> dict[str, Any]:
        return {
            "pace": self.table.pace,
            "turn_seconds": self.table.turn_seconds,
            **self.votes.to_json(),
        }

    @classmethod
    def from_json(cls, raw: dict[str, Any], table: TableSettings) -> PaceVote:
        wanted = replace(table, pace=raw["pace"], turn_seconds=raw["turn_seconds"])
        return cls(wanted, Proposal.from_json(raw))
