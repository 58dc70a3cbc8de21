"""``fantasyland bench``: how fast ranking and solving are on this machine."""

from __future__ import annotations

import json
import os
from enum import Enum
from typing import Annotated

import typer
from rich import box
from rich.console import Console
from rich.table import Table

from fantasyland.cli.errors import reports_bad_input
from fantasyland.cli.options import (DEFAULT_VARIANT, BotOption, BudgetOption, FlValueOption,
                                     JsonOption, ProofOption, RoyaltiesObjectiveOption,
                                     SeedOption, VariantOption, WorkersOption, card_counts,
                                     hands_option, objective_for, samples_option, workers_count)
from fantasyland.cli.render import (console, progress_bar)
from fantasyland.evaluator import find_rules
from fantasyland.evaluator.cards import format_cards
from fantasyland.optimizer.batch import (Comparison, ProofComparison, Timings, checkout,
                                        compare, compare_proofs, groups, identical_results,
                                        identity_jobs, machine, time_ranking)
from fantasyland.optimizer.solver import ObjectiveName, Proof, ProofMethod, check_objective


class Suite(str, Enum):
    random = "random"
    adversarial = "adversarial"
    all = "all"
    jokers = "jokers"


def _row(timing: Timings) -> list[str]:
    return [timing.label, str(len(timing.ms)), f"{timing.median:.1f}", f"{timing.p95:.1f}",
            f"{timing.max:.1f}"]


