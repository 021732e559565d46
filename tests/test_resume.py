"""Checkpoints of ``puzzle generate`` and ``site``: interrupt, resume, nothing run twice.

An interruption is simulated by a KeyboardInterrupt raised in the parent process right
after the n-th finished task is saved (the checkpoint then holds exactly n tasks), on the
in-process, pool and Dask (``local:2``) back ends; the command line gets a real SIGINT.
Task runs are counted in a file, one line per run (the pool's forked workers too).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from boardproof.jobs.checkpoints import JournalCheckpoint
from boardproof.jobs.executor import Executor
from boardproof.models.base import InvalidOptionError
from boardproof.puzzles import daily
from boardproof.puzzles import generate as gen
from boardproof.puzzles.store import dumps

#: the file that counts task runs (set by the fixture, inherited by forked workers)
RUNS: list[Path] = []
#: the task functions counted
GENERATOR_TASK = gen._run_task_args
DAILY_TASK = daily.daily_task


def _count(line: str) -> None:
    if RUNS:  # not on a Dask worker (a process of its own, which imports this module)
        with RUNS[0].open("a") as handle:
            handle.write(line + "\n")


def counted_generator_task(args: dict[str, Any]) -> dict[str, Any]:
    _count(f"{args['index']:06d}")
    return GENERATOR_TASK(args)


def counted_daily_task(arg: tuple[str, str]) -> dict[str, Any]:
    _count(f"{arg[0]} {arg[1]}")
    return DAILY_TASK(arg)


def runs(days: bool = False) -> list[str]:
    """The task runs counted so far (and start counting again): generator tasks, or
    (``days``) daily-puzzle tasks."""
    lines = RUNS[0].read_text().splitlines() if RUNS[0].exists() else []
    RUNS[0].write_text("")
    return [line for line in lines if (" " in line) == days]


@pytest.fixture
def counting(tmp_path, monkeypatch):
    RUNS[:] = [tmp_path / "runs.txt"]
    monkeypatch.setattr(gen, "_run_task_args", counted_generator_task)
    monkeypatch.setattr(daily, "daily_task", counted_daily_task)
    yield
    RUNS.clear()


def _uninterrupted() -> list[str]:
    return [dumps(p) for p in gen.generate("minefield", 4, seed=1, progress=False).puzzles]


@pytest.fixture(scope="module")
def reference() -> list[str]:
    return _uninterrupted()


@pytest.mark.parametrize("backend", [{"workers": 1}, {"workers": 2}])
def test_generate_resumes_without_running_a_finished_task_again(
    backend, reference, counting, tmp_path, ctrl_c_after_saves
) -> None:
    path = tmp_path / "gen.checkpoint.jsonl"
    with ctrl_c_after_saves(2), pytest.raises(KeyboardInterrupt), Executor(**backend) as ex:
        gen.generate("minefield", 4, seed=1, progress=False, executor=ex, checkpoint=path)
    first = runs()
    kept = set(JournalCheckpoint(path, _run_of(path)).done)
    assert len(kept) == 2 and kept <= set(first)
    with Executor(**backend) as executor:
        again = gen.generate("minefield", 4, seed=1, progress=False, executor=executor,
                             checkpoint=path)  # fmt: skip
        info = executor.last
    second = runs()
    assert [dumps(p) for p in again.puzzles] == reference
    assert again.tasks == 4 and info is not None and info.resumed == 2
    assert not kept & set(second), "a finished task ran again"
    assert len(second) == len(set(second)) and info.computed >= 4 - 2
    if backend["workers"] == 1:  # in order, one at a time: every task ran exactly once
        assert sorted(first + second) == [f"{k:06d}" for k in range(4)]


def _run_of(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text().splitlines()[0])["run"]


def test_a_run_for_more_puzzles_reuses_a_run_for_fewer(counting, tmp_path) -> None:
    path = tmp_path / "gen.checkpoint.jsonl"
    two = gen.generate("minefield", 2, seed=1, progress=False, checkpoint=path)
    assert runs() == ["000000", "000001"]
    four = gen.generate("minefield", 4, seed=1, progress=False, checkpoint=path)
    assert runs() == ["000002", "000003"] and four.puzzles[:2] == two.puzzles


def site_tree(folder: Path) -> dict[str, bytes]:
    """Every file of a site written by ``build_site`` (4 Minefield days to 2026-11-29)."""
    from boardproof.commands.site import build_site

    build_site(folder, 4, daily.parse_date("2026-11-29"), ["minefield"])
    return _tree(folder)


def test_site_resumes_on_the_in_process_and_pool_back_ends(
    counting, tmp_path, ctrl_c_after_saves
) -> None:
    from boardproof.commands.site import build_site

    last = daily.parse_date("2026-11-29")
    plain = site_tree(tmp_path / "plain")
    assert len(runs(days=True)) == 4
    for number, backend in enumerate([{"workers": 1}, {"workers": 2}]):
        out, path = tmp_path / f"site{number}", tmp_path / f"site{number}.checkpoint.jsonl"
        with Executor(**backend) as executor:
            with ctrl_c_after_saves(2), pytest.raises(KeyboardInterrupt):
                build_site(out, 4, last, ["minefield"], executor=executor, checkpoint=path)
            kept = set(JournalCheckpoint(path, daily.CHECKPOINT_RUN).done)
            runs()
            build_site(out, 4, last, ["minefield"], executor=executor, checkpoint=path)
            info = executor.last
        assert _tree(out) == plain, backend
        assert info is not None and (info.resumed, info.computed) == (2, 2), backend
        again = runs(days=True)
        assert len(again) == 2 and not kept & set(again), backend


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}  # fmt: skip


def test_damaged_or_foreign_checkpoints_are_one_line_errors(cli_run, tmp_path) -> None:
    path = tmp_path / "cp.jsonl"
    gen.generate("minefield", 1, seed=1, progress=False, checkpoint=path)
    status, _, err = cli_run("puzzle", "generate", "minefield", "--count", "1", "--seed", "2",
                             "--checkpoint", str(path))  # fmt: skip
    assert status == 2 and err.count("\n") == 1 and "written by another run (seed 1, not 2" in err
    cases = {
        "garbage\n": "line 1 is not JSON",
        '{"a": 1}\n': "no header line",
        path.read_text().splitlines()[0] + '\n{"key": "000000", "result": 7}\n':
            "task 000000 is not a puzzle generator result",
        path.read_text().splitlines()[0] + "\n[1]\n": "line 2 is not a task result",
    }  # fmt: skip
    for text, message in cases.items():
        path.write_text(text)
        status, _, err = cli_run("puzzle", "generate", "minefield", "--count", "1", "--seed",
                                 "1", "--checkpoint", str(path))  # fmt: skip
        assert status == 2 and err.count("\n") == 1 and message in err, (text, err)
    out = tmp_path / "site"
    out.mkdir()
    (out / "site.checkpoint.jsonl").write_text(path.read_text().splitlines()[0] + "\n")
    status, _, err = cli_run("site", "--out", str(out), "--days", "1", "--game", "minefield")
    assert status == 2 and err.count("\n") == 1 and "written by another run" in err
    status, _, err = cli_run("site", "--out", str(out), "--days", "1", "--game", "minefield",
                             "--date", "2026-11-29", "--fresh", "--quiet")  # fmt: skip
    assert status == 0 and not (out / "site.checkpoint.jsonl").exists(), err


def test_a_line_cut_short_by_an_interruption_is_dropped(tmp_path) -> None:
    path = tmp_path / "cp.jsonl"
    store = JournalCheckpoint(path, {"run": 1})
    store.save("a", 1)
    with path.open("a") as handle:
        handle.write('{"key": "b", "res')  # killed while writing
    again = JournalCheckpoint(path, {"run": 1})
    assert again.done == {"a": 1}
    again.save("b", 2)
    assert JournalCheckpoint(path, {"run": 1}).done == {"a": 1, "b": 2}


def test_ctrl_c_then_the_same_command_resumes(tmp_path) -> None:
    """A real SIGINT to ``puzzle generate --out``: ``interrupted``, status 130, then the same
    command resumes from the default checkpoint and writes the uninterrupted file."""
    from boardproof.puzzles.store import write_puzzles

    command = [sys.executable, "-m", "boardproof.cli", "puzzle", "generate", "minefield",
               "--count", "5", "--seed", "1", "--workers", "2"]  # fmt: skip
    plain = tmp_path / "plain.jsonl"
    write_puzzles(plain, gen.generate("minefield", 5, seed=1, progress=False).puzzles)
    out = tmp_path / "p.jsonl"
    checkpoint = tmp_path / "p.checkpoint.jsonl"
    proc = subprocess.Popen([*command, "--out", str(out)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)  # fmt: skip
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        if checkpoint.exists() and len(checkpoint.read_text().splitlines()) >= 3:
            break  # the header and two finished tasks
        time.sleep(0.02)
    if proc.poll() is not None:
        pytest.skip("the run ended before it could be interrupted")
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130 and err.splitlines()[-1] == "interrupted", err
    kept = len(checkpoint.read_text().splitlines()) - 1
    assert kept >= 2
    done = subprocess.run([*command, "--out", str(out)], capture_output=True, text=True,
                          timeout=120, env={**os.environ})  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("from checkpoint") == kept
    assert out.read_bytes() == plain.read_bytes() and not checkpoint.exists()


def test_bad_checkpoint_result_of_a_day_is_refused(tmp_path) -> None:
    path = tmp_path / "days.jsonl"
    store = JournalCheckpoint(path, daily.CHECKPOINT_RUN)
    store.save("minefield 2026-11-29", {"id": "minefield-2026-11-28"})
    with pytest.raises(InvalidOptionError, match="not that day's puzzle"):
        daily.daily_puzzles(["minefield"], ["2026-11-29"], checkpoint=path)
