"""What a review costs is bounded, over a real server of its own (issue 34): a match with no
play gets none, and a long one is reviewed on a sample of its decisions, and says so. The
queue's fairness and each player's share of it are tested in process
(tests/app/rooms/test_reviews.py) and under a flood by ``python -m tests.bench.flood_reviews``."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.clients import Guest
from tests.support.play import play_bots, review_when_done, start, wait_finished
from tests.support.server import private_server
from tests.support.waiting import until

DECISIONS = 6


@pytest.fixture(scope="module")
def reviewing(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    env = {
        "CARDROOM_BOT_DELAY_MS": "0",
        "CARDROOM_BOT_QUICK_MS": "0",
        "CARDROOM_REVIEW_ITERATIONS": "8",
        "CARDROOM_REVIEW_PLAYOUTS": "4",
        "CARDROOM_REVIEW_DECISIONS": str(DECISIONS),
        "CARDROOM_MIN_SEAT_HOLD_SECONDS": "1",
    }
    with private_server(tmp_path_factory.mktemp("review-limits"), env) as server:
        yield server.url


def test_a_forfeit_before_anyone_moved_has_no_review(reviewing: str) -> None:
    host, guest = Guest(reviewing, "Host"), Guest(reviewing, "No-show")
    body = {
        "game": "abstrac",
        "seats": 2,
        "table": {"seat_hold_seconds": 1, "on_absent": "forfeit"},
    }
    room_id = host.post("/api/rooms", body).json()["id"]
    host.post(f"/api/rooms/{room_id}/seats/0").raise_for_status()
    guest.post(f"/api/rooms/{room_id}/seats/1").raise_for_status()
    match_id = start(host, room_id)
    sock = host.socket(room_id)  # the host is there; the guest never comes
    try:
        sock.expect_until("state", lambda m: m["over"], 10, "the forfeit")
    finally:
        sock.close()
    assert wait_finished(host.http, match_id)["move_count"] == 0
    answer = host.http.get(f"/api/matches/{match_id}/review")
    assert answer.status_code == 409, answer.text
    assert answer.json()["error"]["code"] == "nothing_to_review"
    until(
        lambda: host.http.get("/healthz").json()["reviews"]["waiting"] == 0,
        "the queue empty of it",
    )


def test_a_long_match_is_reviewed_on_a_sample_and_says_so(reviewing: str) -> None:
    host = Guest(reviewing, "Reviewer")
    match_id = play_bots(host, "abstrac", ("normal", "easy"), target=200)
    review = review_when_done(host.http, match_id)
    sample = review["sample"]
    assert sample is not None and sample["reviewed"] == DECISIONS < sample["of"]
    assert len(review["decisions"]) == DECISIONS
    assert review["budget"]["decisions"] == DECISIONS
    assert sum(seat["decisions"] for seat in review["seats"]) == DECISIONS
    seqs = [d["seq"] for d in review["decisions"]]
    moves = host.http.get(f"/api/matches/{match_id}").json()["move_count"]
    assert seqs == sorted(seqs) and seqs[-1] > moves // 2  # spread over the match
