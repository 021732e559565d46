"""Best-first growth of the budgeted attempts (``--grow best``, issue 18, session 9): the
next attempt is the most-proving position of the entry's proof-number tree over the
journal. Its values are the plain table's; a resumed run attempts nothing again and
reports the same; two workers attempt two different positions; bad options are refused.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from boardproof.jobs.executor import Executor
from boardproof.models.minefield import native
from boardproof.models.minefield.research import openings, subtrees
from boardproof.models.minefield.research.best_first import INF, BestFirst

needs_native = pytest.mark.skipif(not native.available(), reason="C module not built")


def build(path: Path, budget: int, depth: int, **options) -> dict:
    return openings.build_report([4], budget=budget, depth=depth, split_from=4,
                                 checkpoint=path, progress=False, **options)  # fmt: skip


def winners(report: dict) -> dict[str, str | None]:
    return {e["class"]: e["winner"] for e in report["sizes"][0]["entries"]}


@pytest.fixture(scope="module")
def plain4() -> dict[str, str | None]:
    return winners(openings.build_report([4], progress=False))


@needs_native
@pytest.mark.parametrize("budget, depth", [(100, 3), (200, 3), (500, 2)])
def test_best_first_settles_every_4x4_entry_as_the_plain_table(
    budget: int, depth: int, tmp_path: Path, plain4: dict
) -> None:
    """Budgets too small for most entries: grown best first, every entry and the empty
    board are settled with the plain table's winners, as breadth first settles them."""
    best = build(tmp_path / "best.jsonl", budget, depth, grow="best")
    breadth = build(tmp_path / "breadth.jsonl", budget, depth)
    assert winners(best) == plain4 == winners(breadth)
    assert best["sizes"][0]["run"]["grow"] == "best"
    split = [e for e in best["sizes"][0]["entries"] if e["method"] == "native df-pn split"]
    assert split and all(e.get("parts") for e in split)


@needs_native
def test_best_first_needs_fewer_attempts_where_the_tree_is_deep(tmp_path: Path) -> None:
    """4x4 with 100-node attempts, 3 plies: breadth first attempts every reply of each
    split position, best first only the most-proving ones (244 attempts against 364 when
    this was written; the test asks for fewer)."""
    best = build(tmp_path / "best.jsonl", 100, 3, grow="best")["sizes"][0]["run"]
    breadth = build(tmp_path / "breadth.jsonl", 100, 3)["sizes"][0]["run"]
    assert best["attempts"] < breadth["attempts"]


@needs_native
def test_a_resumed_best_first_run_attempts_nothing_again(counting, tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    first = build(path, 100, 3, grow="best")
    assert counting and len({c[1] for c in counting}) == len(counting)  # each line once
    counting.clear()
    again = build(path, 100, 3, grow="best")
    assert counting == []
    strip = ("seconds", "cpu")
    same = [{k: v for k, v in e.items() if k not in strip} for e in first["sizes"][0]["entries"]]
    assert same == [{k: v for k, v in e.items() if k not in strip}
                    for e in again["sizes"][0]["entries"]]  # fmt: skip


@needs_native
def test_two_workers_attempt_different_positions_and_settle_the_same(
    tmp_path: Path, plain4: dict
) -> None:
    path = tmp_path / "j.jsonl"
    with Executor(2) as executor:
        report = build(path, 100, 3, grow="best", executor=executor)
    assert winners(report) == plain4
    keys = [json.loads(line).get("key") for line in path.read_text().splitlines()[1:]]
    assert len(keys) == len(set(keys))


def test_the_most_proving_position_is_the_reply_cheapest_to_refute() -> None:
    """A two-level tree in a journal: the walk goes to the reply of least δ at each
    position, skips settled replies and busy leaves, and stops at the depth."""
    run = subtrees.SubtreeRun(4, "orthogonal", budget=8, depth=2, progress=False)
    # Black's a1 was attempted: White's replies b1, c2, d1 (lost for White), d3 ...
    run._index(
        "n=4 [a1] budget=8 +must3",
        {"winner": None, "children": [["b1", 40, 3], ["c2", 9, 30], ["d1", INF, 0], ["d3", 7, 7]]},
    )
    # ... and b1 too: Black's replies there
    run._index(
        "n=4 [a1 b1] budget=8 +must3", {"winner": None, "children": [["c3", 2, 1], ["d4", 6, 2]]}
    )
    tree = BestFirst(run, "a1")
    assert tree.numbers("a1 b1") == (2, 3)  # Black to move: least δ of a reply, sum of φ
    assert tree.numbers("a1") == (3, 2 + 30 + 1 + 7)  # b1 has the least δ; d1 counts φ = 1
    assert tree.choose() == "a1 b1 c3"
    assert tree.choose(busy={"a1 b1 c3"}) == "a1 b1 d4"
    assert tree.choose(busy={"a1 b1 c3", "a1 b1 d4"}) == "a1 d3"
    run._index("n=4 [a1 b1 c3] budget=8 +must3", {"winner": "b"})  # Black wins: b1 refuted
    assert tree.choose() == "a1 d3" and not tree.settled()
    assert tree.numbers("a1") == (7, 0 + 30 + 1 + 7)
    assert BestFirst(run, "a1", depth=1).choose(busy={"a1 d3"}) == "a1 c2"
    assert BestFirst(run, "a1", depth=0).choose() is None


def test_bad_grow_options_are_refused_in_one_line(cli_run, tmp_path: Path) -> None:
    for args, text in [
        (
            ["--budget", "100", "--grow", "deep"],
            "error: invalid option --grow: expected one of breadth, best, got 'deep'",
        ),
        (["--grow", "best"], "error: invalid option --grow: it needs --budget, got best"),
    ]:
        status, _, err = cli_run("openings", "minefield", "--sizes", "3", "--out",
                                 str(tmp_path), *args)  # fmt: skip
        assert status == 2 and err.startswith(text), err
        assert len(err.strip().splitlines()) == 1
