"""Native against Python ``solve`` on Candy Conquest (record in benchmarks/RESULTS.md).

Usage: ``.venv/bin/python benchmarks/candy_solve.py [--players 2,3,4] [--positions K]
[--plies P | --from-end B] [--max-plies M] [--seconds S] [--no-symmetry-nodes]``

For each player count: ``--positions`` seeded random games stopped after ``--plies``
plies (as ``benchmarks/candy_profile.py``; with ``--from-end``, B to B+3 plies before
their end, where the Python search settles more of them) are solved within ``--max-plies`` plies by
``solve(method="alphabeta", timeout=S)`` and by ``solve(method="native", timeout=S)``
(what ``auto`` runs now), one after the other in one run. Prints each search's nodes, CPU
seconds and nodes per second, and the CPU time both took on the positions both settled
(their answers must be equal: checked). The two count nodes differently (the native search
tests the immediate lines of a node without counting them as nodes; the Python search
counts each), so the time to the same answer is the fairer ratio. Then the native nodes of
the same solves with and without symmetric table keys, from roots that are their own images
(the empty board, c3 alone: only there can a search meet two images of one position) and
from the benchmark positions.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import time
from typing import Any

from candy_profile import position_after

from boardproof import models
from boardproof.models.candy import native as native_candy
from boardproof.solvers.api import solve


def symmetric_starts(players: int) -> list[Any]:
    """Roots that are their own images (the empty board, one candy on c3): only there can
    a search meet two images of one position."""
    start = models.get("candy").start(players=players)
    return [start, start.play("Os@c3")]


def before_end(players: int, back: int, seed: int) -> Any:
    """The position ``back`` plies before the end of a seeded random game (its end is a
    line or nobody able to place; a game shorter than that is replaced by the next seed)."""
    game = models.get("candy")
    while True:
        rng = random.Random(seed)
        line = [game.start(players=players)]
        while line[-1].outcome() is None:
            line.append(line[-1].play(rng.choice(line[-1].legal_moves())))
        if len(line) > back:
            return line[-1 - back]
        seed += 1000


def benchmark_position(players: int, plies: int, back: int | None, i: int) -> Any:
    if back is not None:
        return before_end(players, back + i % 4, 100 * players + i)
    return position_after(players, plies, 100 * players + i)


def rates(
    players: int, count: int, plies: int, max_plies: int, seconds: float, back: int | None
) -> None:
    # the C module's first call sets up its tables (Zobrist keys, 24 MiB of table): not timed
    solve(models.get("candy").start(players=players), method="native", max_plies=1)
    totals = {"alphabeta": [0, 0.0], "native": [0, 0.0]}
    both = {"alphabeta": 0.0, "native": 0.0}
    answers = []
    for i in range(count):
        pos = benchmark_position(players, plies, back, i)
        found = {}
        for method in ("alphabeta", "native"):
            start = time.process_time()
            found[method] = solve(pos, method=method, max_plies=max_plies, timeout=seconds)
            cpu = time.process_time() - start
            totals[method][0] += found[method].nodes
            totals[method][1] += cpu
            found[method].extra["cpu"] = cpu
        py, nat = found["alphabeta"], found["native"]
        settled = py.stopped not in ("time", "nodes") and nat.stopped not in ("time", "nodes")
        if settled:
            assert (py.value, py.winner, py.plies) == (nat.value, nat.winner, nat.plies), pos.fen()
            for method in both:
                both[method] += found[method].extra["cpu"]
        answers.append(f"{nat.value[0]}{nat.plies or ''}" + ("" if settled else "*"))
    (pn, pt), (nn, nt) = totals["alphabeta"], totals["native"]
    ratio = both["alphabeta"] / both["native"] if both["native"] else float("nan")
    print(f"| {players} | {count} | {' '.join(answers)} | {pn:,} | {pt:.1f} | {pn / pt:,.0f} "
          f"| {nn:,} | {nt:.2f} | {nn / nt:,.0f} | {nn / nt / (pn / pt):,.0f}x "
          f"| {both['alphabeta']:.1f} / {both['native']:.3f} = {ratio:,.0f}x "
          f"| {os.getloadavg()[0]:.1f} |", flush=True)  # fmt: skip


def symmetry_nodes(players: int, positions: list[Any], max_plies: int) -> str:
    counts, cpu = [], []
    for symmetry in (True, False):
        nodes = 0
        start = time.process_time()
        for pos in positions:
            nodes += solve(pos, method="native", max_plies=max_plies, symmetry=symmetry).nodes
        counts.append(nodes)
        cpu.append(time.process_time() - start)
    return (f"{counts[0]:,} / {counts[1]:,} ({counts[1] / counts[0]:.2f}x), "
            f"{cpu[0]:.2f} / {cpu[1]:.2f} cpu-s")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", default="2,3,4")
    parser.add_argument("--positions", type=int, default=6)
    parser.add_argument("--plies", type=int, default=16)
    parser.add_argument("--max-plies", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--from-end", type=int, default=None,
                        help="positions B..B+3 plies before the end of seeded games instead")
    parser.add_argument("--no-symmetry-nodes", action="store_true")
    args = parser.parse_args()
    assert native_candy.available(), "the C module is not built"
    counts = [int(p) for p in args.players.split(",")]
    print(f"python {platform.python_version()}, {platform.machine()}, load "
          f"{os.getloadavg()[0]:.1f}; max_plies {args.max_plies}, timeout {args.seconds} s; "
          "answers: w/l/d/u + plies (* = a budget ran out)")  # fmt: skip
    print("\n| players | positions | answers | Python nodes | cpu-s | nodes/s | native nodes "
          "| cpu-s | nodes/s | nodes/s ratio | cpu-s to the same answers | load |")  # fmt: skip
    print("|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---|---:|")
    for players in counts:
        rates(players, args.positions, args.plies, args.max_plies, args.seconds, args.from_end)
    if args.no_symmetry_nodes:
        return
    print("\n| players | native nodes with / without symmetry (ratio), cpu-s: the empty board "
          "and c3 alone, max_plies 6 | the benchmark positions |")  # fmt: skip
    print("|---:|---|---|")
    for players in counts:
        late = [benchmark_position(players, args.plies, args.from_end, i)
                for i in range(args.positions)]  # fmt: skip
        print(f"| {players} | {symmetry_nodes(players, symmetric_starts(players), 6)} "
              f"| {symmetry_nodes(players, late, args.max_plies)} |", flush=True)


if __name__ == "__main__":
    main()
