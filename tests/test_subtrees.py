"""Budgeted, split and resumable opening-table runs (issue 18, session 5) on small boards.

A split entry must have the unsplit entry's winner; an interrupted run must resume from its
journal without running a finished attempt again (attempt runs are counted in a file, one
line per run, the pool's forked workers too).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from boardproof.jobs.checkpoints import JournalCheckpoint
from boardproof.jobs.executor import Executor
from boardproof.models.minefield import native
from boardproof.models.minefield.research import openings, subtrees

needs_native = pytest.mark.skipif(not native.available(), reason="C module not built")
RUNS: list[Path] = []
ATTEMPT = subtrees.attempt


def counted_attempt(arg):
    if RUNS:
        with RUNS[0].open("a") as handle:
            handle.write(json.dumps(list(arg)) + "\n")
    return ATTEMPT(arg)


def runs() -> list[str]:
    lines = RUNS[0].read_text().splitlines() if RUNS[0].exists() else []
    RUNS[0].write_text("")
    return lines


@pytest.fixture
def counting(tmp_path, monkeypatch):
    RUNS[:] = [tmp_path / "runs.txt"]
    monkeypatch.setattr(subtrees, "attempt", counted_attempt)
    yield
    RUNS.clear()


#: what a report says of the work spent: every attempt in the journal, also those that a
#: pool finished beyond what the result needed (so a resumed run of 2 workers may say more)
SPENT = ("attempts", "nodes", "cpu", "rate", "budgets")


def _facts(report: dict, spent: bool = False) -> list:
    """A report without its CPU seconds (they differ from run to run), and without the
    work spent unless ``spent``."""
    return [{**{k: v for k, v in size.items() if spent or k != "nodes"},
             "entries": [{k: ({**v, "cpu": None} if k == "spent" else v)
                          for k, v in e.items() if k != "cpu" and (spent or k != "spent")}
                         for e in size["entries"]],
             "run": {k: v for k, v in size["run"].items()
                     if k not in ("cpu", "rate") and (spent or k not in SPENT)}}
            for size in report["sizes"]]  # fmt: skip


def _winners(size: dict) -> dict[str, str | None]:
    return {e["class"]: e["winner"] for e in size["entries"]}


@pytest.fixture(scope="module")
def plain() -> dict[int, dict[str, str | None]]:
    return {n: _winners(openings.build_report([n], progress=False)["sizes"][0]) for n in (3, 4)}


@needs_native
def test_split_and_merged_3x3_entries_equal_the_unsplit_ones(plain) -> None:
    """Attempts of 8 nodes, split 2 plies deep: every entry and the empty board settle,
    some only through their replies, with the unsplit winners, each re-proved."""
    report = openings.build_report([3], budget=8, depth=2, split_from=3, progress=False)
    size = report["sizes"][0]
    assert _winners(size) == plain[3]
    split = [e for e in size["entries"] if e["method"] == "native df-pn split"]
    assert split and all(e["tasks"] > 1 for e in split)
    for e in size["entries"]:
        if e["class"] != "empty":
            assert e["check"]["proved"] is True, e
    assert size["run"]["attempts"] == size["entries"][0]["tasks"]  # the empty board's tree
    assert size["nodes"] == size["run"]["nodes"] == size["entries"][0]["nodes"]


@needs_native
def test_split_4x4_entries_equal_the_unsplit_ones_where_they_settle(plain) -> None:
    report = openings.build_report([4], budget=200, depth=2, split_from=4, progress=False)
    size = report["sizes"][0]
    found = _winners(size)
    settled = {k: v for k, v in found.items() if v is not None}
    assert len(settled) >= 3 and any(
        e["method"] == "native df-pn split" and e["winner"] for e in size["entries"])
    assert settled == {k: plain[4][k] for k in settled}
    assert size["unsolved"] == [row["point"] for row in size["openings"] if row["winner"] is None]


@needs_native
def test_merge_of_every_reply_equals_the_plain_winner_on_sampled_4x4_lines(plain) -> None:
    """A one-ply split with a budget big enough for every reply: the merged winner is the
    unsplit one, for both movers (entries: White to move; after a reply: Black)."""
    for line in ("a1", "b2", "a2", "a1 b2", "b1 c3"):
        pos = subtrees.position(4, line, "orthogonal")
        whole = subtrees.attempt((4, line, "orthogonal", 10**6, None))
        run = subtrees.SubtreeRun(4, "orthogonal", budget=10**6, depth=0, progress=False)
        replies = [str(m) for m in pos.legal_moves()]
        kids = run._group([f"{line} {r}" for r in replies], None, 0, "test")
        mover = pos.game.symbol(pos.to_move)
        merged = subtrees.merge(whole, mover, replies, [kids[f"{line} {r}"] for r in replies])
        assert merged["winner"] == whole["winner"] is not None, line


@needs_native
@pytest.mark.parametrize("workers", [1, 2])
def test_an_interrupted_run_resumes_without_running_a_finished_attempt_again(
    workers, counting, tmp_path, ctrl_c_after_saves
) -> None:
    def build(path: Path, executor: Executor) -> dict:
        return openings.build_report([4], budget=200, depth=1, split_from=4, progress=False,
                                     checkpoint=path, executor=executor)  # fmt: skip

    with Executor(1) as executor:
        reference = build(tmp_path / "whole.jsonl", executor)
    whole = runs()
    assert len(whole) == len(set(whole)) == reference["sizes"][0]["run"]["attempts"] > 20
    path = tmp_path / "run.jsonl"
    with ctrl_c_after_saves(12), pytest.raises(KeyboardInterrupt), Executor(workers) as ex:
        build(path, ex)
    first = runs()
    header = json.loads(path.read_text().splitlines()[0])["run"]
    kept = set(JournalCheckpoint(path, header).done)
    assert len(kept) == 12
    with Executor(workers) as executor:
        again = build(path, executor)
    second = runs()
    assert _facts(again) == _facts(reference)
    rules = "".join(f" +{rule}" for rule in subtrees.RULES)
    done_keys = {f"n={a[0]} [{a[1]}] budget={a[3]}{rules}" for a in map(json.loads, second)}
    assert not kept & done_keys, "a finished attempt ran again"
    assert len(second) == len(set(second))
    if workers == 1:  # one at a time, in order: every attempt ran exactly once in all
        assert sorted(first + second) == sorted(whole)
    with Executor(workers) as executor:
        build(path, executor)
    assert runs() == []  # a finished run resumes with nothing to do


def test_the_estimate_orders_and_names_every_entry() -> None:
    nodes = {3: {"empty": 131, "a1": 57, "b1": 15, "a2": 67, "b2": 14},
             4: {"empty": 34_483, "a1": 9_897, "b1": 4_756, "a2": 20_022, "b2": 4_229},
             5: {"empty": 3_741_678, "a1": 14_254_833, "b1": 2_209_953, "c1": 3_367_500,
                 "a2": 10_894_928, "b2": 1_573_976, "c2": 1_556_281, "a3": 5_140_394,
                 "b3": 1_382_658, "c3": 2_225_649}}  # fmt: skip
    reps = ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"]
    guess = subtrees.estimates(6, nodes, reps)
    assert set(guess) == {"empty", *reps}
    assert guess["a1"]["from"] == [57, 9_897, 14_254_833]
    assert guess["c3"]["from"] == [14, 4_229, 2_225_649]
    # a bigger entry on every smaller board is estimated bigger
    assert guess["a1"]["nodes"] > guess["b3"]["nodes"] > nodes[5]["b3"]


@needs_native
def test_the_command_runs_budgeted_sizes_and_keeps_their_journal(tmp_path) -> None:
    out, journal = tmp_path / "o", tmp_path / "o3.jsonl"
    command = [sys.executable, "-m", "boardproof.cli", "openings", "minefield", "--sizes", "3",
               "--budget", "30", "--depth", "2", "--budget-from", "3", "--out", str(out),
               "--checkpoint", str(journal)]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert journal.exists() and len(journal.read_text().splitlines()) > 5
    text = (out / "minefield-openings.md").read_text()
    assert "### 3 x 3: budgeted attempts, split by replies" in text
    assert "--budget 30 --depth 2 --budget-from 3" in text and "**To go on**" in text
    again = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert again.returncode == 0 and (out / "minefield-openings.md").read_text() == text


def test_depth_without_a_budget_is_refused(tmp_path) -> None:
    done = subprocess.run([sys.executable, "-m", "boardproof.cli", "openings", "minefield",
                           "--sizes", "3", "--depth", "2", "--out", str(tmp_path / "o")],
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1].endswith(
        "invalid option --depth: it needs --budget, got 2")


@needs_native
def test_stop_after_reports_what_is_settled_and_the_rest_resumes(counting, tmp_path) -> None:
    """With no time left, no attempt starts: every entry is 'not attempted'; the same run
    with time then makes every attempt once and equals a run that never stopped."""

    def build(path: Path | None, stop_after: float | None) -> dict:
        return openings.build_report([4], budget=200, depth=1, split_from=4, progress=False,
                                     checkpoint=path, stop_after=stop_after)  # fmt: skip

    reference = build(None, None)
    whole = runs()
    path = tmp_path / "run.jsonl"
    stopped = build(path, 0.0)["sizes"][0]
    assert [e["method"] for e in stopped["entries"]] == ["not attempted"] * 5
    assert runs() == [] and stopped["run"]["attempts"] == 0
    assert _facts(build(path, None)) == _facts(reference)
    assert sorted(runs()) == sorted(whole)


@needs_native
def test_a_real_ctrl_c_then_the_same_command_resumes(tmp_path) -> None:
    """SIGINT to a budgeted run: ``interrupted``, status 130, its journal kept; the same
    command then resumes from it and writes the files of an uninterrupted run."""
    import signal
    import time

    def command(out: Path, journal: Path) -> list[str]:
        return [sys.executable, "-m", "boardproof.cli", "openings", "minefield", "--sizes", "4",
                "--budget", "100", "--depth", "3", "--budget-from", "4", "--workers", "2",
                "--out", str(out), "--checkpoint", str(journal)]  # fmt: skip

    plain = subprocess.run(command(tmp_path / "plain", tmp_path / "plain.jsonl"),
                           capture_output=True, text=True, timeout=300)  # fmt: skip
    assert plain.returncode == 0, plain.stderr
    out, journal = tmp_path / "o", tmp_path / "o.jsonl"
    proc = subprocess.Popen(command(out, journal), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)  # fmt: skip
    # interrupt after a fifth of the uninterrupted run's journal: early enough that work
    # is left (a faster search once made 40 lines too late: the run had ended)
    lines = len((tmp_path / "plain.jsonl").read_text().splitlines()) // 5
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if journal.exists() and len(journal.read_text().splitlines()) >= lines:
            break
        time.sleep(0.02)
    if proc.poll() is not None:
        pytest.skip("the run ended before it could be interrupted")
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and err.splitlines()[-1] == "interrupted", err
    kept = len(journal.read_text().splitlines()) - 1
    done = subprocess.run(command(out, journal), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("from checkpoint") == kept
    resumed, whole = (json.loads((d / "minefield-openings.json").read_text())
                      for d in (out, tmp_path / "plain"))  # fmt: skip
    assert _facts(resumed) == _facts(whole)  # all but the CPU seconds of each attempt
    svg = "minefield-openings-4.svg"
    assert (out / svg).read_bytes() == (tmp_path / "plain" / svg).read_bytes()


@needs_native
def test_the_confirmation_falls_back_to_alpha_beta_with_the_attempts_rules(monkeypatch) -> None:
    """After a ``must3`` df-pn, the plain alpha-beta needs far more nodes than the df-pn
    (its table hints miss the cut moves): when its budget runs out, the same alpha-beta
    with ``must3`` re-proves the winner, and the check says so; with a budget the plain
    alpha-beta meets, there is no fallback."""
    from boardproof.models.minefield.native import prover

    pos = subtrees.position(4, "b2", "orthogonal")
    found = prover.who_wins(pos, tt_bits=16, table="quad", use=subtrees.RULES)
    monkeypatch.setattr(subtrees, "CONFIRM_FACTOR", 0)
    monkeypatch.setattr(subtrees, "CONFIRM_MIN", 500)  # plain: ~2,000 nodes, must3: ~40
    check = subtrees.confirm(pos, found.winner, 16, found.nodes)
    assert check["proved"] is True and check["rules"] == ["must3"]
    assert check["without_rules"]["proved"] is None and check["nodes"] < 500
    monkeypatch.setattr(subtrees, "CONFIRM_MIN", 1_000_000)
    check = subtrees.confirm(pos, found.winner, 16, found.nodes)
    assert check["proved"] is True and "rules" not in check


@needs_native
def test_a_size_below_settled_by_attempts_gives_the_estimates_its_own_nodes(tmp_path) -> None:
    """Two budgeted sizes in one run (issue 32, 7x7 after 6x6): the bigger one's estimates
    take the smaller one's entries from their own attempts (no unbudgeted basis search of
    it); where an attempt did not settle, the number is its budget, a lower bound, and
    every estimate made with it is marked so (the same formula given the exact numbers
    would give at least as much: it grows with each of them)."""
    journal = tmp_path / "run.jsonl"

    def build(budget: int) -> dict:
        return openings.build_report([4, 5], budget=budget, depth={4: 1, 5: 0}, split_from=4,
                                     progress=False, checkpoint=journal,
                                     stop_after={4: 600.0, 5: 1e-9})  # fmt: skip

    report = build(10**6)  # every 4x4 entry settles in its own attempt
    keys = [json.loads(line)["key"] for line in journal.read_text().splitlines()
            if line.startswith("{") and '"key"' in line]  # fmt: skip
    assert any(key.startswith("n=3 ") and "df-pn nodes" in key for key in keys)
    assert not any(key.startswith("n=4 ") and "df-pn nodes" in key for key in keys)
    four, five = report["sizes"]
    own = {e["class"]: e["nodes"] for e in four["entries"] if e["class"] != "empty"}
    assert all(e["winner"] for e in four["entries"])
    guess = {e["class"]: e["estimate"] for e in five["entries"]}
    assert guess["b2"]["from"][-1] == own["b2"] and guess["a1"]["from"][-1] == own["a1"]
    assert not any(g.get("at_least") for g in guess.values() if g)
    # the deadline of 5x5 (a per-size --stop-after) started none of its attempts
    assert five["run"]["attempts"] == 0 and five["run"]["estimate_from_attempts"]
    journal.unlink()
    bounded = build(40)["sizes"]  # too small a budget: 4x4 entries unsettled
    unsettled = [e["class"] for e in bounded[0]["entries"] if not e["winner"]]
    assert unsettled
    assert all(e["estimate"]["at_least"] for e in bounded[1]["entries"])


def test_per_size_depth_and_stop_after_are_checked(tmp_path) -> None:
    def refused(*options: str) -> str:
        done = subprocess.run([sys.executable, "-m", "boardproof.cli", "openings", "minefield",
                               "--sizes", "4-5", "--budget", "100", "--budget-from", "4",
                               *options, "--out", str(tmp_path / "o")],
                              capture_output=True, text=True, timeout=60)  # fmt: skip
        assert done.returncode == 2, done.stderr
        return done.stderr.strip().splitlines()[-1]

    assert refused("--depth", "5=0").endswith(
        "invalid option --depth: no value for 4x4 (give N or N,SIZE=M), got '5=0'")
    assert refused("--depth", "1,5=9").endswith("invalid option --depth: expected 0 to 8, "
                                                "got '1,5=9'")  # fmt: skip
    assert refused("--stop-after", "1,7=60").endswith(
        "invalid option --stop-after: size 7 is not in --sizes, got '1,7=60'")
    assert refused("--stop-after", "1,5=soon").endswith(
        "invalid option --stop-after: expected N or N,SIZE=M (seconds), got '1,5=soon'")
