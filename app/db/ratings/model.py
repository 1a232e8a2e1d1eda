"""The rating model: openskill's Plackett-Luce, the bots' fixed skills, places from an outcome.
Pure: no database (see the package's docstring for the rules)."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

MODEL = PlackettLuce()


@dataclass(frozen=True)
class Skill:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    def to_json(self) -> dict[str, float]:
        return {"mu": round(self.mu, 3), "sigma": round(self.sigma, 3), "ordinal": shown(self)}


NEWCOMER = Skill(MODEL.mu, MODEL.sigma)

#: The published ratings of the server's bots, by level; fixed, never updated.
BOT_SKILLS: dict[str, Skill] = {
    "easy": Skill(16.0, 1.0),  # ordinal 13: plays a random legal move
    "normal": Skill(22.0, 1.0),  # ordinal 19
    "hard": Skill(28.0, 1.0),  # ordinal 25
}


def shown(skill: Skill) -> float:
    return round(skill.ordinal, 2)


def bot_skill(level: str | None) -> Skill:
    return BOT_SKILLS.get(level or "", BOT_SKILLS["normal"])


def places(outcome: Mapping[str, Any], seats: int, abandoned: Collection[int] = ()) -> list[int]:
    """Each seat's place, 1 = best: winners share 1, the rest by score (higher first); the
    ``abandoned`` seats share the last place, below every other seat."""
    winners = set(outcome.get("winners") or [])
    scores = list(outcome.get("scores") or [])
    scores += [0.0] * (seats - len(scores))

    def key(seat: int) -> tuple[int, int, float]:
        if seat in abandoned:
            return (1, 0, 0.0)
        return (0, 0 if seat in winners else 1, -float(scores[seat] or 0))

    keys = [key(seat) for seat in range(seats)]
    return [1 + sum(1 for other in keys if other < mine) for mine in keys]


def rate(skills: Sequence[Skill], ranks: Sequence[int], fixed: Sequence[bool]) -> list[Skill]:
    """New skills after one match; ``fixed`` seats (bots) and solo matches stay as they were."""
    if len(skills) < 2 or all(fixed):
        return list(skills)
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in skills]
    rated = MODEL.rate(teams, ranks=list(ranks))
    return [
        old if fixed[i] else Skill(float(rated[i][0].mu), float(rated[i][0].sigma))
        for i, old in enumerate(skills)
    ]
