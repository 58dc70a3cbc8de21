"""The page's card reader (``cards.js``) reads every spelling the docs allow as the server's
``parse_cards`` does, in a real headless Chromium (``tests.browsing``).

Typed cards are read twice: by the page, to mark the deck grid and place them in the row
editor, and by the server, which answers. The page keeps its own copy of the tokenizer, so
each spelling of README's "Cards may be typed as ..." and docs/serve.md, each separator, and
each refusal is read by both, in one ``page.evaluate``, and the two must agree: the same
cards from the same text, and the same texts refused. A set typed as rows, or as one run of
13 cards, is split by the page as ``parse_board`` splits it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from fantasyland.cli.web.jobs import variants
from fantasyland.evaluator import ROWS as ROW_NAMES
from fantasyland.evaluator import parse_board
from fantasyland.evaluator.cards import CardError, Deck, ascii_names, parse_cards
from tests.browsing import launched

STATIC = Path(__file__).resolve().parents[1] / "cli" / "web" / "static"
ORIGIN = "http://page.invalid"  # answered by the test itself: no server, no port
#: Two decks and two jokers: a case may name a card twice, and the deck refuses nothing the
#: tokenizer reads.
ROOMY = Deck(decks=2, jokers=2)

RANKS = [*"23456789", "T", "t", "10", "J", "j", "Q", "q", "K", "k", "A", "a"]
SUITS = [*"cdhsCDHS", *"♣♦♥♠", *"♧♢♡♤"]
JOKERS = ["Jk", "jk", "JK", "jK", "joker", "Joker", "JOKER", "\N{PLAYING CARD BLACK JOKER}"]
#: Several cards a text: every separator, run together, emoji selectors after a symbol.
TEXTS = [
    "", "   ", "As Kd Qh", "As,Kd,Qh", "As, Kd; Qh", "As;Kd", "As\tKd\nQh", " As  Kd ",
    "AsKd7h", "6s6c4h", "10h10d", "ThTd", "JkAs", "AsJk", "jokerjoker", "jokerAs", "JkJk",
    "A♠️ K♥️", "A♠︎", "A\ufe0fs", "10♠️10♥️", "a♤k♡", "As\u00a0Kd",
    "As Kd Qh Jc Tc 9c 8c 7c 6c 5c 4c 3c 2c",
    "Ac Ah As Kd Qd Qh Ts 7c 7h 6d 5s 4s 3s 2s",
]
#: Texts the server refuses: a bad rank, suit or order, a card cut short, other separators.
REFUSED = [
    "Xx", "1s", "11h", "0h", "10", "1", "A", "s", "Ace", "J", "Jo", "jokr", "As Kx", "AsK",
    "Asx", "As1", "sA", "♠A", "A s", "As/Kd", "As|Kd", "As.Kd", "A-s", "Ask d", "10 h", "AsKd7",
    "JkA", "Aß", "A♠x", "As, Kd, Qh, Xh",
]
#: Sets typed as rows: by "/" or "|", spaced or not, a whole set with no separator (split in
#: the served rows' sizes), and sets the server cannot read.
ROWS = [
    "Qs Qh 7d / Ts 9s 8s 7s 6s / As Ad Ac 2h 2d", "QsQh7d/Ts9s8s7s6s/AsAdAc2h2d",
    "Qs Qh 7d | Ts 9s 8s 7s 6s | As Ad Ac 2h 2d", "Jk Qh 7d / 10s 9s 8s 7s 6s / a♠ a♦ a♣ 2♥ 2♦",
    "Qs Qh 7d Ts 9s 8s 7s 6s As Ad Ac 2h 2d", "QsQh7dTs9s8s7s6sAsAdAc2h2d",
    "Qs Qh Xd / Ts 9s 8s 7s 6s / As Ad Ac 2h 2d", "Qs Qh 7d / Ts 9s 8s 7s 6s",
    "Qs Qh 7d Ts 9s 8s 7s 6s As Ad Ac 2h", "Qs Qh 7d Ts 9s 8s 7s 6s As Ad Ac 2h 2d 3c",
    "Qs Qh Xd Ts 9s 8s 7s 6s As Ad Ac 2h 2d", "",
]


def _served(text: str) -> list[str] | None:
    """The server's reading: the cards in the API's spelling, or None when refused."""
    try:
        return ascii_names(parse_cards(text, deck=ROOMY))
    except CardError:
        return None


def _served_rows(text: str) -> dict[str, list[str]] | None:
    try:
        board = parse_board(text, deck=ROOMY)
    except CardError:
        return None
    return {row: ascii_names(board.row(row)) for row in ROW_NAMES}


def _fulfil(route):
    path = route.request.url.removeprefix(ORIGIN)
    if path == "/":
        route.fulfill(body="<!doctype html><title>cards</title>", content_type="text/html")
    else:
        route.fulfill(path=STATIC / path.removeprefix("/static/"),
                      content_type="text/javascript")


@pytest.fixture(scope="module")
def page():
    with launched() as browser:
        context = browser.new_context()
        context.route(f"{ORIGIN}/**", _fulfil)
        tab = context.new_page()
        tab.goto(f"{ORIGIN}/")
        yield tab
        context.close()


def _read(page, texts: list[str], function: str) -> list:
    """``cards.js``'s ``function`` of each text, with the rows of a set as the server serves
    them (``/api/variants``), as app.js sets them before the views read one."""
    return page.evaluate("""async ([texts, name, rows]) => {
        (await import("/static/layout.js")).setRows(rows);
        const cards = await import("/static/cards.js");
        return texts.map((text) => cards[name](text));
    }""", [texts, function, variants()["rows"]])


def test_every_spelling_and_separator_reads_as_the_servers_parse_cards(page):
    singles = [rank + suit for rank in RANKS for suit in SUITS]
    singles += [card + selector for card in singles if not card[-1].isascii()
                for selector in ("\ufe0f", "\ufe0e")]
    texts = singles + JOKERS + TEXTS + REFUSED
    read = _read(page, texts, "parseCards")
    differ = []
    for text, mine in zip(texts, read):
        page_reading = mine["cards"] if not mine["bad"] else None
        if page_reading != _served(text):
            differ.append((text, page_reading, _served(text)))
    assert not differ, f"the page reads {len(differ)} texts otherwise than the server " \
        f"(text, page, server): {differ[:8]}"
    assert all(_served(text) is None for text in REFUSED)  # each case refuses what it says
    assert all(_served(text) is not None for text in singles + JOKERS + TEXTS)


def test_a_set_typed_as_rows_splits_as_the_servers_parse_board(page):
    read = _read(page, ROWS, "parseRows")
    assert read == [_served_rows(text) for text in ROWS]
    assert sum(reading is not None for reading in read) == 6  # each case reads as it says
