"""The page of ``fantasyland serve`` in a real headless Chromium, against a real server.

Each test drives the page as a user would (clicks, taps, the keyboard) and checks what it
shows against what the CLI's ``--json`` gives for the same input; one plays a page on
another site that tries to write to the server through the browser. The browser is
``tests.browsing``'s: without one the module is skipped, unless
``FANTASYLAND_REQUIRE_BROWSER`` is set (as CI sets it), when it fails. Screenshots of every
view go to ``FANTASYLAND_SCREENSHOTS`` if set.
"""

from __future__ import annotations

import functools
import html
import json
import os
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import closing, contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.browsing import DESKTOP, PHONE, WAIT, Page
from tests.serving import serve_process

REPO = Path(__file__).resolve().parents[1]
HAND = "Ac Ah As Kd Qd Qh Ts 7c 7h 6d 5s 4s 3s 2s"
SAMPLES = "200"  # few sampled deals and rollouts: the module stays within about a minute
BUDGET = "32"


@pytest.fixture(scope="module")
def server(tmp_path_factory, browser):
    with serve_process(tmp_path_factory.mktemp("serve")) as running:
        yield running

@pytest.fixture
def desktop(browser, server):
    page = Page(browser, server, DESKTOP)
    yield page
    page.close()


@pytest.fixture
def phone(browser, server):
    page = Page(browser, server, PHONE)
    yield page
    page.close()


@functools.cache
def _cli(*args: str) -> dict:
    """What ``fantasyland ARGS --json`` prints, run as a user runs it (a review with bad
    lines exits 1 and still prints)."""
    done = subprocess.run([sys.executable, "-m", "fantasyland.cli.main", *args, "--json"],
                          cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)


@functools.cache
def _cli_lines(*args: str) -> tuple[str, ...]:
    """What ``fantasyland ARGS`` prints for a reader, one line a row (never wrapped)."""
    done = subprocess.run([sys.executable, "-m", "fantasyland.cli.main", *args], cwd=REPO,
                          capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, COLUMNS="400"))
    assert done.returncode in (0, 1), done.stderr
    return tuple(line.rstrip() for line in done.stdout.splitlines())


def _labelled(lines: tuple[str, ...], label: str, below: int = 0) -> str:
    """The text after ``label:`` in the CLI's output, or of the ``below``-th line under it."""
    [at] = [i for i, line in enumerate(lines) if line.startswith(f"{label}:")]
    line = lines[at + below]
    return line[len(label) + 1:].strip() if below == 0 else line.strip()


def _cards(page, selector: str) -> list[str]:
    return page.eval_on_selector_all(f"{selector} .card", "els => els.map(e => e.dataset.card)")


def _shown_set(page, board: str) -> dict[str, list[str]]:
    return {row: _cards(page, f"[data-board={board}] [data-row={row}]")
            for row in ("top", "middle", "bottom")}


# --- Solve --------------------------------------------------------------------------------

def test_solve_by_clicking_the_grid_shows_the_set_solve_json_gives(desktop):
    page = desktop.open("solve")
    for card in HAND.split():
        page.click(f"#solve-picker button[data-card='{card}']")
    assert page.input_value("#solve-cards").split() == HAND.split()  # the field follows
    assert page.locator("#solve-picker button[aria-pressed=true]").count() == 14
    page.fill("#solve-samples", SAMPLES)
    page.fill("#solve-seed", "3")
    default = page.inner_text("#solve-objective option[value='']")
    page.click("#solve-submit")
    page.wait_for_selector("#solve-result .answer", timeout=WAIT)
    expected = _cli("solve", HAND, "--samples", SAMPLES, "--seed", "3")
    # The select names the objective a solve left to its default plays.
    assert default == f"default ({expected['objective']})"
    assert _shown_set(page, "solution") == {row: expected[row]
                                            for row in ("top", "middle", "bottom")}
    shown_discards = page.get_attribute("#solve-result .discards", "data-discards")
    assert shown_discards.split() == expected["discards"]
    stays = page.locator("#solve-result .summary [data-stays]")
    assert stays.get_attribute("data-stays") == str(expected["stays"]).lower()
    assert stays.inner_text() == f"stays: {'yes' if expected['stays'] else 'no'}"
    assert "optimal (proved)" in page.inner_text("#solve-result .summary")
    other = expected["best_not_staying"] if expected["stays"] else expected["best_staying"]
    assert _shown_set(page, "other") == {row: other[row] for row in ("top", "middle", "bottom")}
    assert page.get_attribute("[data-break-even]", "data-break-even") == \
        str(expected["break_even_fl_value"])
    # The decision in the CLI's words: the line under its "Decision:" line.
    said = _labelled(_cli_lines("solve", HAND, "--samples", SAMPLES, "--seed", "3"),
                     "Decision", below=1)
    assert page.inner_text("[data-break-even]") == f"Decision: {said}"
    # The other set has its hands named, as the optimum does (asked of /api/score).
    page.wait_for_selector("[data-board=other]:not([data-unnamed])", timeout=WAIT)
    named = page.eval_on_selector_all("[data-board=other] .hand-name",
                                      "els => els.map(e => e.textContent)")
    assert named == [_cli("score", " / ".join(" ".join(other[row]) for row in ("top", "middle",
                                                                               "bottom")),
                          "--variant", expected["variant"])["rows"][row]["hand"]
                     for row in ("top", "middle", "bottom")]


