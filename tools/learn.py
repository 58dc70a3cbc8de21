"""Rebuild the learned value of the ordinary hand from a seed, and measure the bot it makes.

A developer's tool while the learned bot is not yet the product's (docs/notes-learned.md
gives the command and the figures). The rebuild runs in chunks saved under ``--dir``: the
same command run again goes on where it stopped (``optimizer.opponents.learned.rebuild``).
Then, if asked, the bot plays itself heads-up (``--measure TABLES``) and the stronger
heuristic bot over duplicate deals (``--against-stronger DEALS``), each with standard
errors. ``--lookahead DEALS`` has the bot measured look one street ahead where a model
decides (``LearnedBot``'s lookahead), and ``--time-decisions TABLES`` prices its decisions.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # small matrices: threads only contend

import argparse  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="pineapple")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--dir", type=Path, default=None,
                        help="where the chunks are saved (default runs/learned-VARIANT-SEED)")
    parser.add_argument("--output", type=Path, default=None,
                        help="write the models here (an .npz)")
    parser.add_argument("--models", type=Path, default=None,
                        help="measure these models (an .npz) instead of rebuilding")
    parser.add_argument("--measure", type=int, default=0, metavar="TABLES",
                        help="heads-up tables the bot plays itself, to measure it")
    parser.add_argument("--against-stronger", type=int, default=0, metavar="DEALS",
                        help="duplicate deals against the stronger heuristic bot")
    parser.add_argument("--against-seeing", type=int, default=0, metavar="DEALS",
                        help="duplicate deals against the seeing candidate of the heuristic "
                             "bot, at one table, each seat seeing the other's board")
    parser.add_argument("--duel-dir", type=Path, default=None,
                        help="where --against-seeing saves its chunks (resumable)")
    parser.add_argument("--paired-with", type=Path, default=None, metavar="DIR",
                        help="another --duel-dir of the same seed (another bot against the "
                             "seeing candidate): this run's figures less its, deal by deal, "
                             "on the deals both played")
    parser.add_argument("--choices", type=int, default=0, metavar="POSITIONS",
                        help="decisions one street before the last where the model's choice "
                             "is checked against the exact best")
    parser.add_argument("--lookahead", type=int, default=0, metavar="DEALS",
                        help="the bot looks one street ahead over this many deals where a "
                             "model decides (LearnedBot's lookahead_deals; 0: not)")
    parser.add_argument("--lookahead-streets", type=int, nargs="+", default=None,
                        metavar="STREETS", help="look ahead only from these decisions, by the "
                        "streets to come after them (default: every one a model decides)")
    parser.add_argument("--lookahead-top", type=int, default=3, metavar="PLAYS",
                        help="plays of a deal valued exactly where the next street is exact")
    parser.add_argument("--lookahead-screen", type=int, default=None, metavar="PLAYS",
                        help="look ahead from only the plays the model likes best")
    parser.add_argument("--foul", type=float, default=None, metavar="POINTS",
                        help="what a foul costs on the streets the bot values exactly "
                             "(default: the rules' penalty, which the models learned)")
    parser.add_argument("--time-decisions", type=int, default=0, metavar="TABLES",
                        help="time the bot's decisions by street on the positions of this "
                             "many tables it plays itself without a lookahead")
    args = parser.parse_args()

    from fantasyland.evaluator import find_rules
    from fantasyland.optimizer.opponents.learned.rebuild import load_models

    rules = find_rules(args.variant)
    models = load_models(args.models) if args.models else _rebuilt(args)
    ahead = _lookahead(args)
    if ahead:
        print("the bot's options:", ", ".join(f"{k} {v}" for k, v in ahead.items()))
    if args.measure:
        _measure(rules, models, args.measure, args.seed, ahead)
    if args.against_stronger:
        _against_stronger(rules, models, args.against_stronger, args.seed, ahead)
    if args.against_seeing:
        _against_seeing(rules, args, args.against_seeing, ahead)
    if args.choices:
        _choices(rules, models, args.choices, args.seed)
    if args.time_decisions:
        _time_decisions(rules, models, args.time_decisions, args.seed, ahead)
    return 0


def _rebuilt(args: argparse.Namespace) -> dict:
    from fantasyland.optimizer.opponents.learned.rebuild import Plan, rebuild

    directory = args.dir or Path("runs") / f"learned-{args.variant}-{args.seed}"
    started = time.time()

    def progress(stage: str, done: int, whole: int) -> None:
        if done == whole:
            print(f"{time.time() - started:8.0f} s  {stage}: {whole} chunks", flush=True)

    rebuilt = rebuild(Plan(variant=args.variant, seed=args.seed), directory,
                      workers=args.workers, progress=progress)
    print("\nround  streets to come  train error  held-out error")
    for (round_, streets), fitted in sorted(rebuilt.fits.items()):
        print(f"{round_:5}  {streets:15}  {fitted.train_error:11.3f}  "
              f"{fitted.held_out_error:14.3f}")
    if args.output is not None:
        rebuilt.save(args.output)
        print(f"\nmodels written to {args.output}")
    return rebuilt.models


def _choices(rules, models, count: int, seed: int) -> None:
    """How often the model of one street from the end picks the exact best play (within
    0.05 points), on decisions the bot itself reaches: the boards before the street before
    the last of fresh tables, each dealt a fresh three cards."""
    from fantasyland.optimizer.opponents.bot import remaining
    from fantasyland.optimizer.opponents.exact import exact_worth
    from fantasyland.optimizer.opponents.layout import placements
    from fantasyland.optimizer.opponents.learned.features import features
    from fantasyland.optimizer.opponents.learned.labels import Worth
    from fantasyland.optimizer.opponents.learned.positions import play_tables
    from fantasyland.optimizer.opponents.pools import dealing_for

    dealing = dealing_for(rules)
    bot = _bot(rules, models)
    played = play_tables(rules, dealing, [bot, bot], range((count + 1) // 2),
                         seed=seed * 1_000 + 997, explore=0.0)
    boards = played.positions[2]
    worth = Worth(rules)
    rng = np.random.default_rng([seed, 997])
    losses = []
    for layout, left in zip(boards.layouts, boards.left.astype(np.int64)):
        dealt = rng.choice(remaining(left), dealing.per_round, replace=False)
        after = left.copy()
        np.subtract.at(after, dealt, 1)
        options = placements(layout, dealt.tolist(), dealing.keep)
        exact = exact_worth(worth, options, remaining(after), dealing).value
        chosen = int(np.argmax(models[1].predict(features(options, after))))
        losses.append(exact.max() - exact[chosen])
    lost = np.array(losses)
    print(f"\nthe model one street from the end, on {len(lost)} decisions: the exact best "
          f"{np.mean(lost == 0):.1%}, within 0.05 points {np.mean(lost <= 0.05):.1%}; "
          f"mean loss {lost.mean():.3f} points, p99 {np.quantile(lost, 0.99):.2f}")


def _lookahead(args: argparse.Namespace) -> dict:
    """The bot's options the arguments ask for: ``LearnedBot``'s lookahead keywords, and
    ``foul``, what a foul costs in the bot's ``Worth``."""
    ahead = {} if args.foul is None else {"foul": args.foul}
    if not args.lookahead:
        return ahead
    return ahead | {"lookahead_deals": args.lookahead,
            "lookahead_streets": None if args.lookahead_streets is None
            else tuple(args.lookahead_streets),
            "lookahead_top": args.lookahead_top, "lookahead_screen": args.lookahead_screen}


