"""The web API (``fantasyland serve``), through Starlette's HTTP test client.

Each endpoint answers what its CLI command prints with ``--json`` for the same input (the
same record functions, checked here against the library called directly), and every bad
input is HTTP 400 with the CLI's one line. The time limit and a job that fails are checked
on their own small apps. The real server process (the load, a disconnect, a kill) is
tests/test_web_server.py's.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from fantasyland.cli.web.app import Settings, create_app
from fantasyland.cli.web.workers import Pool
from fantasyland.evaluator import find_rules, load_rules
from fantasyland.evaluator.cards import card_name
from fantasyland.optimizer import solve
from fantasyland.optimizer.solver.record import solution_record
from fantasyland.optimizer.training.grading import grade, grade_record
from fantasyland.optimizer.training.session import Session
from fantasyland.optimizer.solver.table import Sample

HAND = "Ac Ah As Kd Qd Qh Ts 7c 7h 6d 5s 4s 3s 2s"
REVIEW = Path(__file__).resolve().parent.parent / "fixtures" / "review"


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    history = tmp_path_factory.mktemp("serve") / "history.sqlite3"
    with TestClient(create_app(Settings(history=history, workers=2))) as client:
        yield client


def _without_times(record: dict) -> dict:
    """A record without what the clock decides (the solve's milliseconds)."""
    return {k: v for k, v in record.items() if k not in ("solve_ms", "stats")}


def _refused(client: TestClient, path: str, body, status: int = 400) -> str:
    answer = client.post(path, json=body) if not isinstance(body, bytes) else \
        client.post(path, content=body, headers={"Content-Type": "application/json"})
    assert answer.status_code == status, answer.text
    data = answer.json()
    assert list(data) == ["error"]
    assert "\n" not in data["error"] and "Traceback" not in data["error"]
    return data["error"]


# --- each endpoint answers as its command does --------------------------------------------

def test_solve_answers_what_solve_json_prints(client):
    answer = client.post("/api/solve", json={"cards": HAND, "samples": 200, "seed": 4,
                                             "alternatives": 2})
    assert answer.status_code == 200, answer.text
    expected = solution_record(solve(HAND, variant="pineapple", objective="ev",
                                     alternatives=2, sample=Sample(samples=200, seed=4)))
    assert _without_times(answer.json()) == _without_times(json.loads(json.dumps(expected)))


def test_solve_takes_the_cards_as_a_list_and_the_table_fields(client):
    body = {"cards": HAND.split(), "variant": "progressive", "objective": "ev",
            "opponents": 2, "dead": "9c 9d", "against": ["Kh Kc / 8c 8d 8h / 2c"],
            "samples": 100}
    answer = client.post("/api/solve", json=body).json()
    assert answer["variant"] == "progressive"
    assert answer["ev"]["opponents"] == 2


def test_solve_under_royalties_is_the_exact_optimum(client):
    answer = client.post("/api/solve", json={"cards": HAND, "objective": "royalties"}).json()
    expected = solution_record(solve(HAND, variant="pineapple", objective="royalties"))
    assert (answer["top"], answer["middle"], answer["bottom"], answer["value"]) == (
        expected["top"], expected["middle"], expected["bottom"], expected["value"])


def test_check_answers_what_check_json_prints(client):
    played = "Kd Qh Qd / Ts 7h 7c 6d 5s / As Ah Ac 4s 3s"
    answer = client.post("/api/check", json={"cards": HAND, "set": played})
    assert answer.status_code == 200, answer.text
    expected = grade_record(grade(HAND, played, variant=find_rules("pineapple"), objective="ev"))
    assert _without_times(answer.json()) == _without_times(json.loads(json.dumps(expected)))


def test_a_rules_file_uploaded_as_text_is_the_rules_of_the_solve(client):
    text = 'base = "pineapple"\nname = "house"\n[fantasyland]\nrepeat_value = 30\n'
    answer = client.post("/api/solve", json={"cards": HAND, "rules": text,
                                             "objective": "royalties"}).json()
    assert answer["variant"] == "house" and answer["fl_value"] == 30


def test_the_rules_endpoint_reads_a_file_s_text_as_the_cli_reads_the_file(client, tmp_path):
    good = client.post("/api/rules", json={"rules": 'base = "progressive"\nname = "mine"'})
    assert good.json()["name"] == "mine"
    bad = '[royalties]\ntop = { "Pair of Sixes" = "x" }\n'
    message = _refused(client, "/api/rules", {"rules": bad})
    (tmp_path / "house.toml").write_text(bad)
    with pytest.raises(ValueError) as error:
        load_rules(tmp_path / "house.toml")
    assert message == str(error.value).replace("house.toml", "rules")


def test_a_training_hand_is_the_terminal_trainer_s_and_its_grade_is_stored(client):
    deal = client.post("/api/train/deal", json={"seed": 7, "number": 2}).json()
    session = Session("pineapple", "ev", seed=7)  # the defaults, as the CLI's train plays
    session.deal()
    second = session.deal()
    assert deal["cards"] == _names(second.cards) and deal["variant"] == "pineapple"
    optimal = _set_text(solution_record(session.solution()))
    body = {"session": "test-a", "seed": 7, "number": 2, "set": optimal}
    graded = client.post("/api/train/grade", json=body).json()
    assert graded["grade"]["is_optimal"] and graded["grade"]["ev_lost"] == 0
    assert graded["score"]["hands"] == 1 and graded["score"]["optimal"] == 1
    history = client.get("/api/train/history?limit=5").json()
    assert history["hands"][0]["id"] == graded["hand_id"]
    assert history["hands"][0]["set"] == optimal
    assert any(s["session"] == "test-a" and s["hands"] == 1 for s in history["sessions"])


def _names(cards) -> list[str]:
    return [card_name(card, ascii=True) for card in cards]


def _set_text(record: dict) -> str:
    return " / ".join(" ".join(record[row]) for row in ("top", "middle", "bottom"))


def test_a_deal_without_a_seed_says_the_seed_it_chose(client):
    first = client.post("/api/train/deal", json={}).json()
    again = client.post("/api/train/deal", json={"seed": first["seed"]}).json()
    assert first["cards"] == again["cards"]


def test_the_running_score_adds_a_session_s_hands(client):
    deal = client.post("/api/train/deal", json={"seed": 11}).json()
    cards = deal["cards"]
    fouled = f"{' '.join(cards[:3])} / {' '.join(cards[8:13])} / {' '.join(cards[3:8])}"
    for number in (1, 1):
        graded = client.post("/api/train/grade", json={
            "session": "test-b", "seed": 11, "number": number, "set": fouled}).json()
    assert graded["score"]["hands"] == 2
    assert graded["score"]["fouls"] == 2 * graded["grade"]["fouled"]


def test_advise_answers_what_advise_json_prints(client):
    from fantasyland.optimizer.ordinary.advise import advise
    from fantasyland.optimizer.ordinary.record import advice_record

    board, cards = "Qh Qd / 7c 8c 9c Tc / 2s 2d 5h", "Kd 3h 4c"  # the last street: exact
    answer = client.post("/api/advise", json={"board": board, "cards": cards,
                                              "samples": 200})
    assert answer.status_code == 200, answer.text
    expected = advice_record(advise(find_rules("pineapple"), board, cards,
                                    sample=Sample(samples=200)))
    assert answer.json() == json.loads(json.dumps(expected))


def test_score_and_review_answer_as_their_commands(client):
    scored = client.post("/api/score", json={
        "board": "6s 6c 4h / Td Ts 9c Qs 8c / 3h 3d 3s 2h 2d"}).json()
    assert scored["fouled"] is False and scored["royalties"]["total"] > 0
    text = (REVIEW / "bad-lines.jsonl").read_text()
    reviewed = client.post("/api/review", json={"history": text, "budget": 32,
                                                "objective": "royalties"}).json()
    assert reviewed["summary"]["bad_lines"] == len(reviewed["bad_lines"]) > 0


def test_variants_lists_every_preset_with_what_the_page_offers(client):
    listed = {v["name"]: v for v in client.get("/api/variants").json()["variants"]}
    assert listed["double-deck"]["copies"] == 2 and listed["pineapple-joker"]["jokers"] > 0
    assert listed["chinese"]["ordinary"] is False and listed["chinese"]["fantasyland"] is False
    assert listed["progressive"]["fantasyland_sizes"] == [14, 15, 16, 17]
    assert listed["standard"]["fantasyland_sizes"] == [13]


def test_the_page_and_its_files_are_served_with_a_strict_content_policy(client):
    page = client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert page.headers["content-security-policy"].startswith("default-src 'self'")


# --- bad input: HTTP 400, the CLI's one line ----------------------------------------------

@pytest.mark.parametrize("body, says", [
    ({"cards": HAND.replace("3s", "3x")}, "bad card '3x'"),
    ({"cards": HAND.replace("3s", "As")}, "'As'"),
    ({"cards": "As Kd"}, "13"),
    ({"cards": HAND, "variant": "holdem"}, "unknown variant 'holdem'"),
    ({"cards": HAND, "variant": "/etc/hosts"}, "unknown variant '/etc/hosts'"),
    ({"cards": HAND, "rules": "base = "}, "rules: not valid TOML"),
    ({"cards": HAND, "rules": 'base = "pineapple"\nroyalty = 1'}, "royalty"),
    ({"cards": HAND, "samples": 0}, "bad samples 0"),
    ({"cards": HAND, "seed": "x"}, "bad seed \"x\""),
    ({"cards": HAND, "objective": "max"}, "bad objective \"max\""),
    ({"cards": HAND, "opponents": 4}, "bad opponents 4"),
    ({"cards": HAND, "cards2": 1}, "unknown field 'cards2'"),
    ({}, "missing field 'cards'"),
    ({"cards": HAND, "against": ["Kh Kc / 8c 8d 8h / As"]}, "As"),
    ({"cards": HAND, "objective": "royalties", "dead": "9c"}, "ev"),
], ids=lambda value: value if isinstance(value, str) else None)
def test_bad_solve_input_is_400_with_one_line(client, body, says):
    assert says in _refused(client, "/api/solve", body)


def test_a_body_that_is_not_a_json_object_is_400(client):
    assert "not JSON" in _refused(client, "/api/solve", b"{cards: 1")
    assert "JSON object" in _refused(client, "/api/solve", ["As"])
    assert "UTF-8" in _refused(client, "/api/solve", b"\xff\xfe")


def test_an_oversized_body_is_refused_before_it_is_read(client):
    big = json.dumps({"cards": HAND, "rules": "#" * 300_000}).encode()
    assert "the server's limit" in _refused(client, "/api/solve", big)

    def chunks():  # no Content-Length: the limit counts what arrives
        for _ in range(100):
            yield b" " * 10_000

    answer = client.post("/api/solve", content=chunks(),
                         headers={"Content-Type": "application/json"})
    assert answer.status_code == 400 and "over 262,144 bytes" in answer.json()["error"]


def _padded_to(size: int) -> bytes:
    """A score request of exactly ``size`` bytes: its JSON followed by spaces."""
    body = json.dumps({"board": "6s 6c 4h / Td Ts 9c Qs 8c / 3h 3d 3s 2h 2d"}).encode()
    return body + b" " * (size - len(body))


def test_a_body_of_exactly_the_limit_is_read_and_one_byte_more_is_refused(client):
    limit = Settings(history=Path()).body_limit
    for size, status in ((limit, 200), (limit + 1, 400)):
        body = _padded_to(size)
        # once with its Content-Length, once sent in chunks without one
        sized = client.post("/api/score", content=body,
                            headers={"Content-Type": "application/json"})
        chunked = client.post("/api/score", content=iter([body[:size // 2], body[size // 2:]]),
                              headers={"Content-Type": "application/json"})
        for answer in (sized, chunked):
            assert answer.status_code == status, (size, answer.text)
            if status == 200:
                assert answer.json()["royalties"]["total"] == 7
            else:
                assert "the server's limit" in answer.json()["error"]


@pytest.mark.parametrize("path, body, says", [
    ("/api/check", {"cards": HAND, "set": "Kd Qh / Qd Ts 7h 7c 6d 5s / As Ah Ac 4s 3s"},
     "top"),
    ("/api/check", {"cards": HAND, "set": "2c Qh Qd / Ts 7h 7c 6d 5s / As Ah Ac 4s 3s"}, "2c"),
    ("/api/advise", {"board": "Qh / 7c 8c /", "cards": "Kd Qs"}, "3"),
    ("/api/advise", {"board": "Qh Qd Qs Qc / / ", "cards": "Kd Qs 3h"}, "top"),
    ("/api/advise", {"board": "/ /", "cards": "Kd Qs 3h 4h 5h", "variant": "chinese"},
     "chinese"),
    ("/api/advise", {"board": "/ /", "cards": "Kd Qs 3h 4h 5h", "entry_value": {"19": 2}},
     "entry_value"),
    ("/api/train/deal", {"number": 0}, "bad number 0"),
    ("/api/train/grade", {"session": "a b", "seed": 1, "number": 1, "set": "x"},
     "bad session"),
    ("/api/train/grade", {"session": "s", "seed": 1, "number": 1, "set": "As / Kd / 2c"},
     "As"),
    ("/api/score", {"board": "As Ks / Qd / 2c"}, "top"),
    ("/api/review", {"history": "\n"}, "no street"),
    ("/api/rules", {"rules": "name = 'x'"}, "no base"),
])
def test_bad_input_to_each_endpoint_is_400_with_one_line(client, path, body, says):
    assert says in _refused(client, path, body)


def test_unknown_paths_and_wrong_methods_answer_json(client):
    assert "no such page" in _refused(client, "/api/nothing", {}, status=404)
    answer = client.get("/api/solve")
    assert answer.status_code == 405 and "POST" in answer.json()["error"]
    assert "bad limit" in client.get("/api/train/history?limit=0").json()["error"]


# --- the time limit, and faults -----------------------------------------------------------

def test_a_request_past_the_time_limit_is_504_and_its_worker_is_replaced(tmp_path):
    settings = Settings(history=tmp_path / "h.sqlite3", workers=1, request_limit=1.0)
    with TestClient(create_app(settings)) as client:
        # the first street against two opponents' 100,000 boards: seconds on any machine
        slow = client.post("/api/advise", json={"board": " / / ", "cards": "Kd Qs 3h 4c 5d",
                                                "opponents": 2, "samples": 100_000,
                                                "budget": 100_000})
        assert slow.status_code == 504 and "1 s" in slow.json()["error"]
        status = client.get("/api/status").json()
        assert status["replaced"] == 1
        # The replacement takes the next job: a solve still answers.
        quick = client.post("/api/solve", json={"cards": HAND, "objective": "royalties"})
        assert quick.status_code == 200
        assert client.get("/api/status").json() | {"limit": 1.0} == {
            "workers": 1, "limit": 1.0, "alive": 1, "idle": 1, "replaced": 1}


def test_a_request_s_time_limit_is_capped_at_the_server_s(tmp_path, monkeypatch):
    import fantasyland.cli.web.app as app_module

    sent = []

    class Recording(Pool):  # the fields each job is sent to a worker with
        async def run(self, job, fields, gone, client=""):
            sent.append(dict(fields))
            return await super().run(job, fields, gone, client=client)

    monkeypatch.setattr(app_module, "Pool", Recording)
    settings = Settings(history=tmp_path / "h.sqlite3", workers=1, request_limit=5.0)
    with TestClient(create_app(settings)) as client:
        for asked in (600, 2.5):
            answer = client.post("/api/solve", json={"cards": HAND, "objective": "royalties",
                                                     "time_limit": asked})
            assert answer.status_code == 200, answer.text
    assert [fields["time_limit"] for fields in sent] == [5.0, 2.5]


def test_a_fault_in_a_job_is_500_with_one_line_and_no_traceback(client, monkeypatch):
    from fantasyland.cli.web import jobs

    def broken(fields):
        raise RuntimeError("a bug")

    monkeypatch.setitem(jobs.JOBS, "score", broken)  # a light job: it runs in this process
    # As a real server does, answer the client rather than raise the fault in the test.
    board = "As Ks Qs / 2c 3c 4c 5c 7d / 8h 8d 8s 9c 9d"
    answer = TestClient(client.app, raise_server_exceptions=False).post(
        "/api/score", json={"board": board})
    assert answer.status_code == 500
    assert answer.json() == {"error": "internal error: RuntimeError (the server's log has the "
                                      "details)"}


def test_a_worker_answers_a_fault_as_the_traceback_s_last_line_only():
    async def run() -> tuple[str, str]:
        pool = Pool(1, 30.0)
        await pool.start()
        try:
            async def here() -> bool:
                return False

            return await pool.run("no-such-job", {}, here)
        finally:
            await pool.close()

    status, detail = asyncio.run(run())
    assert status == "fault" and detail.strip().splitlines()[-1] == "KeyError: 'no-such-job'"


def test_a_get_endpoint_asked_by_post_says_it_takes_get(client):
    assert "it takes GET" in _refused(client, "/api/status", {}, status=405)


def test_the_history_keeps_the_set_in_plain_card_names_however_it_was_typed(client):
    deal = client.post("/api/train/deal", json={"seed": 21}).json()
    cards = [card.replace("T", "10") for card in deal["cards"]]
    typed = f"{' '.join(cards[:3])} / {' '.join(cards[3:8])} / {' '.join(cards[8:13])}"
    client.post("/api/train/grade", json={"session": "typed", "seed": 21, "number": 1,
                                          "set": typed.lower()})
    stored = client.get("/api/train/history?limit=1").json()["hands"][0]["set"]
    assert sorted(stored.replace("/", " ").split()) == sorted(deal["cards"][:13])


def test_a_session_that_changes_its_objective_is_scored_once_for_each(client):
    deal = client.post("/api/train/deal", json={"seed": 31}).json()["cards"]
    played = f"{' '.join(deal[:3])} / {' '.join(deal[3:8])} / {' '.join(deal[8:13])}"
    for objective in ("royalties", "ev", "ev"):
        graded = client.post("/api/train/grade", json={
            "session": "mixed", "seed": 31, "number": 1, "set": played,
            "objective": objective}).json()
    assert graded["score"]["hands"] == 2  # the two under ev, not the one in royalty points
    mixed = [s for s in client.get("/api/train/history").json()["sessions"]
             if s["session"] == "mixed"]
    assert [(s["objective"], s["hands"]) for s in mixed] == [("royalties", 1), ("ev", 2)]


def test_a_training_grade_under_ev_takes_the_trainer_s_opponents_and_samples(client):
    from fantasyland.optimizer import TableSpec

    session = Session("progressive", "ev", seed=9, samples=100, table=TableSpec(2))
    session.deal()
    optimal = _set_text(solution_record(session.solution()))
    expected = grade_record(session.play(optimal))
    graded = client.post("/api/train/grade", json={
        "session": "ev-two", "seed": 9, "number": 1, "set": optimal, "objective": "ev",
        "opponents": 2, "samples": 100, "variant": "progressive"}).json()
    assert _without_times(graded["grade"]) == _without_times(json.loads(json.dumps(expected)))


def test_a_worker_that_died_while_idle_is_replaced_and_the_request_told(tmp_path):
    settings = Settings(history=tmp_path / "h.sqlite3", workers=1)
    with TestClient(create_app(settings)) as client:
        pool = client.app.state.pool
        [worker] = list(pool._all)
        worker.process.kill()  # as the kernel's out-of-memory killer would
        worker.process.join(timeout=10)
        died = client.post("/api/solve", json={"cards": HAND, "objective": "royalties"})
        assert died.status_code == 500 and "try again" in died.json()["error"]
        again = client.post("/api/solve", json={"cards": HAND, "objective": "royalties"})
        assert again.status_code == 200 and client.get("/api/status").json()["replaced"] == 1


def test_a_client_past_its_share_of_the_queue_is_refused_at_once():
    from fantasyland.cli.web.api import ENDPOINTS
    from fantasyland.cli.web.fields import read_fields
    from fantasyland.cli.web.workers import Full

    [endpoint] = [e for e in ENDPOINTS if e.job == "advise"]
    slow = read_fields({"board": " / / ", "cards": "Kd Qs 3h 4c 5d"}, endpoint.fields)

    async def run() -> str:
        pool = Pool(1, 30.0, per_client=1)
        await pool.start()

        async def here() -> bool:
            return False

        running = asyncio.create_task(pool.run("advise", slow, here,
                                               client="a"))  # takes the worker
        waiting = asyncio.create_task(pool.run("advise", slow, here, client="a"))  # waits for it
        await asyncio.sleep(0)  # both tasks reach their first wait
        try:
            with pytest.raises(Full) as refused:
                await pool.run("advise", slow, here, client="a")
            return str(refused.value)
        finally:
            for task in (running, waiting):
                task.cancel()
            await asyncio.gather(running, waiting, return_exceptions=True)
            await pool.close()

    assert asyncio.run(run()) == ("this client's queue is full (1 waiting for a worker, the "
                                  "most the server queues for one client)")


def test_fields_serve_each_bound_the_server_checks_and_the_defaults_it_plays(client):
    """The page's forms take their bounds and hints from /api/fields: each served bound is
    the one the server refuses past, and the defaults are those a request left short gets."""
    served = client.get("/api/fields").json()
    solve_fields = served["solve"]
    assert solve_fields["samples"] | {} == {"type": "integer", "minimum": 1,
                                           "maximum": 100_000, "required": False,
                                           "default": None}  # the variant's own
    assert solve_fields["seed"]["default"] == 0 and solve_fields["time_limit"]["default"] == 10
    assert solve_fields["objective"]["enum"] == ["ev", "royalties"]
    assert served["advise"]["budget"]["default"] == 96
    past = 0
    for path, fields in served.items():
        for name, field in fields.items():
            if field.get("type") != "integer" or "maximum" not in field:
                continue
            given = {other: "s0" if spec.get("type") == "string" else spec["minimum"]
                     for other, spec in fields.items() if spec["required"]}
            answer = client.post(f"/api/{path}", json=given | {name: field["maximum"] + 1})
            assert answer.status_code == 400 and f"bad {name} " in answer.json()["error"]
            past += 1
    assert past >= 10
    listed = client.get("/api/variants").json()
    assert listed["rows"] == [{"name": "top", "cards": 3}, {"name": "middle", "cards": 5},
                              {"name": "bottom", "cards": 5}]
    samples = {v["name"]: v["samples"] for v in listed["variants"]}
    assert samples["pineapple"] == 2000 and samples["chinese"] == 40
