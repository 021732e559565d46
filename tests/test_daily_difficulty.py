"""Every daily puzzle carries its search-measured difficulty (issue #31 item 4), and the
speed-ups that pay for it give what the plain methods give."""

from __future__ import annotations

import datetime as dt
import json

import pytest

import boardproof.puzzles.generate as generate_module
from boardproof import models
from boardproof.commands.site import build_site
from boardproof.puzzles.daily import daily_puzzle, found_puzzle
from boardproof.puzzles.difficulty import (
    CALIBRATION,
    effort_value,
    limit_for,
    measure,
    position_of,
    scale,
    with_difficulty,
)
from boardproof.puzzles.generate import NATIVE_FILTER_NODES, NATIVE_FILTER_TT_BITS, win_within
from boardproof.solvers.common import Budget, engine_of
from boardproof.solvers.search import AlphaBeta

GAMES = ("minefield", "carpniches", "candy", "collexion")
#: pinned days: a Wednesday (Minefield's pinwheel), a Saturday (cartwheel), a Sunday
DAYS = (dt.date(2026, 2, 4), dt.date(2026, 2, 7), dt.date(2026, 11, 29))


@pytest.mark.parametrize("game", GAMES)
def test_daily_puzzle_carries_its_measured_difficulty(game: str) -> None:
    for day in DAYS:
        puzzle = daily_puzzle(game, day)
        plain = found_puzzle(game, day)
        assert "difficulty" not in plain
        assert puzzle == with_difficulty(plain)  # the same puzzle, measured
        measured = puzzle["difficulty"]
        assert measured["calibration"] == [round(v, 4) for v in CALIBRATION[game]]
        assert measured["rating"] == scale(effort_value(measured), *CALIBRATION[game])
        assert measured["limit"] == 20_000 and measured["runs"] == 3
        # deterministic: the same measure again, in another order of days
    assert daily_puzzle(game, DAYS[0]) == daily_puzzle(game, DAYS[0])


def test_measure_runs_a_seed_free_tree_once() -> None:
    """ColleXion's turn search grows the same tree with any seed: one run stands for all
    (against the plain method that runs every seed)."""
    for day in DAYS:
        puzzle = found_puzzle("collexion", day)
        quick, plain = measure(puzzle), measure(puzzle, plain=True)
        assert quick["engine"] == "TurnSearch"
        quick.pop("seconds"), plain.pop("seconds")
        assert quick == plain
    # a tree that depends on its seed runs every seed (Candy Conquest's native tree)
    puzzle = found_puzzle("candy", DAYS[2])
    assert measure(puzzle)["per_seed"] == measure(puzzle, plain=True)["per_seed"]


@pytest.mark.parametrize("game", ["carpniches", "candy"])
def test_native_decoy_check_gives_the_plain_puzzles(game: str, monkeypatch) -> None:
    """With or without the native 'no decoy' proof, the same daily puzzles."""
    days = [dt.date(2026, 4, d) for d in range(1, 7)]
    quick = [found_puzzle(game, day) for day in days]
    monkeypatch.setattr(generate_module, "NATIVE_DECOYS", False)
    assert [found_puzzle(game, day) for day in days] == quick


@pytest.mark.parametrize("game", ["carpniches", "candy"])
def test_native_win_within_matches_the_python_search(game: str) -> None:
    """The decoys' question (a win within plies + 1 after each other first move) has the
    same answer, the same distance, from the native and the Python searches."""
    asked = 0
    for day in [dt.date(2026, 4, d) for d in range(1, 5)]:
        puzzle = found_puzzle(game, day)
        pos = position_of(puzzle)
        engine = engine_of(pos)
        assert engine is not None and engine.win_within is not None
        player, plies = pos.to_move, int(puzzle["plies"])
        for move in pos.legal_moves():
            if str(move) == puzzle["solution"]:
                continue
            after = pos.play(move)
            native = engine.win_within(after, player, plies + 1, NATIVE_FILTER_NODES,
                                       NATIVE_FILTER_TT_BITS)  # fmt: skip
            search = AlphaBeta(pos, player=player, budget=Budget(None, 2_000_000))
            assert native == win_within(search, after, player, plies + 1), (day, str(move))
            asked += 1
            assert (str(move) in puzzle["decoys"]) <= (native is not None)
    assert asked > 20


def test_site_page_shows_the_measured_rating(tmp_path) -> None:
    out = tmp_path / "site"
    build_site(out, 1, DAYS[2], ["carpniches"])
    day = DAYS[2].isoformat()
    puzzle = json.loads((out / day / "carpniches.jsonl").read_text())
    assert puzzle == daily_puzzle("carpniches", DAYS[2])
    measured = puzzle["difficulty"]
    page = (out / day / "carpniches.html").read_text()
    assert f"Rating: {measured['rating']} ({measured['label']})" in page
    data = json.loads(page.split('id="puzzle-data">', 1)[1].split("</script>", 1)[0])
    assert data["rating"] == measured["rating"]  # what Glicko-2 plays against
    index = (out / "index.html").read_text()
    assert f"{measured['label']} ({measured['rating']})" in index


def test_puzzle_daily_and_generate_show_the_difficulty(cli_run) -> None:
    status, out, _ = cli_run("puzzle", "daily", "candy", "--date", DAYS[2].isoformat())
    measured = daily_puzzle("candy", DAYS[2])["difficulty"]
    assert status == 0
    assert f"(rating {measured['rating']}, {measured['label']}: the engine" in out
    status, out, _ = cli_run("puzzle", "generate", "candy", "--count", "1", "--seed", "1",
                             "--difficulty")  # fmt: skip
    assert status == 0
    puzzle = json.loads(out.splitlines()[0])
    without = {k: v for k, v in puzzle.items() if k != "difficulty"}
    assert puzzle == with_difficulty(without)


def test_python_tree_runs_its_own_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """A position no native tree takes (here: the native trees switched off) is measured
    by the Python MCTS on its own, smaller limit, stored with the measure; a Minefield day
    with an ortho-diagonal path and no orthogonal one (2026-01-08, standard glyphs: once
    the Python tree's) is the native tree's."""
    import boardproof.solvers.analyse as analyse_module

    puzzle = found_puzzle("minefield", dt.date(2026, 1, 8))
    position = position_of(puzzle)
    assert getattr(position.game, "variant", "standard") == "standard"
    twin = models.get("minefield", win="orthodiagonal").parse_position(position.fen())
    assert position.outcome() is None and twin.outcome() is not None
    assert with_difficulty(puzzle)["difficulty"]["engine"] == "NativeTree"
    monkeypatch.setattr(analyse_module, "native_tree", lambda *_args: None)
    measured = with_difficulty(puzzle)["difficulty"]
    assert measured["engine"] == "MCTS"
    assert measured["limit"] == limit_for("MCTS", 20_000) < 20_000
    assert measured == with_difficulty(puzzle, limit=measured["limit"])["difficulty"]
    assert limit_for("NativeTree", 20_000) == 20_000