# --- Train --------------------------------------------------------------------------------

def _place(page, editor: str, card: str, row: str):
    page.click(f"{editor} .editor-hand button[data-card='{card}']")
    page.click(f"{editor} button.row-target[data-row='{row}']")


def _drag(page, source, target):
    """Drag with the mouse in small steps, as a hand does (the editor reads pointer events)."""
    start = source.bounding_box()
    end = target.bounding_box()
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    page.mouse.down()
    page.mouse.move(end["x"] + end["width"] / 2, end["y"] + end["height"] / 2, steps=8)
    page.mouse.up()


def test_train_hand_played_by_taps_grades_as_check_json_and_enters_the_history(desktop):
    page = desktop.open("train")
    page.wait_for_selector("#train-editor .editor-hand button.card", timeout=WAIT)
    page.click("details.train-options summary")
    page.select_option("#train-objective", "royalties")
    page.fill("#train-sizes", "15")  # the grade must deal the hand again with these sizes
    # A seed of its own tells this deal from the first one (which may have 15 cards too).
    page.fill("#train-seed", "424242")
    page.click("#train-deal")
    page.locator("#train-hand[data-seed='424242'][data-number='1']",
                 has_text="15 cards").wait_for(timeout=WAIT)
    cards = _cards(page, "#train-editor .editor-hand")
    variant = page.inner_text("#train-hand").split(" \u00b7 ")[2]
    assert len(cards) == 15
    assert page.is_disabled("#train-submit")
    editor = "#train-editor"
    # The dealt cards come highest first: the best five at the bottom, the next in the
    # middle, then three on top (a legal set more often than not; a foul grades as well).
    bottom, middle, top = cards[:5], cards[5:10], cards[10:13]
    _drag(page, page.locator(f"{editor} .editor-hand button[data-card='{bottom[0]}']"),
          page.locator(f"{editor} [data-zone=bottom]"))
    assert _cards(page, f"{editor} [data-zone=bottom]") == bottom[:1]
    for card in bottom[1:]:
        _place(page, editor, card, "bottom")
    # A placed card tapped goes back to the hand, and can be placed again.
    page.click(f"{editor} [data-zone=bottom] button[data-card='{bottom[-1]}']")
    assert bottom[-1] in _cards(page, f"{editor} .editor-hand")
    _place(page, editor, bottom[-1], "bottom")
    for card in middle:
        _place(page, editor, card, "middle")
    for card in top[:-1]:
        _place(page, editor, card, "top")
    assert page.is_disabled("#train-submit")  # a row is short
    _place(page, editor, top[-1], "top")
    assert page.is_enabled("#train-submit")
    page.locator("#train-preview", has_text="bottom: ").wait_for()  # /api/score's words
    page.click("#train-submit")
    page.wait_for_selector("#train-result .answer", timeout=WAIT)
    played = f"{' '.join(top)} / {' '.join(middle)} / {' '.join(bottom)}"
    expected = _cli("check", " ".join(cards), "--set", played, "--variant", variant,
                    "--objective", "royalties")
    summary = page.locator("#train-result .summary")
    assert float(summary.get_attribute("data-ev-lost")) == pytest.approx(expected["ev_lost"])
    assert summary.get_attribute("data-optimal") == str(expected["is_optimal"]).lower()
    assert f"{expected['ev_lost']:.2f}" in summary.inner_text()
    assert _shown_set(page, "optimum") == {row: expected["optimal"][row]
                                           for row in ("top", "middle", "bottom")}
    assert page.inner_text("#train-score").count("Hands") == 1
    assert page.get_attribute("#train-score dl", "data-hands") == "1"
    newest = page.locator("#train-history-table tbody tr").first
    newest.wait_for(timeout=WAIT)
    assert f"{expected['ev_lost']:.2f}" in newest.inner_text()
    assert page.locator("#train-history svg.chart circle").count() >= 1
    number = page.get_attribute("#train-hand", "data-number")
    page.click("#train-next")
    page.locator(f"#train-hand[data-number='{int(number) + 1}']").wait_for(timeout=WAIT)
    assert page.is_disabled("#train-submit")


