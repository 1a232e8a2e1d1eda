"""What each viewer is shown of a room: every per-viewer message is shaped here, and only here.

The live ``state`` message, the ``room`` message, the chat a viewer may read and a replay's step
are built from these functions, so all of them redact a move and word an outcome the same way.
The audience (the hub) is handed the frames and only delivers them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

import orjson

from app.bot_names import bot_name
from app.db.players import PlayerRecord
from app.rooms.runtime import RoomRuntime
from app.timestamps import iso
from games.base import Action, Engine, Seat, State

SPECTATOR_NAMES = 50  # listed by name in the room; all are counted


def last_seen(
    engine: Engine, last: tuple[Seat, Action] | None, viewer: Seat | None
) -> dict[str, Any] | None:
    """The last move as ``viewer`` may know it."""
    if last is None:
        return None
    actor, action = last
    return {"seat": actor, "action": engine.redact_action(action, actor, viewer)}


def outcome_at(
    engine: Engine, state: State, stored: dict[str, Any] | None
) -> dict[str, Any] | None:
    """How the match ended, for a replay's step: by its rules at ``state`` (with who abandoned
    it, as stored), else as stored (a forfeit, a claim, an abort)."""
    outcome = engine.outcome(state)
    if outcome is None:
        return stored
    if stored is not None and stored.get("abandoned"):
        outcome = outcome.abandoning(stored["abandoned"])
    return outcome.to_json()


class StateFrames:
    """The ``state`` frame of every viewer of a room at one moment, each built the first time
    it is asked for. What every viewer is shown alike is worked out once: who is to act, the
    outcome, the deadlines, and in a game of perfect information the whole view (no seat
    changes it: tests/games/test_contract.py)."""

    __slots__ = ("_by_seat", "_deadlines", "_outcome", "_runtime", "_shared", "_to_act")

    def __init__(self, runtime: RoomRuntime) -> None:
        self._runtime = runtime
        self._by_seat: dict[Seat | None, str] | None = None  # before a match: no frames
        state = runtime.state
        if state is None or runtime.match is None:
            return
        self._by_seat = {}
        outcome = runtime.terminal if runtime.terminal is not None else runtime.ruled
        self._outcome = None if outcome is None else outcome.to_json()
        self._to_act = sorted(runtime.acting) if outcome is None else []
        engine = runtime.engine
        self._shared = engine.view(state, None) if engine.info.perfect_information else None
        deadlines = runtime.deadlines() if runtime.table.turn_seconds else {}
        self._deadlines = {str(seat): iso(when) for seat, when in deadlines.items()}

    def for_players(self, players: Iterable[int]) -> dict[int, str]:
        """The frame of each of ``players`` (ids of players connected to the room)."""
        if self._by_seat is None:
            return {}
        seats = self._runtime.seats_by_player
        return {player: self.of(seats.get(player)) for player in players}

    def of(self, viewer: Seat | None) -> str:
        """The frame for one seat (``None``: a spectator); a match must be loaded."""
        by_seat = self._by_seat
        assert by_seat is not None
        frame = by_seat.get(viewer)
        if frame is None:
            frame = by_seat[viewer] = orjson.dumps(self._message(viewer)).decode()
        return frame

    def _message(self, viewer: Seat | None) -> dict[str, Any]:
        runtime = self._runtime
        engine, state, match = runtime.engine, runtime.state, runtime.match
        assert state is not None and match is not None
        playing = self._outcome is None
        seen = engine.observe(state, viewer, runtime.last, acting=playing, shared=self._shared)
        message: dict[str, Any] = {
            "type": "state",
            "match_id": match.id,
            "seq": runtime.seq,
            "view": seen.view,
            "to_act": self._to_act,
            "legal": seen.legal,
            "last": seen.last,
            "over": not playing,
            "outcome": self._outcome,
        }
        if self._deadlines:
            message["deadlines"] = self._deadlines
        played = runtime.played_for.get(viewer) if viewer is not None else None
        if played and (viewer not in runtime.away or not runtime.playing):  # back, or the end
            message["played_for_you"] = [
                {"seq": p["seq"], "action": engine.redact_action(p["action"], viewer, viewer)}
                for p in played
            ]
        return message


def state_frames(runtime: RoomRuntime, players: Iterable[int]) -> dict[int, str]:
    """The current ``state`` frame of each of ``players`` (none before a match)."""
    return StateFrames(runtime).for_players(players)


def state_frame(runtime: RoomRuntime, player_id: int) -> str | None:
    """The current ``state`` frame for one player (none before a match)."""
    return state_frames(runtime, (player_id,)).get(player_id)


def spectators(runtime: RoomRuntime, connected: Mapping[int, PlayerRecord]) -> list[dict[str, Any]]:
    """The players connected here who hold no seat of the room, by id."""
    seated = runtime.seats_by_player
    return [connected[pid].to_json() for pid in sorted(connected) if pid not in seated]


def room_json(
    runtime: RoomRuntime, connected: Mapping[int, PlayerRecord], now: datetime
) -> dict[str, Any]:
    """The room as everyone sees it (``connected``: the players connected here)."""
    room = runtime.room
    present = set(connected) | runtime.remote_players(now)
    watching = spectators(runtime, connected)
    rematch, pace_vote = runtime.rematch, runtime.pace_vote
    return {
        "id": room.id,
        "game": room.game,
        "options": room.options,
        "table": runtime.table.to_json(),
        "status": room.status,
        "host": room.host.to_json(),
        "private": room.private,
        "seats": [
            {
                "seat": s.seat,
                "player": s.player.to_json() if s.player else None,
                "bot": s.bot,
                "connected": s.bot is not None or (s.player is not None and s.player.id in present),
                "away": s.seat in runtime.away,
                "stand_in": runtime.stand_in(s.seat),
                **({"name": bot_name(room.id, s.seat)} if s.bot is not None else {}),
            }
            for s in room.seats
        ],
        "match_id": room.match_id,
        "rematch": rematch.to_json() if rematch is not None and rematch.live(now) else None,
        "pace_vote": pace_vote.to_json()
        if pace_vote is not None and pace_vote.votes.live(now)
        else None,
        # the first names only: every arrival sends the room to everyone in it
        "spectators": watching[:SPECTATOR_NAMES],
        "spectator_count": len(watching),
    }


def room_frame(runtime: RoomRuntime, connected: Mapping[int, PlayerRecord], now: datetime) -> str:
    """The ``room`` message, the same for everyone."""
    return encode({"type": "room", "room": room_json(runtime, connected, now)})


def hello_frame(
    runtime: RoomRuntime, player: PlayerRecord, connected: Mapping[int, PlayerRecord], now: datetime
) -> str:
    """The first frame a socket gets: who it is, and the room."""
    you = {"player_id": player.id, "seat": runtime.seat_of(player.id)}
    return encode({"type": "hello", "you": you, "room": room_json(runtime, connected, now)})


def chat_frames(
    runtime: RoomRuntime, message: dict[str, Any], connected: Iterable[int]
) -> str | dict[int, str]:
    """A chat message for its readers among ``connected``: everyone, except that players do
    not see the spectators' chat during play."""
    frame = encode(message)
    if message.get("channel") != "spectators" or not runtime.playing:
        return frame
    seated = runtime.seats_by_player
    return {player: frame for player in connected if player not in seated}


def encode(message: dict[str, Any]) -> str:
    return orjson.dumps(message).decode()
