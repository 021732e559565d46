"""The anytime engine (MCTS-Solver + exact search) and ``boardproof analyse``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from interrupt import interrupt_after_progress

from boardproof import models
from boardproof.solvers.analyse import analyse
from boardproof.solvers.api import solve
from boardproof.solvers.mcts import MCTS
from boardproof.solvers.proof import check_proof
from boardproof.testing.games import random_graph, subtraction

MF = models.get("minefield")
#: found by random play and checked with the native search (see the assertions)
WIN_IN_1 = "1w2w1/1bb3/w1bb2/1bbb1b/2b1ww/w1wwwb w -"  # w: b1
WIN_IN_3 = "w3bb/w1w3/3wbb/1ww1bb/1w2w1/b1w1bb b -"  # b: f2
ONLY_MOVE = "bbwwb1/bbw3/w3w1/w4w/1bb3/b3bw w -"  # w: only b3 does not lose


def _mover_wins_after(pos, move) -> bool:
    child = pos.play(move)
    outcome = child.outcome()
    if outcome is not None:
        return pos.to_move in outcome.winners
    found = solve(child, method="alphabeta", timeout=60, distance=False)
    return found.winner == pos.to_move


def test_the_test_positions_are_what_they_claim() -> None:
    one = solve(MF.parse_position(WIN_IN_1), method="alphabeta")
    three = solve(MF.parse_position(WIN_IN_3), method="alphabeta")
    assert (one.value, one.plies) == ("win", 1)
    assert (three.value, three.plies) == ("win", 3)
    pos = MF.parse_position(ONLY_MOVE)
    good = [str(m) for m in pos.legal_moves() if _mover_wins_after(pos, m)]
    assert good == ["b3"] and len(pos.legal_moves()) > 10


@pytest.mark.parametrize(("fen", "move"), [(WIN_IN_1, "b1"), (WIN_IN_3, "f2")])
@pytest.mark.parametrize("exact", [True, False])
def test_forced_wins_are_proved_with_a_checked_proof(fen: str, move: str, exact: bool) -> None:
    pos = MF.parse_position(fen)
    found = analyse(pos, iterations=5000, seed=1, exact=exact)
    assert found.result == "win" and found.winner == pos.to_move
    assert str(found.best_move) == move
    assert found.proof is not None
    assert check_proof(found.proof, game=MF).winner == MF.symbol(pos.to_move)
    if not exact:
        assert found.method == "mcts-solver" and found.stopped == "proved"


def test_the_tree_proof_itself_is_accepted() -> None:
    pos = MF.parse_position(WIN_IN_3)
    tree = MCTS(pos, seed=2)
    assert tree.run(iterations=5000).stopped == "proved"
    winner = tree.proved_winner()
    assert winner == pos.to_move
    proof = tree.proof(winner)
    assert check_proof(proof, game=MF).nodes == len(proof["nodes"])
    with pytest.raises(ValueError):
        tree.proof(1 - winner)


def test_the_only_non_losing_move_is_found_without_exact_search() -> None:
    found = analyse(MF.parse_position(ONLY_MOVE), iterations=3000, seed=0, exact=False)
    assert str(found.best_move) == "b3"


def test_a_budget_spent_before_the_tree_grows_still_names_a_move() -> None:
    pos = MF.start(size=9, pie=False)
    found = analyse(pos, seconds=1e-9, seed=1)
    assert found.best_move in pos.legal_moves() and found.iterations == 1
    assert found.stopped == "time" and found.result == "unknown"


def test_same_seed_same_answer() -> None:
    pos = MF.start(size=5, pie=True)
    runs = [analyse(pos, iterations=400, seed=7, exact=False).to_json() for _ in range(2)]
    for run in runs:
        run.pop("seconds")
    assert runs[0] == runs[1]
    other = analyse(pos, iterations=400, seed=8, exact=False).to_json()
    other.pop("seconds")
    assert other["moves"] != runs[0]["moves"]


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("players", [2, 3])
def test_every_proved_value_agrees_with_exact_search(seed: int, players: int) -> None:
    game = random_graph(seed, size=40, players=players, cyclic=seed % 2 == 0)
    for node in (0, 1, 2, 3):
        pos = game.position(node)
        if pos.outcome() is not None:
            continue
        tree = MCTS(pos, seed=seed)
        tree.run(iterations=3000)
        expected = solve(pos, method="enumerate")
        proved = tree.proved_value()
        if proved is not None:
            assert proved == expected.value, (seed, node)
            if proved != "draw":
                assert tree.proved_winner() == expected.winner
        if players == 2 and proved is not None and proved != "draw":
            winner = tree.proved_winner()
            assert winner is not None
            check_proof(tree.proof(winner), game=game)


def test_small_finite_games_get_solved() -> None:
    tree = MCTS(subtraction(12, 3), seed=0)
    assert tree.run(iterations=20000).stopped == "proved"
    assert tree.proved_value() == "loss"  # 12 is a multiple of 4


@pytest.mark.parametrize(
    ("game", "options"),
    [("carpniches", {}), ("candy", {"players": 3}), ("candy", {"players": 4}),
     ("collexion", {"players": 3, "seed": 2})],
)  # fmt: skip
def test_every_game_and_player_count_is_analysed(game: str, options: dict) -> None:
    pos = models.get(game).start(**options)
    found = analyse(pos, iterations=30, seed=1, exact=False)
    assert found.best_move in pos.legal_moves()
    assert found.iterations == 30 and found.result == "unknown"
    data = found.to_json()
    assert data["best_move"] == str(found.best_move) and data["moves"]
    if game == "collexion":
        assert isinstance(data["score"], float) and "score" in data["moves"][0]


def test_analyse_cli_json_and_proof_file(cli_run, tmp_path: Path) -> None:
    proof = tmp_path / "p.json"
    status, out, err = cli_run("analyse", "minefield", WIN_IN_3, "--iterations", "300",
                               "--json", "--proof", str(proof))  # fmt: skip
    assert status == 0, err
    data = json.loads(out)
    assert data["result"] == "win" and data["winner"] == "b" and data["best_move"] == "f2"
    assert {"move", "visits", "value", "proved"} <= set(data["moves"][0])
    assert data["proof"].startswith("wrote")
    status, out, _ = cli_run("check-proof", str(proof))
    assert status == 0 and out.startswith("proof OK: b wins")


def test_analyse_cli_text_and_bad_options(cli_run) -> None:
    status, out, _ = cli_run("analyse", "minefield", "5/5/5/5/5 b -", "--iterations", "50",
                             "--no-exact", "--multipv", "2")  # fmt: skip
    assert status == 0
    assert "result: unknown; estimate:" in out and "(not a proof)" in out
    assert out.count("  -\n") == 2  # two move rows, not proved
    status, _, err = cli_run("analyse", "minefield", "5/5/5/5/5 b -", "--time", "-1")
    refused = "error: invalid option --time: expected a number of seconds > 0, got '-1'"
    assert status == 2 and err.strip() == refused
    status, _, err = cli_run("analyse", "minefield", "5/5/5/5/5 b -", "--time", "1",
                             "--iterations", "5")  # fmt: skip
    assert status == 2 and "--time: not together with option --iterations" in err
    status, _, err = cli_run("analyse", "go", "x")
    assert status == 2 and "unknown game" in err


def test_ctrl_c_prints_the_best_answer_so_far_and_exits_130() -> None:
    start = MF.start(size=9, pie=False).fen()
    status, out, err, took = interrupt_after_progress(
        ["analyse", "minefield", start, "--time", "60", "--no-exact"], "analyse:", timeout=30
    )
    assert took < 20
    assert status == 130
    assert "best move:" in out and "stopped: interrupted" in out
    assert err.strip().endswith("interrupted")


def test_leaf_solver_settles_leaves_and_its_proof_is_spliced_in() -> None:
    from boardproof.models.minefield import native
    from boardproof.solvers.analyse import leaf_solver

    pos = MF.parse_position(ONLY_MOVE)  # a win in 9 plies: too deep for plain MCTS here
    solver = leaf_solver(pos)
    if not native.available():
        assert solver is None
        return
    assert solver is not None
    tree = MCTS(pos, seed=0, leaf_solver=solver)
    assert tree.run(iterations=2000).stopped == "proved"
    assert tree.proved_value() == "win" and str(tree.best_move()) == "b3"
    with pytest.raises(ValueError, match="subproof"):
        tree.proof(pos.to_move)
    from boardproof.solvers.proof import build_proof

    def subproof(leaf, player):
        return build_proof(leaf, winner=player, oracle=native.win_oracle(player))

    proof = tree.proof(pos.to_move, subproof=subproof)
    assert check_proof(proof, game=MF).winner == "w"
    plain = MCTS(pos, seed=0)
    plain.run(iterations=2000)
    assert plain.proved_value() is None  # the leaf solver is what proves it


# ------------------------------------------------ issue 14 audit (session 5): every game


#: (game, the options of ``new``); analyse reads the player count from the position
EVERY_GAME = [
    ("minefield", ("--size", "7")),
    ("carpniches", ()),
    ("candy", ("--players", "2")),
    ("candy", ("--players", "3")),
    ("candy", ("--players", "4")),
    ("collexion", ("--players", "2", "--seed", "1")),
    ("collexion", ("--players", "3", "--seed", "2")),
]


@pytest.mark.parametrize(("game", "options"), EVERY_GAME,
                         ids=[" ".join((game, *options)) for game, options in EVERY_GAME])
def test_analyse_cli_on_every_game_and_player_count(cli_run, game: str, options) -> None:
    status, out, _ = cli_run("new", game, *options)
    assert status == 0
    start = out.strip()
    args = ("analyse", game, start, "--iterations", "12", "--multipv", "2", "--seed", "3")
    status, out, err = cli_run(*args, "--json")
    assert status == 0, err
    data = json.loads(out)
    assert data["game"] == game and data["position"] == start
    assert data["iterations"] == 12 and data["result"] == "unknown" and len(data["moves"]) == 2
    assert data["best_move"] in [item["move"] for item in data["moves"]]
    pos = models.get(game).parse_position(start)
    assert data["best_move"] in {str(m) for m in pos.legal_moves()}
    if game == "collexion":
        assert isinstance(data["score"], float) and "score" in data["moves"][0]
    status, text, _ = cli_run(*args, "--quiet", "--no-exact")  # the text form, at less cost
    assert status == 0 and "best move: " in text
    assert "(not a proof)" in text and text.count("  -\n") == 2  # two rows, not proved
    if game == "candy" and "3" in options:  # the same seed gives the same answer
        status, again, _ = cli_run(*args, "--json")
        assert {**json.loads(again), "seconds": 0} == {**data, "seconds": 0}


#: wins proved on the other games (checked below): Carpniches, capybaras win in 3 (the
#: position of tests/test_carpniches_solve.py); Candy with 3 players, player 2 wins in 1
CARP_WIN_IN_3 = "(cpc)4p/3p2/6/4c1/6/(pcp)4(cpc) c -"
CANDY3_WIN_IN_1 = (
    "1Xs,.,3Xo,3xO,2Xs/3oS,3Ox,1xS,1Xs,./2Os,2sX,1Ox2Xs,3sO,3Sx1Xo/1xO1oS,2So,2sX,1So,./"
    "1Sx2Xo2Ox,3oS1sX,3Xo2Os,3sX,. 2 3"
)


@pytest.mark.parametrize(
    ("game", "fen", "winner", "move", "exact"),
    [("carpniches", CARP_WIN_IN_3, "c", "a6-d3", True),
     ("carpniches", CARP_WIN_IN_3, "c", "a6-d3", False),
     ("candy", CANDY3_WIN_IN_1, "2", "Xo@a1", True),
     ("candy", CANDY3_WIN_IN_1, "2", "Xo@a1", False)],
)  # fmt: skip
def test_proved_wins_on_other_games_come_with_a_proof_check_proof_accepts(
    cli_run, tmp_path: Path, game: str, fen: str, winner: str, move: str, exact: bool
) -> None:
    pos = models.get(game).parse_position(fen)
    assert solve(pos, timeout=60, distance=False).winner == pos.to_move
    proof = tmp_path / "proof.json"
    flags = () if exact else ("--no-exact",)
    status, out, err = cli_run("analyse", game, fen, "--iterations", "3000", "--json",
                               "--proof", str(proof), *flags)  # fmt: skip
    assert status == 0, err
    data = json.loads(out)
    assert (data["result"], data["winner"], data["best_move"]) == ("win", winner, move)
    assert data["method"] == ("mcts-solver" if not exact else data["method"])
    assert data["proof"].startswith(f"wrote {proof} (checked")
    status, out, err = cli_run("check-proof", str(proof))
    assert status == 0 and out.startswith(f"proof OK: {winner} wins"), (out, err)
