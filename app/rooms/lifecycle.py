"""A room's status and the changes of it the rules allow (why a match ended is stored with
its outcome: ``games.base.Outcome``)."""

from __future__ import annotations

from enum import StrEnum


class RoomStatus(StrEnum):
    WAITING = "waiting"
    PLAYING = "playing"
    FINISHED = "finished"

    def can_become(self, new: RoomStatus) -> bool:
        return new in _NEXT[self]

    def moved_to(self, new: RoomStatus) -> RoomStatus:
        """``new``, when the rules of a room allow that change; a bug in the caller if not."""
        if not self.can_become(new):
            raise InvalidTransition(f"a room cannot go from {self} to {new}")
        return new


_NEXT: dict[RoomStatus, frozenset[RoomStatus]] = {
    RoomStatus.WAITING: frozenset({RoomStatus.PLAYING}),
    RoomStatus.PLAYING: frozenset({RoomStatus.FINISHED}),
    RoomStatus.FINISHED: frozenset({RoomStatus.PLAYING}),  # a rematch
}


class InvalidTransition(RuntimeError):
    """A room change the lifecycle forbids: the code asked for it, no client can."""
