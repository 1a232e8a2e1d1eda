"""The Balance engine: ``META`` and the contract of ``games.base.Engine`` wired to this
package."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.balance import actions, determinize, rules, view
from games.balance.cards import pack_size
from games.base import Engine, GameInfo, InvalidOptions, OptionSpec, State

META = GameInfo(
    id="balance",
    title="Balance",
    min_players=1,
    max_players=10,
    summary=(
        "Draw, then add or subtract one card to the shared balance: landing on zero scores a "
        "point, going beyond 9 costs one. First to 20 wins; one player plays solo against an "
        "automaton."
    ),
    options=(
        OptionSpec(name="decks", type="int", default=1, label="Decks", min=1, max=4),
        OptionSpec(
            name="jokers_per_deck",
            type="int",
            default=2,
            label="Jokers per deck",
            min=0,
            max=2,
        ),
        OptionSpec(
            name="max_rounds",
            type="int",
            default=0,
            label="Round limit (0 = none; at the limit the best total wins)",
            min=0,
            max=500,
        ),
    ),
    perfect_information=False,
)


class BalanceEngine(Engine, modules=(actions, determinize, rules, view)):
    """Balance on the engine contract. Each play moves the shared balance:

    >>> state = ENGINE.setup(2, seed=1)
    >>> state["balance"], ENGINE.legal_actions(state, 0)[0]
    (0, {'type': 'play', 'card': '2H', 'direction': 1})
    >>> state = ENGINE.apply_unchecked(state, 0, {"type": "play", "card": "2H", "direction": 1})
    >>> state["balance"], sorted(ENGINE.to_act(state))
    (2, [1])
    >>> ENGINE.apply(state, 1, {"type": "play", "card": "2H", "direction": 1})
    Traceback (most recent call last):
    ...
    games.types.IllegalAction: You do not hold the 2♥.
    """

    info = META
    version = "2"
    action_schema = actions.SCHEMA

    def check_options(self, options: Mapping[str, Any] | None, players: int) -> dict[str, Any]:
        checked = super().check_options(options, players)
        cards = pack_size(checked["decks"], checked["jokers_per_deck"])
        if rules.HAND_SIZE * players > cards:
            raise InvalidOptions(f"{cards} cards are too few to deal five to {players} players")
        return checked

    def setup(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> State:
        return rules.setup(players, seed, self.check_options(options, players))


ENGINE = BalanceEngine()
