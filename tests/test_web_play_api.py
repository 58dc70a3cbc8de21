"""The Play view's API (``/api/play/...``) through Starlette's test client, and its game store.

A game played through the API writes the log ``fantasyland play`` writes for the same seed
and moves, byte for byte; a move that is not legal, a game the server does not hold, a step
out of turn are each HTTP 400 in one line, and the game goes on; a Fantasyland hand is set
and graded; the store keeps games bounded in count and age, one request a game at a time.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from fantasyland.cli.web.app import Settings, create_app
from fantasyland.cli.web.games import GameBusy, Games, NoGame

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    history = tmp_path_factory.mktemp("serve") / "history.sqlite3"
    with TestClient(create_app(Settings(history=history, workers=1))) as client:
        yield client


def _ok(answer) -> dict:
    assert answer.status_code == 200, answer.text
    return answer.json()


def _refused(answer, status: int = 400) -> str:
    assert answer.status_code == status, answer.text
    data = answer.json()
    assert list(data) == ["error"] and "\n" not in data["error"]
    assert "Traceback" not in data["error"]
    return data["error"]


def _start(client, **fields) -> tuple[str, dict]:
    answer = _ok(client.post("/api/play/start", json={"variant": "pineapple",
                                                      "objective": "royalties"} | fields))
    return answer["game"], answer["view"]


def _to_showdown(client, game: str) -> dict:
    while True:
        answer = _ok(client.post("/api/play/move", json={"game": game, "move": "="}))
        if answer["view"]["showdown"] is not None:
            return answer


def test_a_game_through_the_api_writes_the_terminal_s_log_byte_for_byte(client, tmp_path):
    game, view = _start(client, seed=5)
    assert view["hand"] == 1 and view["turn"]["street"] == 1
    first = _to_showdown(client, game)
    assert first["history"][-1]["number"] == 1 and "hand_id" in first
    _ok(client.post("/api/play/next", json={"game": game}))
    second = _to_showdown(client, game)
    assert [row["number"] for row in second["history"]] == [1, 2]
    assert second["view"]["figures"]["hands"] == 2
    assert second["view"]["points"] == [row["points"] for row in second["history"]]
    served = client.get(f"/api/play/log?game={game}")
    assert served.status_code == 200
    assert served.headers["content-type"].startswith("application/x-ndjson")
    log = tmp_path / "session.jsonl"
    done = subprocess.run(
        [sys.executable, "-m", "fantasyland.cli.main", "play", "--variant", "pineapple",
         "--objective", "royalties", "--seed", "5", "--hands", "2", "--log", str(log),
         "--history", str(tmp_path / "history.sqlite3")],
        input="=\n" * 40, cwd=REPO, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert served.content == log.read_bytes()


def test_a_move_that_is_not_legal_is_400_in_one_line_and_the_game_goes_on(client):
    game, view = _start(client, seed=6)
    dealt = view["turn"]["cards"]
    absent = next(c for c in ("As", "Kd", "2c", "7h") if c not in dealt)
    said = _refused(client.post("/api/play/move", json={"game": game, "move": f"{absent} top"}))
    assert absent in said and "dealt" in said
    _refused(client.post("/api/play/move", json={"game": game, "move": "nonsense"}))
    # A whole set on a street is not a play, and four cards on the top row do not fit.
    _refused(client.post("/api/play/move", json={"game": game, "move": " ".join(
        f"{card} top" for card in dealt)}))
    after = _ok(client.post("/api/play/move", json={"game": game, "move": " ".join(
        f"{card} {row}" for card, row in zip(dealt, ("top", "middle", "middle", "bottom",
                                                     "bottom")))}))
    assert after["view"]["turn"]["street"] == 2
    me = after["view"]["seats"][0]["rows"]
    assert sorted(me["top"] + me["middle"] + me["bottom"]) == sorted(dealt)


def test_steps_out_of_turn_and_games_not_held_are_400(client):
    game, _ = _start(client, seed=8)
    said = _refused(client.post("/api/play/next", json={"game": game}))
    assert "is not over" in said
    _to_showdown(client, game)
    assert "is over" in _refused(client.post("/api/play/move", json={"game": game,
                                                                     "move": "="}))
    assert "is over" in _refused(client.post("/api/play/hint", json={"game": game}))
    assert "no game" in _refused(client.post("/api/play/move", json={"game": "0" * 24,
                                                                     "move": "="}))
    assert "24 hex digits" in _refused(client.post("/api/play/hint", json={"game": "../x"}))
    assert "no game" in _refused(client.get("/api/play/log?game=" + "f" * 24))
    assert "bad opponents" in _refused(client.post("/api/play/start", json={
        "variant": "pineapple", "opponents": 3}))
    assert "no streets" in _refused(client.post("/api/play/start", json={"variant": "chinese"}))
    assert "Fantasyland size" in _refused(client.post("/api/play/start", json={
        "variant": "pineapple", "fantasyland": 16}))


def test_a_fantasyland_hand_is_set_and_graded_against_the_solver(client):
    game, view = _start(client, seed=9, fantasyland=14)
    turn = view["turn"]
    assert turn["fantasyland"] and len(turn["cards"]) == 14 and turn["keep"] == 13
    hint = _ok(client.post("/api/play/hint", json={"game": game}))["hint"]
    assert hint["kind"] == "set"
    assert "bad set" in _refused(client.post("/api/play/move", json={
        "game": game, "move": " ".join(turn["cards"][:3]) + " / x / y"}))
    rows = " / ".join(" ".join(hint["board"][row]) for row in ("top", "middle", "bottom"))
    answer = _ok(client.post("/api/play/move", json={"game": game, "move": rows}))
    down = answer["view"]["showdown"]
    assert down["set"]["optimal"] is True and down["streets"] == []
    assert down["seats"][0]["fantasyland"] == 14
    assert answer["view"]["figures"]["fantasyland_hands"] == 1


def test_a_hint_answers_the_street_and_the_move_after_it_is_graded_by_it(client):
    game, _ = _start(client, seed=10)
    hint = _ok(client.post("/api/play/hint", json={"game": game}))["hint"]
    assert hint["kind"] == "plays" and hint["plays"] == 232 and 1 <= len(hint["ranked"]) <= 8
    best = hint["ranked"][0]["play"]
    answer = _ok(client.post("/api/play/move", json={"game": game, "move": best}))
    assert answer["view"]["turn"]["street"] == 2
    down = _to_showdown(client, game)["view"]["showdown"]
    assert down["streets"][0]["play"] == best and down["streets"][0]["ev_lost"] == 0


# --- the store ---------------------------------------------------------------------------

class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_the_store_keeps_at_most_its_count_letting_go_of_the_game_unused_longest():
    games = Games(most=3, idle=100, clock=Clock())
    ids = [games.add(b"%d" % i, []) for i in range(3)]
    games.get(ids[0])  # used: the second is now the one unused longest
    fourth = games.add(b"3", [])
    assert len(games) == 3
    with pytest.raises(NoGame):
        games.get(ids[1])
    assert games.get(ids[0]).state == b"0" and games.get(fourth).state == b"3"


def test_the_store_lets_go_of_a_game_unused_too_long_but_not_of_one_mid_request():
    clock = Clock()
    games = Games(most=3, idle=100, clock=clock)
    old, busy = games.add(b"old", []), games.add(b"busy", [])
    kept = games.take(busy)
    with pytest.raises(GameBusy):
        games.take(busy)
    clock.now = 150
    games.add(b"new", [])
    with pytest.raises(NoGame):
        games.get(old)
    games.release(kept)
    assert games.take(busy).state == b"busy"
    # A full store of games mid-request keeps them all rather than cut one off.
    full = Games(most=1, idle=100, clock=Clock())
    first = full.take(full.add(b"a", []))
    full.add(b"b", [])
    assert len(full) == 2 and first.busy
