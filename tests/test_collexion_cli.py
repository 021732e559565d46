"""ColleXion through the command line: new, show, moves, play, perft, bad input."""

from __future__ import annotations

import json

import pytest

SMALL = "base 1:g3<3,2:g4,3:y3 -:-:-/-:-:- 234/234/234/234 1"


def test_new_prints_the_seeded_start(cli_run) -> None:
    status, out, _ = cli_run("new", "collexion", "--seed", "5", "--players", "3")
    assert status == 0
    text = out.strip()
    assert text.startswith("base 1:") and text.endswith(" -:-:-/-:-:-/-:-:- 234/234/234/234 1")
    assert cli_run("new", "collexion", "--seed", "5", "--players", "3")[1] == out
    status, out, _ = cli_run("new", "collexion", "--variant", "teams")
    assert status == 0 and out.count(":-:-") == 4


def test_show_draws_layers_and_svg(cli_run, tmp_path) -> None:
    svg = tmp_path / "heap.svg"
    status, out, _ = cli_run("show", "collexion", SMALL, "--svg", str(svg))
    assert status == 0
    assert "layer 0:" in out and "*2:g4" in out and "*3:y3" in out
    assert "layer 1:" in out and " 1:g3<3" in out
    assert f"position: {SMALL}" in out and "to move: 1" in out
    assert svg.read_text().startswith("<svg")


def test_moves_play_and_perft(cli_run) -> None:
    status, out, _ = cli_run("moves", "collexion", SMALL)
    assert status == 0 and out.split() == ["2", "3", "3.1", "3.1.2"]
    status, out, _ = cli_run("play", "collexion", SMALL, "3.1", "2", "--json")
    data = json.loads(out)
    assert data["position"] == "base - g3.y3:-:-/g4:-:- 234/234/234/234 1"
    assert data["result"] == "win" and data["winner"] == "2" and data["scores"] == [-2, -1]
    status, out, _ = cli_run("perft", "collexion", SMALL, "2")
    assert status == 0 and out.split()[-1] == "8"  # 2 + 4 + 1 + 1 (pass)


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("new", "collexion", "--size", "5"), "--size"),
        (("new", "collexion", "--no-pie"), "--no-pie"),
        (("new", "collexion", "--variant", "teams", "--players", "2"), "--players"),
        (("new", "collexion", "--variant", "base", "--players", "4"), "--players"),
        (("new", "collexion", "--variant", "solo"), "variant"),
        (("show", "collexion", "base 1:g3"), "position"),
        (("moves", "collexion", SMALL.replace("g4", "q4")), "box"),
        (("play", "collexion", SMALL, "1"), "not accessible"),
        (("play", "collexion", SMALL, "2.3"), "shares neither"),
        (("play", "collexion", SMALL, "2..3"), "invalid move"),
        (("play", "collexion", SMALL, "pass"), "final round"),
    ],
)
def test_bad_input_is_one_line_with_status_2(cli_run, args, needle) -> None:
    status, out, err = cli_run(*args)
    assert status == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0], err
    assert "Traceback" not in err


def test_solve_exact_endgame(cli_run) -> None:
    from boardproof.models.collexion.endgames import endgame

    text = endgame(1, 8).fen()
    status, out, _ = cli_run("solve", "collexion", text, "--json")
    data = json.loads(out)
    assert status == 0 and data["result"] == "win" and data["score"] == 7
    assert data["method"] == "alphabeta:score" and data["pv"][0] == data["best_move"]


def test_solve_three_players_uses_the_bounded_search(cli_run) -> None:
    from boardproof.models.collexion.endgames import endgame

    status, out, _ = cli_run("solve", "collexion", endgame(1, 5, players=3).fen())
    assert status == 0
    assert "method: bestturn" in out and "coalition" in out and "best move: " in out


def test_solve_the_opening_answers_a_best_turn_that_is_not_a_proof(cli_run) -> None:
    _, start, _ = cli_run("new", "collexion", "--seed", "0")
    status, out, _ = cli_run("solve", "collexion", start.strip(), "--timeout", "1.5", "--json")
    data = json.loads(out)
    assert status == 0 and data["result"] == "unknown" and data["method"] == "bestturn"
    assert "not a proof" in data["note"] and data["best_move"]
    _, moves_out, _ = cli_run("moves", "collexion", start.strip())
    assert data["best_move"] in moves_out.split()
