"""Ctrl-C during a two-worker openings run, again and again: how many runs end with a
traceback after ``interrupted`` (the pool's exit race fixed in session 7; see
``Executor._stop_pool``).

Usage: ``.venv/bin/python benchmarks/openings_interrupt.py [--runs 16] [--delay 3]``

Each run starts ``boardproof openings minefield --sizes 5 --workers 2 --budget 20000000
--budget-from 5`` (both workers busy with budgeted attempts), sends SIGINT after ``delay``
seconds plus a varying fraction, and checks the exit status (130) and stderr.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=16)
    parser.add_argument("--delay", type=float, default=3.0)
    args = parser.parse_args()
    command = str(Path(sys.executable).parent / "boardproof")
    tracebacks, codes = 0, []
    for i in range(args.runs):
        with tempfile.TemporaryDirectory() as folder:
            child = subprocess.Popen(
                [command, "openings", "minefield", "--sizes", "5", "--workers", "2",
                 "--budget", "20000000", "--budget-from", "5", "--out",
                 os.path.join(folder, "o"), "--checkpoint", os.path.join(folder, "j.jsonl")],
                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
            )  # fmt: skip
            time.sleep(args.delay + 0.37 * (i % 5))
            child.send_signal(signal.SIGINT)
            _, err = child.communicate()
        codes.append(child.returncode)
        if "Traceback" in err or "Exception ignored" in err:
            tracebacks += 1
            print(f"run {i}: exit {child.returncode}\n{err[-800:]}", flush=True)
    print(f"tracebacks: {tracebacks} of {args.runs}; exit statuses: {sorted(set(codes))}")


if __name__ == "__main__":
    main()
