"""Puzzles: seeded generation, proofs, the independent check and tampered puzzles."""

from __future__ import annotations

import copy
import datetime as dt
from typing import Any

import pytest

from boardproof import models
from boardproof.puzzles import PuzzleError
from boardproof.puzzles.check import check_puzzle, forced_win
from boardproof.puzzles.daily import daily_puzzle, daily_seed, parse_date
from boardproof.puzzles.generate import Settings, generate, proof_line, puzzle_game
from boardproof.puzzles.rating import label, rate, score
from boardproof.puzzles.store import FORMAT, VERSION, read_puzzles, write_puzzles
from boardproof.solvers.proof import build_proof


@pytest.fixture(scope="module")
def minefield_puzzles() -> list[dict[str, Any]]:
    return generate("minefield", 3, seed=3, progress=False).puzzles


@pytest.fixture(scope="module")
def carpniches_puzzle() -> dict[str, Any]:
    return generate("carpniches", 1, seed=5, progress=False).puzzles[0]


def test_generation_is_deterministic(minefield_puzzles: list[dict[str, Any]]) -> None:
    again = generate("minefield", 3, seed=3, progress=False).puzzles
    assert again == minefield_puzzles
    other = generate("minefield", 3, seed=4, progress=False).puzzles
    assert [p["position"] for p in other] != [p["position"] for p in minefield_puzzles]


def test_generated_puzzles_are_what_they_claim(minefield_puzzles: list[dict[str, Any]]) -> None:
    assert len(minefield_puzzles) == 3
    assert len({p["position"] for p in minefield_puzzles}) == 3
    game = models.get("minefield")
    for puzzle in minefield_puzzles:
        assert puzzle["format"] == FORMAT and puzzle["version"] == VERSION
        pos = game.parse_position(puzzle["position"])
        assert pos.outcome() is None and pos.fen() == puzzle["position"]
        assert 3 <= puzzle["plies"] <= 5 and puzzle["plies"] % 2 == 1
        assert puzzle["pv"][0] == puzzle["solution"] and len(puzzle["pv"]) == puzzle["plies"]
        player = pos.to_move
        # the solution wins within N, no other first move does (rules-only search)
        winning = [
            str(m)
            for m in pos.legal_moves()
            if forced_win(pos.play(m), player, puzzle["plies"] - 1)
        ]
        assert winning == [puzzle["solution"]]
        # and there is no faster win
        assert not forced_win(pos, player, puzzle["plies"] - 2)
        size = len(puzzle["position"].split()[0].split("/"))
        assert 5 <= size <= 7


def test_every_generated_puzzle_passes_check(
    minefield_puzzles: list[dict[str, Any]], carpniches_puzzle: dict[str, Any]
) -> None:
    for puzzle in [*minefield_puzzles, carpniches_puzzle]:
        verdict = check_puzzle(puzzle)
        assert verdict.ok, verdict.message


def test_source_line_reaches_the_position(carpniches_puzzle: dict[str, Any]) -> None:
    game = models.get("carpniches")
    pos = game.parse_position(carpniches_puzzle["source"]["start"])
    assert pos == game.start()
    for text in carpniches_puzzle["source"]["line"]:
        pos = pos.play(pos.parse_move(text))
    assert pos.fen() == carpniches_puzzle["position"]


def _tampered(puzzle: dict[str, Any], **changes: Any) -> dict[str, Any]:
    bad = copy.deepcopy(puzzle)
    bad.update(changes)
    return bad


def test_wrong_solution_fails(minefield_puzzles: list[dict[str, Any]]) -> None:
    puzzle = minefield_puzzles[0]
    pos = models.get("minefield").parse_position(puzzle["position"])
    other = next(str(m) for m in pos.legal_moves() if str(m) != puzzle["solution"])
    bad = _tampered(puzzle, solution=other, pv=[other, *puzzle["pv"][1:]])
    verdict = check_puzzle(bad)
    assert not verdict.ok
    assert verdict.message.startswith("pv") or verdict.message.startswith("proof")
    # the same with a consistent proof: the first move of the proof is still the true one
    bad = _tampered(puzzle, solution=other)
    assert "pv" in check_puzzle(bad).message


def test_bad_proof_fails(minefield_puzzles: list[dict[str, Any]]) -> None:
    puzzle = minefield_puzzles[1]
    bad = copy.deepcopy(puzzle)
    # drop one reply of the loser from a node of the proof
    for node in bad["proof"]["nodes"][1:]:
        if len(node["moves"]) > 1:
            node["moves"].pop(sorted(node["moves"])[0])
            break
    verdict = check_puzzle(bad)
    assert not verdict.ok and verdict.message.startswith("proof: bad node"), verdict.message
    bad = copy.deepcopy(puzzle)
    bad["proof"]["root"] = bad["proof"]["nodes"][1]["position"]
    assert not check_puzzle(bad).ok


def test_longer_claim_than_proved_fails(minefield_puzzles: list[dict[str, Any]]) -> None:
    puzzle = minefield_puzzles[0]
    bad = _tampered(puzzle, plies=puzzle["plies"] - 2, pv=puzzle["pv"][:-2])
    assert not check_puzzle(bad).ok


