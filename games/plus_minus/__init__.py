"""Plus & Minus (FCG), 3-6 players: the rule engine. Spec: docs/rules/plus_minus.md."""

from games.plus_minus.engine import ENGINE, META, PlusMinusEngine

__all__ = ["ENGINE", "META", "PlusMinusEngine"]
