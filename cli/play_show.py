"""What ``fantasyland play`` shows: the table on the player's turn, the adviser's answer, the
showdown with the player's grades, and the session's figures.

A helper of ``cli/play.py`` (it defines no ``command``). Cards are written as text (``Kd``),
so that a session's output reads the same in a terminal, a pipe and a test.
"""

from __future__ import annotations

from fantasyland.cli.render import plural, say
from fantasyland.evaluator.cards import format_cards
from fantasyland.evaluator.rules import ROWS
from fantasyland.optimizer.ordinary import Figure
from fantasyland.optimizer.play import PLAYER, Game, Mean, unseen_counts

#: Plays ``?`` lists, best first.
SHOWN_PLAYS = 8


def name(seat: int) -> str:
    return "you" if seat == PLAYER else f"bot {seat}"


def board(text: str) -> str:
    """A board so far as the table shows it: ``- / 7c 8c / 2s``, a dash for an empty row."""
    return " / ".join(row.strip() or "-" for row in text.split("/"))


def signed(value: float) -> str:
    """``+3``, ``-1.5``, ``0``: points as the table pays them."""
    text = f"{round(value, 2):g}"
    return text if text.startswith("-") or text == "0" else "+" + text


def mean_text(m: Mean, unit: str) -> str:
    if m.count == 0:
        return "no hands"
    error = "" if m.error is None else f" ± {m.error:.2f}"
    return f"{signed(m.mean)}{error} {unit} a hand over {plural(m.count, 'hand')}"


def show_start(game: Game, bot: str) -> None:
    s = game.settings
    rules = game.rules
    say(f"Playing {rules.name}: you and {plural(s.opponents, 'bot')} ({bot}), "
        f"{s.objective} objective, seed {s.seed}, advise's budget {s.budget}"
        + (", duplicate deals" if s.duplicate else "") + ".")
    say("Type a play as 'Kd top 7c mid 3h x' (rows top, middle, bottom or t, m, b; x throws "
        "a card away), or a Fantasyland set as 'TOP / MIDDLE / BOTTOM'. ? shows the "
        "adviser's ranking, = plays its best, q stops.")


def show_hand(game: Game) -> None:
    say("")
    seating = game.seating
    order = ", ".join(name(seat) for seat in seating.order)
    fl = [f"{name(s.seat)} in Fantasyland with {s.fantasyland} cards" for s in game.seats
          if s.fantasyland is not None]
    say(f"Hand {game.hand}: {name(seating.button)} on the button; acting {order}"
        + ("; " + ", ".join(fl) if fl else "") + ".")


def show_turn(game: Game) -> None:
    turn = game.turn
    assert turn is not None
    for s in game.seats:
        if s.seat == PLAYER:
            continue
        if s.fantasyland is not None:
            shown = f"in Fantasyland ({s.fantasyland} cards), hidden until the showdown"
        else:
            shown = board(s.board_text()) if s.placed else "(nothing placed yet)"
        say(f"  {name(s.seat):<8}{shown}")
    me = game.seats[PLAYER]
    if turn.position is None:
        say(f"  {'you':<8}in Fantasyland: set {len(turn.cards)} cards")
        say(f"  Dealt:  {format_cards(sorted(turn.cards, reverse=True), ascii=True)}")
    else:
        p = turn.position
        say(f"  {'you':<8}{board(me.board_text()) if me.placed else '(empty)'}"
            + (f"; discards {format_cards(me.discards, ascii=True)}" if me.discards else ""))
        say(f"  Street {p.street}: {format_cards(p.cards, ascii=True)} (keep {p.keep})")
    ranks, suits = unseen_counts(game.rules, game.seats, turn.cards)
    say("  Unseen: " + " ".join(f"{r}:{n}" for r, n in ranks.items()) + " | "
        + " ".join(f"{s}:{n}" for s, n in suits.items()))


