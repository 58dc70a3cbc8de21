"""The Play view's jobs: a game against the bots, one request a step, in the server's workers.

The game is ``optimizer.play.Game``, the one ``fantasyland play`` drives in the terminal. The
server keeps each game between requests (``cli.web.games``) as the bytes of a pickle these
jobs made, and sends them with the next request: a job loads the game, takes its step (start,
a move, the hint, the next hand) and gives back the game's new bytes and what the page shows
of it (``view``), the table as a real one shows it. A step that cannot be taken raises an
``InputError`` and leaves the kept game as it was. The same settings and moves give the same
game as the terminal's, whose log lines these jobs write alike (``hand_lines``).
"""

from __future__ import annotations

import pickle
from typing import Any

from fantasyland.cli.play_show import name
from fantasyland.cli.render import report_dict
from fantasyland.cli.web.fields import FieldError
from fantasyland.evaluator.cards import Card, card_name
from fantasyland.evaluator.rules import ROWS
from fantasyland.optimizer.ordinary import Figure
from fantasyland.optimizer.play import (PLAYER, Game, PlaySettings, bot_name, hand_lines,
                                        hand_record, header_line, unseen_counts)

#: Hands a game of the browser plays before it must be started again: the server keeps its
#: log lines in memory (``cli.web.games``), and this bounds them.
MOST_HANDS = 200
#: Plays the hint lists, best first (as ``play``'s ``?``).
HINT_PLAYS = 8


def _names(cards: tuple[Card, ...] | list[Card]) -> list[str]:
    return [card_name(card, ascii=True) for card in cards]


def _rows(text: str) -> dict[str, list[str]]:
    """``"Kd / 7c 8c / "`` as ``{"top": ["Kd"], "middle": ["7c", "8c"], "bottom": []}``."""
    return {row: part.split() for row, part in zip(ROWS, text.split("/"))}


def _load(state: bytes) -> Game:
    return pickle.loads(state)


def _dump(game: Game) -> bytes:
    return pickle.dumps(game, protocol=pickle.HIGHEST_PROTOCOL)


def _seat(game: Game, seat) -> dict:
    """A seat as the player sees it: a Fantasyland hand hidden until the showdown, and
    another seat's discards too."""
    hidden = seat.fantasyland is not None and seat.seat != PLAYER and not game.finished
    shown = seat.seat == PLAYER or game.finished
    return {"seat": seat.seat, "name": name(seat.seat), "fantasyland": seat.fantasyland,
            "on_button": seat.seat == game.seating.button,
            "rows": None if hidden else _rows(seat.board_text()),
            "discards": _names(seat.discards) if shown else None}


def _turn(game: Game) -> dict | None:
    turn = game.turn
    if turn is None:
        return None
    ranks, suits = unseen_counts(game.rules, game.seats, turn.cards)
    return {"street": turn.street, "fantasyland": turn.fantasyland,
            "cards": _names(turn.cards),
            "keep": 13 if turn.position is None else turn.position.keep,
            "fouled": turn.fouled, "unseen": {"ranks": ranks, "suits": suits}}


def _showdown(game: Game) -> dict | None:
    result = game.showdown
    if result is None:
        return None
    seats = []
    for s in result.seats:
        seats.append({"seat": s.seat, "name": name(s.seat), "report": report_dict(s.report),
                      "fantasyland": s.fantasyland, "entered": s.entered,
                      "stays": s.fantasyland is not None
                      and s.next_fantasyland(game.rules) is not None,
                      "discards": _names(s.discards), "points": s.points})
    pairs = []
    for i in range(len(result.seats)):
        for j in range(i + 1, len(result.seats)):
            rows = result.rows(i, j)
            pairs.append({"seats": [i, j], "points": result.pairs[i][j],
                          "rows": None if rows is None else dict(zip(ROWS, rows)),
                          "scoop": rows is not None
                          and (result.scoops(i, j) or result.scoops(j, i))})
    return {"seats": seats, "pairs": pairs,
            "streets": [g.record() for g in game.street_grades],
            "set": None if game.set_grade is None else game.set_grade.record()}


