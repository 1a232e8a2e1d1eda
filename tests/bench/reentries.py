"""How many of our modules one move passes through, and how often control crosses between them.

    .venv/bin/python -m tests.bench.reentries [--seats 3] [--warmup 4] [--game plus_minus]
                                              [--list] [--json FILE]

It serves the real app (``app.main:create_app`` under uvicorn, with the settings of
``python -m app``: ws auto, no per-message deflate) on a thread of this process, on a fresh
SQLite file and without Redis. Real WebSocket clients (the tests' ``Guest``) take every seat of a
Plus & Minus room (3 seats: the game's minimum, so two seats cannot be had), play a few moves,
and then one plain move (a card played that has no effect: not an Ace, 5, 10 or King, and not a
move that takes a snapshot) is traced with ``sys.setprofile`` on the server's thread.

The window: from the return of the server's ASGI ``receive()`` into our endpoint with the
action frame, until the server's ASGI ``send()`` has taken the move's new state frame for
every socket of the room (one per seat). Work that follows the fan-out (the broker's event,
the bots' and the clock's scheduling) is outside it.

What is counted. "Ours" is a module named ``app``, ``app.*``, ``games`` or ``games.*`` (the
``__name__`` in a frame's globals); every other frame (asyncio, SQLAlchemy, uvicorn, the
standard library) is looked through, never counted.

- modules: the distinct modules of ours that run Python code in the window (the endpoint, into
  which ``receive()`` returns, included).
- re-entries: the number of times control passes from one of our modules to another by a
  call: a profile ``call`` event that starts a new frame of ours (a fresh call; a suspended
  coroutine resumed by the event loop is not a call, and is counted apart as a resume) whose
  caller, the nearest frame of ours below it on the stack (through SQLAlchemy's greenlet, say),
  is in a different module. A call with no frame of ours below it (a task the loop runs) has no
  caller of ours and does not count.
- returns into another module: a frame of ours finishing (its last ``return``, not a
  coroutine's suspension) whose nearest frame of ours below is in a different module: control
  coming back across a module boundary. Every call that crosses a boundary and finishes inside
  the window comes back this way, so this number follows the re-entries closely.
- the module sequence: the module that has control (the innermost frame of ours) after every
  fresh call and every final return, consecutive repeats collapsed.
- hallway re-entries: the re-entries with a module of app/ on at least one side, the engine
  counted as one module (calls inside the game are the game's business, not the hallway's).
- beside them: resumes, the distinct (caller module, callee module) pairs, and the same count
  of crossings one level up, between the layers app.realtime, app.rooms, app.db and games.

Measured on 65256b5 (before issue 33's refactor of app/rooms), 3 seats, the same on every run:
19 modules, 66 re-entries, 64 returns into another module (147 calls of our functions, 50
resumes, 33 distinct module pairs, 31 calls between layers). Issue 33 put it at "19 modules,
about 23 re-entries": the modules agree, the calls across module boundaries are nearly three
times that. 19 of the 66 are calls inside the game (games.* to games.*), and 26 come after the
move is stored, building and sending the three frames (a seat lookup, a view and the legal
moves for every seat). Compare trees with this file, not with the issue's 23.

Bounded: at most 200 moves, every wait has a deadline; 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import threading
import time
import warnings
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from functools import partial
from pathlib import Path
from types import FrameType
from typing import Any

import uvicorn
from sqlalchemy.exc import SAWarning

import app
from app.main import create_app
from app.settings import Settings
from tests.support.clients import Guest
from tests.support.server import free_port, fresh_database

OURS = ("app", "games")
LAYERS = ("app.realtime", "app.rooms", "app.db")
# a card whose play has no effect (spec: shared/rules/plus_minus.md, section 5)
PLAIN_RANKS = ("2", "3", "4", "6", "7", "8", "9", "J", "Q")
STATE_FRAME = '{"type":"state"'


def ours(module: str) -> bool:
    return module.split(".", 1)[0] in OURS


def module_of(frame: FrameType | None) -> str:
    return "" if frame is None else str(frame.f_globals.get("__name__", ""))


def in_game(module: str) -> bool:
    return module.startswith("games")


def layer_of(module: str) -> str:
    if module.startswith("games"):
        return "games"
    return next((layer for layer in LAYERS if module.startswith(layer)), module)


def nearest_ours(frame: FrameType | None) -> FrameType | None:
    """``frame`` or the first frame of ours below it."""
    for _ in range(1000):
        if frame is None or ours(module_of(frame)):
            return frame
        frame = frame.f_back
    return None


@dataclass
class Event:
    kind: str  # "call" or "return"
    module: str
    function: str
    frame: int  # the frame's number in the trace
    fresh: bool  # a call that starts the frame (not a coroutine resumed)
    below: str | None  # the module of the nearest frame of ours below, if any
    below_function: str | None


@dataclass
class Tracer:
    """The profile function: armed until the action frame comes out of ``receive()``, then it
    records every call and return of our frames until ``sends`` state frames were sent."""

    action_frame: str
    sends: int
    phase: str = "armed"  # armed -> tracing -> done
    started_in: str = ""
    events: list[Event] = field(default_factory=list)
    numbers: dict[int, int] = field(default_factory=dict)
    keep: list[FrameType] = field(default_factory=list)  # so that no id() is reused
    sent: set[int] = field(default_factory=set)
    done: threading.Event = field(default_factory=threading.Event)

    def __call__(self, frame: FrameType, event: str, arg: Any) -> None:
        if event != "call" and event != "return":
            return  # c_call, c_return, c_exception
        if self.phase == "armed":
            if (
                event == "return"
                and isinstance(arg, dict)
                and arg.get("type") == "websocket.receive"
                and arg.get("text") == self.action_frame
                and ours(module_of(frame.f_back))
            ):
                self.phase = "tracing"
                self.started_in = module_of(frame.f_back)
            return
        if self.phase != "tracing":
            return
        module = module_of(frame)
        if not ours(module):
            if event == "return" and self._is_state_send(frame):
                self.sent.add(id(frame))
                self.keep.append(frame)
                if len(self.sent) >= self.sends:
                    self.phase = "done"
                    self.done.set()
            return
        number = self.numbers.get(id(frame))
        fresh = event == "call" and number is None
        if number is None:
            number = self.numbers[id(frame)] = len(self.keep)
            self.keep.append(frame)
        below = nearest_ours(frame.f_back)
        self.events.append(
            Event(
                event,
                module,
                frame.f_code.co_qualname,
                number,
                fresh,
                None if below is None else module_of(below),
                None if below is None else below.f_code.co_qualname,
            )
        )

    def _is_state_send(self, frame: FrameType) -> bool:
        """The server's ASGI send taking a state frame (its first return: the frame is
        written by then, unless the client's buffers are full)."""
        if frame.f_code.co_name != "send" or id(frame) in self.sent:
            return False
        if not module_of(frame).startswith("uvicorn.protocols.websockets"):
            return False
        message = frame.f_locals.get("message")
        return (
            isinstance(message, dict)
            and message.get("type") == "websocket.send"
            and str(message.get("text", "")).startswith(STATE_FRAME)
        )