def test_other_tampering_fails(minefield_puzzles: list[dict[str, Any]]) -> None:
    puzzle = minefield_puzzles[0]
    cases = {
        "position": _tampered(puzzle, position=puzzle["position"].replace(" -", "")),
        "to_move": _tampered(puzzle, to_move="w" if puzzle["to_move"] == "b" else "b"),
        "rating": _tampered(puzzle, rating={**puzzle["rating"], "rating": 3000}),
        "version": _tampered(puzzle, version=99),
        "game": _tampered(puzzle, game="collexion"),
        "source": _tampered(puzzle, source={**puzzle["source"], "line": []}),
        "duals": _tampered(puzzle, duals=[] if puzzle["duals"] else [3]),
    }
    for field, bad in cases.items():
        verdict = check_puzzle(bad)
        assert not verdict.ok, field


def _handmade(position: str, solution: str) -> dict[str, Any]:
    """A Minefield puzzle built by hand (rating, pv and proof consistent)."""
    game = models.get("minefield")
    pos = game.parse_position(position)
    proof = build_proof(pos, game_name="minefield")
    proof["nodes"][0]["moves"] = (
        {solution: proof["nodes"][0]["moves"][solution]}
        if (solution in proof["nodes"][0]["moves"])
        else proof["nodes"][0]["moves"]
    )
    pv = proof_line(proof, solution)
    return {
        "format": FORMAT, "version": VERSION, "game": "minefield", "options": {},
        "position": pos.fen(), "to_move": game.symbol(pos.to_move), "plies": len(pv),
        "solution": solution, "pv": pv, "decoys": [],
        "rating": rate(len(pv), len(pos.legal_moves()), 0, 1), "proof": proof,
    }  # fmt: skip


def test_non_unique_puzzle_fails() -> None:
    # Black completes a column with a1 or with c1: two winning first moves
    puzzle = _handmade("b1b/b1b/3 b -", "a1")
    verdict = check_puzzle(puzzle)
    assert not verdict.ok and verdict.message == "not unique: c1 also wins within 1 plies"


def test_forced_win_agrees_with_the_solver_on_small_boards() -> None:
    from boardproof.solvers.api import solve

    game = models.get("minefield")
    for text in ("3/3/3 b -", "3/1b1/3 w -", "4/4/4/4 b -"):
        pos = game.parse_position(text)
        result = solve(pos, max_plies=5)
        for plies in range(0, 6):
            expected = result.value == "win" and result.plies is not None and result.plies <= plies
            assert forced_win(pos, pos.to_move, plies) == expected, (text, plies)


def test_daily_is_deterministic() -> None:
    day = dt.date(2026, 1, 1)
    first = daily_puzzle("minefield", day)
    assert daily_puzzle("minefield", day) == first
    assert first["id"] == "minefield-2026-01-01" and first["date"] == "2026-01-01"
    assert check_puzzle(first).ok
    assert daily_puzzle("minefield", dt.date(2026, 1, 2))["position"] != first["position"]
    assert daily_seed("minefield", day) != daily_seed("carpniches", day)


def test_bad_input() -> None:
    assert puzzle_game("collexion") == "collexion"
    with pytest.raises(PuzzleError, match=r"invalid date: expected YYYY-MM-DD, got '2026-1-1'"):
        parse_date("2026-1-1")
    with pytest.raises(PuzzleError, match="^invalid option count: "):
        generate("minefield", 0)
    with pytest.raises(ValueError, match="^invalid option max_plies: "):
        Settings(min_plies=5, max_plies=3).validate()


def test_rating_formula() -> None:
    assert score(3, 16, 1, 1000) == 1580
    assert score(5, 16, 1, 1000) > score(3, 16, 1, 1000)
    assert score(3, 32, 0, 10) - score(3, 16, 0, 10) == 120
    assert label(score(7, 40, 5, 10**6)) == "expert"


def test_store_round_trip(tmp_path, minefield_puzzles: list[dict[str, Any]]) -> None:
    path = tmp_path / "p.jsonl"
    write_puzzles(path, minefield_puzzles)
    assert read_puzzles(path) == minefield_puzzles
    assert len(path.read_text().splitlines()) == 3
    (tmp_path / "bad.jsonl").write_text("{}\nnot json\n")
    with pytest.raises(PuzzleError, match="line 2 is not JSON"):
        read_puzzles(tmp_path / "bad.jsonl")
    with pytest.raises(PuzzleError, match="cannot read"):
        read_puzzles(tmp_path / "missing.jsonl")


@pytest.mark.long
def test_workers_give_the_same_puzzles(minefield_puzzles: list[dict[str, Any]]) -> None:
    again = generate("minefield", 3, seed=3, workers=2, progress=False).puzzles
    assert again == minefield_puzzles


@pytest.mark.long
def test_candy_puzzles_check() -> None:
    puzzles = generate("candy", 1, seed=1, progress=False).puzzles
    assert puzzles and all(check_puzzle(p).ok for p in puzzles)


@pytest.mark.long
def test_seven_ply_puzzles_check() -> None:
    settings = Settings(min_plies=7, max_plies=7)
    puzzles = generate("minefield", 2, seed=1, settings=settings, progress=False).puzzles
    assert [p["plies"] for p in puzzles] == [7, 7]
    assert all(check_puzzle(p).ok for p in puzzles)
