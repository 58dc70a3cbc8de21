"""The opponent bots' laboratory: head to head, audits, candidate bots' pools and figures.

A developer's tool, not a user's command (``fantasyland opponents`` is the user's): what it
measured is in docs/notes-opponents.md, with the commands that measured it.

* ``head-to-head``: a challenger against an incumbent over duplicate deals, each from both
  seats (``optimizer.opponents.head_to_head``), saved and resumed with ``--chunks DIR``.
* ``audit DECISION``: how far one decision of a bot is from the best its own play can make
  of it (``optimizer.opponents.audit``).
* ``pool``: a pool played by a candidate bot, to ``--output``.
* ``stats``: the figures of a candidate bot's live play.

A bot is ``shipped`` or ``strong`` (``optimizer.opponents.pools.BOTS``), with each
``--bot-knob NAME=VALUE`` set (``BotParams`` in optimizer/opponents/params.py). Bad input is
refused in one line on stderr, exit status 2.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # small matrices: threads only contend

import argparse  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
from collections.abc import Sequence  # noqa: E402
from pathlib import Path  # noqa: E402

#: Deals head-to-head plays, and audit audits, when --hands is not given.
DEFAULT_DEALS = 200
DEFAULT_AUDIT_DEALS = 100
#: The placements and continuations of each decision an audit compares by default.
DEFAULT_PLACEMENTS = 6
DEFAULT_CONTINUATIONS = 16
#: How the tables name each bot: "the stronger bot against the shipped one".
BOT_WORDS = {"shipped": "shipped", "strong": "stronger"}
BAD_INPUT = 2


class BadInput(Exception):
    """A command line the tool cannot run: said in one line."""


class _Parser(argparse.ArgumentParser):
    """argparse, its complaints in one line (``error: ...``) and exit status 2."""

    def error(self, message: str):  # type: ignore[override]
        raise BadInput(message)


def _at_least(least: int):
    def read(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r}: expected a whole number") from None
        if value < least:
            raise argparse.ArgumentTypeError(f"{text!r}: expected at least {least}")
        return value
    return read


def parser() -> argparse.ArgumentParser:
    top = _Parser(prog="python tools/bots.py", description=__doc__.splitlines()[0])
    commands = top.add_subparsers(dest="command", required=True, parser_class=_Parser)

    def common(command: argparse.ArgumentParser, hands: str) -> None:
        command.add_argument("--variant", default="pineapple", help="rules (a preset or FILE)")
        command.add_argument("--seed", type=_at_least(0), default=0)
        command.add_argument("--hands", type=_at_least(1), default=None, help=hands)
        command.add_argument("--bot", choices=sorted(BOT_WORDS), default=None)
        command.add_argument("--bot-knob", action="append", default=[], metavar="NAME=VALUE",
                             help="set one knob of --bot (repeatable)")

    versus = commands.add_parser("head-to-head", help="two bots over duplicate deals")
    common(versus, f"deals, each played from both seats (default {DEFAULT_DEALS})")
    versus.add_argument("--first-deal", type=_at_least(0), default=0)
    versus.add_argument("--incumbent", choices=sorted(BOT_WORDS), default="shipped")
    versus.add_argument("--incumbent-knob", action="append", default=[],
                        metavar="NAME=VALUE", help="set one knob of --incumbent (repeatable)")
    versus.add_argument("--chunks", type=Path, default=None, metavar="DIR",
                        help="save each bot's boards there as they are played, and read "
                             "those saved instead of playing them")
    versus.add_argument("--saved-only", action="store_true",
                        help="play nothing: score every deal of --seed saved in --chunks")

    audit = commands.add_parser("audit", help="one decision of a bot against its own best")
    audit.add_argument("decision", type=_at_least(1),
                       help="1: the first cards; not the last, which is exact")
    common(audit, f"deals whose seat A is audited (default {DEFAULT_AUDIT_DEALS})")
    audit.add_argument("--first-deal", type=_at_least(0), default=0)
    audit.add_argument("--placements", type=_at_least(2), default=DEFAULT_PLACEMENTS)
    audit.add_argument("--continuations", type=_at_least(4), default=DEFAULT_CONTINUATIONS)
    audit.add_argument("--json", action="store_true")

    pool = commands.add_parser("pool", help="a pool played by a candidate bot")
    common(pool, "hands (default: the size of the pool that serves the rules)")
    pool.add_argument("--pool-seed", type=_at_least(0), default=None)
    pool.add_argument("--workers", type=_at_least(1), default=os.cpu_count() or 1)
    pool.add_argument("--output", type=Path, required=True)
    pool.add_argument("--chunks", type=Path, default=None, metavar="DIR")
    pool.add_argument("--saved-only", action="store_true")

    stats = commands.add_parser("stats", help="the figures of a candidate bot's live play")
    common(stats, "hands played (default 5000)")
    stats.add_argument("--workers", type=_at_least(1), default=os.cpu_count() or 1)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    from fantasyland.evaluator.errors import InputError
    from fantasyland.optimizer.opponents.errors import OpponentModelError

    try:
        args = parser().parse_args(argv)
        if getattr(args, "saved_only", False) and args.chunks is None:
            raise BadInput("--saved-only reads the boards of --chunks DIR: add --chunks")
        {"head-to-head": _head_to_head, "audit": _audit, "pool": _pool,
         "stats": _stats}[args.command](args)
    except (BadInput, InputError, OpponentModelError) as error:
        print(f"error: {error}", file=sys.stderr)
        return BAD_INPUT
    return 0


def _rules(args: argparse.Namespace):
    from fantasyland.evaluator import find_rules

    rules = find_rules(args.variant)
    if rules.dealing.closed:
        raise BadInput(f"{rules.name}'s players set their hands by the closed-hand model, "
                       "not a bot")
    return rules


def _bot(rules, name: str, knobs: Sequence[str]):
    """The bot ``name`` with ``knobs`` set, and the knobs set as ``--bot-knob`` spells them."""
    from fantasyland.optimizer.opponents.params import knobs_text, with_knobs
    from fantasyland.optimizer.opponents.pools import BOTS, dealing_for

    base = BOTS[name][dealing_for(rules).name]
    params = with_knobs(base, knobs)
    return params, knobs_text(base, params)


# --- head-to-head ----------------------------------------------------------------------------

def _head_to_head(args: argparse.Namespace) -> None:
    from fantasyland.optimizer.opponents.head_to_head import head_to_head, saved_head_to_head
    from fantasyland.optimizer.opponents.pools import dealing_for

    if args.saved_only and args.first_deal:
        raise BadInput("--first-deal is for deals played: drop it with --saved-only")
    rules = _rules(args)
    challenger, incumbent = args.bot or "strong", args.incumbent
    (ours, tuned), (theirs, theirs_tuned) = (_bot(rules, challenger, args.bot_knob),
                                             _bot(rules, incumbent, args.incumbent_knob))
    if args.chunks is not None and args.chunks.exists() and not args.chunks.is_dir():
        raise BadInput(f"--chunks {str(args.chunks)!r}: not a directory")
    deals = DEFAULT_DEALS if args.hands is None else args.hands
    if args.saved_only:
        result, ranges = saved_head_to_head(rules, ours, theirs, args.seed, args.chunks)
        which = ", ".join(f"{start}..{stop - 1}" for start, stop in ranges)
    else:
        result = head_to_head(rules, dealing_for(rules), ours, theirs, deals, args.seed,
                              first=args.first_deal, directory=args.chunks)
        which = f"{args.first_deal}..{args.first_deal + deals - 1}"
    print(f"{rules.name}: {result.deals} deals ({which}), each played from both seats "
          f"({result.games} games), seed {args.seed}")
    print(head_to_head_table(result, (challenger, tuned), (incumbent, theirs_tuned)))
    print(f"Points are the {_word(challenger, tuned)} bot's, a game, ± one standard error "
          "over the deals; a difference is its figure less the other's, paired deal by deal "
          "(docs/notes-opponents.md, \"The stronger bot\").")


def _word(bot: str, tuned: str, candidate: str = "candidate") -> str:
    """``candidate`` for a bot with knobs set, else its name: "stronger"."""
    return candidate if tuned else BOT_WORDS[bot]


def head_to_head_table(result, challenger: tuple[str, str], incumbent: tuple[str, str]) -> str:
    """The head-to-head's figures as a text table under its title; each bot is its name and
    the knobs set on it ("" for none)."""
    ours, theirs = _word(*challenger), _word(*incumbent, "incumbent")

    def named(word: str, bot: tuple[str, str], noun: str) -> str:
        return f"{word} {noun} ({BOT_WORDS[bot[0]]}, {bot[1]})" if bot[1] else f"{word} {noun}"

    rows = [("Figure", f"{ours.capitalize()} bot", f"{theirs.capitalize()} bot", "Difference"),
            ("points a game", f"{result.points:+.3f} ± {result.points_se:.3f}",
             f"{0.0 - result.points:+.3f}", ""),
            ("with entries at worth",
             f"{result.points_with_entries:+.3f} ± {result.points_with_entries_se:.3f}",
             f"{0.0 - result.points_with_entries:+.3f}", "")]
    for name, key, fmt, change in (
            ("foul rate", "foul_rate", "{:.1%} ± {:.1%}", "{:+.1f} ± {:.1f} pp"),
            ("Fantasyland rate", "fantasyland_rate", "{:.1%} ± {:.1%}", "{:+.1f} ± {:.1f} pp"),
            ("mean royalties", "mean_royalties", "{:.2f} ± {:.2f}", "{:+.2f} ± {:.2f}"),
            ("entries lost to fouls", "entries_fouled_rate", "{:.1%} ± {:.1%}",
             "{:+.1f} ± {:.1f} pp")):
        scale = 100 if change.endswith("pp") else 1
        rows.append((name, *(fmt.format(getattr(bot, key), getattr(bot, key + "_se"))
                             for bot in (result.challenger, result.incumbent)),
                     change.format(scale * getattr(result.difference, key),
                                   scale * getattr(result.difference, key + "_se"))))
    rows.append(("hands", str(result.challenger.hands), str(result.incumbent.hands),
                 f"{result.deals} deals"))
    title = f"the {named(ours, challenger, 'bot')} against the {named(theirs, incumbent, 'one')}"
    return title + "\n" + text_table(rows)


def text_table(rows: Sequence[Sequence[str]]) -> str:
    """Rows of text in columns, the first left-aligned, the others right-aligned, the first
    row the header, ruled off."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]

    def line(row: Sequence[str]) -> str:
        cells = [row[0].ljust(widths[0])] + [cell.rjust(w) for cell, w in zip(row[1:],
                                                                                widths[1:])]
        return "  ".join(cells).rstrip()

    return "\n".join([line(rows[0]), "  ".join("-" * w for w in widths)]
                     + [line(row) for row in rows[1:]])


