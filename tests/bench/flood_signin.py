"""A normal sign-in's time while the site is flooded, beside the same sign-in unloaded.

    .venv/bin/python -m tests.bench.flood_signin [--seconds 8] [--loops 32] [--postgres]

One server on 127.0.0.1 with the default limits (a fresh SQLite file, or a fresh database on
the local Postgres with ``--postgres``). An owner signs in with the right password again and
again, one sign-in at a time, from addresses of their own in turn (one address's hashes are
paced: a few at once, then one a second), for a phase with nothing else going on, then for a
phase during a flood, sent by a separate process from one address, for each flood in turn,
and unloaded once more at the end (every client is on 127.0.0.1, which the server trusts as
a proxy; ``X-Forwarded-For`` names the address):

- ``signin``: ``--loops`` connections sending wrong passwords as fast as answered, half for
  one victim's username, half for usernames that do not exist (finding 1: 60 at once);
- ``claims``: ``--loops`` guests, each claiming again and again (a free username and a strong
  password, or a taken username; finding 3: 16 looping guests);
- ``guests``: ``--loops`` connections making new guests.

It prints the owner's median sign-in per phase, each flood's ratio to the median of every
unloaded phase (the goal: within 2x) and to the unloaded phase just before it (the machine's
own load drifts), how the flood was answered, the server's hash counters and the load
average. Every phase is bounded
by ``--seconds``; nothing listens beyond 127.0.0.1, and the server and the flood process are
this benchmark's children, stopped by their own handles. The server runs on core 0 (a replica
is sized for one core) and the clients on core 1, so the flood's own client does not take the
server's CPU (``--no-pin`` leaves both free).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import os
import statistics
import tempfile
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

from tests.support.clients import PLAIN
from tests.support.server import ServerProcess, free_port, fresh_database

POSTGRES = "postgresql://postgres@127.0.0.1:5432/postgres"
PASSWORD = "Gleaming-Otter-42"
OWNER_ADDRESS = "198.51.100.10"
OWNER_ADDRESSES = [f"198.51.100.{n}" for n in range(100, 120)]
FLOOD_ADDRESS = "203.0.113.1"
# the site's own limits: the per-address ones on new guests, claims, challenges and hashes are
# lifted by the test servers (SCRIPTED_CLIENTS), so they are set back here
DEFAULT_LIMITS = {
    "CARDROOM_GUESTS_PER_ADDRESS": "30",
    "CARDROOM_CHALLENGES_PER_ADDRESS": "60",
    "CARDROOM_CLAIMS_PER_ADDRESS": "50",
    "CARDROOM_HASH_BURST_PER_ADDRESS": "3",
    "CARDROOM_REDIS_URL": "",
}


def headers(address: str) -> dict[str, str]:
    return {"X-Forwarded-For": address}


def new_account(base: str, address: str, name: str) -> tuple[str, str]:
    """A guest made and claimed from ``address``: its token and username."""
    guest = httpx.post(
        f"{base}/api/players", json={"name": name}, headers=headers(address), verify=PLAIN
    )
    guest.raise_for_status()
    token, username = guest.json()["token"], f"u{uuid.uuid4().hex[:12]}"
    claim = httpx.post(
        f"{base}/api/account",
        json={"username": username, "password": PASSWORD},
        headers={**headers(address), "Authorization": f"Bearer {token}"},
        timeout=30,
        verify=PLAIN,
    )
    claim.raise_for_status()
    return token, username


def owner_sign_ins(base: str, username: str, seconds: float, least: int) -> list[float]:
    """The owner's sign-in times, one after another, for ``seconds`` (at least ``least``),
    from the owner's addresses in turn (people sign in once, not five times a second: one
    address's hashes are paced)."""
    times: list[float] = []
    body = {"username": username, "password": PASSWORD}
    with httpx.Client(base_url=base, timeout=60, verify=PLAIN) as client:
        client.get("/healthz")  # the connection is open before the clock starts
        end = time.monotonic() + seconds
        while time.monotonic() < end or len(times) < least:
            address = OWNER_ADDRESSES[len(times) % len(OWNER_ADDRESSES)]
            start = time.perf_counter()
            answer = client.post("/api/session", json=body, headers=headers(address))
            times.append(time.perf_counter() - start)
            if answer.status_code != 200:
                raise RuntimeError(f"the owner's sign-in answered {answer.status_code}")
    return times


async def _flood(
    kind: str, base: str, loops: int, seconds: float, extra: dict[str, Any]
) -> Counter:
    answered: Counter[str] = Counter()
    end = time.monotonic() + seconds
    async with httpx.AsyncClient(
        base_url=base,
        timeout=60,
        limits=httpx.Limits(max_connections=loops, max_keepalive_connections=loops),
        verify=PLAIN,
    ) as client:

        async def loop(n: int) -> None:
            while time.monotonic() < end:
                if kind == "signin":
                    name = extra["victim"] if n % 2 else f"x{uuid.uuid4().hex[:12]}"
                    request = client.post(
                        "/api/session",
                        json={"username": name, "password": "not-the-password"},
                        headers=headers(FLOOD_ADDRESS),
                    )
                elif kind == "claims":
                    name = extra["victim"] if n % 2 else f"c{uuid.uuid4().hex[:12]}"
                    request = client.post(
                        "/api/account",
                        json={"username": name, "password": "Patient-Badger-71"},
                        headers={
                            **headers(FLOOD_ADDRESS),
                            "Authorization": f"Bearer {extra['tokens'][n]}",
                        },
                    )
                else:
                    request = client.post(
                        "/api/players", json={"name": "Flood"}, headers=headers(FLOOD_ADDRESS)
                    )
                try:
                    answer = await request
                    answered[str(answer.status_code)] += 1
                except httpx.HTTPError as error:
                    answered[type(error).__name__] += 1

        await asyncio.gather(*(loop(n) for n in range(loops)))
    return answered


