"""Server-side bots. A bot sees only what its seat sees: the engine's legal actions for it."""

from __future__ import annotations

import random

from games.base import Action, Engine, Seat, State

LEVELS = ("easy", "normal", "hard")


def choose_action(
    engine: Engine, state: State, seat: Seat, level: str, rng: random.Random
) -> Action:
    """``easy`` plays a uniformly random legal action."""
    return rng.choice(engine.legal_actions(state, seat))