def show_advice(game: Game) -> None:
    """``?``: the adviser's ranking of the street's plays, or the solver's set."""
    turn = game.turn
    assert turn is not None
    answer = game.advice()
    if turn.position is None:
        discards = format_cards(answer.discards, ascii=True)
        say(f"  Solver's set: {answer.board.format(ascii=True)}"
            + (f", discards {discards}" if discards else "")
            + f": worth {answer.value:.2f} ({answer.objective}), "
            + ("stays in Fantasyland" if answer.stays else "does not stay"))
        other = answer.best_not_staying if answer.stays else answer.best_staying
        if other is not None:
            say(f"  Best that {'does not stay' if answer.stays else 'stays'}: "
                f"{other.board.format(ascii=True)}: worth {other.points:.2f}")
        return
    if answer is None:
        say("  Your board already fouls: every play is worth the same.")
        return
    say(f"  The adviser's ranking ({'exact' if answer.exact else 'rollouts'}, "
        f"{plural(len(answer.plays), 'play')}):")
    for rank, value in enumerate(answer.plays[:SHOWN_PLAYS], 1):
        if value.screened:
            say(f"  {rank:>3}. {value.play.describe()}: not rolled out (screened)")
            continue
        if value.source == Figure.MODEL:  # valued by the learned model alone
            say(f"  {rank:>3}. {value.play.describe()}: model {value.model:.2f}"
                + (" (royalty points: a ranking)" if value.value is None else ""))
            continue
        error = "" if answer.exact else f" ± {value.standard_error:.2f}"
        say(f"  {rank:>3}. {value.play.describe()}: {value.value:.2f}{error}, "
            f"fouls {value.foul_chance:.0%}")


def show_showdown(game: Game) -> None:
    result = game.showdown
    assert result is not None
    say(f"Showdown, hand {game.hand}:")
    for s in result.seats:
        r = s.report
        what = "fouled" if r.fouled else f"royalties {r.royalties.total}"
        if s.entered is not None:
            what += f", Fantasyland with {s.entered} cards"
        elif s.fantasyland is not None and s.next_fantasyland(game.rules) is not None:
            what += ", stays in Fantasyland"
        discards = f" (discards {format_cards(s.discards, ascii=True)})" if s.discards else ""
        say(f"  {name(s.seat):<8}{r.board.format(ascii=True)}: {what}{discards}; "
            f"{signed(s.points)}")
    for i in range(len(result.seats)):
        for j in range(i + 1, len(result.seats)):
            rows = result.rows(i, j)
            if rows is None:
                detail = "a foul"
            else:
                words = {1: "won", 0: "tied", -1: "lost"}
                detail = ", ".join(f"{row} {words[x]}" for row, x in zip(ROWS, rows))
                if result.scoops(i, j) or result.scoops(j, i):
                    detail += ", a scoop"
            say(f"  {name(i)} v {name(j)}: {detail}; {signed(result.pairs[i][j])}")
    for g in game.street_grades:
        if g.ev_lost is None:
            verdict = "the board already fouled"
        elif g.is_best:
            verdict = "the best play"
        else:
            error = "" if g.exact or g.ev_lost_error is None else f" ± {g.ev_lost_error:.2f}"
            verdict = f"EV lost {g.ev_lost:.2f}{error}; best {g.best}"
        say(f"  Street {g.street}: {g.play}: {verdict}")
    if game.set_grade is not None:
        g = game.set_grade
        verdict = "optimal" if g.optimal else f"EV lost {g.ev_lost:.2f}; best {g.best}"
        say(f"  Fantasyland: {g.played}: {verdict}")


def show_figures(game: Game) -> None:
    f = game.figures
    unit = game.rules.unit + "s"
    say("")
    if not f.hands:
        say("Session: no hand finished.")
        return
    say(f"Session: {mean_text(f.points, unit)}.")
    say(f"  On the button: {mean_text(f.by_position(on_button=True), unit)}; "
        f"not: {mean_text(f.by_position(on_button=False), unit)}.")
    entries = ", ".join(f"{plural(n, 'entry', words='entries')} with {cards} cards"
                        for cards, n in f.entries.items()) or "no Fantasyland entries"
    say(f"  {plural(f.fouls, 'foul')}; {entries}; "
        f"{plural(f.fantasyland_hands, 'hand')} played in Fantasyland.")
    per = f.ev_lost_a_decision
    sets = f.sets
    say(f"  EV lost: {'none graded' if per is None else f'{per:.3f} a decision'} "
        f"over {plural(f.decisions, 'decision')}"
        + (f"; {sum(sets):.2f} over {plural(len(sets), 'Fantasyland set')}" if sets else "")
        + ".")
    if game.settings.duplicate:
        say(f"  Duplicate: {mean_text(f.by_deal(game.players), unit).replace('a hand', 'a deal')}"
            f" (each deal played from every seat: your points less the bots' on the same "
            "cards).")
