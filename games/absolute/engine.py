"""The ABSOLUTE engine: ``META`` and the contract of ``games.base.Engine`` wired to this
package."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.absolute import actions, determinize, rules, view
from games.absolute.cards import NUMBER, RANK
from games.base import (
    Action,
    Engine,
    GameInfo,
    OptionSpec,
    Seat,
    State,
)

META = GameInfo(
    id="absolute",
    title="ABSOLUTE",
    min_players=2,
    max_players=6,
    summary=(
        "Lay sets of three or more cards that add up to zero; zeros are wild. "
        "Go out with three sets and an empty hand. Highest total after three rounds wins."
    ),
    options=(
        OptionSpec(
            name="turn_limit",
            type="int",
            default=40,
            label="Turns per player after which a round is scored as it stands",
            min=5,
            max=200,
        ),
        OptionSpec(
            name="pure_regroup",
            type="bool",
            default=False,
            label="Allow regrouping your own sets without playing a card (a discard is still owed)",
        ),
    ),
    perfect_information=False,
)


class AbsoluteEngine(Engine):
    info = META
    version = "1"
    action_schema = actions.SCHEMA

    def setup(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> State:
        return rules.setup(players, seed, self.check_options(options, players))

    # The rules' own functions serve the hottest calls: a call less for each.
    to_act = staticmethod(rules.to_act)
    legal_actions = staticmethod(actions.legal_actions)
    outcome = staticmethod(rules.outcome)

    apply_unchecked = staticmethod(rules.apply)

    def view(self, state: State, seat: Seat | None) -> dict[str, Any]:
        return view.view(state, seat)

    def reveal(self, state: State) -> dict[str, Any]:
        """Every card shown (all hands, the deck, the card just drawn), for replays."""
        return view.reveal(state)

    def determinize(self, state: State, seat: Seat | None, rng: random.Random) -> State:
        return determinize.determinize(state, seat, rng)

    def fallback_action(self, state: State, seat: Seat) -> Action:
        """For a silent seat: draw from the deck, then hold, or shed the costliest card."""
        if state["phase"] == "draw":
            return self.legal_actions(state, seat)[0]
        if actions.can_hold(state):
            return {"type": "hold"}
        hand = state["hands"][seat]
        worst = max(hand, key=lambda card: (NUMBER[card], RANK[card]))
        return {"type": "discard", "card": worst}


ENGINE = AbsoluteEngine()