# --- A page on another site ---------------------------------------------------------------

#: The page a site elsewhere could serve: it posts a hand's grade to the server twice, as
#: a fetch (no-cors: its answer is hidden from the page) and then as a form of text/plain,
#: whose name and value join around the "=" the form puts between them.
ATTACK = """<!doctype html><title>elsewhere</title>
<form method=post enctype=text/plain action="{action}">
<input type=hidden name="{name}" value="{value}"></form>
<script>
fetch("{action}", {{mode: "no-cors", method: "POST", body: {fetched}}})
  .finally(() => document.forms[0].submit());
</script>"""


@contextmanager
def _elsewhere(page: str) -> Iterator[str]:
    """``page`` served at http://127.0.0.1:<another port>/, another origin than the
    server's; its address."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            body = page.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):  # no lines in the test's output
            pass

    site = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=site.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{site.server_address[1]}/"
    finally:
        site.shutdown()
        site.server_close()
        thread.join(timeout=30)


def _rows(history: Path, sessions: tuple[str, ...]) -> int:
    with closing(sqlite3.connect(f"file:{history}?mode=ro", uri=True)) as db:
        marks = ", ".join("?" * len(sessions))
        return db.execute(f"SELECT COUNT(*) FROM hands WHERE session IN ({marks})",
                          sessions).fetchone()[0]


def test_a_page_on_another_site_posting_a_grade_as_a_form_or_a_fetch_writes_nothing(
        browser, server):
    deal = server.post("train/deal", {"seed": 77})[1]
    cards = deal["cards"]
    played = f"{' '.join(cards[:3])} / {' '.join(cards[3:8])} / {' '.join(cards[8:13])}"
    grade = {"seed": 77, "number": 1, "set": played, "objective": "royalties"}
    fetched = json.dumps(grade | {"session": "elsewhere-fetch"})
    # The form's body is name=value: the "=" falls inside the rules text, base = "pineapple".
    formed = json.dumps(grade | {"session": "elsewhere-form", "rules": 'base = "pineapple"'})
    name, value = formed.split(" = ", 1)
    action = server.url + "api/train/grade"
    page = ATTACK.format(action=action, name=html.escape(name + " "),
                         value=html.escape(" " + value), fetched=json.dumps(fetched))
    sessions = ("elsewhere-fetch", "elsewhere-form")
    assert _rows(server.history, sessions) == 0
    context = browser.new_context()
    sent, answered = [], []
    context.on("request", lambda r: r.url == action and sent.append(r.post_data))
    context.on("response", lambda r: r.url == action and answered.append(r.status))
    try:
        with _elsewhere(page) as address:
            tab = context.new_page()
            tab.goto(address, timeout=WAIT)
            tab.wait_for_url(action, timeout=WAIT)  # the form, sent after the fetch's answer
            shown = tab.inner_text("body")
    finally:
        context.close()
    assert sorted(sent) == sorted([fetched, formed + "\r\n"]), sent  # as the browser sent them
    assert answered == [403, 403], answered  # each from another origin
    assert "a request from another site's page" in shown
    assert _rows(server.history, sessions) == 0
    # The same bodies from the server's own page are each a graded hand: a row each.
    for body in (fetched, formed):
        status, answer = server.post("train/grade", json.loads(body))
        assert status == 200 and "hand_id" in answer, answer
    assert _rows(server.history, sessions) == 2


# --- Phone size and the keyboard ----------------------------------------------------------

def _overflow(page) -> int:
    return page.evaluate("document.scrollingElement.scrollWidth")


def _show(page, view: str):
    """Click a view's tab and wait until the view is on screen: the tabs are links, and the
    view changes on the hashchange that follows the click, not during it."""
    page.click(f"#tab-{view}")
    page.wait_for_selector(f"#{view}-view:not([hidden])")


#: The endpoint each view's settings go to (Train's seed and sizes deal, the rest grade).
SETTINGS = {"solve": ["solve"], "check": ["check"], "advise": ["advise"], "review": ["review"],
            "train": ["train/deal", "train/grade"], "play": ["play/start"]}


def test_every_setting_shows_the_bounds_and_the_default_the_server_serves(desktop):
    page = desktop.open("solve")
    _, fields = desktop.server.get("fields")
    _, variants = desktop.server.get("variants")
    samples = {variant["name"]: variant["samples"] for variant in variants["variants"]}
    assert samples["chinese"] != samples["pineapple"]  # the hint that once said 2000 for both
    for view, endpoints in SETTINGS.items():
        _show(page, view)
        shown = page.eval_on_selector_all(f"#{view}-settings [name]", """els => els.map(e => (
            [e.name, e.getAttribute("min"), e.getAttribute("max"), e.placeholder,
             e.tagName === "SELECT" ? [...e.options].map(o => o.value) : null]))""")
        for name, low, high, hint, options in shown:
            if name in ("variant", "rules"):
                continue
            schema = next(fields[path][name] for path in endpoints if name in fields[path])
            if "enum" in schema:
                assert options == ["", *schema["enum"]], (view, name)
                continue
            bound = schema.get("minimum", schema.get("exclusiveMinimum"))
            assert low == (None if bound is None else f"{bound:g}"), (view, name)
            if name != "opponents":  # its most is the variant's seats less one
                assert high == (None if "maximum" not in schema else f"{schema['maximum']:g}"), \
                    (view, name)
            default = schema["default"]
            if name == "samples" and default is None:
                default = samples[page.input_value(f"#{view}-variant")]
            if isinstance(default, (int, float)) and not isinstance(default, bool):
                assert hint == f"{default:g}", (view, name)
    for view in ("solve", "check"):  # Chinese plays fewer sampled deals: its hint says so
        _show(page, view)
        page.select_option(f"#{view}-variant", "chinese")
        assert page.get_attribute(f"#{view}-samples", "placeholder") == str(samples["chinese"])


def test_phone_layout_has_no_sideways_scroll_and_the_keyboard_alone_picks_and_places(phone):
    page = phone.open("solve")
    for view in ("solve", "train", "check", "advise", "review", "score", "play"):
        _show(page, view)
        assert _overflow(page) <= PHONE["width"], f"{view} scrolls sideways"
    _show(page, "solve")
    grid = page.locator("#solve-picker .deck-grid").bounding_box()
    assert grid["x"] >= 0 and grid["x"] + grid["width"] <= PHONE["width"]
    assert page.locator("#solve-picker button[data-card='2c']").is_visible()
    # Keyboard only: Tab from the top of the page to the first card of the grid, Enter.
    page.locator("body").focus()
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.matches('#solve-picker button.card')"):
            break
    else:
        pytest.fail("Tab never reached a card of the deck grid")
    card = page.evaluate("document.activeElement.dataset.card")
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none"  # the focus can be seen
    page.keyboard.press("Enter")
    assert page.get_attribute(f"#solve-picker button[data-card='{card}']",
                              "aria-pressed") == "true"
    assert page.input_value("#solve-cards") == card
    page.keyboard.press("Space")  # Space takes it out again
    assert page.input_value("#solve-cards") == ""
    # In Train: the rows are on screen, and a hand card is picked and placed by keys.
    _show(page, "train")
    hand = page.locator("#train-editor .editor-hand button.card")
    hand.first.wait_for(timeout=WAIT)
    for row in ("top", "middle", "bottom"):
        box = page.locator(f"#train-editor [data-zone={row}]").bounding_box()
        assert box["width"] > 0 and box["x"] + box["width"] <= PHONE["width"]
    assert _overflow(page) <= PHONE["width"]
    first = hand.first.get_attribute("data-card")
    hand.first.focus()
    page.keyboard.press("Enter")
    assert hand.first.get_attribute("aria-pressed") == "true"
    page.keyboard.press("t")
    assert _cards(page, "#train-editor [data-zone=top]") == [first]
    # Tab reaches a row's button, and Enter there places the picked card.
    second = hand.first.get_attribute("data-card")
    page.keyboard.press("Enter")  # the focus moved to the next card of the hand
    page.focus("#train-editor button.row-target[data-row='middle']")
    page.keyboard.press("Enter")
    assert _cards(page, "#train-editor [data-zone=middle]") == [second]


# --- Check and Advise ---------------------------------------------------------------------

CHECKED = "Kd Qh Qd / Ts 5s 4s 3s 2s / As Ah Ac 7h 7c"


def test_check_and_advise_render_an_answer_and_show_the_servers_error_line(desktop):
    page = desktop.open("check")
    page.fill("#check-cards", HAND)
    page.fill("#check-set", CHECKED)
    # The typed set moved the editor's cards.
    assert sorted(_cards(page, "#check-editor [data-zone=top]")) == ["Kd", "Qd", "Qh"]
    page.locator("#check-preview", has_text="Pair of Queens").wait_for()  # /api/score's words
    page.click("#check-submit")
    page.wait_for_selector("#check-result .answer", timeout=WAIT)
    expected = _cli("check", HAND, "--set", CHECKED)
    # The select names the objective a check left to its default grades by (the server's).
    assert page.inner_text("#check-objective option[value='']") == (
        f"default ({expected['objective']})")
    summary = page.locator("#check-result .summary")
    assert float(summary.get_attribute("data-ev-lost")) == pytest.approx(expected["ev_lost"])
    assert summary.get_attribute("data-optimal") == "false"
    assert "stays in Fantasyland" in page.inner_text("#check-result .advice")
    # The percentile in the CLI's words: rounded down, counts with thousands separators.
    percentile = _labelled(_cli_lines("check", HAND, "--set", CHECKED), "Percentile")
    assert page.inner_text("#check-result .percentile") == percentile
    page.wait_for_selector("[data-board=optimum]:not([data-unnamed])", timeout=WAIT)
    assert page.locator("[data-board=optimum] .hand-name").count() == 3
    # A bad card: the server's one line, and what was typed is kept.
    typed = HAND.replace("Kd", "Kx")
    page.fill("#check-cards", typed)
    page.click("#check-submit")
    alert = page.locator("#check-view [role=alert]")
    alert.wait_for(state="visible", timeout=WAIT)
    status, answer = desktop.server.post("check", {"cards": typed, "set": CHECKED})
    assert status == 400
    assert alert.inner_text() == answer["error"]
    assert page.input_value("#check-cards") == typed

    _show(page, "advise")
    page.fill("#advise-top", "Qh")
    page.fill("#advise-middle", "7c 8c")
    page.fill("#advise-bottom", "2s 2d")
    page.click("#advise-zone-cards")  # clicked cards now go to the cards just dealt
    for card in ("Kd", "Qs", "3h"):
        page.click(f"#advise-picker button[data-card='{card}']")
    assert page.input_value("#advise-cards") == "Kd Qs 3h"
    page.select_option("#advise-variant", "progressive")
    page.fill("#advise-budget", BUDGET)
    page.fill("#advise-samples", SAMPLES)
    page.click("#advise-submit")
    page.wait_for_selector("#advise-result .answer", timeout=WAIT)
    expected = _cli("advise", "--board", "Qh / 7c 8c / 2s 2d", "--cards", "Kd Qs 3h",
                    "--variant", "progressive", "--budget", BUDGET, "--samples", SAMPLES,
                    "--workers", "1")
    shown = page.eval_on_selector_all("#advise-result [data-play]",
                                      "rows => rows.map(r => r.dataset.board)")
    assert shown == [play["board"] for play in expected["plays"]]
    best = expected["plays"][0]
    assert f"value {best['value']:.2f} \u00b1 {best['standard_error']:.2f}" in \
        page.inner_text("#advise-result [data-play='0']")
    page.fill("#advise-cards", "Kd Qs 1h")
    page.click("#advise-submit")
    alert = page.locator("#advise-view [role=alert]")
    alert.wait_for(state="visible", timeout=WAIT)
    assert "bad card '1h'" in alert.inner_text()
    assert page.input_value("#advise-cards") == "Kd Qs 1h"


# --- Every view at both sizes: the answer in view, no word broken -------------------------

REVIEWED = REPO / "fixtures" / "review" / "bad-lines.jsonl"  # two streets and three bad lines
# The four-player table of classic Chinese Poker that docs/scoring.md settles.
TABLE = ("6h 6s 4h / 8h 8s Jh 5h 3h / 2c 2d 2h Ks Qh",
         "As Kd 4s / 3c 3d Qd Ts 5s / Jc Jd 7c 7d 9h",
         "8c 8d 3s / 9c 9d Kh 7h 2s / Tc Td 5c 5d Qs",
         "Kc Qc 7s / 6c 6d Js Th 9s / Ac Ad Ah 4c 4d")

#: The words of a table cell (runs of non-space text) that a line break splits: each word's
#: Range gives one client rect a line, so a word on two lines has two tops.
_BROKEN_WORDS = r"""root => {
  const broken = [];
  for (const cell of root.querySelectorAll("th, td, caption")) {
    if (!cell.getClientRects().length) continue;  // folded away, not shown
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const word of node.data.matchAll(/\S+/gu)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0)
          .map((r) => Math.round(r.top)));
        if (tops.size > 1) broken.push(word[0]);
      }
    }
  }
  return broken;
}"""


def _answered(page, view: str, viewport: dict):
    """Wait for the view's answer, then check that the page brought its top into view and
    that no cell of its tables breaks a word or a number."""
    page.wait_for_selector(f"#{view}-result .answer", timeout=WAIT)
    top = page.evaluate(f"document.getElementById('{view}-result').getBoundingClientRect().top")
    assert -1 <= top < viewport["height"], f"{view}: the answer's top is at {top:.0f} px, " \
        f"outside the {viewport['height']} px of the window"
    assert page.eval_on_selector(f"#{view}-view", _BROKEN_WORDS) == [], \
        f"{view}: a table cell breaks a word"


def _contrast(page, selector: str) -> list[float]:
    """The contrast ratio (WCAG) of each matched element's text with its own background."""
    return page.eval_on_selector_all(selector, """els => els.map((e) => {
      const style = getComputedStyle(e);
      const light = (rgb) => {
        const [r, g, b] = rgb.match(/[\\d.]+/g).slice(0, 3).map((c) => {
          const v = c / 255;
          return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
        });
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
      };
      const [a, b] = [light(style.color), light(style.backgroundColor)];
      return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    })""")


