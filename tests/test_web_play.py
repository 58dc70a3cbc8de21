"""The Play view in a real headless Chromium against a real server: a whole hand by taps.

At 1280 x 900 and at 390 x 844 a hand is played street by street by tapping the dealt cards
into rows (with a card taken back, and the hint asked once), to the showdown; its grades and
the session's figures are shown, the hand's row is in the page's history table and in the
SQLite history, and the next hand deals. The browser is ``tests.browsing``'s (skipped
without one unless CI requires it). Screenshots go to ``FANTASYLAND_SCREENSHOTS`` if set.
"""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from tests.browsing import DESKTOP, PHONE, WAIT, Page
from tests.serving import serve_process

ROWS = ("top", "middle", "bottom")


@pytest.fixture(scope="module")
def server(tmp_path_factory, browser):
    with serve_process(tmp_path_factory.mktemp("serve")) as running:
        yield running


def _cards(page, selector: str) -> list[str]:
    return page.eval_on_selector_all(f"{selector} .card", "els => els.map(e => e.dataset.card)")


def _room(page, row: str) -> int:
    held, size = page.inner_text(f"#play-editor button.row-target[data-row='{row}']") \
        .split()[-1].split("/")
    return int(size) - int(held)


def _place(page, card: str, row: str):
    page.click(f"#play-editor .editor-hand button[data-card='{card}']")
    page.click(f"#play-editor button.row-target[data-row='{row}']")


def _street(page) -> int:
    return int(page.get_attribute("#play-hand", "data-street") or 0)


def _played_rows(history: Path, session: str) -> list[tuple]:
    with closing(sqlite3.connect(f"file:{history}?mode=ro", uri=True)) as db:
        return db.execute("SELECT number, points, board, record FROM played WHERE session = ? "
                          "ORDER BY id", (session,)).fetchall()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_hand_played_by_taps_is_graded_and_kept_in_the_history(browser, server, shots,
                                                                  viewport):
    size = "desktop" if viewport is DESKTOP else "phone"
    visit = Page(browser, server, viewport)
    try:
        page = visit.open("play")
        page.locator("#play-hand[data-street='1']").wait_for(timeout=WAIT)  # a game at once
        page.click("#play-view details.train-options summary")
        page.select_option("#play-objective", "royalties")
        seed = "31" if size == "desktop" else "32"
        page.fill("#play-seed", seed)
        page.click("#play-new")
        page.locator(f"#play-hand[data-seed='{seed}'][data-street='1']").wait_for(timeout=WAIT)
        assert "royalties" in page.inner_text("#play-hand")
        # The other board is in view, face up (the bot may act first) or still empty.
        assert page.locator("#play-table .seat").count() == 1
        assert "Unseen:" in page.inner_text("#play-unseen")
        streets = 0
        while page.locator("#play-showdown").count() == 0:
            street = _street(page)
            dealt = _cards(page, "#play-editor .editor-hand")
            keep = 5 if street == 1 else 2
            assert len(dealt) == (5 if street == 1 else 3)
            assert page.is_disabled("#play-submit")
            placed = []
            for card in dealt[:keep]:
                row = max(ROWS, key=lambda r: (_room(page, r), -ROWS.index(r)))
                _place(page, card, row)
                placed.append((card, row))
            if street == 2:
                # A placed card tapped goes back to the hand, and is placed again; a third
                # card cannot be placed while two are.
                card, row = placed[-1]
                page.click(f"#play-editor [data-zone={row}] button[data-card='{card}']")
                assert page.is_disabled("#play-submit")
                _place(page, dealt[2], row)
                _place(page, card, row)
                assert "places 2 cards" in page.inner_text("#play-editor .editor-note")
                page.click(f"#play-editor [data-zone={row}] button[data-card='{dealt[2]}']")
                _place(page, card, row)
                page.screenshot(path=str(shots / f"play-street-{size}.png"), full_page=True)
            if street == 3:
                page.click("#play-hint")
                page.locator("#play-ranking li").first.wait_for(timeout=WAIT)
                assert page.locator("#play-ranking li").count() >= 1
            assert page.is_enabled("#play-submit")
            said = page.inner_text("#play-preview")
            for card, row in placed:
                assert f"{card} {row}" in said
            page.click("#play-submit")
            streets += 1
            page.wait_for_function(
                f"""() => document.querySelector('#play-showdown')
                    || Number(document.querySelector('#play-hand').dataset.street) > {street}""",
                timeout=WAIT)
        assert streets == 5
        # The showdown: both boards, each pair settled, every street graded.
        assert page.locator("#play-showdown .seat").count() == 2
        assert page.locator("#play-grades tbody tr").count() == 5
        assert page.get_attribute("#play-figures", "data-hands") == "1"
        assert page.locator("#play-chart polyline").count() == 1
        newest = page.locator("#play-history-table tbody tr[data-hand='1']")
        newest.wait_for(timeout=WAIT)
        log = page.get_attribute("#play-log", "href")
        game = log.split("game=")[1]
        [(number, points, board, record)] = _played_rows(server.history, f"play-{game}")
        shown_points = page.inner_text("#play-history-table tbody tr td.num")
        assert number == 1 and shown_points == (f"+{points}" if points > 0 else str(points))
        mine = json.loads(record)["showdown"]["seats"][0]
        assert mine["board"] == board and mine["points"] == points
        assert f"{'+' if points > 0 else ''}{points} points" in \
            page.inner_text("#play-showdown .seat[data-seat='0'] h3")
        if viewport is PHONE:
            assert page.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]
        page.screenshot(path=str(shots / f"play-showdown-{size}.png"), full_page=True)
        # The log the page offers is the game's, as review reads it: five streets and the
        # hand's record after the settings.
        lines = page.evaluate(f"fetch('{log}').then(r => r.text())").splitlines()
        assert lines[0].startswith("# play ") and lines[-1].startswith("# hand ")
        assert len(lines) == 7
        page.click("#play-next")
        page.locator("#play-hand[data-hand='2'][data-street]").wait_for(timeout=WAIT)
        assert page.locator("#play-showdown").count() == 0
    finally:
        visit.close()


def test_a_fantasyland_hand_is_set_by_taps_and_graded_as_check_grades_it(browser, server):
    visit = Page(browser, server, DESKTOP)
    try:
        page = visit.open("play")
        page.locator("#play-hand[data-street='1']").wait_for(timeout=WAIT)
        page.click("#play-view details.train-options summary")
        page.select_option("#play-objective", "royalties")
        page.fill("#play-seed", "33")
        page.fill("#play-fantasyland", "14")
        page.click("#play-new")
        page.locator("#play-hand[data-seed='33']", has_text="Fantasyland, 14 cards").wait_for(
            timeout=WAIT)
        dealt = _cards(page, "#play-editor .editor-hand")
        assert len(dealt) == 14 and page.locator("#play-editor .card.fixed").count() == 0
        page.click("#play-hint")
        page.locator("#play-hint-result", has_text="The solver's set").wait_for(timeout=WAIT)
        solver = {row: _cards(page, f"#play-hint-result [data-row={row}]") for row in ROWS}
        for row in ROWS:
            for card in solver[row]:
                _place(page, card, row)
        assert page.is_enabled("#play-submit")
        page.click("#play-submit")
        page.locator("#play-grades tr[data-street='0']").wait_for(timeout=WAIT)
        assert page.inner_text("#play-grades tr[data-street='0'] td:last-child") == "optimal"
        assert page.get_attribute("#play-figures", "data-hands") == "1"
    finally:
        visit.close()
