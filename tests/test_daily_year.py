"""Daily selection: deterministic across processes, no repeat within 365 days, every game."""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys

import pytest

from boardproof.puzzles.daily import daily_puzzle, daily_seed
from boardproof.reports.site import puzzle_games

START = dt.date(2026, 1, 1)


def test_daily_seeds_differ_for_a_year() -> None:
    for game in puzzle_games():
        seeds = {daily_seed(game, START + dt.timedelta(days=k)) for k in range(365)}
        assert len(seeds) == 365, game


def test_daily_puzzle_is_the_same_in_another_process() -> None:
    day = dt.date(2026, 7, 4)
    code = (
        "import datetime, json, sys\n"
        "from boardproof.puzzles.daily import daily_puzzle\n"
        "print(json.dumps([daily_puzzle(g, datetime.date(2026, 7, 4)) for g in sys.argv[1:]]))\n"
    )
    games = ["minefield", "collexion"]
    done = subprocess.run(
        [sys.executable, "-c", code, *games], capture_output=True, text=True, timeout=120,
        check=True,
    )  # fmt: skip
    assert json.loads(done.stdout) == [daily_puzzle(g, day) for g in games]


@pytest.mark.long
@pytest.mark.parametrize("game", ["minefield", "carpniches", "candy", "collexion"])
def test_no_daily_puzzle_repeats_within_365_days(game: str) -> None:
    positions = [daily_puzzle(game, START + dt.timedelta(days=k))["position"] for k in range(365)]
    assert len(set(positions)) == 365
