"""Judges a room's table settings: turn timers, the seat hold, bot takeover and forfeits.

A seated player with no connection (on any process) is *absent*; after the
room's seat hold an absent seat is handed to a bot until its player returns, or
forfeits, as the room chose. A turn timer that runs out plays the game's
fallback move for that seat (the rules' own choice for a player who does not
answer), or forfeits. Deadlines come from the move log's time stamps, so they
survive a restart.

At a turn-based table nobody is absent for being disconnected: only a missed
deadline counts, and a stand-in bot plays that one turn, or the seat forfeits.
Its deadlines are kept as due jobs (``app/rooms/turns.py``), not timed in memory:
a room waiting days for a move leaves memory.

The referee only decides: it returns verdicts, and the room manager carries them out on the
room's serialized path, as it does every other change. It reads the time from the clock it
is given (the manager's), so a test can judge a table at any moment it likes.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.rooms.clock import Clock
from app.rooms.runtime import RoomRuntime
from games.base import Action, Seat


@dataclass(frozen=True)
class StandIn:
    """An absent seat's hold is over: a bot plays it until its player returns."""

    seat: Seat


@dataclass(frozen=True)
class Forfeit:
    """The seat loses the match (``reason``: ``absent`` or ``timeout``)."""

    seat: Seat
    reason: str


@dataclass(frozen=True)
class StandInTurn:
    """A turn-based seat missed its deadline: a stand-in bot plays this one turn for it."""

    seat: Seat


@dataclass(frozen=True)
class TimerMove:
    """The seat's time ran out: the game's fallback move is played for it."""

    seat: Seat
    action: Action


Verdict = StandIn | StandInTurn | Forfeit | TimerMove


def attendance(runtime: RoomRuntime, present: set[int], clock: Clock) -> bool:
    """Note who is absent or back; ``True`` when a seat was handed back to its player.

    It awaits nothing, so no other change of the room can interleave with it."""
    if not runtime.playing or runtime.table.turn_based:
        runtime.absent_since.clear()
    if not runtime.playing:
        return False
    changed = False
    for seat in runtime.room.seats:
        if seat.player is None:
            continue
        if seat.player.id in present:
            runtime.absent_since.pop(seat.seat, None)
            if seat.seat in runtime.away:
                runtime.set_away(seat.seat, False)
                changed = True
        elif seat.seat not in runtime.away and not runtime.table.turn_based:
            runtime.absent_since.setdefault(seat.seat, clock.monotonic())
    return changed


def next_due(runtime: RoomRuntime, clock: Clock) -> float | None:
    """Seconds until the room's next hold, deadline or word from another process runs out;
    ``None`` if nothing is timed."""
    table = runtime.table
    timed_turns = table.turn_seconds and not table.turn_based  # due jobs time those
    if not runtime.playing or not (runtime.absent_since or timed_turns or runtime.remote_until):
        return None  # nothing to time: most rooms, after every move
    now_mono, now = clock.monotonic(), clock.now()
    waits = [since + table.seat_hold_seconds - now_mono for since in runtime.absent_since.values()]
    if timed_turns:
        waits += [(when - now).total_seconds() for when in runtime.deadlines().values()]
    waits += [(until - now).total_seconds() for until in runtime.remote_until.values()]
    return max(0.0, min(waits)) if waits else None


def verdicts(runtime: RoomRuntime, clock: Clock) -> list[Verdict]:
    """What the table settings demand now. A forfeit or a timer move ends the list: what
    follows it is judged again on the table it leaves."""
    table = runtime.table
    if not runtime.playing or runtime.state is None:
        return []
    found: list[Verdict] = []
    now_mono = clock.monotonic()
    for seat, since in runtime.absent_since.items():
        if now_mono - since < table.seat_hold_seconds:
            continue
        if table.on_absent == "forfeit":
            return [*found, Forfeit(seat, "absent")]
        found.append(StandIn(seat))
    now = clock.now()
    stood_in = {v.seat for v in found}
    for seat, deadline in runtime.deadlines().items():
        if deadline > now or seat in stood_in:
            continue
        if table.on_absent == "forfeit":
            return [*found, Forfeit(seat, "timeout")]
        if table.turn_based:  # (a seat a stand-in plays already has no deadline)
            found.append(StandInTurn(seat))
            continue
        return [*found, TimerMove(seat, runtime.engine.fallback_action(runtime.state, seat))]
    return found
