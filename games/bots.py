"""Bots for every game, at three levels, deciding from what their seat sees and nothing else.

The boundary is :func:`info_set`: the only function here that touches the true state. It hands a
policy an :class:`InfoSet`: the seat's own view, its legal actions, and a way to draw states the
seat cannot tell apart from the real one (``engine.determinize``). A policy decides from that and
its random stream alone, so two states that look the same to the seat give the same choice
(``tests/games/test_bots.py`` checks it for every level and game).

Levels:

- ``easy`` plays a uniformly random legal action;
- ``normal`` plays the game's heuristic from its rules spec's strategy notes
  (``games/<id>/bots.py``); a game without one plays ``easy``;
- ``hard`` searches: information-set Monte Carlo tree search over sampled states
  (:mod:`games.search`) within a time budget and an iteration cap.

A game's heuristics live in ``games/<id>/bots.py`` as a module attribute ``BOTS``, a
:class:`~games.policy.GameBots`; :func:`game_bots` finds it by the game's id, so adding a game
adds no branch here.
"""

from __future__ import annotations

import importlib
import random

from games.base import Engine
from games.policy import GameBots, InfoSet
from games.search import bot_actions, ismcts
from games.types import Action, Seat, State

LEVELS: tuple[str, ...] = ("easy", "normal", "hard")
DEFAULT_BUDGET_S = 0.3
"""The hard bot's thinking time per move unless the caller says otherwise."""
HARD_ITERATIONS = 20_000
"""The hard bot's iteration cap: it stops at the budget or at this many samples, first come."""


def info_set(engine: Engine, state: State, seat: Seat) -> InfoSet:
    """What ``seat`` knows of ``state``: the one place a bot's decision touches the true state.

    Its legal actions are ``engine.legal_actions`` and then the game's ``more_actions`` (see
    :class:`GameBots`), which a game computes from what the seat sees.
    """

    def sample(rng: random.Random) -> State:
        return engine.determinize(state, seat, rng)

    return InfoSet(
        seat=seat,
        view=engine.view(state, seat),
        legal=bot_actions(engine, game_bots(engine), state, seat),
        sample=sample,
    )


def _random_policy(info: InfoSet, rng: random.Random) -> Action:
    return rng.choice(info.legal)


GENERIC = GameBots(normal=_random_policy, trust=0.0)
"""For a game without heuristics: ``normal`` plays at random, ``hard`` searches to the end."""

_FOUND: dict[str, GameBots] = {}


def game_bots(engine: Engine) -> GameBots:
    """The game's ``BOTS`` from ``games/<id>/bots.py``, or :data:`GENERIC` when there is none."""
    game_id = engine.info.id
    found = _FOUND.get(game_id)
    if found is None:
        try:
            module = importlib.import_module(f"games.{game_id}.bots")
        except ModuleNotFoundError as missing:
            if missing.name != f"games.{game_id}.bots":
                raise
            found = GENERIC
        else:
            found = getattr(module, "BOTS", GENERIC)
            if not isinstance(found, GameBots):
                raise TypeError(f"games/{game_id}/bots.py: BOTS must be a GameBots")
        _FOUND[game_id] = found
    return found


def choose(
    engine: Engine,
    info: InfoSet,
    level: str,
    rng: random.Random,
    *,
    budget_s: float | None = DEFAULT_BUDGET_S,
    iterations: int = HARD_ITERATIONS,
) -> Action:
    """The action a bot of ``level`` plays from ``info``; always one of ``info.legal``.

    ``budget_s`` bounds the hard bot's thinking time (``None``: no clock, only the
    ``iterations`` cap, which makes the choice a function of ``info`` and ``rng`` alone).
    """
    if level not in LEVELS:
        raise ValueError(f"no bot level {level!r}; the levels are {', '.join(LEVELS)}")
    if not info.legal:
        raise ValueError(f"seat {info.seat} has nothing to do")
    if level == "easy":
        return rng.choice(info.legal)
    if len(info.legal) == 1:
        return info.legal[0]
    bots = game_bots(engine)
    if level == "normal":
        action = bots.normal(info, rng)
    else:
        action = ismcts(engine, info, rng, bots, budget_s=budget_s, iterations=iterations)
    if action not in info.legal:
        raise ValueError(f"{engine.info.id} {level} bot chose an illegal action {action!r}")
    return action
