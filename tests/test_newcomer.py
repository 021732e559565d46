"""A newcomer's first hour (issue 12): bad input gets one line and exit status 2."""

from __future__ import annotations

import json

import pytest
from errors import one_error_line as _one_error_line

CARP_START = "(cpc)4(pcp)/6/6/6/6/(pcp)4(cpc) c 1"
COLL = "base 1:g3<3.4,2:g4<4,3:y3,4:g8,5:p3<1,6:p4 g3.g5.y8:2:-/b3.p5:-:- 34/234/234/234 1"


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("empty-object.json", b"{}"),
        ("list.json", b"[1,2,3]"),
        ("null.json", b"null"),
        ("binary.json", bytes(range(256))),
        ("utf16.json", '{"format": "boardproof-proof"}'.encode("utf-16")),
        ("deep.json", b"[" * 100_000),
        ("deep-object.json", b'{"a":' * 100_000),
    ],
)
def test_check_proof_on_what_is_not_a_proof_is_bad_input(cli_run, tmp_path, name, content):
    path = tmp_path / name
    path.write_bytes(content)
    status, out, err = cli_run("check-proof", str(path))
    assert status == 2, (out, err)
    assert "invalid proof" in _one_error_line(err)


def test_check_proof_still_rejects_a_failing_proof_with_status_1(cli_run, tmp_path):
    proof = tmp_path / "proof.json"
    status, _, _ = cli_run("solve", "minefield", "3/3/3 b -", "--proof", str(proof))
    assert status == 0
    data = json.loads(proof.read_text())
    del data["nodes"][1]["moves"]["a1"]
    proof.write_text(json.dumps(data))
    status, out, _ = cli_run("check-proof", str(proof))
    assert status == 1 and "proof rejected: bad node 1 (after a2): missing reply a1" in out


@pytest.mark.parametrize("content", [b"[" * 100_000, b'{"a":' * 100_000])
def test_puzzle_check_on_deep_nesting_is_bad_input(cli_run, tmp_path, content):
    path = tmp_path / "deep.jsonl"
    path.write_bytes(content)
    status, _, err = cli_run("puzzle", "check", str(path))
    assert status == 2 and "nested too deeply" in _one_error_line(err)


def test_perft_with_a_huge_depth_is_refused(cli_run):
    status, _, err = cli_run("perft", "carpniches", CARP_START, "1000000")
    assert status == 2 and "1000000" in _one_error_line(err)


def test_a_collexion_piece_on_itself_is_invalid_notation(cli_run):
    position = "base 1:g3<1 -:-:-/-:-:- 234/234/234/234 1"
    for command in ("show", "moves"):
        status, _, err = cli_run(command, "collexion", position)
        assert status == 2 and "piece 1 lies on itself" in _one_error_line(err)
    status, _, err = cli_run("perft", "collexion", position, "1")
    assert status == 2


def test_collexion_names_a_repeated_id(cli_run):
    status, _, err = cli_run("play", "collexion", COLL, "3.3")
    assert status == 2 and "piece 3 is taken twice" in _one_error_line(err)


IMPOSSIBLE = [
    ("minefield", "wwwww/wwwww/wwwww/wwwww/wwwww b -"),
    ("minefield", "ww3/ww3/5/5/5 b -"),
    ("carpniches", "(ccc)(ccc)(ccc)(ccc)(ccc)(ccc)/6/6/6/6/6 c -"),
]


@pytest.mark.parametrize(("game", "position"), IMPOSSIBLE)
def test_analysing_commands_refuse_an_impossible_position(cli_run, game, position):
    move = "c3" if game == "minefield" else "a6-a5"
    for args in (
        ("solve", game, position, "--max-plies", "1"),
        ("moves", game, position),
        ("perft", game, position, "1"),
        ("play", game, position, move),
    ):
        status, out, err = cli_run(*args)
        assert status == 2 and out == "", args
        assert "impossible position: " in _one_error_line(err)
        assert "--allow-impossible" in err


def test_allow_impossible_analyses_it_and_says_so(cli_run):
    status, out, err = cli_run("solve", "minefield", IMPOSSIBLE[0][1], "--allow-impossible")
    assert status == 0 and "result:" in out
    assert err.startswith("warning: impossible position (")
    status, out, err = cli_run("moves", "minefield", IMPOSSIBLE[1][1], "--allow-impossible")
    assert status == 0 and out.split()[:2] == ["a1", "b1"] and "warning" in err


