"""A room's fan-out: every local viewer gets the state for its own seat, the mover first (its
new state is its move's acknowledgement), whatever order the sockets joined in."""

from __future__ import annotations

import itertools
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

import orjson

from app.db.matches import MatchRecord
from app.db.players import PlayerRecord
from app.db.rooms import RoomRecord, SeatRecord
from app.realtime.hub import Connection, Hub
from app.rooms.runtime import RoomRuntime
from app.rooms.views import StateFrames
from tests.support.server import run_on_own_loop

ANN, BOB, EVE = PlayerRecord(1, "Ann"), PlayerRecord(2, "Bob"), PlayerRecord(3, "Eve")


def playing_room() -> RoomRuntime:
    now = datetime.now(UTC)
    seats = [SeatRecord(0, ANN), SeatRecord(1, BOB)]
    room = RoomRecord("r1", "abstrac", {}, {}, "playing", ANN, False, 1, now, seats)
    runtime = RoomRuntime(room)
    runtime.load_match(MatchRecord(1, "r1", "abstrac", "1", {}, 7, 2, "playing", now), None, [])
    return runtime


def fan_out(order: tuple[PlayerRecord, ...], first: int | None) -> list[tuple[str, Any]]:
    """(who, message) of every frame written, in the order written."""
    written: list[tuple[str, Any]] = []

    def socket(name: str) -> Callable[[dict[str, Any]], Awaitable[None]]:
        """uvicorn's ASGI send for one viewer."""

        async def send(message: dict[str, Any]) -> None:
            written.append((name, orjson.loads(message["text"])))

        return send

    async def run() -> None:
        hub = Hub()  # handed the room's frames: it asks the room core nothing
        for player in order:
            hub.join(Connection(socket(player.name), player, "r1"))
        runtime = playing_room()
        mover = runtime.room.seats[first].player if first is not None else None
        frames = StateFrames(runtime).for_players(hub.present("r1"))
        hub.deliver("r1", frames, mover.id if mover else None)

    run_on_own_loop(run())
    return written


def test_the_movers_sockets_get_the_new_state_before_anyone_else() -> None:
    for order in itertools.permutations((ANN, BOB, EVE)):
        for mover, name in ((0, "Ann"), (1, "Bob")):
            written = fan_out(order, first=mover)
            assert written[0][0] == name, (order, mover)
            assert sorted(who for who, _ in written) == ["Ann", "Bob", "Eve"]


def test_each_viewer_gets_the_state_of_its_own_seat() -> None:
    written = dict(fan_out((EVE, BOB, ANN), first=None))
    assert {message["type"] for message in written.values()} == {"state"}
    to_act = written["Ann"]["to_act"]
    assert len(to_act) == 1
    mover = ("Ann", "Bob")[to_act[0]]
    waiting = ("Bob", "Ann")[to_act[0]]
    assert written[mover]["legal"]
    assert written[waiting]["legal"] == [] == written["Eve"]["legal"]
