"""Proof certificates: real proofs pass, every kind of tampering is rejected."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from boardproof import models
from boardproof.models.base import Outcome
from boardproof.solvers.api import solve
from boardproof.solvers.proof import ProofError, build_proof, check_proof
from boardproof.testing.games import graph_game, random_graph, subtraction


@pytest.fixture(scope="module")
def minefield3() -> dict[str, Any]:
    game = models.get("minefield")
    return build_proof(game.parse_position("3/3/3 b -"), game_name="minefield")


def by_id(proof: dict[str, Any], node_id: int) -> dict[str, Any]:
    return next(n for n in proof["nodes"] if n["id"] == node_id)


def winner_nodes(proof: dict[str, Any], game: Any) -> list[dict[str, Any]]:
    me = game.player_of(proof["winner"])
    return [
        n for n in proof["nodes"] if n["moves"] and game.parse_position(n["position"]).to_move == me
    ]


def loser_nodes(proof: dict[str, Any], game: Any) -> list[dict[str, Any]]:
    me = game.player_of(proof["winner"])
    return [
        n for n in proof["nodes"] if n["moves"] and game.parse_position(n["position"]).to_move != me
    ]


def test_real_minefield_proof_passes(minefield3: dict[str, Any]) -> None:
    report = check_proof(minefield3)
    assert report.winner == "b" and report.root == "3/3/3 b -"
    assert report.nodes == len(minefield3["nodes"])


def test_proofs_of_random_graph_wins_pass() -> None:
    checked = 0
    for seed in range(20):
        game = random_graph(seed, size=20, players=2 + seed % 2, cyclic=True)
        for node in range(20):
            pos = game.position(node)
            if pos.outcome() is not None:
                continue
            result = solve(pos)
            if result.value in ("win", "loss") and result.winner is not None:
                proof = build_proof(pos, winner=result.winner, game_name="graph")
                assert check_proof(proof, game=game).winner == game.symbol(result.winner)
                checked += 1
    assert checked > 50


def test_no_proof_for_a_position_that_is_not_won() -> None:
    with pytest.raises(ValueError, match="no forced win"):
        build_proof(subtraction(8, 3), game_name="subtraction")  # the mover loses


def test_wrong_move_is_rejected(minefield3: dict[str, Any]) -> None:
    game = models.get("minefield")
    proof = copy.deepcopy(minefield3)
    root = by_id(proof, 0)
    (move, child) = next(iter(root["moves"].items()))
    pos = game.parse_position(root["position"])
    other = next(str(m) for m in pos.legal_moves() if str(m) != move)
    root["moves"] = {other: child}
    with pytest.raises(ProofError, match=r"bad node \d+ \(after " + other):
        check_proof(proof)


def test_missing_loser_reply_is_rejected(minefield3: dict[str, Any]) -> None:
    game = models.get("minefield")
    proof = copy.deepcopy(minefield3)
    node = loser_nodes(proof, game)[0]
    dropped = sorted(node["moves"])[0]
    del node["moves"][dropped]
    with pytest.raises(ProofError, match=f"bad node {node['id']} .*missing reply {dropped}"):
        check_proof(proof)


def test_non_terminal_leaf_is_rejected(minefield3: dict[str, Any]) -> None:
    game = models.get("minefield")
    proof = copy.deepcopy(minefield3)
    node = loser_nodes(proof, game)[-1]
    node["moves"] = {}
    with pytest.raises(ProofError, match=f"bad node {node['id']} .*not a finished game"):
        check_proof(proof)


def test_wrong_root_is_rejected(minefield3: dict[str, Any]) -> None:
    proof = copy.deepcopy(minefield3)
    proof["root"] = "3/3/b2 w -"
    with pytest.raises(ProofError, match="bad node 0: wrong root"):
        check_proof(proof)


def test_illegal_move_is_rejected(minefield3: dict[str, Any]) -> None:
    game = models.get("minefield")
    proof = copy.deepcopy(minefield3)
    node = winner_nodes(proof, game)[1]
    pos = game.parse_position(node["position"])
    legal = {str(m) for m in pos.legal_moves()}
    illegal = next(f"{f}{r}" for r in "123" for f in "abc" if f"{f}{r}" not in legal)
    child = next(iter(node["moves"].values()))
    node["moves"] = {illegal: child}
    with pytest.raises(ProofError, match=f"bad node {node['id']} .*illegal move '{illegal}'"):
        check_proof(proof)


def test_claiming_the_other_winner_is_rejected(minefield3: dict[str, Any]) -> None:
    proof = copy.deepcopy(minefield3)
    proof["winner"] = "w"
    with pytest.raises(ProofError, match="bad node 0"):
        check_proof(proof)


def test_leaf_won_by_the_wrong_side_and_cycles_are_rejected() -> None:
    # 0 (P0) -> 1 (P0 wins) or 2 (P1 wins) or 3; 3 (P0) -> 0
    game = graph_game(
        2,
        [(0, [1, 2, 3]), (1, []), (1, []), (0, [0])],
        {1: Outcome.win(0), 2: Outcome.win(1)},
    )
    proof = build_proof(game.position(0), game_name="graph")
    assert check_proof(proof, game=game).nodes == 2
    wrong = copy.deepcopy(proof)
    wrong["nodes"][0]["moves"] = {"2": 1}
    wrong["nodes"][1]["position"] = "node 2"
    with pytest.raises(ProofError, match="bad node 1 .*leaf not won by 1"):
        check_proof(wrong, game=game)
    looping = copy.deepcopy(proof)
    looping["nodes"][0]["moves"] = {"3": 1}
    looping["nodes"][1] = {"id": 1, "position": "node 3", "moves": {"0": 0}}
    with pytest.raises(ProofError, match="cycle"):
        check_proof(looping, game=game)


def test_garbage_is_rejected_with_one_line() -> None:
    with pytest.raises(ProofError, match="missing field 'format'"):
        check_proof({})
    with pytest.raises(ProofError, match="expected format"):
        check_proof({"format": "x"})
