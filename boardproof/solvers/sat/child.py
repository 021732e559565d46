"""SAT solvers that Ctrl-C cannot stop unsafely: in a child process, or (small formulas)
here with python-sat's own SIGINT handler left out.

python-sat's ``solve()``, called in the main thread, installs a C SIGINT handler that
``longjmp``\\ s out of the solver (CaDiCaL, Glucose, Lingeling, Kissat...). A signal that
lands while the solver is inside ``malloc``/``free`` leaves the heap corrupt (a later
``free(): invalid size`` aborts the process, or the next ``malloc`` waits forever on the
lock it left taken); the handler also stays installed and SIGINT stays blocked in the
main thread afterwards, so a second Ctrl-C goes to another thread (numpy's OpenBLAS
one) and jumps there onto the main thread's stack. python-sat releases the GIL in no
CaDiCaL call and CaDiCaL has no ``interrupt()`` there, so a solve in a worker thread
could not be stopped either. pycryptosat installs its own handler in any thread; it
stops the solve, prints ``*** INTERRUPTED ***`` and the solve returns ``None``.

:class:`ChildSolver` keeps the solver in a process forked for it, with SIGINT blocked:
no signal handler ever runs in the solver's process. The parent sends each call
(``solve``, ``add_clause``, ``get_model``...) through a pipe and waits for the answer;
Ctrl-C raises :class:`KeyboardInterrupt` in that wait (Python's own handler), the
child is killed (SIGKILL; it also dies with its parent) and the interrupt goes on up.
No finalizer (``__del__``) of this machinery runs while a Ctrl-C could land in it: a
KeyboardInterrupt raised in a finalizer is lost (see :class:`_Process`).
The solver runs the same code on the same clauses in the same order, so answers,
models and DRUP proofs are the same byte for byte; an incremental solver keeps its
state across calls as before. The clauses reach the child by ``fork`` (nothing is
copied but the pages the child writes).

A fork costs milliseconds, more than a small formula's solve: a python-sat formula of
fewer than :data:`SMALL` clauses (the project's take milliseconds) is solved in this
process by :class:`LocalSolver`, with python-sat told that it is not in the main thread
(its own test for installing the handler): Python's handler stays, and a Ctrl-C takes
effect when that solve ends. So does every solve without ``os.fork`` (or with
``BOARDPROOF_SAT_CHILD=0``).

>>> with open_solver("cadical195", [[1, 2], [-1, 2], [1, -2]]) as s:
...     s.solve(), s.get_model(), s.solve([-2])
(True, [1, 2], False)
>>> with open_solver("cryptominisat", [[1], [-1, 2]]) as s:
...     s.solve(), s.get_model()
(True, [1, 2])
"""

from __future__ import annotations

import contextlib
import gc
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from multiprocessing.connection import Connection, Pipe
from typing import Any

#: set to "0" to keep every solver in this process (:class:`LocalSolver`)
ENV = "BOARDPROOF_SAT_CHILD"
#: python-sat formulas with fewer clauses are solved in this process (no fork)
SMALL = 10_000


class SolverDied(RuntimeError):
    """The solver's process ended without answering (killed, out of memory...)."""


def child_processes() -> bool:
    """Whether :func:`open_solver` puts solvers in child processes."""
    return hasattr(os, "fork") and os.environ.get(ENV, "1") != "0"


class CryptoMiniSat:
    """pycryptosat's solver behind python-sat's method names (``solve``, ``get_model``,
    ``add_clause``); ``solve`` raises :class:`KeyboardInterrupt` where pycryptosat
    returns no answer (its own SIGINT handler stopped it)."""

    def __init__(self, bootstrap_with: Iterable[Sequence[int]] = ()) -> None:
        import pycryptosat

        self.solver = pycryptosat.Solver(threads=1)
        self.solver.add_clauses([list(c) for c in bootstrap_with])
        self.model: list[int] | None = None

    def add_clause(self, clause: Sequence[int]) -> None:
        self.solver.add_clause(list(clause))

    def solve(self, assumptions: Sequence[int] = ()) -> bool:
        sat, values = self.solver.solve(list(assumptions))
        if sat is None:  # only an interrupt stops it: no limits are set
            raise KeyboardInterrupt
        self.model = ([v if values[v] else -v for v in range(1, len(values))]
                      if sat else None)  # fmt: skip
        return bool(sat)

    def get_model(self) -> list[int] | None:
        return self.model

    def delete(self) -> None:
        self.solver = None

    def __enter__(self) -> CryptoMiniSat:
        return self

    def __exit__(self, *exc: object) -> None:
        self.delete()