def view(game: Game) -> dict:
    """What the page shows of ``game``: the settings, the hand, every seat as the table
    shows it, the player's turn (None at the showdown), the showdown (None before it), the
    session's figures and the points of each hand (the chart's)."""
    s = game.settings
    return {"settings": s.record(), "variant": game.rules.name, "bot": bot_name(game.rules),
            "unit": game.rules.unit, "hand": game.hand, "most_hands": MOST_HANDS,
            "button": game.seating.button, "order": list(game.seating.order),
            "seats": [_seat(game, seat) for seat in game.seats],
            "turn": _turn(game), "showdown": _showdown(game),
            "next_fantasyland": {str(k): v for k, v in sorted(game.next_fantasyland.items())},
            "figures": game.figures.record(replays=game.players if s.duplicate else None),
            "points": [h.points for h in game.figures.hands]}


def _settled(game: Game) -> dict:
    """A step's answer: the game's bytes and view, and, where the step ended the hand, the
    hand's log lines and record (the server keeps them, and the record's row in the
    history)."""
    out: dict[str, Any] = {"state": _dump(game), "view": view(game)}
    if game.finished:
        out["lines"] = hand_lines(game)
        out["record"] = hand_record(game)
    return out


def play_start(fields: dict[str, Any]) -> dict:
    """A new game under the request's settings, each one given (``jobs`` fills in the
    defaults), dealt up to the player's first turn; its log's first line is ``header``."""
    settings = PlaySettings(
        variant=fields["variant"], opponents=fields["opponents"], seed=fields["seed"],
        objective=fields["objective"], budget=fields["budget"], samples=fields["samples"],
        duplicate=fields["duplicate"], fantasyland=fields["fantasyland"])
    game = Game(settings)
    game.deal()
    return _settled(game) | {"header": header_line(settings.record(), bot_name(game.rules))}


def play_move(fields: dict[str, Any]) -> dict:
    """The player's move (``=``: the adviser's best), graded, and the bots on to the
    player's next turn or the showdown."""
    game = _load(fields["state"])
    if game.turn is None:
        raise FieldError(f"hand {game.hand} is over: deal the next hand before a move")
    text = fields["move"].strip()
    game.play(game.best_move() if text == "=" else game.read_move(text))
    return _settled(game)


def play_next(fields: dict[str, Any]) -> dict:
    """The next hand, dealt up to the player's first turn."""
    game = _load(fields["state"])
    if not game.finished:
        raise FieldError(f"hand {game.hand} is not over: make its moves before the next hand")
    if game.hand >= MOST_HANDS:
        raise FieldError(f"this game has played {MOST_HANDS} hands, the most a game of the "
                         "browser plays: start a new game (every hand is in the history)")
    game.deal()
    return _settled(game)


def play_hint(fields: dict[str, Any]) -> dict:
    """The adviser's answer on the player's turn, as ``play``'s ``?`` shows it: the best
    plays of the street ranked, or the solver's set of a Fantasyland hand."""
    game = _load(fields["state"])
    turn = game.turn
    if turn is None:
        raise FieldError(f"hand {game.hand} is over: there is no move to advise on")
    answer = game.advice()
    hint: dict[str, Any]
    if turn.position is None:
        hint = {"kind": "set", "board": _rows(answer.board.format(ascii=True)),
                "discards": _names(answer.discards), "value": round(answer.value, 9),
                "objective": str(answer.objective), "stays": answer.stays}
    elif answer is None:
        hint = {"kind": "fouled"}
    else:
        hint = {"kind": "plays", "exact": answer.exact, "plays": len(answer.plays),
                "ranked": [_ranked(value, answer.exact)
                           for value in answer.plays[:HINT_PLAYS]]}
    return {"state": _dump(game), "hint": hint}


def _ranked(value, exact: bool) -> dict:
    """One play of the hint: its words, and its figure with where it came from."""
    out: dict[str, Any] = {"play": value.play.describe(), "source": str(value.source),
                           "screened": value.screened}
    if value.screened:
        return out
    if value.source == Figure.MODEL:
        out["model"] = None if value.model is None else round(value.model, 9)
        out["value"] = None if value.value is None else round(value.value, 9)
        return out
    out["value"] = round(value.value, 9)
    out["error"] = None if exact else round(value.standard_error, 9)
    out["foul_chance"] = round(value.foul_chance, 9)
    return out
