"""The 24-card Abstrac pack: cards are strings rank + suit, e.g. ``"AS"``, ``"10H"``, ``"9C"``."""

from __future__ import annotations

from typing import TypeAlias

Card: TypeAlias = str

#: Ranks from high to low; sequences follow this order, and the Ace touches only the King.
RANKS: tuple[str, ...] = ("A", "K", "Q", "J", "10", "9")
SUITS: tuple[str, ...] = ("S", "H", "D", "C")

#: The whole pack in a fixed order (suit by suit, high to low); shuffled for every deal.
DECK: tuple[Card, ...] = tuple(rank + suit for suit in SUITS for rank in RANKS)

RANK_INDEX: dict[str, int] = {rank: i for i, rank in enumerate(RANKS)}
SUIT_INDEX: dict[str, int] = {suit: i for i, suit in enumerate(SUITS)}


def rank_of(card: Card) -> str:
    return card[:-1]


def suit_of(card: Card) -> str:
    return card[-1]


def sort_key(card: Card) -> tuple[int, int]:
    """Suit first, then rank high to low: the order a collection is shown in."""
    return SUIT_INDEX[suit_of(card)], RANK_INDEX[rank_of(card)]
