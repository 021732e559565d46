"""A newcomer's first hour (issue 12), session 4: what the first pass left over."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings

import pytest
from errors import one_error_line as _one_error_line

IMPOSSIBLE = "ww3/ww3/5/5/5 b -"


# ---------------------------------------------------------------- impossible positions


def test_analyse_refuses_an_impossible_position(cli_run):
    status, out, err = cli_run("analyse", "minefield", IMPOSSIBLE, "--iterations", "5")
    assert status == 2 and out == ""
    line = _one_error_line(err)
    assert line.startswith("error: impossible position: 0 b and 4 w stones")
    assert line.endswith(f"{IMPOSSIBLE!r} (--allow-impossible analyses it anyway)")


def test_analyse_allow_impossible_analyses_it_and_says_so(cli_run):
    args = ("analyse", "minefield", IMPOSSIBLE, "--iterations", "5", "--quiet")
    status, out, err = cli_run(*args, "--allow-impossible")
    assert status == 0 and out.startswith(f"position: {IMPOSSIBLE}\n")
    assert err.startswith("warning: impossible position (0 b and 4 w stones")
    assert "analysed anyway because of --allow-impossible" in err


@pytest.mark.parametrize(
    "record",
    [f"{IMPOSSIBLE}\nc3\n", json.dumps({"start": IMPOSSIBLE, "moves": ["c3"]})],
)
def test_review_refuses_an_impossible_start(cli_run, tmp_path, record):
    path = tmp_path / "game.txt"
    path.write_text(record)
    status, out, err = cli_run("review", "minefield", str(path), "--iterations-per-move", "5")
    assert status == 2 and out == ""
    line = _one_error_line(err)
    assert line.startswith("error: impossible position (record the start): 0 b and 4 w")
    assert "--allow-impossible" in line
    status, out, err = cli_run("review", "minefield", str(path), "--iterations-per-move", "5",
                               "--quiet", "--allow-impossible")  # fmt: skip
    assert status == 0 and out.startswith(f"start: {IMPOSSIBLE}\n")
    assert err.count("warning: impossible position record the start: (") == 1


def test_review_checks_every_position_of_the_record(cli_run, tmp_path, monkeypatch):
    from boardproof.models.minefield.rules import MinefieldPosition

    real = MinefieldPosition.status

    def status(self):  # a stand-in rule: two stones or more cannot occur
        problems = real(self)
        return problems or (["two stones"] if bin(self.black | self.white).count("1") >= 2 else [])

    monkeypatch.setattr(MinefieldPosition, "status", status)
    path = tmp_path / "game.txt"
    path.write_text("4/4/4/4 b -\nb2\nc3 a1\n")
    status_, out, err = cli_run("review", "minefield", str(path), "--iterations-per-move", "5")
    assert status_ == 2 and out == ""
    assert _one_error_line(err) == (
        "error: impossible position (record line 3, ply 2): two stones: '4/2w1/1b2/4 b -' "
        "(--allow-impossible analyses it anyway)"
    )


def test_serve_refuses_impossible_positions_with_the_cli_line(cli_run):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

        from boardproof.web.app import create_app
    client = TestClient(create_app(), base_url="http://127.0.0.1:8000")
    _, _, err = cli_run("solve", "minefield", IMPOSSIBLE)
    cli_line = _one_error_line(err)
    body = {"game": "minefield", "position": IMPOSSIBLE}
    for url, extra in (("/api/solve", {"timeout": 1}), ("/api/play", {"moves": ["c3"]})):
        answer = client.post(url, json={**body, **extra})
        assert answer.status_code == 400, url
        assert cli_line == answer.json()["error"] + " (--allow-impossible analyses it anyway)"
    shown = client.post("/api/position", json=body)  # show's view: the status is listed
    assert shown.status_code == 200 and shown.json()["status"][0].startswith("0 b and 4 w")


# ---------------------------------------------------------------- output paths, before the work

FULL = "/dev/full"
needs_dev_full = pytest.mark.skipif(not os.path.exists(FULL), reason="no /dev/full")


def _refused_at_once(cli_run, args, option, why):
    status, out, err = cli_run(*args)
    assert status == 2 and out == "", (args, out)
    line = _one_error_line(err)  # one line: no progress, no search before it
    assert line.startswith(f"error: invalid option {option}: {why}"), line
    return line


RECORD = "3/3/3 b -\nb2\n"


@needs_dev_full
@pytest.mark.parametrize(
    ("args", "option"),
    [
        (("show", "minefield", "3/3/3 b -", "--svg", FULL), "--svg"),
        (("solve", "minefield", "5/5/5/5/5 b p", "--proof", FULL), "--proof"),
        (("analyse", "minefield", "5/5/5/5/5 b p", "--time", "60", "--proof", FULL), "--proof"),
        (("review", "minefield", "RECORD", "--time-per-move", "60", "--html", FULL), "--html"),
        (("puzzle", "generate", "carpniches", "--count", "50", "--out", FULL), "--out"),
        (("verify", "minefield-no-draw", "--sizes", "2-20", "--checkpoint", FULL),
         "--checkpoint"),
        (("openings", "minefield", "--sizes", "2-5", "--checkpoint", FULL), "--checkpoint"),
    ],
)
def test_dev_full_is_refused_before_any_work(cli_run, tmp_path, args, option):
    record = tmp_path / "game.txt"
    record.write_text(RECORD)
    args = tuple(str(record) if a == "RECORD" else a for a in args)
    line = _refused_at_once(cli_run, args, option, "cannot write (No space left on device)")
    assert line.endswith(f"{FULL!r}")


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (("show", "minefield", "3/3/3 b -", "--svg", "PARENT/x.svg"), "--svg"),
        (("solve", "minefield", "5/5/5/5/5 b p", "--proof", "PARENT/x.json"), "--proof"),
        (("review", "minefield", "RECORD", "--time-per-move", "60", "--html", "PARENT/x.html"),
         "--html"),
        (("site", "--out", "PARENT/site", "--days", "300"), "--out"),
        (("openings", "minefield", "--sizes", "2-5", "--out", "PARENT/o"), "--out"),
        (("verify", "minefield-no-draw", "--sizes", "2-20", "--out", "PARENT/v"), "--out"),
        (("puzzle", "generate", "carpniches", "--count", "50", "--out", "PARENT/p.jsonl"),
         "--out"),
    ],
)
def test_a_path_under_a_file_is_refused_before_any_work(cli_run, tmp_path, args, option):
    parent = tmp_path / "a-file"
    parent.write_text("not a folder\n")
    record = tmp_path / "game.txt"
    record.write_text(RECORD)
    args = tuple(
        str(record) if a == "RECORD" else a.replace("PARENT", str(parent)) for a in args
    )
    _refused_at_once(cli_run, args, option, f"not a folder: {str(parent)!r}")
    assert parent.read_text() == "not a folder\n"


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="no /proc")
@pytest.mark.parametrize(
    ("args", "option"),
    [
        (("show", "minefield", "3/3/3 b -", "--svg", "/proc/boardproof.svg"), "--svg"),
        (("site", "--out", "/proc/boardproof-site", "--days", "300"), "--out"),
        (("analyse", "minefield", "5/5/5/5/5 b p", "--time", "60", "--proof",
          "/proc/boardproof.json"), "--proof"),
    ],
)
def test_an_unwritable_folder_is_refused_before_any_work(cli_run, args, option):
    # /proc takes no new files, even from root (for whom os.access says yes)
    _refused_at_once(cli_run, args, option, "cannot write (")


def test_an_existing_file_is_probed_without_being_truncated(tmp_path):
    from boardproof.commands.common import check_output_path

    kept = tmp_path / "old.svg"
    kept.write_text("<svg/>\n")
    check_output_path(str(kept), "--svg")
    assert kept.read_text() == "<svg/>\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.svg"]  # no probe file left
    check_output_path(str(tmp_path / "new" / "folder"), "--out", folder=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.svg"]


@needs_dev_full
@pytest.mark.parametrize(
    "args",
    [
        ("games",),
        ("solve", "minefield", "5/5/5/5/5 b p", "--json"),
        ("puzzle", "generate", "carpniches", "--count", "50"),
    ],
)
def test_stdout_to_dev_full_is_refused_before_any_work(args):
    with open(FULL, "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "boardproof.cli", *args], stdout=full,
            stderr=subprocess.PIPE, text=True, timeout=60,
        )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr == (
        "error: invalid output: cannot write the standard output (No space left on device)\n"
    )


# ---------------------------------------------------------------- library errors name no CLI flag

LIBRARY_AND_CLI = [
    # (library call, its message, the command line, its message)
    (lambda: _models().get("minefield", win="hex"),
     "invalid option win: expected one of orthogonal, orthodiagonal, got 'hex'",
     ("show", "minefield", "3/3/3 b -", "--win", "hex"),
     "error: invalid option --win: expected one of orthogonal, orthodiagonal, got 'hex'"),
    (lambda: _models().get("minefield").start(size=30),
     "invalid option size: expected 2 to 26, got 30",
     ("new", "minefield", "--size", "30"),
     "error: invalid option --size: expected 2 to 26, got 30"),
    (lambda: _models().get("candy").start(pie=False),
     "invalid option pie: candy does not take it (candy has no pie rule)",
     ("new", "candy", "--no-pie"),
     "error: invalid option --no-pie: candy does not take it (candy has no pie rule)"),
    (lambda: _analyse("3/3/3 b -", seconds=1.0, iterations=5),
     "invalid option seconds: not together with option iterations (give one)",
     ("analyse", "minefield", "3/3/3 b -", "--time", "1", "--iterations", "5"),
     "error: invalid option --time: not together with option --iterations (give one)"),
    (lambda: _generate(min_plies=5, max_plies=3),
     "invalid option max_plies: expected a number >= option min_plies (5), got 3",
     ("puzzle", "generate", "minefield", "--count", "1", "--min-plies", "5", "--max-plies", "3"),
     "error: invalid option --max-plies: expected a number >= option --min-plies (5), got 3"),
    (lambda: _claims().parse_sizes("x"),
     "invalid option sizes: expected A-B or a list like 3,5, got 'x'",
     ("verify", "minefield-no-draw", "--sizes", "x"),
     "error: invalid option --sizes: expected A-B or a list like 3,5, got 'x'"),
]


def _models():
    from boardproof import models

    return models


def _analyse(text, **kwargs):
    from boardproof.solvers.analyse import analyse

    return analyse(_models().get("minefield").parse_position(text), **kwargs)


def _generate(**kwargs):
    from boardproof.puzzles.generate import settings_for

    return settings_for("minefield", **kwargs)


def _claims():
    from boardproof.models.minefield.research import claims

    return claims


@pytest.mark.parametrize(("call", "library", "args", "cli"), LIBRARY_AND_CLI)
def test_library_errors_name_python_parameters_and_the_cli_its_flags(
    cli_run, call, library, args, cli
):
    from boardproof.models.base import BoardproofError

    with pytest.raises(BoardproofError) as caught:
        call()
    assert str(caught.value) == library
    status, out, err = cli_run(*args)
    assert status == 2 and _one_error_line(err) == cli


def test_no_library_message_names_a_command_line_flag():
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent / "boardproof"
    flagged = []
    for folder in ("models", "solvers", "jobs", "review", "puzzles"):
        for path in sorted((root / folder).rglob("*.py")):
            if path.name == "commands.py" or path.name.endswith("_command.py"):
                continue  # a game's own commands (the command line, in its package)
            for number, line in enumerate(path.read_text().splitlines(), 1):
                if re.search(r"\binvalid (option )?--[a-z]", line) or "option --" in line:
                    flagged.append(f"{path.relative_to(root)}:{number}: {line.strip()}")
    assert flagged == []


# ---------------------------------------------------------------- progress: elapsed and estimates


def test_task_progress_piped_is_one_line_per_task_with_elapsed_and_eta(capsys):
    import re

    from boardproof.jobs.executor import run_tasks

    assert run_tasks(abs, [("a", -1), ("b", 2), ("c", -3)], description="demo") == {
        "a": 1, "b": 2, "c": 3}  # fmt: skip
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == "[0/3] demo: 3 tasks started"
    pattern = r"\[(\d)/3\] demo ([abc]): \d+\.\d\ds, \d+\.\ds elapsed(, eta .+ s)?"
    steps = [re.fullmatch(pattern, line) for line in lines[1:]]
    assert all(steps) and [m.group(1) + m.group(2) for m in steps if m] == ["1a", "2b", "3c"]
    assert all(m.group(3) for m in steps[:2] if m) and steps[2] and not steps[2].group(3)


def test_eta_text():
    from boardproof.jobs.progress import eta_text

    assert [eta_text(10, 2, 3), eta_text(600, 1, 1), eta_text(7200, 1, 1)] == [
        "eta 15 s", "eta 10.0 min", "eta 2.0 h"]  # fmt: skip
    assert eta_text(0.1, 1, 1) == "eta < 1 s" and eta_text(3, 0, 5) == eta_text(3, 5, 0) == ""


class _Tree:
    def __init__(self, iterations: int) -> None:
        self.iterations = iterations

    def moves(self, n: int) -> list:
        return []


def test_analyse_progress_estimates_the_time_left(capsys):
    from boardproof.commands.analyse import progress_printer

    report = progress_printer(False, iterations=1000)
    assert report is not None
    report(_Tree(250), 2.0)  # a quarter done in 2 s: 6 s left
    report(_Tree(500), 4.0)
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2 and lines[0].endswith(" 250 iterations, eta 6 s")
    assert lines[1].endswith(" 500 iterations, eta 4 s")
    timed = progress_printer(False, seconds=30.0)
    assert timed is not None
    timed(_Tree(10), 0.1)
    assert capsys.readouterr().err.endswith(" 10 iterations, eta 30 s\n")
    assert progress_printer(True, seconds=30.0) is None


def test_review_progress_has_a_line_per_position_with_elapsed(cli_run, tmp_path):
    path = tmp_path / "game.txt"
    path.write_text("4/4/4/4 b -\na2 a3\n")
    status, _, err = cli_run("review", "minefield", str(path), "--iterations-per-move", "5")
    lines = err.splitlines()
    assert status == 0 and [line.split(",")[0] for line in lines] == [
        "review: position 1/3", "review: position 2/3", "review: position 3/3"]  # fmt: skip
    assert all(" s elapsed" in line for line in lines) and "eta" in lines[1]


def test_puzzle_daily_says_what_it_does_then_a_line_per_task(cli_run):
    status, out, err = cli_run("puzzle", "daily", "minefield", "--date", "2026-11-29")
    lines = err.splitlines()
    assert status == 0 and out
    assert lines[0] == "puzzle daily minefield 2026-11-29: searching (at most 200 self-play games)"
    assert all(line.startswith("daily minefield 2026-11-29: self-play game ")
               and line.endswith(" s)") for line in lines[1:])  # fmt: skip
    assert len(lines) > 1
    status, _, err = cli_run("puzzle", "daily", "carpniches", "--date", "2026-11-29")
    lines = err.splitlines()
    assert status == 0
    assert lines[0] == "puzzle daily carpniches 2026-11-29: searching (at most 400 tasks)"
    assert lines[1] == "puzzles carpniches: up to 400 tasks started"
    assert all(line.startswith("[task ") and " of at most 400, " in line for line in lines[2:])


@pytest.mark.skipif(
    not __import__("boardproof.models.minefield.native", fromlist=["available"]).available(),
    reason="C extension not built",
)
def test_solve_status_shows_the_native_live_node_count():
    from boardproof.commands.common import live_search_status
    from boardproof.models import get
    from boardproof.models.minefield import native

    native.reset()
    with live_search_status() as status:
        assert status() == ""
        found = native.solve(get("minefield").parse_position("2w2/2b2/4b/5/3w1 b -"))
        assert found.nodes > 1 << 20
        assert status() == "1,048,576 nodes in the native search"
    native.reset()


# ---------------------------------------------------------------- a newcomer's bad input, session 4


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (("verify", "minefield-no-draw", "--sizes", "2", "--workers", "99999999"),
         "error: invalid option --workers: expected 1 to 256, got 99999999"),
        (("openings", "minefield", "--sizes", "2", "--workers", "300", "--out", "OUT"),
         "error: invalid option --workers: expected 1 to 256, got 300"),
        (("verify", "minefield-no-draw", "--sizes", "2", "--scheduler", "local:999"),
         "error: invalid option --scheduler: expected local:N with N from 1 to 256, "
         "got 'local:999'"),
        (("puzzle", "generate", "minefield", "--count", "99999999999999999999"),
         "error: invalid option --count: expected a number from 1 to 10000, "
         "got 99999999999999999999"),
        (("serve", "--host", ""),
         "error: invalid option --host: expected an address such as 127.0.0.1, got '' "
         "(0.0.0.0 listens on every interface)"),
        (("verify", "minefield-no-draw", "--sizes", "2", "--merge", "BINARY"),
         "error: invalid option --merge: cannot read a report JSON (not UTF-8 text): 'BINARY'"),
        (("review", "minefield", "BINARY"),
         "error: invalid record: cannot read the file (not a UTF-8 text file): 'BINARY'"),
    ],
)
def test_huge_counts_empty_hosts_and_binary_files_are_refused(cli_run, tmp_path, args, line):
    # before: 1,224 worker processes started, an endless generation, a server on every
    # interface, a UnicodeDecodeError traceback, a codec message
    binary = tmp_path / "binary.json"
    binary.write_bytes(bytes(range(256)) * 4)
    args = tuple(
        a.replace("BINARY", str(binary)).replace("OUT", str(tmp_path / "o")) for a in args
    )
    status, out, err = cli_run(*args)
    assert status == 2 and out == ""
    assert _one_error_line(err) == line.replace("BINARY", str(binary))
    assert not (tmp_path / "o").exists()


def test_the_library_refuses_huge_worker_and_puzzle_counts():
    from boardproof.jobs.executor import Executor
    from boardproof.models.base import BoardproofError
    from boardproof.puzzles.generate import generate

    with pytest.raises(BoardproofError, match="^invalid option workers: expected 1 to 256, "):
        Executor(10**8)
    with pytest.raises(BoardproofError, match="^invalid option count: expected a number from 1"):
        generate("minefield", 10**20, progress=False)


def test_option_words_take_upper_case_as_game_names_do(cli_run):
    from boardproof import models

    assert models.get("MINEFIELD", win="ORTHODIAGONAL").win == "orthodiagonal"
    status, out, _ = cli_run("new", "collexion", "--variant", "BASE", "--seed", "1")
    assert status == 0 and out.startswith("base ")
    status, out, _ = cli_run("perft", "minefield", "3/3/3 b -", "2", "--win", "OrthoDiagonal")
    assert status == 0 and out == cli_run("perft", "minefield", "3/3/3 b -", "2", "--win",
                                          "orthodiagonal")[1]  # fmt: skip
    status, _, err = cli_run("show", "minefield", "3/3/3 b -", "--win", "ORTHO")
    assert status == 2 and "got 'ORTHO'" in _one_error_line(err)


@pytest.mark.parametrize(
    ("game", "position", "upper", "lower"),
    [
        ("minefield", "3/3/3 b -", "B2", "b2"),
        ("carpniches", "(cpc)4(pcp)/6/6/6/6/(pcp)4(cpc) c 1", "A6-B5", "a6-b5"),
        ("candy", ".,.,.,.,./.,.,.,.,./.,.,.,.,./.,.,.,.,./.,.,.,.,. 1 2", "Os@A1", "Os@a1"),
    ],
)
def test_upper_case_squares_are_the_same_move_in_every_game(cli_run, game, position, upper,
                                                           lower):  # fmt: skip
    assert cli_run("play", game, position, upper) == cli_run("play", game, position, lower)
    assert cli_run("play", game, position, upper)[0] == 0


def test_every_command_of_the_tree_has_an_example_in_its_help(cli_run):
    import click

    from boardproof.cli import cli

    def leaves(group: click.Group, path: list[str]) -> list[list[str]]:
        found = []
        for name, command in sorted(group.commands.items()):
            if isinstance(command, click.Group):
                found += leaves(command, [*path, name])
            else:
                found.append([*path, name])
        return found

    commands = leaves(cli, [])
    assert ["analyse"] in commands and ["review"] in commands and ["serve"] in commands
    for command in commands:  # the ones added after the first list (analyse, review, serve)
        status, out, _ = cli_run(*command, "--help")
        assert status == 0 and "Example:" in out and "boardproof " in out, command
    solve_help = " ".join(cli_run("solve", "--help")[1].split())
    assert "Minefield 2x2 to 26x26, Carpniches" in solve_help  # not "up to 8x8" any more


def test_check_proof_of_a_missing_file_names_the_argument(cli_run, tmp_path):
    missing = str(tmp_path / "missing.json")
    status, _, err = cli_run("check-proof", missing)
    assert status == 2
    assert _one_error_line(err) == (
        f"error: invalid FILE: cannot read (No such file or directory): {missing!r}"
    )


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
@pytest.mark.parametrize(
    ("args", "line"),
    [
        (("check-proof", "/dev/zero"), "error: invalid FILE: cannot read (larger than 1 MiB): "),
        (("puzzle", "check", "/dev/zero"), "error: invalid puzzle file: cannot read (larger "),
        (("review", "minefield", "/dev/zero"), "error: invalid record: cannot read the file ("),
        (("verify", "minefield-no-draw", "--sizes", "2", "--merge", "/dev/zero"),
         "error: invalid option --merge: cannot read a report JSON (larger than 1 MiB)"),
    ],
)
def test_an_endless_input_file_is_refused_not_read_forever(cli_run, monkeypatch, args, line):
    import boardproof.inputs

    monkeypatch.setattr(boardproof.inputs, "MAX_INPUT_BYTES", 1 << 20)  # 512 MiB otherwise
    status, out, err = cli_run(*args)  # before: read until the memory was full
    assert status == 2 and out == "" and _one_error_line(err).startswith(line)
    assert "1 MiB" in err


# ---------------------------------------------------------------- session 5 leftovers


@pytest.mark.parametrize("game", ["candy", "carpniches", "collexion"])
def test_no_pie_on_a_game_without_the_pie_rule_says_why(cli_run, game):
    status, out, err = cli_run("new", game, "--no-pie")
    expected = f"error: invalid option --no-pie: {game} does not take it ({game} has no pie rule)"
    assert status == 2 and out == "" and _one_error_line(err) == expected
    assert "False" not in err


def test_ctrl_c_in_a_command_prints_interrupted_with_no_empty_line_before(cli_run):
    import click

    from boardproof.cli import cli

    @click.command(name="ctrl-c-now")
    def ctrl_c_now() -> None:
        raise KeyboardInterrupt

    cli.add_command(ctrl_c_now)
    try:
        status, out, err = cli_run("ctrl-c-now")
    finally:
        cli.commands.pop("ctrl-c-now")
    assert (status, out, err) == (130, "", "interrupted\n")
