"""The real server process: many clients at once, a client that leaves, and a kill.

Each test starts ``fantasyland serve`` as a user does (``tests/serving.py``) and talks to it
over loopback HTTP.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import time

import pytest

from fantasyland.evaluator import find_rules
from fantasyland.optimizer import solve
from fantasyland.optimizer.solver.table import Sample
from tests.load_serve import run_load
from tests.serving import serve_process, stop


def _until(check, seconds: float = 60.0, what: str = "") -> None:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {seconds:g} s: {what}")
        time.sleep(0.2)


def test_200_solves_from_20_clients_are_each_answered_with_their_own_hand(tmp_path):
    with serve_process(tmp_path, "--workers", "2") as server:
        load = run_load(server, solves=200, clients=20)
        status = server.get("status")[1]
    print("\nload test:", load.summary())
    assert len(load.answers) == 200 and all(load.answers)
    assert status["replaced"] == 0 and status["idle"] == 2
    # The answers are the solver's: every tenth against the library called here.
    rules = find_rules("pineapple")
    for i in range(0, 200, 10):
        expected = solve(load.hands[i], variant=rules, objective="ev",
                         sample=Sample(samples=200, seed=i))
        assert load.answers[i]["value"] == pytest.approx(expected.value, abs=1e-6), i
    # A bound on the time, loose enough for a loaded 2-core machine, tight enough to catch
    # requests that run one at a time with a worker sitting idle.
    assert load.wall < 240, load.summary()


def test_a_client_that_leaves_mid_solve_leaves_no_worker_stuck(tmp_path):
    with serve_process(tmp_path, "--workers", "1") as server:
        host, port = server.url.removeprefix("http://").rstrip("/").split(":")
        body = json.dumps({"board": " / / ", "cards": "Kd Qs 3h 4c 5d"}).encode()  # slow
        with socket.create_connection((host, int(port))) as client:
            client.sendall(b"POST /api/advise HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                           b"Content-Type: application/json\r\n"
                           + f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
            _until(lambda: server.get("status")[1]["idle"] == 0, 30, "the worker took the job")
        # The client is gone: its worker is replaced, and the replacement takes jobs.
        _until(lambda: server.get("status")[1] == {
            "workers": 1, "limit": 60.0, "alive": 1, "idle": 1, "replaced": 1}, 90,
            "the worker replaced and idle")
        status, answer = server.post("solve", {"cards": "As Ks Qs Js Ts 9h 9d 9c 8h 8d 7c 7d "
                                                        "2s", "objective": "royalties"})
        assert status == 200 and answer["status"] == "optimal"


def _group_gone(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return True
    return False


def test_the_training_history_survives_a_killed_server(tmp_path):
    history = tmp_path / "history.sqlite3"
    graded = []
    with serve_process(tmp_path, "--workers", "1", history=history) as server:
        for number in (1, 2):
            deal = server.post("train/deal", {"seed": 5, "number": number})[1]
            cards = deal["cards"]
            played = f"{' '.join(cards[:3])} / {' '.join(cards[3:8])} / {' '.join(cards[8:13])}"
            status, answer = server.post("train/grade", {
                "session": "killed", "seed": 5, "number": number, "set": played})
            assert status == 200, answer
            graded.append((answer["hand_id"], answer["grade"]["ev_lost"], played))
        # Between hands, the server is killed outright: no shutdown, no chance to flush.
        os.kill(server.process.pid, signal.SIGKILL)
        server.process.wait(timeout=15)
        # Its workers see the pipe close and end on their own.
        _until(lambda: _group_gone(server.process.pid), 30, "the workers ended")
        stop(server.process)
    with serve_process(tmp_path, "--workers", "1", history=history) as server:
        hands = server.get("train/history?limit=10")[1]["hands"]
        found = [(h["id"], h["ev_lost"], h["set"]) for h in reversed(hands)]
        assert found == graded
        assert server.get("train/history")[1]["sessions"][0]["hands"] == 2


def test_a_port_in_use_is_one_line_and_exit_code_2(tmp_path):
    import subprocess
    import sys

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        result = subprocess.run([sys.executable, "-m", "fantasyland.cli.main", "serve",
                                 "--port", str(port), "--history", str(tmp_path / "h.sqlite3")],
                                capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert result.stderr.startswith(f"error: cannot listen on 127.0.0.1:{port}: ")
    assert len(result.stderr.splitlines()) == 1 and "--port" in result.stderr


def test_open_without_a_browser_says_so_and_gives_the_address(tmp_path, monkeypatch):
    monkeypatch.setenv("BROWSER", "false")  # a browser command that fails, as with none
    with serve_process(tmp_path, "--workers", "1", "--open") as server:
        _until(lambda: any("no browser could be opened" in line for line in server.output),
               30, "the note")
        note = next(line for line in server.output if "no browser" in line)
        assert note.strip() == f"note: no browser could be opened; open {server.url} in one"


def test_any_loopback_address_is_loopback_and_keeps_the_host_check(tmp_path):
    with serve_process(tmp_path, "--workers", "1", "--host", "127.0.0.2") as server:
        assert server.url.startswith("http://127.0.0.2:")
        assert not any("note:" in line for line in server.output), server.output
        port = int(server.url.rstrip("/").rsplit(":", 1)[1])

        def status_for(host: str) -> bytes:
            with socket.create_connection(("127.0.0.2", port), timeout=30) as client:
                client.sendall(f"GET /api/status HTTP/1.1\r\nHost: {host}\r\n"
                               "Connection: close\r\n\r\n".encode())
                return client.recv(100).split(b"\r\n")[0]

        assert status_for("evil.example") == b"HTTP/1.1 400 Bad Request"  # a rebound name
        assert status_for(f"127.0.0.2:{port}") == b"HTTP/1.1 200 OK"
        assert status_for(f"localhost:{port}") == b"HTTP/1.1 200 OK"
