"""A room's table settings, beside the game's options: timers and what happens to the absent."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from app.rooms.errors import ErrorCode, RoomError

FALLBACKS = ("bot", "forfeit")
PACES = ("live", "turn_based")
DAY = 24 * 3600
LIVE_TURN_MOST = DAY
TURN_BASED_MOST = 14 * DAY


@dataclass(frozen=True)
class TableSettings:
    """``turn_seconds``: 0 for no timer; with ``clock`` it is each seat's bank for the match
    (chess-clock style), otherwise the time for each move. ``seat_hold_seconds``: how long a
    disconnected player's seat waits for them: a new room asks for at least the server's minimum
    (``CARDROOM_MIN_SEAT_HOLD_SECONDS``, 30 s), long enough for a reload or a dropped connection
    to come back before a stand-in or a forfeit, so no claimed or forfeited win is a reconnect
    away. ``on_absent``: when a timer runs out or the hold
    ends, ``bot`` (a timed-out move is the game's fallback move, an absent seat is played by a
    bot until its player returns) or ``forfeit`` (the match ends, that seat losing).

    ``pace``: ``live`` (everyone at the table at once) or ``turn_based``: a match that waits
    days for a move. Then ``turn_seconds`` (default a day) is from the server's minimum
    (``CARDROOM_MIN_TURN_SECONDS``) to 14 days, nobody is absent for being disconnected, and a
    missed deadline is what ``on_absent`` answers: a stand-in bot plays that one turn, or the
    seat forfeits."""

    turn_seconds: int = 0
    clock: bool = False
    seat_hold_seconds: int = 60
    on_absent: str = "bot"
    pace: str = "live"

    @classmethod
    def parse(
        cls, raw: Mapping[str, Any] | None, *, min_hold: int = 1, min_turn: int = 1
    ) -> TableSettings:
        """The settings ``raw`` names, checked; a seat hold under ``min_hold`` seconds, or a
        turn-based deadline under ``min_turn``, is refused (a new room's; a stored room keeps
        what it was made with)."""
        raw = dict(raw or {})
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(raw) - known)
        if unknown:
            raise invalid(f"unknown table setting {unknown[0]!r}")
        if raw.get("pace") == "turn_based" and not raw.get("turn_seconds"):
            raw["turn_seconds"] = DAY
        settings = cls(**raw)
        settings.check(min_hold, min_turn)
        return settings

    @property
    def turn_based(self) -> bool:
        return self.pace == "turn_based"

    def check(self, min_hold: int = 1, min_turn: int = 1) -> None:
        if self.pace not in PACES:
            raise invalid("pace must be 'live' or 'turn_based'")
        turns = (max(1, min_turn), TURN_BASED_MOST) if self.turn_based else (0, LIVE_TURN_MOST)
        limits = (("turn_seconds", *turns), ("seat_hold_seconds", max(1, min_hold), 3600))
        for name, low, high in limits:
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise invalid(f"{name} must be a whole number from {low} to {high}")
        if not isinstance(self.clock, bool):
            raise invalid("clock must be true or false")
        if self.on_absent not in FALLBACKS:
            raise invalid("on_absent must be 'bot' or 'forfeit'")

    def to_json(self) -> dict[str, Any]:
        return dict(vars(self))  # flat: asdict's deep copy was 1% of a busy server's CPU


def invalid(message: str) -> RoomError:
    return RoomError(ErrorCode.INVALID_TABLE, message[0].upper() + message[1:] + ".", 422)
