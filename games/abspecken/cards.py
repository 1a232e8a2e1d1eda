"""ABspecken's cards (spec section 1): values 1 to 6, four of each in every player's set.

A card is just its value. Colour is a display attribute keyed by value (C-1: the colour of
the 3 is unknown in every source, so "orange" is a placeholder). Hands and discard piles are
lists of values; a player's six draw piles are a list of six counts (index 0 holds the 1s).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TypeAlias

Card: TypeAlias = int
#: Six counts, one per value 1..6 (index ``value - 1``).
Counts: TypeAlias = tuple[int, int, int, int, int, int]

VALUES: tuple[Card, ...] = (1, 2, 3, 4, 5, 6)
COPIES = 4
SET_SIZE = COPIES * len(VALUES)
HAND_SIZE = 5

COLOURS: dict[Card, str] = {
    1: "green",
    2: "pink",
    3: "orange",
    4: "blue",
    5: "yellow",
    6: "purple",
}


def full_piles() -> list[int]:
    """A player's six draw piles at the start of a round: four cards of each value."""
    return [COPIES] * len(VALUES)


def counts_of(cards: Iterable[Card]) -> list[int]:
    """How many cards of each value a collection holds (index ``value - 1``)."""
    counts = [0] * len(VALUES)
    for card in cards:
        counts[card - 1] += 1
    return counts


def cards_of(counts: Sequence[int]) -> list[Card]:
    """The sorted cards a count vector stands for."""
    return [value for value, n in zip(VALUES, counts, strict=True) for _ in range(n)]


def points(cards: Iterable[Card]) -> int:
    """Penalty points of a collection: each card scores its value."""
    return sum(cards)


def pile_points(piles: Sequence[int]) -> int:
    return sum(value * n for value, n in zip(VALUES, piles, strict=True))


def contains(hand_counts: Sequence[int], cards: Iterable[Card]) -> bool:
    """Whether a multiset of cards can be taken from ``hand_counts``."""
    need = counts_of(cards)
    return all(n <= have for n, have in zip(need, hand_counts, strict=True))


def remove(hand: Sequence[Card], cards: Iterable[Card]) -> list[Card]:
    """``hand`` minus the multiset ``cards`` (which it must contain), kept sorted."""
    rest = list(hand)
    for card in cards:
        rest.remove(card)
    return rest


def add(hand: Sequence[Card], cards: Iterable[Card]) -> list[Card]:
    return sorted([*hand, *cards])
