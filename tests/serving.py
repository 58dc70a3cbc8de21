"""A real ``fantasyland serve`` in a process of its own, for the tests that need one.

``serve_process(tmp_path)`` starts it on a free loopback port with its history in
``tmp_path``, waits for the line that gives its address, and stops it at the end. The
browser tests, the load test and the kill test all use it.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

#: A server on this machine loads the solver in each worker before it answers.
STARTUP = 120.0


@dataclass
class Server:
    url: str  # "http://127.0.0.1:41234/"
    process: subprocess.Popen
    history: Path
    output: list[str]  # what the server printed, read as it goes so the pipe never fills

    def post(self, path: str, body: object, timeout: float = 120.0,
             source: str | None = None) -> tuple[int, dict]:
        """POST ``body`` as JSON to ``/api/<path>``: the status and the JSON answer. From the
        loopback address ``source`` where given: the server queues jobs client by client,
        by address, so clients of a load test each come from one of their own."""
        data = json.dumps(body).encode()
        headers = {"Content-Type": "application/json"}
        if source is None:
            request = urllib.request.Request(self.url + "api/" + path, data=data,
                                             headers=headers)
            return _answer(request, timeout)
        host, port = self.url.removeprefix("http://").rstrip("/").split(":")
        connection = http.client.HTTPConnection(host, int(port), timeout=timeout,
                                                source_address=(source, 0))
        try:
            connection.request("POST", "/api/" + path, body=data, headers=headers)
            response = connection.getresponse()
            return response.status, json.loads(response.read())
        finally:
            connection.close()

    def get(self, path: str, timeout: float = 30.0) -> tuple[int, dict]:
        return _answer(urllib.request.Request(self.url + "api/" + path), timeout)


def _answer(request: urllib.request.Request, timeout: float) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


@contextmanager
def serve_process(tmp_path: Path, *extra: str, history: Path | None = None
                  ) -> Iterator[Server]:
    """A running server (``extra``: more ``serve`` options); stopped at the end."""
    history = history or tmp_path / "history.sqlite3"
    command = [sys.executable, "-m", "fantasyland.cli.main", "serve", "--port", "0", "--history",
               str(history), *extra]
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    process = subprocess.Popen(command, cwd=REPO, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, env=env,
                               start_new_session=True)
    try:
        url, output = _address(process)
        threading.Thread(target=_drain, args=(process, output), daemon=True).start()
        yield Server(url, process, history, output)
    finally:
        stop(process)


def _drain(process: subprocess.Popen, output: list[str]) -> None:
    try:
        output.extend(iter(process.stdout.readline, ""))  # type: ignore[union-attr]
    except (ValueError, OSError):  # closed by stop()
        pass


def _address(process: subprocess.Popen) -> tuple[str, list[str]]:
    """The address from the server's first line; fails with what it printed if none."""
    assert process.stdout is not None
    seen = []
    deadline = time.monotonic() + STARTUP
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        seen.append(line)
        found = re.search(r"fantasyland serve: (http://\S+/)", line)
        if found:
            return found.group(1), seen
    stop(process)
    raise AssertionError("the server did not start:\n" + "".join(seen))


def stop(process: subprocess.Popen, kill: bool = False) -> None:
    """Stop the server and its workers: SIGTERM (or SIGKILL), then SIGKILL if it lingers."""
    if process.poll() is None:
        try:
            os.killpg(process.pid, signal.SIGKILL if kill else signal.SIGTERM)
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=15)
        except ProcessLookupError:
            pass
    if process.stdout is not None:
        try:
            process.stdout.close()
        except OSError:
            pass