def _bot(rules, models, ahead: dict | None = None):
    from fantasyland.optimizer.opponents.learned.bot import LearnedBot
    from fantasyland.optimizer.opponents.learned.labels import Worth
    from fantasyland.optimizer.opponents.pools import dealing_for

    options = dict(ahead or {})
    worth = Worth(rules, foul=options.pop("foul", None))
    return LearnedBot(dealing_for(rules), models, worth, **options)


def _time_decisions(rules, models, tables: int, seed: int, ahead: dict) -> None:
    """CPU milliseconds a decision of the bot takes, by the streets to come after it, on
    the decisions of ``tables`` tables the bot plays itself without a lookahead, and how
    often its play differs from that bot's."""
    from fantasyland.optimizer.opponents.learned.positions import play_tables
    from fantasyland.optimizer.opponents.pools import dealing_for

    plain = _bot(rules, models)
    decisions = []

    def recorded(layout, new, keep, unseen, rounds_left, rng):
        played = plain(layout, new, keep, unseen, rounds_left, rng)
        decisions.append((layout.copy(), list(new), keep, unseen.copy(), rounds_left, played))
        return played

    play_tables(rules, dealing_for(rules), [recorded, recorded], range(tables),
                seed=seed * 1_000 + 995, explore=0.0)
    bot = _bot(rules, models, ahead)
    spent: dict[int, list[float]] = {}
    differ: dict[int, list[bool]] = {}
    for layout, new, keep, unseen, rounds_left, before in decisions:
        started = time.process_time()
        played = bot(layout, new, keep, unseen, rounds_left, np.random.default_rng(0))
        spent.setdefault(rounds_left, []).append(1_000 * (time.process_time() - started))
        differ.setdefault(rounds_left, []).append(not np.array_equal(played, before))
    print(f"\nCPU ms a decision, {len(decisions)} decisions of {tables} tables:")
    for rounds_left, times in sorted(spent.items(), reverse=True):
        print(f"  {rounds_left} streets to come: median {np.median(times):7.1f}  "
              f"p95 {np.quantile(times, 0.95):7.1f}  mean {np.mean(times):7.1f}  "
              f"({len(times)} decisions, {np.mean(differ[rounds_left]):.0%} played "
              "otherwise than without a lookahead)")


