"""Balance: add or subtract a card's value to the shared balance; zero scores, beyond 9 costs.

Spec: ``docs/rules/balance.md`` (the seed is an untitled gist; "Balance" is a working title).
The state machine is in :mod:`games.balance.rules`, the actions in
:mod:`games.balance.actions`, scoring in :mod:`games.balance.scoring`, ``META`` and the
contract in :mod:`games.balance.engine`. A one-seat room plays the solo variant against the
automaton (spec section 7).
"""

from games.balance.engine import ENGINE, META, BalanceEngine

__all__ = ["ENGINE", "META", "BalanceEngine"]
