"""Balance bots: the hard bot's fitted weights (games/balance/bots.py), heuristics only."""

from __future__ import annotations

import random

from games import REGISTRY
from games.balance.bots import BOTS, NORMAL, TUNED, Weights, normal, tuned
from games.bots import choose, info_set

ENGINE = REGISTRY["balance"]


def _match(seed: int) -> float:
    """A two-player one-round match, the tuned weighing in one seat and ``normal`` in the
    other; the tuned seat's share of the win."""
    mine = seed % 2
    state = ENGINE.setup(2, seed, {"max_rounds": 1})
    rngs = [random.Random(seed * 10 + seat) for seat in range(2)]
    while acting := sorted(ENGINE.to_act(state)):
        seat = acting[0]
        info = info_set(ENGINE, state, seat)
        policy = tuned if seat == mine else normal
        state = ENGINE.apply(state, seat, policy(info, rngs[seat]))
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    return 1 / len(outcome.winners) if mine in outcome.winners else 0.0


def test_normal_keeps_the_hand_set_weights() -> None:
    assert Weights(0.9, 0.35, 0.12, 0.3, 0.02) == NORMAL != TUNED


def test_the_tuned_weighing_beats_normal_at_two_players() -> None:
    """Fixed seeds, so the count is exact: about 60% over many more matches; luck alone
    would give half."""
    wins = sum(_match(seed) for seed in range(300))
    assert wins >= 165, wins


def test_the_search_tries_the_tuned_move_first_and_trusts_it() -> None:
    assert BOTS.favourite is tuned and BOTS.trust > 0
    state = ENGINE.setup(2, 4, {"max_rounds": 1})
    for _ in range(6):
        seat = min(ENGINE.to_act(state))
        info = info_set(ENGINE, state, seat)
        expected = tuned(info, random.Random(1))
        hard = choose(ENGINE, info, "hard", random.Random(1), budget_s=None, iterations=1)
        assert hard == expected
        state = ENGINE.apply(state, seat, hard)


def test_solo_tables_keep_normal_weights() -> None:
    state = ENGINE.setup(1, 3, None)
    for _ in range(5):
        info = info_set(ENGINE, state, 0)
        assert tuned(info, random.Random(2)) == normal(info, random.Random(2))
        state = ENGINE.apply(state, 0, normal(info, random.Random(2)))
