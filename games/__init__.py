"""Pure rule engines. A game is a subpackage exposing ``ENGINE``; it is found here."""

from games.base import Engine, IllegalAction, InvalidOptions, MalformedAction, Outcome
from games.registry import REGISTRY, get_game

__all__ = [
    "REGISTRY",
    "Engine",
    "IllegalAction",
    "InvalidOptions",
    "MalformedAction",
    "Outcome",
    "get_game",
]
