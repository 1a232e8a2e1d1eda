"""Scoring (spec section 7). Every zero card counts as the number 0 here."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from games.absolute.cards import MIN_SET_SIZE, NUMBER, SIGN, SUIT, Card

OF_A_KIND = 4


def run_points(cards: Sequence[Card]) -> int:
    """+1 per card in each chain of >= 3 consecutive distinct numbers of one sign."""
    points = 0
    for sign in (1, -1):
        numbers = sorted({NUMBER[card] for card in cards if SIGN[card] == sign})
        chain = 0
        previous = -2
        for number in numbers:
            chain = chain + 1 if number == previous + 1 else 1
            if chain == MIN_SET_SIZE:
                points += MIN_SET_SIZE
            elif chain > MIN_SET_SIZE:
                points += 1
            previous = number
    return points


def score_set(cards: Sequence[Card]) -> dict[str, Any]:
    """The breakdown of one set: base, extra cards, runs, doubling and the total."""
    numbers = [NUMBER[card] for card in cards]
    base = max(numbers)
    extra = max(0, len(cards) - MIN_SET_SIZE)
    run = run_points(cards)
    same_suit = len({SUIT[card] for card in cards}) == 1
    of_a_kind = max(Counter(numbers).values()) >= OF_A_KIND
    double = same_suit or of_a_kind
    subtotal = base + extra + run
    return {
        "base": base,
        "extra": extra,
        "run": run,
        "double": "suit" if same_suit else "kind" if of_a_kind else None,
        "score": subtotal * 2 if double else subtotal,
    }


def hand_penalty(hand: Sequence[Card]) -> int:
    """Largest number in the hand plus one per further card; 0 for an empty hand."""
    if not hand:
        return 0
    return max(NUMBER[card] for card in hand) + len(hand) - 1
