"""The Minefield openings report: small sizes, consistency, reproducibility, resume."""

from __future__ import annotations

import json

from boardproof import models
from boardproof.models.minefield.research.openings import build_report, point_classes
from boardproof.solvers.api import solve


def test_classes_cover_every_point_once() -> None:
    for n in (3, 4, 5):
        points = [p for _, members in point_classes(n) for p, _ in members]
        assert sorted(points) == sorted(f"{f}{r}" for f in "abcde"[:n] for r in range(1, n + 1))


def test_table_entries_match_direct_solves() -> None:
    report = build_report([3], progress=False)
    size = report["sizes"][0]
    game = models.get("minefield")
    for row in size["openings"]:
        pos = game.parse_position(row["position"])
        direct = solve(pos, method="enumerate")
        assert game.symbol(direct.winner) == row["winner"], row["point"]
    assert size["consistent"] and size["empty"]["winner"] == "b"


def test_command_writes_reproducible_files_and_resumes(cli_run, tmp_path) -> None:
    out1, out2 = tmp_path / "a", tmp_path / "b"
    status, text, _ = cli_run("openings", "minefield", "--sizes", "2-3", "--out", str(out1))
    assert status == 0 and "3x3: empty board won by b (first move a2)" in text
    checkpoint = tmp_path / "cp.json"
    status, _, _ = cli_run(
        "openings", "minefield", "--sizes", "2-3", "--out", str(out2),
        "--checkpoint", str(checkpoint), "--workers", "2",
    )  # fmt: skip
    assert status == 0 and checkpoint.exists()
    # the same results whatever the worker count (only the recorded command differs)
    assert (out1 / "minefield-openings-3.svg").read_text() == (
        out2 / "minefield-openings-3.svg"
    ).read_text()
    first, second = (json.loads((d / "minefield-openings.json").read_text()) for d in (out1, out2))
    assert first.pop("command") != second.pop("command")
    if first != second:
        import difflib

        lines = [json.dumps(d, indent=1, sort_keys=True).splitlines() for d in (first, second)]
        raise AssertionError("\n".join(difflib.unified_diff(*lines, lineterm="", n=2)))
    # a resumed run takes every entry from the checkpoint
    data = json.loads(checkpoint.read_text())
    assert "n=3 empty" in data
    status, _, err = cli_run(
        "openings", "minefield", "--sizes", "2-3", "--out", str(out2),
        "--checkpoint", str(checkpoint),
    )  # fmt: skip
    assert status == 0 and "from checkpoint" in err


def test_bad_options(cli_run) -> None:
    assert cli_run("openings", "candy")[0] == 2
    assert cli_run("openings", "carpniches", "--sizes", "2-3")[0] == 2
    assert cli_run("openings", "minefield", "--max-plies", "3")[0] == 2
    assert cli_run("openings", "minefield", "--win", "sideways")[0] == 2
    assert cli_run("openings", "minefield", "--sizes", "1-3")[0] == 2
    assert cli_run("openings", "minefield", "--sizes", "x")[0] == 2


def test_native_and_python_searches_give_the_same_tables() -> None:
    """The two independent searches agree on every entry of n = 2..4 (and on the plies
    of the native table against exact Python alpha-beta distances for 3x3)."""
    from boardproof.models.minefield import native

    if not native.available():
        return
    fast = build_report([2, 3, 4], progress=False, method="native")
    slow = build_report([2, 3, 4], progress=False, method="alphabeta")
    for a, b in zip(fast["sizes"], slow["sizes"], strict=True):
        assert [r["winner"] for r in a["openings"]] == [r["winner"] for r in b["openings"]]
        assert a["empty"]["winner"] == b["empty"]["winner"] and a["consistent"]
    game = models.get("minefield")
    for row in fast["sizes"][1]["openings"]:
        exact = solve(game.parse_position(row["position"]), method="alphabeta")
        assert row["plies"] == exact.plies, row["point"]


def test_split_entries_give_the_same_winners(cli_run, tmp_path) -> None:
    """An entry split into one task per White reply has the same winner (and a correct
    best reply) as the entry solved whole."""
    whole = build_report([4], progress=False)
    split = build_report([4], progress=False, split=("a1", "a2"))
    game = models.get("minefield")
    for a, b in zip(whole["sizes"][0]["openings"], split["sizes"][0]["openings"], strict=True):
        assert (a["point"], a["winner"]) == (b["point"], b["winner"])
        if b["best_move"] is not None and b["solved_as"] in ("a1", "a2"):
            pos = game.parse_position(b["position"])
            after = pos.play(pos.parse_move(b["best_move"]))
            assert game.symbol(solve(after).winner) == b["winner"]
    entries = {e["class"]: e for e in split["sizes"][0]["entries"]}
    assert entries["a1"]["method"].endswith("split") and entries["a1"]["check"]["proved"]
    status, _, err = cli_run("openings", "minefield", "--sizes", "4", "--split", "z9",
                             "--out", str(tmp_path))  # fmt: skip
    assert status == 2 and "--split" in err and "'z9'" in err