def _every_view(page, viewport: dict):
    """Ask each view its question as a user would, checking each answer as it comes."""
    _show(page, "solve")
    page.fill("#solve-cards", HAND)
    page.fill("#solve-samples", SAMPLES)
    page.click("#solve-submit")
    _answered(page, "solve", viewport)
    # Picked cards are drawn on the dark felt: a red suit must still read (WCAG AA: 4.5:1)
    # and still read as red, told from a black suit's white by more than a tint.
    picked = "#solve-picker .card.red[aria-pressed=true]"
    assert page.locator(picked).count() == 6  # Ah Kd Qd Qh 7h 6d
    assert min(_contrast(page, picked)) >= 4.5
    red, green, _ = page.eval_on_selector(
        picked, "e => getComputedStyle(e).color.match(/\\d+/g).map(Number)")
    assert red - green >= 80, f"a picked red card's suit is pink, not red: {red}, {green}"
    _show(page, "check")
    page.fill("#check-cards", HAND)
    page.fill("#check-set", CHECKED)
    page.click("#check-submit")
    _answered(page, "check", viewport)
    _show(page, "advise")
    page.fill("#advise-top", "Qh")
    page.fill("#advise-middle", "7c 8c")
    page.fill("#advise-bottom", "2s 2d")
    page.fill("#advise-cards", "Kd Qs 3h")
    page.fill("#advise-budget", BUDGET)
    page.fill("#advise-samples", SAMPLES)
    page.click("#advise-submit")
    # While it runs, the view says so: a progress bar and the seconds counted.
    assert page.locator("#advise-progress").is_visible()
    _answered(page, "advise", viewport)
    assert page.locator("#advise-progress").is_hidden()
    # A badge (T, M, B, D: where the card went) never covers the card's suit.
    overlaps = page.eval_on_selector_all("#advise-picker .card[aria-pressed=true]", """els =>
      els.filter((card) => {
        const a = card.querySelector(".badge").getBoundingClientRect();
        const b = card.querySelector(".suit").getBoundingClientRect();
        return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
      }).map((card) => card.dataset.card)""")
    assert page.locator("#advise-picker .card[aria-pressed=true]").count() == 8
    assert overlaps == []
    _review(page, viewport)
    _score(page, viewport)
    _show(page, "train")  # a hand set by taps and graded: the grade beside the optimum
    page.wait_for_selector("#train-editor .editor-hand button.card", timeout=WAIT)
    cards = _cards(page, "#train-editor .editor-hand")
    for row, placed in (("bottom", cards[:5]), ("middle", cards[5:10]), ("top", cards[10:13])):
        for card in placed:
            _place(page, "#train-editor", card, row)
    page.click("#train-submit")
    _answered(page, "train", viewport)
    page.wait_for_selector("#train-history-table tbody tr", timeout=WAIT)
    assert page.eval_on_selector("#train-view", _BROKEN_WORDS) == []


