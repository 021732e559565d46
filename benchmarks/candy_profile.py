"""Where the Python Candy Conquest search spends its time (record in benchmarks/RESULTS.md).

Usage: ``.venv/bin/python benchmarks/candy_profile.py [--players 2,4] [--positions K]
[--plies P] [--seconds S] [--top N]``

For each player count: ``--positions`` seeded random games, each stopped after
``--plies`` plies (or earlier at its end: then the game is replayed with the next seed),
are solved with ``solve(position, method="alphabeta", timeout=--seconds)`` (the Python
search; ``auto`` runs the native one since session 5: ``benchmarks/candy_solve.py``)
under ``cProfile``. Prints the nodes per second and the functions with the most own
time, with the share of the model's rules (move generation, playing a move, the line
test) in the total: what a native move generator alone would save, against a native
search. Then the bulk perft of
the model against the native one (``boardproof.models.candy.native``) on the same
positions: the speed of the C move generator and line test. Last, the question "does the
player to move force a line within ``--win-plies`` plies" on the same positions, by the
Python search (``puzzles.generate.win_within``, alpha-beta) and by the native
``win_within``: the CPU time of each for the same answers (their nodes are counted
differently: the native search tests the immediate wins of a node without counting them).
"""

from __future__ import annotations

import argparse
import cProfile
import os
import platform
import pstats
import random
import time
from typing import Any

from boardproof import models
from boardproof.models.candy import native as native_candy
from boardproof.puzzles.generate import win_within
from boardproof.solvers.api import solve
from boardproof.solvers.search import AlphaBeta
from boardproof.testing.random_play import play_randomly

#: the functions of the model's rules (everything a native move generator would replace)
RULES_FILE = os.path.join("models", "candy", "rules.py")


def position_after(players: int, plies: int, seed: int) -> Any:
    """A seeded random game of ``players`` players after ``plies`` plies, still going."""
    game = models.get("candy")
    while True:
        pos = play_randomly(game.start(players=players), random.Random(seed), plies=plies)
        if pos.outcome() is None:
            return pos
        seed += 1000


def profile(players: int, count: int, plies: int, seconds: float, top: int) -> None:
    positions = [position_after(players, plies, 100 * players + i) for i in range(count)]
    prof = cProfile.Profile()
    nodes, values = 0, []
    start = time.process_time()
    prof.enable()
    for pos in positions:
        result = solve(pos, method="alphabeta", timeout=seconds)
        nodes += result.nodes
        values.append(result.value)
    prof.disable()
    cpu = time.process_time() - start
    stats = pstats.Stats(prof)
    total = stats.total_tt  # type: ignore[attr-defined]
    rows = sorted(stats.stats.items(), key=lambda kv: -kv[1][2])  # type: ignore[attr-defined]
    rules = sum(v[2] for (path, _, _), v in rows if path.endswith(RULES_FILE))
    print(f"\n### {players} players: {count} positions after {plies} plies, "
          f"{seconds:g} s each, load {os.getloadavg()[0]:.2f}")  # fmt: skip
    print(f"values: {' '.join(values)}; {nodes:,} nodes in {cpu:.1f} cpu-s under the "
          f"profiler = {nodes / cpu:,.0f} nodes/s; model rules (rules.py): "
          f"{rules / total:.0%} of the profiled time")  # fmt: skip
    print("\n| function | own s | share | calls |")
    print("|---|---:|---:|---:|")
    for (path, line, name), (_, calls, own, _, _) in rows[:top]:
        where = path.split("boardproof/")[-1] if "boardproof/" in path else os.path.basename(path)
        print(f"| `{where}:{line} {name}` | {own:.2f} | {own / total:.0%} | {calls:,} |")


def perfts(players: list[int], plies: int, depth: int) -> None:
    print("\n| position | depth | leaves | Python s | native s | ratio |")
    print("|---|---:|---:|---:|---:|---:|")
    for k in players:
        for pos in (models.get("candy").start(players=k), position_after(k, plies, 100 * k)):
            start = time.process_time()
            count = pos.perft(depth)
            python = time.process_time() - start
            start = time.process_time()
            assert native_candy.perft(pos, depth) == count
            fast = time.process_time() - start
            print(f"| `{pos.fen()}` | {depth} | {count:,} | {python:.2f} | {fast:.3f} "
                  f"| {python / fast:,.0f}x |")  # fmt: skip


def win_rates(players: list[int], count: int, plies: int, depth: int) -> None:
    print("\n| players | positions | answers | Python nodes | Python cpu-s | native nodes "
          "| native cpu-s | time ratio |")  # fmt: skip
    print("|---:|---:|---|---:|---:|---:|---:|---:|")
    native_candy.install()
    for k in players:
        answers = []
        py_nodes = nat_nodes = 0
        py_cpu = nat_cpu = 0.0
        for i in range(count):
            pos = position_after(k, plies, 100 * k + i)
            mover = pos.to_move
            search = AlphaBeta(pos, player=mover)
            start = time.process_time()
            expected = win_within(search, pos, mover, depth)
            py_cpu += time.process_time() - start
            py_nodes += search.nodes
            raw = tuple(bytes(c) for c in pos.cols)
            found = None
            start = time.process_time()
            for d in range(1, depth + 1):  # as native_candy.win_within, counting the nodes
                result, used, _, _, _ = native_candy._native.win_within(
                    raw, mover, k, mover, d, native_candy.DEFAULT_TT_BITS, 0, 0.0, d > 1
                )
                nat_nodes += used
                if result == 1:
                    found = d
                    break
            nat_cpu += time.process_time() - start
            assert found == expected, pos.fen()
            answers.append(str(found) if found else "-")
        print(f"| {k} | {count} | {' '.join(answers)} | {py_nodes:,} | {py_cpu:.2f} "
              f"| {nat_nodes:,} | {nat_cpu:.3f} | {py_cpu / nat_cpu:,.0f}x |")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", default="2,4")
    parser.add_argument("--positions", type=int, default=3)
    parser.add_argument("--plies", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--top", type=int, default=12)
    parser.add_argument("--perft-depth", type=int, default=3)
    parser.add_argument("--win-plies", type=int, default=3)
    args = parser.parse_args()
    print(f"python {platform.python_version()}, {platform.machine()}")
    for players in (int(p) for p in args.players.split(",")):
        profile(players, args.positions, args.plies, args.seconds, args.top)
    if native_candy.available():
        counts = [int(p) for p in args.players.split(",")]
        perfts(counts, args.plies, args.perft_depth)
        win_rates(counts, args.positions, args.plies, args.win_plies)


if __name__ == "__main__":
    main()
