import signal
import sys
from pathlib import Path

# A test suite started in the background by a non-interactive shell (`make test &`,
# `nohup`) inherits SIGINT ignored, and so would every command the tests start: Python
# then installs no KeyboardInterrupt handler and the Ctrl-C tests (a real SIGINT to a
# child process) see the command finish instead. Handle SIGINT here, so that the children
# start with the default disposition, as under a terminal.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# make the naive reference implementations (tests/naive_*.py) importable
sys.path.insert(0, str(Path(__file__).parent))

import pytest  # noqa: E402

from boardproof.cli import main  # noqa: E402


@pytest.fixture
def cli_run(capsys):
    """Run the command line in-process: returns (status, stdout, stderr)."""

    def run(*args: str) -> tuple[int, str, str]:
        try:
            status = main(list(args))
        except SystemExit as done:
            status = done.code if isinstance(done.code, int) else 1
        out, err = capsys.readouterr()
        return status, out, err

    return run


@pytest.fixture
def ctrl_c_after_saves():
    """``with ctrl_c_after_saves(n):`` a KeyboardInterrupt right after the n-th task result
    is saved to a JSON Lines checkpoint (in the parent process, whatever runs the tasks):
    the checkpoint then holds exactly n tasks."""
    import contextlib

    from boardproof.jobs.checkpoints import JournalCheckpoint

    @contextlib.contextmanager
    def interrupting(count: int):
        saved = JournalCheckpoint.save
        seen = [0]

        def save(self, key, result):
            saved(self, key, result)
            seen[0] += 1
            if seen[0] == count:
                raise KeyboardInterrupt

        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(JournalCheckpoint, "save", save)
            yield

    return interrupting


@pytest.fixture
def counting(monkeypatch):
    """Every budgeted attempt a run makes, as its argument tuple (``attempt_counting``)."""
    from attempt_counting import CALLS, counted

    from boardproof.models.minefield.research import subtrees

    CALLS.clear()
    monkeypatch.setattr(subtrees, "attempt", counted)
    yield CALLS
    CALLS.clear()
