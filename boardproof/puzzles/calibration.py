"""The difficulty calibration on the daily puzzles (docs/puzzles.md "Difficulty"): the
measure of :mod:`boardproof.puzzles.difficulty` on every daily puzzle of a span of days, of
every game (Minefield's at 13x13/15x15), and each game's ``(mu, sigma)`` of
``log2(iterations)`` on them, the values :data:`~boardproof.puzzles.difficulty.CALIBRATION`
holds. One command, resumable (the days measured are kept in ``--out``, one JSON line
each, and skipped when it runs again)::

    python -m boardproof.puzzles.calibration_command --days 365 --date 2026-12-31 \\
        --out tests/data/difficulty-calibration-2026.jsonl

(:mod:`boardproof.puzzles.calibration_command`; ``--from DIR`` takes the puzzles from a
site that ``boardproof site --days 365 --date 2026-12-31`` built: the same daily puzzles,
already measured.) It prints each game's
calibration, censored count and labels (easy/medium/hard/expert) on
it; ``--json`` prints them as one JSON object. A line keeps the puzzle's position and
answers with its measure, so ``tests/test_difficulty_calibration.py`` re-measures some
and checks that :data:`CALIBRATION` is the one of the file.

>>> lines = [{"game": "candy", "iterations": 4, "found": True, "limit": 100},
...          {"game": "candy", "iterations": None, "found": False, "limit": 100},
...          {"game": "candy", "iterations": 16, "found": True, "limit": 100}]
>>> summary(lines)["candy"]["censored"], summary(lines)["candy"]["calibration"]
(1, [4.548, 2.3364])
"""

from __future__ import annotations

import datetime as dt
import json
import os
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from boardproof.puzzles import PuzzleError
from boardproof.puzzles.difficulty import (
    DEFAULT_LIMIT,
    ENGINE_LIMITS,
    RUNS,
    answers_of,
    calibrate,
    effort_value,
    measure,
    scale,
)
from boardproof.puzzles.rating import label

#: the games with a daily puzzle, in the order printed
GAMES = ("minefield", "carpniches", "candy", "collexion")
LABELS = ("easy", "medium", "hard", "expert")
#: what a line keeps of the measure
KEPT = ("iterations", "found", "limit", "seed", "runs", "per_seed", "engine")


def measured_day(game: str, date: dt.date, site: str | None = None) -> dict[str, Any]:
    """The line of ``game``'s daily puzzle on ``date``: its position, answers and measure
    (the one stored with the daily puzzle: :func:`~boardproof.puzzles.daily.daily_puzzle`
    measures it; ``site``: read from that site's ``DATE/GAME.jsonl``, a site built by
    ``boardproof site``, and measured again unless its measure has this one's seed, limit
    and runs)."""
    from boardproof.puzzles.daily import daily_puzzle

    puzzle = daily_puzzle(game, date) if site is None else _from_site(site, game, date)
    return {"game": game, "date": date.isoformat(), "options": puzzle.get("options") or {},
            "position": puzzle["position"], "answers": sorted(answers_of(puzzle)),
            **{k: puzzle["difficulty"][k] for k in KEPT}}  # fmt: skip


def _from_site(site: str, game: str, date: dt.date) -> dict[str, Any]:
    path = os.path.join(site, date.isoformat(), f"{game}.jsonl")
    if not os.path.exists(path):
        raise PuzzleError(f"invalid site: no puzzle file {path!r}")
    with open(path, encoding="utf-8") as handle:
        puzzle: dict[str, Any] = json.loads(handle.readline())
    old = puzzle.get("difficulty") or {}
    same = (old.get("seed"), old.get("limit"), old.get("runs")) == (0, DEFAULT_LIMIT, RUNS)
    if not same or old.get("engine") in ENGINE_LIMITS:
        found = measure(puzzle)
        puzzle["difficulty"] = {k: found[k] for k in KEPT}
    return puzzle


def remeasured(line: dict[str, Any]) -> dict[str, Any]:
    """The measure of a line's position and answers, now (as a line keeps it)."""
    puzzle = {"game": line["game"], "options": line["options"], "position": line["position"],
              "solution": line["answers"][0], "solutions": line["answers"]}  # fmt: skip
    found = measure(puzzle)
    return {k: found[k] for k in KEPT}


def summary(lines: Iterable[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per game: ``puzzles``, ``censored``, ``calibration`` ``[mu, sigma]`` (rounded to 4
    places, as a ``difficulty`` stores it), the ``labels`` on it and the ``engines``."""
    by_game: dict[str, list[dict[str, Any]]] = {}
    for line in lines:
        by_game.setdefault(line["game"], []).append(line)
    found: dict[str, dict[str, Any]] = {}
    for game in sorted(by_game, key=lambda g: (GAMES + (g,)).index(g)):
        values = [effort_value(line) for line in by_game[game]]
        mu, sigma = (round(v, 4) for v in calibrate(values))
        labels = Counter(label(scale(x, mu, sigma)) for x in values)
        found[game] = {
            "puzzles": len(values),
            "censored": sum(not line["found"] for line in by_game[game]),
            "calibration": [mu, sigma],
            "labels": {name: labels.get(name, 0) for name in LABELS},
            "engines": dict(Counter(str(line.get("engine")) for line in by_game[game])),
        }
    return found


def read_lines(path: str) -> list[dict[str, Any]]:
    """The lines of a calibration file (none when it does not exist)."""
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as handle:
        return [json.loads(text) for text in handle if text.strip()]


def run(days: int, last: dt.date, games: Sequence[str], out: str, progress: bool = False,
        site: str | None = None) -> list[dict[str, Any]]:  # fmt: skip
    """Measure the days ``last - days + 1 .. last`` of ``games`` not in ``out`` yet,
    appending a line each (``site``: see :func:`measured_day`); the lines of those days
    and games."""
    lines = read_lines(out)
    done = {(line["game"], line["date"]) for line in lines}
    dates = [last - dt.timedelta(days=k) for k in range(days - 1, -1, -1)]
    with open(out, "a", encoding="utf-8") as handle:
        for game in games:
            for date in dates:
                if (game, date.isoformat()) in done:
                    continue
                line = measured_day(game, date, site)
                handle.write(json.dumps(line, separators=(",", ":")) + "\n")
                handle.flush()
                lines.append(line)
                if progress:
                    print(f"{game} {date.isoformat()}: {line['iterations']}", file=sys.stderr)
    wanted = {(g, d.isoformat()) for g in games for d in dates}
    return [line for line in lines if (line["game"], line["date"]) in wanted]


def render(found: dict[str, dict[str, Any]]) -> list[str]:
    """The summary as text lines."""
    rows = [f"{'game':<11} {'puzzles':>7} {'censored':>8}  {'mu':>7} {'sigma':>7}  "
            "easy/medium/hard/expert"]  # fmt: skip
    for game, row in found.items():
        mu, sigma = row["calibration"]
        labels = "/".join(str(row["labels"][name]) for name in LABELS)
        rows.append(f"{game:<11} {row['puzzles']:>7} {row['censored']:>8}  {mu:>7.4f} "
                    f"{sigma:>7.4f}  {labels}")  # fmt: skip
    return rows
