"""Load harness: many rooms over real WebSockets, beside the echo floor measured in the same run.

    .venv/bin/python -m tests.bench.load --rooms N --seats M --watchers K
        [--think-ms T] [--seconds S] [--warmup W] [--postgres] [--procs P --redis] [--pin]
        [--client-procs C] [--spread socket|room] [--no-floor] [--no-compression]
        [--profile FILE] [--json FILE] [--log-dir DIR]
    .venv/bin/python -m tests.bench.load --scale-out ...     # the same load on 1, 2, 4 processes

It starts the real server (``python -m app``; P processes sharing a private Redis with
``--procs P --redis``) on a fresh database (``--postgres``: created on the local Postgres and
dropped afterwards; otherwise a SQLite file), registers the players, creates N rooms of M seats
(Abstrac for 2 seats, Plus & Minus for 3 to 6) plus K spectators each, and plays whole matches
over WebSockets, a rematch as soon as one ends. Mode 1 (``--think-ms 0``): every seat moves the
moment its own new state says it is to act. Mode 2: it waits a think time, uniform in
[0.5, 1.5) x T. Clients run in their own process(es), pinned to CPU 1 with ``--pin`` while the
servers are pinned to CPU 0. With several server processes a room's sockets go round-robin over
them (``--spread socket``: every move crosses Redis) or all to one (``--spread room``, what a
proxy hashing the room id gives); the host's HTTP calls go to its own socket's process.

Then, in the same run, the floor: ``tests.bench.echo_app`` under the same uvicorn settings, as
many processes, the same sockets and the same message pattern (per move every member of a room
receives one frame, the mover's being the answer to its own frame).

Every figure is printed beside the floor's and the ratio ours/floor, with the load average and
how long the servers and clients waited for a CPU (``/proc/PID/schedstat``: a noisy machine
shows there; re-run then). With Postgres it also reports commits/s, moves per commit and a
probe of a bare durable commit's latency. ``--profile FILE`` records server 0 with py-spy
(summarise it with ``python -m tests.bench._profile FILE``). Memory: RSS with the rooms created
but no socket, with every socket connected and idle (no match), and at the end of the window
with every room live.

Bounded: at most 5,000 rooms and 12,000 sockets, 600 s windows, every wait has a deadline, and
every process started is stopped by its own handle. 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import asyncpg
import orjson
from sqlalchemy.engine import make_url

from tests.bench._stack import CLIENT_CORE, Clients, PrivateRedis, Servers
from tests.bench._sys import CpuMeter, fmt_load, loadavg, pids_whose_cmdline_has, pinned
from tests.bench.playouts import reference_per_second
from tests.support.server import fresh_database

POSTGRES = "postgresql://postgres@127.0.0.1:5432/postgres"
MAX_ROOMS = 5000
MAX_SOCKETS = 12_000
MAX_SECONDS = 600


@dataclass
class LoadConfig:
    rooms: int = 100
    seats: int = 2
    watchers: int = 0
    think_ms: float = 0
    seconds: float = 20
    warmup: float = 5
    postgres: bool = False
    postgres_url: str = POSTGRES
    procs: int = 1
    redis: bool = False
    redis_url: str | None = None
    pin: bool = False
    client_procs: int = 1
    game: str | None = None
    target: int = 50
    compression: bool = True
    floor: bool = True
    profile: str | None = None
    log_dir: str | None = None
    seed: int = 1
    server_module: str = "app"  # another entry point of the same server, for experiments
    spread: str = "socket"  # socket: a room's sockets on different processes; room: one process

    def check(self) -> None:
        if not 1 <= self.rooms <= MAX_ROOMS:
            raise SystemExit(f"--rooms must be 1..{MAX_ROOMS}")
        if not 2 <= self.seats <= 6:
            raise SystemExit("--seats must be 2..6")
        if not 0 <= self.watchers <= 50:
            raise SystemExit("--watchers must be 0..50")
        if self.sockets > MAX_SOCKETS:
            raise SystemExit(f"{self.sockets} sockets: at most {MAX_SOCKETS}")
        if not 1 <= self.seconds <= MAX_SECONDS or not 0 <= self.warmup <= 120:
            raise SystemExit(f"--seconds must be 1..{MAX_SECONDS}, --warmup 0..120")
        if not 1 <= self.procs <= 8 or not 1 <= self.client_procs <= 8:
            raise SystemExit("--procs and --client-procs must be 1..8")
        if self.procs > 1 and not self.redis:
            raise SystemExit("several server processes share rooms only through Redis: --redis")

    @property
    def sockets(self) -> int:
        return self.rooms * (self.seats + self.watchers)

    @property
    def game_id(self) -> str:
        return self.game or ("abstrac" if self.seats == 2 else "plus_minus")

    @property
    def options(self) -> dict[str, Any]:
        return {"target": self.target} if self.game_id == "abstrac" else {}

    def describe(self) -> str:
        mode = f"think {self.think_ms:g} ms" if self.think_ms else "as fast as possible"
        where = f"{self.procs} server process{'es' if self.procs > 1 else ''}"
        if self.redis:
            where += " + Redis"
        if self.procs > 1:
            where += (
                " (a room's sockets spread over the processes)"
                if self.spread == "socket"
                else " (each room's sockets on one process)"
            )
        opts = ",".join(f"{k}={v}" for k, v in self.options.items())
        return (
            f"{self.rooms} rooms x {self.seats} seats + {self.watchers} watchers "
            f"({self.sockets} sockets), {self.game_id}{'(' + opts + ')' if opts else ''}, "
            f"{mode}, {where}, {'Postgres' if self.postgres else 'SQLite'}, "
            f"{'pinned: servers CPU 0, clients CPU 1' if self.pin else 'not pinned'}, "
            f"{self.client_procs} client process{'es' if self.client_procs > 1 else ''}, "
            f"clients {'offer' if self.compression else 'refuse'} per-message deflate "
            "(the server's settings decide), "
            f"warmup {self.warmup:g} s, window {self.seconds:g} s"
        )


@dataclass
class Phase:
    """One measured run (ours or the floor)."""

    label: str
    load_before: tuple[float, float, float] = (0, 0, 0)
    load_after: tuple[float, float, float] = (0, 0, 0)
    window_s: float = 0
    moves: int = 0
    msgs: int = 0
    bytes: int = 0
    rtt: dict[str, float] = field(default_factory=dict)
    fanout: dict[str, float] = field(default_factory=dict)
    rematch: dict[str, float] = field(default_factory=dict)
    matches: int = 0
    types: dict[str, int] = field(default_factory=dict)
    errors: dict[str, int] = field(default_factory=dict)
    errors_total: dict[str, int] = field(default_factory=dict)
    server_error_lines: int = 0
    stale: int = 0
    contended: int = 0
    server_cpu: float = 0
    client_cpu: float = 0
    server_waited: float = 0  # % of the window the servers were runnable but not running
    client_waited: float = 0
    pg_commit_ms: dict[str, float] = field(default_factory=dict)
    pg_commits: int | None = None
    pg_sessions: int | None = None  # Postgres sessions opened in the window (pool churn)
    postgres_cpu: float | None = None
    redis_cpu: float | None = None
    rss: dict[str, int] = field(default_factory=dict)
    sockets: int = 0
    ready: int = 0
    rooms: int = 0
    profile: str | None = None

    @property
    def moves_per_s(self) -> float:
        return self.moves / self.window_s if self.window_s else 0.0

    @property
    def msgs_per_s(self) -> float:
        return self.msgs / self.window_s if self.window_s else 0.0

    @property
    def mean_frame(self) -> float:
        return self.bytes / self.msgs if self.msgs else 0.0

    def per_idle_socket(self) -> float | None:
        base = self.rss.get("rooms", self.rss.get("base"))
        if base is None or "idle" not in self.rss or not self.ready:
            return None
        return (self.rss["idle"] - base) / self.ready

    def per_live_room(self, with_sockets: bool) -> float | None:
        if "end" not in self.rss or "base" not in self.rss or not self.rooms:
            return None
        grown = self.rss["end"] - self.rss["base"]
        if not with_sockets:
            socket_share = self.per_idle_socket()
            if socket_share is None:
                return None
            grown -= socket_share * self.ready
        return grown / self.rooms


def percentiles(samples: list[float]) -> dict[str, float]:
    if not samples:
        return {}
    ms = sorted(x * 1000 for x in samples)

    def at(q: float) -> float:
        return ms[min(len(ms) - 1, int(q * len(ms)))]

    return {
        "n": len(ms),
        "p50": at(0.5),
        "p90": at(0.9),
        "p99": at(0.99),
        "max": ms[-1],
        "mean": statistics.fmean(ms),
    }


# -- one phase ----------------------------------------------------------------------------
def client_configs(cfg: LoadConfig, mode: str, urls: list[str], frame: float) -> list[dict]:
    configs = []
    for index in range(cfg.client_procs):
        configs.append(
            {
                "mode": mode,
                "servers": urls,
                "room_indexes": list(range(index, cfg.rooms, cfg.client_procs)),
                "seats": cfg.seats,
                "watchers": cfg.watchers,
                "game": cfg.game_id,
                "options": cfg.options,
                "think_ms": cfg.think_ms,
                "compression": cfg.compression,
                "seed": cfg.seed * 1000 + index,
                "echo_frame_bytes": round(frame),
                "spread": cfg.spread,
            }
        )
    return [c for c in configs if c["room_indexes"]]


def measure(
    cfg: LoadConfig,
    phase: Phase,
    servers: Servers,
    clients: Clients,
    extra: dict[str, CpuMeter],
    profile_pid: int | None,
    commits: Any = None,
) -> None:
    """Warm up, then the window: counters, CPU meters, RSS samples; fills ``phase``."""
    time.sleep(cfg.warmup)
    clients.command("measure", 30)
    commits_before = commits() if commits else None
    phase.load_before = loadavg()
    meters = {"server": CpuMeter(pids=servers.pids), "client": CpuMeter(pids=clients.pids)}
    meters.update(extra)
    for meter in meters.values():
        meter.start()
    spy = _start_profile(cfg, profile_pid) if profile_pid else None
    t0 = time.monotonic()
    peak = 0
    while time.monotonic() - t0 < cfg.seconds:
        peak = max(peak, servers.rss())
        time.sleep(min(0.5, max(0.0, cfg.seconds - (time.monotonic() - t0))))
    reports = clients.command("report", 60)
    cpu = {name: meter.stop() for name, meter in meters.items()}
    if commits is not None and commits_before is not None:
        time.sleep(0.6)  # Postgres publishes its counters at most every 0.5 s
        after = commits()
        phase.pg_commits = after[0] - commits_before[0]
        phase.pg_sessions = after[1] - commits_before[1]
    phase.load_after = loadavg()
    phase.rss["end"] = servers.rss()
    phase.rss["peak"] = max(peak, phase.rss["end"])
    phase.server_cpu, phase.client_cpu = cpu["server"], cpu["client"]
    phase.server_waited, phase.client_waited = meters["server"].waited, meters["client"].waited
    phase.postgres_cpu, phase.redis_cpu = cpu.get("postgres"), cpu.get("redis")
    phase.window_s = statistics.fmean(r["seconds"] for r in reports)
    rtt, fan, rematch = [], [], []
    types: Counter[str] = Counter()
    errors: Counter[str] = Counter()
    errors_total: Counter[str] = Counter()
    for report in reports:
        phase.moves += report["moves"]
        phase.msgs += report["msgs"]
        phase.bytes += report["bytes"]
        phase.matches += report["matches"]
        phase.stale += report["stale"]
        phase.contended += report["contended"]
        rtt += report["rtt"]
        fan += report["fanout"]
        rematch += report["rematch"]
        types.update(report["types"])
        errors.update(report["errors"])
        errors_total.update(report["errors_total"])
    phase.rtt, phase.fanout, phase.rematch = (
        percentiles(rtt),
        percentiles(fan),
        percentiles(rematch),
    )
    phase.types, phase.errors, phase.errors_total = dict(types), dict(errors), dict(errors_total)
    if spy is not None:
        phase.profile = _finish_profile(cfg, spy)


def _start_profile(cfg: LoadConfig, pid: int) -> subprocess.Popen[bytes] | None:
    spy = Path(sys.executable).with_name("py-spy")
    if not spy.exists():
        print("py-spy is not installed in the venv: no profile", file=sys.stderr)
        return None
    assert cfg.profile is not None
    command = [
        str(spy),
        "record",
        "--pid",
        str(pid),
        "--duration",
        str(max(1, int(cfg.seconds) - 1)),
        "--rate",
        "200",
        "--format",
        "raw",
        "--nonblocking",
        "--gil",  # only samples holding the GIL: CPU time, not the loop waiting in epoll
        "--output",
        cfg.profile,
    ]
    return subprocess.Popen(
        pinned(command, CLIENT_CORE if cfg.pin else None),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def _finish_profile(cfg: LoadConfig, spy: subprocess.Popen[bytes]) -> str | None:
    try:
        spy.wait(30)
    except subprocess.TimeoutExpired:
        spy.kill()
        spy.wait(5)
        return None
    return cfg.profile if cfg.profile and Path(cfg.profile).exists() else None


def _pg_run(admin_url: str, database: str, work: Any) -> Any:
    async def go() -> Any:
        dsn = make_url(admin_url).set(drivername="postgresql", database=database)
        connection = await asyncpg.connect(dsn.render_as_string(hide_password=False))
        try:
            return await work(connection)
        finally:
            await connection.close()

    return asyncio.run(go())


def pg_commit_probe(admin_url: str, database: str, count: int = 50) -> list[float]:
    """Latency of small durable commits on the benchmark's database (the floor of a move)."""

    async def work(connection: Any) -> list[float]:
        await connection.execute("CREATE TABLE IF NOT EXISTS bench_probe (x int)")
        times = []
        for i in range(count):
            start = time.perf_counter()
            async with connection.transaction():
                await connection.execute("INSERT INTO bench_probe VALUES ($1)", i)
            times.append(time.perf_counter() - start)
        await connection.execute("DROP TABLE bench_probe")
        return times

    return _pg_run(admin_url, database, work)


