"""Progress of a run on stderr: a rich bar on a terminal, one line per task otherwise,
with the time elapsed and an estimate of the time left."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any


def eta_text(elapsed: float, done: int, left: int) -> str:
    """The estimated time left when ``done`` units took ``elapsed`` seconds ('' if none).

    >>> eta_text(10.0, 2, 3), eta_text(90.0, 1, 1), eta_text(5.0, 0, 4), eta_text(1.0, 3, 0)
    ('eta 15 s', 'eta 1.5 min', '', '')
    """
    if done <= 0 or left <= 0:
        return ""
    seconds = elapsed / done * left
    if seconds < 1:
        return "eta < 1 s"
    if seconds < 60:
        return f"eta {seconds:.0f} s"
    if seconds < 3600:
        return f"eta {seconds / 60:.1f} min"
    return f"eta {seconds / 3600:.1f} h"


class TaskProgress:
    """Progress on stderr: a rich bar on a terminal, one line per task otherwise (with
    the elapsed time and an estimate of the time left, from the tasks run so far)."""

    def __init__(self, total: int, description: str, enabled: bool, parallel: bool = False,
                 status: Callable[[int], str] | None = None) -> None:  # fmt: skip
        self.total = total
        self.count = 0
        self.computed = 0  # tasks run here (not from the checkpoint): the estimate's base
        self.started = time.perf_counter()
        self.description = description
        self.enabled = enabled
        #: show "running R, re-run K" on every line (a pool or a cluster)
        self.parallel = parallel
        #: the text in brackets, from the tasks done (default "done/total")
        self.status = status or (lambda done: f"{done}/{total}")
        self.custom_status = status is not None
        self._bar: Any = None
        self._task: Any = None
        if enabled and sys.stderr.isatty():
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            # the elapsed time moves even while the first long task runs
            self._bar = Progress(
                TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                TimeElapsedColumn(), TextColumn("eta"), TimeRemainingColumn(),
                transient=False,
            )  # fmt: skip
            self._bar.start()
            self._task = self._bar.add_task(description or "tasks", total=total)

    def start(self, pending: int, checkpoint: str | None, at_most: bool = False,
              chosen: bool = False) -> None:  # fmt: skip
        """Say, before the first task ends, how many tasks run and where they are kept
        (``chosen``: more are chosen as the workers free up)."""
        if not self.enabled or self._bar is not None or not (pending or chosen):
            return
        where = f"; checkpoint {checkpoint}" if checkpoint is not None else ""
        # (a run that stops early has no total: no count in brackets)
        head = "" if at_most or chosen else f"[{self.status(self.count)}] "
        what = f"up to {pending} tasks" if at_most else f"{pending} tasks"
        if chosen:
            what = (f"{pending} tasks, then " if pending else "") + "tasks chosen one at a time"
        print(
            f"{head}{self.description}: {what} started{where}",
            file=sys.stderr,
            flush=True,
        )

    def advance(self, key: str, seconds: float, skipped: bool = False, running: int = 0,
                reruns: int = 0) -> None:  # fmt: skip
        self.count += 1
        if not skipped:
            self.computed += 1
        if not self.enabled:
            return
        shown = running or reruns or (self.parallel and not skipped)
        state = f" (running {running}, re-run {reruns})" if shown else ""
        if self._bar is not None:
            self._bar.update(self._task, advance=1,
                             description=f"{self.description} {key}{state}")  # fmt: skip
        else:
            note = "from checkpoint" if skipped else f"{seconds:.2f}s"
            if not skipped:
                elapsed = time.perf_counter() - self.started
                eta = eta_text(elapsed, self.computed, self.total - self.count)
                if self.custom_status:
                    eta = ""  # the bracket says what is left (e.g. puzzles, not tasks)
                note += f", {elapsed:.1f}s elapsed" + (f", {eta}" if eta else "")
            print(f"[{self.status(self.count)}] {self.description} {key}: {note}{state}",
                  file=sys.stderr)  # fmt: skip

    def note(self, text: str) -> None:
        if self.enabled:
            print(f"{self.description}: {text}", file=sys.stderr)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()
