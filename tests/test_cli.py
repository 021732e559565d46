"""Command-line behaviour common to every game: one-line errors, exit status 2."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("show", "chess", "x"), "unknown game"),
        (("frobnicate",), "No such command"),
        (("show",), "Missing argument 'GAME'"),
        (("new", "minefield", "--players", "x"), "--players"),
        (("perft", "minefield", "3/3/3 b", "1", "--bogus"), "--bogus"),
        (("moves", "carpniches", "x", "--win", "orthodiagonal"), "--win"),
    ],
)
def test_bad_input_is_one_line_with_status_2(cli_run, args, needle) -> None:
    status, out, err = cli_run(*args)
    assert status == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert needle in lines[0]
    assert "Traceback" not in err


def test_no_arguments_prints_help(cli_run) -> None:
    status, out, _ = cli_run()
    assert status == 0
    assert "Usage:" in out


def test_games_lists_every_registered_game(cli_run) -> None:
    from boardproof import models

    status, out, _ = cli_run("games")
    assert status == 0
    assert [line.split()[0] for line in out.splitlines()] == list(models.names())