@dataclass
class Counts:
    modules: list[str]
    reentries: int
    returns_into_other: int
    fresh_calls: int
    resumes: int
    module_pairs: int
    layer_crossings: int
    hallway: int
    sequence: list[str]
    entries_per_module: dict[str, int]


def count(tracer: Tracer) -> Counts:
    events = tracer.events
    last_call = {e.frame: i for i, e in enumerate(events) if e.kind == "call"}
    # a return followed by another call of the same frame was a coroutine's suspension
    final = [e.kind == "return" and last_call.get(e.frame, -1) < i for i, e in enumerate(events)]
    fresh = [e for e in events if e.kind == "call" and e.fresh]
    crossing = [e for e in fresh if e.below is not None and e.below != e.module]
    returns = [
        e
        for e, last in zip(events, final, strict=True)
        if last and e.below is not None and e.below != e.module
    ]
    sequence = [tracer.started_in]
    for e, last in zip(events, final, strict=True):
        if e.kind == "call" and e.fresh:
            sequence.append(e.module)
        elif last and e.below is not None:
            sequence.append(e.below)
    compressed = [m for i, m in enumerate(sequence) if i == 0 or sequence[i - 1] != m]
    entries = Counter(e.module for e in crossing)
    return Counts(
        modules=sorted({e.module for e in events} | {tracer.started_in}),
        reentries=len(crossing),
        returns_into_other=len(returns),
        fresh_calls=len(fresh),
        resumes=sum(1 for e in events if e.kind == "call" and not e.fresh),
        module_pairs=len({(e.below, e.module) for e in crossing}),
        layer_crossings=sum(1 for e in crossing if layer_of(e.module) != layer_of(str(e.below))),
        hallway=sum(1 for e in crossing if not in_game(e.module) or not in_game(str(e.below))),
        sequence=compressed,
        entries_per_module=dict(sorted(entries.items())),
    )


class InProcessServer:
    """The real app under uvicorn on a thread of this process: sys.setprofile is per thread,
    and the server's own thread is the one to trace."""

    def __init__(self, settings: Settings, port: int) -> None:
        config = uvicorn.Config(
            create_app(settings),
            host="127.0.0.1",
            port=port,
            ws="auto",
            ws_max_size=settings.max_frame_bytes,
            ws_per_message_deflate=False,
            log_level="warning",
        )
        self.server = uvicorn.Server(config)
        self.url = f"http://127.0.0.1:{port}"
        self.loop: asyncio.AbstractEventLoop | None = None
        self.thread = threading.Thread(target=self._run, name="server", daemon=True)

    def _run(self) -> None:
        asyncio.run(self._serve())

    async def _serve(self) -> None:
        self.loop = asyncio.get_running_loop()
        await self.server.serve()

    def start(self, timeout: float = 30) -> None:
        self.thread.start()
        deadline = time.monotonic() + timeout
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.05)

    def on_thread(self, fn: Callable[[], None], timeout: float = 10) -> None:
        """Run ``fn()`` on the server's thread, between two steps of its loop, and wait."""
        assert self.loop is not None
        ran = threading.Event()

        def call() -> None:
            try:
                fn()
            finally:
                ran.set()

        self.loop.call_soon_threadsafe(call)
        if not ran.wait(timeout):
            raise RuntimeError("the server's loop did not run the call")

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(15)