def test_reach_refuses_an_impossible_position(cli_run):
    start = "(cpc)4(pcp)/6/6/6/6/(pcp)4(cpc) c 1"
    status, _, err = cli_run("reach", "carpniches", start, IMPOSSIBLE[2][1], "--max-plies", "2")
    assert status == 2 and "impossible position: 18 capybaras" in _one_error_line(err)


def test_long_inputs_are_cut_in_messages(cli_run):
    from boardproof.commands.common import quoted

    assert len(quoted("b" * 5000)) < 90


def test_openings_never_writes_into_reports_by_default(cli_run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "reports").mkdir()
    status, out, _ = cli_run("openings", "minefield", "--sizes", "2-3")
    assert status == 0 and "wrote openings/minefield-openings.md" in out
    assert list((tmp_path / "reports").iterdir()) == []


@pytest.mark.parametrize(("sizes", "words"), [("", "expected A-B"), ("9", "--force")])
def test_openings_refuses_empty_and_hopeless_sizes(cli_run, tmp_path, sizes, words):
    status, _, err = cli_run("openings", "minefield", "--sizes", sizes, "--out", str(tmp_path))
    assert status == 2 and words in _one_error_line(err)
    assert list(tmp_path.iterdir()) == []


def test_json_on_show_moves_perft_new_games(cli_run):
    status, out, _ = cli_run("show", "minefield", "3/3/b2 w p", "--json")
    data = json.loads(out)
    assert status == 0 and data["position"] == "3/3/b2 w p" and data["to_move"] == "w"
    assert data["status"] == [] and data["result"] == "ongoing" and "board" in data
    data = json.loads(cli_run("moves", "minefield", "3/3/b2 w p", "--json")[1])
    assert data["moves"][-1] == "swap" and len(data["moves"]) == 9
    data = json.loads(cli_run("perft", "minefield", "3/3/b2 w p", "2", "--json", "--divide")[1])
    assert data["nodes"] == sum(data["divide"].values()) == 62
    data = json.loads(cli_run("perft", "minefield", "3/3/3 b p", "2", "--json")[1])
    assert data == {"game": "minefield", "position": "3/3/3 b p", "depth": 2, "nodes": 81}
    data = json.loads(cli_run("new", "candy", "--players", "3", "--json")[1])
    assert data["game"] == "candy" and data["position"].endswith(" 1 3")
    data = json.loads(cli_run("games", "--json")[1])
    assert [g["name"] for g in data] == ["minefield", "carpniches", "candy", "collexion"]
    assert data[2]["aliases"] == ["candy-conquest"]


def test_json_on_check_proof_and_puzzle_check(cli_run, tmp_path):
    proof = tmp_path / "proof.json"
    cli_run("solve", "minefield", "3/3/3 b -", "--proof", str(proof))
    status, out, _ = cli_run("check-proof", str(proof), "--json")
    assert status == 0 and json.loads(out)["positions"] == 175
    data = json.loads(proof.read_text())
    del data["nodes"][1]["moves"]["a1"]
    proof.write_text(json.dumps(data))
    status, out, _ = cli_run("check-proof", str(proof), "--json")
    assert status == 1 and json.loads(out)["ok"] is False
    puzzles = tmp_path / "p.jsonl"
    status, _, _ = cli_run(
        "puzzle", "generate", "minefield", "--count", "1", "--seed", "3", "--out", str(puzzles)
    )
    assert status == 0
    status, out, _ = cli_run("puzzle", "check", str(puzzles), "--json")
    data = json.loads(out)
    assert status == 0 and data["checked"] == data["ok"] == 1 and data["puzzles"][0]["ok"]


def test_every_command_help_has_an_example(cli_run):
    for command in (["games"], ["show"], ["moves"], ["new"], ["play"], ["perft"], ["solve"],
                    ["check-proof"], ["puzzle", "check"], ["puzzle", "daily"],
                    ["puzzle", "generate"], ["verify"], ["openings"], ["site"],
                    ["reach"]):  # fmt: skip
        status, out, _ = cli_run(*command, "--help")
        assert status == 0 and "Example:" in out and "boardproof " in out, command
    out = cli_run("solve", "--help")[1]
    for method in ("auto", "alphabeta", "pns", "enumerate", "native"):
        assert method in out


