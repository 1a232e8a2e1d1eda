"""ABSOLUTE (Nonymous Games, Tony Diaz): sets of three or more cards that add up to zero.

Spec: docs/rules/absolute.md. Modules: cards (the deck), groups (valid sets), scoring,
actions (wire forms and legal actions), rules (state machine), view, determinize, bots and
engine (``META`` and the contract).
"""

from games.absolute.engine import ENGINE, META, AbsoluteEngine

__all__ = ["ENGINE", "META", "AbsoluteEngine"]
