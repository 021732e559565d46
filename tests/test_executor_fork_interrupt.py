"""A Ctrl-C that lands while the process pool forks a worker is not lost.

The interpreter runs the at-fork hooks (logging's among them) in the parent after a fork;
a KeyboardInterrupt raised inside one is printed as "Exception ignored" and swallowed, so
an interrupt at that moment used to let the run go on to the end with exit status 0
(found by the fairness campaign's Ctrl-C test). The hook below sends the SIGINT exactly
there, once.
"""

from __future__ import annotations

import os
import signal

import pytest

from boardproof.jobs.executor import Executor

#: set to arm the hook for the next fork of this process (it disarms itself)
ARMED: list[bool] = []


def _interrupt_in_fork_hook() -> None:
    if ARMED:
        ARMED.clear()
        os.kill(os.getpid(), signal.SIGINT)  # the handler runs here, inside the hook


os.register_at_fork(after_in_parent=_interrupt_in_fork_hook)


def _square(x: int) -> int:
    return x * x


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")  # the hook's
def test_an_interrupt_during_the_pools_fork_stops_the_run() -> None:
    executor = Executor(workers=2)
    try:
        ARMED.append(True)
        with pytest.raises(KeyboardInterrupt):
            executor.run(_square, [(f"t{k}", k) for k in range(6)])
        assert not ARMED  # the hook fired: a fork happened with the signal in it
    finally:
        ARMED.clear()
        executor.close()


def test_the_pool_runs_as_before_without_an_interrupt() -> None:
    executor = Executor(workers=2)
    try:
        found = executor.run(_square, [(f"t{k}", k) for k in range(6)])
    finally:
        executor.close()
    assert dict(found) == {f"t{k}": k * k for k in range(6)}