def _line(name: str, values: np.ndarray, percent: bool) -> str:
    mean, se = values.mean(), values.std(ddof=1) / np.sqrt(len(values))
    return f"{name} {mean:.1%} ± {se:.1%}" if percent else f"{name} {mean:.2f} ± {se:.2f}"


def _measure(rules, models, tables: int, seed: int, ahead: dict) -> None:
    from fantasyland.optimizer.opponents.learned.positions import play_tables
    from fantasyland.optimizer.opponents.pools import dealing_for
    from fantasyland.optimizer.opponents.resolve import evaluate_played

    bot = _bot(rules, models, ahead)
    started = time.time()
    played = play_tables(rules, dealing_for(rules), [bot, bot], range(tables),
                         seed=seed * 1_000 + 999, explore=0.0)
    out = evaluate_played(played.finished, rules)
    royalties = np.where(out.fouled, 0, out.royalty_total)
    print(f"\nthe bot against itself, {tables} tables ({2 * tables} boards, "
          f"{time.time() - started:.0f} s):",
          _line("fouls", out.fouled.astype(float), True) + ",",
          _line("entries", (out.entry_cards > 0).astype(float), True) + ",",
          _line("royalties", royalties.astype(float), False))
    sizes = sorted(set(rules.entry_sizes))
    if len(sizes) > 1:
        print("  entries by size:", ", ".join(
            _line(f"{n} cards", (out.entry_cards == n).astype(float), True) for n in sizes))


