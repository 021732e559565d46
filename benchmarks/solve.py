"""Solver benchmarks on Minefield: nodes/s and times (record in benchmarks/RESULTS.md).

Usage: ``.venv/bin/python benchmarks/solve.py [--quick] [--table]``

- the empty-board value of 3x3 and 4x4 (no pie) with alpha-beta (who wins), then
  with exact distances, with df-pn and (3x3) with retrograde enumeration, and with the
  native (C) search, who wins and exact distance (a fresh table each time);
- ``--table``: the 4x4 opening table through the report code (one worker), with the
  Python alpha-beta and with the native search.
"""

from __future__ import annotations

import argparse
import platform
import time
from collections.abc import Callable
from typing import Any

from boardproof import models
from boardproof.models.minefield import native
from boardproof.solvers.api import solve


def timed(label: str, fn: Callable[[], Any]) -> Any:
    start, cpu = time.perf_counter(), time.process_time()
    result = fn()
    seconds = time.perf_counter() - start
    cpu = time.process_time() - cpu
    nodes = getattr(result, "nodes", None)
    # nodes per CPU second: the machine is shared, wall time depends on the load
    rate = f"{nodes / cpu:>9.0f} nodes/cpu-s" if nodes and cpu > 0 else ""
    value = getattr(result, "value", "")
    plies = getattr(result, "plies", None)
    extra = f"{value} {'' if plies is None else f'in {plies} plies'}".strip()
    print(
        f"{label:<42} {seconds:7.2f} s wall {cpu:7.2f} s cpu {nodes or '':>9} nodes "
        f"{rate}  {extra}",
        flush=True,
    )
    return result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="3x3 only")
    parser.add_argument("--table", action="store_true", help="also the 4x4 opening table")
    args = parser.parse_args()
    print(f"python {platform.python_version()}, {platform.machine()}")
    game = models.get("minefield")
    sizes = [3] if args.quick else [3, 4]
    for n in sizes:
        empty = game.start(size=n, pie=False)
        timed(f"{n}x{n} value, alphabeta (who wins)",
              lambda e=empty: solve(e, method="alphabeta", distance=False))  # fmt: skip
        timed(f"{n}x{n} value, alphabeta + exact distance",
              lambda e=empty: solve(e, method="alphabeta"))  # fmt: skip
        timed(f"{n}x{n} value, df-pn", lambda e=empty: solve(e, method="pns"))
        if n == 3:
            timed(f"{n}x{n} value, enumeration", lambda e=empty: solve(e, method="enumerate"))
        if native.available():
            native.reset()
            timed(f"{n}x{n} value, native (who wins)",
                  lambda e=empty: solve(e, method="native", distance=False))  # fmt: skip
            native.reset()
            timed(f"{n}x{n} value, native + exact distance",
                  lambda e=empty: solve(e, method="native"))  # fmt: skip
    if args.table:
        from boardproof.models.minefield.research.openings import build_report

        methods = ["alphabeta"] + (["native"] if native.available() else [])
        for method in methods:
            native.reset()
            start, cpu = time.perf_counter(), time.process_time()
            report = build_report([4], progress=False, method=method)
            seconds = time.perf_counter() - start
            cpu = time.process_time() - cpu
            size = report["sizes"][0]
            print(
                f"{f'4x4 opening table, {method} (1 worker)':<42} {seconds:7.2f} s wall "
                f"{cpu:7.2f} s cpu {size['nodes']:>9} nodes "
                f"{size['nodes'] / cpu:>9.0f} nodes/cpu-s  Black wins after {size['black_wins']}"
            )


if __name__ == "__main__":
    main()
