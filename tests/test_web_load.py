"""The real server under a greedy client and a flood of idle sockets, over loopback.

One client (127.0.0.1) keeps six slow ``advise`` jobs queued while another (127.0.0.2, the
same machine) solves: the queue is fair, so the solves do not wait behind the advice. Two
thousand sockets that never send a request do not stop a solve, and the server closes them
all. Each test is bounded in time; docs/serve.md gives the figures measured here.
"""

from __future__ import annotations

import http.client
import json
import selectors
import socket
import threading
import time

import pytest

from tests.serving import Server, serve_process

SLOW = {"board": " / / ", "cards": "Kd Qs 3h 4c 5d"}  # seconds of rollouts a request
SLOWEST = SLOW | {"budget": 100_000}  # minutes: it runs until its client leaves
HAND = "As Ks Qs Js Ts 9h 9d 9c 8h 8d 7c 7d 2s"


def _address(server: Server) -> tuple[str, int]:
    host, port = server.url.removeprefix("http://").rstrip("/").rsplit(":", 1)
    return host, int(port)


def _post(server: Server, path: str, body: dict, source: str,
          timeout: float = 120.0) -> tuple[int, dict]:
    """POST from the loopback address ``source``: the server tells clients by address."""
    host, port = _address(server)
    connection = http.client.HTTPConnection(host, port, timeout=timeout,
                                            source_address=(source, 0))
    try:
        connection.request("POST", "/api/" + path, json.dumps(body),
                           {"Content-Type": "application/json"})
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with serve_process(tmp_path_factory.mktemp("load"), "--workers", "2") as running:
        yield running


def test_a_solve_does_not_wait_behind_another_client_s_six_slow_jobs(server):
    stop = threading.Event()
    greedy: list[int] = []

    def keep_one_queued() -> None:  # one of the greedy client's six requests, again and again
        while not stop.is_set():
            greedy.append(_post(server, "advise", SLOW, "127.0.0.1")[0])

    threads = [threading.Thread(target=keep_one_queued) for _ in range(6)]
    for thread in threads:
        thread.start()
    try:
        deadline = time.monotonic() + 60
        while server.get("status")[1]["idle"] == 2:  # until the greedy client holds one
            assert time.monotonic() < deadline, "the slow jobs never started"
            time.sleep(0.05)
        latencies = []
        for seed in range(20):
            started = time.perf_counter()
            status, answer = _post(server, "solve", {"cards": HAND, "seed": seed,
                                                     "samples": 200}, "127.0.0.2")
            latencies.append(time.perf_counter() - started)
            assert status == 200, answer
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=180)
    p95 = sorted(latencies)[int(0.95 * len(latencies))]
    print(f"\nfair queue: 20 solves beside 6 queued advise jobs: median "
          f"{sorted(latencies)[10] * 1e3:,.0f} ms, p95 {p95 * 1e3:,.0f} ms, "
          f"{len(greedy)} advise answers")
    assert set(greedy) <= {200}, greedy  # six queued are within the client's share
    assert p95 < 2.0, latencies


def test_two_thousand_idle_connections_do_not_stop_a_solve_and_are_all_closed(server):
    host, port = _address(server)
    idle = []
    try:
        for _ in range(2000):
            idle.append(socket.create_connection((host, port), timeout=30))
        started = time.perf_counter()
        status, answer = _post(server, "solve", {"cards": HAND, "objective": "royalties"},
                               "127.0.0.2", timeout=30)
        answered = time.perf_counter() - started
        assert status == 200 and answer["status"] == "optimal", answer
        # The server closes every one of them (10 s for a request's headers; 60 s allowed).
        waiting = selectors.DefaultSelector()
        for sock in idle:
            waiting.register(sock, selectors.EVENT_READ)
        open_ = set(idle)
        deadline = time.monotonic() + 60
        while open_ and time.monotonic() < deadline:
            for key, _ in waiting.select(timeout=1.0):
                if key.fileobj.recv(1) == b"":
                    waiting.unregister(key.fileobj)
                    open_.discard(key.fileobj)
        closed_in = time.monotonic() - (deadline - 60)
        print(f"\nidle flood: a solve answered in {answered * 1e3:,.0f} ms beside 2,000 idle "
              f"sockets; all closed {closed_in:.1f} s after")
        assert not open_, f"{len(open_)} of 2,000 idle connections still open"
        assert server.post("solve", {"cards": HAND, "objective": "royalties"})[0] == 200
    finally:
        for sock in idle:
            sock.close()


def _send(server: Server, path: str, body: dict, source: str) -> socket.socket:
    """A socket from ``source`` that has sent a POST of ``body`` to ``/api/<path>``; its
    answer is read with ``_read``."""
    payload = json.dumps(body).encode()
    sock = socket.create_connection(_address(server), timeout=60, source_address=(source, 0))
    sock.sendall(f"POST /api/{path} HTTP/1.1\r\nHost: 127.0.0.1\r\n".encode()
                 + b"Content-Type: application/json\r\nConnection: close\r\n"
                 + f"Content-Length: {len(payload)}\r\n\r\n".encode() + payload)
    return sock


def _read(sock: socket.socket) -> tuple[int, http.client.HTTPMessage, dict]:
    """The answer on ``sock``: its status, its headers and its JSON body."""
    response = http.client.HTTPResponse(sock)
    response.begin()
    return response.status, response.headers, json.loads(response.read())


def test_a_client_past_its_share_of_the_queue_is_503_and_the_others_are_answered(server):
    # Two workers: the greedy client's jobs hold one, and 8 more of them wait; past that,
    # each of its requests is refused at once. None of its jobs ends while the test runs.
    sent = [_send(server, "advise", SLOWEST, "127.0.0.1") for _ in range(12)]
    try:
        waiting = selectors.DefaultSelector()
        for sock in sent:
            waiting.register(sock, selectors.EVENT_READ)
        refused = []
        deadline = time.monotonic() + 60
        while len(refused) < 3:
            assert time.monotonic() < deadline, f"{len(refused)} of 3 refused within 60 s"
            for key, _ in waiting.select(timeout=1.0):
                waiting.unregister(key.fileobj)
                refused.append(_read(key.fileobj))
        for status, headers, answer in refused:
            assert status == 503, answer
            assert headers["Retry-After"] == "2"
            assert answer == {"error": "this client's queue is full (8 waiting for a worker, "
                                       "the most the server queues for one client): try "
                                       "again in 2 s"}
        # Another client is answered while the greedy one's nine jobs still wait or run.
        status, answer = _post(server, "solve", {"cards": HAND, "objective": "royalties"},
                               "127.0.0.2", timeout=60)
        assert status == 200 and answer["status"] == "optimal", answer
        assert not waiting.select(timeout=0), "a queued job was answered: the queue was not full"
    finally:
        for sock in sent:
            sock.close()
    # The greedy client gone, its jobs are dropped and its worker replaced: both idle again.
    deadline = time.monotonic() + 180
    while (status := server.get("status")[1])["idle"] != 2:
        assert time.monotonic() < deadline, status
        time.sleep(0.2)
