"""How long a match review takes: per decision and per match, for every game at its smallest
and largest table, at the server's default budget.

    .venv/bin/python -m tests.bench.review_time [--seed 1] [--games g1,g2] [--players-max 6]

Each match is played by bots (seeded, default options; normal in even seats, easy in odd ones,
since two normal bots in ABspecken can finish every round together and never end), then
reviewed in this process
as the review worker does. Printed per table: the moves, the decisions weighed, CPU seconds
for the whole review (``time.process_time``, which does not count time spent waiting for a
CPU), the mean and the slowest decision in milliseconds.
"""

from __future__ import annotations

import argparse
import random
import time

from games import REGISTRY
from games.base import Action, Seat
from games.bots import choose, info_set
from games.review import Budget, review_match


def bot_match(game: str, players: int, seed: int) -> list[tuple[int, Seat, Action]]:
    engine = REGISTRY[game]
    rng = random.Random(seed)
    state = engine.setup(players, seed, None)
    moves = []
    while engine.to_act(state):
        seat = min(engine.to_act(state))
        level = "easy" if seat % 2 else "normal"
        action = choose(engine, info_set(engine, state, seat), level, rng)
        moves.append((len(moves) + 1, seat, action))
        state = engine.apply_unchecked(state, seat, action)
    return moves


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", default=",".join(sorted(REGISTRY)))
    parser.add_argument("--players-max", type=int, default=6)
    args = parser.parse_args()
    budget = Budget()
    print(f"budget per decision: {budget.iterations} iterations, {budget.playouts} playouts")
    print(
        f"{'game':<11}{'players':>8}{'moves':>7}{'decisions':>10}"
        f"{'cpu s':>8}{'mean ms':>9}{'max ms':>8}"
    )
    for game in args.games.split(","):
        info = REGISTRY[game].info
        for players in sorted({info.min_players, min(info.max_players, args.players_max)}):
            moves = bot_match(game, players, args.seed)
            engine = REGISTRY[game]
            options = engine.check_options(None, players)
            times: list[float] = []
            start = mark = time.process_time()
            for _ in review_match(
                engine, players, args.seed, options, moves, budget=budget, review_seed=args.seed
            ):
                now = time.process_time()
                times.append(now - mark)
                mark = now
            total = time.process_time() - start
            mean = 1000 * total / max(1, len(times))
            print(
                f"{game:<11}{players:>8}{len(moves):>7}{len(times):>10}{total:>8.1f}"
                f"{mean:>9.0f}{1000 * max(times, default=0):>8.0f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
