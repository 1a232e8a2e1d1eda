"""The 52-card deck, rank numbers, point values and the playability test (spec sections 1 and 4).

A card is a short string: its rank (``A``, ``2`` … ``10``, ``J``, ``Q``, ``K``) followed by its
suit (``S``, ``H``, ``D``, ``C``), e.g. ``"10H"`` or ``"QS"``. Stacks and the draw stack are
lists whose last element is the top.
"""

from __future__ import annotations

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("S", "H", "D", "C")

DECK: tuple[str, ...] = tuple(rank + suit for suit in SUITS for rank in RANKS)

ACE, FIVE, TEN, KING = 1, 5, 10, 13

# Rank number for the "same or next" test: A = 1, 2-10 = face value, J = 11, Q = 12, K = 13.
RANK: dict[str, int] = {card: RANKS.index(card[:-1]) + 1 for card in DECK}

_POINTS_BY_RANK: dict[int, int] = {
    1: 20,
    2: 5,
    3: 5,
    4: 5,
    5: 5,
    6: 0,
    7: 0,
    8: 0,
    9: 0,
    10: 10,
    11: 10,
    12: 10,
    13: 10,
}
POINTS: dict[str, int] = {card: _POINTS_BY_RANK[RANK[card]] for card in DECK}

_SORT_KEY: dict[str, tuple[int, int]] = {card: (RANK[card], SUITS.index(card[-1])) for card in DECK}


def sort_cards(cards: list[str]) -> list[str]:
    """Cards in display order: by rank, then suit."""
    return sorted(cards, key=_SORT_KEY.__getitem__)


def points(cards: list[str]) -> int:
    return sum(POINTS[card] for card in cards)


def fits(card: str, stack: list[str]) -> bool:
    """Whether ``card`` may go on ``stack``: empty, an Ace or King on top, or one rank off at most.

    There is no wrap-around: a King and an Ace are not neighbours (spec D-3).
    """
    if not stack:
        return True
    top = RANK[stack[-1]]
    return top in (ACE, KING) or abs(RANK[card] - top) <= 1


_SUIT_SYMBOL: dict[str, str] = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}


def card_name(card: str) -> str:
    """A card as players read it in messages: ``"10H"`` -> ``"10♥"``."""
    return card[:-1] + _SUIT_SYMBOL[card[-1]]
