"""Cards of Balance: codes, values, the pack and a canonical hand order.

A card is a string: rank + suit, ranks "A", "2".."10", "J", "Q", "K", suits "S", "H", "D", "C"
(``"AS"``, ``"10H"``, ``"KC"``); jokers are ``"XR"`` (red) and ``"XB"`` (black). Ace counts 1,
2 to 10 their face value, J, Q, K and jokers 10. Several decks may hold equal codes.
"""

from __future__ import annotations

from typing import TypeAlias

Card: TypeAlias = str

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
JOKERS: tuple[Card, ...] = ("XR", "XB")
STANDARD: tuple[Card, ...] = tuple(rank + suit for rank in RANKS for suit in SUITS)
ALL_CARDS: tuple[Card, ...] = STANDARD + JOKERS

_RANK_VALUE: dict[str, int] = {"A": 1, "J": 10, "Q": 10, "K": 10} | {
    str(n): n for n in range(2, 11)
}
VALUE: dict[Card, int] = {card: _RANK_VALUE[card[:-1]] for card in STANDARD} | dict.fromkeys(
    JOKERS, 10
)
ORDER: dict[Card, int] = {card: index for index, card in enumerate(ALL_CARDS)}

_SUIT_SYMBOL: dict[str, str] = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}


def is_card(value: object) -> bool:
    return isinstance(value, str) and value in ORDER


def is_joker(card: Card) -> bool:
    return card in JOKERS


def build_pack(decks: int, jokers_per_deck: int) -> list[Card]:
    """The unshuffled pack: ``decks`` standard decks, each with ``jokers_per_deck`` jokers."""
    return [*STANDARD, *JOKERS[:jokers_per_deck]] * decks


def pack_size(decks: int, jokers_per_deck: int) -> int:
    return decks * (len(STANDARD) + jokers_per_deck)


def sort_hand(hand: list[Card]) -> None:
    """Sort a hand in place: by rank (so by value), then suit; jokers last."""
    hand.sort(key=ORDER.__getitem__)


def card_name(card: Card) -> str:
    """A short name for messages: ``"7\u2665"``, ``"10\u2660"``, ``"joker"``."""
    if is_joker(card):
        return "joker"
    return card[:-1] + _SUIT_SYMBOL[card[-1]]
