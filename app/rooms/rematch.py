"""A rematch by agreement: a seated human proposes, every other human seat accepts.

The proposal lives in the room's memory (and goes to the other processes with the room's
events); it lapses at ``expires_at`` or when anyone declines. Bots accept at once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from app.db.rooms import RoomRecord
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
