"""The display names of the server's bots: each bot seat of a room gets one of its own.

A name is picked from a fixed list by the room's id and the seat, so it is the same in every
process and after a restart (stable for the match, which keeps its seats), and two seats of one
room never share one: the list has more names than a room has seats.
"""

from __future__ import annotations

import zlib

BOT_NAMES = (
    "Ada",
    "Basil",
    "Clover",
    "Dot",
    "Ember",
    "Fig",
    "Ginger",
    "Hazel",
    "Iris",
    "Juniper",
    "Kiwi",
    "Lark",
    "Maple",
    "Nutmeg",
    "Olive",
    "Pepper",
    "Quince",
    "Rosemary",
    "Sage",
    "Tansy",
)


def bot_name(room_id: str, seat: int) -> str:
    """The name of the bot in ``seat`` of room ``room_id`` ("Hazel (bot)")."""
    start = zlib.crc32(room_id.encode())
    return f"{BOT_NAMES[(start + seat) % len(BOT_NAMES)]} (bot)"
