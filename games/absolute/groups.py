"""What makes a group of cards a valid set (spec 4.1) and what its zero card stands for."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from games.absolute.cards import MIN_SET_SIZE, VALUE, ZEROS, Card, card_name, names, zero_range
from games.base import IllegalAction


def zero_card(cards: Iterable[Card]) -> Card | None:
    """The zero card of a set (a valid set holds at most one)."""
    for card in cards:
        if card in ZEROS:
            return card
    return None


def check_group(cards: list[Card], frozen: Mapping[Card, int]) -> int | None:
    """Validate one group; return what its zero card stands for (None without a zero).

    ``frozen`` maps zero cards whose value may not change here to that value (spec 4.4).
    Raises :class:`IllegalAction` with a sentence for the player.
    """
    if len(cards) < MIN_SET_SIZE:
        raise IllegalAction(
            "set_too_small",
            f"A set needs at least {MIN_SET_SIZE} cards; {names(cards)} has only {len(cards)}.",
        )
    zeros = [card for card in cards if card in ZEROS]
    if len(zeros) > 1:
        raise IllegalAction(
            "two_zeros", f"A set may hold only one zero card; {names(cards)} has two."
        )
    total = sum(map(VALUE.__getitem__, cards))
    if not zeros:
        if total:
            raise IllegalAction("not_zero", f"{names(cards)} adds up to {total:+d}, not to zero.")
        return None
    zero = zeros[0]
    value = -total
    if zero in frozen and frozen[zero] != value:
        raise IllegalAction(
            "zero_frozen",
            f"The {card_name(zero)} stands for {signed(frozen[zero])} and keeps that value "
            f"while it stays with its set-mates; in {names(cards)} it would have to stand "
            f"for {signed(value)}.",
        )
    low, high = zero_range(zero)
    if not low <= value <= high:
        raise IllegalAction(
            "zero_out_of_range",
            f"In {names(cards)} the {card_name(zero)} would have to stand for "
            f"{signed(value)}, but it can only stand for {signed(low)} to {signed(high)}.",
        )
    return value


def signed(value: int) -> str:
    """``+3``, ``-3`` or ``0``."""
    return f"{value:+d}" if value else "0"


def new_set(set_id: int, owner: int, cards: list[Card], zero: int | None) -> dict[str, Any]:
    return {"id": set_id, "owner": owner, "cards": cards, "zero": zero}
