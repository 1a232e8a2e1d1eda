"""Requests sent at once over real HTTP, to race room changes against each other."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from tests.support.clients import PLAIN, Guest
from tests.support.server import run_on_own_loop

Request = tuple[Guest, str, str] | tuple[Guest, str, str, Any]


async def together(*requests: Request) -> list[httpx.Response]:
    """Send the requests (guest, method, path and maybe a JSON body) at once, each on a
    connection of its own, and wait for every answer (one client a guest, whose pool opens as
    many connections as are asked)."""
    clients: dict[int, httpx.AsyncClient] = {}
    for guest, *_ in requests:
        if id(guest) not in clients:
            clients[id(guest)] = httpx.AsyncClient(
                base_url=guest.base_url,
                headers={"Authorization": f"Bearer {guest.token}"},
                timeout=20,
                limits=httpx.Limits(max_connections=None, max_keepalive_connections=0),
                verify=PLAIN,
            )

    async def send(guest: Guest, method: str, path: str, body: Any = None) -> httpx.Response:
        return await clients[id(guest)].request(method, path, json=body)

    try:
        return list(await asyncio.gather(*(send(*r) for r in requests)))
    finally:
        for client in clients.values():
            await client.aclose()


def race_start_and_leave(host: Guest, guest: Guest) -> tuple[str, bool]:
    """A new two-seat room, both seated, where the host's start races the guest's leave:
    exactly one of them wins. The room's id, and whether the start won."""
    room_id = host.create_room("abstrac", 2)["id"]
    host.post(f"/api/rooms/{room_id}/seats/0").raise_for_status()
    guest.post(f"/api/rooms/{room_id}/seats/1").raise_for_status()
    start, leave = run_on_own_loop(
        together(
            (host, "POST", f"/api/rooms/{room_id}/start"),
            (guest, "DELETE", f"/api/rooms/{room_id}/seats/1"),
        )
    )
    assert (start.status_code, leave.status_code) in {(200, 409), (409, 200)}
    if start.status_code == 409:
        assert start.json()["error"]["code"] == "seats_empty"
    return room_id, start.status_code == 200
