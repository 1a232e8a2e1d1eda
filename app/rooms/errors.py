"""Refusals the rooms layer hands back to the edges, with the contract's codes."""

from __future__ import annotations


class RoomError(Exception):
    """A request about a room that cannot be done; ``status`` is the fitting HTTP status."""

    def __init__(self, code: str, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


class ActionRefused(Exception):
    """A WebSocket action that was refused; only its sender hears of it."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def not_found(what: str) -> RoomError:
    return RoomError("not_found", f"No such {what}.", 404)


def forbidden(message: str) -> RoomError:
    return RoomError("forbidden", message, 403)
