"""The engine contract's types and errors: a leaf that imports nothing of ``games``."""

from __future__ import annotations

from enum import StrEnum
from typing import Any, TypeAlias

State: TypeAlias = dict[str, Any]
Action: TypeAlias = dict[str, Any]
Seat: TypeAlias = int


class IllegalAction(ValueError):
    """A well-formed request the rules do not allow; ``message`` is for players."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class MalformedAction(IllegalAction):
    """An action that is not even of the right shape (missing fields, wrong types)."""

    def __init__(self, message: str) -> None:
        super().__init__("malformed_action", message)


class InvalidOptions(ValueError):
    """Room options that the game does not accept."""


class Termination(StrEnum):
    """Why a match ended: stored in its outcome as ``termination``."""

    NORMAL = "normal"  # the rules ended it
    FORFEIT = "forfeit"  # a seat lost by the table settings (timer or absence)
    CLAIMED = "claimed"  # the players at the table ended it: every opponent was away
    ABORTED = "aborted"  # it cannot go on (its rules changed since it began): no result
