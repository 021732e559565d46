"""A puzzle's difficulty measured by search: how many iterations the engine needs before it
finds the solution and keeps it.

The engine is the tree :func:`boardproof.solvers.analyse.analyse` grows (``engine auto``:
the native MCTS where the game has one that takes the position, Minefield (with its
proved shortcut off: :data:`SHORTCUT`), Carpniches and Candy Conquest; ColleXion's turn
search; else the Python MCTS), with one thread and a seed, on an iteration budget: a pure
function of the position, the seed and the budget.
One run grows the tree to ``limit`` iterations; its recommended move (``best_move``) is read at
the *checkpoints* 1, 2, …, 16, then every 1/8 more (17, 19, 22, …, rounded up). The
measure ``iterations`` is the first checkpoint from which the recommendation is one of the
puzzle's answers at every later checkpoint up to ``limit`` (or until the tree proves the
win with it: a proved win is kept for good). A run that does not settle on an answer
within ``limit`` (or proves a slower win, a decoy, first) is *censored*: it counts as
``2 * limit``. The Python MCTS, a slow fallback, runs at most :data:`ENGINE_LIMITS`
iterations (the ``limit`` stored is the one that ran). One run depends much on its seed,
so the measure of a puzzle is the median of :data:`RUNS` runs (seeds ``seed``,
``seed + 1``, …); a censored median gives ``found`` false.

The rating is a z-score of ``x = log2(iterations)`` on the scale lichess's puzzle ratings
use (mean 1500, spread 350 per standard deviation), per game (each game's engine counts
iterations its own way)::

    rating = 1500 + 350 * (x - mu[game]) / sigma[game]      (clamped to 400..3000)

``mu`` and ``sigma`` are the mean and the standard deviation of ``x`` over a set of
puzzles: :func:`calibrate` computes them from any set, :func:`rate_set` rates a whole set
on its own calibration, and :data:`CALIBRATION` holds the reference values, measured on
the daily puzzles of 2026 (365 a game, Minefield's at 13x13/15x15; seed 0, ``limit``
20000, 3 runs; docs/puzzles.md "Difficulty"), by ``python -m
boardproof.puzzles.calibration_command --days 365 --date 2026-12-31 --out
tests/data/difficulty-calibration-2026.jsonl`` (:mod:`boardproof.puzzles.calibration`),
so a rating means the same share of a game's daily puzzles in every game. The labels are those of
:mod:`boardproof.puzzles.rating` (easy below 1400, medium below 1700, hard below 2000).

>>> checkpoints(40)
[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 18, 21, 24, 27, 31, 35, 40]
>>> scale(x=8.0, mu=8.0, sigma=2.0), scale(x=10.0, mu=8.0, sigma=2.0)
(1500, 1850)
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Sequence
from typing import Any

from boardproof import models
from boardproof.models.base import Position
from boardproof.puzzles import PuzzleError
from boardproof.puzzles.rating import label
from boardproof.solvers.analyse import make_tree
from boardproof.solvers.native_mcts import EngineSettings

#: the iteration budget of a measure (a puzzle not settled within it is censored)
DEFAULT_LIMIT = 20_000
#: runs (seeds) per measure: their median is the measure
RUNS = 3
#: the native engine's table (MB): small, the budget is small
HASH_MB = 32
#: the engine's proved shortcut (``EngineSettings.shortcut``): off, the rules as they are.
#: With Minefield's Theorem O the tree proves a move that makes an ortho-diagonal path a win
#: at once, so on 13x13/15x15 it settles on a slower win (a decoy or a longer one) first and
#: the measure is censored: 100 of the 365 daily puzzles of 2026 with it, 9 without
#: (docs/puzzles.md "Difficulty")
SHORTCUT = False
#: the engine's learned-pattern prior while it measures (the calibration's: none)
PATTERN_PRIOR = 0
#: the rating scale: its centre and the points per standard deviation of log2(iterations)
CENTRE = 1500
SPREAD = 350
LOWEST, HIGHEST = 400, 3000
#: per game: (mu, sigma) of log2(iterations) on the reference set, the daily puzzles of 2026
#: (see the module doc; tests/data/difficulty-calibration-2026.jsonl, checked by
#: tests/test_difficulty_calibration.py). Engines: the native MCTS for Minefield (without
#: the shortcut), Carpniches and 2-player Candy Conquest, the turn search for ColleXion;
#: another engine, or a change to one, needs a new calibration
CALIBRATION: dict[str, tuple[float, float]] = {
    "minefield": (9.346, 3.336),
    "carpniches": (8.6828, 2.5691),
    "candy": (6.918, 2.0724),
    "collexion": (6.3745, 4.9849),
}
#: a game without a calibration yet
DEFAULT_CALIBRATION = (6.0, 2.5)
#: engines that run fewer iterations than the measure's ``limit``: the Python MCTS, the
#: fallback where no native tree takes the position, costs ~0.25 ms an iteration on 13x13
#: (20x the native tree; the ``limit`` stored is the one that ran). No daily puzzle of 2026
#: falls back to it since the native Minefield tree takes a root with an ortho-diagonal path
#: but no orthogonal one (before: 47 of the 365 Minefield days)
ENGINE_LIMITS: dict[str, int] = {"MCTS": 1_000}
#: engines whose tree draws nothing at random when it runs no playouts (ColleXion's turn
#: search: its generator only picks playout turns): every seed grows the same tree, so
#: :func:`measure` runs such a tree once and gives its count to every seed
SEED_FREE_ENGINES = frozenset({"TurnSearch"})


def limit_for(engine: str, limit: int) -> int:
    """The iterations an ``engine`` (a tree's kind) runs for a measure of ``limit``.

    >>> limit_for("NativeTree", 20000), limit_for("MCTS", 20000), limit_for("MCTS", 500)
    (20000, 1000, 500)
    """
    return min(limit, ENGINE_LIMITS.get(engine, limit))


def seed_free(tree: Any) -> bool:
    """Whether ``tree`` grows the same with any seed (see :data:`SEED_FREE_ENGINES`)."""
    return type(tree).__name__ in SEED_FREE_ENGINES and getattr(tree, "playout_plies", 1) == 0


def checkpoints(limit: int) -> list[int]:
    """The iteration counts at which the recommendation is read (``limit`` last)."""
    found: list[int] = []
    k = 1
    while k < limit:
        found.append(k)
        k = k + 1 if k < 16 else max(k + 1, math.ceil(k * 1.125))
    found.append(limit)
    return found


def answers_of(puzzle: dict[str, Any]) -> set[str]:
    """The first moves that solve ``puzzle`` (ColleXion: every way of writing the best turn).

    >>> sorted(answers_of({"solution": "3.4/g", "solutions": ["3.4/g", "4.3/g"]}))
    ['3.4/g', '4.3/g']
    """
    return {str(m) for m in (puzzle.get("solutions") or [puzzle["solution"]])}


def position_of(puzzle: dict[str, Any]) -> Position:
    """The puzzle's position, with its game options."""
    game = models.get(str(puzzle["game"]), **dict(puzzle.get("options") or {}))
    return game.parse_position(str(puzzle["position"]))


def search_effort(
    position: Position, answers: Iterable[str], seed: int = 0, limit: int = DEFAULT_LIMIT
) -> dict[str, Any]:
    """How many iterations the engine needs to settle on one of ``answers`` (see the module
    doc): ``iterations`` (None when censored), ``found``, ``limit``, ``seed``, ``engine``
    (the tree's kind), ``seed_free`` (:func:`seed_free`) and ``seconds`` (wall clock, for
    the record only).

    >>> from boardproof import models
    >>> pos = models.get("minefield").parse_position("3/bw1/b2 b -")
    >>> effort = search_effort(pos, ["a3"], seed=1, limit=200)
    >>> effort["found"], effort["iterations"] <= 200
    (True, True)
    """
    if limit < 1:
        raise PuzzleError(f"invalid option limit: expected a number >= 1, got {limit!r}")
    wanted = set(answers)
    start = time.perf_counter()
    settings = EngineSettings(hash_mb=HASH_MB, threads=1, seed=seed, shortcut=SHORTCUT,
                              pattern_prior=PATTERN_PRIOR)  # fmt: skip
    tree = make_tree(position, "auto", "auto", seed, exact=False, settings=settings)
    limit = limit_for(type(tree).__name__, limit)
    kept_since: int | None = None
    best = None
    for mark in checkpoints(limit):
        if tree.proved_value() is None and tree.iterations < mark:
            tree.run(iterations=mark - tree.iterations)
        best = tree.best_move()
        good = str(best) in wanted
        if not good:
            kept_since = None
        elif kept_since is None:
            kept_since = mark
        if good and tree.proved_value() == "win":
            break  # a proved win stays the recommendation
    return {
        "iterations": kept_since,
        "found": kept_since is not None,
        "limit": limit,
        "seed": seed,
        "engine": type(tree).__name__,
        "seed_free": seed_free(tree),
        "choice": str(best),
        "proved": tree.proved_value(),
        "seconds": round(time.perf_counter() - start, 3),
    }


def effort_value(effort: dict[str, Any]) -> float:
    """``x = log2(iterations)``, ``log2(2 * limit)`` for a censored measure.

    >>> effort_value({"iterations": 8, "found": True, "limit": 100})
    3.0
    >>> effort_value({"iterations": None, "found": False, "limit": 64})
    7.0
    """
    count = effort["iterations"] if effort["found"] else 2 * int(effort["limit"])
    return math.log2(max(int(count), 1))


def scale(x: float, mu: float, sigma: float) -> int:
    """The rating of ``x`` on a calibration ``(mu, sigma)``."""
    value = CENTRE + SPREAD * (x - mu) / max(sigma, 1e-9)
    return int(round(min(max(value, LOWEST), HIGHEST)))


def calibrate(values: Sequence[float]) -> tuple[float, float]:
    """``(mu, sigma)``: the mean and (population) standard deviation of ``values``; sigma
    is at least 0.5 (a set of equal puzzles is not stretched over the whole scale).

    >>> calibrate([2.0, 4.0])
    (3.0, 1.0)
    """
    if not values:
        raise PuzzleError("invalid puzzle set: it is empty, nothing to calibrate on")
    mu = sum(values) / len(values)
    sigma = math.sqrt(sum((v - mu) ** 2 for v in values) / len(values))
    return mu, max(sigma, 0.5)


def difficulty(
    effort: dict[str, Any], game: str, calibration: tuple[float, float] | None = None
) -> dict[str, Any]:
    """The ``difficulty`` object stored with a puzzle: the measure, its rating and label."""
    mu, sigma = calibration or CALIBRATION.get(game, DEFAULT_CALIBRATION)
    rating = scale(effort_value(effort), mu, sigma)
    names = ("iterations", "found", "limit", "seed", "runs", "per_seed", "engine")
    kept: dict[str, Any] = {k: effort[k] for k in names if k in effort}
    return {"rating": rating, "label": label(rating), **kept,
            "calibration": [round(mu, 4), round(sigma, 4)]}  # fmt: skip


def measure(
    puzzle: dict[str, Any], seed: int = 0, limit: int = DEFAULT_LIMIT, runs: int = RUNS,
    plain: bool = False,
) -> dict[str, Any]:
    """The search effort of ``puzzle`` (a puzzle object): the median of ``runs`` runs with
    the seeds ``seed``, ``seed + 1``, … (a censored run counts as ``2 * limit``; the median
    of an even count is the lower middle value). ``per_seed`` keeps each run's count.

    A tree that grows the same with any seed (:func:`seed_free`) runs once, its count
    standing for every seed; ``plain`` runs every seed anyway (the same result, pinned by
    tests/test_daily_difficulty.py)."""
    if runs < 1:
        raise PuzzleError(f"invalid option runs: expected a number >= 1, got {runs!r}")
    position, answers = position_of(puzzle), answers_of(puzzle)
    efforts = [search_effort(position, answers, seed, limit)]
    for k in range(1, runs):
        if efforts[0]["seed_free"] and not plain:
            efforts.append({**efforts[0], "seed": seed + k, "seconds": 0.0})
        else:
            efforts.append(search_effort(position, answers, seed + k, limit))
    ran = int(efforts[0]["limit"])  # the engine's own limit (:func:`limit_for`)
    counts = sorted(e["iterations"] if e["found"] else 2 * ran for e in efforts)
    middle = counts[(runs - 1) // 2]
    found = middle <= ran
    return {
        "iterations": middle if found else None,
        "found": found,
        "limit": ran,
        "seed": seed,
        "runs": runs,
        "per_seed": [e["iterations"] for e in efforts],
        "engine": efforts[0]["engine"],
        "seconds": round(sum(e["seconds"] for e in efforts), 3),
    }


def with_difficulty(
    puzzle: dict[str, Any], seed: int = 0, limit: int = DEFAULT_LIMIT, runs: int = RUNS
) -> dict[str, Any]:
    """``puzzle`` with its ``difficulty`` (a new dict), on the reference calibration."""
    game = models.canonical_name(str(puzzle["game"]))
    return {**puzzle, "difficulty": difficulty(measure(puzzle, seed, limit, runs), game)}


def rate_set(
    puzzles: Sequence[dict[str, Any]], seed: int = 0, limit: int = DEFAULT_LIMIT,
    runs: int = RUNS,
) -> list[dict[str, Any]]:
    """Every puzzle with its ``difficulty``, each game calibrated on this set's own puzzles
    (a measure already stored with the same seed, limit and runs is reused)."""
    efforts = []
    for puzzle in puzzles:
        old = puzzle.get("difficulty")
        ran = limit_for(str(old.get("engine")), limit) if isinstance(old, dict) else limit
        if isinstance(old, dict) and (old.get("seed"), old.get("limit"), old.get("runs")) == (
            seed, ran, runs
        ):
            efforts.append(old)
        else:
            efforts.append(measure(puzzle, seed, limit, runs))
    games = [models.canonical_name(str(p["game"])) for p in puzzles]
    calibrations = {
        game: calibrate([effort_value(e) for e, g in zip(efforts, games, strict=True) if g == game])
        for game in set(games)
    }
    return [
        {**p, "difficulty": difficulty(e, g, calibrations[g])}
        for p, e, g in zip(puzzles, efforts, games, strict=True)
    ]
