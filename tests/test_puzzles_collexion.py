"""ColleXion "best turn" puzzles: generated, re-proved by an independent minimax, tamper-proof."""

from __future__ import annotations

import copy
import datetime as dt
from typing import Any

import pytest

from boardproof import models
from boardproof.models.collexion.puzzles import DEFAULT_SETTINGS, evaluate
from boardproof.puzzles.check import check_puzzle, exact_values
from boardproof.puzzles.daily import daily_puzzle
from boardproof.puzzles.generate import generate
from boardproof.solvers.search import ScoreSearch


@pytest.fixture(scope="module")
def puzzles() -> list[dict[str, Any]]:
    return generate("collexion", 4, seed=5, progress=False).puzzles


def test_generated_puzzles_pass_check_and_are_unique(puzzles: list[dict[str, Any]]) -> None:
    assert len(puzzles) == 4
    game = models.get("collexion")
    for puzzle in puzzles:
        verdict = check_puzzle(puzzle)
        assert verdict.ok, verdict.message
        pos = game.parse_position(puzzle["position"])
        values = exact_values(pos)  # the plain minimax, not the generator's search
        best = values[puzzle["solution"]]
        best_child = pos.play(pos.parse_move(puzzle["solution"]))
        for move in pos.legal_moves():
            if pos.play(move) != best_child:
                assert values[str(move)] <= best - 1, move
        assert puzzle["score"] == best and puzzle["margin"] >= 1


def test_generation_is_deterministic_and_independent_of_workers(
    puzzles: list[dict[str, Any]],
) -> None:
    assert generate("collexion", 4, seed=5, progress=False).puzzles == puzzles
    assert generate("collexion", 4, seed=5, workers=2, progress=False).puzzles == puzzles


def test_minimax_agrees_with_the_score_search() -> None:
    from boardproof.models.collexion.endgames import endgame

    for seed in range(6):
        pos = endgame(seed, 6)
        exact = max(exact_values(pos).values())
        assert ScoreSearch(pos).solve().score == exact


def test_tampered_puzzles_fail(puzzles: list[dict[str, Any]]) -> None:
    puzzle = puzzles[0]
    others = [t for t in puzzle["values"] if t not in puzzle["solutions"]]

    def tampered(**changes: Any) -> dict[str, Any]:
        bad = copy.deepcopy(puzzle)
        bad.update(changes)
        return bad

    cases = {
        "solution": tampered(solution=others[0], pv=[others[0], *puzzle["pv"][1:]]),
        "values": tampered(values={**puzzle["values"], others[0]: puzzle["score"] + 5}),
        "score": tampered(score=puzzle["score"] + 1),
        "margin": tampered(margin=puzzle["margin"] + 1),
        "solutions": tampered(solutions=[puzzle["solution"], others[0]]),
        "pv": tampered(pv=puzzle["pv"][:-1], plies=puzzle["plies"] - 1),
        "objective": tampered(objective="win"),
        "rating": tampered(rating={**puzzle["rating"], "rating": 1}),
    }
    for name, bad in cases.items():
        assert not check_puzzle(bad).ok, name


def test_a_tie_is_no_puzzle() -> None:
    from boardproof.models.collexion.endgames import endgame

    reasons = {evaluate(endgame(seed, 7), DEFAULT_SETTINGS)[1] for seed in range(30)}
    assert "not unique" in reasons and "puzzle" in reasons


def test_daily_collexion_puzzle() -> None:
    day = dt.date(2026, 3, 1)
    first = daily_puzzle("collexion", day)
    assert first == daily_puzzle("collexion", day)
    assert first["id"] == "collexion-2026-03-01" and check_puzzle(first).ok


def test_cli_generate_daily_and_check(cli_run, tmp_path) -> None:
    out = tmp_path / "c.jsonl"
    status, text, err = cli_run(
        "puzzle", "generate", "collexion", "--count", "2", "--seed", "1", "--out", str(out)
    )
    assert status == 0, err
    assert text.startswith("collexion-1-0: 1 best turn ")
    status, text, _ = cli_run("puzzle", "check", str(out))
    assert status == 0 and text.splitlines()[-1] == "2 puzzles checked: 2 ok, 0 failed"
    status, text, _ = cli_run("puzzle", "daily", "collexion", "--date", "2026-11-29")
    assert status == 0 and "task: 1 to play the best turn" in text and "\nscore: " in text
