"""Abstrac's exact end of a deal for the search (games/abstrac/endgame.py), against brute force."""

from __future__ import annotations

import math
import random

import pytest

from games.abstrac import ENGINE
from games.abstrac.bots import rollout
from games.abstrac.cards import DECK, Card
from games.abstrac.endgame import MARGIN_SCALE, MARGIN_WEIGHT, Endgame, match_chance
from games.abstrac.scoring import _mask, combo, deal_scores


def test_a_deal_reaching_the_target_is_won_or_lost_whatever_the_margin() -> None:
    assert match_chance([151, 150], 150) == 1.0
    assert match_chance([40, 300], 150) == 0.0


def test_equal_totals_at_the_target_play_on_at_even_chances() -> None:
    assert match_chance([200, 200], 150) == 0.5


def test_below_the_target_a_lead_is_worth_more_the_larger_it_is() -> None:
    small, large = match_chance([60, 40], 150), match_chance([100, 40], 150)
    assert 0.5 < small < large < 1.0
    assert match_chance([40, 60], 150) == pytest.approx(1.0 - small)


def _finished(mine: list[Card], theirs: list[Card], totals: list[int], target: int) -> float:
    """Seat 0's value of a finished deal, from the rules' own scoring of card lists."""
    scores, _ = deal_scores([combo(mine), combo(theirs)], [len(mine), len(theirs)])
    after = [t + s for t, s in zip(totals, scores, strict=True)]
    margin = scores[0] - scores[1]
    return (1 - MARGIN_WEIGHT) * match_chance(after, target) + MARGIN_WEIGHT / (
        1.0 + math.exp(-margin / MARGIN_SCALE)
    )


def _brute(row: list[Card], hands: list[list[Card]], seat: int, totals: list[int]) -> float:
    """``seat``'s best chance by trying every sequence of takes."""
    if not row:
        value = _finished(hands[0], hands[1], totals, 150)
        return value if seat == 0 else 1.0 - value
    best = 0.0
    for count in range(1, min(3, len(row)) + 1):
        after = [list(h) for h in hands]
        after[seat] += row[-count:]
        best = max(best, 1.0 - _brute(row[:-count], after, 1 - seat, totals))
    return best


@pytest.mark.parametrize("seed", range(12))
def test_the_solver_agrees_with_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    cards = list(DECK)
    rng.shuffle(cards)
    left = rng.randrange(1, 9)
    row, rest = cards[:left], cards[left:]
    split = rng.randrange(len(rest) + 1)
    hands = [rest[:split], rest[split:]]
    totals = [rng.randrange(0, 140), rng.randrange(0, 140)]
    seat = rng.randrange(2)
    solver = Endgame(row, totals, 150)
    masks = (_mask(hands[0]), _mask(hands[1]))
    assert solver.value(left, masks, seat) == pytest.approx(_brute(row, hands, seat, totals))
    for count in range(1, min(3, left) + 1):
        after = [list(h) for h in hands]
        after[seat] += row[-count:]
        expected = 1.0 - _brute(row[:-count], after, 1 - seat, totals)
        assert solver.chance_after(left, masks, seat, count) == pytest.approx(expected)


def test_the_solver_serves_the_rest_of_its_deal_only() -> None:
    cards = list(DECK)
    solver = Endgame(cards[:10], [0, 0], 150)
    assert solver.fits(cards[:7], [0, 0], 150)
    assert not solver.fits(cards[1:8], [0, 0], 150)
    assert not solver.fits(cards[:7], [5, 0], 150)


def test_the_playout_plays_the_deal_out_exactly_near_its_end() -> None:
    state = ENGINE.setup(2, 3, {"target": 150})
    while len(state["row"]) > 6 or state["phase"] != "taking":
        seat = min(ENGINE.to_act(state))
        legal = ENGINE.legal_actions(state, seat)
        state = ENGINE.apply(state, seat, min(legal, key=lambda a: a.get("count", 0)))
    seat = state["to_move"]
    legal = ENGINE.legal_actions(state, seat)
    taken = state["taken"]
    masks = (_mask(taken[0]), _mask(taken[1]))
    solver = Endgame(state["row"], state["totals"], state["target"])
    chances = {a["count"]: solver.chance_after(6, masks, seat, a["count"]) for a in legal}
    chosen = rollout(ENGINE, state, seat, legal, random.Random(0))
    assert chances[chosen["count"]] == max(chances.values())
    # Offered fewer actions (a tree's untried ones), it picks among those.
    assert rollout(ENGINE, state, seat, legal[:1], random.Random(0)) == legal[0]