def _against_stronger(rules, models, deals: int, seed: int, ahead: dict) -> None:
    from fantasyland.optimizer.opponents.head_to_head import deal_seats, play_seats, score
    from fantasyland.optimizer.opponents.learned.positions import play_alone
    from fantasyland.optimizer.opponents.pools import STRONG_PARAMS, dealing_for

    dealing = dealing_for(rules)
    bot = _bot(rules, models, ahead)
    duel = seed * 1_000 + 998
    mine = np.zeros((deals, 2, 13), dtype=np.int64)
    for i in range(deals):
        for seat, cards in enumerate(deal_seats(rules, dealing, duel, i)):
            mine[i, seat] = play_alone(rules, dealing, bot, cards.tolist(),
                                       np.random.default_rng([duel, i, seat, 1]))
    theirs = play_seats(rules, dealing, STRONG_PARAMS[dealing.name], duel, 0, deals)
    result = score(rules, mine, theirs)

    print(f"\nagainst the stronger bot, {deals} duplicate deals: {result.points:+.3f} ± "
          f"{result.points_se:.3f} points a game ({result.points_with_entries:+.3f} ± "
          f"{result.points_with_entries_se:.3f} with entries at their worth)")
    print("  learned: ", _figures(result.challenger))
    print("  stronger:", _figures(result.incumbent))


#: Tables a chunk of ``--against-seeing`` plays, both ways round.
DUEL_CHUNK = 50


def _seeing_params(rules):
    """The seeing candidate of the heuristic bot (docs/notes-opponents.md): the stronger
    bot's settings, a plan's future cards helping one row each, a foul counted at 16, and
    the other board's cards counted as seen."""
    from dataclasses import replace

    from fantasyland.optimizer.opponents.pools import STRONG_PARAMS, dealing_for

    return replace(STRONG_PARAMS[dealing_for(rules).name], estimate_disjoint=True,
                   estimate_foul_penalty=16, sees_boards=True)


def _duel_job(job) -> dict:
    """Tables ``start..stop`` of ``seed`` played twice at one table, the learned bot in seat
    A then in seat B, the candidate in the other seat: each seat sees the other's board."""
    variant, models_path, seed, start, stop, ahead = job
    from fantasyland.evaluator import find_rules
    from fantasyland.optimizer.opponents.learned.positions import bot_policy, play_tables
    from fantasyland.optimizer.opponents.learned.rebuild import load_models
    from fantasyland.optimizer.opponents.pools import dealing_for, table_odds

    rules = find_rules(variant)
    dealing = dealing_for(rules)
    learned = _bot(rules, load_models(models_path), ahead)
    seeing = bot_policy(rules, dealing, _seeing_params(rules), table_odds(rules))
    first = play_tables(rules, dealing, [learned, seeing], range(start, stop), seed=seed,
                        explore=0.0).finished.reshape(-1, 2, 13)
    second = play_tables(rules, dealing, [seeing, learned], range(start, stop), seed=seed,
                         explore=0.0).finished.reshape(-1, 2, 13)
    return {"learned": np.stack([first[:, 0], second[:, 1]], axis=1),
            "seeing": np.stack([second[:, 0], first[:, 1]], axis=1)}


def _against_seeing(rules, args, deals: int, ahead: dict) -> None:
    from fantasyland.optimizer.opponents.chunks import Chunk, run_chunks
    from fantasyland.optimizer.opponents.head_to_head import score

    models_path = args.models or args.output
    if models_path is None:
        raise SystemExit("--against-seeing needs --models or --output (the models to play)")
    seed = args.seed * 1_000 + 996
    directory = args.duel_dir
    if directory is not None:
        directory.mkdir(parents=True, exist_ok=True)
    meta = {"variant": args.variant, "seed": seed, "models": str(Path(models_path).name),
            "seeing": repr(_seeing_params(rules))} | ({"lookahead": repr(ahead)} if ahead else {})
    chunks = [Chunk((args.variant, str(models_path), seed, a, min(a + DUEL_CHUNK, deals), ahead),
                    min(a + DUEL_CHUNK, deals) - a,
                    None if directory is None else directory / f"duel-{a:06d}.npz",
                    None if directory is None else meta | {"start": a})
              for a in range(0, deals, DUEL_CHUNK)]
    started = time.time()
    played = run_chunks(_duel_job, chunks, "deals", workers=args.workers)
    learned = np.concatenate([p["learned"] for p in played])
    seeing = np.concatenate([p["seeing"] for p in played])
    result = score(rules, learned, seeing)
    print(f"\nagainst the seeing candidate, {deals} duplicate deals at one table "
          f"({time.time() - started:.0f} s): {result.points:+.3f} ± {result.points_se:.3f} "
          f"points a game ({result.points_with_entries:+.3f} ± "
          f"{result.points_with_entries_se:.3f} with entries at their worth)")
    print("  learned:", _figures(result.challenger))
    print("  seeing: ", _figures(result.incumbent))
    print("  paired: ", _figures(result.difference))
    if args.paired_with is not None:
        _paired(rules, played, args.paired_with, deals)


