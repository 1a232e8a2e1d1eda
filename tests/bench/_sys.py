"""Process figures from ``/proc`` (CPU time, RSS, load average), pinning and child processes.

Linux only, like the benchmarks: no psutil needed.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

CLK_TCK = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of one process so far (``None`` once it is gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat[stat.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def run_delay_seconds(pid: int) -> float | None:
    """Time the process's threads spent runnable but waiting for a CPU (``schedstat``)."""
    total, seen = 0, False
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except OSError:
        return None
    for task in tasks:
        try:
            total += int((task / "schedstat").read_text().split()[1])
            seen = True
        except (OSError, IndexError, ValueError):
            continue
    return total / 1e9 if seen else None


def rss_bytes(pid: int) -> int | None:
    try:
        return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE
    except OSError:
        return None


def loadavg() -> tuple[float, float, float]:
    one, five, fifteen = Path("/proc/loadavg").read_text().split()[:3]
    return float(one), float(five), float(fifteen)


def fmt_load(load: tuple[float, float, float]) -> str:
    return "{:.2f} {:.2f} {:.2f}".format(*load)


def pids_whose_cmdline_has(needle: str) -> list[int]:
    """Processes whose command line (or process title) contains ``needle``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        if needle.encode() in cmdline:
            found.append(int(entry.name))
    return found


@dataclass
class CpuMeter:
    """CPU used by a set of processes between ``start`` and ``stop``, in % of one core.

    ``pids`` may be a callable re-evaluated at both ends (Postgres backends come and go);
    only processes seen at both ends count.
    """

    pids: Sequence[int] | None = None
    finder: object = None  # () -> Iterable[int]
    waited: float = 0.0  # after ``stop``: % of the window spent waiting for a CPU
    _t0: float = 0.0
    _start: dict[int, float] = field(default_factory=dict)
    _delay: dict[int, float] = field(default_factory=dict)

    def _current(self) -> Iterable[int]:
        if self.finder is not None:
            return self.finder()  # type: ignore[operator]
        return self.pids or ()

    def start(self) -> None:
        self._t0 = time.monotonic()
        pids = list(self._current())
        self._start = {pid: t for pid in pids if (t := cpu_seconds(pid)) is not None}
        self._delay = {pid: d for pid in pids if (d := run_delay_seconds(pid)) is not None}

    def stop(self) -> float:
        elapsed = time.monotonic() - self._t0
        used = delayed = 0.0
        for pid in self._current():
            before, after = self._start.get(pid), cpu_seconds(pid)
            if before is not None and after is not None:
                used += after - before
            before, after = self._delay.get(pid), run_delay_seconds(pid)
            if before is not None and after is not None:
                delayed += after - before
        if elapsed <= 0:
            return 0.0
        self.waited = 100.0 * delayed / elapsed
        return 100.0 * used / elapsed


def pinned(command: Sequence[str], core: int | None) -> list[str]:
    """``taskset -c CORE command`` (taskset execs, so the child's pid is the command's)."""
    return ["taskset", "-c", str(core), *command] if core is not None else list(command)


def stop_process(process: subprocess.Popen[bytes], timeout: float = 10) -> None:
    """SIGTERM, then SIGKILL after ``timeout``; only ever the given child."""
    if process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            process.kill()
        process.wait(timeout)
