"""The 6x6 section made from a copy of session 5's published journal (issue 18, session 6).

The journal is frozen in ``tests/data`` (``runs/`` grows with every published run): it
holds session 5's attempts, among them b2's, which ended after ``--stop-after``.

Every attempt of the journal counts, whatever its budget and rules; the 2x2-5x5 output
stays byte for byte the published one. No attempt runs here (``stop_after=0``); the df-pn
nodes of the smaller sizes with the attempts' rules (the estimates' basis, ~25 CPU s for
5x5) are replaced by the plain df-pn counts of the same journal, since these tests are
about what the report makes of the journal, not about the estimates (their own tests are
in ``test_subtrees.py``).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from boardproof.jobs.checkpoints import JournalCheckpoint
from boardproof.models.minefield import native
from boardproof.models.minefield.research import openings, subtrees
from boardproof.models.minefield.research.openings_report import render_markdown, write_report

JOURNAL = Path(__file__).parent / "data" / "minefield-openings-session5.checkpoint.jsonl"
PUBLISHED = Path(__file__).parent.parent / "reports"
COMMAND = ("boardproof openings minefield --sizes 2-6 --workers 2 --force --budget 100000000 "
           "--depth 1 --stop-after 720 --out reports")  # fmt: skip
RUN = {"openings": "minefield", "win": "orthogonal", "method": "auto", "table": "quad"}



def _plain_nodes() -> dict[str, int]:
    done = JournalCheckpoint(JOURNAL, RUN).done
    out = {}
    for key, value in done.items():
        if key.endswith(" df-pn nodes"):
            out[key[: -len(" df-pn nodes")]] = value["nodes"]
        elif key.startswith(("n=2 ", "n=5 ")) and "[" not in key:
            out.setdefault(key, value["nodes"])
    return out


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> tuple[dict, Path, Path]:
    """The report of the published command, from a copy of its journal, with no time left."""
    tmp = tmp_path_factory.mktemp("journal")
    journal = tmp / "copy.jsonl"
    shutil.copy(JOURNAL, journal)
    plain = _plain_nodes()

    def basis(arg):
        n, line, _, rules = arg
        return {"nodes": plain[f"n={n} {line or 'empty'}"], "winner": None,
                "rules": list(rules), "seconds": 1.0}  # fmt: skip

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(subtrees, "basis_nodes", basis)
        report = openings.build_report([2, 3, 4, 5, 6], budget=100_000_000, depth=1,
                                       checkpoint=journal, stop_after=0.0, command=COMMAND,
                                       progress=False)  # fmt: skip
    report["journal"] = str(JOURNAL)
    write_report(report, tmp / "out")
    return report, tmp / "out", journal


def _size(report: dict, n: int) -> dict:
    return next(s for s in report["sizes"] if s["n"] == n)


def _entry(size: dict, label: str) -> dict:
    return next(e for e in size["entries"] if e["class"] == label)


def test_the_2x2_to_5x5_output_is_the_published_one(made) -> None:
    report, out, _ = made
    for n in (2, 3, 4, 5):
        name = f"minefield-openings-{n}.svg"
        assert (out / name).read_bytes() == (PUBLISHED / name).read_bytes()
    new, old = ((d / "minefield-openings.md").read_text().split("\n## 6 x 6")[0].splitlines()
                for d in (out, PUBLISHED))  # fmt: skip
    old = [line for line in old if not line.startswith("| 7 ")]  # a later run's 7x7 row
    assert len(new) == len(old)
    differ = [(a, b) for a, b in zip(new, old, strict=True) if a != b]
    # only the 6x6 row of the summary and, since the published run is a later one (other
    # 6x6 options), the command named in the first line
    assert {a[:4] for a, _ in differ} <= {"| 6 ", "Gene"}
    published = json.loads((PUBLISHED / "minefield-openings.json").read_text())
    assert [_size(report, n) for n in (2, 3, 4, 5)] == published["sizes"][:4]


def test_an_attempt_that_ended_after_the_deadline_is_shown(made) -> None:
    """b2's attempt (100 M nodes, must3) ended after --stop-after: a White win, shown."""
    size = _size(made[0], 6)
    b2 = _entry(size, "b2")
    assert (b2["winner"], b2["method"], b2["nodes"]) == ("w", "native df-pn", 54_095_214)
    assert b2["best_move"] == "b3" and b2["check"]["proved"] is None
    rows = {r["point"]: r["winner"] for r in size["openings"]}
    assert {p for p, w in rows.items() if w == "w"} == {"b2", "e2", "b5", "e5"}
    text = (made[1] / "minefield-openings.md").read_text()
    assert "| b2 | `6/6/6/6/1b4/6 w -` | w | native df-pn | 54095214 | not settled" in text


