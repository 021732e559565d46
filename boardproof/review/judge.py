"""Game review: every move of a record judged by the engine (:mod:`boardproof.solvers.analyse`).

Each position of the record is analysed once (``seconds`` or ``iterations`` per
position). For move ``i`` by player ``P``:

- **before**: the value of the position before the move, for ``P``;
- **after**: the value of the position after it, still for ``P``;
- each value is *proved* (``win``/``loss``/``draw``, by the exact search or the
  MCTS-Solver tree) or *estimated* (``P``'s win rate in the search), labelled which;
- **best**: the engine's best move before the move, or, when the move played was
  that one, the next best (the best alternative), with its value;
- **mark**: ``losing`` when a proved win for ``P`` became a proved loss (the first
  one is *the losing move*); ``mistake`` when not proved but ``P``'s estimate fell
  by at least ``MISTAKE_DROP``.

>>> from boardproof import models
>>> from boardproof.review.record import parse_record
>>> game = models.get("minefield")
>>> record = parse_record(game, "4/4/4/4 b -\\na2 a1 c2")
>>> review = review_record(record, iterations=50)
>>> [(r.move, r.before.label(), r.after.label(), r.mark) for r in review.plies]
[('a2', 'win', 'win', None), ('a1', 'loss', 'loss', None), ('c2', 'win', 'loss', 'losing')]
>>> review.losing_move
3
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from boardproof.review.record import Record
from boardproof.solvers.analyse import Analysis, analyse

#: an unproved drop of a player's estimated win rate that marks a ``mistake``
MISTAKE_DROP = 0.25


@dataclass(frozen=True)
class Verdict:
    """A value for one player: proved (win/loss/draw) or estimated (a win rate)."""

    proved: str | None
    estimate: float
    score: float | None = None

    def label(self) -> str:
        """``win``/``loss``/``draw`` when proved, else ``~57%`` (an estimate)."""
        if self.proved is not None:
            return self.proved
        return f"~{100 * self.estimate:.0f}%"

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "proved": self.proved,
            "estimate": round(self.estimate, 4),
            "kind": "proved" if self.proved is not None else "estimated",
        }
        if self.score is not None:
            data["score"] = round(self.score, 3)
        return data


@dataclass
class PlyReview:
    """The review of one move."""

    ply: int
    where: str
    player: int
    move: str
    before: Verdict
    after: Verdict
    best: str | None
    best_value: Verdict | None
    mark: str | None
    position: str  # before the move
    position_after: str


@dataclass
class Review:
    """A reviewed record: one :class:`PlyReview` per move, and the first losing move."""

    record: Record
    plies: list[PlyReview]
    losing_move: int | None  # the ply of the first ``losing`` mark
    seconds: float

    def to_json(self) -> dict[str, Any]:
        game = self.record.game
        return {
            "game": game.name,
            "start": self.record.start.fen(),
            "losing_move": self.losing_move,
            "plies": [
                {
                    "ply": r.ply,
                    "where": r.where,
                    "player": game.symbol(r.player),
                    "move": r.move,
                    "position": r.position,
                    "before": r.before.to_json(),
                    "after": r.after.to_json(),
                    "best": r.best,
                    "best_value": None if r.best_value is None else r.best_value.to_json(),
                    "mark": r.mark,
                }
                for r in self.plies
            ],
            "seconds": round(self.seconds, 3),
        }


def verdict(found: Analysis, player: int) -> Verdict:
    """What ``found`` says about ``player``."""
    proved, estimate = found.value_for(player)
    score = None
    if found.score is not None and player == found.position.to_move:
        score = found.score
    return Verdict(proved, estimate, score)


def review_record(
    record: Record,
    *,
    seconds: float | None = None,
    iterations: int | None = None,
    seed: int = 0,
    should_stop: Callable[[], bool] | None = None,
    progress: Callable[[int, int], object] | None = None,
) -> Review:
    """Review every move of ``record`` (``seconds`` or ``iterations`` per position)."""
    import time

    start = time.perf_counter()
    if seconds is None and iterations is None:
        seconds = 1.0
    analyses: list[Analysis] = []
    for index, pos in enumerate(record.positions):
        if progress is not None:
            progress(index, len(record.positions))
        analyses.append(analyse(pos, seconds=seconds, iterations=iterations, seed=seed,
                                multipv=3, proof=False, should_stop=should_stop))  # fmt: skip
        analyses[-1].tree = None  # keep the values, not the trees (each holds its memory)
        if should_stop is not None and should_stop():
            break
    plies: list[PlyReview] = []
    losing: int | None = None
    for i, item in enumerate(record.moves):
        if i + 1 >= len(analyses):
            break
        here, there = analyses[i], analyses[i + 1]
        player = record.positions[i].to_move
        before, after = verdict(here, player), verdict(there, player)
        best, best_value = _alternative(here, item.move, player)
        mark = None
        if before.proved == "win" and after.proved == "loss":
            mark = "losing"
            if losing is None:
                losing = i + 1
        elif after.proved is None and before.estimate - after.estimate >= MISTAKE_DROP:
            mark = "mistake"
        plies.append(PlyReview(
            i + 1, item.where, player, str(item.move), before, after, best, best_value, mark,
            record.positions[i].fen(), record.positions[i + 1].fen(),
        ))  # fmt: skip
    return Review(record, plies, losing, time.perf_counter() - start)


def _alternative(found: Analysis, played: Any, player: int) -> tuple[str | None, Verdict | None]:
    """The engine's best move, or the next best when the best was played."""
    best = found.best_move
    if best is None:
        return None, None
    if str(best) == str(played):
        others = [s for s in found.moves if str(s.move) != str(played)]
        if not others:
            return None, None
        stat = others[0]
    else:
        stats = [s for s in found.moves if str(s.move) == str(best)]
        if not stats:
            return str(best), None
        stat = stats[0]
    return str(stat.move), Verdict(stat.proved, stat.value, stat.score)