def _review(page, viewport: dict):
    """The Review view, end to end: a history file opened, graded as the CLI grades it."""
    _show(page, "review")
    page.set_input_files("#review-file", str(REVIEWED))
    text = REVIEWED.read_text(encoding="utf-8")
    # The page reads the file in its change handler; polled here, since wait_for_function
    # evaluates a string, which the page's content security policy refuses.
    for _ in range(50):
        if page.input_value("#review-history") == text:
            break
        page.wait_for_timeout(100)
    assert page.input_value("#review-history") == text
    page.fill("#review-budget", BUDGET)
    page.click("#review-submit")
    _answered(page, "review", viewport)
    expected = _cli("review", str(REVIEWED), "--budget", BUDGET)
    rows = page.locator("#review-result [data-table=decisions] tbody tr")
    assert rows.count() == len(expected["decisions"])
    for i, decision in enumerate(expected["decisions"]):
        row = rows.nth(i)
        assert row.get_attribute("data-line") == str(decision["line"])
        error = f" \u00b1 {decision['ev_lost_error']:.2f}" if decision["ev_lost_error"] else ""
        assert row.locator(".ev-lost").inner_text() == f"{decision['ev_lost']:.2f}{error}" + (
            " (close)" if decision["close"] else "")
    lines = _cli_lines("review", str(REVIEWED), "--budget", BUDGET)
    for label, key in (("Decisions", "decisions"), ("EV lost", "ev_lost"), ("Worst", "worst"),
                       ("Skipped", "skipped")):
        assert page.inner_text(f"#review-result [data-key={key}]") == _labelled(lines, label)
    assert page.eval_on_selector_all("#review-result .bad-lines li",
                                     "els => els.map(e => e.textContent)") == \
        [f"line {bad['line']}: {bad['message']}" for bad in expected["bad_lines"]]


