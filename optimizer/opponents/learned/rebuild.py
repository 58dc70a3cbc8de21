"""Rebuild the learned value from a seed, in chunks that a stopped run resumes.

A rebuild is a few rounds. Each round plays heads-up tables (``positions``), the first by the
heuristic bot, each later one by the models of the round before, with a share of random
plays (``explore``); then labels the boards it kept backwards, street by street, and fits a
model to each street's labels before the street before it is labelled (``labels``):

* one street from the end, exactly (every last deal);
* two streets from the end, over ``deals`` sampled deals of the next street, each deal's
  ``exact_top`` best plays by the model of one street valued exactly;
* earlier, through the next street's model over ``deals`` sampled deals.

The tables and the labels are saved chunk by chunk under the run's directory
(``optimizer.opponents.chunks``: a chunk is written whole or not at all, and a chunk saved
by other settings is refused), on ``workers`` processes; a model is fitted from the saved
labels in seconds, the same every time. The models of the last round are the result.
Everything is drawn from the seed: the same seed and plan give the same models, byte for
byte, however the run was cut into sittings or processes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

import numpy as np

from fantasyland.evaluator.errors import InputError
from fantasyland.evaluator.rules_files import find_rules
from fantasyland.optimizer.opponents.chunks import Chunk, Engine, run_chunks
from fantasyland.optimizer.opponents.learned.features import FEATURES, features
from fantasyland.optimizer.opponents.learned.labels import Worth, exact_labels, model_labels
from fantasyland.optimizer.opponents.learned.network import Fit, Network, fit
from fantasyland.optimizer.opponents.learned.positions import Positions, play_tables
from fantasyland.optimizer.opponents.learned.shipped import RULES_KEY, game_key, read_models

#: Tables a chunk plays.
TABLES_PER_CHUNK = 100


class LearnError(InputError):
    """A plan no rebuild can run: a game with no ordinary hand in streets, or with jokers,
    which the features do not read."""


@dataclass(frozen=True)
class Round:
    """One round of a rebuild: ``tables`` heads-up tables, each decision random with chance
    ``explore``."""

    tables: int
    explore: float = 0.1


@dataclass(frozen=True)
class Plan:
    """What a rebuild does (module docstring)."""

    variant: str = "pineapple"
    seed: int = 0
    rounds: tuple[Round, ...] = field(default_factory=lambda: (
        Round(1_000), Round(6_000), Round(20_000)))
    deals: int = 32
    exact_deals: int = 16  # deals two streets from the end, whose plays are valued exactly
    exact_top: int = 3
    epochs: int = 60

    def meta(self) -> dict:
        return asdict(self) | {"features": FEATURES}

    def check(self) -> None:
        """Refuse, with a ``LearnError``, a plan that cannot run (``LearnError``)."""
        rules = find_rules(self.variant)
        if rules.dealing.closed:
            raise LearnError(f"bad variant {rules.name!r}: its hands are dealt whole, with no "
                             "streets to learn; expected a variant dealt in streets, such as "
                             "pineapple or progressive")
        if rules.deck.jokers:
            raise LearnError(f"bad variant {rules.name!r}: the learned value reads no jokers "
                             "(its variants keep the heuristic bot); expected a variant "
                             "without jokers")
        if not self.rounds or any(r.tables < 1 for r in self.rounds):
            raise LearnError("bad rounds: expected one or more rounds of at least 1 table")


@dataclass(frozen=True)
class Rebuilt:
    """The models of the last round, by the streets still to come after the board they
    value, and each one's fit (its errors) round by round."""

    models: dict[int, Network]
    fits: dict[tuple[int, int], Fit]  # (round, streets to come) -> fit
    rules: str | None = None  # the key of the game learned (``shipped.game_key``)

    def save(self, path: Path | str) -> None:
        """Write the models (``arrays``) as an ``.npz`` that ``load_models`` reads; the same
        models write the same bytes."""
        _save(Path(path), self.arrays())

    def arrays(self) -> dict[str, np.ndarray]:
        out: dict[str, np.ndarray] = {}
        if self.rules is not None:
            out[RULES_KEY] = np.array(self.rules)
        for streets, model in self.models.items():
            out |= model.arrays(f"r{streets}.")
        return out


def load_models(path: Path | str) -> dict[int, Network]:
    """Models saved by ``Rebuilt.arrays`` (an ``.npz``), by the streets still to come."""
    return read_models(path)[1]


def _digest(models: dict[int, Network]) -> str:
    """A short name of some models' weights, so that a chunk played by other models is
    refused."""
    hasher = hashlib.sha256()
    for streets in sorted(models):
        for name, array in sorted(models[streets].arrays(f"r{streets}.").items()):
            hasher.update(name.encode())
            hasher.update(np.ascontiguousarray(array).tobytes())
    return hasher.hexdigest()[:16]


# --- the jobs a chunk runs (module-level, for worker processes) ------------------------------

@dataclass(frozen=True)
class _Tables:
    variant: str
    seed: int
    start: int
    stop: int
    explore: float
    models: str | None  # the policy's models (None: the heuristic bot)


@dataclass(frozen=True, eq=False)
class _Labels:
    variant: str
    streets: int
    layouts: np.ndarray
    left: np.ndarray
    models: str
    deals: int
    exact_deals: int
    exact_top: int
    seed: int


def _save(path: Path, arrays: dict[str, np.ndarray]) -> None:
    np.savez(str(path), **arrays)  # type: ignore[arg-type]  # numpy's stubs


