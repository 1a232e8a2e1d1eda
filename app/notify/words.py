"""A notice in words, the same in a push notification and in a mail: the match's public facts
alone."""

from __future__ import annotations

from app.rooms.ports import TurnNotice
from app.timestamps import iso


def headline(notice: TurnNotice) -> str:
    if notice.kind == "reminder":
        return f"Reminder: it is still your turn at {notice.title}"
    return f"Your turn at {notice.title}"


def details(notice: TurnNotice) -> str:
    moved = f"{notice.mover} moved." if notice.mover else "The match waits for you."
    if notice.deadline is None:
        return moved
    return f"{moved} Play before {iso(notice.deadline)}."


def room_path(notice: TurnNotice) -> str:
    return f"/rooms/{notice.room_id}"
