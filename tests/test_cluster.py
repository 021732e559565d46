"""The executor on real Dask clusters started here on localhost, and its resilience.

A module-wide ``LocalCluster`` of 2 worker processes serves most tests (started
once: about a second); the tests that lose workers or the scheduler start their own.
"""

from __future__ import annotations

import json
import logging
import os
import re
import signal
import socket
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from errors import one_error_line as _one_error_line

from boardproof.jobs.checkpoints import Checkpoint
from boardproof.jobs.executor import (
    ALLOWED_FAILURES,
    Executor,
    SchedulerLost,
    TaskKilledWorkers,
    run_tasks,
)

distributed = pytest.importorskip("distributed")


def _local_cluster(workers: int = 2) -> Any:
    import dask

    dask.config.set({"distributed.scheduler.worker-saturation": 1.0})
    return distributed.LocalCluster(
        n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0",
        worker_dashboard_address=None, silence_logs=logging.CRITICAL,
    )  # fmt: skip


@pytest.fixture(scope="module")
def cluster() -> Any:
    with _local_cluster() as running:
        yield running


def slow_square(x: int) -> int:
    time.sleep(0.4)
    return x * x


def kill_my_worker(x: int) -> int:
    """A task that kills every worker that runs it (for x < 0)."""
    if x < 0:
        os.kill(os.getpid(), signal.SIGKILL)
    return x


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


# -- the same results whatever runs them ---------------------------------------------------


def test_opening_table_is_byte_identical_on_a_cluster(cluster, tmp_path) -> None:
    from boardproof.models.minefield.research.openings import build_report
    from boardproof.models.minefield.research.openings_report import write_report

    local = build_report([2, 3, 4], progress=False)
    remote = build_report([2, 3, 4], progress=False, scheduler=cluster.scheduler_address)
    write_report(local, tmp_path / "local")
    write_report(remote, tmp_path / "dask")
    local_files = _files(tmp_path / "local")
    assert len(local_files) == 5 and local_files == _files(tmp_path / "dask")


def _without_times(value: Any) -> Any:
    """A verify report without its measured times (the only part that may differ)."""
    if isinstance(value, dict):
        return {k: _without_times(v) for k, v in value.items()
                if k not in ("seconds", "wall_seconds", "certificate")}  # fmt: skip
    if isinstance(value, list):
        return [_without_times(v) for v in value]
    return value


def test_verify_gives_the_same_report_on_a_cluster(cluster) -> None:
    from boardproof.models.minefield.research import claims

    sizes = list(range(2, 9))
    local = claims.verify("minefield-no-draw", sizes, exhaustive_max=3, progress=False)
    remote = claims.verify("minefield-no-draw", sizes, exhaustive_max=3, progress=False,
                           scheduler=cluster.scheduler_address)  # fmt: skip
    assert remote["backend"] == f"dask {cluster.scheduler_address}"
    assert remote.pop("backend") and remote.pop("rerun_tasks") == []
    assert remote["workers"] == 2 and local["workers"] == 1
    local["workers"] = remote["workers"] = 0
    assert local["holds"] is True
    assert json.dumps(_without_times(local)) == json.dumps(_without_times(remote))


def test_puzzle_batch_is_identical_on_a_cluster(cluster) -> None:
    from boardproof.puzzles.generate import generate
    from boardproof.puzzles.store import dumps

    local = generate("minefield", 3, seed=3, progress=False).puzzles
    with Executor(scheduler=cluster.scheduler_address) as executor:
        remote = generate("minefield", 3, seed=3, progress=False, executor=executor).puzzles
    assert len(local) == 3
    assert [dumps(p) for p in local] == [dumps(p) for p in remote]


