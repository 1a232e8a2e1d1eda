"""The WebSocket message schema (design section 4): parsing client frames, error codes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson

from app.rooms.errors import ErrorCode
from app.text import UnfitText, clean_text

MAX_CHAT = 500


class BadMessage(ValueError):
    """A frame that is not a message of the protocol."""


@dataclass(frozen=True)
class ActionMessage:
    action: dict[str, Any]
    seq: int | None
    ref: str | int | None


@dataclass(frozen=True)
class ChatMessage:
    text: str


@dataclass(frozen=True)
class RematchMessage:
    """Propose or accept a rematch (``accept``), or decline one: what
    ``POST``/``DELETE /api/rooms/{id}/rematch`` do, over the socket the table already has."""

    accept: bool
    ref: str | int | None


@dataclass(frozen=True)
class PaceMessage:
    """Propose or accept a running match's new pace, or decline it (``pace`` None): what
    ``POST``/``DELETE /api/rooms/{id}/pace`` do."""

    pace: str | None
    turn_seconds: int | None
    ref: str | int | None


@dataclass(frozen=True)
class PingMessage:
    pass


ClientMessage = ActionMessage | ChatMessage | RematchMessage | PaceMessage | PingMessage


def parse(frame: str | bytes) -> ClientMessage:
    try:
        data = orjson.loads(frame)
    except orjson.JSONDecodeError:
        raise BadMessage("That message is not valid JSON.") from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise BadMessage("A message is a JSON object with a 'type'.")
    kind = data["type"]
    if kind == "ping":
        return PingMessage()
    if kind == "chat":
        text = data.get("text")
        if not isinstance(text, str):
            raise BadMessage("A chat message needs some text.")
        try:
            return ChatMessage(clean_text(text, what="chat message", longest=MAX_CHAT))
        except UnfitText as unfit:
            raise BadMessage(str(unfit)) from None
    if kind == "action":
        action, seq = data.get("action"), data.get("seq")
        if not isinstance(action, dict):
            raise BadMessage("An action message needs an 'action' object.")
        if seq is not None and (isinstance(seq, bool) or not isinstance(seq, int)):
            raise BadMessage("'seq' must be a whole number.")
        return ActionMessage(action, seq, _ref(data))
    if kind == "rematch":
        accept = data.get("accept", True)
        if not isinstance(accept, bool):
            raise BadMessage("'accept' must be true or false.")
        return RematchMessage(accept, _ref(data))
    if kind == "pace":
        return _pace(data)
    raise BadMessage(f"Unknown message type {kind[:40]!r}.")


def _pace(data: dict[str, Any]) -> PaceMessage:
    accept, pace, seconds = data.get("accept", True), data.get("pace"), data.get("turn_seconds")
    if not isinstance(accept, bool):
        raise BadMessage("'accept' must be true or false.")
    if accept and pace not in ("live", "turn_based"):
        raise BadMessage("'pace' must be 'live' or 'turn_based'.")
    if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, int)):
        raise BadMessage("'turn_seconds' must be a whole number.")
    return PaceMessage(pace if accept else None, seconds, _ref(data))


def _ref(data: dict[str, Any]) -> str | int | None:
    """The message's ``ref``, echoed in an error that answers it."""
    ref = data.get("ref")
    if ref is not None and (isinstance(ref, bool) or not isinstance(ref, str | int)):
        raise BadMessage("'ref' must be a string or a number.")
    return ref


def error(code: ErrorCode, message: str, ref: str | int | None = None) -> str:
    return orjson.dumps(
        {"type": "error", "code": str(code), "message": message, "ref": ref}
    ).decode()


def encode(message: dict[str, Any]) -> str:
    return orjson.dumps(message).decode()
