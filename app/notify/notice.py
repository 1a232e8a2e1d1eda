"""What a player is told when a turn is theirs: public facts of the match only (who moved,
which game and room, the deadline), never a card or a hand."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any, Literal

NoticeKind = Literal["your_turn", "reminder"]


@dataclass(frozen=True)
class TurnNotice:
    player_id: int
    room_id: str
    match_id: int
    game: str
    title: str  # the game's display name
    mover: str | None  # who just moved, a display name
    deadline: datetime | None
    kind: NoticeKind
    seq: int  # the match's move number

    @property
    def key(self) -> str:
        """The same for a notice scheduled twice, so it is sent once."""
        return f"{self.player_id}:{self.kind}:{self.match_id}:{self.seq}"

    def to_json(self) -> dict[str, Any]:
        fields = asdict(self)
        fields["deadline"] = self.deadline.isoformat() if self.deadline else None
        return fields

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TurnNotice:
        deadline = data["deadline"]
        return cls(**{**data, "deadline": datetime.fromisoformat(deadline) if deadline else None})