def pg_counters(admin_url: str, database: str) -> tuple[int, int]:
    """Transactions committed and sessions opened so far on one database."""

    async def work(connection: Any) -> tuple[int, int]:
        row = await connection.fetchrow(
            "SELECT xact_commit, sessions FROM pg_stat_database WHERE datname = $1", database
        )
        return int(row["xact_commit"]), int(row["sessions"])

    return _pg_run(admin_url, "postgres", work)


@contextlib.contextmanager
def database(cfg: LoadConfig, tmp: Path) -> Iterator[str]:
    if not cfg.postgres:
        with fresh_database(tmp) as url:
            yield url
        return
    saved = os.environ.get("CARDROOM_TEST_DATABASE_URL")
    os.environ["CARDROOM_TEST_DATABASE_URL"] = cfg.postgres_url
    try:
        with fresh_database(tmp) as url:
            yield url
    finally:
        if saved is None:
            os.environ.pop("CARDROOM_TEST_DATABASE_URL", None)
        else:
            os.environ["CARDROOM_TEST_DATABASE_URL"] = saved


def run_ours(cfg: LoadConfig, log_dir: Path) -> Phase:
    phase = Phase("cardroom")
    phase.rooms = cfg.rooms
    with contextlib.ExitStack() as stack:
        url = stack.enter_context(database(cfg, log_dir))
        extra: dict[str, CpuMeter] = {}
        redis_url = ""
        if cfg.redis:
            if cfg.redis_url:
                redis_url = cfg.redis_url
            else:
                redis = PrivateRedis(log_dir)
                stack.callback(redis.close)
                redis_url = redis.url
                extra["redis"] = CpuMeter(pids=[redis.process.pid])
        commits = None
        if cfg.postgres:
            name = make_url(url).database or ""
            extra["postgres"] = CpuMeter(finder=lambda: pids_whose_cmdline_has(f" {name} "))
            phase.pg_commit_ms = percentiles(pg_commit_probe(cfg.postgres_url, name))

            def commits() -> tuple[int, int]:
                return pg_counters(cfg.postgres_url, name)

        env = {
            "CARDROOM_DATABASE_URL": url,
            "CARDROOM_REDIS_URL": redis_url,
            "CARDROOM_MESSAGES_PER_SECOND": "1000000",
            "CARDROOM_MESSAGE_BURST": "1000000",
            "CARDROOM_BOT_DELAY_MS": "700",  # no seat is a bot's
        }
        if cfg.procs > 1:  # a local Postgres allows 100 connections; 40 is one process's pool
            env["CARDROOM_DB_POOL_SIZE"] = str(80 // cfg.procs)
        servers = Servers("app", cfg.procs, env, log_dir, cfg.pin, cfg.server_module)
        stack.callback(servers.close)
        servers.warm()
        time.sleep(1)
        phase.rss["base"] = servers.rss()
        clients = Clients(client_configs(cfg, "cardroom", servers.urls, 0), log_dir, cfg.pin)
        stack.callback(clients.close)
        setup = clients.command("setup", 300)
        failures = [f for reply in setup for f in reply["failures"]]
        if failures:
            raise RuntimeError(f"setup failed: {failures[:3]}")
        time.sleep(1)
        phase.rss["rooms"] = servers.rss()
        connected = clients.command("connect", 300)
        phase.sockets = sum(r["sockets"] for r in connected)
        phase.ready = sum(r["ready"] for r in connected)
        time.sleep(2)
        phase.rss["idle"] = servers.rss()
        clients.command("start", 300)
        profile_pid = servers.pids[0] if cfg.profile else None
        measure(cfg, phase, servers, clients, extra, profile_pid, commits)
        clients.command("stop", 60)
        phase.server_error_lines = servers.error_lines()
        if not servers.alive():
            phase.errors["server_died"] = 1
    return phase


def run_floor(cfg: LoadConfig, log_dir: Path, frame_bytes: float) -> Phase:
    phase = Phase("echo floor")
    phase.rooms = cfg.rooms
    with contextlib.ExitStack() as stack:
        servers = Servers("echo", cfg.procs, {}, log_dir, cfg.pin)
        stack.callback(servers.close)
        servers.warm()
        time.sleep(1)
        phase.rss["base"] = servers.rss()
        configs = client_configs(cfg, "echo", servers.urls, frame_bytes or 400)
        clients = Clients(configs, log_dir, cfg.pin)
        stack.callback(clients.close)
        connected = clients.command("connect", 300)
        phase.sockets = sum(r["sockets"] for r in connected)
        phase.ready = sum(r["ready"] for r in connected)
        time.sleep(2)
        phase.rss["idle"] = servers.rss()
        clients.command("start", 60)
        measure(cfg, phase, servers, clients, {}, None)
        clients.command("stop", 60)
        phase.server_error_lines = servers.error_lines()
    return phase


def run(cfg: LoadConfig) -> dict[str, Any]:
    """Ours, then the floor shaped like it (frame size of ours); both as dicts."""
    cfg.check()
    reference = reference_per_second()  # before anything of ours runs
    with contextlib.ExitStack() as stack:
        if cfg.log_dir:
            log_dir = Path(cfg.log_dir)
            log_dir.mkdir(parents=True, exist_ok=True)
        else:
            log_dir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="load-")))
        ours = run_ours(cfg, log_dir)
        floor = run_floor(cfg, log_dir, ours.mean_frame) if cfg.floor else None
    return {"config": asdict(cfg), "ours": ours, "floor": floor, "reference": reference}


