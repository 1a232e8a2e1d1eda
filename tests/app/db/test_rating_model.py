"""The rating model (app/db/ratings/model.py): places from an outcome, the openskill update."""

from __future__ import annotations

from typing import Any

import pytest

from app.db.ratings.model import BOT_SKILLS, NEWCOMER, Skill, places, rate

NEW = NEWCOMER


def outcome(scores: list[float], winners: list[int]) -> dict[str, Any]:
    return {"scores": scores, "winners": winners, "rounds": [], "detail": {}}


def test_places_put_winners_first_then_scores_and_share_ties() -> None:
    assert places(outcome([10, 30], [1]), 2) == [2, 1]
    assert places(outcome([5, 9, 7, 7], [1]), 4) == [4, 1, 2, 2]
    assert places(outcome([50, 50, 40], [0, 1]), 3) == [1, 1, 3]
    assert places(outcome([-3.0, -0.0, -9.0], [1]), 3) == [2, 1, 3]  # ABspecken: minus penalties
    assert places(outcome([1, 0, 1, 1], [0, 2, 3]), 4) == [1, 4, 1, 1]  # a forfeit


def test_two_players_the_winner_gains_what_the_loser_loses() -> None:
    winner, loser = rate([NEW, NEW], [1, 2], [False, False])
    assert winner.mu > NEW.mu > loser.mu
    assert winner.mu - NEW.mu == pytest.approx(NEW.mu - loser.mu)
    assert winner.sigma < NEW.sigma and loser.sigma < NEW.sigma
    assert winner.ordinal > 0 > loser.ordinal
    # an upset moves ratings further than an expected result
    strong, weak = Skill(30.0, 3.0), Skill(20.0, 3.0)
    expected = rate([strong, weak], [1, 2], [False, False])
    upset = rate([strong, weak], [2, 1], [False, False])
    assert upset[1].mu - weak.mu > expected[0].mu - strong.mu > 0


def test_three_or_more_players_follow_their_places() -> None:
    for seats in (3, 4, 6):
        after = rate([NEW] * seats, list(range(1, seats + 1)), [False] * seats)
        mus = [s.mu for s in after]
        assert mus == sorted(mus, reverse=True) and len(set(mus)) == seats
        assert sum(mus) == pytest.approx(NEW.mu * seats, abs=1e-6)


def test_ties_move_equal_players_equally() -> None:
    first, second, third = rate([NEW, NEW, NEW], [1, 1, 3], [False] * 3)
    assert first == second and first.mu > NEW.mu > third.mu
    even = rate([NEW, NEW], [1, 1], [False, False])
    assert even[0].mu == pytest.approx(NEW.mu) and even[0] == even[1]
    assert even[0].sigma < NEW.sigma  # a draw is still information


def test_bots_keep_their_published_ratings() -> None:
    hard = BOT_SKILLS["hard"]
    human, bot = rate([NEW, hard], [1, 2], [False, True])
    assert bot == hard and human.mu > NEW.mu
    human_lost, bot = rate([NEW, hard], [2, 1], [False, True])
    assert bot == hard and human_lost.mu < NEW.mu
    # losing to a strong bot costs less than losing to a weak one
    lost_to_easy = rate([NEW, BOT_SKILLS["easy"]], [2, 1], [False, True])[0]
    assert lost_to_easy.mu < human_lost.mu
    assert rate([hard, hard], [1, 2], [True, True]) == [hard, hard]
    assert [s.ordinal for s in BOT_SKILLS.values()] == [13.0, 19.0, 25.0]


def test_a_solo_match_changes_nothing() -> None:
    assert rate([NEW], [1], [False]) == [NEW]
    assert rate([], [], []) == []