def command(
    cards: Annotated[str, typer.Option(
        help="Card counts to solve: 15, a range like 13-17 or a list like 14,17.",
        callback=card_counts)] = "13-17",
    hands: Annotated[int, hands_option("Random hands solved for each card count.")] = 100,
    seed: SeedOption = 0,
    variant: VariantOption = DEFAULT_VARIANT,
    objective: RoyaltiesObjectiveOption = None,
    fl_value: FlValueOption = None,
    json_output: JsonOption = False,
    suite: Annotated[Suite, typer.Option(
        help="Which hands: random ones per card count, the adversarial suite (30 seeded "
             "17-card hands of each hard kind), both, or jokers (hands with two jokers "
             "beside the same hands with the jokers replaced, for a variant with jokers)."
    )] = Suite.random,
    against: Annotated[str | None, typer.Option(
        help="Also time an older version on the same hands, in turn hand by hand: a folder "
             "holding its checkout, or a git revision (checked out in a temporary worktree).",
        show_default=False)] = None,
    samples: Annotated[list[int] | None, samples_option(
        help="With --objective ev: opponent deals per solve (solve's default if not given); give "
        "it again to time several counts in one run (--samples 200 --samples 2000).")] = None,
    advise: Annotated[bool, typer.Option(
        help="Instead, time `advise` on --hands seeded positions of each street of an "
             "ordinary hand (the bot plays the streets before), with --budget and --workers; "
             "where a learned model of the game is shipped, with each --rollout-bot (both by "
             "default) on the same positions.")
    ] = False,
    budget: BudgetOption = None,
    rollout_bot: BotOption = None,
    workers: WorkersOption = None,
    verify: Annotated[bool, typer.Option(
        help="With --against: instead of timing, solve a fixed mix of 580 hands (presets, "
             "both objectives, alternatives) with both versions and report any difference.")
    ] = False,
    proof: ProofOption = ProofMethod.FASTEST,
) -> None:
    """Time ranking and solving on seeded random hands; print median, p95 and max (ms).

    Every hand is solved to proved optimality. Compare figures from one run: the machine's
    load moves them. With --against, both versions run in their own processes and each
    figure is given for both, with the ratio (how many times faster this version is).
    With --proof cpsat, every hand is solved by CP-SAT's model and by the fastest proof in
    turn: both are timed, their sets compared, and the share of hands each proof settles on
    the fastest route counted.
    """
    counts = list(cards)  # parsed by card_counts
    if advise:
        from fantasyland.cli.bench_advise import run
        from fantasyland.optimizer.ordinary import DEFAULT_BUDGET

        with reports_bad_input():
            chosen = objective.value if objective is not None else ObjectiveName.EV.value
            run(variant, hands, seed, chosen,
                DEFAULT_BUDGET if budget is None else budget, workers_count(workers),
                json_output, bot=rollout_bot)
        return
    if verify:
        _verify(against, json_output, seed)
        return
    if proof is ProofMethod.CPSAT and against is not None:
        raise typer.BadParameter("--proof cpsat times the model against the fastest proof: "
                                 "give it without --against", param_hint="'--proof'")
    with reports_bad_input():
        objective = objective_for(objective, find_rules(variant))
        check_objective(find_rules(variant), objective.value)
        ranking = time_ranking(seed=seed)
        todo = groups(suite.value, counts, hands, seed, variant, objective.value, fl_value,
                      samples=samples or (None,))
        with progress_bar(quiet=json_output) as bar:
            task = bar.add_task("solving", total=sum(len(g.hands) for g in todo))
            if proof is ProofMethod.CPSAT:
                proofs = compare_proofs(todo, progress=lambda _g, _i: bar.advance(task))
            elif against is None:
                results = compare(todo, None, progress=lambda _g, _i: bar.advance(task))
                label = None
            else:
                with checkout(against) as (root, label):
                    results = compare(todo, root, progress=lambda _g, _i: bar.advance(task))
    if proof is ProofMethod.CPSAT:
        _print_proofs(proofs, ranking, json_output,
                      {"machine": machine(), "variant": variant, "objective": objective.value,
                       "seed": seed, "hands": hands})
        return
    random_first = [r for r in results if r.group.suite == "random"
                    and r.group.options == results[0].group.options]
    if json_output:
        figures = {
            "machine": machine(), "variant": variant, "objective": objective.value,
            "seed": seed, "hands": hands,
            "ranking": ranking.figures(),
            "solving": {str(r.group.cards): r.current.figures() for r in random_first},
        }
        if suite is not Suite.random or against is not None or samples:
            figures["against"] = label
            figures["groups"] = [_group_json(r) for r in results]
        typer.echo(json.dumps(figures, indent=2))
        return
    console.print(f"Machine: {machine()}, load average "
                  + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    title = f"{variant}, objective {objective.value}, seed {seed}"
    if label is None:
        table = Table(title=title)
        for name in ("What", "Runs", "Median ms", "p95 ms", "Max ms"):
            table.add_column(name, justify="left" if name == "What" else "right")
        table.add_row(*_row(ranking))
        for result in results:
            table.add_row(*_row(Timings(f"solve {result.group.label}", result.current.ms)))
        console.print(table)
        return
    console.print(f"{ranking.label}: median {ranking.median:.1f} ms, p95 {ranking.p95:.1f}, "
                  f"max {ranking.max:.1f}")
    # Side by side: this version's figure, the older one's, and how many times faster.
    rows = []
    for result in results:
        assert result.other is not None and result.ratio is not None
        rows.append((result.group.label, result.current, result.other, result.ratio,
                     result.differ))
    _side_by_side(f"{title}: this version against {label}", "old", rows)
    console.print("ms; x: the older version's time over this one's; differ: hands whose "
                  "results differ")
    console.print("The hand slowest on the older version, in each group:")
    for result in results:
        slowest, mine, theirs = result.worst or ((), 0.0, 0.0)
        hand = format_cards(sorted(slowest), ascii=True)
        console.print(f"  {result.group.label}: {theirs:.1f} ms there, {mine:.1f} ms here "
                      f"({theirs / max(mine, 1e-9):.1f}x): {hand}")


def _group_json(result: Comparison) -> dict:
    group = result.group
    return {"suite": group.suite, "kind": group.kind, "cards": group.cards,
            "samples": group.samples, "runs": len(result.current.ms),
            "current": result.current.figures(),
            "against": result.other.figures() if result.other is not None else None,
            "ratio": result.ratio, "differ": result.differ if result.other else None,
            "slowest_there": None if result.worst is None else {
                "cards": format_cards(sorted(result.worst[0]), ascii=True),
                "current_ms": result.worst[1], "against_ms": result.worst[2]}}


def _verify(against: str | None, json_output: bool, seed: int) -> None:
    if against is None:
        raise typer.BadParameter("--verify needs --against", param_hint="'--verify'")
    jobs = identity_jobs(seed=seed)
    with reports_bad_input():
        with checkout(against) as (root, label):
            with progress_bar(quiet=json_output) as bar:
                task = bar.add_task("verifying", total=len(jobs))
                differ = identical_results(jobs, root, progress=lambda _i: bar.advance(task))
    if json_output:
        typer.echo(json.dumps({"against": label, "hands": len(jobs),
                               "differ": [{"job": j, "current": a, "against": b}
                                          for j, a, b in differ]}, indent=2))
    else:
        console.print(f"{len(jobs)} solves compared with {label}: {len(differ)} differ")
        for job, ours, theirs in differ[:10]:
            console.print(f"  {job}\n    this: {ours}\n    that: {theirs}")
    if differ:
        raise typer.Exit(1)


def _side_by_side(title: str, second: str, rows: list) -> Console:
    """A table of timings two by two: each group's (label, first, second, ratio, differ),
    its median, p95 and max by the first and by the ``second``, and the ratio of the two;
    printed on, and returned, a console wide enough for it."""
    table = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False)
    for name in ("solve", "runs", "median", second, "x", "p95", second, "x", "max", second,
                 "x", "differ"):
        table.add_column(name, justify="left" if name == "solve" else "right", no_wrap=True)
    for group, first, other, ratio, differ in rows:
        cells = [group, str(len(first.ms))]
        for key in ("median_ms", "p95_ms", "max_ms"):
            cells += [f"{first.figures()[key]:.1f}", f"{other.figures()[key]:.1f}",
                      f"{ratio[key]:.1f}"]
        table.add_row(*cells, str(differ))
    wide = Console(file=console.file, width=max(console.width, 110), no_color=console.no_color,
                   force_terminal=console.is_terminal)
    wide.print(table)  # wider than a pipe's 80 columns, so that no figure is cut short
    return wide


