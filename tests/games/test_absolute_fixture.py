"""The rules the ABSOLUTE table repeats in the browser agree with the engine.

``static/games/absolute/rules.js`` checks sets and scores them while a player builds a play
(live feedback; the server checks again). ``tests/fixtures/absolute_groups.json`` holds cases
with the engine's verdicts: this test proves the file is what ``games/absolute/groups.py``,
``scoring.py`` and ``cards.py`` say, and ``tests/e2e/test_table_core.py`` runs the same cases
through the browser module. To refresh the file after a rule change, run
``python -m tests.games.test_absolute_fixture``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from games.absolute.cards import ALL_CARDS, VALUE, ZEROS, sort_cards, zero_range
from games.absolute.groups import check_group
from games.absolute.scoring import hand_penalty, score_set
from games.base import IllegalAction

FIXTURE = Path(__file__).parent.parent / "fixtures" / "absolute_groups.json"
SEED = 2026

# Groups picked by hand: every refusal, zeros at both ends of their range, runs of both
# signs, doubling by suit and by four of a kind, extra cards.
HAND_PICKED: list[tuple[str, dict[str, int]]] = [
    ("+3S -3C", {}),  # too small
    ("+1S", {}),
    ("+0S -0C +5D -5T", {}),  # two zeros
    ("+3S +4C -6D", {}),  # adds up to +1
    ("+3S +4C -7D", {}),
    ("-10S +4C +6D", {}),
    ("+1S +2S -3S", {}),  # one suit: doubled
    ("+1S +2C +3D -6T", {}),  # a run of three
    ("-1S -2C -3D -4T +10S", {}),  # a run of four, minus
    ("+5S +5C +5D +5T -10S -10C", {}),  # four of a kind
    ("+10S -0C", {}),  # too small, with a zero
    ("+4S +6C -0D", {}),  # the -0 stands for -10
    ("+4S +7C -0D", {}),  # -11: out of range
    ("-4S -6C +0D", {}),  # the +0 stands for +10
    ("-4S -7C +0D", {}),  # +11: out of range
    ("+4S -4C +0D", {}),  # the zero stands for 0
    ("+3S +2C -0D", {"-0D": -5}),  # kept its value
    ("+3S +2C -0D", {"-0D": -4}),  # frozen at another value
    ("+3S +2C -0D -5T", {}),  # the zero stands for 0 beside a full set
    ("+1S +2S +3S -0S", {}),  # one suit with a zero
    ("+1D +2D +3D +4D +5D -0D", {}),  # -15: out of range
    ("+1D +2D +3D +4D -0D", {}),
]

HANDS = ["", "+7S", "-7S", "+0C", "-0D +0T", "+3S -7C +10D -1T", "+1S +1C +1D +1T +1S"]


def verdict(cards: list[str], frozen: dict[str, int]) -> dict[str, Any]:
    """What the engine says of one group: valid or the refusal's code, the zero's value, the
    score, and the cards in the engine's order."""
    case: dict[str, Any] = {"cards": cards, "frozen": frozen, "sorted": sort_cards(cards)}
    try:
        zero = check_group(cards, frozen)
    except IllegalAction as refusal:
        return {**case, "valid": False, "code": refusal.code, "zero": None, "score": None}
    return {**case, "valid": True, "code": None, "zero": zero, "score": score_set(cards)}


def random_groups(rng: random.Random, count: int) -> list[tuple[list[str], dict[str, int]]]:
    """Groups of 3-7 cards: half made to add up to 0 (with a zero, or a balancing card), half
    as they come; a few zeros frozen at a value they may or may not keep."""
    plain = [card for card in ALL_CARDS if card not in ZEROS]
    groups: list[tuple[list[str], dict[str, int]]] = []
    while len(groups) < count:
        size = rng.randint(3, 7)
        cards = rng.sample(ALL_CARDS, size) if rng.random() < 0.4 else rng.sample(plain, size - 1)
        if len(cards) < size:
            total = sum(VALUE[card] for card in cards)
            if rng.random() < 0.5:
                cards.append(rng.choice(sorted(ZEROS)))
            else:
                balance = [c for c in plain if VALUE[c] == -total and c not in cards]
                if not balance:
                    continue
                cards.append(rng.choice(balance))
        frozen: dict[str, int] = {}
        zeros = [card for card in cards if card in ZEROS]
        if zeros and rng.random() < 0.3:
            low, high = zero_range(zeros[0])
            frozen[zeros[0]] = rng.randint(low, high)
        groups.append((cards, frozen))
    return groups


def build() -> dict[str, Any]:
    rng = random.Random(SEED)
    picked = [(text.split(), frozen) for text, frozen in HAND_PICKED]
    groups = [verdict(cards, frozen) for cards, frozen in picked + random_groups(rng, 120)]
    drawn = [rng.sample(ALL_CARDS, rng.randint(1, 9)) for _ in range(20)]
    hands = [text.split() for text in HANDS] + drawn
    return {
        "about": "ABSOLUTE groups with the engine's verdicts (games/absolute/groups.py, "
        "scoring.py); written by tests/games/test_absolute_fixture.py, run in the browser by "
        "tests/e2e/test_table_core.py against static/games/absolute/rules.js.",
        "seed": SEED,
        "groups": groups,
        "hands": [{"hand": hand, "penalty": hand_penalty(hand)} for hand in hands],
    }


def render(fixture: dict[str, Any]) -> str:
    """One case a line, so a change of verdict shows as a one-line diff."""
    lines = ",\n".join(f"  {json.dumps(case)}" for case in fixture["groups"])
    hands = ",\n".join(f"  {json.dumps(case)}" for case in fixture["hands"])
    return (
        f'{{"about": {json.dumps(fixture["about"])},\n "seed": {fixture["seed"]},\n'
        f' "groups": [\n{lines}\n ],\n "hands": [\n{hands}\n ]\n}}\n'
    )


def test_the_fixture_is_the_engines_verdict() -> None:
    stale = "tests/fixtures/absolute_groups.json is stale: rerun this module (see its docstring)"
    assert json.loads(FIXTURE.read_text()) == build(), stale


def test_the_fixture_covers_every_verdict() -> None:
    groups = build()["groups"]
    codes = {case["code"] for case in groups}
    refusals = {"set_too_small", "two_zeros", "not_zero", "zero_frozen", "zero_out_of_range"}
    assert codes == {None} | refusals
    scored = [case["score"] for case in groups if case["valid"]]
    assert {score["double"] for score in scored} == {None, "suit", "kind"}
    assert any(score["run"] for score in scored) and any(score["extra"] for score in scored)
    assert sum(case["valid"] for case in groups) >= 40


if __name__ == "__main__":  # pragma: no cover - run by hand to refresh the fixture
    FIXTURE.write_text(render(build()))
