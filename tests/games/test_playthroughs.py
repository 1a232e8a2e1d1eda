"""Each game's golden playthrough, ``tests/games/playthroughs/<id>.json``, replays exactly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games import REGISTRY
from tests.games.playout import unordered

PLAYTHROUGHS = Path(__file__).parent / "playthroughs"


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_golden_playthrough_replays(game_id: str) -> None:
    """Every recorded action is a listed one (up to the order of its lists) and applies; the
    match ends with the recorded outcome, and the recorded final view where one is kept."""
    engine = REGISTRY[game_id]
    golden = json.loads((PLAYTHROUGHS / f"{game_id}.json").read_text())
    state = engine.setup(golden["players"], golden["seed"], golden["options"])
    for seat, action in golden["actions"]:
        assert unordered(action) in {unordered(a) for a in engine.legal_actions(state, seat)}
        state = engine.apply(state, seat, action)
    outcome = engine.outcome(state)
    assert outcome is not None
    assert outcome.to_json() == golden["outcome"]
    if "final_view" in golden:
        assert engine.view(state, None) == golden["final_view"]
