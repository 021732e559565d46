"""Executor benchmark: speed-up with 2 workers against 1, per back end (RESULTS.md).

Usage: ``.venv/bin/python benchmarks/cluster.py [--job JOB ...] [--backend B ...]
[--sizes 2-16] [--puzzles 8]``

Jobs: ``openings`` (the 4x4 opening table, ``build_report([4])``), ``openings-ab`` (the
same with the Python alpha-beta: heavier tasks), ``verify`` (``minefield-no-draw``,
``--sizes``, no certificates, no exhaustive walk), ``puzzles`` (``--puzzles`` Minefield
puzzles, default 8, seed 1) and ``overhead`` (200 empty tasks: the scheduling cost per
task). Back ends:
``pool`` (``--workers 1`` then ``2``) and ``dask`` (``--scheduler local:1`` then
``local:2``; the cluster start is timed apart). Every job's result is checked to be the
same on every back end. Prints wall seconds, the speed-up and the load average.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import time
from collections.abc import Callable
from typing import Any

from boardproof.jobs.executor import Executor


def noop(x: int) -> int:
    return x


def job_openings(executor: Executor, method: str = "auto") -> Any:
    from boardproof.models.minefield.research.openings import build_report

    report = build_report([4], progress=False, executor=executor, method=method)
    return {k: v for k, v in report.items() if k != "timings"}


def job_verify(executor: Executor, sizes: list[int]) -> Any:
    from boardproof.models.minefield.research import claims

    result = claims.verify("minefield-no-draw", sizes, progress=False, exhaustive_max=0,
                           executor=executor)  # fmt: skip
    return [(row["n"], row["holds"], [s["result"] for s in row["steps"]])
            for row in result["sizes"]]  # fmt: skip


def job_puzzles(executor: Executor, count: int = 8) -> Any:
    from boardproof.puzzles.generate import generate

    return [p["position"] for p in generate("minefield", count, seed=1, progress=False,
                                            executor=executor).puzzles]  # fmt: skip


def job_overhead(executor: Executor) -> Any:
    return executor.run(noop, [(f"t{i:03d}", i) for i in range(200)], progress=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--job", action="append", default=None,
                        choices=["openings", "openings-ab", "verify", "puzzles", "overhead"])
    parser.add_argument("--backend", action="append", default=None, choices=["pool", "dask"])
    parser.add_argument("--sizes", default="2-16")
    parser.add_argument("--puzzles", type=int, default=8, help="puzzles of the puzzles job")
    args = parser.parse_args()
    from boardproof.models.minefield.research.claims import parse_sizes

    sizes = parse_sizes(args.sizes)
    jobs: dict[str, Callable[[Executor], Any]] = {
        "openings": job_openings,
        "openings-ab": lambda e: job_openings(e, "alphabeta"),
        "verify": lambda e: job_verify(e, sizes),
        "puzzles": lambda e: job_puzzles(e, args.puzzles),
        "overhead": job_overhead,
    }
    now = dt.datetime.now(dt.UTC)
    print(f"# {platform.python_version()} {platform.machine()} {now:%Y-%m-%d %H:%M} UTC, "
          f"{os.cpu_count()} cores", flush=True)  # fmt: skip
    print(f"{'job':<12} {'backend':<8} {'1 worker s':>10} {'2 workers s':>11} {'speed-up':>8} "
          f"{'start s':>7}  load (1 min) before/after", flush=True)  # fmt: skip
    for name in args.job or ["overhead", "openings", "puzzles", "verify"]:
        reference = None
        for backend in args.backend or ["pool", "dask"]:
            times, starts = [], []
            load_before = os.getloadavg()[0]
            for workers in (1, 2):
                executor = (Executor(scheduler=f"local:{workers}") if backend == "dask"
                            else Executor(workers=workers))  # fmt: skip
                with executor:
                    start = time.perf_counter()
                    if backend == "dask":
                        executor._connect()  # the cluster start, timed apart
                    starts.append(time.perf_counter() - start)
                    if backend == "pool" and workers > 1:  # spawn the pool's processes too
                        executor.run(noop, [("a", 1), ("b", 2)], progress=False)
                    start = time.perf_counter()
                    result = jobs[name](executor)
                    times.append(time.perf_counter() - start)
                text = json.dumps(result, sort_keys=True)
                assert reference is None or text == reference, f"{name}: results differ"
                reference = text
            note = ""
            if name == "overhead":
                note = (f"  per task: {1000 * times[0] / 200:.2f} / "
                        f"{1000 * times[1] / 200:.2f} ms")
            print(f"{name:<12} {backend:<8} {times[0]:>10.2f} {times[1]:>11.2f} "
                  f"{times[0] / times[1]:>8.2f} {max(starts):>7.2f}  "
                  f"{load_before:.1f}/{os.getloadavg()[0]:.1f}{note}", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
