"""One executor interface for independent tasks: in-process, process pool, or Dask.

:func:`run_tasks` runs ``fn(arg)`` for every ``(key, arg)`` pair and returns the
results by key. It shows progress on stderr, saves each finished result to an
optional JSON checkpoint (written atomically, so an interrupted run loses no
finished task) and skips tasks already in the checkpoint when run again.

- ``workers=1`` (default) runs in this process, in order;
- ``workers=N`` uses a local process pool (``fn`` must be a top-level function);
- ``scheduler="tcp://HOST:PORT"`` sends the same tasks to a Dask distributed cluster.

>>> run_tasks(abs, [("a", -1), ("b", 2)], progress=False)
{'a': 1, 'b': 2}
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any, TypeVar

from boardproof.models.base import InvalidOptionError

T = TypeVar("T")
R = TypeVar("R")


class Checkpoint:
    """Finished results by key, kept in a JSON file that is rewritten atomically.

    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "run.checkpoint.json"
    >>> cp = Checkpoint(path)
    >>> cp.save("n=3", {"holds": True})
    >>> Checkpoint(path).done
    {'n=3': {'holds': True}}
    """

    def __init__(self, path: str | os.PathLike[str] | None) -> None:
        self.path = Path(path) if path is not None else None
        self.done: dict[str, Any] = {}
        if self.path is not None and self.path.exists():
            try:
                self.done = json.loads(self.path.read_text(encoding="utf-8"))
            except json.JSONDecodeError as error:
                raise InvalidOptionError(
                    f"invalid checkpoint: not a JSON file ({error.msg}): {str(self.path)!r}"
                ) from None

    def save(self, key: str, result: Any) -> None:
        self.done[key] = result
        if self.path is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_text(json.dumps(self.done, indent=1, sort_keys=True), encoding="utf-8")
        os.replace(tmp, self.path)


class _Progress:
    """Progress on stderr: a rich bar on a terminal, one line per task otherwise."""

    def __init__(self, total: int, description: str, enabled: bool) -> None:
        self.total = total
        self.count = 0
        self.description = description
        self.enabled = enabled
        self._bar: Any = None
        self._task: Any = None
        if enabled and sys.stderr.isatty():
            from rich.progress import Progress

            self._bar = Progress(transient=False)
            self._bar.start()
            self._task = self._bar.add_task(description or "tasks", total=total)

    def advance(self, key: str, seconds: float, skipped: bool = False) -> None:
        self.count += 1
        if not self.enabled:
            return
        if self._bar is not None:
            self._bar.update(self._task, advance=1, description=f"{self.description} {key}")
        else:
            note = "from checkpoint" if skipped else f"{seconds:.2f}s"
            print(f"[{self.count}/{self.total}] {self.description} {key}: {note}", file=sys.stderr)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()


def _timed(fn: Callable[[T], R], arg: T) -> tuple[R, float]:
    start = time.perf_counter()
    result = fn(arg)
    return result, time.perf_counter() - start


def run_tasks(
    fn: Callable[[T], R],
    tasks: Sequence[tuple[str, T]],
    *,
    workers: int = 1,
    scheduler: str | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    progress: bool = True,
    description: str = "",
    on_result: Callable[[str, R], None] | None = None,
) -> dict[str, R]:
    """Run every task (resuming from ``checkpoint``) and return results by key.

    Results must be JSON-serialisable when a checkpoint is used. ``on_result``
    is called in the parent process as each task finishes.
    """
    if workers < 1:
        raise InvalidOptionError(
            f"invalid option --workers: expected a number >= 1, got {workers!r}"
        )
    keys = [key for key, _ in tasks]
    if len(set(keys)) != len(keys):
        raise ValueError("run_tasks: task keys must be unique")
    store = Checkpoint(checkpoint)
    bar = _Progress(len(tasks), description, progress)
    results: dict[str, Any] = {}
    pending: list[tuple[str, T]] = []
    for key, arg in tasks:
        if key in store.done:
            results[key] = store.done[key]
            bar.advance(key, 0.0, skipped=True)
        else:
            pending.append((key, arg))

    def finish(key: str, result: Any, seconds: float) -> None:
        results[key] = result
        if checkpoint is not None:
            store.save(key, result)
        bar.advance(key, seconds)
        if on_result is not None:
            on_result(key, result)

    try:
        for key, result, seconds in _execute(fn, pending, workers, scheduler):
            finish(key, result, seconds)
    finally:
        bar.close()
    return {key: results[key] for key in keys}


def _execute(
    fn: Callable[[T], R], pending: list[tuple[str, T]], workers: int, scheduler: str | None
) -> Iterator[tuple[str, R, float]]:
    if scheduler is not None:
        yield from _execute_dask(fn, pending, scheduler)
    elif workers == 1 or len(pending) <= 1:
        for key, arg in pending:
            result, seconds = _timed(fn, arg)
            yield key, result, seconds
    else:
        yield from _execute_pool(fn, pending, workers)


def _execute_pool(
    fn: Callable[[T], R], pending: list[tuple[str, T]], workers: int
) -> Iterator[tuple[str, R, float]]:
    pool = ProcessPoolExecutor(max_workers=workers)
    futures: dict[Future[tuple[R, float]], str] = {}
    try:
        for key, arg in pending:
            futures[pool.submit(_timed, fn, arg)] = key
        remaining = set(futures)
        while remaining:
            done, remaining = wait(remaining, return_when=FIRST_COMPLETED)
            for future in sorted(done, key=lambda f: futures[f]):
                result, seconds = future.result()
                yield futures[future], result, seconds
    except BaseException:
        # interrupted (or a task failed): stop the running workers too, else the
        # interpreter waits for them at exit (a SIGINT sent to this process alone)
        for process in list(getattr(pool, "_processes", {}).values()):
            process.terminate()
        raise
    finally:
        for future in futures:
            future.cancel()
        pool.shutdown(wait=False, cancel_futures=True)


def _execute_dask(
    fn: Callable[[T], R], pending: list[tuple[str, T]], scheduler: str
) -> Iterator[tuple[str, R, float]]:
    try:
        from dask.distributed import Client, as_completed
    except ImportError:
        raise InvalidOptionError(
            "invalid option --scheduler: dask[distributed] is not installed "
            f"(pip install 'boardproof[cluster]'), got {scheduler!r}"
        ) from None
    try:
        client = Client(scheduler, timeout=10)
    except OSError as error:
        raise InvalidOptionError(
            f"invalid option --scheduler: cannot reach the scheduler ({error}): {scheduler!r}"
        ) from None
    try:
        futures = {client.submit(_timed, fn, arg, pure=False): key for key, arg in pending}
        for future in as_completed(futures):
            result, seconds = future.result()
            yield futures[future], result, seconds
    finally:
        client.close()
