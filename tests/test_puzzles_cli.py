"""`boardproof puzzle daily|generate|check` through the CLI: output, files, bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest


def test_daily_text_hides_the_solution_below_the_board(cli_run) -> None:
    status, out, err = cli_run("puzzle", "daily", "minefield", "--date", "2026-03-14")
    assert status == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("minefield puzzle 2026-03-14  (rating ")
    task = next(i for i, line in enumerate(lines) if line.startswith("task: "))
    solution = next(i for i, line in enumerate(lines) if line.startswith("solution: "))
    assert "to play and win in" in lines[task] and "exactly one first move wins" in lines[task]
    assert lines[solution - 1] == "(spoiler below)" and solution > task
    assert any(line.startswith("to move: ") for line in lines[:task])


def test_daily_json(cli_run) -> None:
    status, out, _ = cli_run("puzzle", "daily", "minefield", "--date", "2026-03-14", "--json")
    assert status == 0
    data = json.loads(out)
    for field in ("id", "date", "game", "position", "to_move", "plies", "solution", "pv",
                  "rating"):  # fmt: skip
        assert field in data
    assert "proof" in data or "strategy" in data  # a tree, or a compact proof (version 2)
    assert data["date"] == "2026-03-14" and data["game"] == "minefield"
    status, again, _ = cli_run("puzzle", "daily", "minefield", "--date", "2026-03-14", "--json")
    assert again == out


def test_daily_is_the_same_in_another_process(cli_run) -> None:
    """Same puzzle in a fresh interpreter with another hash seed (string hashing)."""
    status, out, _ = cli_run("puzzle", "daily", "minefield", "--date", "2026-05-01", "--json")
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    code = "from boardproof.cli import main; main()"
    run = subprocess.run(
        [sys.executable, "-c", code, "puzzle", "daily", "minefield", "--date", "2026-05-01",
         "--json"],
        capture_output=True, text=True, env=env, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == json.loads(out)


def test_generate_then_check(cli_run, tmp_path) -> None:
    path = tmp_path / "mine.jsonl"
    status, out, err = cli_run(
        "puzzle", "generate", "minefield", "--count", "2", "--seed", "7", "--out", str(path)
    )
    assert status == 0, err
    assert out.splitlines()[-1].startswith("2 puzzles from ") and str(path) in out
    assert len(path.read_text().splitlines()) == 2
    status, out, _ = cli_run("puzzle", "check", str(path))
    assert status == 0
    lines = out.splitlines()
    assert [line.split()[0] for line in lines[:2]] == ["ok", "ok"]
    assert lines[-1] == "2 puzzles checked: 2 ok, 0 failed"
    # to stdout: the same puzzles as JSON lines
    status, out, _ = cli_run("puzzle", "generate", "minefield", "--count", "2", "--seed", "7")
    assert status == 0
    assert [json.loads(line) for line in out.splitlines()] == [
        json.loads(line) for line in path.read_text().splitlines()
    ]


def test_check_reports_a_tampered_puzzle(cli_run, tmp_path) -> None:
    status, out, _ = cli_run("puzzle", "daily", "minefield", "--date", "2026-03-14", "--json")
    good = json.loads(out)
    bad = dict(good, id="tampered", plies=good["plies"] + 2)
    path = tmp_path / "two.jsonl"
    path.write_text(json.dumps(good) + "\n" + json.dumps(bad) + "\n")
    status, out, _ = cli_run("puzzle", "check", str(path))
    assert status == 1
    lines = out.splitlines()
    assert lines[0].startswith("ok    minefield-2026-03-14: ")
    assert lines[1].startswith("FAIL  tampered: pv: expected")
    assert lines[-1] == "2 puzzles checked: 1 ok, 1 failed"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("puzzle", "daily", "chess"), "error: unknown game: expected one of"),
        (("puzzle", "daily", "minefield", "--date", "2026-02-30"),
         "error: invalid date: expected YYYY-MM-DD, got '2026-02-30'"),
        (("puzzle", "daily", "minefield", "--date", "tomorrow"), "error: invalid date"),
        (("puzzle", "generate", "minefield", "--count", "0"),
         "error: invalid option --count: expected a number from 1 to 10000, got 0"),
        (("puzzle", "generate", "minefield", "--count", "1", "--workers", "0"),
         "error: invalid option --workers"),
        (("puzzle", "generate", "minefield", "--count", "1", "--workers", "2",
          "--scheduler", "tcp://127.0.0.1:1"), "error: invalid option --scheduler"),
        (("puzzle", "generate", "minefield", "--count", "1", "--max-plies", "1"),
         "error: invalid option --max-plies"),
        (("puzzle", "generate", "minefield", "--count", "1", "--out", "/nonexistent/p.jsonl"),
         "error: invalid option --out: no such folder '/nonexistent'"),
        (("puzzle", "check", "/nonexistent/file.jsonl"),
         "error: invalid puzzle file: cannot read"),
    ],
)  # fmt: skip
def test_bad_input_exits_2(cli_run, args, message) -> None:
    status, out, err = cli_run(*args)
    assert status == 2
    assert err.startswith(message), err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_check_bad_files_exit_2(cli_run, tmp_path) -> None:
    for name, text in [("empty.jsonl", ""), ("junk.jsonl", "{not json\n"), ("list.json", "[1]")]:
        path = tmp_path / name
        path.write_text(text)
        status, _, err = cli_run("puzzle", "check", str(path))
        assert status == 2 and err.startswith("error: invalid puzzle file: "), (name, err)
        assert len(err.strip().splitlines()) == 1
