"""What a load run starts and stops: server processes, a private Redis, the client processes.

Everything listens on 127.0.0.1 and is a child of the benchmark; ``close`` ends only those
children, by their own handles.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import orjson

from tests.bench._sys import pinned, rss_bytes, stop_process
from tests.support.server import ROOT, SCRIPTED_CLIENTS, free_port

SERVER_CORE = 0
CLIENT_CORE = 1


def wait_healthy(url: str, process: subprocess.Popen[bytes], log: Path, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{url} exited early:\n{_tail(log)}")
        try:
            if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"{url} did not come up in {timeout:.0f} s:\n{_tail(log)}")


def _tail(path: Path, size: int = 3000) -> str:
    try:
        return path.read_text(errors="replace")[-size:]
    except OSError:
        return "(no log)"


class Servers:
    """``count`` processes of ``python -m app`` (or of the echo floor), one port each."""

    def __init__(
        self,
        kind: str,
        count: int,
        env: dict[str, str],
        log_dir: Path,
        pin: bool,
        module: str | None = None,
    ) -> None:
        self.kind = kind
        self.processes: list[subprocess.Popen[bytes]] = []
        self.ports: list[int] = []
        self.logs: list[Path] = []
        module = module or ("app" if kind == "app" else "tests.bench._echo_server")
        try:
            for index in range(count):
                port = free_port()
                log = log_dir / f"{kind}-{index}.log"
                full_env = {
                    **os.environ,
                    **SCRIPTED_CLIENTS,
                    **env,
                    "CARDROOM_HOST": "127.0.0.1",
                    "CARDROOM_PORT": str(port),
                }
                command = pinned([sys.executable, "-m", module], SERVER_CORE if pin else None)
                with log.open("ab") as out:
                    process = subprocess.Popen(
                        command, cwd=ROOT, env=full_env, stdout=out, stderr=out
                    )
                self.processes.append(process)
                self.ports.append(port)
                self.logs.append(log)
                # one after the other: the first applies the migrations
                wait_healthy(self.urls[-1], process, log, timeout=90)
        except BaseException:
            self.close()
            raise

    @property
    def urls(self) -> list[str]:
        return [f"http://127.0.0.1:{port}" for port in self.ports]

    @property
    def pids(self) -> list[int]:
        return [p.pid for p in self.processes]

    def rss(self) -> int:
        return sum(rss_bytes(pid) or 0 for pid in self.pids)

    def alive(self) -> bool:
        return all(p.poll() is None for p in self.processes)

    def warm(self, requests: int = 20) -> None:
        for url in self.urls:
            for _ in range(requests):
                httpx.get(f"{url}/healthz", timeout=5)

    def error_lines(self) -> int:
        count = 0
        for log in self.logs:
            with contextlib.suppress(OSError):
                for line in log.read_text(errors="replace").splitlines():
                    if "ERROR" in line or "Traceback" in line:
                        count += 1
        return count

    def close(self) -> None:
        for process in self.processes:
            stop_process(process)


class PrivateRedis:
    """A throw-away ``redis-server`` on a free port (no persistence)."""

    def __init__(self, log_dir: Path) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise RuntimeError("redis-server is not installed; pass --redis-url")
        self.port = free_port()
        log = log_dir / "redis.log"
        command = [
            binary,
            "--bind",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--save",
            "",
            "--appendonly",
            "no",
        ]
        with log.open("ab") as out:
            self.process = subprocess.Popen(command, stdout=out, stderr=out)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with contextlib.suppress(Exception):
                import redis

                if redis.Redis(port=self.port, socket_connect_timeout=0.5).ping():
                    return
            time.sleep(0.1)
        self.close()
        raise RuntimeError(f"redis-server did not start: {_tail(log)}")

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def close(self) -> None:
        stop_process(self.process)


class Clients:
    """Client processes (``tests.bench._client``) driven by line commands."""

    def __init__(self, configs: list[dict[str, Any]], log_dir: Path, pin: bool) -> None:
        self.processes: list[subprocess.Popen[bytes]] = []
        self._buffers: dict[int, bytes] = {}
        command = pinned(
            [sys.executable, "-m", "tests.bench._client"], CLIENT_CORE if pin else None
        )
        self.log = log_dir / "clients.log"
        try:
            for config in configs:
                with self.log.open("ab") as err:
                    process = subprocess.Popen(
                        command,
                        cwd=ROOT,
                        stdin=subprocess.PIPE,
                        stdout=subprocess.PIPE,
                        stderr=err,
                    )
                assert process.stdin is not None
                process.stdin.write(orjson.dumps(config) + b"\n")
                process.stdin.flush()
                self.processes.append(process)
        except BaseException:
            self.close()
            raise

    @property
    def pids(self) -> list[int]:
        return [p.pid for p in self.processes]

    def command(self, name: str, timeout: float) -> list[dict[str, Any]]:
        for process in self.processes:
            assert process.stdin is not None
            process.stdin.write(name.encode() + b"\n")
            process.stdin.flush()
        return self._replies(name, timeout)

    def _replies(self, name: str, timeout: float) -> list[dict[str, Any]]:
        replies: dict[int, dict[str, Any]] = {}
        selector = selectors.DefaultSelector()
        for index, process in enumerate(self.processes):
            assert process.stdout is not None
            selector.register(process.stdout, selectors.EVENT_READ, index)
            self._buffers.setdefault(index, b"")
        deadline = time.monotonic() + timeout
        try:
            while len(replies) < len(self.processes):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise RuntimeError(f"clients did not answer {name!r} in {timeout:.0f} s")
                for key, _ in selector.select(min(left, 1.0)):
                    index = key.data
                    chunk = os.read(key.fileobj.fileno(), 1 << 20)  # type: ignore[union-attr]
                    if not chunk:
                        raise RuntimeError(f"a client exited during {name!r}:\n{_tail(self.log)}")
                    self._buffers[index] += chunk
                    if b"\n" in self._buffers[index]:
                        line, _, rest = self._buffers[index].partition(b"\n")
                        self._buffers[index] = rest
                        replies[index] = orjson.loads(line)
                        selector.unregister(key.fileobj)
        finally:
            selector.close()
        return [replies[i] for i in range(len(self.processes))]

    def close(self) -> None:
        for process in self.processes:
            with contextlib.suppress(Exception):
                if process.stdin is not None:
                    process.stdin.close()
        deadline = time.monotonic() + 15
        for process in self.processes:
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(max(0.1, deadline - time.monotonic()))
            stop_process(process, timeout=5)
