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
:class:`GameBots`; :func:`game_bots` finds it by the game's id, so adding a game adds no branch
here.
"""

from __future__ import annotations

import importlib
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from games.base import Action, Engine, Seat, State
from games.search import bot_actions, ismcts

LEVELS: tuple[str, ...] = ("easy", "normal", "hard")
DEFAULT_BUDGET_S = 0.3
"""The hard bot's thinking time per move unless the caller says otherwise."""
HARD_ITERATIONS = 20_000
"""The hard bot's iteration cap: it stops at the budget or at this many samples, first come."""


@dataclass(frozen=True)
class InfoSet:
    """Everything one seat may use to decide: its view, its legal actions, and samples.

    ``sample(rng)`` is ``engine.determinize(true_state, seat, rng)``: a full state consistent with
    the view, drawn from ``rng`` alone (the engine contract makes it independent of where the
    hidden cards really are).
    """

    seat: Seat
    view: dict[str, Any]
    legal: list[Action]
    sample: Callable[[random.Random], State]


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


Policy = Callable[[InfoSet, random.Random], Action]
"""A decision from an information set and a random stream."""

RolloutPolicy = Callable[[Engine, State, Seat, list[Action], random.Random], Action]
"""A quick decision inside a search playout, on a sampled (fully known) state."""


@dataclass(frozen=True)
class GameBots:
    """A game's bot heuristics, exported as ``BOTS`` by ``games/<id>/bots.py``.

    - ``normal``: the ``normal`` level's policy.
    - ``rollout``: how the search plays a sampled state forward; ``None`` plays at random.
    - ``evaluate``: each seat's utility in [0, 1] for an unfinished sampled state where a playout
      stops; ``None`` scores every seat alike.
    - ``stage``: a key of the state that changes when a round (or deal) ends; a playout stops
      there and is evaluated. ``None`` plays on to the end of the match.
    - ``exploration``: the UCB constant of the search.
    - ``playout_depth``: the most actions one playout makes before it is evaluated.
    - ``widening``: progressive widening; a tree node visited ``n`` times tries at most
      ``widening * sqrt(n)`` of its actions (the playout policy's favourites first), so a
      node with hundreds of actions still gets searched in depth.
    - ``more_actions``: legal actions that ``legal_actions`` leaves out (there would be too many
      to list) but bots should consider, from the acting seat's own cards only: ABSOLUTE's
      regroups. ``None``: none.
    - ``trust``: the search tries ``normal``'s move (or ``favourite``'s) first and credits it
      with this share of its iterations as extra visits, so it plays something else only when
      the search clearly prefers it (a short search under a busy CPU falls back on the
      heuristic).
    - ``favourite``: the heuristic whose move the search tries first and trusts, when it is
      not ``normal``'s (a game whose ``normal`` plays the spec's notes as written can give
      the search better-fitted weights); ``None``: ``normal``.
    """

    normal: Policy
    rollout: RolloutPolicy | None = None
    evaluate: Callable[[State], Sequence[float]] | None = None
    stage: Callable[[State], Any] | None = None
    exploration: float = 0.7
    playout_depth: int = 400
    widening: float = 2.0
    trust: float = 0.1
    more_actions: Callable[[State, Seat], list[Action]] | None = None
    favourite: Policy | None = None


def round_stage(state: State) -> int:
    """``GameBots.stage`` for games that count their rounds in ``state["round"]``."""
    return int(state["round"])


def margin_utilities(standing: Sequence[float], scale: float) -> list[float]:
    """Each seat's utility in [0, 1]: a logistic of its margin over its best rival, for a
    ``GameBots.evaluate`` whose standings are better when higher."""
    utilities = []
    for seat, mine in enumerate(standing):
        rival = max((s for other, s in enumerate(standing) if other != seat), default=mine)
        utilities.append(1.0 / (1.0 + math.exp(-(mine - rival) / scale)))
    return utilities


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
