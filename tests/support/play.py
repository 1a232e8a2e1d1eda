"""Whole matches played over real sockets, for the history, rating and replay tests.

Each human seat plays a random legal action (from a seeded generator) whenever it may act;
bot seats are the server's own bots (they move at once on the test server).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import httpx

from tests.support.clients import Guest, RoomSocket
from tests.support.waiting import play_until, until


@dataclass
class Played:
    match_id: int
    room_id: str
    final: dict[str, Any]
    summary: dict[str, Any]
    seen: dict[int, dict[int, dict[str, Any]]]  # seat -> seq -> the state message it got


def open_table(
    humans: list[Guest], game: str, bots: tuple[str, ...] = (), **options: Any
) -> tuple[str, dict[int, RoomSocket]]:
    """A room of ``game`` with ``humans`` in the first seats and ``bots`` after them, every
    human connected; not started yet."""
    host = humans[0]
    room_id = host.create_room(game, len(humans) + len(bots), **options)["id"]
    for seat, human in enumerate(humans):
        human.post(f"/api/rooms/{room_id}/seats/{seat}").raise_for_status()
    for offset, level in enumerate(bots):
        seat = len(humans) + offset
        host.post(f"/api/rooms/{room_id}/seats/{seat}/bot", {"level": level}).raise_for_status()
    sockets = {}
    for seat, human in enumerate(humans):
        sockets[seat] = human.socket(room_id)
        sockets[seat].expect("hello")
    return room_id, sockets


def turn_based_match(host: Guest, guest: Guest, game: str = "abstrac") -> str:
    """A turn-based room of ``game`` (a day a move), ``host`` in seat 0 and ``guest`` in seat
    1, started: its id."""
    answer = host.post("/api/rooms", {"game": game, "seats": 2, "table": {"pace": "turn_based"}})
    assert answer.status_code == 201, answer.text
    room_id = answer.json()["id"]
    for seat, player in enumerate((host, guest)):
        player.post(f"/api/rooms/{room_id}/seats/{seat}").raise_for_status()
    start(host, room_id)
    return room_id


def to_act_first(host: Guest, guest: Guest, room_id: str) -> tuple[Guest, Guest]:
    """(the player to act, the other one), from the room's state."""
    probe = host.socket(room_id)
    to_act = probe.expect("state")["to_act"]
    probe.close()
    return (host, guest) if to_act == [0] else (guest, host)


def play_turn(table: RoomSocket) -> None:
    """The player of a room's socket just opened plays legal moves until the turn passes to
    another seat; then the socket closes."""
    seat = table.expect("hello")["you"]["seat"]
    state = table.expect("state")
    while seat in state["to_act"]:
        table.act(state["legal"][0], seq=state["seq"])
        state = table.state_at(state["seq"] + 1)
    table.close()


def start(host: Guest, room_id: str) -> int:
    answer = host.post(f"/api/rooms/{room_id}/start")
    assert answer.status_code == 200, answer.text
    return answer.json()["match_id"]


def drive(
    sockets: dict[int, RoomSocket], rng: random.Random, *, timeout: float = 90
) -> dict[str, Any]:
    """Every human seat plays a random legal action when it may, until the match is over."""
    acted: dict[int, int] = {}
    final: dict[str, Any] = {}

    def read_and_act() -> bool:
        """Take what has arrived at each seat, and act where it may; whether anything came."""
        came = False
        for seat, sock in sockets.items():
            try:
                message = sock.recv(0)
            except TimeoutError:
                continue
            came = True
            if message["type"] != "state":
                continue
            if message["over"]:
                final.update(message)
                return True
            if message["legal"] and acted.get(seat) != message["seq"]:
                acted[seat] = message["seq"]
                sock.act(rng.choice(message["legal"]), seq=message["seq"])
        return came

    play_until(lambda: bool(final), read_and_act, "the match's end", timeout, idle_s=0.002)
    return final


def play_match(
    humans: list[Guest],
    game: str,
    bots: tuple[str, ...] = (),
    *,
    seed: int = 0,
    **options: Any,
) -> Played:
    room_id, sockets = open_table(humans, game, bots, **options)
    try:
        match_id = start(humans[0], room_id)
        final = drive(sockets, random.Random(seed))
    finally:
        for sock in sockets.values():
            sock.close()
    assert final["match_id"] == match_id
    seen = {
        seat: {m["seq"]: m for m in sock.received if m["type"] == "state"}
        for seat, sock in sockets.items()
    }
    return Played(match_id, room_id, final, wait_finished(humans[0].http, match_id), seen)


def wait_finished(http: httpx.Client, match_id: int, timeout: float = 10) -> dict[str, Any]:
    """The match's summary once the server has stored its end."""

    def finished() -> dict[str, Any] | None:
        summary = http.get(f"/api/matches/{match_id}").json()
        return summary if summary["status"] == "finished" else None

    return until(finished, f"match {match_id}'s end stored", timeout, every_s=0.05)


def play_bots(host: Guest, game: str, levels: tuple[str, ...], **options: Any) -> int:
    """A match between the server's bots only; returns its id once finished."""
    room_id = host.create_room(game, len(levels), **options)["id"]
    for seat, level in enumerate(levels):
        host.post(f"/api/rooms/{room_id}/seats/{seat}/bot", {"level": level}).raise_for_status()
    match_id = start(host, room_id)
    summary = wait_finished(host.http, match_id, timeout=60)
    assert summary["status"] == "finished", summary
    return match_id


def review_when_done(http: httpx.Client, match_id: int, timeout: float = 120) -> dict[str, Any]:
    """Asks until the review is done; every answer before must be a well-formed 202."""

    def review() -> dict[str, Any] | None:
        answer = http.get(f"/api/matches/{match_id}/review")
        if answer.status_code == 200:
            return answer.json()
        assert answer.status_code == 202, answer.text
        pending = answer.json()
        assert pending["status"] == "pending" and pending["position"] >= 0
        return None

    return until(review, f"match {match_id}'s review", timeout, every_s=0.1)