def test_local_scheduler_option_starts_and_stops_a_cluster(cli_run, tmp_path) -> None:
    """``--scheduler local:2`` on the command line: same files, the back end on the console."""
    runs = {}
    for name, extra in (("inproc", []), ("dask", ["--scheduler", "local:2"])):
        out = tmp_path / name
        status, text, _ = cli_run("openings", "minefield", "--sizes", "2-3", "--out", str(out),
                                  *extra)  # fmt: skip
        assert status == 0, text
        files = _files(out)
        runs[name] = (text, {k: v.replace(str(out).encode(), b"OUT") for k, v in files.items()})
    assert "dask local:2, 2 workers" in runs["dask"][0]
    first, second = runs["inproc"][1], runs["dask"][1]
    assert first.keys() == second.keys()
    for name in first:  # only the recorded command line names the back end
        a = first[name].replace(b"--workers 1", b"BACKEND")
        assert a == second[name].replace(b"--scheduler local:2", b"BACKEND"), name


# -- resilience --------------------------------------------------------------------------


def test_a_killed_worker_is_survived_and_its_task_rerun(tmp_path, capsys) -> None:
    with _local_cluster() as own, Executor(scheduler=own.scheduler_address) as executor:
        client = executor._connect()
        pids = list(client.run(os.getpid).values())

        def kill_one() -> None:
            time.sleep(0.6)  # both workers are in the middle of a task
            os.kill(pids[0], signal.SIGKILL)

        killer = threading.Thread(target=kill_one)
        killer.start()
        tasks = [(f"t{i}", i) for i in range(8)]
        result = executor.run(slow_square, tasks, checkpoint=tmp_path / "cp.json",
                              description="squares")  # fmt: skip
        killer.join()
        err = capsys.readouterr().err  # the progress: done, running, re-run
        # a loaded machine may have queued a second task on the killed worker: 1 or 2 re-runs
        assert "[8/8] squares" in err and "worker lost: t" in err
        assert re.search(r"re-run [12]\)", err), err
        assert result == {f"t{i}": i * i for i in range(8)}
        info = executor.last
        assert info is not None and info.reruns, "the killed worker's task was not listed"
        assert info.computed == 8 and "re-run: t" in info.summary()
    assert Checkpoint(tmp_path / "cp.json").done == result  # each result once


def _processing(dask_scheduler: Any) -> dict[str, list[str]]:
    """The tasks each worker is running (or given), for ``run_on_scheduler``."""
    return {address: sorted(str(task.key) for task in worker.processing)
            for address, worker in dask_scheduler.workers.items()}  # fmt: skip


@pytest.mark.long
def test_a_verify_sweep_survives_a_lost_worker_and_a_new_one(tmp_path, capsys) -> None:
    """A cluster of 3 workers: one is killed (by its pid) in the middle of a task and a
    ``dask worker`` process joins the running scheduler; the report is the same as the
    in-process one and the re-run task is listed."""
    import subprocess
    import sys

    from boardproof.models.minefield.research import claims

    sizes = list(range(2, 11))
    local = claims.verify("minefield-no-draw", sizes, exhaustive_max=0, progress=False)
    worker = Path(sys.executable).with_name("dask")
    with _local_cluster(3) as own, Executor(scheduler=own.scheduler_address) as executor:
        client = executor._connect()
        pids = client.run(os.getpid)
        joined: list[subprocess.Popen[bytes]] = []
        killed: list[str] = []
        finished = threading.Event()

        def kill_one_and_add_one() -> None:
            # the first worker seen busy with one task for 0.3 s (a fill step of n >= 8), as
            # the scheduler sees it (a worker may not answer while the SAT solver holds the GIL)
            busy: dict[str, Any] = {}
            while not finished.is_set():
                now = client.run_on_scheduler(_processing)
                victim = next((a for a, keys in now.items() if keys and busy.get(a) == keys), None)
                if victim is not None:
                    os.kill(pids[victim], signal.SIGKILL)
                    killed.append(f"{victim} {pids[victim]} {now[victim]}")
                    joined.append(subprocess.Popen(
                        [str(worker), own.scheduler_address, "--nthreads", "1",
                         "--nworkers", "1", "--no-dashboard"],
                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                    ))  # fmt: skip
                    return
                busy = now
                time.sleep(0.3)

        helper = threading.Thread(target=kill_one_and_add_one)
        helper.start()
        try:
            remote = claims.verify("minefield-no-draw", sizes, exhaustive_max=0,
                                   executor=executor)  # fmt: skip
            finished.set()
            helper.join()
            print(f"killed {killed[0] if killed else None}", file=sys.stderr)
            assert joined, "no worker was ever seen busy"
            deadline = time.monotonic() + 30  # the new worker registers (if not yet)
            while len(client.scheduler_info()["workers"]) < 3 and time.monotonic() < deadline:
                time.sleep(0.2)
            assert len(client.scheduler_info()["workers"]) >= 3  # (a nanny restarts the lost one)
        finally:
            finished.set()
            for process in joined:
                process.terminate()
                process.wait(timeout=30)
    err = capsys.readouterr().err
    assert "worker lost: n=" in err and remote["rerun_tasks"], (killed, pids, err)
    assert remote.pop("backend") and remote.pop("rerun_tasks")
    local["workers"] = remote["workers"] = 0
    assert json.dumps(_without_times(local)) == json.dumps(_without_times(remote))