# -- printing -------------------------------------------------------------------------------
def _num(value: float | None, digits: int = 1) -> str:
    if value is None:
        return "-"
    return f"{value:,.{digits}f}"


def _ratio(ours: float | None, floor: float | None) -> str:
    if ours is None or floor is None or floor == 0:
        return "-"
    return f"{ours / floor:.2f}x"


def rows(ours: Phase, floor: Phase | None) -> list[tuple[str, float | None, float | None, int]]:
    def pick(phase: Phase | None, getter: Any) -> float | None:
        if phase is None:
            return None
        with contextlib.suppress(KeyError, TypeError, ZeroDivisionError):
            return getter(phase)
        return None

    def both(getter: Any) -> tuple[float | None, float | None]:
        return pick(ours, getter), pick(floor, getter)

    kb = 1024
    table: list[tuple[str, float | None, float | None, int]] = [
        ("moves/s", *both(lambda p: p.moves_per_s), 1),
        ("messages/s delivered", *both(lambda p: p.msgs_per_s), 1),
        ("mean frame bytes", *both(lambda p: p.mean_frame), 0),
        ("move RTT p50 ms", *both(lambda p: p.rtt["p50"]), 2),
        ("move RTT p99 ms", *both(lambda p: p.rtt["p99"]), 2),
        ("move RTT max ms", *both(lambda p: p.rtt["max"]), 2),
        ("fan-out p50 ms", *both(lambda p: p.fanout["p50"]), 2),
        ("fan-out p99 ms", *both(lambda p: p.fanout["p99"]), 2),
        ("fan-out max ms", *both(lambda p: p.fanout["max"]), 2),
        ("errors in window", *both(lambda p: sum(p.errors.values())), 0),
        ("server CPU % (one core = 100)", *both(lambda p: p.server_cpu), 1),
        ("server waiting for a CPU %", *both(lambda p: p.server_waited), 1),
        ("client CPU %", *both(lambda p: p.client_cpu), 1),
        ("client waiting for a CPU %", *both(lambda p: p.client_waited), 1),
        ("server RSS MB, end", *both(lambda p: p.rss["end"] / kb / kb), 1),
        ("KB per idle socket", *both(lambda p: p.per_idle_socket() / kb), 2),
        ("KB per live room incl. sockets", *both(lambda p: p.per_live_room(True) / kb), 2),
    ]
    table.append(
        (
            "KB per live room excl. sockets",
            pick(ours, lambda p: p.per_live_room(False) / kb),
            None,
            2,
        )
    )
    table.append(("matches/s", pick(ours, lambda p: p.matches / p.window_s), None, 2))
    for q in ("p50", "p99", "max"):
        label = f"rematch {q} ms (over -> new state)"
        table.append((label, pick(ours, lambda p, q=q: p.rematch.get(q)), None, 2))
    if ours.postgres_cpu is not None:
        table.append(("postgres backends CPU % (long-lived)", ours.postgres_cpu, None, 1))
    if ours.pg_commits is not None and ours.window_s:
        commits_per_s = ours.pg_commits / ours.window_s
        table.append(("postgres commits/s (all sessions)", commits_per_s, None, 1))
        if commits_per_s:
            table.append(("moves per commit", ours.moves_per_s / commits_per_s, None, 2))
    if ours.pg_sessions is not None and ours.window_s:
        table.append(("postgres sessions opened/s", ours.pg_sessions / ours.window_s, None, 1))
    if ours.pg_commit_ms:
        table.append(("postgres commit probe p50 ms", ours.pg_commit_ms["p50"], None, 2))
        table.append(("postgres commit probe p99 ms", ours.pg_commit_ms["p99"], None, 2))
    if ours.redis_cpu is not None:
        table.append(("redis CPU %", ours.redis_cpu, None, 1))
    return table


