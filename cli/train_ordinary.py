"""``fantasyland train --ordinary``: deal ordinary hands street by street, read the player's
plays, grade each as ``advise`` grades it, and keep the score.

A helper of ``cli/train.py`` (it defines no ``command``, so ``cli.main`` does not take it
for one). Reads one play a line, in a terminal or from a script; a line that cannot be read
is reported and the same street is asked for again.
"""

from __future__ import annotations

import json
import sys
from contextlib import ExitStack
from pathlib import Path
from typing import IO

from rich.text import Text

from fantasyland.cli.check import points
from fantasyland.cli.errors import open_log
from fantasyland.cli.prompt import read_until
from fantasyland.cli.render import LABEL_WIDTH, cards_text, console, plural, say
from fantasyland.optimizer.ordinary import Decision, OrdinarySession, PlayError
from fantasyland.optimizer.solver import ObjectiveName, describe, read_table



def _help(session: OrdinarySession) -> str:
    keep = session.dealing.keep
    per = session.dealing.per_round
    discards = per > keep
    later = (f"then {per} a street, keeping {keep}; the card you leave out is the discard"
             if discards else f"then {per} a street")
    say = "; 'discard 3h' may be said or left out" if discards else ""
    return ("Type each kept card and its row: 'Kd top, Qs bottom' (rows top, middle, bottom, "
            f"or t, m, b{say}). The first street deals {session.dealing.first} cards, all "
            f"kept, {later}. ? shows this, q quits.")


def _unit(session: OrdinarySession) -> str:
    return "royalty points" if session.objective == ObjectiveName.ROYALTIES \
        else session.rules.unit + "s"


def score_text(session: OrdinarySession, *, label: str = "Score") -> Text:
    s = session.score
    screened = f", {s.screened} not valued (screened out)" if s.screened else ""
    return Text.assemble(
        (f"{label}:".ljust(12), "bold"),
        f"{plural(s.hands, 'hand')}, {plural(s.decisions, 'decision')}, {s.best} best "
        f"({s.best_share:.0%}), {plural(s.fouls, 'foul')}, EV lost {points(s.ev_lost)} "
        f"{_unit(session)} ({points(s.mean_ev_lost)} a decision){screened}")


def grade_lines(d: Decision, unit: str) -> list[Text]:
    """The grade of one decision: the play, what it lost, and the best play."""
    played, best = d.played, d.best
    count = len(d.advice.plays)
    if d.screened:
        verdict = (f"not among the {d.raced} plays rolled out; the screen ranked it "
                   f"{d.rank} of {count}, so it has no value to grade")
    elif d.is_best:
        verdict = "the best play" + (f" (of {count})" if d.raced == count else
                                     f" (of {d.raced} rolled out, {count} in all)")
    else:
        # An error printed beside its figure to the figure's own two decimals: '2.5 ± 1'
        # beside '0.97' read as two precisions.
        lost = points(d.ev_lost) if d.advice.exact else \
            f"{d.ev_lost:.2f} ± {played.behind_error:.2f}"
        standing = "close to the best, within noise" if played.close else "behind the best"
        verdict = (f"EV lost {lost} {unit}, {standing} "
                   f"(rank {d.rank} of {count})")
    lines = [Text.assemble(("Your play:".ljust(12), "bold"), played.play.describe(),
                           f": {verdict}")]
    if not d.is_best:
        value = "" if best.value is None else f", worth {points(best.value)}"
        lines.append(Text.assemble(("Best play:".ljust(12), "bold"), best.play.describe(),
                                   value))
    return lines


def _show_street(session: OrdinarySession) -> None:
    street = session.current
    assert street is not None
    p = street.position
    console.print()
    head = Text.assemble((f"Hand {street.hand}, street {p.street}", "bold"),
                         f" ({plural(len(p.cards), 'card')}, keep {p.keep}): ",
                         cards_text(p.cards))
    say(head)
    board = p.board.format(ascii=True) if p.placed else "empty"
    dead = f"; your discards {' '.join(cards_text([c]).plain for c in p.dead)}" \
        if p.dead else ""
    say(Text.assemble(("Board:".ljust(12), "bold"), board, dead), indent=LABEL_WIDTH)


def _play_street(session: OrdinarySession, interactive: bool, log: IO[str] | None) -> bool:
    """Show the street, read plays until one can be graded, show the grade. False when the
    player quits."""
    _show_street(session)
    def readable(typed: str) -> str:  # the play as typed, once it reads (else PlayError)
        session.read(typed)
        return typed

    text = read_until("play> ", interactive,
                      lambda: say(_help(session)), readable,
                      (PlayError,), "play")
    if text is None:
        return False
    d = session.play(text)
    for line in grade_lines(d, _unit(session)):
        say(line, indent=LABEL_WIDTH)
    if log is not None:
        log.write(json.dumps(session.decision_record(d), sort_keys=True) + "\n")
        log.flush()
    if session.finished is not None:
        _show_finish(session, log)
    return True


def _show_finish(session: OrdinarySession, log: IO[str] | None) -> None:
    f = session.finished
    assert f is not None
    r = f.report
    if r.fouled:
        outcome = "fouled (" + "; ".join(r.foul_reasons) + "), no royalties"
    else:
        outcome = f"royalties {r.royalties.total}" + (
            f", Fantasyland with {r.fantasyland_cards} cards"
            if r.fantasyland_cards is not None else "")
    say(Text.assemble(("Finished:".ljust(12), "bold"), f"{f.board}: {outcome}"), indent=LABEL_WIDTH)
    best = sum(d.is_best for d in f.decisions)
    screened = f", {f.screened} not valued" if f.screened else ""
    say(Text.assemble(
        (f"Hand {f.hand}:".ljust(12), "bold"),
        f"EV lost {points(f.ev_lost)} {_unit(session)} over {plural(len(f.decisions), 'play')}"
        f", {best} best{screened}"), indent=LABEL_WIDTH)
    say(score_text(session), indent=LABEL_WIDTH)
    if log is not None:
        log.write(json.dumps(session.finish_record(), sort_keys=True) + "\n")
        log.flush()


def run(session: OrdinarySession, hands: int | None, log: Path | None) -> None:
    """The session in the terminal or from stdin: hands until ``hands``, q, the end of the
    input or Ctrl-C, then the summary."""
    interactive = sys.stdin.isatty()
    with ExitStack() as stack:
        out = open_log(stack, log, session.header_record())
        table = ""
        if session.objective == ObjectiveName.EV:
            seats = session.table.seated(session.rules)
            table = ", " + {1: "heads-up", 2: "three-handed"}.get(seats, f"{seats + 1}-handed")
            if session.table.known:
                table += f" ({describe(read_table(session.rules, (), spec=session.table))})"
            table += f", {session.samples} opponent samples"
        say(Text.assemble(
            ("Training", "bold"), f": {session.rules.name} ordinary hands "
            f"({session.dealing.name}), {session.objective} objective{table}, budget "
            f"{session.budget} rollouts, seed {session.seed}."))
        say(_help(session))
        try:
            while hands is None or session.score.hands < hands:
                if session.current is None:
                    session.deal()
                if not _play_street(session, interactive, out):
                    break
        except (EOFError, KeyboardInterrupt):
            console.print()
        console.print()
        say(score_text(session, label="Summary"), indent=LABEL_WIDTH)
        if out is not None:
            out.write(json.dumps(session.summary_record(), sort_keys=True) + "\n")
