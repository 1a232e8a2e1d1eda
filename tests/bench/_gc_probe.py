"""``python -m app`` with Python's cyclic garbage collector timed (and, to try a fix, tuned).

    .venv/bin/python -m tests.bench.load ... --server-module tests.bench._gc_probe --log-dir D
    .venv/bin/python -m tests.bench._gc_probe summary D/app-0.log [SECONDS]

Every 2 s the server log (``D/app-N.log``) gets a line ``GCPROBE {json}`` with the cumulative
collections and seconds per generation, so the GC's share of a window is the difference of
two lines over the time between them. ``BENCH_GC`` tries a remedy without touching ``app/``:
``off`` (``gc.disable()``), ``threshold:A,B,C`` (``gc.set_threshold``) and/or ``freeze`` (every
10 s ``gc.freeze()`` moves what is alive into the permanent generation, which the collector no
longer scans), several joined by ``;``.
"""

from __future__ import annotations

import gc
import json
import os
import sys
import threading
import time

_started: dict[int, float] = {}
_totals = {gen: [0, 0.0, 0] for gen in range(3)}  # collections, seconds, objects collected


def _on_gc(phase: str, info: dict[str, int]) -> None:
    generation = info["generation"]
    if phase == "start":
        _started[generation] = time.perf_counter()
        return
    started = _started.pop(generation, None)
    if started is not None:
        total = _totals[generation]
        total[0] += 1
        total[1] += time.perf_counter() - started
        total[2] += info.get("collected", 0)


def _report_forever(freeze: bool) -> None:
    last_freeze = time.monotonic()
    while True:
        time.sleep(2)
        if freeze and time.monotonic() - last_freeze >= 10:
            gc.freeze()
            last_freeze = time.monotonic()
        line = {
            "t": time.monotonic(),
            "gen": {
                g: {"n": v[0], "s": round(v[1], 4), "collected": v[2]} for g, v in _totals.items()
            },
            "frozen": gc.get_freeze_count(),
            "threshold": gc.get_threshold(),
        }
        print(f"GCPROBE {json.dumps(line)}", file=sys.stderr, flush=True)


def summary(log: str, seconds: float = 20) -> str:
    """The GC's share of the last ``seconds`` of a probed server's life, per generation."""
    lines = []
    with open(log, errors="replace") as handle:
        for line in handle:
            if line.startswith("GCPROBE "):
                lines.append(json.loads(line[len("GCPROBE ") :]))
    if len(lines) < 2:
        return f"{log}: not enough GCPROBE lines"
    last = lines[-1]
    first = next((x for x in lines if last["t"] - x["t"] <= seconds + 1), lines[0])
    span = last["t"] - first["t"] or 1.0
    out = [f"{log}: {span:.0f} s, threshold {last['threshold']}, frozen {last['frozen']}"]
    share = 0.0
    for gen in ("0", "1", "2"):
        count = last["gen"][gen]["n"] - first["gen"][gen]["n"]
        spent = last["gen"][gen]["s"] - first["gen"][gen]["s"]
        share += spent / span
        each = 1000 * spent / count if count else 0.0
        out.append(
            f"  gen {gen}: {count / span:6.1f}/s, {each:8.2f} ms each, {100 * spent / span:5.1f}%"
        )
    out.append(f"  all: {100 * share:.1f}% of the time in the cyclic GC")
    return "\n".join(out)


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "summary":
        print(summary(sys.argv[2], float(sys.argv[3]) if len(sys.argv) > 3 else 20))
        return
    modes = [m for m in os.environ.get("BENCH_GC", "").split(";") if m]
    for mode in modes:
        if mode == "off":
            gc.disable()
        elif mode.startswith("threshold:"):
            gc.set_threshold(*(int(x) for x in mode.split(":", 1)[1].split(",")))
        elif mode != "freeze":
            raise SystemExit(f"BENCH_GC: unknown mode {mode!r}")
    gc.callbacks.append(_on_gc)
    threading.Thread(
        target=_report_forever, args=("freeze" in modes,), daemon=True, name="gc-probe"
    ).start()
    from app.__main__ import main as serve

    serve()


if __name__ == "__main__":
    main()