def report(result: dict[str, Any], title: str = "load") -> str:
    cfg = LoadConfig(**result["config"])
    ours: Phase = result["ours"]
    floor: Phase | None = result["floor"]
    lines = [f"== {title}: {cfg.describe()}"]
    lines.append(
        f"machine reference before the run: {result['reference']:,.0f} rounds/s "
        "(tests.bench.playouts's fixed pure-Python workload: compare runs on other days by it)"
    )
    lines.append(
        f"load average (1/5/15 min): ours window {fmt_load(ours.load_before)} -> "
        f"{fmt_load(ours.load_after)}"
        + (
            f"; floor window {fmt_load(floor.load_before)} -> {fmt_load(floor.load_after)}"
            if floor
            else ""
        )
    )
    if cfg.think_ms:
        offered = cfg.rooms / (cfg.think_ms / 1000)
        lines.append(
            f"offered load: about {offered:,.0f} moves/s ({cfg.rooms} rooms, one seat to act at "
            f"a time, mean think {cfg.think_ms:g} ms, plus each move's round trip)"
        )
    lines.append(f"{'figure':<36}{'ours':>14}{'floor':>14}{'ours/floor':>12}")
    for name, mine, theirs, digits in rows(ours, floor):
        lines.append(
            f"{name:<36}{_num(mine, digits):>14}{_num(theirs, digits):>14}"
            f"{_ratio(mine, theirs):>12}"
        )
    lines.append(
        f"sockets ready: ours {ours.ready}/{ours.sockets}"
        + (f", floor {floor.ready}/{floor.sockets}" if floor else "")
        + f"; frames received by type (ours): {ours.types}"
    )
    lines.append(
        f"errors (ours, window / whole run): {ours.errors or 0} / {ours.errors_total or 0}; "
        f"server ERROR log lines {ours.server_error_lines}; stale (lost races) {ours.stale}"
        + (f"; floor errors {floor.errors or 0}" if floor else "")
    )
    rss = {k: round(v / 2**20, 1) for k, v in ours.rss.items()}
    lines.append(f"server RSS MB (ours): {rss}")
    if floor:
        lines.append(
            f"server RSS MB (floor): { {k: round(v / 2**20, 1) for k, v in floor.rss.items()} }"
        )
    limit = 90 * (1 if cfg.pin else cfg.client_procs)
    if ours.client_cpu > limit:
        lines.append("WARNING: our clients used a whole core: our figures may be client-bound")
    if floor and floor.client_cpu > limit:
        lines.append(
            "NOTE: the floor's clients used a whole core, so the floor is client-bound: the real "
            "floor is higher and every ours/floor throughput ratio is an upper bound"
        )
    if ours.profile:
        lines.append(f"profile (py-spy raw): {ours.profile}")
    return "\n".join(lines)


