"""Penalties at the end of a round, the game end and the winners (spec section 6)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.abspecken.cards import pile_points, points
from games.base import Seat, State


def penalty(hand: Sequence[int], piles: Sequence[int]) -> int:
    """A non-finisher's penalty: the values of every card in hand and in the draw piles."""
    return points(hand) + pile_points(piles)


def round_breakdown(state: State, finishers: Sequence[Seat]) -> dict[str, Any]:
    """The public record of a finished round: what each player still held and scored."""
    players = state["players"]
    penalties = [
        0 if seat in finishers else penalty(state["hands"][seat], state["piles"][seat])
        for seat in range(players)
    ]
    return {
        "round": state["round"],
        "playthroughs": state["playthrough"],
        "finishers": sorted(finishers),
        "hands": [list(hand) for hand in state["hands"]],
        "piles": [list(piles) for piles in state["piles"]],
        "penalties": penalties,
        "scores": [-p for p in penalties],  # as Outcome.scores: higher is better
        "totals": [state["totals"][seat] + penalties[seat] for seat in range(players)],
    }


def is_game_over(totals: Sequence[int], threshold: int) -> bool:
    """After a round, the game ends once any total reaches the threshold (33 by default)."""
    return max(totals) >= threshold


def winners(totals: Sequence[int]) -> tuple[Seat, ...]:
    """The lowest total wins; equal lowest totals share the win."""
    best = min(totals)
    return tuple(seat for seat, total in enumerate(totals) if total == best)
