"""Carpniches with the game-agnostic solvers: win-in-N, cycles, proofs, the CP-SAT pruning."""

from __future__ import annotations

import pytest

from boardproof.models.carpniches import POODLE, START_POSITION, parse_position
from boardproof.models.carpniches.proofs.cp import prune
from boardproof.solvers.api import solve
from boardproof.solvers.proof import build_proof, check_proof
from boardproof.solvers.search import AlphaBeta

# capybaras to move win in 3 plies: a6-d3 threatens two lines at once
WIN_IN_3 = "(cpc)4p/3p2/6/4c1/6/(pcp)4(cpc) c -"
# two lone pieces: no line and no blocking can ever happen, the play cycles forever
SHUFFLE = "c5/6/6/6/6/5p c -"


def test_win_in_3_alphabeta_pns_and_proof() -> None:
    pos = parse_position(WIN_IN_3)
    result = solve(pos, method="alphabeta", max_plies=5)
    assert (result.value, result.plies, result.winner) == ("win", 3, 0)
    assert solve(pos, method="pns", max_plies=5).value == "win"
    assert solve(pos, method="alphabeta", max_plies=2).value == "unknown"
    proof = build_proof(pos, game_name="carpniches")
    assert check_proof(proof).nodes == len(proof["nodes"])


def test_cycles_are_draws_not_wins() -> None:
    result = solve(parse_position(SHUFFLE), method="enumerate")
    assert result.value == "draw" and result.winner is None


def test_cp_pruning_keeps_the_search_result() -> None:
    pos = parse_position(WIN_IN_3)
    plain = AlphaBeta(pos).iterate(5)
    pruned_search = AlphaBeta(pos, prune=prune, prune_depths=(2, 3))
    pruned = pruned_search.iterate(5)
    assert (pruned.value, pruned.plies) == (plain.value, plain.plies) == ("win", 3)
    opening = START_POSITION.play(START_POSITION.parse_move("a6-b5"))
    opening = opening.play(opening.parse_move("a1-b2"))
    plain_open = AlphaBeta(opening)
    pruned_open = AlphaBeta(opening, prune=prune, prune_depths=(2,))
    assert plain_open.iterate(3).value == pruned_open.iterate(3).value == "unknown"
    assert pruned_open.nodes <= plain_open.nodes


@pytest.mark.long
def test_poodles_refute_f1_e1() -> None:
    """The opening report's forced win: after f1-e1 the poodles win within 7 plies."""
    pos = START_POSITION.play(START_POSITION.parse_move("f1-e1"))
    result = solve(pos, method="pns", max_plies=7)
    assert result.value == "win" and result.winner == POODLE


def test_openings_command(cli_run, tmp_path) -> None:  # type: ignore[no-untyped-def]
    status, out, _ = cli_run("openings", "carpniches", "--max-plies", "2", "--out", str(tmp_path))
    assert status == 0
    lines = out.splitlines()
    assert len(lines) == 7 and lines[0].startswith("f1-c1  no forced win within 2 plies")
    page = (tmp_path / "carpniches-opening.md").read_text()
    assert "neither side can force a win within **3 plies**" in page
    assert (tmp_path / "carpniches-opening.json").exists()
    status, _, err = cli_run("openings", "candy")
    assert status == 2 and "minefield and carpniches" in err and err.count("\n") == 1
