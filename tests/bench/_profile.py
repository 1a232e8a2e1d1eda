"""Summarise a py-spy ``--format raw`` profile (collapsed stacks): where the server's CPU goes.

    .venv/bin/python -m tests.bench._profile PROFILE.txt [--top 25]

Prints the share of samples per layer (by the file of the innermost frame), the functions with
the most self time, and the functions with the most inclusive time (each counted once a stack).
py-spy records only threads that are running (not idle), so the shares are of CPU time.
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from pathlib import Path

FRAME = re.compile(r"^(?P<func>.*?) \((?P<file>[^():]+)(?::(?P<line>\d+))?\)$")

LAYERS = (
    ("app/realtime", "app: realtime (endpoint, hub)"),
    ("app/rooms", "app: rooms (manager, runtime)"),
    ("app/db", "app: db (movelog, queries)"),
    ("app/", "app: other"),
    ("games/", "games: engines"),
    ("sqlalchemy", "SQLAlchemy"),
    ("asyncpg", "asyncpg"),
    ("websockets", "websockets (protocol, framing)"),
    ("uvicorn", "uvicorn"),
    ("starlette", "starlette"),
    ("fastapi", "fastapi"),
    ("pydantic", "pydantic"),
    ("httptools", "httptools"),
    ("zlib", "zlib / deflate"),
    ("asyncio", "asyncio"),
    ("uvloop", "uvloop"),
    ("redis", "redis"),
    ("orjson", "orjson"),
    ("logging", "logging"),
)


def parse_frame(frame: str) -> tuple[str, str]:
    match = FRAME.match(frame.strip())
    if not match:
        return frame.strip(), ""
    path = match["file"]
    for marker in ("site-packages/", "/lib/python3.11/", "/work/main/"):
        if marker in path:
            path = path.split(marker, 1)[1]
    return match["func"], path


def layer_of(path: str) -> str:
    for needle, name in LAYERS:
        if needle in path:
            return name
    return f"other ({path.split('/')[0] or '?'})"


def summarise(path: Path, top: int = 25) -> str:
    total = 0
    own: Counter[str] = Counter()
    inclusive: Counter[str] = Counter()
    layers: Counter[str] = Counter()
    # what the loop is serving: the outermost frame of interest in each stack
    entry: Counter[str] = Counter()
    for line in path.read_text(errors="replace").splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not stack or not count_text.isdigit():
            continue
        count = int(count_text)
        total += count
        frames = [parse_frame(f) for f in stack.split(";") if f and not f.startswith("process ")]
        frames = [f for f in frames if not f[0].startswith("thread ")]
        if not frames:
            continue
        func, file = frames[-1]
        own[f"{func} ({file})"] += count
        layers[layer_of(file)] += count
        for name in {f"{fn} ({fl})" for fn, fl in frames}:
            inclusive[name] += count
        entry[_entry(frames)] += count
    if not total:
        return f"{path}: no samples"

    def share(n: int) -> str:
        return f"{100 * n / total:5.1f}%"

    out = [f"profile {path}: {total} samples"]
    out.append("by layer (innermost frame):")
    out += [f"  {share(n)}  {name}" for name, n in layers.most_common()]
    out.append("by activity (innermost of the listed app functions on the stack):")
    out += [f"  {share(n)}  {name}" for name, n in entry.most_common(20)]
    out.append(f"top {top} self time:")
    out += [f"  {share(n)}  {name}" for name, n in own.most_common(top)]
    out.append(f"top {top} inclusive time:")
    out += [f"  {share(n)}  {name}" for name, n in inclusive.most_common(top)]
    return "\n".join(out)


ACTIVITIES = (
    ("record_match", "movelog: ratings + records of finished matches"),
    ("finish_match", "movelog: finishing matches (match, seats, room rows)"),
    ("_save_snapshot", "movelog: snapshots"),
    ("MoveLog._run", "movelog: inserting the moves, commit"),
    ("RoomManager.start", "HTTP start/rematch: RoomManager.start"),
    ("session_by_token", "auth: session_by_token (HTTP and sockets)"),
    ("RequestResponseCycle", "HTTP: the rest (routing, validation, responses)"),
    ("Hub.state_changed", "fan-out: state frames (view, legal actions, JSON)"),
    ("Hub.room_changed", "fan-out: room frames"),
    ("Connection._drain", "socket send: sender tasks, framing, deflate"),
    ("RoomManager._play", "move: checks, engine.apply, awaiting the commit"),
    ("RoomManager.submit", "move: checks, engine.apply, awaiting the commit"),
    ("RoomManager.on_event", "broker events from other processes"),
    ("_serve", "socket receive: parse, rate limit, dispatch"),
    ("_handle", "socket receive: parse, rate limit, dispatch"),
    ("RoomSockets.__call__", "socket accept/close"),
    ("WebSocketsSansIOProtocol", "websockets protocol: reading frames"),
    ("WebSocketProtocol", "websockets protocol: reading frames"),
    ("RedisBroker", "redis broker"),
    ("Connection._do_execute", "asyncpg statements (caller not visible)"),
)
ROOTS = ("_run_module_as_main", "<module>", "Runner.run")


def _entry(frames: list[tuple[str, str]]) -> str:
    names = [fn for fn, _ in frames]
    for needle, label in ACTIVITIES:
        if any(needle in name for name in names):
            return label
    if not any(root in names[0] for root in ROOTS):
        # a coroutine resumed by the loop (uvloop's C) or SQLAlchemy's sync side in its
        # greenlet: the stack does not lead back to the caller
        return "caller not visible (a resumed coroutine, a greenlet)"
    return f"other: {frames[-1][0]} ({frames[-1][1]})"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("profile", type=Path)
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    print(summarise(args.profile, args.top))


if __name__ == "__main__":
    main()
