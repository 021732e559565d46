"""The executor: in-process, process pool, checkpoint and resume."""

from __future__ import annotations

import json
import sys

import pytest

from boardproof.jobs.checkpoints import Checkpoint
from boardproof.jobs.executor import run_tasks
from boardproof.models.base import InvalidOptionError


def square(x: int) -> int:
    return x * x


def test_in_process_and_pool_agree() -> None:
    tasks = [(f"t{i}", i) for i in range(8)]
    local = run_tasks(square, tasks, progress=False)
    pooled = run_tasks(square, tasks, workers=2, progress=False)
    assert local == pooled == {f"t{i}": i * i for i in range(8)}
    assert list(pooled) == [key for key, _ in tasks]


def test_checkpoint_resumes_without_redoing(tmp_path) -> None:
    path = tmp_path / "cp.json"
    run_tasks(square, [("a", 2)], checkpoint=path, progress=False)
    calls: list[int] = []

    def recording(x: int) -> int:
        calls.append(x)
        return x * x

    result = run_tasks(recording, [("a", 2), ("b", 3)], checkpoint=path, progress=False)
    assert result == {"a": 4, "b": 9}
    assert calls == [3]
    assert json.loads(path.read_text()) == {"a": 4, "b": 9}


def test_interrupted_run_keeps_finished_work(tmp_path) -> None:
    path = tmp_path / "cp.json"

    def flaky(x: int) -> int:
        if x == 2:
            raise KeyboardInterrupt
        return x

    with pytest.raises(KeyboardInterrupt):
        run_tasks(flaky, [("one", 1), ("two", 2)], checkpoint=path, progress=False)
    assert Checkpoint(path).done == {"one": 1}


def test_bad_options_are_one_line_errors(tmp_path) -> None:
    with pytest.raises(InvalidOptionError, match="^invalid option workers: "):
        run_tasks(square, [("a", 1)], workers=0, progress=False)
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(InvalidOptionError, match="checkpoint"):
        Checkpoint(bad)


def test_without_dask_the_option_names_the_extra(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "dask.distributed", None)
    with pytest.raises(InvalidOptionError, match=r"pip install 'boardproof\[cluster\]'"):
        run_tasks(abs, [("a", 1)], scheduler="local:1", progress=False)


def test_a_stopped_pool_leaves_no_manager_thread_behind() -> None:
    """After an interrupt the pool is stopped; its manager thread is joined, so that the
    interpreter's exit hook never writes to the wake-up pipe it is closing (a traceback
    after `interrupted`: benchmarks/openings_interrupt.py, benchmarks/RESULTS.md)."""
    from boardproof.jobs.executor import Executor

    executor = Executor(2)
    try:
        assert executor.run(abs, [("a", -1), ("b", -2)], progress=False) == {"a": 1, "b": 2}
        pool = executor._pool
        assert pool is not None
        manager = pool._executor_manager_thread
        assert manager is not None and manager.is_alive()
        executor._stop_pool()
        assert not manager.is_alive()
    finally:
        executor.close()


def test_a_pool_interrupted_as_it_starts_its_manager_thread_stops_cleanly() -> None:
    """A Ctrl-C can come while the pool starts its manager thread (seen once: the run
    ended with "cannot join thread before it is started" instead of `interrupted`):
    stopping it then must not raise."""
    import threading

    from boardproof.jobs.executor import Executor

    executor = Executor(2)
    try:
        executor.run(abs, [("a", -1), ("b", -2)], progress=False)
        pool = executor._pool
        assert pool is not None
        running = pool._executor_manager_thread
        pool._executor_manager_thread = threading.Thread(target=lambda: None)  # not started
        executor._stop_pool()  # must not raise
        assert running is not None
        running.join(10)
    finally:
        executor.close()