def to_json(result: dict[str, Any]) -> bytes:
    def default(value: Any) -> Any:
        if isinstance(value, Phase):
            data = asdict(value)
            data.update(
                moves_per_s=value.moves_per_s,
                msgs_per_s=value.msgs_per_s,
                per_idle_socket=value.per_idle_socket(),
                per_live_room=value.per_live_room(True),
                per_live_room_excl_sockets=value.per_live_room(False),
            )
            return data
        raise TypeError

    return orjson.dumps(result, default=default, option=orjson.OPT_INDENT_2)


# -- scale-out ------------------------------------------------------------------------------
def scale_out(cfg: LoadConfig, counts: tuple[int, ...] = (1, 2, 4)) -> list[dict[str, Any]]:
    results = []
    for procs in counts:
        result = run(replace(cfg, procs=procs, redis=True))
        print(report(result, f"scale-out, {procs} process(es)"), flush=True)
        results.append(result)
    base, base_floor = results[0]["ours"].moves_per_s, results[0]["floor"]
    print(
        f"\n== scale-out with Redis ({cfg.rooms} rooms x {cfg.seats} seats + {cfg.watchers} "
        f"watchers, spread by {cfg.spread}, {'pinned' if cfg.pin else 'not pinned'}, "
        f"{os.cpu_count()} CPUs)"
    )
    print(
        f"{'processes':<10}{'moves/s':>10}{'factor':>8}{'msgs/s':>10}{'p50 ms':>8}"
        f"{'p99 ms':>8}{'srv CPU%':>9}{'wait%':>7}{'redis%':>8}{'pg%':>7}{'floor msg/s':>12}"
        f"{'factor':>8}"
        f"  load avg"
    )
    for procs, result in zip(counts, results, strict=True):
        ours, floor = result["ours"], result["floor"]
        floor_factor = (
            _ratio(floor.msgs_per_s, base_floor.msgs_per_s) if floor and base_floor else "-"
        )
        print(
            f"{procs:<10}{ours.moves_per_s:>10.1f}{_ratio(ours.moves_per_s, base):>8}"
            f"{ours.msgs_per_s:>10.1f}{ours.rtt.get('p50', 0):>8.2f}{ours.rtt.get('p99', 0):>8.2f}"
            f"{ours.server_cpu:>9.1f}{ours.server_waited:>7.1f}{_num(ours.redis_cpu):>8}"
            f"{_num(ours.postgres_cpu):>7}"
            f"{_num(floor.msgs_per_s if floor else None):>12}{floor_factor:>8}"
            f"  {fmt_load(ours.load_before)}"
        )
    return results