def _proof_json(result: ProofComparison) -> dict:
    group = result.group
    return {"suite": group.suite, "kind": group.kind, "cards": group.cards,
            "samples": group.samples, "runs": len(result.model.ms),
            "current": result.model.figures(), "against": result.fastest.figures(),
            "ratio": {key: result.fastest.figures()[key] / max(value, 1e-9)
                      for key, value in result.model.figures().items()},
            "differ": result.differ, "slowest_there": None,
            "settled": {proof.value: result.settled.get(proof, 0) for proof in Proof}}


def _print_proofs(results: list[ProofComparison], ranking: Timings, json_output: bool,
                  head: dict) -> None:
    """``bench --proof cpsat``: the model's times beside the fastest proof's, how many
    times longer it takes, the hands whose sets differ, and what the fastest route took."""
    if json_output:
        random_first = [r for r in results if r.group.suite == "random"
                        and r.group.options == results[0].group.options]
        typer.echo(json.dumps({
            **head, "ranking": ranking.figures(),
            "solving": {str(r.group.cards): r.fastest.figures() for r in random_first},
            "proof": ProofMethod.CPSAT.value, "against": "the fastest proof",
            "groups": [_proof_json(r) for r in results]}, indent=2))
        return
    console.print(f"Machine: {machine()}, load average "
                  + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    title = (f"{head['variant']}, objective {head['objective']}, seed {head['seed']}: "
             "CP-SAT on every hand against the fastest proof")
    wide = _side_by_side(title, "fastest", [
        (r.group.label, r.model, r.fastest, r.ratio, r.differ) for r in results])
    console.print("ms, CP-SAT's first; x: CP-SAT's time over the fastest proof's; differ: "
                  "hands whose sets differ")
    shares = Table(title="Which proof settled each hand on the fastest route",
                   box=box.SIMPLE_HEAD, pad_edge=False)
    shares.add_column("hands", no_wrap=True)
    for proof in Proof:
        shares.add_column(proof.value, justify="right")
    for result in results:
        shares.add_row(result.group.label, *(f"{result.shares[proof]:.0%}" for proof in Proof))
    wide.print(shares)
    console.print("The hand CP-SAT took longest on, in each group:")
    for result in results:
        hand, model, fastest = result.slowest
        console.print(f"  {result.group.label}: {model:.1f} ms by CP-SAT, {fastest:.1f} ms "
                      f"by the fastest proof: {format_cards(sorted(hand), ascii=True)}")
