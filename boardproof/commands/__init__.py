"""Command-line commands of the subsystems, one module each.

Each module defines ``register(group)`` that adds its click commands to the
``boardproof`` group (see :data:`boardproof.cli.COMMAND_MODULES`). The helpers
below (option types, quoting) are shared by every command.
"""

from __future__ import annotations

import math
from typing import Any

import click


def quoted(text: str, limit: int = 80) -> str:
    """``repr(text)`` cut to about ``limit`` characters (long inputs stay readable).

    >>> quoted("x" * 200)[-6:], len(quoted("x" * 200)) <= 83
    ("xx...'", True)
    """
    if len(text) <= limit:
        return repr(text)
    return repr(text[: limit - 3] + "...")



class Seconds(click.ParamType):
    """A time limit: a finite number of seconds > 0 (``nan`` and ``inf`` are refused)."""

    name = "seconds"

    def convert(self, value: Any, param: Any, ctx: Any) -> float:
        try:
            seconds = float(value)
        except (TypeError, ValueError):
            self.fail(f"expected a number of seconds > 0, got {quoted(str(value))}", param, ctx)
        if not math.isfinite(seconds) or seconds <= 0:
            self.fail(f"expected a number of seconds > 0, got {quoted(str(value))}", param, ctx)
        return seconds


SECONDS = Seconds()


class Heartbeat:
    """Progress on stderr for a long step that has no finer progress of its own.

    After ``after`` seconds, and every ``every`` seconds then, it writes what is being
    done and the elapsed time: on a terminal on one line that is rewritten, otherwise
    one plain line each time. Use as a context manager around the work.
    """

    def __init__(self, what: str, *, after: float = 2.0, every: float = 5.0) -> None:
        import threading

        self.what = what
        self.after = after
        self.every = every
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._start = 0.0
        self._shown = False

    def __enter__(self) -> Heartbeat:
        import time

        self._start = time.perf_counter()
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        import sys

        self._stop.set()
        self._thread.join()
        if self._shown and sys.stderr.isatty():
            sys.stderr.write("\n")
            sys.stderr.flush()

    def _run(self) -> None:
        import sys
        import time

        wait = self.after
        while not self._stop.wait(wait):
            elapsed = time.perf_counter() - self._start
            line = f"{self.what}: {elapsed:.0f} s elapsed"
            if sys.stderr.isatty():
                sys.stderr.write("\r" + line)
            else:
                sys.stderr.write(line + "\n")
            sys.stderr.flush()
            self._shown = True
            wait = self.every