def test_every_attempt_of_every_budget_counts(made) -> None:
    """The journal's 13 attempts of 20 M nodes (no rule) and 3 of 100 M (must3)."""
    size = _size(made[0], 6)
    run = size["run"]
    assert (run["attempts"], run["nodes"]) == (16, 13 * 20_000_000 + 2 * 100_000_000 + 54_095_214)
    assert run["budgets"] == [{"budget": 100_000_000, "rules": ["must3"], "attempts": 3},
                              {"budget": 20_000_000, "rules": [], "attempts": 13}]  # fmt: skip
    b3 = _entry(size, "b3")["spent"]
    assert (b3["attempts"], b3["nodes"]) == (5, 100_000_000 + 4 * 20_000_000)
    assert _entry(size, "b2")["spent"]["attempts"] == 2
    a1 = _entry(size, "a1")
    assert a1["spent"]["attempts"] == 1 and a1["method"] == "not attempted with this budget"
    assert _entry(size, "empty")["spent"]["nodes"] == run["nodes"]
    cpu = sum(v["cpu"] for k, v in JournalCheckpoint(JOURNAL, RUN).done.items()
              if k.startswith("n=6 ["))  # fmt: skip
    assert abs(_entry(size, "empty")["spent"]["cpu"] - cpu) < 0.01
    text = (made[1] / "minefield-openings.md").read_text()
    assert "| a1 |" in text and "1 x 20,000,000 no rule" in text
    assert "1 x 100,000,000 +must3; 4 x 20,000,000 no rule" in text  # b3


def test_the_6x6_grid_names_the_node_budget_and_the_empty_board_what_is_known(made) -> None:
    text = (made[1] / "minefield-openings.md").read_text()
    six = text.split("\n## 6 x 6")[1]
    assert "time limit" not in six
    assert ("`?`: not settled by the attempts so far (attempts of at most 100,000,000 df-pn "
            "nodes each with +must3, split 1 ply below the entry;") in six  # fmt: skip
    assert "**The empty 6x6 board** (Black to move, no pie rule): **not known yet.**" in six
    assert "White wins after 4 of the 36 first points (b2, e2, b5, e5)" in six
    assert "| 6 | not known | ? |" in text and "none so far (not settled: a1," in text
    assert "0 of 1 (not settled: b2)" in text  # the second search of b2


def test_a_black_win_entry_settles_the_empty_board(made, tmp_path) -> None:
    """A journal where one entry (c3, made up here) is a Black win: the empty board is a
    Black win with that first move, though its own attempt did not settle it."""
    journal = tmp_path / "j.jsonl"
    shutil.copy(made[2], journal)
    fake = {"line": "c3", "position": "6/6/6/2b3/6/6 w -", "method": "native df-pn",
            "rules": ["must3"], "nodes": 1234, "budget": 10**9, "plies": None, "winner": "b",
            "best_move": None, "check": {"method": "native alpha-beta", "proved": True,
                                         "nodes": 99}, "seconds": 1.0, "cpu": 1.0}  # fmt: skip
    with journal.open("a") as handle:
        handle.write(json.dumps({"key": "n=6 [c3] budget=1000000000 +must3", "result": fake})
                     + "\n")  # fmt: skip
    report = openings.build_report([6], budget=100_000_000, depth=1, checkpoint=journal,
                                   stop_after=0.0, progress=False, split_from=6)  # fmt: skip
    size = report["sizes"][0]
    assert size["empty"]["winner"] == "b" and size["empty"]["best_move"] == "c3"
    assert size["consistent"] is True and "c3" in size["black_wins"]
    text = render_markdown(report)
    assert ("**The empty 6x6 board** (Black to move, no pie rule): **Black wins**, first "
            "move c3: the entry c3 is a Black win") in text  # fmt: skip


@pytest.mark.skipif(not native.available(), reason="C module not built")
def test_the_console_says_what_is_not_known(tmp_path) -> None:
    """The command's summary line of a budgeted size whose empty board is not settled."""
    import subprocess
    import sys

    journal = tmp_path / "j.jsonl"
    done = subprocess.run([sys.executable, "-m", "boardproof.cli", "openings", "minefield",
                           "--sizes", "4", "--budget", "50", "--depth", "0", "--budget-from",
                           "4", "--out", str(tmp_path / "o"), "--checkpoint", str(journal)],
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    line = next(x for x in done.stdout.splitlines() if x.startswith("4x4:"))
    assert line.startswith("4x4: empty board not known yet; Black wins after: ")
    assert "(not settled: " in line and "unsolved" not in line