def parse(argv: list[str] | None = None) -> tuple[LoadConfig, argparse.Namespace]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rooms", type=int, default=100)
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--watchers", type=int, default=0)
    parser.add_argument("--think-ms", type=float, default=0)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--warmup", type=float, default=5)
    parser.add_argument("--postgres", action="store_true")
    parser.add_argument("--postgres-url", default=POSTGRES)
    parser.add_argument("--procs", type=int, default=1)
    parser.add_argument("--redis", action="store_true")
    parser.add_argument("--redis-url", default=None, help="default: a private redis-server")
    parser.add_argument("--pin", action="store_true")
    parser.add_argument("--client-procs", type=int, default=1)
    parser.add_argument("--game", default=None)
    parser.add_argument("--target", type=int, default=50, help="Abstrac's points to win")
    parser.add_argument(
        "--no-compression",
        action="store_true",
        help="clients do not offer per-message deflate (browsers do; the server may refuse)",
    )
    parser.add_argument("--no-floor", action="store_true")
    parser.add_argument("--profile", default=None, help="py-spy raw profile of server 0")
    parser.add_argument("--log-dir", default=None)
    parser.add_argument("--json", default=None, help="write every figure here")
    parser.add_argument("--scale-out", action="store_true", help="1, 2 and 4 processes")
    parser.add_argument(
        "--spread",
        choices=("socket", "room"),
        default="socket",
        help="with --procs: a room's sockets round-robin over the processes (socket), or all "
        "on one process, as a proxy hashing the room id would do (room)",
    )
    parser.add_argument(
        "--server-module",
        default="app",
        help="run `python -m MODULE` instead of `python -m app` (e.g. tests.bench._gc_probe)",
    )
    args = parser.parse_args(argv)
    cfg = LoadConfig(
        rooms=args.rooms,
        seats=args.seats,
        watchers=args.watchers,
        think_ms=args.think_ms,
        seconds=args.seconds,
        warmup=args.warmup,
        postgres=args.postgres,
        postgres_url=args.postgres_url,
        procs=args.procs,
        redis=args.redis or args.scale_out,
        redis_url=args.redis_url,
        pin=args.pin,
        client_procs=args.client_procs,
        game=args.game,
        target=args.target,
        compression=not args.no_compression,
        floor=not args.no_floor,
        profile=args.profile,
        log_dir=args.log_dir,
        server_module=args.server_module,
        spread=args.spread,
    )
    return cfg, args


def exit_cleanly_on_sigterm() -> None:
    """SIGTERM unwinds like an exception, so every server, client and database is cleaned up."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))


def main(argv: list[str] | None = None) -> None:
    cfg, args = parse(argv)
    exit_cleanly_on_sigterm()
    if args.scale_out:
        results = scale_out(cfg)
        if args.json:
            Path(args.json).write_bytes(to_json({"scale_out": results}))
        return
    result = run(cfg)
    print(report(result))
    if args.json:
        Path(args.json).write_bytes(to_json(result))


if __name__ == "__main__":
    main()
