"""The declared wire form of a game's actions, and the one parser that holds client JSON to it.

A game declares, for each action ``type``, its keys and the kind of value each takes
(:class:`Int`, :class:`Bool`, :class:`OneOf`, :class:`ListOf`, all bounded), in an
:class:`ActionSchema`. Its ``parse`` turns what a client sent into the canonical action: a
fresh dict with exactly those keys, in the declared order, holding fresh lists, nothing of the
client's objects. Anything else (not an object, an unknown type, a missing or unknown key, a
wrong type, a value out of bounds, a list too long or nested deeper than declared) raises
:class:`MalformedAction`.

The parser walks the declaration, never the client's value: it looks no deeper into a value
than the schema reaches, so however deep or large a value is, refusing it costs little.
Only the server's client path parses; engines' ``apply`` and the bots work on legal actions.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeAlias

from games.types import Action, MalformedAction


def _quote(text: str) -> str:
    """A client's string in a message, cut short: keys and types may be kilobytes long."""
    return repr(text if len(text) <= 24 else text[:24] + "...")


class Kind:
    """What one key of an action holds."""

    def parse(self, value: Any, what: str) -> Any:
        """The canonical value; raises :class:`MalformedAction` naming ``what``."""
        raise NotImplementedError


@dataclass(frozen=True)
class Int(Kind):
    """A whole number from ``min`` to ``max`` (true and false are not numbers)."""

    min: int
    max: int

    def parse(self, value: Any, what: str) -> int:
        if type(value) is not int or not self.min <= value <= self.max:
            raise MalformedAction(f"{what} must be a whole number from {self.min} to {self.max}")
        return value


NUMBER = Int(-(2**31), 2**31 - 1)
"""Any 32-bit whole number, for a value whose bounds are the rules' to judge (and explain)."""


@dataclass(frozen=True)
class Bool(Kind):
    def parse(self, value: Any, what: str) -> bool:
        if type(value) is not bool:
            raise MalformedAction(f"{what} must be true or false")
        return value


@dataclass(frozen=True)
class OneOf(Kind):
    """One of a fixed set of strings or whole numbers: a card, a pile, a direction."""

    values: frozenset[str | int]
    label: str  # says what is expected: "a card such as '+7S'"

    def parse(self, value: Any, what: str) -> str | int:
        # by exact type: true == 1 would otherwise pass for the number 1
        if type(value) not in (str, int) or value not in self.values:
            raise MalformedAction(f"{what} must be {self.label}")
        return value


@dataclass(frozen=True)
class ListOf(Kind):
    """A list of ``min`` to ``max`` values of one kind."""

    item: Kind
    min: int
    max: int

    def parse(self, value: Any, what: str) -> list[Any]:
        if type(value) is not list or not self.min <= len(value) <= self.max:
            raise MalformedAction(f"{what} must be a list of {self.min} to {self.max} items")
        item, each = self.item.parse, f"each item of {what}"
        return [item(v, each) for v in value]


Fields: TypeAlias = Mapping[str, Kind]


@dataclass(frozen=True)
class ActionSchema:
    """A game's actions: for each ``type``, its other keys and their kinds."""

    actions: Mapping[str, Fields]

    def parse(self, raw: Any) -> Action:
        """The canonical form of the action ``raw``; raises :class:`MalformedAction`."""
        if type(raw) is not dict or type(raw.get("type")) is not str:
            raise MalformedAction("an action is an object with a 'type'")
        kind: str = raw["type"]
        fields = self.actions.get(kind)
        if fields is None:
            known = ", ".join(repr(name) for name in self.actions)
            raise MalformedAction(f"unknown action {_quote(kind)}: this game has {known}")
        if len(raw) != len(fields) + 1 or not all(key in raw for key in fields):
            extra = sorted(key for key in raw if key != "type" and key not in fields)
            if extra:
                raise MalformedAction(f"a {kind!r} action has no {_quote(extra[0])}")
            missing = [key for key in fields if key not in raw]
            raise MalformedAction(f"a {kind!r} action needs {missing[0]!r}")
        action: Action = {"type": kind}
        for key, field in fields.items():
            action[key] = field.parse(raw[key], repr(key))
        return action
