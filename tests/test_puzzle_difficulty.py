"""The difficulty measured by search: iterations until the engine settles on the solution."""

from __future__ import annotations

import pytest

from boardproof import models
from boardproof.puzzles import PuzzleError
from boardproof.puzzles.difficulty import (
    PATTERN_PRIOR,
    SHORTCUT,
    checkpoints,
    difficulty,
    effort_value,
    measure,
    rate_set,
    search_effort,
    with_difficulty,
)
from boardproof.solvers.analyse import make_tree
from boardproof.solvers.native_mcts import EngineSettings


def puzzle(position: str, solution: str, game: str = "minefield") -> dict:
    return {"id": position, "game": game, "options": {}, "position": position,
            "solution": solution}  # fmt: skip


#: a win in 1 among 4 legal moves (the engine settles at once)
OBVIOUS = puzzle("3/bw1/b2 b -", "a3")
#: the generator's puzzle minefield-1-11: a win in 5, two decoys that win more slowly
HARD = puzzle("1w1w1/bb1b1/1b1b1/2w2/1w3 w -", "a5")
#: minefield-1-0: the engine proves the decoy a1 (a slower win) before it finds d3
DECOYED = puzzle("w2bb/bb3/2b1w/bww2/1wwbw b -", "d3")


def test_an_obvious_puzzle_rates_below_a_hard_one() -> None:
    easy, hard = with_difficulty(OBVIOUS), with_difficulty(HARD)
    assert easy["difficulty"]["found"] and hard["difficulty"]["found"]
    assert easy["difficulty"]["iterations"] < hard["difficulty"]["iterations"]
    assert easy["difficulty"]["rating"] < hard["difficulty"]["rating"]


def test_the_same_seed_gives_the_same_measure_and_another_seed_may_not() -> None:
    first, again = measure(HARD, seed=3, limit=5000), measure(HARD, seed=3, limit=5000)
    first.pop("seconds"), again.pop("seconds")
    assert first == again
    assert first["per_seed"] == [
        search_effort(models.get("minefield").parse_position(HARD["position"]), ["a5"],
                      seed=s, limit=5000)["iterations"] for s in (3, 4, 5)
    ]  # fmt: skip
    assert sorted(first["per_seed"])[1] == first["iterations"]  # the median of 3 runs
    assert len(set(first["per_seed"])) > 1  # the seed matters: a single run is noisy


def test_a_puzzle_the_engine_does_not_settle_on_is_censored_and_rates_highest() -> None:
    # a losing first move as the "answer": the engine never settles on it
    losing = puzzle("1w3/1b1bb/b2b1/1wwb1/2ww1 w -", "e1")  # the solution is a2
    pos = models.get("minefield").parse_position(losing["position"])
    assert analyse_value(pos.play(pos.parse_move("e1"))) == "win"  # for Black: e1 loses
    effort = measure(losing, limit=2000)
    assert not effort["found"] and effort["iterations"] is None
    assert effort_value(effort) == effort_value({"found": False, "iterations": None,
                                                 "limit": 2000})  # fmt: skip
    found = difficulty(measure(HARD, limit=2000), "minefield")
    assert difficulty(effort, "minefield")["rating"] > found["rating"]


def test_a_run_that_proves_a_slower_win_first_is_censored() -> None:
    """minefield-1-0: d3 wins in 5, the decoy a1 more slowly; a run whose tree proves its
    choice wins stops there, and counts as found only when that choice is the solution."""
    pos = models.get("minefield").parse_position(DECOYED["position"])
    outcomes = [search_effort(pos, ["d3"], seed=s, limit=2000) for s in range(3)]
    for one in outcomes:
        if one["proved"] == "win":
            assert one["found"] == (one["choice"] == "d3"), one
    assert any(one["proved"] == "win" for one in outcomes)  # (today: all 3 prove a1 first)


def analyse_value(pos) -> str:
    from boardproof.solvers.api import solve

    return solve(pos, timeout=30).value


def plain_effort(position, answer: str, seed: int, limit: int) -> int | None:
    """The plain method: read the recommendation after every single iteration."""
    tree = make_tree(position, "auto", "auto", seed, exact=False,
                     settings=EngineSettings(hash_mb=32, threads=1, seed=seed,
                                           shortcut=SHORTCUT,
                                           pattern_prior=PATTERN_PRIOR))  # fmt: skip
    since = None
    for k in range(1, limit + 1):
        if tree.proved_value() is None:
            tree.run(iterations=1)
        good = str(tree.best_move()) == answer
        since = (since or k) if good else None
        if good and tree.proved_value() == "win":
            break
    return since


@pytest.mark.parametrize(("game", "position", "answer"), [
    ("minefield", "1w1w1/bb1b1/1b1b1/2w2/1w3 w -", "a5"),
    ("carpniches", "(cp)c1(cp)2/6/5p/p3p1/4c1/(pc)2c2 c -", "e2-e1"),
    ("candy", ".,2sO,.,1xO,./2oS,2Xs,1sO2oX,.,./1Ox,1oX2xO2oX,2Os1Sx,2xS1sO,1Os/2xS1sX,"
              "2Xs1So,.,2Os2Sx,2sO/1Xs,1sO,2Xo,1oS1sX,1Xs 1 2", "Xo@c3"),
])  # fmt: skip
def test_the_checkpoints_agree_with_reading_every_iteration(game, position, answer) -> None:
    pos = models.get(game).parse_position(position)
    limit = 300
    plain = plain_effort(pos, answer, 1, limit)
    measured = search_effort(pos, [answer], seed=1, limit=limit)["iterations"]
    if plain is None or plain <= 16:
        assert measured == plain  # every iteration is a checkpoint up to 16
    else:  # the first checkpoint at or after the plain count, or an earlier one the
        # recommendation left and came back to between two checkpoints
        assert measured is not None
        assert measured <= min(c for c in checkpoints(limit) if c >= plain)


def test_checkpoints_are_increasing_and_end_at_the_limit() -> None:
    marks = checkpoints(20_000)
    assert marks[:16] == list(range(1, 17)) and marks[-1] == 20_000
    assert all(b > a for a, b in zip(marks, marks[1:], strict=False))
    assert len(marks) < 100


def test_a_set_is_rated_on_its_own_calibration() -> None:
    rated = rate_set([OBVIOUS, HARD], limit=2000)
    low, high = (p["difficulty"]["rating"] for p in rated)
    assert low < 1500 < high and abs((low + high) / 2 - 1500) <= 1  # mean 0, one sigma each
    assert rate_set(rated, limit=2000) == rated  # a stored measure is reused


def test_bad_limit_or_runs_is_one_error() -> None:
    with pytest.raises(PuzzleError, match="invalid option limit"):
        measure(OBVIOUS, limit=0)
    with pytest.raises(PuzzleError, match="invalid option runs"):
        measure(OBVIOUS, runs=0)
