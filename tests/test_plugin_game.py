"""A fifth game is a plug-in: a toy game registered through the public API only is
found, checked and played from the command line like the built-in games."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ElementTree
from collections.abc import Iterator
from pathlib import Path

import pytest

from boardproof import models
from boardproof.testing import check_game
from boardproof.testing.games import TicTacToe


@pytest.fixture
def tictactoe() -> Iterator[str]:
    """Tic-tac-toe registered as a plug-in for the test, and removed afterwards."""
    game = TicTacToe()
    models.register(game.info)
    try:
        yield game.info.name
    finally:
        models.unregister(game.info.name)


def test_a_registered_game_is_listed_and_conforms(tictactoe: str, cli_run) -> None:
    assert models.names()[-1] == tictactoe
    status, out, _ = cli_run("games")
    assert status == 0 and out.splitlines()[-1].split()[0] == tictactoe
    assert check_game(tictactoe, playouts=3, max_plies=9) > 0


def test_show_moves_play_perft_solve_and_svg_from_the_command_line(
    tictactoe: str, cli_run, tmp_path: Path
) -> None:
    empty = "......... x"
    status, out, err = cli_run("show", tictactoe, empty)
    assert status == 0, err
    assert f"position: {empty}" in out and "to move: x" in out

    status, out, _ = cli_run("moves", tictactoe, empty)
    assert status == 0 and out.split() == [str(i) for i in range(9)]

    status, out, _ = cli_run("play", tictactoe, empty, "4", "0", "--json")
    assert status == 0
    assert json.loads(out) == {"position": "o...x.... x", "result": "ongoing", "winner": None}

    status, out, _ = cli_run("perft", tictactoe, empty, "2")
    assert (status, out.strip()) == (0, "72")

    status, out, _ = cli_run("solve", tictactoe, "xx.oo.... x", "--json")
    data = json.loads(out)
    assert status == 0 and (data["result"], data["best_move"], data["plies"]) == ("win", "2", 1)
    status, out, _ = cli_run("solve", tictactoe, empty, "--json")
    assert status == 0 and json.loads(out)["result"] == "draw"

    picture = tmp_path / "ttt.svg"
    status, out, _ = cli_run("show", tictactoe, empty, "--svg", str(picture))
    assert status == 0 and f"wrote {picture}" in out
    assert ElementTree.parse(picture).getroot().tag.endswith("svg")


def test_a_plugin_refuses_foreign_options_in_the_one_wording(tictactoe: str, cli_run) -> None:
    status, out, err = cli_run("moves", tictactoe, "......... x", "--win", "orthodiagonal")
    assert status == 2 and out == ""
    assert err.strip() == (
        f"error: invalid option --win: {tictactoe} does not take it, got 'orthodiagonal'"
    )


def test_register_refuses_a_taken_name_or_a_broken_descriptor() -> None:
    import dataclasses

    info = TicTacToe().info
    with pytest.raises(ValueError, match="the name is taken: 'minefield'"):
        models.register(dataclasses.replace(info, name="minefield"))
    with pytest.raises(ValueError, match="symbols and sides"):
        models.register(dataclasses.replace(info, sides=("X",)))
    assert "tictactoe" not in models.names()


def test_a_plugin_position_pickles_for_process_pools(tictactoe: str) -> None:
    import pickle

    position = models.get(tictactoe).parse_position("x...o.... x")
    again = pickle.loads(pickle.dumps(position))
    assert again.fen() == position.fen() and again.game.info.name == tictactoe