def test_puzzle_generate_progress_counter_never_restarts(cli_run, tmp_path):
    import re

    out_file = tmp_path / "p.jsonl"
    status, _, err = cli_run(
        "puzzle", "generate", "minefield", "--count", "2", "--seed", "1", "--out", str(out_file)
    )
    assert status == 0
    numbers = [int(n) for n in re.findall(r"^\[task (\d+) of at most \d+,", err, flags=re.M)]
    assert len(numbers) >= 2 and numbers == list(range(1, len(numbers) + 1)), err


def test_heartbeat_shows_a_long_step_on_stderr(capsys):
    import time

    from boardproof.commands.common import Heartbeat

    with Heartbeat("solve minefield", after=0.05, every=0.05):
        time.sleep(0.3)
    err = capsys.readouterr().err
    assert err.startswith("solve minefield: 0 s elapsed\n") and err.count("\n") >= 2
    with Heartbeat("quick", after=5):
        pass
    assert capsys.readouterr().err == ""


def test_site_reports_each_page_on_stderr(cli_run, tmp_path):
    status, out, err = cli_run(
        "site", "--out", str(tmp_path / "s"), "--days", "1", "--date", "2026-11-29",
        "--game", "minefield",
    )  # fmt: skip
    assert status == 0 and "site: wrote index.html" in err and out.startswith("wrote ")


def test_json_on_openings_and_site(cli_run, tmp_path):
    status, out, _ = cli_run(
        "openings", "minefield", "--sizes", "2-3", "--out", str(tmp_path / "o"), "--json"
    )
    data = json.loads(out)
    assert status == 0 and [s["n"] for s in data["sizes"]] == [2, 3] and data["files"]
    status, out, _ = cli_run(
        "site", "--out", str(tmp_path / "s"), "--days", "1", "--date", "2026-11-29",
        "--game", "minefield", "--json",
    )  # fmt: skip
    data = json.loads(out)
    assert status == 0 and data["pages"] == 2 and "index.html" in data["files"]


def test_the_checkpoint_exists_and_progress_starts_before_the_first_task_ends(tmp_path, capsys):
    from boardproof.jobs.executor import run_tasks

    path = tmp_path / "run.checkpoint.json"
    seen = []

    def task(x: int) -> int:
        seen.append(path.exists())  # a long first task: the checkpoint is already there
        return x * 2

    assert run_tasks(task, [("a", 1), ("b", 2)], checkpoint=path, description="demo") == {
        "a": 2,
        "b": 4,
    }
    assert seen == [True, True]
    err = capsys.readouterr().err
    assert err.splitlines()[0].startswith("[0/2] demo: 2 tasks started; checkpoint ")


def test_the_python_api_names_parameters_not_command_line_options():
    import boardproof

    with pytest.raises(boardproof.InvalidOptionError) as caught:
        boardproof.game("minefield", win="hex")
    assert "--" not in str(caught.value) and "invalid option win:" in str(caught.value)
    pos = boardproof.position("minefield", "3/3/3 b -")
    with pytest.raises(boardproof.InvalidOptionError) as caught:
        boardproof.solve(pos, max_plies=-1)
    assert "--" not in str(caught.value) and "max_plies" in str(caught.value)


def test_heartbeat_shows_the_live_node_count(capsys):
    import time

    from boardproof.commands.common import Heartbeat
    from boardproof.solvers.common import LIVE_NODES, Budget

    Budget(None).check(4096)  # what a search reports as it goes
    with Heartbeat("solve", after=0.05, every=0.5, status=lambda: f"{LIVE_NODES[0]} nodes"):
        time.sleep(0.2)
    assert capsys.readouterr().err == "solve: 0 s elapsed, 4096 nodes\n"


@pytest.mark.parametrize(
    ("game", "text"),
    [
        ("minefield", "b" * 3000 + " b"),
        ("candy", "x" * 3000 + " 1 2"),
        ("minefield", "5/" * 300 + "5 b"),
    ],
)
def test_long_inputs_are_cut_in_error_messages(cli_run, game, text):
    status, _, err = cli_run("show", game, text)
    assert status == 2 and len(_one_error_line(err)) < 200 and "...'" in err
