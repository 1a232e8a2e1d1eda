"""ABspecken (Herrmann, Bettscheider, Cobb; biwo spiele): dice and cards, 2-5 players.

Everyone discards at once by the dice; whoever cannot takes a card from someone who did. The
package: ``cards`` (values, colours), ``discards`` (section 5: what may be discarded or drawn),
``actions`` (wire forms, legal actions), ``rules`` (setup, phases, apply), ``scoring``,
``view``, ``determinize``, ``fallback`` (turn timer), ``bots`` and ``engine`` (``META`` and the
contract).
"""

from games.abspecken.engine import ENGINE, META, AbspeckenEngine

__all__ = ["ENGINE", "META", "AbspeckenEngine"]