def _play_job(job: object) -> dict[str, np.ndarray]:
    assert isinstance(job, _Tables)
    rules = find_rules(job.variant)
    from fantasyland.optimizer.opponents.pools import dealing_for

    dealing = dealing_for(rules)
    if job.models is None:
        from fantasyland.optimizer.opponents.learned.positions import bot_policy
        from fantasyland.optimizer.opponents.pools import STRONG_PARAMS, table_odds

        params = replace(STRONG_PARAMS[dealing.name], samples=8)
        policy = bot_policy(rules, dealing, params, table_odds(rules))
    else:
        from fantasyland.optimizer.opponents.learned.bot import LearnedBot

        policy = LearnedBot(dealing, load_models(job.models), Worth(rules))
    played = play_tables(rules, dealing, [policy, policy], range(job.start, job.stop),
                         seed=job.seed, explore=job.explore)
    out = {"finished": played.finished}
    for streets, positions in played.positions.items():
        out[f"layouts{streets}"] = positions.layouts
        out[f"left{streets}"] = positions.left.astype(np.int64)
    return out


def _label_job(job: object) -> dict[str, np.ndarray]:
    assert isinstance(job, _Labels)
    rules = find_rules(job.variant)
    from fantasyland.optimizer.opponents.pools import dealing_for

    dealing = dealing_for(rules)
    positions = Positions(job.layouts, job.left)
    worth = Worth(rules)
    if job.streets == 1:
        return {"labels": exact_labels(worth, dealing, positions)}
    model = load_models(job.models)[job.streets - 1]
    if job.streets == 2:
        return {"labels": model_labels(model, dealing, positions, deals=job.exact_deals,
                                       seed=job.seed, exact=worth, exact_top=job.exact_top)}
    return {"labels": model_labels(model, dealing, positions, deals=job.deals, seed=job.seed)}


# --- the rebuild -----------------------------------------------------------------------------

Progress = Callable[[str, int, int], None]  # (stage, chunks done, chunks in all)


def rebuild(plan: Plan, directory: Path, *, workers: int = 1, engine: Engine | None = None,
            progress: Progress | None = None) -> Rebuilt:
    """Run ``plan`` in ``directory`` (module docstring): what is saved there is read, the
    rest is played and labelled on ``workers`` processes or on ``engine`` (a batch engine:
    worker processes or a Dask cluster), and fitted here."""
    plan.check()
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    models: dict[int, Network] = {}
    fits: dict[tuple[int, int], Fit] = {}
    streets_all: list[int] = []
    for index, chosen in enumerate(plan.rounds):
        folder = directory / f"round-{index}"
        folder.mkdir(exist_ok=True)
        previous = None
        if models:
            previous = folder / "policy.npz"
            if not previous.exists():
                _save(previous, Rebuilt(models, fits).arrays())
        policy = "heuristic" if previous is None else _digest(models)
        meta = plan.meta() | {"round": index, "policy": policy}
        spans = [(a, min(a + TABLES_PER_CHUNK, chosen.tables))
                 for a in range(0, chosen.tables, TABLES_PER_CHUNK)]
        chunks = [Chunk(_Tables(plan.variant, plan.seed * 1_000 + index, a, b, chosen.explore,
                                None if previous is None else str(previous)), b - a,
                        folder / f"tables-{a:06d}-{b:06d}.npz",
                        meta | {"start": a, "stop": b, "what": "tables"}) for a, b in spans]
        played = _run(_play_job, chunks, "tables", (workers, engine), progress,
                      f"round {index}: tables")
        streets_all = sorted(int(k[len("layouts"):]) for k in played[0] if k.startswith("layouts"))
        for streets in streets_all:
            label_chunks = []
            model_file = folder / f"model-{streets - 1}.npz"
            for (a, b), arrays in zip(spans, played):
                job = _Labels(plan.variant, streets, arrays[f"layouts{streets}"],
                              arrays[f"left{streets}"], str(model_file), plan.deals,
                              plan.exact_deals, plan.exact_top,
                              plan.seed * 1_000_003 + index * 101 + streets * 7 + a)
                label_chunks.append(Chunk(job, b - a, folder / f"labels{streets}-{a:06d}.npz",
                                          meta | {"start": a, "stop": b, "streets": streets,
                                                  "what": "labels"}))
            labelled = _run(_label_job, label_chunks, "labels", (workers, engine), progress,
                            f"round {index}: labels {streets} streets from the end")
            x = np.concatenate([features(arrays[f"layouts{streets}"], arrays[f"left{streets}"])
                                for arrays in played])
            y = np.concatenate([arrays["labels"] for arrays in labelled])
            fitted = fit(x, y, seed=plan.seed * 97 + index * 11 + streets, epochs=plan.epochs)
            fits[(index, streets)] = fitted
            models[streets] = fitted.network
            _save(folder / f"model-{streets}.npz", fitted.network.arrays(f"r{streets}."))
    return Rebuilt(dict(models), fits, game_key(find_rules(plan.variant)))


def _run(job: Callable[[object], dict[str, np.ndarray]], chunks: list[Chunk], what: str,
         where: tuple[int, Engine | None], progress: Progress | None, stage: str
         ) -> list[dict[str, np.ndarray]]:
    done = 0

    def told(_chunk: Chunk, _seconds: float | None) -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(stage, done, len(chunks))

    workers, engine = where
    return run_chunks(job, chunks, what, workers=workers, done=told, engine=engine)
