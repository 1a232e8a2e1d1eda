"""Refusals the rooms layer hands back to the edges, and the one list of their codes."""

from __future__ import annotations

from enum import StrEnum


class ErrorCode(StrEnum):
    """Every code the room layer refuses with, as the REST answers and socket errors carry it."""

    # a move refused on the socket (design section 4): only its sender hears of it
    ILLEGAL_ACTION = "illegal_action"
    NOT_YOUR_TURN = "not_your_turn"
    STALE = "stale"
    BAD_MESSAGE = "bad_message"
    NOT_SEATED = "not_seated"
    RATE_LIMITED = "rate_limited"
    # a room change refused over HTTP
    NOT_FOUND = "not_found"
    FORBIDDEN = "forbidden"
    UNKNOWN_GAME = "unknown_game"
    INVALID_OPTIONS = "invalid_options"
    INVALID_TABLE = "invalid_table"
    INVALID_LEVEL = "invalid_level"
    SEAT_TAKEN = "seat_taken"
    ALREADY_SEATED = "already_seated"
    ROOM_PLAYING = "room_playing"
    ALREADY_STARTED = "already_started"
    SEATS_EMPTY = "seats_empty"
    NOT_FINISHED = "not_finished"
    NOT_PLAYING = "not_playing"
    CANNOT_CLAIM = "cannot_claim"
    TOO_MANY_ROOMS = "too_many_rooms"
    TOO_MANY_BOT_MATCHES = "too_many_bot_matches"
    # a replay refused
    MATCH_RUNNING = "match_running"
    RULES_CHANGED = "rules_changed"
    # a review refused
    REVIEWS_BUSY = "reviews_busy"
    REVIEW_FAILED = "review_failed"
    NOTHING_TO_REVIEW = "nothing_to_review"


class RoomError(Exception):
    """A request about a room that cannot be done; ``status`` is the fitting HTTP status."""

    def __init__(self, code: ErrorCode, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


class ActionRefused(Exception):
    """A WebSocket action that was refused; only its sender hears of it."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def not_found(what: str) -> RoomError:
    return RoomError(ErrorCode.NOT_FOUND, f"No such {what}.", 404)


def forbidden(message: str) -> RoomError:
    return RoomError(ErrorCode.FORBIDDEN, message, 403)