def plain(game: str, action: dict[str, Any]) -> bool:
    if game != "plus_minus":
        return True
    return action.get("type") == "play" and str(action.get("card", ""))[:-1] in PLAIN_RANKS


def trace_one_move(server: InProcessServer, game: str, seats: int, warmup: int) -> Tracer:
    guests = [Guest(server.url, f"P{seat}") for seat in range(seats)]
    room_id = guests[0].create_room(game, seats)["id"]
    for seat, guest in enumerate(guests):
        guest.post(f"/api/rooms/{room_id}/seats/{seat}").raise_for_status()
    sockets = [guest.socket(room_id) for guest in guests]
    try:
        guests[0].post(f"/api/rooms/{room_id}/start").raise_for_status()
        state = sockets[0].expect("state", seq=0)
        for played in range(200):
            if state["over"]:
                break
            mover = sockets[state["to_act"][0]]
            own = mover.state_at(state["seq"])
            seq = own["seq"]
            choice = next((a for a in own["legal"] if plain(game, a)), None)
            if played >= warmup and choice is not None and (seq + 1) % 50:
                message = json.dumps({"type": "action", "action": choice, "seq": seq})
                tracer = Tracer(message, len(sockets))
                server.on_thread(partial(sys.setprofile, tracer))
                try:
                    mover.ws.send(message)
                    if not tracer.done.wait(10):
                        raise RuntimeError("the move's state did not reach every socket")
                finally:
                    server.on_thread(lambda: sys.setprofile(None))
                for sock in sockets:
                    sock.state_at(seq + 1)
                print(f"traced move {seq + 1} of seat {state['to_act'][0]}: {choice}")
                return tracer
            mover.act(own["legal"][0], seq=seq)
            for sock in sockets:
                state = sock.state_at(seq + 1)
        raise RuntimeError("no plain move came up")
    finally:
        for sock in sockets:
            sock.close()


def report(counts: Counts) -> None:
    short = [m.removeprefix("app.") for m in counts.sequence]
    print(f"modules of app/ and games/ entered: {len(counts.modules)}")
    for module in counts.modules:
        print(f"  {module:<28} entered {counts.entries_per_module.get(module, 0):>3}x")
    print(f"module sequence ({len(short)} stretches, consecutive repeats collapsed):")
    print("  " + " > ".join(short))
    print(f"re-entries (calls from one of our modules into another): {counts.reentries}")
    print(f"returns into another of our modules:                     {counts.returns_into_other}")
    print(f"hallway re-entries (those with a module of app/ on one side): {counts.hallway}")
    print(
        f"beside them: {counts.fresh_calls} calls of our functions in all, {counts.resumes} "
        f"coroutine resumes, {counts.module_pairs} distinct (caller, callee) module pairs, "
        f"{counts.layer_crossings} calls between layers (app.realtime, app.rooms, app.db, games)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="plus_minus")
    parser.add_argument("--seats", type=int, default=3)
    parser.add_argument("--warmup", type=int, default=4, help="moves played before the traced one")
    parser.add_argument("--list", action="store_true", help="print every call across modules")
    parser.add_argument("--json", default=None, help="write the counts here")
    args = parser.parse_args()
    if not 1 <= args.seats <= 10 or not 0 <= args.warmup <= 100:
        raise SystemExit("--seats 1..10, --warmup 0..100")
    warnings.filterwarnings("ignore", category=SAWarning)  # the migration's reflection
    with tempfile.TemporaryDirectory() as tmp, fresh_database(Path(tmp), "sqlite") as url:
        settings = Settings(
            database_url=url,
            redis_url=None,
            messages_per_second=100000,
            message_burst=100000,
            bot_delay_ms=0,
        )
        server = InProcessServer(settings, free_port())
        server.start()
        try:
            tracer = trace_one_move(server, args.game, args.seats, args.warmup)
        finally:
            server.stop()
    counts = count(tracer)
    print(f"code under test: {Path(app.__file__).resolve().parent.parent}")
    report(counts)
    if args.list:
        print("every call across modules (caller > callee):")
        for e in tracer.events:
            if e.kind == "call" and e.fresh and e.below is not None and e.below != e.module:
                print(f"  {e.below}:{e.below_function} > {e.module}:{e.function}")
    if args.json:
        Path(args.json).write_text(json.dumps(asdict(counts), indent=1))


if __name__ == "__main__":
    main()
