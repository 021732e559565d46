"""The native Minefield search on the sizes people play (record in benchmarks/RESULTS.md).

Usage: ``.venv/bin/python benchmarks/minefield_native.py [--rate-positions K]
[--share-positions K] [--seconds S] [--sizes 13,15,19]``

1. nodes per CPU second of the search itself, native (who wins) against the Python
   alpha-beta (``solve(..., method="alphabeta", distance=False)``), on the same
   positions: seeded random games of n x n stopped at the first position with at most
   ``--rate-legal`` legal points (45 by default: on 15x15 and 19x19 the native search
   proves most positions with 30 legal points in ~10 ms, too short for a rate). The
   native search gets a node budget (``--native-nodes``, capped by ``--native-seconds``)
   and a fresh table per position, allocated and cleared before the clock starts; the
   Python search gets ``--python-seconds`` per position (its rate is steady);
2. the share of 13x13 and 15x15 positions with 30 legal points left (seeded random
   games stopped at the first position with at most 30 legal points) that ``solve``
   (the default method, as ``boardproof solve`` runs it) proves within ``--seconds``.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import time
from typing import Any

from boardproof import models
from boardproof.models.minefield import native
from boardproof.solvers.api import solve

GAME = models.get("minefield")


def late(rng: random.Random, n: int, legal: int) -> Any:
    """A seeded random game of n x n up to the first position with <= legal legal points."""
    while True:
        pos = GAME.start(size=n, pie=False)
        while pos.outcome() is None:
            moves = pos.legal_moves()
            if len(moves) <= legal:
                return pos
            pos = pos.play(rng.choice(moves))


def load() -> str:
    """The 1-minute load average, for the table's caption."""
    return f"{os.getloadavg()[0]:.2f}"


def rates(
    sizes: list[int],
    count: int,
    legal: int,
    native_nodes: int,
    seconds: float,
    python_seconds: float,
) -> None:
    print(f"load average at the start: {load()}")
    print("| n | positions | native nodes (proved) | native cpu-s | native nodes/cpu-s "
          "| Python nodes | Python cpu-s | Python nodes/cpu-s | ratio | load |")  # fmt: skip
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for n in sizes:
        rng = random.Random(1000 + n)
        positions = [late(rng, n, legal) for _ in range(count)]
        nat_nodes = py_nodes = proved = 0
        nat_cpu = py_cpu = 0.0
        for pos in positions:
            search = native.search_for(n)
            search._install()  # a fresh table, its memory touched before the clock starts
            start = time.process_time()
            found = search.solve(pos, node_limit=native_nodes, timeout=seconds)
            nat_cpu += time.process_time() - start
            nat_nodes += found.nodes
            proved += found.value != "unknown"
            start = time.process_time()
            result = solve(pos, method="alphabeta", distance=False, timeout=python_seconds)
            py_cpu += time.process_time() - start
            py_nodes += result.nodes
        nat_rate, py_rate = nat_nodes / nat_cpu, py_nodes / py_cpu
        print(f"| {n} | {count} | {nat_nodes:,} ({proved}) | {nat_cpu:.2f} | {nat_rate:,.0f} | "
              f"{py_nodes:,} | {py_cpu:.2f} | {py_rate:,.0f} | {nat_rate / py_rate:,.0f}x "
              f"| {load()} |", flush=True)  # fmt: skip


def share(sizes: list[int], count: int, seconds: float) -> None:
    print("| n | positions (30 legal points left) | proved within "
          f"{seconds:g} s | share | results (w win, l loss, d draw, ? unknown) "
          "| median seconds of the proved | load |")  # fmt: skip
    print("|---|---:|---:|---:|---|---:|---:|")
    for n in sizes:
        rng = random.Random(2000 + n)
        proved, marks, times = 0, [], []
        for _ in range(count):
            pos = late(rng, n, 30)
            native.reset()
            start = time.perf_counter()
            result = solve(pos, timeout=seconds)
            took = time.perf_counter() - start
            marks.append({"win": "w", "loss": "l", "draw": "d"}.get(result.value, "?"))
            if result.value != "unknown":
                proved += 1
                times.append(took)
        times.sort()
        median = f"{times[len(times) // 2]:.2f}" if times else "-"
        print(f"| {n} | {count} | {proved} | {proved / count:.0%} | {''.join(marks)} "
              f"| {median} | {load()} |", flush=True)  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="13,15,19", help="sizes of the rate table")
    parser.add_argument("--share-sizes", default="13,15", help="sizes of the share table")
    parser.add_argument("--rate-positions", type=int, default=4)
    parser.add_argument("--share-positions", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--python-seconds", type=float, default=5.0)
    parser.add_argument("--native-nodes", type=int, default=4_000_000)
    parser.add_argument("--native-seconds", type=float, default=5.0)
    parser.add_argument("--rate-legal", type=int, default=45)
    parser.add_argument("--skip-rates", action="store_true")
    parser.add_argument("--skip-share", action="store_true")
    args = parser.parse_args()
    print(f"python {platform.python_version()}, {platform.machine()}")
    if not native.available():
        raise SystemExit("the C module was not built")
    if not args.skip_rates:
        sizes = [int(s) for s in args.sizes.split(",")]
        rates(sizes, args.rate_positions, args.rate_legal, args.native_nodes,
              args.native_seconds, args.python_seconds)  # fmt: skip
    if not args.skip_share:
        sizes = [int(s) for s in args.share_sizes.split(",")]
        share(sizes, args.share_positions, args.seconds)


if __name__ == "__main__":
    main()
