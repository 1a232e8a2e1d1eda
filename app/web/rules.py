"""What a game's rules page shows besides its prose (templates/rules/<game>.html): how many
play, and each room option with its usual value in words."""

from __future__ import annotations

from dataclasses import dataclass

from games.base import GameInfo, OptionSpec

MINUS = "\u2212"


@dataclass(frozen=True)
class OptionRow:
    name: str
    label: str
    usual: str


def players_text(info: GameInfo) -> str:
    """How many play, in words: "For 2 players", "For 2 to 6 players"."""
    if info.min_players == info.max_players:
        return f"For {info.min_players} players"
    if info.min_players == 1:
        return f"For 1 player (against an automaton) or 2 to {info.max_players} players"
    return f"For {info.min_players} to {info.max_players} players"


def number_text(value: int) -> str:
    return f"{MINUS}{-value}" if value < 0 else str(value)


def usual_text(option: OptionSpec) -> str:
    """The option's default in words: "Usually 500.", "Usually off."."""
    if option.type == "bool":
        return "Usually on." if option.default else "Usually off."
    if option.type == "choice":
        labels = option.choice_labels or tuple(map(str, option.choices))
        return f"Usually: {labels[option.choices.index(option.default)]}."
    return f"Usually {number_text(option.default)}."


def option_rows(info: GameInfo) -> list[OptionRow]:
    return [OptionRow(o.name, o.label, usual_text(o)) for o in info.options]
