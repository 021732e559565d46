"""`boardproof solve` and `boardproof check-proof` on Minefield, through the CLI."""

from __future__ import annotations

import json

FIELDS = ["game", "position", "result", "winner", "best_move", "plies", "pv", "nodes",
          "seconds", "method"]  # fmt: skip


def test_solve_json_fields(cli_run) -> None:
    status, out, _ = cli_run("solve", "minefield", "3/3/3 b -", "--json")
    assert status == 0
    data = json.loads(out)
    assert list(data)[: len(FIELDS)] == FIELDS
    assert data["game"] == "minefield" and data["position"] == "3/3/3 b -"
    assert (data["result"], data["winner"], data["plies"]) == ("win", "b", 9)
    assert data["best_move"] == data["pv"][0] and len(data["pv"]) == 9


def test_solve_text_and_methods_agree(cli_run) -> None:
    status, out, _ = cli_run("solve", "minefield", "3/3/3 b -")
    assert status == 0 and "result: win for b (the side to move) in 9 plies" in out
    for method in ("alphabeta", "pns", "enumerate"):
        status, out, _ = cli_run("solve", "minefield", "3/3/3 b -", "--method", method, "--json")
        data = json.loads(out)
        assert (data["result"], data["winner"], data["method"]) == ("win", "b", method)


def test_loss_for_the_side_to_move(cli_run) -> None:
    # 2x2 without pie: White wins the empty board (Black to move loses)
    status, out, _ = cli_run("solve", "minefield", "2/2 b -", "--json")
    data = json.loads(out)
    assert (data["result"], data["winner"]) == ("loss", "w")


def test_max_plies_below_the_win_answers_no_win(cli_run) -> None:
    status, out, _ = cli_run("solve", "minefield", "3/3/3 b -", "--max-plies", "8", "--json")
    data = json.loads(out)
    assert status == 0
    assert data["result"] == "unknown" and data["winner"] is None and data["plies"] is None
    assert data["note"] == "no forced win for either side within 8 plies"
    status, out, _ = cli_run("solve", "minefield", "3/3/3 b -", "--max-plies", "9", "--json")
    assert json.loads(out)["result"] == "win"


def test_timeout_answers_unknown(cli_run) -> None:
    status, out, _ = cli_run("solve", "minefield", "6/6/6/6/6/6 b -", "--timeout", "0.2", "--json")
    data = json.loads(out)
    assert status == 0 and data["result"] == "unknown" and data["winner"] is None


def test_proof_round_trip_and_tampering(cli_run, tmp_path) -> None:
    path = tmp_path / "proof.json"
    status, out, _ = cli_run("solve", "minefield", "1w1/3/b2 b -", "--proof", str(path))
    assert status == 0 and f"proof: wrote {path}" in out
    status, out, _ = cli_run("check-proof", str(path))
    assert status == 0 and out.startswith("proof OK: b wins minefield from 1w1/3/b2 b -")
    data = json.loads(path.read_text())
    loser = next(n for n in data["nodes"] if n["moves"] and n["position"].split()[1] == "w")
    del loser["moves"][sorted(loser["moves"])[0]]
    path.write_text(json.dumps(data))
    status, out, _ = cli_run("check-proof", str(path))
    assert status == 1 and out.startswith(f"proof rejected: bad node {loser['id']}")


def test_proof_of_a_loss_is_the_winners(cli_run, tmp_path) -> None:
    path = tmp_path / "proof.json"
    status, out, _ = cli_run("solve", "minefield", "2/2 b -", "--proof", str(path), "--json")
    assert json.loads(out)["proof"].startswith("wrote")
    status, out, _ = cli_run("check-proof", str(path))
    assert status == 0 and "w wins" in out


def test_bad_input_exits_2_with_one_line(cli_run, tmp_path) -> None:
    for args in (
        ("solve", "minefield", "3/3/3 x -"),
        ("solve", "minefield", "3/3/3 b -", "--method", "magic"),
        ("solve", "minefield", "3/3/3 b -", "--max-plies", "-1"),
        ("solve", "minefield", "3/3/3 b -", "--timeout", "0"),
        ("solve", "chess", "x"),
    ):
        status, out, err = cli_run(*args)
        assert status == 2, args
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, args
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    status, _, err = cli_run("check-proof", str(bad))
    assert status == 2 and "invalid proof: not a JSON file" in err


def test_minefield_win_in_5_with_one_winning_move(cli_run) -> None:
    # found by retrograde enumeration: White wins in 5 plies, b3 is the only winning move
    fen = "1b2/2w1/1bb1/w3 w -"
    status, out, _ = cli_run("moves", "minefield", fen)
    moves = out.split()
    assert len(moves) == 10
    for method in ("alphabeta", "enumerate", "auto"):
        status, out, _ = cli_run("solve", "minefield", fen, "--method", method, "--json")
        data = json.loads(out)
        assert (data["result"], data["winner"], data["plies"], data["best_move"]) == (
            "win", "w", 5, "b3",
        ), method  # fmt: skip
    for method in ("alphabeta", "pns", "enumerate"):
        status, out, _ = cli_run(
            "solve", "minefield", fen, "--max-plies", "4", "--method", method, "--json"
        )
        data = json.loads(out)
        assert (data["result"], data["winner"], data["best_move"]) == ("unknown", None, None)
        assert "within 4 plies" in data["note"], method
        status, out, _ = cli_run(
            "solve", "minefield", fen, "--max-plies", "5", "--method", method, "--json"
        )
        assert json.loads(out)["result"] == "win", method
    # every other move lets Black win or at least stops White's win
    for move in moves:
        if move != "b3":
            status, out, _ = cli_run("play", "minefield", fen, move)
            status, out, _ = cli_run("solve", "minefield", out.strip(), "--json")
            assert json.loads(out)["result"] in ("win", "draw")  # Black (to move) is not lost


def test_native_method_refuses_what_it_cannot_solve(cli_run) -> None:
    from boardproof import models

    collexion = models.get("collexion").start().fen()  # a score game: no native search
    for game, position in (("collexion", collexion),):
        status, _, err = cli_run("solve", game, position, "--method", "native")
        assert status == 2 and err.count("\n") == 1, err
        assert err.startswith("error: invalid option --method native") and position[:40] in err
