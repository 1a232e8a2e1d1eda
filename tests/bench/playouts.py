"""Random playouts per minute, per game and player count, in this one process.

    .venv/bin/python -m tests.bench.playouts [--game absolute] [--players N] [--seconds S]
        [--repeat R] [--checked]

A random playout is ``setup(players, seed, default options)``, then a uniformly random seat
of ``to_act`` plays a uniformly random action of ``legal_actions`` (with ``apply_unchecked``,
as searches do; ``--checked`` uses the clients' ``apply``) until ``outcome`` is not None.
Playout ``i`` of a run uses seed ``i``, so runs of the same engine are comparable.
Each run starts playouts for ``--seconds`` (the last one is finished) and reports completed
playouts over the time they took. With ``--repeat`` the best run is printed, which is what a
shared machine allows to compare. Target: at least 2,000 playouts a minute on one core.

Beside the table: the load average, and a reference (a fixed pure-Python workload per second,
measured before and after the table) to compare runs on a busy or a different machine.
"""

from __future__ import annotations

import argparse
import os
import random
import time

from games import REGISTRY
from games.base import Engine

TARGET_PER_MINUTE = 2_000
MAX_STEPS = 20_000


def playout(engine: Engine, players: int, seed: int, *, checked: bool = False) -> int:
    """Play one seeded random playout to its end; return the number of actions taken."""
    apply = engine.apply if checked else engine.apply_unchecked
    rng = random.Random(seed)
    state = engine.setup(players, seed)
    for step in range(MAX_STEPS):
        if engine.outcome(state) is not None:
            return step
        seat = rng.choice(sorted(engine.to_act(state)))
        action = rng.choice(engine.legal_actions(state, seat))
        state = apply(state, seat, action)
    raise RuntimeError(f"{engine.info.id}: no end after {MAX_STEPS} actions (seed {seed})")


def per_minute(
    engine: Engine, players: int, seconds: float, *, checked: bool = False
) -> tuple[float, float, int, float]:
    """One run: (playouts per minute, per minute of this process's CPU time, playouts
    completed, mean actions per playout). The two rates differ when the core is shared."""
    start, start_cpu = time.perf_counter(), time.process_time()
    done = steps = 0
    while time.perf_counter() - start < seconds:
        steps += playout(engine, players, done, checked=checked)
        done += 1
    elapsed, cpu = time.perf_counter() - start, time.process_time() - start_cpu
    return done / elapsed * 60, done / cpu * 60, done, steps / done


def reference_per_second(seconds: float = 1.0) -> float:
    """Rounds per second of a fixed pure-Python workload (shuffle, sort, small dicts)."""
    rng = random.Random(0)
    cards = [f"{number:+d}{suit}" for number in range(-10, 11) for suit in "SCDT"]
    rank = {card: index for index, card in enumerate(cards)}
    start = time.perf_counter()
    rounds = 0
    while time.perf_counter() - start < seconds:
        rng.shuffle(cards)
        [{"card": card, "rank": rank[card]} for card in sorted(cards, key=rank.__getitem__)]
        rounds += 1
    return rounds / (time.perf_counter() - start)


def player_counts(engine: Engine, only: int | None) -> list[int]:
    low, high = engine.info.min_players, engine.info.max_players
    if only is None:
        return list(range(low, high + 1))
    return [only] if low <= only <= high else []


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", help="a game id (repeatable; default all)")
    parser.add_argument("--players", type=int, help="one player count (default every one)")
    parser.add_argument("--seconds", type=float, default=5.0, help="length of one run")
    parser.add_argument("--repeat", type=int, default=1, help="runs per row; the best is shown")
    parser.add_argument("--checked", action="store_true", help="apply, not apply_unchecked")
    args = parser.parse_args()
    games = args.game or list(REGISTRY)
    unknown = [game for game in games if game not in REGISTRY]
    if unknown:
        parser.error(f"unknown game {unknown[0]!r}; known: {', '.join(REGISTRY)}")
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    apply = "apply" if args.checked else "apply_unchecked"
    print(
        f"load average at start: {load}; {args.seconds:g} s a run, best of {args.repeat}; {apply}"
    )
    print(f"reference at start: {reference_per_second():,.0f} rounds/s")
    print(f"{'game':<12} {'players':>7} {'per min':>9} {'per CPU min':>11} {'playouts':>9}", end="")
    print(f" {'actions':>8}  target")
    for game in games:
        engine = REGISTRY[game]
        for players in player_counts(engine, args.players):
            runs = [
                per_minute(engine, players, args.seconds, checked=args.checked)
                for _ in range(args.repeat)
            ]
            rate, cpu_rate, done, actions = max(runs)
            verdict = "ok" if rate >= TARGET_PER_MINUTE else "BELOW"
            print(f"{game:<12} {players:>7} {rate:>9,.0f} {cpu_rate:>11,.0f} {done:>9}", end="")
            print(f" {actions:>8.0f}  {verdict}")
    print(f"reference at end: {reference_per_second():,.0f} rounds/s")


if __name__ == "__main__":
    main()
