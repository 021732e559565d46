"""The difficulty calibration on the daily puzzles of 2026 (docs/puzzles.md "Difficulty"):
``CALIBRATION`` is the one of the measures in tests/data/difficulty-calibration-2026.jsonl
(written by ``python -m boardproof.puzzles.calibration_command``), those measures are
what the engine measures now, and few of them are censored."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from boardproof.models.minefield.native import mcts as mf_mcts
from boardproof.puzzles.calibration import GAMES, read_lines, remeasured, summary
from boardproof.puzzles.calibration_command import main
from boardproof.puzzles.difficulty import CALIBRATION, effort_value, scale

DATA = Path(__file__).parent / "data" / "difficulty-calibration-2026.jsonl"
LINES = read_lines(str(DATA))
DAYS = {dt.date(2026, 1, 1) + dt.timedelta(days=k) for k in range(365)}
#: every STEP-th day of a game is measured again (5 a game)
STEP = 73

needs_c = pytest.mark.skipif(mf_mcts._mcts is None, reason="the C module was not built")


def test_the_file_covers_every_daily_puzzle_of_2026_at_real_size() -> None:
    for game in GAMES:
        mine = [line for line in LINES if line["game"] == game]
        assert {dt.date.fromisoformat(line["date"]) for line in mine} == DAYS, game
        assert len(mine) == 365
    sizes = {line["position"].count("/") + 1 for line in LINES if line["game"] == "minefield"}
    assert sizes == {13, 15}


def test_calibration_is_the_files() -> None:
    """Each game's reference calibration is the mean and spread of its measures in the file
    (a new engine or setting without a new calibration fails here or below)."""
    found = summary(LINES)
    for game in GAMES:
        assert list(CALIBRATION[game]) == found[game]["calibration"], game
        # on its own calibration a game's ratings centre on 1500
        ratings = [scale(effort_value(line), *CALIBRATION[game])
                   for line in LINES if line["game"] == game]  # fmt: skip
        assert 1350 <= sorted(ratings)[len(ratings) // 2] <= 1650, game


def test_few_puzzles_are_censored() -> None:
    found = summary(LINES)
    for game in GAMES:
        assert found[game]["censored"] <= 0.11 * found[game]["puzzles"], (game, found[game])
    assert all(line["engine"] != "MCTS" for line in LINES)  # no Python-tree fallback


@needs_c
@pytest.mark.parametrize("game", GAMES)
def test_the_engine_measures_the_same_now(game: str) -> None:
    """Some of the file's puzzles measured again: the same counts (else recalibrate)."""
    mine = sorted((line for line in LINES if line["game"] == game), key=lambda one: one["date"])
    sample = mine[::STEP]
    censored = [line for line in mine if not line["found"]][:1]
    for line in sample + censored:
        assert remeasured(line) == {k: line[k] for k in remeasured(line)}, line["date"]


def test_bad_options_exit_2_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    cases = [(["--days", "0"], "invalid option --days: expected a number 1..3660, got '0'"),
             (["--game", "chess"], "invalid option --game: expected one of minefield, "
              "carpniches, candy, collexion, got 'chess'"),
             (["--from", "/nonexistent"], "invalid option --from: not a folder")]  # fmt: skip
    for argv, why in cases:
        with pytest.raises(SystemExit) as exit_info:
            main([*argv, "--out", "/nonexistent/x.jsonl"])
        assert exit_info.value.code == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and why in err, err
