"""Security review findings, over real HTTP and raw sockets against the real server: private
rooms stay out of the match history, bodies have a size limit, out-of-range numbers and dates
are refused (never a 500), and cross-site requests are turned away."""

from __future__ import annotations

from tests.api.play import play_bots, start, wait_finished
from tests.clients import Guest


# -- 6: a private room's id is never shown -----------------------------------------------------
def private_bot_match(host: Guest) -> tuple[str, int]:
    """A private room whose two bots played a whole match: (room id, match id)."""
    answer = host.post("/api/rooms", {"game": "abstrac", "seats": 2, "private": True})
    assert answer.status_code == 201, answer.text
    room_id = answer.json()["id"]
    for seat in (0, 1):
        host.post(f"/api/rooms/{room_id}/seats/{seat}/bot", {"level": "easy"}).raise_for_status()
    match_id = start(host, room_id)
    assert wait_finished(host.http, match_id, timeout=60)["status"] == "finished"
    return room_id, match_id


def test_match_history_never_shows_a_private_rooms_id(live_server: str) -> None:
    host = Guest(live_server, "Hidden host")
    hidden_room, finished = private_bot_match(host)
    now = host.post("/api/play-now", {"game": "abstrac", "opponents": 1}).json()
    assert now["private"] is True and now["status"] == "playing"
    running = now["match_id"]
    public = play_bots(host, "abstrac", ("easy", "easy"))

    answers = {
        path: host.http.get(path)
        for path in (
            "/api/matches?limit=200",
            f"/api/matches?player={host.id}",
            "/api/matches?status=playing&limit=200",
            "/api/matches?status=finished&limit=200",
            "/api/matches?game=abstrac&limit=200",
            f"/api/matches/{finished}",
            f"/api/matches/{running}",
            f"/api/matches/{finished}/replay",
        )
    }
    for path, answer in answers.items():
        assert answer.status_code == 200, (path, answer.text)
        assert hidden_room not in answer.text and now["id"] not in answer.text, path
    listed = {m["id"]: m for m in answers["/api/matches?limit=200"].json()}
    assert listed[finished]["room_id"] is None and listed[running]["room_id"] is None
    assert listed[finished]["status"] == "finished" and listed[finished]["seats"]
    shown = host.http.get(f"/api/rooms/{listed[public]['room_id']}").json()
    assert shown["match_id"] == public and shown["private"] is False
    for page in ("/matches", f"/matches/{finished}", f"/players/{host.id}"):
        shell = host.http.get(page)
        assert shell.status_code == 200 and hidden_room not in shell.text, page
