"""The review of a match's decisions agrees with itself and sees only what each seat saw."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games import REGISTRY
from games.base import Engine
from games.bots import choose, info_set
from games.review import (
    Budget,
    choice_moves,
    review_match,
    sample_evenly,
    summary,
    weigh,
    weigh_part,
)
from games.search import action_key

SMALL = Budget(iterations=12, playouts=6)
SHORT: dict[str, dict[str, Any]] = {
    "abstrac": {"target": 60},
    "balance": {"max_rounds": 1},
    "abspecken": {"end_threshold": 10},
    "absolute": {},
    "plus_minus": {},
}
DECISIONS = 24
"""Decisions reviewed per match: enough to meet every kind, few enough to stay quick."""


def bot_match(engine: Engine, players: int, seed: int) -> tuple[dict[str, Any], list[Any]]:
    """A seeded match of normal bots (easy every third move, so mistakes happen)."""
    options = engine.check_options(SHORT[engine.info.id], players)
    rng = random.Random(seed)
    state = engine.setup(players, seed, options)
    moves = []
    while engine.to_act(state) and len(moves) < 400:
        seat = min(engine.to_act(state))
        level = "easy" if len(moves) % 3 == 2 else "normal"
        action = choose(engine, info_set(engine, state, seat), level, rng)
        moves.append((len(moves) + 1, seat, action))
        state = engine.apply(state, seat, action)
    return options, moves


@pytest.mark.parametrize("game", sorted(REGISTRY))
def test_a_review_agrees_with_itself(game: str) -> None:
    engine = REGISTRY[game]
    players = engine.info.min_players + (1 if engine.info.max_players > 2 else 0)
    options, moves = bot_match(engine, players, seed=7)
    decisions = []
    state = engine.setup(players, 7, options)
    by_seq = {seq: (seat, action) for seq, seat, action in moves}
    states = {}
    for seq, seat, action in moves:
        states[seq] = state
        state = engine.apply(state, seat, action)
    for decision in review_match(engine, players, 7, options, moves, budget=SMALL, review_seed=1):
        decisions.append(decision)
        if len(decisions) == DECISIONS:
            break
    assert len(decisions) >= min(DECISIONS, 10)
    for decision in decisions:
        seat, played = by_seq[decision.seq]
        assert (decision.seat, decision.played) == (seat, played)
        legal = info_set(engine, states[decision.seq], seat).legal
        assert len(legal) > 1
        assert decision.best in legal or decision.best == played
        assert decision.value_best >= decision.value_played
        if action_key(decision.best) == action_key(played):
            assert decision.cost == 0
        assert len(decision.chances) == players
        assert all(0.0 <= c <= 1.0 for c in decision.chances)
    seats = summary([d.to_json() for d in decisions], players)
    assert [s["seat"] for s in seats] == list(range(players))
    for row in seats:
        if row["decisions"]:
            assert 0.0 <= row["accuracy"] <= 1.0 and row["average_cost"] >= 0.0


@pytest.mark.parametrize("game", sorted(REGISTRY))
def test_a_review_never_depends_on_cards_the_seat_could_not_see(game: str) -> None:
    engine = REGISTRY[game]
    players = engine.info.max_players if game == "plus_minus" else engine.info.min_players
    options, moves = bot_match(engine, players, seed=11)
    state = engine.setup(players, 11, options)
    checked = 0
    for seq, seat, action in moves:
        info = info_set(engine, state, seat)
        if len(info.legal) > 1 and seq % 3 == 0:
            twin = engine.determinize(state, seat, random.Random(seq))
            assert engine.view(twin, seat) == info.view
            seen = weigh(engine, info, action, random.Random(seq), SMALL)
            other = weigh(engine, info_set(engine, twin, seat), action, random.Random(seq), SMALL)
            assert seen == other
            checked += 1
            if checked == 4:
                break
        state = engine.apply(state, seat, action)
    assert checked == 4


def test_a_long_match_is_reviewed_on_an_even_sample_of_its_decisions() -> None:
    """``sample_evenly`` keeps every decision up to its limit and past it spreads the limit
    over the whole match, first and last included; the sample's decisions, weighed a part at a
    time (each part going on from where the last stopped), are the whole review's."""
    assert sample_evenly([1, 2, 3], 5) == [1, 2, 3]
    assert sample_evenly(list(range(100)), 5) == [0, 25, 50, 74, 99]
    assert sample_evenly(list(range(10)), 1) == [0]
    engine = REGISTRY["abstrac"]
    options, moves = bot_match(engine, 2, seed=11)
    choices = choice_moves(engine, 2, 11, options, moves)
    whole = {
        d.seq: d.to_json()
        for d in review_match(engine, 2, 11, options, moves, budget=SMALL, review_seed=3)
    }
    assert [moves[i][0] for i in choices] == sorted(whole)
    sample = sample_evenly(choices, 9)
    parts = [sample[:4], sample[4:]]
    weighed = [
        d for part in parts for d in weigh_part("abstrac", 2, 11, options, moves, SMALL, 3, part)
    ]
    assert weighed == [whole[moves[i][0]] for i in sample]
