"""Puzzles from self-play games: proven puzzles per minute, by game and size (issue #31).

Usage: ``.venv/bin/python benchmarks/puzzles_from_games.py [--games G] [--seed S]
[--case NAME ...] [--iterations LOW-HIGH] [--depth D] [--per-game P] [--workers N]``

For each case (a game, its options and its start: Minefield 13x13 and 15x15, standard and
pinwheel, Carpniches, Candy Conquest with 2, 3 and 4 players, ColleXion): play ``G``
self-play games (as ``boardproof puzzle selfplay``; Candy Conquest with 3-4 players by the
engine's threat-aware policy, ``iter`` then shows its strength range ``cLOW-HIGH``, unless
``--iterations`` is given), mine them (as ``boardproof puzzle
generate --from-games``), then re-verify every puzzle with the rules-only checker (as
``boardproof puzzle check``). Prints the seconds of each phase (wall; and CPU of this
process with one worker), the puzzles found, puzzles per minute of mining alone and of
self-play and mining together (``/min all``: wall clock; ``/min cpu``: the CPU seconds of
this process, steadier on a loaded machine; both with one worker), the check's seconds,
and the load average (1 minute) after the row; ``proof``: the most positions of a
puzzle's proof tree. Mining the same games twice must give the same puzzles (checked,
with one worker).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import time
from typing import Any

from boardproof import models
from boardproof.match.selfplay import SelfPlaySettings, parse_iterations, run_selfplay
from boardproof.puzzles.check import check_puzzle
from boardproof.puzzles.compact import proof_size
from boardproof.puzzles.mining import GameLine, Mining, mine, mining_settings

#: name -> (game, game options, start options, iterations a move, ply limit)
CASES: dict[str, tuple[str, dict[str, Any], dict[str, Any], tuple[int, int], int | None]] = {
    "minefield-13": ("minefield", {}, {"size": 13}, (3, 50), None),
    "minefield-15": ("minefield", {}, {"size": 15}, (3, 50), None),
    "minefield-13-pinwheel": ("minefield", {"variant": "pinwheel"}, {"size": 13}, (3, 50),
                              None),  # fmt: skip
    "minefield-9": ("minefield", {}, {"size": 9}, (3, 50), None),
    "minefield-19": ("minefield", {}, {"size": 19}, (3, 50), None),
    "carpniches": ("carpniches", {}, {}, (20, 300), 300),
    "candy-2": ("candy", {}, {"players": 2}, (100, 1000), None),
    "candy-3": ("candy", {}, {"players": 3}, (100, 1000), None),
    "candy-4": ("candy", {}, {"players": 4}, (100, 1000), None),
    "collexion": ("collexion", {}, {}, (1, 10), None),
}
#: cases played by the engine's threat-aware policy (``SelfPlaySettings.policy``, the range
#: of its strength ``care``) instead of MCTS iterations: Candy Conquest with 3-4 players
#: (/work/notes/results-candy-mining.md)
POLICY: dict[str, tuple[float, float]] = {"candy-3": (0.7, 1.0), "candy-4": (0.7, 1.0)}
DEFAULT_CASES = ("minefield-13", "minefield-15", "minefield-13-pinwheel", "carpniches",
                 "candy-2", "candy-3", "candy-4", "collexion")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--case", action="append", default=None, choices=sorted(CASES))
    parser.add_argument("--iterations", default=None, help="LOW-HIGH (default: the case's)")
    parser.add_argument("--depth", type=int, default=40)
    parser.add_argument("--per-game", type=int, default=3)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    print(f"# {platform.python_version()} {platform.machine()} {dt.date.today()} "
          f"games {args.games} seed {args.seed} depth {args.depth} per-game {args.per_game} "
          f"workers {args.workers}", flush=True)  # fmt: skip
    print(f"{'case':<22} {'iter':>9} {'play s':>7} {'cpu s':>6} {'plies':>6} {'mine s':>7} "
          f"{'cpu s':>6} {'puzzles':>7} {'/min mine':>9} {'/min all':>8} {'/min cpu':>8} "
          f"{'check s':>7} {'proof':>6}  candidates  load",
          flush=True)  # fmt: skip
    for case in args.case or DEFAULT_CASES:
        row(case, args)


def row(case: str, args: argparse.Namespace) -> None:
    name, options, start, iterations, max_plies = CASES[case]
    if args.iterations is not None:
        iterations = parse_iterations(args.iterations)
    policy = None if args.iterations is not None else POLICY.get(case)
    settings = SelfPlaySettings(name, options, start, games=args.games, seed=args.seed,
                                iterations=iterations, max_plies=max_plies,
                                opening_plies=0 if name == "collexion" else 2,
                                policy=policy)  # fmt: skip
    wall, play_cpu = time.perf_counter(), time.process_time()
    records = run_selfplay(settings, workers=args.workers, progress=False)
    play, play_cpu = time.perf_counter() - wall, time.process_time() - play_cpu
    game = models.get(name, **options)
    lines = [GameLine({"record": r["id"]}, game.parse_position(r["start"]), tuple(r["moves"]))
             for r in records]  # fmt: skip
    mining = Mining(depth=args.depth, per_game=args.per_game)
    wall, cpu = time.perf_counter(), time.process_time()
    found = mine(lines, mining_settings(name), mining, workers=args.workers, progress=False)
    spent, cpu = time.perf_counter() - wall, time.process_time() - cpu
    if args.workers == 1:
        again = mine(lines, mining_settings(name), mining, progress=False)
        assert again.puzzles == found.puzzles, "mining the same games twice differs"
    wall = time.perf_counter()
    verdicts = [check_puzzle(p) for p in found.puzzles]
    checked = time.perf_counter() - wall
    failed = [v.ident for v in verdicts if not v.ok]
    assert not failed, f"puzzles that fail the check: {failed}"
    count = len(found.puzzles)
    per_mine = 60 * count / spent if spent else 0.0
    per_all = 60 * count / (spent + play) if spent + play else 0.0
    per_cpu = 60 * count / (cpu + play_cpu) if cpu + play_cpu else 0.0
    plies = sum(len(r["moves"]) for r in records)
    tried = ", ".join(f"{k} {v}" for k, v in sorted(found.counts.items()))
    largest = max((proof_size(p) for p in found.puzzles), default=0)  # tree or strategy
    strength = (f"{iterations[0]:>4}-{iterations[1]:<4}" if policy is None
                else f"{f'c{policy[0]:g}-{policy[1]:g}':>9}")  # fmt: skip
    print(f"{case:<22} {strength} {play:>7.1f} {play_cpu:>6.1f} "
          f"{plies:>6} {spent:>7.1f} {cpu:>6.1f} {count:>7} {per_mine:>9.1f} {per_all:>8.1f} "
          f"{per_cpu:>8.1f} {checked:>7.1f} {largest:>6}  {tried}  {os.getloadavg()[0]:.2f}",
          flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
