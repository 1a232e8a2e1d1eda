"""The 88 ABSOLUTE cards: their wire codes, numbers, signs, suits and canonical order.

A card is a short string: sign, number, suit letter, e.g. ``"+7S"``, ``"-10D"``, ``"-0C"``.
Suits: S = square, C = circle, D = diamond, T = triangle (the rulebook's unnamed 4th suit,
spec A-2). Every suit holds -10..-1, -0, +0, +1..+10 once (spec A-1): 4 x 22 = 88 cards.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeAlias

Card: TypeAlias = str

SUITS: tuple[str, ...] = ("S", "C", "D", "T")
SUIT_SYMBOLS: dict[str, str] = {"S": "■", "C": "●", "D": "◆", "T": "▲"}
SUIT_NAMES: dict[str, str] = {"S": "square", "C": "circle", "D": "diamond", "T": "triangle"}
TOP_NUMBER = 10

DEAL_SIZE = 5
HAND_LIMIT = 7
MIN_SET_SIZE = 3
SETS_TO_GO_OUT = 3
ROUNDS = 3
MAX_SWAP = 2


def _ordered_cards() -> tuple[Card, ...]:
    """Every card, lowest first: -10 .. -1, -0, +0, +1 .. +10; suits in SUITS order."""
    cards: list[Card] = []
    for number in range(TOP_NUMBER, 0, -1):
        cards += [f"-{number}{suit}" for suit in SUITS]
    cards += [f"-0{suit}" for suit in SUITS]
    cards += [f"+0{suit}" for suit in SUITS]
    for number in range(1, TOP_NUMBER + 1):
        cards += [f"+{number}{suit}" for suit in SUITS]
    return tuple(cards)


ALL_CARDS: tuple[Card, ...] = _ordered_cards()
RANK: dict[Card, int] = {card: index for index, card in enumerate(ALL_CARDS)}
SIGN: dict[Card, int] = {card: 1 if card[0] == "+" else -1 for card in ALL_CARDS}
NUMBER: dict[Card, int] = {card: int(card[1:-1]) for card in ALL_CARDS}
VALUE: dict[Card, int] = {card: SIGN[card] * NUMBER[card] for card in ALL_CARDS}
SUIT: dict[Card, str] = {card: card[-1] for card in ALL_CARDS}
ZEROS: frozenset[Card] = frozenset(card for card in ALL_CARDS if NUMBER[card] == 0)


def is_card(value: object) -> bool:
    return isinstance(value, str) and value in RANK


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    return sorted(cards, key=RANK.__getitem__)


def zero_range(card: Card) -> tuple[int, int]:
    """The values a zero card may represent: 0..+10 for +0, -10..0 for -0 (spec 4.1)."""
    return (0, TOP_NUMBER) if SIGN[card] > 0 else (-TOP_NUMBER, 0)


def zero_can_be(card: Card, value: int) -> bool:
    low, high = zero_range(card)
    return low <= value <= high


def card_name(card: Card) -> str:
    """A player-facing name such as ``+7■``."""
    return f"{card[:-1]}{SUIT_SYMBOLS[card[-1]]}"


def names(cards: Iterable[Card]) -> str:
    return " ".join(card_name(card) for card in cards)
