"""Budgeted runs that go on with another budget or other rules, and --stop-after (issue 18,
session 6): every attempt of the journal counts; a settled one is reused whatever its
budget, an unsettled one stands only for the same rules and at least the same budget; no
attempt starts that would not end by the deadline, and the running ones finish.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from attempt_counting import ATTEMPT, CALLS, counted

from boardproof.jobs.executor import Executor, run_tasks
from boardproof.models.base import InvalidOptionError
from boardproof.models.minefield import native
from boardproof.models.minefield.research import openings, subtrees
from boardproof.models.minefield.research.openings_report import render_markdown

needs_native = pytest.mark.skipif(not native.available(), reason="C module not built")


def build(path: Path, n: int, budget: int, depth: int = 1, **options) -> dict:
    return openings.build_report([n], budget=budget, depth=depth, split_from=n,
                                 checkpoint=path, progress=False, **options)  # fmt: skip


def winners(report: dict) -> dict[str, str | None]:
    return {e["class"]: e["winner"] for e in report["sizes"][0]["entries"]}


@pytest.fixture(scope="module")
def plain4() -> dict[str, str | None]:
    return winners(openings.build_report([4], progress=False))


@needs_native
def test_a_bigger_budget_reuses_every_settled_attempt_and_retries_the_rest(
    counting, tmp_path, plain4
) -> None:
    path = tmp_path / "j.jsonl"
    small = build(path, 4, 200)
    first = list(counting)
    counting.clear()
    journal = subtrees.SubtreeRun(4, "orthogonal", budget=200, depth=1, progress=False,
                                  checkpoint=openings_store(path))  # fmt: skip
    unsettled_roots = {line for line in ["", "a1", "b1", "a2", "b2"]
                       if (hit := journal.known(line)) and hit[1]["winner"] is None}  # fmt: skip
    assert unsettled_roots and len(unsettled_roots) < 5
    big = build(path, 4, 10**6)
    # no settled attempt runs again; every unsettled root gets one attempt of the new budget
    assert {c[1] for c in counting} == unsettled_roots and all(c[3] == 10**6 for c in counting)
    assert {k: v for k, v in winners(big).items() if k != "empty"} == {
        k: v for k, v in plain4.items() if k != "empty"}
    size = big["sizes"][0]
    assert size["run"]["attempts"] == len(first) + len(counting)  # both runs' attempts
    assert {b["budget"] for b in size["run"]["budgets"]} == {200, 10**6}
    assert all(winners(big)[k] == v for k, v in winners(small).items() if v is not None)


@needs_native
def test_an_unsettled_attempt_of_a_bigger_budget_stands_for_a_smaller_one(
    counting, tmp_path
) -> None:
    path = tmp_path / "j.jsonl"
    big = build(path, 4, 200)
    assert any(e["winner"] is None for e in big["sizes"][0]["entries"])
    unsettled = [c for c in counting if not ATTEMPT(c)["winner"]]
    assert unsettled  # attempts of 200 nodes that did not settle, so 100 would not either
    counting.clear()
    small = build(path, 4, 100)
    assert counting == [], "an attempt of 100 nodes ran where one of 200 did not settle"
    assert winners(small) == winners(big)


@needs_native
def test_other_rules_do_not_stand_for_each_other_and_old_keys_are_read(
    counting, tmp_path, monkeypatch
) -> None:
    """A journal of plain df-pn attempts (keys without rules, the format before session 5's
    must3): its settled attempts are reused, its unsettled ones are retried with must3."""
    path = tmp_path / "j.jsonl"
    monkeypatch.setattr(subtrees, "RULES", ())
    build(path, 4, 200)
    plain_keys = [json.loads(line)["key"] for line in path.read_text().splitlines()[1:]]
    assert plain_keys and all("+" not in key for key in plain_keys)
    counting.clear()
    monkeypatch.setattr(subtrees, "RULES", ("must3",))
    again = build(path, 4, 200)
    store = openings_store(path)
    old = {subtrees.parse_key(k)[1]: v for k, v in store.done.items() if k in plain_keys}
    retried = {c[1] for c in counting}
    assert retried and all(old.get(line, {"winner": None})["winner"] is None for line in retried)
    assert not {line for line, v in old.items() if v["winner"]} & retried
    rules = {tuple(b["rules"]) for b in again["sizes"][0]["run"]["budgets"]}
    assert rules == {(), ("must3",)}


def test_settled_attempts_that_disagree_are_refused_in_one_line(tmp_path) -> None:
    run = subtrees.SubtreeRun(3, "orthogonal", budget=8, depth=1, progress=False)
    run._index("n=3 [a1] budget=8", {"winner": "w", "nodes": 3})
    run._index("n=3 [a1] budget=9 +must3", {"winner": "b", "nodes": 3})
    with pytest.raises(InvalidOptionError) as error:
        run.known("a1")
    assert "\n" not in str(error.value) and "disagree" in str(error.value)


def openings_store(path: Path):
    from boardproof.jobs.checkpoints import JournalCheckpoint

    return JournalCheckpoint(path, json.loads(path.read_text().splitlines()[0])["run"])


# -- the deadline ----------------------------------------------------------------------------


def slow(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


@pytest.mark.parametrize("workers", [1, 2, "dask"])
def test_admit_holds_back_later_tasks_and_lets_running_ones_finish(workers) -> None:
    asked: list[str] = []

    def admit(key: str) -> bool:
        asked.append(key)
        return len(asked) <= 2

    if workers == "dask":
        pytest.importorskip("distributed")
    backend = Executor(scheduler="local:2") if workers == "dask" else Executor(workers)
    with backend as executor:
        got = run_tasks(slow, [(str(k), 0.2) for k in range(6)], executor=executor,
                        progress=False, admit=admit)  # fmt: skip
    assert got == {"0": 0.2, "1": 0.2}  # both started, both finished (none cut)
    assert asked == ["0", "1", "2"]  # the third was held back, and the rest with it


@needs_native
def test_an_attempt_running_at_the_deadline_finishes_and_counts(counting, tmp_path) -> None:
    """The deadline passes while an entry's attempt runs: it ends, is journaled and shown
    (session 5 lost it from the report); no attempt starts after it."""
    path = tmp_path / "j.jsonl"
    run = subtrees.SubtreeRun(4, "orthogonal", budget=200, depth=1, progress=False,
                              checkpoint=openings_store_new(path),
                              deadline=time.monotonic() + 3600)  # fmt: skip

    def expire_after_third(arg):
        out = counted(arg)
        if len(CALLS) == 3:
            run.deadline = time.monotonic() - 1  # the deadline passes during this attempt
        return out

    subtrees.attempt = expire_after_third  # restored by the fixture
    entries = run.settle_entries(["a1", "b1", "a2", "b2"])
    assert [c[1] for c in CALLS] == ["", "a1", "b1"]
    assert entries["b1"]["method"] != "not attempted" and entries["b1"]["nodes"] > 0
    assert entries["a2"]["method"] == entries["b2"]["method"] == "not attempted"
    assert run.spent("")["attempts"] == 3


def openings_store_new(path: Path):
    from boardproof.jobs.checkpoints import JournalCheckpoint

    return JournalCheckpoint(path, {"openings": "minefield", "test": True})


def test_no_attempt_starts_that_would_not_end_by_the_deadline(tmp_path) -> None:
    """At the journal's rate an attempt takes 100 s: with 50 s left none starts (a note
    says why); with 150 s left one does, until attempts of the same budget took longer."""
    notes: list[str] = []
    run = subtrees.SubtreeRun(4, "orthogonal", budget=1000, depth=1, progress=False,
                              deadline=time.monotonic() + 50, notes=notes.append)  # fmt: skip
    run._index("n=4 [a1] budget=2000 +must3", {"winner": None, "nodes": 2000, "seconds": 200.0})
    assert run.rate() == 10.0 and run.expected_seconds()[0] == 100.0  # 1000 nodes at 10/s
    assert not run.admit("n=4 [b1] budget=1000 +must3")
    assert len(notes) == 1 and "one takes ~100 s (1,000 nodes at 10 nodes/s)" in notes[0]
    run.deadline = time.monotonic() + 150
    assert run.admit("n=4 [b1] budget=1000 +must3")
    # attempts of the same budget: their mean time (a settled one's confirmation included)
    run._index("n=4 [b1] budget=1000 +must3", {"winner": "w", "nodes": 10, "seconds": 160.0})
    run._index("n=4 [b2] budget=1000 +must3", {"winner": None, "nodes": 1000, "seconds": 180.0})
    assert run.expected_seconds() == (170.0, "the mean of 2 such attempts")
    assert not run.admit("n=4 [a2] budget=1000 +must3")
    for k, line in enumerate(["a2", "c1", "c2", "d2"]):  # faster ones later: the last 4 count
        run._index(f"n=4 [{line}] budget=1000 +must3", {"winner": None, "nodes": 1000,
                                                       "seconds": 20.0 + k})  # fmt: skip
    assert run.expected_seconds() == (21.5, "the mean of 4 such attempts")
    assert run.admit("n=4 [a3] budget=1000 +must3")
    unknown = subtrees.SubtreeRun(4, "orthogonal", budget=1000, depth=1, progress=False,
                                  deadline=time.monotonic() + 1)  # fmt: skip
    assert unknown.rate() is None and unknown.admit("k")  # no rate: only the deadline


# -- the estimates ---------------------------------------------------------------------------


@needs_native
def test_the_estimates_use_the_attempts_rules_and_say_so(tmp_path) -> None:
    """A 5x5 run of attempts (none started: no time) estimates each entry from its df-pn
    nodes with must3 on 2x2..4x4, measured in the run (journaled), not the plain ones."""
    path = tmp_path / "j.jsonl"
    report = build(path, 5, 1000, stop_after=0.0)
    size = report["sizes"][0]
    assert size["run"]["rules"] == list(subtrees.RULES) == ["must3"]
    a1 = next(e for e in size["entries"] if e["class"] == "a1")["estimate"]
    history = [subtrees.basis_nodes((k, "a1", "orthogonal", ("must3",)))["nodes"]
               for k in (2, 3, 4)]  # fmt: skip
    plain = [subtrees.basis_nodes((k, "a1", "orthogonal", ()))["nodes"] for k in (2, 3, 4)]
    assert a1["from"] == history != plain
    journal = path.read_text()
    assert "n=4 a1 df-pn nodes table=quad +must3" in journal
    text = render_markdown(report)
    assert "| entry | estimated nodes (+must3) | from 2x2..4x4 |" in text
    assert "with the attempts' rules (+must3)" in text


@needs_native
def test_an_attempt_after_a_gap_in_the_journal_counts(tmp_path) -> None:
    """The journal holds b2's attempt but none of the lines before it (a pool finished b2
    after the deadline while an earlier attempt was stopped): with no time left, b2 is
    shown as attempted (session 5's report said 'not attempted', 0 nodes)."""
    whole = tmp_path / "whole.jsonl"
    build(whole, 4, 10**6)
    head, *lines = whole.read_text().splitlines()
    kept = [line for line in lines if json.loads(line)["key"] == "n=4 [b2] budget=1000000 +must3"]
    gap = tmp_path / "gap.jsonl"
    gap.write_text("\n".join([head, *kept]) + "\n")
    size = build(gap, 4, 10**6, stop_after=0.0)["sizes"][0]
    entry = {e["class"]: e for e in size["entries"]}
    assert entry["b2"]["winner"] == "w" and entry["b2"]["nodes"] > 0
    assert entry["a1"]["method"] == "not attempted"
    assert size["run"]["attempts"] == 1 and entry["b2"]["spent"]["attempts"] == 1


@needs_native
def test_replies_settled_by_an_earlier_run_are_shown_without_a_new_root(tmp_path) -> None:
    """Attempts of 200 nodes split some entries; a run of 10**6 with no time left has no
    root attempt of its own for them, and still shows their settled replies."""
    path = tmp_path / "j.jsonl"
    first = build(path, 4, 200)["sizes"][0]
    split = {e["class"]: e["settled_replies"] for e in first["entries"]
             if e["class"] != "empty" and e.get("replies")}  # fmt: skip
    assert split and any(split.values())
    report = build(path, 4, 10**6, stop_after=0.0)
    again = {e["class"]: e for e in report["sizes"][0]["entries"]}
    for label, settled in split.items():
        assert again[label]["spent"]["settled_replies"] >= settled
    text = render_markdown(report)
    assert " (journal) |" in text


@needs_native
def test_a_reused_settled_attempt_gets_its_certificate_with_its_own_budget(tmp_path) -> None:
    """Entries settled by attempts of 10**6 nodes, then a run of 40 nodes from the same
    journal: it reuses them, and their certificates are made with the budget of the
    attempt that settled them (40 nodes would not find the proofs)."""
    from boardproof.models.minefield.proofs.certificate import check_certificate, load_certificate
    from boardproof.models.minefield.research.opening_certificates import write_opening_certificates

    path = tmp_path / "j.jsonl"
    build(path, 4, 10**6, depth=0)
    report = build(path, 4, 40, depth=0)
    single = {e["class"]: e for e in report["sizes"][0]["entries"]
              if e["winner"] and e["method"] == "native df-pn"}  # fmt: skip
    assert single and all(e["budget"] == 10**6 and e["nodes"] > 40 for e in single.values())
    written = write_opening_certificates(report, str(tmp_path / "certs"))
    assert len(written) == len(single)
    for entry in single.values():
        cert = load_certificate(str(tmp_path / "certs" / f"minefield-4x4-{entry['class']}.cert.xz"))
        assert check_certificate(cert).winner == entry["winner"]
