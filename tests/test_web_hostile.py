"""The web API under hostile requests, through Starlette's test client: a write from another
site's page, bodies built to break a reader, and arbitrary JSON to every endpoint. Each is
refused with one line (400, 403 or 415) and never a 500, and writes nothing. A body that
never comes needs a real connection: uvicorn runs in this process for it. The real server
process under idle sockets and load is tests/test_web_load.py's.
"""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import threading
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from fantasyland.cli.web import app as web_app
from fantasyland.cli.web import connections
from fantasyland.cli.web.api import ENDPOINTS
from fantasyland.cli.web.app import Settings, create_app

JSON = {"Content-Type": "application/json"}


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    history = tmp_path_factory.mktemp("hostile") / "history.sqlite3"
    app = create_app(Settings(history=history, workers=1, request_limit=20))
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


def _rows(client: TestClient) -> int:
    return len(client.get("/api/train/history?limit=1000").json()["hands"])


def _grade_body(client: TestClient, session: str) -> dict:
    cards = client.post("/api/train/deal", json={"seed": 3}).json()["cards"]
    played = f"{' '.join(cards[:3])} / {' '.join(cards[3:8])} / {' '.join(cards[8:13])}"
    return {"session": session, "seed": 3, "number": 1, "set": played,
            "objective": "royalties"}


def _one_line(answer, status: int) -> str:
    assert answer.status_code == status, answer.text
    data = answer.json()
    assert list(data) == ["error"] and "\n" not in data["error"]
    return data["error"]


# --- cross-site writes ------------------------------------------------------------------

def test_a_text_plain_post_from_another_origin_is_403_and_writes_nothing(client):
    body = json.dumps(_grade_body(client, "evil"))
    before = _rows(client)
    answer = client.post("/api/train/grade", content=body,
                         headers={"Content-Type": "text/plain",
                                  "Origin": "http://evil.example"})
    assert "another site" in _one_line(answer, 403)
    # Even as JSON, another origin is refused.
    answer = client.post("/api/train/grade", content=body,
                         headers=JSON | {"Origin": "http://evil.example"})
    assert "http://evil.example" in _one_line(answer, 403)
    assert _rows(client) == before


@pytest.mark.parametrize("kind", ["text/plain", "application/x-www-form-urlencoded",
                                  "multipart/form-data; boundary=x", None])
def test_a_post_that_is_not_json_is_415_and_writes_nothing(client, kind):
    body = json.dumps(_grade_body(client, "form"))
    before = _rows(client)
    answer = client.post("/api/train/grade", content=body,
                         headers={} if kind is None else {"Content-Type": kind})
    assert "expected application/json" in _one_line(answer, 415)
    assert _rows(client) == before


def test_the_server_s_own_page_may_post(client):
    before = _rows(client)
    answer = client.post("/api/train/grade", content=json.dumps(_grade_body(client, "own")),
                         headers={"Content-Type": "application/json; charset=utf-8",
                                  "Origin": "http://testserver"})
    assert answer.status_code == 200, answer.text
    assert _rows(client) == before + 1


# --- bad input that broke a reader: 400 and one line, nothing in the log ------------------

def _nested(depth: int) -> bytes:
    return b'{"cards": ' + b"[" * depth + b"]" * depth + b"}"


#: Rules text nested 20,000 deep, on lines short enough for the rules reader (it refuses a
#: line over 4,096 characters before it parses), so that the nesting itself is what it meets.
DEEP_RULES = ("a = " + "\n".join(["[" * 2_000] * 10) + "\n" + "\n".join(["]" * 2_000] * 10))