def test_a_task_that_kills_every_worker_is_named(cluster) -> None:
    tasks = [("good-1", 1), ("poison", -1), ("good-2", 2)]
    with pytest.raises(TaskKilledWorkers, match="'poison' killed") as caught:
        run_tasks(kill_my_worker, tasks, scheduler=cluster.scheduler_address, progress=False)
    assert caught.value.keys == ["poison"]
    # the pool does the same: the pool is replaced, the culprit given up after the strikes
    executor = Executor(workers=2)
    with executor, pytest.raises(TaskKilledWorkers, match="'poison'"):
        executor.run(kill_my_worker, tasks, progress=False)
    assert executor.last is not None and executor.last.reruns["poison"] == ALLOWED_FAILURES


def test_a_lost_scheduler_is_one_error_and_the_run_resumes(tmp_path) -> None:
    path = tmp_path / "cp.json"
    tasks = [(f"t{i}", i) for i in range(12)]
    own = _local_cluster()
    address = own.scheduler_address

    def stop() -> None:
        time.sleep(1.5)
        own.close()

    stopper = threading.Thread(target=stop)
    stopper.start()
    with pytest.raises(SchedulerLost, match="lost the Dask scheduler"):
        run_tasks(slow_square, tasks, scheduler=address, checkpoint=path, progress=False)
    stopper.join()
    kept = Checkpoint(path).done
    assert 0 < len(kept) < len(tasks)
    executor = Executor(workers=2)
    with executor:
        result = executor.run(slow_square, tasks, checkpoint=path, progress=False)
    assert result == {f"t{i}": i * i for i in range(12)}
    assert executor.last is not None and executor.last.resumed == len(kept)
    assert executor.last.computed == len(tasks) - len(kept)


def test_interrupt_and_resume_reuse_finished_work(cluster, tmp_path) -> None:
    path = tmp_path / "cp.json"
    tasks = [(f"t{i}", i) for i in range(6)]
    seen: list[str] = []

    def ctrl_c_after_two(key: str, _: Any) -> None:
        seen.append(key)
        if len(seen) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_tasks(slow_square, tasks, scheduler=cluster.scheduler_address, checkpoint=path,
                  progress=False, on_result=ctrl_c_after_two)  # fmt: skip
    assert sorted(Checkpoint(path).done) == sorted(seen)
    with Executor(scheduler=cluster.scheduler_address) as executor:
        result = executor.run(slow_square, tasks, checkpoint=path, progress=False)
    assert result == {f"t{i}": i * i for i in range(6)}
    assert executor.last is not None
    assert (executor.last.resumed, executor.last.computed) == (2, 4)