# --- audit -----------------------------------------------------------------------------------

def _audit(args: argparse.Namespace) -> None:
    from fantasyland.optimizer.opponents.audit import audit_decision, decisions, headroom
    from fantasyland.optimizer.opponents.errors import OpponentModelError
    from fantasyland.optimizer.opponents.pools import dealing_for

    rules = _rules(args)
    dealing = dealing_for(rules)
    decision, seed, first = args.decision, args.seed, args.first_deal
    deals = DEFAULT_AUDIT_DEALS if args.hands is None else args.hands
    if decision > decisions(dealing):
        raise OpponentModelError(
            f"audit {decision}: expected 1 to {decisions(dealing)} ({rules.name} deals "
            f"{dealing.rounds + 1} decisions a hand, the last exact)")
    bot = args.bot or "strong"
    params, tuned = _bot(rules, bot, args.bot_knob)
    audit = audit_decision(rules, dealing, params, decision, deals, seed, first=first,
                           placements=args.placements, continuations=args.continuations)
    if audit.hands == 0:
        raise OpponentModelError(f"audit {decision}: no deal of {first}..{first + deals - 1} "
                                 f"has {args.placements} placements there; lower --placements")
    found = headroom(audit)
    if args.json:
        print(json.dumps({
            "variant": rules.name, "decision": decision, "seed": seed, "first_deal": first,
            "deals": deals, "bot": bot, "knobs": tuned, "placements": args.placements,
            "continuations": args.continuations, "hands": found.hands,
            "skipped": audit.skipped, "mean_difference": found.mean_difference,
            "spread": found.spread, "noise": found.noise, "changed": found.changed,
            "lead": found.lead, "raw_lead": found.raw_lead,
            "held_out": {name: {"mean": mean, "se": se}
                         for name, (mean, se) in found.held_out.items()}},
            indent=2, sort_keys=True))
        return
    who = f"the {bot} bot" + (f" ({tuned})" if tuned else "")
    print(f"{rules.name}: decision {decision} of {who}, seat A of deals {first}.."
          f"{first + deals - 1}, seed {seed}: its first look's best {args.placements} "
          f"placements each played on {args.continuations} times by the bot itself")
    skipped = f" ({audit.skipped} skipped: too few placements)" if audit.skipped else ""
    rows = [("Figure", "Value"),
            ("hands audited", f"{found.hands}{skipped}"),
            ("other placements less the choice", f"{found.mean_difference:+.3f}"),
            ("spread of their true differences", f"{found.spread:.3f}"),
            ("noise of one difference", f"{found.noise:.3f}"),
            ("hands whose best is not the choice", f"{found.changed:.0%}"),
            ("the best's estimated lead", f"{found.lead:+.3f}"),
            ("the best raw mean's lead (noise in it)", f"{found.raw_lead:+.3f}")]
    for key, scale, fmt in (("points", 1, "{:+.3f} ± {:.3f}"),
                            ("fouls", 100, "{:+.1f} ± {:.1f} pp"),
                            ("entries", 100, "{:+.1f} ± {:.1f} pp"),
                            ("royalties", 1, "{:+.2f} ± {:.2f}")):
        mean, se = found.held_out[key]
        rows.append((f"held out: {key}", fmt.format(scale * mean, scale * se)))
    print("what a choice by the bot's own continuations would gain")
    print(text_table(rows))
    print("A difference is the other placement's points less the bot's choice's, the same "
          "futures for both; the held-out choice is made on half the continuations and "
          "valued on the other half (docs/notes-opponents.md, \"How much a better choice "
          "would gain\").")


