"""One executor for independent tasks: in-process, a local process pool, or Dask.

:func:`run_tasks` runs ``fn(arg)`` for every ``(key, arg)`` pair and returns the
results by key, **in the order of the tasks** whatever finished first (so the
callers' merge is deterministic). It shows progress on stderr (tasks done,
running, re-run), saves each finished result to an optional JSON checkpoint
(written atomically, so an interrupted run loses no finished task) and skips
the tasks already in the checkpoint when run again.

The back end is chosen by :class:`Executor`:

- ``workers=1`` (default): in this process, in order;
- ``workers=N``: a local process pool of N processes;
- ``scheduler="tcp://HOST:PORT"``: an existing Dask distributed cluster;
- ``scheduler="local:N"``: a Dask ``LocalCluster`` of N worker processes started
  for the run (and stopped after it).

``fn`` must be a top-level function and every ``arg`` plain data: a task carries
its own inputs and relies on no state of the worker, so it can run again anywhere.
A worker lost mid-run (a killed process, a machine gone) costs only its running
tasks, which run again on another worker and are listed in :attr:`RunInfo.reruns`.
A task that kills :data:`ALLOWED_FAILURES` + 1 workers in a row is given up and
reported by name (:class:`TaskKilledWorkers`) once the other tasks have finished.
Dask is an optional extra (``pip install 'boardproof[cluster]'``).

>>> run_tasks(abs, [("a", -1), ("b", 2)], progress=False)
{'a': 1, 'b': 2}
>>> Executor(workers=3).describe(), Executor(scheduler="local:2").describe()
('process pool, 3 workers', 'dask local:2, 2 workers')
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import signal
import threading
import time
import uuid
from collections.abc import Callable, Generator, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from boardproof.jobs.checkpoints import Checkpoint
from boardproof.jobs.progress import TaskProgress
from boardproof.models.base import BoardproofError, InvalidOptionError

T = TypeVar("T")
R = TypeVar("R")

#: a task may be running on this many lost workers and still run again (Dask's default)
ALLOWED_FAILURES = 3
#: how long a stopped pool's manager thread is waited for (it ends as soon as it sees the
#: terminated processes; the wait never hangs an interrupted run for longer)
MANAGER_JOIN_SECONDS = 10.0
#: ... and how long it waits for that thread to run when an interrupt came as it started
MANAGER_START_SECONDS = 1.0
#: seconds to wait for a Dask scheduler to answer (env BOARDPROOF_CONNECT_TIMEOUT)
CONNECT_TIMEOUT = 10.0
#: the back ends, as :attr:`Executor.backend` names them
BACKENDS = ("in-process", "process pool", "dask")
#: the pip extra that brings Dask
EXTRA = "boardproof[cluster]"


class TaskKilledWorkers(BoardproofError):
    """Some tasks were given up: each was running on every worker that died under it."""

    def __init__(self, keys: list[str], finished: int, total: int) -> None:
        self.keys = keys
        super().__init__(
            f"task {', '.join(repr(k) for k in keys)} killed {ALLOWED_FAILURES + 1} workers "
            f"and was given up ({finished} of {total} tasks finished and kept in the checkpoint)"
        )


class SchedulerLost(BoardproofError):
    """The Dask scheduler stopped answering in the middle of a run."""


@dataclass
class RunInfo:
    """What a run did: the back end, and the tasks resumed, computed and re-run."""

    backend: str
    workers: int
    address: str | None = None
    tasks: int = 0
    resumed: int = 0
    computed: int = 0
    #: tasks that ran again because a worker was lost under them: key -> times
    reruns: dict[str, int] = field(default_factory=dict)
    #: tasks given up after killing too many workers
    failed: list[str] = field(default_factory=list)

    def summary(self) -> str:
        """One line for the console.

        >>> RunInfo("dask", 2, "local:2", tasks=5, computed=5, reruns={"b": 1}).summary()
        'dask local:2, 2 workers: 5 tasks (5 computed, 0 from checkpoint); re-run: b'
        """
        where = f"{self.backend} {self.address}" if self.address else self.backend
        text = (f"{where}, {self.workers} worker{'s' if self.workers != 1 else ''}: "
                f"{self.tasks} tasks ({self.computed} computed, {self.resumed} from checkpoint)")
        if self.reruns:
            text += "; re-run: " + ", ".join(sorted(self.reruns))
        if self.failed:
            text += "; given up: " + ", ".join(self.failed)
        return text


def _timed(fn: Callable[[T], R], arg: T) -> tuple[R, float]:
    start = time.perf_counter()
    result = fn(arg)
    return result, time.perf_counter() - start


#: what a back end yields: ("done", key, (result, seconds)), ("rerun", key, times),
#: ("failed", key, None) or ("running", "", count)
Event = tuple[str, str, Any]
#: the events of one run (a generator: closing it stops the tasks still running)
Events = Generator[Event, None, None]


#: the most local worker processes (``workers``, ``local:N``): more is a typo, not a plan
#: (a machine with more cores than this runs a Dask cluster)
MAX_LOCAL_WORKERS = 256


class _TaskQueue(Generic[T]):
    """The tasks still to start: a fixed list first, then (``more``) tasks chosen one at a
    time as workers free up. :meth:`close` (a held-back task) ends both; a lost task
    :meth:`push`-ed back starts next.

    >>> q = _TaskQueue([("a", 1), ("b", 2)], iter([("c", 3), None]).__next__)
    >>> [q.pop(), q.pop(), q.pop(), q.peek()]
    [('a', 1), ('b', 2), ('c', 3), None]
    """

    def __init__(self, pending: Sequence[tuple[str, T]],
                 more: Callable[[], tuple[str, T] | None] | None = None) -> None:  # fmt: skip
        self._items = list(reversed(pending))
        self._more = more
        self.dynamic = more is not None
        self.closed = False

    def fixed(self) -> int:
        """How many tasks of the fixed list are left."""
        return len(self._items)

    def peek(self) -> tuple[str, T] | None:
        """The next task (chosen now if the fixed list is done), or None."""
        if not self._items and self._more is not None and not self.closed:
            item = self._more()
            if item is None:
                return None
            self._items.append(item)
        return self._items[-1] if self._items else None

    def pop(self) -> tuple[str, T]:
        item = self.peek()
        if item is None:
            raise IndexError("no task to start")
        return self._items.pop()

    def push(self, item: tuple[str, T]) -> None:
        self._items.append(item)

    def close(self) -> None:
        self._items.clear()
        self.closed = True


class Executor:
    """A back end for :func:`run_tasks`, kept open across several runs (``with``).

    ``scheduler`` is ``tcp://HOST:PORT`` (any Dask address) or ``local:N``; it
    excludes ``workers`` > 1. The pool or the Dask client starts at the first run.
    """

    def __init__(self, workers: int = 1, scheduler: str | None = None,
                 connect_timeout: float | None = None) -> None:  # fmt: skip
        if not isinstance(workers, int) or not 1 <= workers <= MAX_LOCAL_WORKERS:
            raise InvalidOptionError(
                f"invalid option workers: expected 1 to {MAX_LOCAL_WORKERS}, got {workers!r}"
            )
        self.scheduler = scheduler
        self.local_workers = 0
        if scheduler is not None:
            if workers != 1:
                raise InvalidOptionError(
                    f"invalid option scheduler: not together with option workers (give one), "
                    f"got {scheduler!r}"
                )
            self.local_workers = _parse_scheduler(scheduler)
        self.workers = workers if scheduler is None else max(self.local_workers, 1)
        self.backend = "dask" if scheduler else "process pool" if workers > 1 else "in-process"
        env = os.environ.get("BOARDPROOF_CONNECT_TIMEOUT")
        self.connect_timeout = (connect_timeout if connect_timeout is not None
                                else float(env) if env else CONNECT_TIMEOUT)  # fmt: skip
        self._pool: ProcessPoolExecutor | None = None
        self._client: Any = None
        self._cluster: Any = None
        self.last: RunInfo | None = None
        #: every task re-run in any run of this executor (a worker was lost under it)
        self.reruns: dict[str, int] = {}

    def describe(self) -> str:
        where = f"dask {self.scheduler}" if self.scheduler else self.backend
        return f"{where}, {self.workers} worker{'s' if self.workers != 1 else ''}"

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        """Stop the pool, the Dask client and a cluster this executor started."""
        self._stop_pool()
        for part in (self._client, self._cluster):
            if part is not None:
                with contextlib.suppress(Exception):  # a cluster that is gone already
                    part.close()
        self._client = self._cluster = None

    def _stop_pool(self) -> None:
        """Stop the pool's processes, even those running a task (the next run starts a
        new pool): after an interrupt (a SIGINT sent to this process alone) the
        interpreter would otherwise wait for them at exit."""
        if self._pool is not None:
            # the pool's manager thread closes its wake-up pipe once it sees the processes
            # gone; joined here, so that the interpreter's exit hook, which writes to that
            # pipe, never races its closing (an "Exception ignored ... Bad file
            # descriptor" traceback after `interrupted`: 1 run in 8 before)
            manager = getattr(self._pool, "_executor_manager_thread", None)
            for process in list((getattr(self._pool, "_processes", None) or {}).values()):
                process.terminate()
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
            if manager is not None:
                # a Ctrl-C can come while the pool starts this thread (inside its start(),
                # waiting for it to run): give it a moment to run, and never join a thread
                # that did not start ("cannot join thread before it is started" ended such
                # an interrupt with a traceback instead of `interrupted`)
                started = getattr(manager, "_started", None)
                if started is not None:
                    started.wait(MANAGER_START_SECONDS)
                with contextlib.suppress(RuntimeError):
                    manager.join(timeout=MANAGER_JOIN_SECONDS)

    # -- running ---------------------------------------------------------------------------

    def run(
        self,
        fn: Callable[[T], R],
        tasks: Sequence[tuple[str, T]],
        *,
        checkpoint: str | os.PathLike[str] | Checkpoint | None = None,
        progress: bool = True,
        description: str = "",
        on_result: Callable[[str, R], None] | None = None,
        until: Callable[[dict[str, R]], bool] | None = None,
        status: Callable[[int], str] | None = None,
        admit: Callable[[str], bool] | None = None,
        more: Callable[[], tuple[str, T] | None] | None = None,
    ) -> dict[str, R]:
        """Run every task (resuming from ``checkpoint``); results by key, in task order.

        ``checkpoint`` is a file name (a :class:`Checkpoint`) or a checkpoint object.
        With ``until``, the tasks start in their order, a few more than the workers at a
        time (so that no worker waits), and the run stops as soon as ``until(results)``
        (the results finished so far, resumed ones included) is true: the tasks still
        running are stopped and the finished ones returned, in task order. ``status``
        gives the text in brackets of the progress lines from the count of tasks done.
        ``admit(key)`` is asked just before a task starts: False holds that task and every
        later one back (a deadline); the tasks already running finish and are returned.
        ``more()`` is asked for the next task whenever a worker is free and ``tasks`` are
        all started (after the results so far were handed to ``on_result``: a best-first
        search chooses from them); None: nothing to start now (the run ends when nothing
        runs either). Its keys must be new (not in ``tasks``, not in the checkpoint);
        they come after ``tasks`` in the results, in the order they were chosen.
        """
        keys = [key for key, _ in tasks]
        if len(set(keys)) != len(keys):
            raise ValueError("run_tasks: task keys must be unique")
        store = checkpoint if isinstance(checkpoint, Checkpoint) else Checkpoint(checkpoint)
        kept = store.path is not None
        info = RunInfo(self.backend, self.workers, self.scheduler, tasks=len(tasks))
        self.last = info
        bar = TaskProgress(len(tasks), description, progress,
                        parallel=self.backend != "in-process", status=status)  # fmt: skip
        results: dict[str, Any] = {}
        pending: list[tuple[str, T]] = []
        for key, arg in tasks:
            if key in store.done:
                results[key] = store.done[key]
                info.resumed += 1
                bar.advance(key, 0.0, skipped=True)
            else:
                pending.append((key, arg))
        if until is not None and until(results):
            pending, more = [], None
        if kept and (pending or more is not None):
            store.write()  # the checkpoint exists from the start of a long run
        bar.start(len(pending), str(store.path) if kept else None,
                  at_most=until is not None or admit is not None,
                  chosen=more is not None)  # fmt: skip
        running = 0

        def chosen() -> tuple[str, T] | None:
            item = more() if more is not None else None
            if item is not None:
                if item[0] in results or item[0] in store.done or item[0] in keys:
                    raise ValueError(f"run_tasks: more() gave a task already run: {item[0]!r}")
                keys.append(item[0])
            return item

        queue = _TaskQueue(pending, chosen if more is not None else None)
        events = self._events(fn, queue, None if until is None else 2, admit)
        try:
            for kind, key, value in events:
                if kind == "running":
                    running = value
                elif kind == "rerun":
                    info.reruns[key] = self.reruns[key] = value
                    bar.note(f"worker lost: {key} runs again ({value})")
                elif kind == "failed":
                    info.failed.append(key)
                    bar.note(f"giving up {key}: it killed {ALLOWED_FAILURES + 1} workers")
                elif key not in results:  # a result arrives once, even if the task re-ran
                    result, seconds = value
                    results[key] = result
                    info.computed += 1
                    if kept:
                        store.save(key, result)
                    if on_result is not None:  # first: ``until`` may read what it keeps
                        on_result(key, result)
                    enough = until is not None and until(results)
                    bar.advance(key, seconds, running=running, reruns=len(info.reruns))
                    if enough:
                        break
        finally:
            events.close()  # stops the tasks still running when the run ends early
            bar.close()
            info.workers = self.workers  # a cluster's workers are counted when it connects
        if info.failed:
            raise TaskKilledWorkers(info.failed, len(results), len(tasks))
        return {key: results[key] for key in keys if key in results}

    def _events(self, fn: Callable[[T], R], queue: _TaskQueue[T],
                per_worker: int | None = None,
                admit: Callable[[str], bool] | None = None) -> Events:  # fmt: skip
        """The events of running the tasks of ``queue``; on Dask at most ``per_worker``
        tasks per worker thread submitted at a time (None: all at once; one per thread
        when the queue chooses its tasks); in a pool ``workers``; ``admit``: see
        :meth:`run`."""
        if queue.peek() is None:
            return
        if self.scheduler is not None:
            yield from self._events_dask(fn, queue, per_worker, admit)
        elif self.workers == 1 or (queue.fixed() == 1 and not queue.dynamic):
            while (item := queue.peek()) is not None:
                if admit is not None and not admit(item[0]):
                    return
                key, arg = queue.pop()
                yield "done", key, _timed(fn, arg)
        else:
            yield from self._events_pool(fn, queue, admit)

    @staticmethod
    @contextlib.contextmanager
    def _interrupts_kept() -> Iterator[None]:
        """Start processes without losing a Ctrl-C: after a fork the interpreter runs the
        at-fork hooks in the parent (logging's among them), and a KeyboardInterrupt raised
        inside one is printed as "Exception ignored" and dropped, so the run went on to the
        end with exit 0. Here the SIGINT handler also notes the signal, and a noted one is
        raised again once the pool's calls return (tests/test_executor_fork_interrupt.py).
        Only where Python's own handler is in place, in the main thread."""
        if (threading.current_thread() is not threading.main_thread()
                or signal.getsignal(signal.SIGINT) is not signal.default_int_handler):
            yield
            return
        noted: list[int] = []

        def note(signum: int, frame: Any) -> None:
            noted.append(signum)
            raise KeyboardInterrupt

        signal.signal(signal.SIGINT, note)
        try:
            yield
        finally:
            signal.signal(signal.SIGINT, signal.default_int_handler)
        if noted:
            raise KeyboardInterrupt

    def _events_pool(self, fn: Callable[[T], R], queue: _TaskQueue[T],
                     admit: Callable[[str], bool] | None = None) -> Events:  # fmt: skip
        """At most ``workers`` tasks in flight; a broken pool is replaced and its tasks rerun."""
        strikes: dict[str, int] = {}
        futures: dict[Future[tuple[R, float]], tuple[str, T]] = {}
        try:
            while queue.peek() is not None or futures:
                if self._pool is None:
                    self._pool = ProcessPoolExecutor(max_workers=self.workers)
                try:
                    while len(futures) < self.workers and (item := queue.peek()) is not None:
                        if admit is not None and not admit(item[0]):
                            queue.close()  # held back: the running tasks finish
                            break
                        key, arg = queue.pop()
                        with self._interrupts_kept():  # a submit may fork the workers
                            futures[self._pool.submit(_timed, fn, arg)] = (key, arg)
                    if not futures:
                        break
                    done, _ = wait(futures, return_when=FIRST_COMPLETED)
                    yield "running", "", len(futures) - len(done)
                    for future in sorted(done, key=lambda f: futures[f][0]):
                        value = future.result()  # raises BrokenProcessPool if its worker died
                        key, _ = futures.pop(future)
                        yield "done", key, value
                except BrokenProcessPool:
                    # a worker process died: every task in flight may have been the culprit
                    self._pool.shutdown(wait=False, cancel_futures=True)
                    self._pool = None
                    lost = sorted(futures.values(), key=lambda t: t[0])
                    futures.clear()
                    for key, arg in lost:
                        strikes[key] = strikes.get(key, 0) + 1
                        if strikes[key] > ALLOWED_FAILURES:
                            yield "failed", key, None
                        else:
                            yield "rerun", key, strikes[key]
                            queue.push((key, arg))
        finally:
            if any(not f.done() for f in futures):
                # the run stopped early (enough results, an interrupt, an error): the tasks
                # in flight are not wanted, and a later run must not wait for them
                self._stop_pool()

    def _connect(self) -> Any:
        if self._client is not None:
            return self._client
        assert self.scheduler is not None
        try:
            import logging

            from dask.distributed import Client, LocalCluster
        except ImportError:
            raise InvalidOptionError(
                f"invalid option scheduler: needs Dask, which is not installed "
                f"(pip install '{EXTRA}'), got {self.scheduler!r}"
            ) from None
        # a lost scheduler is reported in one line (SchedulerLost), not in its log records
        for name in ["distributed", *logging.root.manager.loggerDict]:
            if name.startswith("distributed"):
                logging.getLogger(name).setLevel(logging.CRITICAL)
        if self.local_workers:
            import dask

            # one task per worker thread at a time: "running" in the progress means running
            dask.config.set({"distributed.scheduler.worker-saturation": 1.0})
            self._cluster = LocalCluster(
                n_workers=self.local_workers, threads_per_worker=1, processes=True,
                dashboard_address=":0", worker_dashboard_address=None,
                silence_logs=logging.ERROR,
            )  # fmt: skip
            address = self._cluster.scheduler_address
        else:
            address = self.scheduler
        try:
            if not self.local_workers:
                _check_answers(address, self.connect_timeout)
            self._client = Client(address, timeout=self.connect_timeout)
        except (OSError, TimeoutError, ValueError) as error:
            reason = str(error).splitlines()[0] if str(error) else type(error).__name__
            raise InvalidOptionError(
                f"invalid option scheduler: no Dask scheduler answered within "
                f"{self.connect_timeout:g} s ({reason[:120]}), got {self.scheduler!r}"
            ) from None
        if not self.local_workers:
            self.workers = max(1, len(self._client.scheduler_info().get("workers", {})))
        return self._client

    def _events_dask(self, fn: Callable[[T], R], queue: _TaskQueue[T],
                     per_worker: int | None = None,
                     admit: Callable[[str], bool] | None = None) -> Events:  # fmt: skip
        client = self._connect()  # first: a missing Dask is a one-line error there
        from dask.distributed import wait as dask_wait
        from distributed.client import FutureCancelledError, FuturesCancelledError
        from distributed.scheduler import KilledWorker

        run = uuid.uuid4().hex[:8]
        names: dict[str, str] = {}
        futures: dict[Any, str] = {}
        outstanding: set[Any] = set()
        numbers = itertools.count()
        threads = [self.workers]  # updated as workers join or leave

        def submit() -> None:
            each = 1 if queue.dynamic else per_worker
            limit = None if each is None else each * max(threads[0], 1)
            while (limit is None or len(outstanding) < limit) and (
                    item := queue.peek()) is not None:  # fmt: skip
                if admit is not None and not admit(item[0]):
                    queue.close()  # held back: the running tasks finish
                    break
                key, arg = queue.pop()
                dask_key = f"boardproof-{run}-{next(numbers)}"
                names[dask_key] = key
                future = client.submit(_timed, fn, arg, key=dask_key, pure=False, retries=0)
                futures[future] = key
                outstanding.add(future)

        submit()
        reported: dict[str, int] = {}
        lost = (f"lost the Dask scheduler {self.scheduler!r}: the finished tasks are kept (in "
                "the checkpoint, if the command has one); run it again to resume")
        last_poll = 0.0
        try:
            while outstanding:
                try:
                    done, _ = dask_wait(outstanding, timeout=1.0, return_when="FIRST_COMPLETED")
                except TimeoutError:
                    done = set()
                outstanding -= done
                submit()  # the next tasks, before the results are handed on
                if client.status not in ("running", "connecting"):
                    raise SchedulerLost(lost)
                watch = [f.key for f in done]
                now = time.monotonic()
                if now - last_poll > 0.5:
                    watch += [f.key for f in outstanding]
                    last_poll = now
                if watch:
                    states, running, threads[0] = client.run_on_scheduler(
                        _scheduler_states(), keys=watch, prefix=f"boardproof-{run}-"
                    )
                    for dask_key, (_, suspicious) in states.items():
                        key = names[dask_key]
                        if suspicious and suspicious > reported.get(key, 0):
                            reported[key] = suspicious
                            yield "rerun", key, suspicious
                    yield "running", "", running
                for future in sorted(done, key=lambda f: futures[f]):
                    key = futures[future]
                    if future.status == "cancelled":
                        raise SchedulerLost(lost)
                    if future.status == "error":
                        error = future.exception()
                        if isinstance(error, KilledWorker):
                            yield "failed", key, None
                            continue
                        future.result()  # the task's own exception, raised here
                    yield "done", key, future.result()
                    future.release()
        except (OSError, TimeoutError, FutureCancelledError, FuturesCancelledError,
                asyncio.CancelledError):
            raise SchedulerLost(lost) from None
        finally:
            if outstanding and client.status == "running":
                client.cancel(list(outstanding))


def _check_answers(address: str, timeout: float) -> None:
    """Raise TimeoutError/OSError unless a Dask scheduler answers at ``address`` in time.

    ``Client()`` alone waits forever on an address that accepts but does not answer.
    """
    try:
        asyncio.get_running_loop()
    except RuntimeError:  # the usual case: no event loop here, so one can be run
        asyncio.run(asyncio.wait_for(_identity(address, timeout), timeout))


async def _identity(address: str, timeout: float) -> None:
    """Ask the scheduler at ``address`` who it is (wrap in a timeout: a silent peer hangs)."""
    from distributed.comm import connect

    comm = await connect(address, timeout=timeout)
    try:
        await comm.write({"op": "identity", "reply": True})
        await comm.read()
    finally:
        await comm.close()


def _scheduler_states() -> Callable[..., tuple[dict[str, tuple[str, int]], int, int]]:
    """A function for ``run_on_scheduler`` (defined here so that it is sent by value):
    the state and the lost-worker count of each of ``keys``, how many tasks of this run
    (their keys start with ``prefix``) the workers are running now, and their threads."""

    def states(
        dask_scheduler: Any, keys: list[str], prefix: str
    ) -> tuple[dict[str, tuple[str, int]], int, int]:
        out = {}
        for key in keys:
            task = dask_scheduler.tasks.get(key)
            if task is not None:
                out[key] = (task.state, task.suspicious)
        # a worker's "processing" may hold tasks queued behind those its threads run
        running = sum(
            min(worker.nthreads, sum(1 for t in worker.processing if str(t.key).startswith(prefix)))
            for worker in dask_scheduler.workers.values()
        )
        threads = sum(worker.nthreads for worker in dask_scheduler.workers.values())
        return out, running, threads

    return states


def _parse_scheduler(text: str) -> int:
    """The worker count of ``local:N``, 0 for a cluster address; one-line error otherwise.

    >>> _parse_scheduler("local:4"), _parse_scheduler("tcp://10.0.0.5:8786")
    (4, 0)
    """
    if text.startswith("local:"):
        count = text[len("local:"):]
        if count.isdigit() and 1 <= int(count) <= MAX_LOCAL_WORKERS:
            return int(count)
        raise InvalidOptionError(
            f"invalid option scheduler: expected local:N with N from 1 to {MAX_LOCAL_WORKERS}, "
            f"got {text!r}"
        )
    if "://" not in text or not text.split("://", 1)[1]:
        raise InvalidOptionError(
            f"invalid option scheduler: expected tcp://HOST:PORT or local:N, got {text!r}"
        )
    return 0


def run_tasks(
    fn: Callable[[T], R],
    tasks: Sequence[tuple[str, T]],
    *,
    workers: int = 1,
    scheduler: str | None = None,
    executor: Executor | None = None,
    checkpoint: str | os.PathLike[str] | Checkpoint | None = None,
    progress: bool = True,
    description: str = "",
    on_result: Callable[[str, R], None] | None = None,
    until: Callable[[dict[str, R]], bool] | None = None,
    status: Callable[[int], str] | None = None,
    admit: Callable[[str], bool] | None = None,
    more: Callable[[], tuple[str, T] | None] | None = None,
) -> dict[str, R]:
    """Run every task (resuming from ``checkpoint``) and return results by key.

    With ``executor`` its back end is used (and stays open); otherwise one is made
    from ``workers``/``scheduler`` for this call. Results must be JSON-serialisable
    when a checkpoint is used. ``on_result`` is called in the parent process as each
    task finishes (in completion order: use the returned dict for anything ordered).
    ``until``, ``status``, ``admit`` and ``more``: see :meth:`Executor.run`.

    >>> run_tasks(abs, [(str(k), -k) for k in range(9)], progress=False,
    ...           until=lambda done: len(done) >= 3)
    {'0': 0, '1': 1, '2': 2}
    >>> found: list[int] = []   # each next task chosen from the results so far
    >>> run_tasks(abs, [("1", -1)], progress=False, on_result=lambda k, r: found.append(r),
    ...           more=lambda: (str(2 * found[-1]), -2 * found[-1]) if found[-1] < 8 else None)
    {'1': 1, '2': 2, '4': 4, '8': 8}
    """
    options: dict[str, Any] = dict(checkpoint=checkpoint, progress=progress,
                                   description=description, on_result=on_result,
                                   until=until, status=status, admit=admit,
                                   more=more)  # fmt: skip
    if executor is not None:
        return executor.run(fn, tasks, **options)
    with Executor(workers, scheduler) as own:
        return own.run(fn, tasks, **options)
