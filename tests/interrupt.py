"""Ctrl-C for the tests: start a command, wait for its first progress line, send SIGINT."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time


def interrupt_after_progress(args: list[str], first: str, timeout: float = 60) -> tuple[
    int, str, str, float
]:
    """Run ``boardproof ARGS``; once its first stderr line (which must start with
    ``first``: the work is running) is out, send SIGINT. Returns the exit status, stdout,
    stderr after that line, and the seconds the command took to stop."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "boardproof.cli", *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )  # fmt: skip
    assert proc.stderr is not None
    line = proc.stderr.readline()
    assert line.startswith(first), line
    began = time.perf_counter()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=timeout)
    return proc.returncode, out, err, time.perf_counter() - began
