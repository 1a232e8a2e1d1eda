"""A room's status and why a match ended: the two typed facts every room change checks."""

from __future__ import annotations

from enum import StrEnum
from typing import Any


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

    @property
    def seats_may_change(self) -> bool:
        return self is not RoomStatus.PLAYING


_NEXT: dict[RoomStatus, frozenset[RoomStatus]] = {
    RoomStatus.WAITING: frozenset({RoomStatus.PLAYING}),
    RoomStatus.PLAYING: frozenset({RoomStatus.FINISHED}),
    RoomStatus.FINISHED: frozenset({RoomStatus.PLAYING}),  # a rematch
}


class InvalidTransition(RuntimeError):
    """A room change the lifecycle forbids: the code asked for it, no client can."""


class Termination(StrEnum):
    """Why a match ended: stored in its outcome as ``termination``."""

    NORMAL = "normal"  # the rules ended it
    FORFEIT = "forfeit"  # a seat lost by the table settings (timer or absence)
    ABORTED = "aborted"  # it cannot go on (its rules changed since it began): no result


def with_termination(outcome: dict[str, Any] | None) -> dict[str, Any] | None:
    """An outcome saying why the match ended (outcomes stored before it said so ended by the
    rules or by a forfeit, which names its seat)."""
    if outcome is None or "termination" in outcome:
        return outcome
    forfeit = "forfeit" in outcome.get("detail", {})
    return {**outcome, "termination": Termination.FORFEIT if forfeit else Termination.NORMAL}