@pytest.mark.parametrize("path, body, says", [
    ("/api/solve", _nested(60_000), "nested too deeply"),
    ("/api/score", _nested(60_000), "nested too deeply"),
    ("/api/solve", b'{"seed": ' + b"7" * 5_000 + b"}", "4,300 digits"),
    ("/api/solve", json.dumps({"cards": "As", "fl_value": 10**400}).encode(), "bad fl_value"),
    ("/api/rules", json.dumps({"rules": DEEP_RULES}).encode(),
     "rules: not valid TOML: arrays or tables nested too deeply"),
    ("/api/solve", json.dumps({"cards": "As Kd", "rules": DEEP_RULES}).encode(),
     "rules: not valid TOML: arrays or tables nested too deeply"),
    ("/api/advise", json.dumps({"board": "/ /", "cards": "Kd Qs 3h 4h 5h",
                                "entry_value": {"¹⁵": 2}}).encode(), "bad entry_value"),
], ids=["json-60000-deep", "json-60000-deep-light", "5000-digits", "fl-value-400-digits",
        "rules-20000-deep", "rules-20000-deep-worker", "superscript-entry-value"])
def test_a_body_built_to_break_a_reader_is_400_with_one_line(client, caplog, path, body,
                                                              says):
    with caplog.at_level(logging.WARNING):
        answer = client.post(path, content=body, headers=JSON)
    assert says in _one_line(answer, 400)
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]


@pytest.mark.parametrize("limit", ["¹⁵", "١٥", "9" * 5_000, "-1", ""])
def test_a_history_limit_that_is_not_ascii_digits_is_400(client, caplog, limit):
    with caplog.at_level(logging.WARNING):
        answer = client.get("/api/train/history", params={"limit": limit})
    assert "bad limit" in _one_line(answer, 400)
    assert not caplog.records


# --- a body that never comes ------------------------------------------------------------

#: Seconds the body may take in these tests, for the server's 30.
BODY_WITHIN = 1.0
#: Seconds past that the answer may take on a loaded machine; the old behaviour kept the
#: connection open until the client gave up, so no margin passes it.
MARGIN = 20.0


@pytest.fixture
def listening(tmp_path, monkeypatch):
    """The app served by uvicorn in a thread, with serve's connection protocol and a body
    limit of ``BODY_WITHIN``; its address. The workers are never started (no lifespan): a
    body that never arrives never reaches them."""
    import uvicorn

    monkeypatch.setattr(web_app, "BODY_WITHIN", BODY_WITHIN)
    app = create_app(Settings(history=tmp_path / "history.sqlite3", workers=1))
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    server = uvicorn.Server(uvicorn.Config(app, lifespan="off", log_level="warning",
                                           http=connections.Protocol,
                                           timeout_keep_alive=connections.KEEP_ALIVE))
    thread = threading.Thread(target=asyncio.run, args=(server.serve(sockets=[sock]),),
                              daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.01)
    yield sock.getsockname()
    server.should_exit = True
    thread.join(timeout=30)
    sock.close()


def _until_closed(client: socket.socket) -> bytes:
    """All the server sends until it closes the connection (the client's timeout fails the
    test if it never does)."""
    received = b""
    while chunk := client.recv(65536):
        received += chunk
    return received


def test_a_body_that_stops_coming_is_408_and_its_connection_closed(listening):
    with socket.create_connection(listening, timeout=BODY_WITHIN + MARGIN) as client:
        client.sendall(b"POST /api/train/deal HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                       b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n"
                       b'{"seed": 3')  # 10 bytes of the 100, then nothing
        started = time.monotonic()
        try:
            received = _until_closed(client)
        except TimeoutError:
            pytest.fail(f"the connection was still open {BODY_WITHIN + MARGIN:g} s later")
        waited = time.monotonic() - started
    head, _, body = received.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 408 "), received
    assert b"connection: close" in head.lower()
    assert json.loads(body) == {"error": "the request body did not arrive within 1 s: "
                                         "expected a whole JSON object"}
    assert BODY_WITHIN <= waited < BODY_WITHIN + MARGIN
    # The server answers the next client as before.
    with socket.create_connection(listening, timeout=MARGIN) as client:
        body = b'{"seed": 3}'
        client.sendall(b"POST /api/train/deal HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                       b"Content-Type: application/json\r\nConnection: close\r\n"
                       + f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
        assert _until_closed(client).startswith(b"HTTP/1.1 200 ")


# --- security headers on every answer ---------------------------------------------------

@pytest.mark.parametrize("method, path", [
    ("GET", "/"), ("GET", "/static/index.html"), ("GET", "/static/app.js"),
    ("GET", "/static/style.css"), ("GET", "/api/variants"), ("GET", "/api/status"),
    ("GET", "/api/train/history"), ("GET", "/nothing"), ("GET", "/api/solve"),
    ("POST", "/api/solve"), ("POST", "/api/rules")])
def test_every_answer_forbids_framing_and_sniffing_and_pins_its_sources(client, method,
                                                                         path):
    answer = client.request(method, path, content=b"{}", headers=JSON)
    assert answer.headers["x-frame-options"] == "DENY"
    assert answer.headers["x-content-type-options"] == "nosniff"
    policy = answer.headers["content-security-policy"]
    assert policy.startswith("default-src 'self'") and "frame-ancestors 'none'" in policy


def test_the_static_page_has_the_same_policy_as_the_root(client):
    root, static = client.get("/"), client.get("/static/index.html")
    assert root.text == static.text
    assert root.headers["content-security-policy"] == \
        static.headers["content-security-policy"]


# --- arbitrary JSON to every endpoint: never a 500 --------------------------------------

_SCALARS = (st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20)
            | st.sampled_from([10**400, -(10**400), 2**63, "As Kd Qh", "¹⁵", "15",
                               "pineapple", "/ /", "ev", "",
                               "As Ks Qs Js Ts 9h 9d 9c 8h 8d 7c 7d 2s"]))