#: the "solver" of a child that runs one function (:func:`call_in_child`)
NO_SOLVER = "none"


def make_solver(name: str, bootstrap_with: Any = (), with_proof: bool = False) -> Any:
    """The solver itself, in this process: python-sat's ``name`` or ``cryptominisat``
    (:data:`NO_SOLVER`: ``bootstrap_with`` itself)."""
    if name == NO_SOLVER:
        return bootstrap_with
    if name == "cryptominisat":
        if with_proof:
            raise ValueError("cryptominisat: no DRUP proofs here")
        return CryptoMiniSat(bootstrap_with)
    from pysat.solvers import Solver

    return Solver(name=name, bootstrap_with=bootstrap_with, with_proof=with_proof)


@contextlib.contextmanager
def _sigint_held() -> Iterator[None]:
    """A Ctrl-C in the block takes effect at its end (the main thread only: no Python
    handler runs in other threads), so that bookkeeping (a child's pid, python-sat's
    free-then-forget in ``delete``) is never cut in the middle."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    hits: list[int] = []
    previous = signal.getsignal(signal.SIGINT)
    try:  # a Ctrl-C right after the swap must not leave the holding handler in place
        signal.signal(signal.SIGINT, lambda signum, frame: hits.append(signum))
        yield
    finally:
        # None: a handler set from C (python-sat leaves its own after an interrupt)
        restored = signal.default_int_handler if previous is None else previous
        signal.signal(signal.SIGINT, restored)
        if hits:
            if callable(restored):
                restored(signal.SIGINT, None)
            elif restored == signal.SIG_DFL:
                os.kill(os.getpid(), signal.SIGINT)


_LIBC: list[Any] = []  # the C library (Linux), loaded once before the first fork


def _libc() -> Any:
    if not _LIBC:
        try:
            import ctypes

            _LIBC.append(ctypes.CDLL(None) if sys.platform.startswith("linux") else None)
        except (ImportError, OSError):
            _LIBC.append(None)
    return _LIBC[0]


def _die_with_parent(parent: int) -> None:
    """Linux: SIGKILL this process when the thread that forked it ends."""
    libc = _libc()
    if libc is not None:
        with contextlib.suppress(Exception):
            libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:  # it ended before that
        os._exit(1)


def _serve(conn: Connection, parent: int, name: str, clauses: Iterable[Sequence[int]],
           with_proof: bool) -> None:
    """The child: make the solver, then answer calls until the pipe closes."""
    try:
        gc.disable()  # a collection would write to (copy) every page of the parent's heap
        _die_with_parent(parent)
        try:
            solver = make_solver(name, clauses, with_proof)
        except Exception as error:
            conn.send(("error", error))
            return
        conn.send(("ok", None))
        while True:
            try:
                method, args = conn.recv()
            except (EOFError, OSError):
                return
            try:
                if method == "call":
                    value = args[0](solver, *args[1:])
                else:
                    value = getattr(solver, method)(*args)
                reply: tuple[str, Any] = ("ok", value)
            except BaseException as error:  # noqa: BLE001 - every failure goes back
                reply = ("error", error)
            try:
                conn.send(reply)
            except Exception as error:  # an answer or error that does not pickle
                conn.send(("error", RuntimeError(f"{type(error).__name__}: {error}")))
    finally:
        os._exit(0)  # never the parent's atexit handlers, buffers or finalizers


def _drop_frames_below(error: BaseException) -> None:
    """Forget the frames that ``error`` was raised through below the handler's: those of
    the connection's ``recv``/``send`` hold the connection, whose finalizer must run in
    :meth:`ChildSolver.close` (SIGINT held), not when the interrupt is done with."""
    error.with_traceback(None)


class _Process:
    """A solver's process: its pid and this end of the pipe to it.

    Why it exists (the hang of ``test_stress_sigint_during_second_solves``, issue 33):
    CPython runs a Python signal handler at the next check of its "eval breaker", and the
    first instruction of any Python function is one, a finalizer's (``__del__``) too. A
    KeyboardInterrupt raised there cannot go anywhere: CPython prints "Exception ignored
    in ... __del__" and drops it, so that Ctrl-C is lost. The solver's pipe ends are
    :class:`multiprocessing.connection.Connection` objects, whose ``__del__`` is Python
    code, and ``ChildSolver`` had a ``__del__`` of its own; both ran on every solve outside
    any hold of SIGINT (the child's end when ``ChildSolver.__init__`` returned, the
    solver's ``__del__`` when the caller dropped it). A SIGINT that landed in the few
    instructions before one of them was lost: the process went on solving, and the stress
    harness saw no interrupt (a "hang" in the read of the next answer,
    ``unix_stream_read_generic``; about one interrupt in 4,000 with a loop of
    ``second.resolve``). Now the ends of the pipe are made and dropped with SIGINT held
    (:func:`_sigint_held`: a Ctrl-C there is raised at the end of the hold, in plain code),
    and this object, the only one with a finalizer, is dropped the same way by
    :meth:`ChildSolver.close`; its ``__del__`` runs outside a hold only for a solver that
    was never closed (it then kills and reaps the process, as before).
    """

    __slots__ = ("pid", "conn")

    def __init__(self, pid: int, conn: Connection) -> None:
        self.pid: int | None = pid
        self.conn: Connection | None = conn

    def end(self) -> str:
        """Close the pipe, kill the process and reap it: how it ended."""
        pid, self.pid = self.pid, None
        conn, self.conn = self.conn, None
        if conn is not None:
            conn.close()
            del conn  # its finalizer runs here (the caller holds SIGINT)
        if pid is None:
            return "closed"
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        while True:
            try:
                _, status = os.waitpid(pid, 0)  # bounded: SIGKILL cannot be blocked
                break
            except ChildProcessError:
                return "gone"
            except InterruptedError:
                continue
        if os.WIFSIGNALED(status):
            return f"signal {signal.Signals(os.WTERMSIG(status)).name}"
        return f"exit {os.WEXITSTATUS(status)}"

    def __del__(self) -> None:  # a solver dropped without close()
        if self.pid is not None:
            with contextlib.suppress(Exception):
                self.end()


class ChildSolver:
    """A python-sat solver (or ``cryptominisat``) in a child process.

    Its methods are the solver's (``solve``, ``add_clause``, ``get_model``,
    ``get_proof``), plus :meth:`call` to run a function on the solver in the child
    (e.g. to write a long proof there rather than pass it through the pipe).
    """

    def __init__(self, name: str, bootstrap_with: Iterable[Sequence[int]] = (),
                 with_proof: bool = False) -> None:
        self.name = name
        self._process: _Process | None = None
        _libc()
        try:
            self._fork(os.getpid(), name, bootstrap_with, with_proof)
            self._answer()  # the solver is made (or its error raised)
        except BaseException:  # e.g. a Ctrl-C held during the fork: stop the child
            self.close()
            raise

    @property
    def _pid(self) -> int | None:
        """The solver's process (None once closed)."""
        return None if self._process is None else self._process.pid

    def _fork(self, parent: int, name: str, bootstrap_with: Iterable[Sequence[int]],
              with_proof: bool) -> None:
        with _sigint_held():  # the pipe's ends are made and dropped here (see _Process)
            mine, theirs = Pipe()
            try:
                # the child starts with SIGINT blocked (the mask is inherited)
                mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
                try:
                    pid = os.fork()
                    if pid == 0:
                        mine.close()
                        _serve(theirs, parent, name, bootstrap_with, with_proof)
                finally:
                    signal.pthread_sigmask(signal.SIG_SETMASK, mask)
                self._process = _Process(pid, mine)
            finally:
                theirs.close()
                if self._process is None:
                    mine.close()
                del mine, theirs  # their finalizers run now, with SIGINT held

    def _conn(self) -> Connection:
        if self._process is None or self._process.conn is None:
            raise ValueError(f"the {self.name} solver is closed")
        return self._process.conn

    def _answer(self) -> Any:
        conn = self._conn()
        try:
            status, value = conn.recv()
        except (EOFError, OSError) as error:
            del conn
            _drop_frames_below(error)
            raise SolverDied(f"the {self.name} solver's process ended without an answer "
                             f"({self._end()})") from None
        except BaseException as error:  # Ctrl-C: the solver is in an unknown state
            del conn
            _drop_frames_below(error)
            self.close()
            raise
        if status == "error":
            raise value
        return value

    def _request(self, method: str, *args: Any) -> Any:
        conn = self._conn()
        try:
            conn.send((method, args))
        except BaseException as error:
            del conn
            _drop_frames_below(error)
            self.close()
            raise
        del conn
        return self._answer()

    def solve(self, assumptions: Sequence[int] = ()) -> bool:
        return bool(self._request("solve", list(assumptions)))

    def add_clause(self, clause: Sequence[int]) -> None:
        self._request("add_clause", list(clause))

    def get_model(self) -> list[int] | None:
        model = self._request("get_model")
        return None if model is None else list(model)

    def get_proof(self) -> list[str] | None:
        return self._request("get_proof")  # type: ignore[no-any-return]

    def call(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(solver, *args)`` run in the child; its result (``fn`` top-level)."""
        return self._request("call", fn, *args)

    def _end(self) -> str:
        """Stop the child (killing it first) and reap it, with SIGINT held: how it ended."""
        with _sigint_held():
            process, self._process = self._process, None
            how = "closed" if process is None else process.end()
            del process  # its finalizer runs here, with SIGINT held (see _Process)
        return how

    def close(self) -> None:
        """Stop the child (at once: it may be in the middle of a solve)."""
        self._end()

    def delete(self) -> None:
        self.close()

    def __enter__(self) -> ChildSolver:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _run_job(job: tuple[Callable[..., Any], tuple[Any, ...]]) -> Any:
    fn, args = job
    return fn(*args)


def call_in_child(fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)`` in a forked child with SIGINT blocked, for a long native call that
    takes no Ctrl-C until it returns (a proof checker): the wait for it does. ``fn``
    and ``args`` reach the child by ``fork``; the result comes back pickled. Without
    child processes, ``fn(*args)`` here.

    >>> call_in_child(divmod, 17, 5)
    (3, 2)
    """
    if not child_processes():
        return fn(*args)
    with ChildSolver(NO_SOLVER, (fn, args)) as job:  # type: ignore[arg-type]
        return job.call(_run_job)


_WORKER: list[Any] = []  # (pid, job queue) of the thread that runs LocalSolver solves


def _in_worker(fn: Callable[[], Any]) -> threading.Event:
    """Run ``fn`` in this process's solve thread (started once); set when it is done."""
    if not _WORKER or _WORKER[0][0] != os.getpid():  # none yet, or a forked process
        import queue

        jobs: queue.SimpleQueue[tuple[Callable[[], Any], threading.Event]] = queue.SimpleQueue()

        def serve() -> None:
            while True:
                job, finished = jobs.get()
                try:
                    job()
                finally:
                    finished.set()

        threading.Thread(target=serve, name="sat-solve", daemon=True).start()
        _WORKER[:] = [(os.getpid(), jobs)]
    done = threading.Event()
    _WORKER[0][1].put((fn, done))
    return done


class _NotMain:
    """python-sat's own test, answering "not the main thread": no SIGINT handler."""

    @staticmethod
    def check() -> bool:
        return False


def _solve_without_handler(solver: Any, assumptions: list[int]) -> Any:
    """``solver.solve(assumptions)`` with python-sat's SIGINT handler left out: python-sat
    installs it only when its ``MainThread.check()`` says so, and asks no more than that
    (in the solve call). Elsewhere (or if that test moves), in a worker thread."""
    import pysat.solvers

    if threading.current_thread() is not threading.main_thread():
        return solver.solve(assumptions=assumptions)
    if callable(getattr(getattr(pysat.solvers, "MainThread", None), "check", None)):
        saved = pysat.solvers.MainThread
        pysat.solvers.MainThread = _NotMain  # type: ignore[misc,assignment]
        try:
            return solver.solve(assumptions=assumptions)
        finally:
            pysat.solvers.MainThread = saved  # type: ignore[misc]
    out: list[Any] = []

    def run() -> None:
        try:
            out.append(solver.solve(assumptions=assumptions))
        except BaseException as error:  # noqa: BLE001 - raised again below
            out.append(error)

    done = _in_worker(run)  # an Event: not Thread.join (see solve_interruptibly)
    interrupted = False
    while True:  # the solver is in use until the thread is done, Ctrl-C or not
        try:
            done.wait()
            break
        except KeyboardInterrupt:
            interrupted = True
    if interrupted:
        raise KeyboardInterrupt
    if isinstance(out[0], BaseException):
        raise out[0]
    return out[0]


class LocalSolver:
    """A solver in this process whose python-sat ``solve`` installs no SIGINT handler
    (Python's stays): its C call keeps the GIL, so a Ctrl-C raises
    :class:`KeyboardInterrupt` as soon as the solve ends. For small formulas.

    Making and deleting the solver hold Ctrl-C back to their end: python-sat's
    ``delete`` frees the C solver, then forgets its pointer, and a KeyboardInterrupt
    between the two made the next ``delete`` (``__del__``) free it again
    (``free(): double free detected in tcache 2``).
    """

    def __init__(self, name: str, bootstrap_with: Iterable[Sequence[int]] = (),
                 with_proof: bool = False) -> None:
        self.name = name
        self.solver: Any = None
        with _sigint_held():
            self.solver = make_solver(name, bootstrap_with, with_proof)

    def solve(self, assumptions: Sequence[int] = ()) -> bool:
        if isinstance(self.solver, CryptoMiniSat):
            return self.solver.solve(list(assumptions))
        return bool(_solve_without_handler(self.solver, list(assumptions)))

    def add_clause(self, clause: Sequence[int]) -> None:
        self.solver.add_clause(list(clause))

    def get_model(self) -> list[int] | None:
        model = self.solver.get_model()
        return None if model is None else list(model)

    def get_proof(self) -> list[str] | None:
        return self.solver.get_proof()  # type: ignore[no-any-return]

    def call(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(solver, *args)``, as :meth:`ChildSolver.call`."""
        return fn(self.solver, *args)

    def close(self) -> None:
        with _sigint_held():
            if self.solver is not None:
                self.solver.delete()
                self.solver = None

    def delete(self) -> None:
        self.close()

    def __enter__(self) -> LocalSolver:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_solver(name: str, bootstrap_with: Iterable[Sequence[int]] = (),
                with_proof: bool = False) -> ChildSolver | LocalSolver:
    """The solver ``name`` (python-sat's, or ``cryptominisat``) with ``bootstrap_with``:
    in a child process (:class:`ChildSolver`) where ``fork`` exists, but a python-sat
    formula of fewer than :data:`SMALL` clauses here (:class:`LocalSolver`)."""
    clauses = bootstrap_with if isinstance(bootstrap_with, list) else list(bootstrap_with)
    if child_processes() and (name == "cryptominisat" or len(clauses) >= SMALL):
        return ChildSolver(name, clauses, with_proof)
    return LocalSolver(name, clauses, with_proof)