def _by_deal(rules, learned: np.ndarray, seeing: np.ndarray) -> dict[str, np.ndarray]:
    """Each deal's figures of a duel against the seeing candidate (``(deals, 2, 13)``
    boards each): the learned bot's points a game, without and with entries at their worth,
    and each bot's fouls, entries and royalties over the deal's two hands."""
    from fantasyland.evaluator.scoring import settle
    from fantasyland.optimizer.opponents.bot import entry_worths
    from fantasyland.optimizer.opponents.head_to_head import board_report, per_hand
    from fantasyland.optimizer.opponents.params import BotParams

    worth = entry_worths(rules, BotParams())
    ours = [[board_report(rules, b) for b in deal] for deal in learned]
    theirs = [[board_report(rules, b) for b in deal] for deal in seeing]
    points = np.array([settle(o[0], t[1]) + settle(o[1], t[0]) for o, t in zip(ours, theirs)],
                      dtype=float) / 2
    credit = np.array([sum(worth[r.fantasyland_cards or 0] for r in o)
                       - sum(worth[r.fantasyland_cards or 0] for r in t)
                       for o, t in zip(ours, theirs)], dtype=float) / 2
    out = {"points": points, "points with entries": points + credit}
    for name, boards in (("learned", learned), ("seeing", seeing)):
        hands = per_hand(rules, boards).reshape(len(boards), 2, -1).mean(axis=1)
        for column, figure in enumerate(("fouls", "entries", "royalties")):
            out[f"{name} {figure}"] = hands[:, column]
    return out


def _paired(rules, played: list[dict], other: Path, deals: int) -> None:
    """This duel's figures less those of the duel saved in ``other`` (the same seed and
    chunks), deal by deal over the chunks both hold."""
    mine, theirs = [], []
    for index, start in enumerate(range(0, deals, DUEL_CHUNK)):
        path = other / f"duel-{start:06d}.npz"
        if not path.exists():
            continue
        with np.load(path) as saved:
            theirs.append({k: saved[k].astype(np.int64) for k in ("learned", "seeing")})
        mine.append(played[index])
    if not mine:
        print(f"\nno deals of {other} to pair with")
        return
    now = _by_deal(rules, *(np.concatenate([p[k] for p in mine]) for k in ("learned", "seeing")))
    before = _by_deal(rules, *(np.concatenate([p[k] for p in theirs])
                               for k in ("learned", "seeing")))
    count = len(now["points"])
    print(f"\nthis duel less {other.name}'s, deal by deal over {count} deals:")
    for name in now:
        change = now[name] - before[name]
        scale, unit = (100, " points of percent") if name.startswith(("learned", "seeing")) \
            and not name.endswith("royalties") else (1, "")
        print(f"  {name:20} {scale * before[name].mean():7.2f} -> {scale * now[name].mean():7.2f}"
              f": {scale * change.mean():+.2f} ± {scale * change.std(ddof=1) / np.sqrt(count):.2f}"
              f"{unit}")


def _figures(f) -> str:
    return (f"fouls {f.foul_rate:.1%} ± {f.foul_rate_se:.1%}, entries "
            f"{f.fantasyland_rate:.1%} ± {f.fantasyland_rate_se:.1%}, royalties "
            f"{f.mean_royalties:.2f} ± {f.mean_royalties_se:.2f}")


if __name__ == "__main__":
    sys.exit(main())