_VALUES = st.recursive(_SCALARS, lambda inner: st.lists(inner, max_size=4)
                       | st.dictionaries(st.text(max_size=5) | st.sampled_from(["15", "¹⁵"]),
                                         inner, max_size=4), max_leaves=8)


def _bodies(fields) -> st.SearchStrategy:
    named = st.fixed_dictionaries({}, optional={name: _VALUES for name in fields})
    return named | _VALUES


@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=lambda endpoint: endpoint.path)
def test_arbitrary_json_to_an_endpoint_is_never_a_500(client, endpoint):
    @settings(max_examples=60, suppress_health_check=list(HealthCheck))
    @given(body=_bodies(endpoint.fields))
    def post(body):
        answer = client.post(f"/api/{endpoint.path}", content=json.dumps(body).encode(),
                             headers=JSON)
        assert answer.status_code in (200, 400, 504), (body, answer.text)
        if answer.status_code != 200:
            _one_line(answer, answer.status_code)

    post()


def test_an_arbitrary_history_limit_is_never_a_500(client):
    @settings(max_examples=100)
    @given(limit=st.text(max_size=8))
    def get(limit):
        answer = client.get("/api/train/history", params={"limit": limit})
        assert answer.status_code in (200, 400), (limit, answer.text)

    get()


# --- the history on a full disk, and a history that is not SQLite ------------------------

def test_a_grade_the_full_disk_cannot_store_is_answered_all_the_same(client, monkeypatch):
    import sqlite3

    from fantasyland.cli.web.history import History

    def full(*args):
        raise sqlite3.OperationalError("database or disk is full")  # SQLite's SQLITE_FULL

    body = _grade_body(client, "full-disk")
    before = _rows(client)
    monkeypatch.setattr(History, "_add", full)
    answer = client.post("/api/train/grade", json=body)
    assert answer.status_code == 200, answer.text
    graded = answer.json()
    assert set(graded) == {"grade", "unsaved"} and "ev_lost" in graded["grade"]
    assert graded["unsaved"].endswith(": database or disk is full")
    assert "not stored" in graded["unsaved"] and "\n" not in graded["unsaved"]
    monkeypatch.undo()
    assert _rows(client) == before


def test_a_history_that_is_not_sqlite_is_one_line_and_exit_code_2(tmp_path):
    import subprocess
    import sys

    text = tmp_path / "notes.txt"
    text.write_text("not a database, but a player's notes\n" * 100)
    result = subprocess.run([sys.executable, "-m", "fantasyland.cli.main", "serve", "--port",
                             "0", "--workers", "1", "--history", str(text)],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 2, result.stderr
    assert result.stderr == (f"error: cannot open the history {str(text)!r}: it is not a "
                             "SQLite database: give another --history\n")
    assert text.read_text() == "not a database, but a player's notes\n" * 100