def _score(page, viewport: dict):
    """The Score view, end to end: a table of four settled as ``score --against`` does."""
    _show(page, "score")
    page.select_option("#score-variant", "chinese")
    page.fill("#score-board", TABLE[0])
    for i, board in enumerate(TABLE[1:], 1):
        page.fill(f"#score-against-{i}", board)
    page.click("#score-submit")
    _answered(page, "score", viewport)
    args = ["score", TABLE[0], "--variant", "chinese"]
    for board in TABLE[1:]:
        args += ["--against", board]
    expected = _cli(*args)
    shown = page.eval_on_selector_all("#score-result .seat",
                                      "els => els.map(e => Number(e.dataset.net))")
    assert shown == [player["net"] for player in expected["players"]]
    pairs = [line for line in _cli_lines(*args) if " v against " in line]
    assert page.eval_on_selector_all("#score-result .pairs li",
                                     "els => els.map(e => e.textContent)") == pairs
    names = page.eval_on_selector_all("[data-board=player-3] .hand-name",
                                      "els => els.map(e => e.textContent)")
    assert names == [expected["players"][3]["set"]["rows"][row]["hand"]
                     for row in ("top", "middle", "bottom")]


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_every_view_brings_its_answer_into_view_and_keeps_words_whole(size, request, shots):
    viewport = DESKTOP if size == "desktop" else PHONE
    page = request.getfixturevalue(size).open("solve")
    _every_view(page, viewport)
    for view in ("solve", "train", "check", "advise", "review", "score"):
        _show(page, view)
        if size == "phone":  # answers too must fit the width of a phone
            assert _overflow(page) <= PHONE["width"], f"{view} with its answer scrolls sideways"
        path = shots / f"{view}-{size}.png"
        page.screenshot(path=str(path), full_page=True)
        assert path.stat().st_size > 0
