"""Guest identity over real HTTP."""

from __future__ import annotations

import httpx

from tests.support.clients import Guest


def test_register_trims_and_sets_an_httponly_cookie(live_server: str) -> None:
    answer = httpx.post(f"{live_server}/api/players", json={"name": "   Ada   Lovelace  "})
    assert answer.status_code == 201
    body = answer.json()
    assert body["name"] == "Ada Lovelace" and body["token"] and body["id"] > 0
    cookie = answer.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie
    me = httpx.get(f"{live_server}/api/me", cookies={"cardroom_token": body["token"]})
    # issue 25: /api/me names the account too (null for a guest)
    assert me.json() == {"id": body["id"], "name": "Ada Lovelace", "username": None}


def test_bearer_token_identifies_and_html_names_are_kept_as_text(live_server: str) -> None:
    guest = Guest(live_server, "<b>bold</b> & co")
    assert guest.http.get("/api/me").json()["name"] == "<b>bold</b> & co"


def test_bad_names_are_refused_with_a_clear_error(live_server: str) -> None:
    for body in ({"name": ""}, {"name": "   "}, {"name": "x" * 33}, {"name": "a\u0000b"}, {}):
        answer = httpx.post(f"{live_server}/api/players", json=body)
        assert answer.status_code == 422, body
        assert answer.json()["error"]["message"]
    for raw in (b"{not json", b"[1,2]"):
        answer = httpx.post(
            f"{live_server}/api/players", content=raw, headers={"content-type": "application/json"}
        )
        assert answer.status_code in (400, 422)
        assert set(answer.json()["error"]) == {"code", "message"}


def test_me_without_or_with_a_wrong_token_is_401(live_server: str) -> None:
    assert httpx.get(f"{live_server}/api/me").status_code == 401
    wrong = httpx.get(f"{live_server}/api/me", headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 401
    assert wrong.json()["error"]["code"] == "unauthorized"


def test_session_answers_null_without_a_name_and_the_player_with_one(live_server: str) -> None:
    for headers in ({}, {"Authorization": "Bearer nope"}):
        answer = httpx.get(f"{live_server}/api/session", headers=headers)
        assert answer.status_code == 200 and answer.json() == {"player": None}, headers
    guest = Guest(live_server, "Sessa")
    assert guest.http.get("/api/session").json() == {"player": guest.http.get("/api/me").json()}


def test_games_lists_abstrac_with_its_options(live_server: str) -> None:
    games = {g["id"]: g for g in httpx.get(f"{live_server}/api/games").json()}
    abstrac = games["abstrac"]
    assert abstrac["min_players"] == abstrac["max_players"] == 2
    assert abstrac["options"]["target"]["default"] == 500
