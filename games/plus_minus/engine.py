"""The Plus & Minus engine: ``META`` and the contract of ``games.base.Engine`` wired to this
package."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.base import (
    Action,
    Engine,
    GameInfo,
    OptionSpec,
    Outcome,
    Seat,
    State,
)
from games.plus_minus import actions, determinize, rules, view

META = GameInfo(
    id="plus_minus",
    title="Plus & Minus",
    min_players=3,
    max_players=actions.MAX_PLAYERS,
    summary=(
        "Play cards of the same or a neighbouring rank on anyone's Plus and Minus stacks; "
        "5s, 10s and Kings shake up the table. One round per dealer; highest total wins."
    ),
    options=(
        OptionSpec(
            name="pass_when_stuck",
            type="bool",
            default=True,
            label="A player who cannot play still passes a card to the left",
        ),
    ),
    perfect_information=False,
)


class PlusMinusEngine(Engine):
    info = META
    version = "1"
    action_schema = actions.SCHEMA

    def setup(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> State:
        return rules.setup(players, seed, self.check_options(options, players))

    def to_act(self, state: State) -> frozenset[Seat]:
        return rules.to_act(state)

    def legal_actions(self, state: State, seat: Seat) -> list[Action]:
        return actions.legal_actions(state, seat)

    apply_unchecked = staticmethod(rules.apply)

    def view(self, state: State, seat: Seat | None) -> dict[str, Any]:
        return view.view(state, seat)

    def reveal(self, state: State) -> dict[str, Any]:
        """Every card shown (all hands, whole stacks, the draw stack), for replays."""
        return view.reveal(state)

    def outcome(self, state: State) -> Outcome | None:
        return rules.outcome(state)

    def determinize(self, state: State, seat: Seat | None, rng: random.Random) -> State:
        return determinize.determinize(state, seat, rng)

    def redact_action(self, action: Action, actor: Seat, viewer: Seat | None) -> Action | None:
        """A pass shows its card only to the giver and the receiver (the action's ``to``)."""
        if action.get("type") != "pass" or viewer in (actor, action.get("to")):
            return action
        return {key: value for key, value in action.items() if key != "card"}


ENGINE = PlusMinusEngine()
