"""cardroom beside the peer (boardgame.io) on the same load shape, measured in one session.

    .venv/bin/python -m tests.bench.peer [--rooms 1,100,500] [--seconds 30] [--warmup 5]
                                         [--rounds R] [--sqlite] [--json FILE]

The peer's harness is copied at run time from ``../shared/bench-peers/boardgameio`` into a
temporary folder, installed with ``npm ci`` and run as its README says:
``./bench.sh LABEL MATCHES raw memory SECONDS WARMUP`` (its server on CPU 0, its driver on CPU 1,
in-memory storage, the raw socket.io driver). Nothing of it is kept.

Ours in the same shape: N two-seat Abstrac rooms (target 50: about 14 moves a match, the peer's
row draft has about 12), no watchers, server pinned to CPU 0 and clients to CPU 1, every move
committed to Postgres before it is acknowledged, a rematch as each match ends. The peer starts
each new match through its lobby REST API (create + 2 joins) and re-syncs; ours asks for a
rematch (every seat says so over its socket: a `rematch` message). For each N it prints ours,
theirs and ours/theirs.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from tests.bench._sys import fmt_load, loadavg
from tests.bench.load import (
    LoadConfig,
    Phase,
    exit_cleanly_on_sigterm,
    report,
    run,
    to_json,
)
from tests.support.server import ROOT, free_port

PEER_SOURCE = ROOT.parent / "shared" / "bench-peers" / "boardgameio"


def install_peer(workdir: Path) -> Path:
    target = workdir / "boardgameio"
    shutil.copytree(
        PEER_SOURCE,
        target,
        ignore=shutil.ignore_patterns("node_modules", "results", "logs", "flatfile-db"),
    )
    subprocess.run(
        ["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"],
        cwd=target,
        check=True,
        timeout=600,
    )
    return target


def run_peer(peer_dir: Path, matches: int, seconds: float, warmup: float) -> dict[str, Any]:
    label = f"cardroom_peer_m{matches}"
    result_file = peer_dir / "results" / f"{label}.json"
    result_file.unlink(missing_ok=True)
    before = loadavg()
    done = subprocess.run(
        ["./bench.sh", label, str(matches), "raw", "memory", f"{seconds:g}", f"{warmup:g}"],
        cwd=peer_dir,
        env={**os.environ, "PORT": str(free_port())},
        capture_output=True,
        text=True,
        timeout=180,
    )
    after = loadavg()
    if not result_file.exists():
        raise RuntimeError(f"the peer's run gave no result:\n{done.stdout}\n{done.stderr}")
    result = json.loads(result_file.read_text())
    result["load_before"], result["load_after"] = before, after
    result["summary_line"] = done.stdout.strip()
    return result


def _ratio(ours: float | None, theirs: float | None) -> str:
    if ours is None or not theirs:
        return "-"
    return f"{ours / theirs:.2f}x"


def _num(value: float | None, digits: int = 1) -> str:
    return "-" if value is None else f"{value:,.{digits}f}"


def table(n: int, ours: Phase, theirs: dict[str, Any]) -> str:
    lat = theirs.get("move_latency_ms") or {}
    mb = 2**20
    peer_errors = (
        (theirs.get("timeouts_in_window") or 0)
        + (theirs.get("http_errors") or 0)
        + (theirs.get("setup_errors") or 0)
        + (theirs.get("server_error_lines") or 0)
        + (theirs.get("disconnects") or 0)
    )
    rows: list[tuple[str, float | None, float | None, int]] = [
        ("moves/s", ours.moves_per_s, theirs.get("moves_per_s"), 1),
        ("move RTT p50 ms", ours.rtt.get("p50"), lat.get("p50"), 2),
        ("move RTT p99 ms", ours.rtt.get("p99"), lat.get("p99"), 2),
        ("move RTT max ms", ours.rtt.get("max"), lat.get("max"), 2),
        ("matches/s", ours.matches / ours.window_s, theirs.get("matches_per_s"), 2),
        ("server CPU %", ours.server_cpu, theirs.get("server_cpu_pct"), 1),
        ("client/driver CPU %", ours.client_cpu, theirs.get("driver_cpu_pct"), 1),
        (
            "RSS MB, sockets idle",
            ours.rss["idle"] / mb,
            theirs.get("server_rss_MB_idle_connected"),
            1,
        ),
        ("RSS MB, end of window", ours.rss["end"] / mb, theirs.get("server_rss_MB_end"), 1),
        ("errors in window", sum(ours.errors.values()), peer_errors, 0),
    ]
    if ours.postgres_cpu is not None:
        rows.append(("postgres backends CPU % (ours)", ours.postgres_cpu, None, 1))
    lines = [
        f"-- {n} room(s) of 2 seats: load average ours {fmt_load(ours.load_before)} -> "
        f"{fmt_load(ours.load_after)}, peer {fmt_load(tuple(theirs['load_before']))} -> "
        f"{fmt_load(tuple(theirs['load_after']))}",
        f"{'figure':<32}{'ours':>12}{'boardgame.io':>14}{'ours/peer':>11}",
    ]
    for name, mine, peer, digits in rows:
        lines.append(
            f"{name:<32}{_num(mine, digits):>12}{_num(peer, digits):>14}{_ratio(mine, peer):>11}"
        )
    return "\n".join(lines)


def _round(peer_dir: Path, n: int, args: argparse.Namespace, *, peer_first: bool) -> dict[str, Any]:
    """One run of each side with ``n`` rooms, the peer's first or second: on a shared machine
    the speed of both drifts, and taking turns spreads the drift over both."""
    cfg = LoadConfig(
        rooms=n,
        seats=2,
        watchers=0,
        seconds=args.seconds,
        warmup=args.warmup,
        postgres=not args.sqlite,
        pin=True,
        floor=False,
    )
    theirs: dict[str, Any] = {}
    ours: dict[str, Any] = {}
    for side in ("peer", "ours") if peer_first else ("ours", "peer"):
        if side == "peer":
            theirs = run_peer(peer_dir, n, args.seconds, args.warmup)
            print(f"peer: {theirs['summary_line']}", flush=True)
        else:
            ours = run(cfg)
            print(report(ours, f"ours, {n} room(s)"), flush=True)
    return {"rooms": n, "ours": ours, "peer": theirs}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rooms", default="1,100,500")
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--warmup", type=float, default=5)
    parser.add_argument("--sqlite", action="store_true", help="ours on SQLite, not Postgres")
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="runs of each side per room count, taken in turn (peer, ours, ours, peer, ...)",
    )
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    exit_cleanly_on_sigterm()
    if not 1 <= args.seconds <= 60:
        raise SystemExit("--seconds must be 1..60 (the peer's driver is capped at 118 s)")
    counts = [int(n) for n in args.rooms.split(",")]
    if any(not 1 <= n <= 1000 for n in counts):
        raise SystemExit("--rooms: each count 1..1000")
    if not 1 <= args.rounds <= 9:
        raise SystemExit("--rounds must be 1..9")
    results: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="peer-") as tmp:
        peer_dir = install_peer(Path(tmp))
        for n in counts:
            for round_ in range(args.rounds):
                results.append(_round(peer_dir, n, args, peer_first=round_ % 2 == 0))
    print(
        "\n== cardroom vs boardgame.io (peer in memory, ours on "
        f"{'SQLite' if args.sqlite else 'Postgres'}), window {args.seconds:g} s"
    )
    for entry in results:
        print(table(entry["rooms"], entry["ours"]["ours"], entry["peer"]))
    if args.rounds > 1:
        print(f"\nours/peer moves/s, the median of {args.rounds} rounds (each in the same minute):")
        for n in counts:
            ratios = [
                e["ours"]["ours"].moves_per_s / e["peer"]["moves_per_s"]
                for e in results
                if e["rooms"] == n and e["peer"].get("moves_per_s")
            ]
            listed = ", ".join(f"{r:.2f}x" for r in ratios)
            print(f"  {n} room(s): {statistics.median(ratios):.2f}x ({listed})")
    if args.json:
        Path(args.json).write_bytes(to_json({"peer_comparison": results}))


if __name__ == "__main__":
    main()
