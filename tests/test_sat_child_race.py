"""The lost Ctrl-C behind the rare hang of ``test_stress_sigint_during_second_solves``
(issue 33): pinned without waiting for the race.

CPython runs a Python signal handler at the next check of its "eval breaker"; the first
instruction of every Python function is one, a finalizer's (``__del__``) too, and a
KeyboardInterrupt raised in a finalizer is printed ("Exception ignored in ...") and
dropped. The SAT child's parent ran such finalizers on every solve with SIGINT not held
(``multiprocessing``'s ``Connection.__del__`` for the child's end of the pipe when
``ChildSolver.__init__`` returned, ``ChildSolver.__del__`` when the caller dropped the
solver): a SIGINT landing just before one was lost, the process solved on, and the
harness saw a "hang" in the read of the next answer (``unix_stream_read_generic``).
Its stderr said ``Exception ignored in: <function _ConnectionBase.__del__>``.
:class:`boardproof.solvers.sat.child._Process` explains the fix.
"""

from __future__ import annotations

import gc
import os
import signal
import subprocess
import sys
import textwrap
from collections.abc import Callable

import pytest

from boardproof.solvers.sat import child, second


def _finalizers_run_unheld(action: Callable[[], object]) -> list[str]:
    """The Python finalizers (``__del__``) that ``action`` runs while SIGINT is not held,
    i.e. where a Ctrl-C could be lost (the cyclic collector kept out: only what the code
    itself drops)."""
    found: list[str] = []

    def profile(frame, event, arg):  # type: ignore[no-untyped-def]
        code = frame.f_code
        if (event == "call" and code.co_name == "__del__"
                and signal.getsignal(signal.SIGINT) is signal.default_int_handler):
            found.append(code.co_qualname)

    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    gc.collect()
    gc.disable()
    sys.setprofile(profile)
    try:
        action()
    finally:
        sys.setprofile(None)
        gc.enable()
        signal.signal(signal.SIGINT, previous)
    return found


@pytest.fixture()
def every_size_in_a_child(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(child, "SMALL", 0)
    monkeypatch.setenv(child.ENV, "1")


UNSAT = [[1, 2], [-1, 2], [1, -2], [-1, -2]]


def test_second_solves_run_no_finalizer_a_ctrl_c_could_be_lost_in() -> None:
    """The loop of the stress child (``second.resolve``), as it is: before the fix
    ``['_ConnectionBase.__del__', 'ChildSolver.__del__']`` each time."""
    if not child.child_processes():
        pytest.skip("no child processes here")

    def solves() -> None:
        for _ in range(2):
            assert second.resolve(UNSAT, "cryptominisat")["result"] == "unsat"

    assert _finalizers_run_unheld(solves) == []


@pytest.mark.parametrize("n", [5, 8])
def test_library_solves_run_no_finalizer_unheld(n: int) -> None:
    """The stress test's ``library`` mode: n = 5 is solved here (:class:`LocalSolver`,
    python-sat's ``__del__`` runs in its close, held), n = 8 in a child."""
    from boardproof.models.minefield.proofs import sat
    from boardproof.models.minefield.research import claims

    enc = sat.encode(n, dict(claims._step_options(n, "fill"))["fill"])
    assert (len(enc.clauses) < child.SMALL) == (n == 5)

    def solves() -> None:
        for _ in range(2):
            assert sat.solve(enc, "cadical195").result == "unsat"

    assert _finalizers_run_unheld(solves) == []


@pytest.mark.usefixtures("every_size_in_a_child")
def test_child_solver_life_runs_no_finalizer_unheld() -> None:
    """Made, used (solve, model, a function in the child, an error sent back), closed and
    dropped: every finalizer runs with SIGINT held; so does a job of call_in_child."""

    def life() -> None:
        s = child.open_solver("cadical195", [[1, 2], [-1, 2]])
        assert isinstance(s, child.ChildSolver)
        assert s.solve() and s.get_model() in ([-1, 2], [1, 2])
        with pytest.raises(ValueError):
            s.solve([0])  # python-sat's error, raised here
        s.close()
        del s
        assert child.call_in_child(divmod, 17, 5) == (3, 2)

    assert _finalizers_run_unheld(life) == []


@pytest.mark.usefixtures("every_size_in_a_child")
def test_the_interrupted_wait_drops_the_process_with_sigint_held(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A KeyboardInterrupt in the wait for an answer (as Ctrl-C raises it there): the
    child is killed and reaped, and its finalizer runs held, before the interrupt goes
    on up."""
    s = child.ChildSolver("cadical195", [[1, 2]])
    process = s._process
    assert process is not None and process.pid is not None
    pid = process.pid
    del process

    def recv(self):  # type: ignore[no-untyped-def]
        raise KeyboardInterrupt

    monkeypatch.setattr(type(s._conn()), "recv", recv)
    found: list[str] = []

    def interrupted() -> None:
        with pytest.raises(KeyboardInterrupt):
            s.solve()
        found.append("interrupted")

    assert _finalizers_run_unheld(interrupted) == []
    assert found == ["interrupted"] and s._pid is None
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)  # reaped already


def test_a_sigint_landing_as_a_solver_is_dropped_is_raised() -> None:
    """The race itself, made certain: SIGINT is raised from C (no check of pending
    signals after it) and the closed solver dropped at once, so its handler first runs
    in whatever Python code the drop runs. Before the fix that was ``ChildSolver.__del__``
    and the interrupt was lost; now nothing runs there and it reaches the caller."""
    script = textwrap.dedent("""
        import ctypes, functools, operator, signal
        from boardproof.solvers.sat import child
        sigint = functools.partial(getattr(ctypes.CDLL(None), "raise"), signal.SIGINT)
        for _ in range(3):
            s = child.ChildSolver("cryptominisat", [[1, 2], [-1, 2]])
            assert s.solve()
            s.close()
            dropped = [s]
            del s
            try:
                list(map(operator.call, [sigint, dropped.clear]))
                print("lost")
            except KeyboardInterrupt:
                print("interrupted")
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0 and not done.stderr, done.stderr
    assert done.stdout.split() == ["interrupted"] * 3, done.stdout
