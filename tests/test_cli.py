"""Command-line behaviour common to every game: one-line errors, exit status 2."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("show", "chess", "x"), "unknown game"),
        (("frobnicate",), "No such command"),
        (("show",), "error: missing GAME: it is required"),
        (("perft", "minefield", "3/3/3 b", "-1"), "error: invalid DEPTH: expected a number >= 0"),
        (("perft", "minefield", "3/3/3 b", "--", "-1"), "error: invalid DEPTH: -1"),
        (("solve", "minefield", "3/3/3 b", "--timeout", "nan"), "invalid option --timeout"),
        (("solve", "minefield", "3/3/3 b", "--method", "x"), "error: invalid option --method"),
        (("show", "minefield", "3/3/3 b", "--svg", ""), "invalid option --svg: expected a file"),
        (("show", "minefield", "3/3/3 b", "--svg", "/dev/full"), "(No space left on device)"),
        (("site", "--out", "", "--days", "1"), "invalid option --out: expected a folder"),
        (("verify", "minefield-no-draw", "--out", ""), "invalid option --out: expected a folder"),
        (("openings", "minefield", "--out", ""), "invalid option --out: expected a folder"),
        (("site", "--out", "s", "--days", "99999999"), "invalid option --days"),
        (("verify", "minefield-no-draw", "--certify-max", "-1"), "invalid option --certify-max"),
        (("verify", "minefield-no-draw", "--exhaustive-max", "-1"), "--exhaustive-max"),
        (("new", "minefield", "--players", "x"), "--players"),
        (("perft", "minefield", "3/3/3 b", "1", "--bogus"), "--bogus"),
        (("moves", "carpniches", "x", "--win", "orthodiagonal"), "--win"),
    ],
)
def test_bad_input_is_one_line_with_status_2(cli_run, args, needle, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    status, out, err = cli_run(*args)
    assert status == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert needle in lines[0]
    assert "Invalid value for" not in err  # one error style: click's is rewritten
    assert "Traceback" not in err
    assert list(tmp_path.iterdir()) == []  # refused before any work or output
    if args[0] != "show":
        assert out == ""


def test_no_arguments_prints_help(cli_run) -> None:
    status, out, _ = cli_run()
    assert status == 0
    assert "Usage:" in out


def test_games_lists_every_registered_game(cli_run) -> None:
    from boardproof import models

    status, out, _ = cli_run("games")
    assert status == 0
    assert [line.split()[0] for line in out.splitlines()] == list(models.names())