# --- a candidate's pool and figures ----------------------------------------------------------

def _pool(args: argparse.Namespace) -> None:
    from fantasyland.optimizer.opponents.players import build_pool

    rules = _rules(args)
    pool = build_pool(rules, hands=args.hands, seed=args.pool_seed, workers=args.workers,
                      bot=args.bot, directory=args.chunks, saved_only=args.saved_only,
                      knobs=args.bot_knob)
    try:
        pool.save(args.output)
    except OSError as error:
        raise BadInput(f"cannot write pool {str(args.output)!r}: "
                       f"{error.strerror or error}") from None
    print(f"Wrote {len(pool)} boards (rules {rules.name}, seed {pool.meta['seed']}, knobs "
          f"{json.dumps(pool.meta['params'], sort_keys=True)}) to {args.output}")


def _stats(args: argparse.Namespace) -> None:
    from fantasyland.optimizer.opponents.draw import bot_stats

    if args.bot_knob:
        raise BadInput("stats plays a bot as it is: to measure a candidate's knobs, build its "
                       "pool (pool --bot-knob ... --output FILE) and read it with "
                       "FANTASYLAND_POOL=FILE fantasyland opponents --stats")
    rules = _rules(args)
    figures = bot_stats(rules, 5000 if args.hands is None else args.hands, args.seed,
                        live=True, workers=args.workers, bot=args.bot)
    print(json.dumps(figures | {"variant": rules.name}, indent=2, sort_keys=True))


if __name__ == "__main__":
    sys.exit(main())
