"""Round scores and winners (spec section 6)."""

from __future__ import annotations

from typing import Any

from games.plus_minus.cards import points


def seat_breakdown(plus: list[str], minus: list[str], hand: list[str]) -> dict[str, Any]:
    """One seat's round: Plus points, less Minus points, less the points of cards still in hand."""
    plus_points, minus_points, hand_points = points(plus), points(minus), points(hand)
    return {
        "plus": list(plus),
        "minus": list(minus),
        "hand": list(hand),
        "plus_points": plus_points,
        "minus_points": minus_points,
        "hand_points": hand_points,
        "score": plus_points - minus_points - hand_points,
    }


def winners(totals: list[int]) -> tuple[int, ...]:
    """Every seat with the highest total: a tie is a shared win."""
    best = max(totals)
    return tuple(seat for seat, total in enumerate(totals) if total == best)