def test_generate_and_site_resume_on_a_cluster(cluster, tmp_path, ctrl_c_after_saves) -> None:
    """Interrupted after 2 finished tasks, then resumed on the cluster: the same puzzles and
    site files as an uninterrupted in-process run, the 2 kept tasks not run again."""
    from test_resume import site_tree

    from boardproof.commands.site import build_site
    from boardproof.jobs.checkpoints import JournalCheckpoint
    from boardproof.puzzles import daily
    from boardproof.puzzles.generate import checkpoint_run, generate, settings_for
    from boardproof.puzzles.store import dumps

    plain = [dumps(p) for p in generate("minefield", 4, seed=1, progress=False).puzzles]
    path = tmp_path / "gen.checkpoint.jsonl"
    run = checkpoint_run("minefield", 1, settings_for("minefield"))
    with Executor(scheduler=cluster.scheduler_address) as executor:
        with ctrl_c_after_saves(2), pytest.raises(KeyboardInterrupt):
            generate("minefield", 4, seed=1, progress=False, executor=executor, checkpoint=path)
        kept = set(JournalCheckpoint(path, run).done)
        again = generate("minefield", 4, seed=1, progress=False, executor=executor,
                         checkpoint=path)  # fmt: skip
        info = executor.last
        assert [dumps(p) for p in again.puzzles] == plain and again.tasks == 4
        lines = path.read_text().splitlines()[1:]  # each finished task saved once
        done = JournalCheckpoint(path, run).done
        assert len(kept) == 2 and info is not None and info.resumed == 2
        assert len(lines) == len(done) and info.computed == len(done) - 2

        site, cp = tmp_path / "site", tmp_path / "site.checkpoint.jsonl"
        last = daily.parse_date("2026-11-29")
        with ctrl_c_after_saves(2), pytest.raises(KeyboardInterrupt):
            build_site(site, 4, last, ["minefield"], executor=executor, checkpoint=cp)
        build_site(site, 4, last, ["minefield"], executor=executor, checkpoint=cp)
        info = executor.last
        assert info is not None and (info.resumed, info.computed) == (2, 2)
    assert _files(site) and site_tree(tmp_path / "plain") == {
        str(p.relative_to(site)): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()
    }


# -- one-line errors -----------------------------------------------------------------------


def test_a_corrupted_checkpoint_is_one_line(cli_run, tmp_path) -> None:
    bad = tmp_path / "cp.json"
    for text in ('{"n=2 empty": {"winner": ', "[1, 2]", "\udcff"):
        bad.write_text(text, errors="surrogateescape")
        status, _, err = cli_run("openings", "minefield", "--sizes", "2", "--checkpoint",
                                 str(bad), "--out", str(tmp_path / "out"))  # fmt: skip
        assert status == 2 and "checkpoint" in _one_error_line(err)
    assert not (tmp_path / "out").exists()


def test_a_silent_address_is_one_line_within_the_timeout(cli_run, monkeypatch) -> None:
    monkeypatch.setenv("BOARDPROOF_CONNECT_TIMEOUT", "2")
    with socket.socket() as silent:  # accepts connections, never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        address = f"tcp://127.0.0.1:{silent.getsockname()[1]}"
        began = time.monotonic()
        status, _, err = cli_run("verify", "minefield-no-draw", "--sizes", "2-3",
                                 "--scheduler", address, "--quiet")  # fmt: skip
        elapsed = time.monotonic() - began
    line = _one_error_line(err)
    assert status == 2 and address in line and "within 2 s" in line
    assert elapsed < 10


def test_bad_scheduler_options_are_one_line(cli_run) -> None:
    for args in (["--scheduler", "local:0"], ["--scheduler", "nowhere"],
                 ["--scheduler", "local:2", "--workers", "2"]):  # fmt: skip
        status, _, err = cli_run("puzzle", "generate", "minefield", "--count", "1", *args)
        assert status == 2 and "--scheduler" in _one_error_line(err)
