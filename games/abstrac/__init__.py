"""Abstrac (David Parlett): two players take 1 to 3 cards from a face-up row to form melds.

Spec: ``docs/rules/abstrac.md``. The state machine is in :mod:`games.abstrac.rules`, the
actions in :mod:`games.abstrac.actions`, scoring in :mod:`games.abstrac.scoring`, ``META``
and the contract in :mod:`games.abstrac.engine`.
"""

from games.abstrac.engine import ENGINE, META, AbstracEngine

__all__ = ["ENGINE", "META", "AbstracEngine"]
