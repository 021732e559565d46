"""ColleXion puzzles: a solved two-player endgame with one best turn.

ColleXion is a score game, so its puzzle is not "win in N" but "find the best
turn": from a seeded endgame (:func:`boardproof.models.collexion.endgames.endgame`,
a box of 7 to 10 pieces, player 1 to move) the exact score search
(:class:`boardproof.solvers.search.ScoreSearch`, alpha-beta over final score
differences, no horizon) values every legal turn: the final score difference
(mover minus opponent) that the turn secures against best play. The position is
a puzzle when

- it has at least ``min_moves`` *distinct* turns (turns that take the same pieces
  in another order and leave the same position are one turn written two ways:
  ``solutions`` lists every way of writing the best one, the page accepts all);
- the best turn is unique and scores at least one point more than every other
  turn (``margin >= 1``);
- the search settles every value within its node budget (``root_nodes``).

The puzzle object (format ``boardproof-puzzle`` version 1, ``objective``
``"score"``) carries ``score`` (the best turn's value), ``margin``, ``values`` (every
legal turn's value, in canonical move order), ``solutions`` and ``pv`` (an optimal
line to the end of the game); ``plies`` is the length of ``pv``. The rating is the
formula of :mod:`boardproof.puzzles.rating` for one turn to find (``plies`` 1), the
number of distinct turns, the decoys (other turns within ``DECOY_MARGIN`` points of
the best) and the search nodes. ``puzzle check``
re-proves every value with a plain memoised minimax over the rules
(:mod:`boardproof.puzzles.check`).

>>> task = Task(0, 0, DEFAULT_SETTINGS)
>>> found = run_task(task)
>>> puzzle = found["puzzle"]
>>> puzzle is None or puzzle["margin"] >= 1
True
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass
from typing import Any

from boardproof.models.collexion.endgames import endgame
from boardproof.models.collexion.native import score_search
from boardproof.models.collexion.rules import CollexionPosition
from boardproof.puzzles.rating import rate
from boardproof.puzzles.store import FORMAT, VERSION
from boardproof.solvers.common import Budget, SearchTimeout
from boardproof.solvers.search import INF, ScoreSearch

#: the box sizes of the endgames (drawn by the task's generator)
BOX_SIZES = (7, 8, 9, 10)
#: a turn within this many points of the best is a "decoy" (for the rating)
DECOY_MARGIN = 2


@dataclass(frozen=True)
class ScoreSettings:
    """What a ColleXion puzzle must be and how much search it may cost."""

    #: fewest distinct turns (fewer is no puzzle)
    min_moves: int = 4
    #: endgames tried per task
    playouts: int = 6
    #: score-search nodes for one endgame (every turn's exact value)
    root_nodes: int = 200_000


DEFAULT_SETTINGS = ScoreSettings()


@dataclass(frozen=True)
class Task:
    """One unit of work: a few seeded endgames."""

    seed: int
    index: int
    settings: ScoreSettings

    def rng(self) -> random.Random:
        return random.Random(f"boardproof-puzzle:collexion:{self.seed}:{self.index}")


def child_value(search: ScoreSearch, pos: CollexionPosition, child: CollexionPosition) -> int:
    """The exact value of ``child`` for the side to move in ``pos`` (full window)."""
    value = search.search(child, 10_000, -INF, INF)
    return value if child.to_move == pos.to_move else -value


def optimal_line(search: ScoreSearch, pos: CollexionPosition) -> list[str]:
    """An optimal line to the end of the game: at every turn the first best turn."""
    line: list[str] = []
    here = pos
    while here.outcome() is None:
        best: tuple[int, Any, CollexionPosition] | None = None
        for move, child in here.successors():
            value = child_value(search, here, child)
            if best is None or value > best[0]:
                best = (value, move, child)
        assert best is not None
        line.append(str(best[1]))
        here = best[2]
    return line


def evaluate(pos: CollexionPosition, settings: ScoreSettings) -> tuple[dict[str, Any] | None, str]:
    """The puzzle at ``pos`` (without ``id``/``source``), or None and the reason. A
    two-player base position is searched by the C module where it is built
    (:func:`~boardproof.models.collexion.native.score_search`: the same values, nodes and
    budget as :func:`evaluate_plain`, tested), any other by :func:`evaluate_plain`."""
    if pos.outcome() is not None:
        return None, "finished"
    search = score_search(pos, settings.root_nodes)
    if search is None:
        return evaluate_plain(pos, settings)
    classes = search.classes()
    if len(set(classes)) < settings.min_moves:
        return None, "move count"
    found = search.values()
    if found is None:
        return None, "budget"
    ranked = sorted(((found[k], k) for k in dict.fromkeys(classes)), key=lambda vk: -vk[0])
    best = ranked[0][0]
    margin = best - ranked[1][0]
    if margin < 1:
        return None, "not unique"
    line = search.line()
    if line is None:
        return None, "budget"
    successors = list(pos.successors())
    assert len(successors) == len(found), "the C module's turns differ from the rules'"
    values = {str(move): found[k] for k, (move, _) in enumerate(successors)}
    groups: dict[int, list[str]] = {}
    for k, (move, _) in enumerate(successors):
        groups.setdefault(classes[k], []).append(str(move))
    pv: list[str] = []
    here = pos
    for index in line:
        move, here = next(itertools.islice(here.successors(), index, None))
        pv.append(str(move))
    ranked_texts = [(value, groups[k]) for value, k in ranked]
    return _puzzle(pos, best, margin, ranked_texts, values, pv, search.nodes), "puzzle"


def _puzzle(pos: CollexionPosition, best: int, margin: int,
            ranked: list[tuple[int, list[str]]], values: dict[str, int], pv: list[str],
            nodes: int) -> dict[str, Any]:  # fmt: skip
    """The puzzle object: ``ranked``, every distinct turn's (value, ways of writing it),
    best first."""
    solutions = ranked[0][1]
    decoys = [texts[0] for value, texts in ranked[1:] if best - value <= DECOY_MARGIN]
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": "collexion",
        "options": {},
        "objective": "score",
        "position": pos.fen(),
        "to_move": pos.game.symbol(pos.to_move),
        "plies": len(pv),
        "solution": solutions[0],
        "solutions": solutions,
        "score": best,
        "margin": margin,
        "values": values,
        "pv": pv,
        "decoys": decoys,
        "rating": rate(1, len(ranked), len(decoys), nodes),
    }


def evaluate_plain(
    pos: CollexionPosition, settings: ScoreSettings
) -> tuple[dict[str, Any] | None, str]:
    """:func:`evaluate` by the Python :class:`~boardproof.solvers.search.ScoreSearch` (the
    plain method)."""
    if pos.outcome() is not None:
        return None, "finished"
    successors = pos.successors()
    results: dict[CollexionPosition, list[str]] = {}
    for move, child in successors:
        results.setdefault(child, []).append(str(move))
    if len(results) < settings.min_moves:
        return None, "move count"
    search = ScoreSearch(pos, budget=Budget(None, settings.root_nodes))
    try:
        values = {str(move): child_value(search, pos, child) for move, child in successors}
        if search.horizon or search.reps:
            return None, "inexact"
        ranked = sorted(
            ((values[texts[0]], texts) for texts in results.values()), key=lambda vt: -vt[0]
        )
        best, solutions = ranked[0]
        margin = best - ranked[1][0]
        if margin < 1:
            return None, "not unique"
        pv = optimal_line(search, pos)
    except SearchTimeout:
        return None, "budget"
    return _puzzle(pos, best, margin, ranked, values, pv, search.nodes), "puzzle"


def run_task(task: Task) -> dict[str, Any]:
    """Try the task's endgames; returns the first puzzle found (or None) and counts."""
    rng = task.rng()
    counts: dict[str, int] = {}
    for _ in range(task.settings.playouts):
        seed = rng.randrange(1 << 31)
        size = rng.choice(BOX_SIZES)
        pos = endgame(seed, size)
        puzzle, reason = evaluate(pos, task.settings)
        counts[reason] = counts.get(reason, 0) + 1
        if puzzle is not None:
            puzzle["source"] = {"seed": task.seed, "task": task.index, "endgame": [seed, size]}
            return {"puzzle": puzzle, "counts": counts}
    return {"puzzle": None, "counts": counts}


def make_puzzle(seed: int, index: int, settings: Any) -> dict[str, Any]:
    """One puzzle task of the generator (``GameInfo.puzzle_maker``): its ``settings``
    (the generator's) give the turns, endgames and nodes of :class:`ScoreSettings`."""
    score_settings = ScoreSettings(settings.min_moves, settings.playouts, settings.root_nodes)
    return run_task(Task(seed, index, score_settings))


#: what the puzzle generator finds through ColleXion's descriptor
MAKE_PUZZLE = make_puzzle