def flood(
    kind: str, base: str, loops: int, seconds: float, extra: dict[str, Any], out: Any
) -> None:
    """A flood process's work (on the clients' core): what it was answered goes to ``out``."""
    pin(os.getpid(), extra["client_cores"])
    out.put(dict(asyncio.run(_flood(kind, base, loops, seconds, extra))))


def pin(pid: int, cores: set[int] | None) -> None:
    """Every thread of process ``pid`` (and the threads it makes later) on ``cores``."""
    if cores is None:
        return
    for thread in os.listdir(f"/proc/{pid}/task"):
        with contextlib.suppress(ProcessLookupError):
            os.sched_setaffinity(int(thread), cores)


def passwords(base: str) -> dict[str, int]:
    return httpx.get(f"{base}/healthz", verify=PLAIN).json()["passwords"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=8.0, help="each phase's length")
    parser.add_argument("--loops", type=int, default=32, help="the flood's connections")
    parser.add_argument("--postgres", action="store_true")
    parser.add_argument(
        "--no-pin",
        action="store_true",
        help="do not put the server on core 0 and the clients on core 1 (a replica has a core)",
    )
    args = parser.parse_args()
    pinned = not args.no_pin and len(os.sched_getaffinity(0)) >= 2
    server_cores, client_cores = ({0}, {1}) if pinned else (None, None)
    if not 0 < args.seconds <= 60 or not 0 < args.loops <= 256:
        parser.error("--seconds 0-60, --loops 1-256")
    if args.postgres:
        os.environ["CARDROOM_TEST_DATABASE_URL"] = POSTGRES
    context = multiprocessing.get_context("spawn")
    with tempfile.TemporaryDirectory() as tmp, fresh_database(Path(tmp)) as url:
        server = ServerProcess(url, free_port(), DEFAULT_LIMITS, Path(tmp) / "server.log")
        server.start()
        assert server.process is not None
        pin(server.process.pid, server_cores)
        pin(os.getpid(), client_cores)
        try:
            base = server.url
            _, owner = new_account(base, OWNER_ADDRESS, "Owner")
            _, victim = new_account(base, "198.51.100.20", "Victim")
            # the claims flood's guests: each made from an address of its own, as a bot's
            tokens = [
                httpx.post(
                    f"{base}/api/players",
                    json={"name": f"Bot {n}"},
                    headers=headers(f"192.0.2.{n + 1}"),
                    verify=PLAIN,
                ).json()["token"]
                for n in range(args.loops)
            ]
            owner_sign_ins(base, owner, 0, 3)  # warm up
            load_before = os.getloadavg()[0]
            rows: list[tuple[str, list[float], dict[str, int] | None, dict[str, int]]] = []
            for kind in ("signin", "claims", "guests"):
                # unloaded just before each flood too: the machine's own load drifts
                rows.append(
                    (
                        "unloaded",
                        owner_sign_ins(base, owner, args.seconds, 8),
                        None,
                        passwords(base),
                    )
                )
                out = context.Queue()
                extra = {"victim": victim, "tokens": tokens, "client_cores": client_cores}
                sender = context.Process(
                    target=flood, args=(kind, base, args.loops, args.seconds, extra, out)
                )
                sender.start()
                time.sleep(0.5)  # the flood is under way before the first sign-in
                try:
                    during = owner_sign_ins(base, owner, args.seconds - 1.0, 5)
                    answered = out.get(timeout=args.seconds + 60)
                finally:
                    sender.join(args.seconds + 60)
                    if sender.is_alive():
                        sender.terminate()
                rows.append((f"{kind} flood", during, answered, passwords(base)))
            rows.append(
                ("unloaded", owner_sign_ins(base, owner, args.seconds, 8), None, passwords(base))
            )
            load_after = os.getloadavg()[0]
        finally:
            server.stop()
    report(args, pinned, rows, (load_before, load_after))


def report(
    args: argparse.Namespace,
    pinned: bool,
    rows: list[tuple[str, list[float], dict[str, int] | None, dict[str, int]]],
    loads: tuple[float, float],
) -> None:
    db = "postgres" if args.postgres else "sqlite"
    where = "server on core 0, clients on core 1" if pinned else "not pinned"
    print(
        f"owner's sign-in, {db}, {args.loops} flood connections, {args.seconds:g} s a phase, "
        f"{where}; load average {loads[0]:.1f} before, {loads[1]:.1f} after"
    )
    unloaded = statistics.median(
        t for label, times, answered, _ in rows if answered is None for t in times
    )
    worst = 0.0
    for n, (label, times, answered, hashes) in enumerate(rows):
        median = statistics.median(times)
        line = (
            f"{label:<14} n={len(times):<3} p50={median * 1000:7.1f} ms  "
            f"max={max(times) * 1000:7.1f} ms"
        )
        if answered is not None:
            before = statistics.median(rows[n - 1][1])
            worst = max(worst, median / unloaded)
            said = ", ".join(f"{count} x {code}" for code, count in sorted(answered.items()))
            line += (
                f"  ratio {median / unloaded:4.2f}x (to the one before: {median / before:4.2f}x)"
                f"  flood answered: {said}"
            )
        print(line)
        print(f"{'':<14} hashes so far: {hashes['hashed']}, most at once {hashes['most_at_once']}")
    print(
        f"unloaded median of all {sum(1 for r in rows if r[2] is None)} unloaded phases: "
        f"{unloaded * 1000:.1f} ms; worst ratio under a flood: {worst:.2f}x (goal: within 2x)"
    )


if __name__ == "__main__":
    main()
