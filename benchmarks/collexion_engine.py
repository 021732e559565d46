"""ColleXion's turn engine against the one-ply search, with any player count and variant.

Run::

    .venv/bin/python benchmarks/collexion_engine.py [--players P] [--games N]
        [--iterations I] [--variant V] [--engine auto|python] [--depth D] [--log FILE]

The engine (``analyse`` with ``--iterations`` a turn, no exact step, as
``benchmarks/engine.py match``: ``auto`` is the turn search of
:mod:`boardproof.models.collexion.turnsearch`, ``python`` the generic MCTS it replaces)
sits in one seat, the depth-limited alpha-beta of ``solvers/bestturn.py`` (``--depth``,
default 1: the one-ply search, a seeded random choice among its equal best turns) in
every other; the engine takes each seat equally often. Game ``i`` starts from the heap of
seed ``i // P`` (``--variant``, default ``base``; 4 players need ``powers``, ``expert``
or ``teams``). The row is the one of ``benchmarks/engine.py match`` (A's score: a win 1,
a shared win 1/k; its 95 % Wilson interval; the fair share 1/P), and ``--log`` keeps
every game as a JSON line that ``benchmarks/engine.py summary`` reads; a run with the same
settings and ``--log`` plays only the games its log does not hold yet, and its row counts
them all (a long run can be cut into chunks); the CPU seconds a turn of each side count
the games played in this run.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from engine import AlphaBetaPlayer, header, play_game, wilson  # noqa: E402

from boardproof import models  # noqa: E402
from boardproof.models.base import Position  # noqa: E402
from boardproof.solvers.analyse import analyse  # noqa: E402


class Engine:
    """``analyse`` with ``iterations`` a turn and the tree ``engine`` (a seed per game)."""

    def __init__(self, iterations: int, engine: str, seed: int) -> None:
        self.iterations, self.engine, self.base = iterations, engine, seed
        self.seed = seed
        label = "turn search" if engine == "auto" else "generic MCTS"
        self.name = f"{label} {iterations} it"
        self.cpu = 0.0
        self.turns = 0

    def reseed(self, game: int) -> None:
        self.seed = self.base + 1000 * game

    def choose(self, pos: Position) -> Any:
        before = time.process_time()
        found = analyse(pos, iterations=self.iterations, seed=self.seed, exact=False,
                        proof=False, multipv=1, engine=self.engine)  # fmt: skip
        self.cpu += time.process_time() - before
        self.turns += 1
        return found.best_move


class Timed:
    """A player whose CPU time per turn is counted (the same name)."""

    def __init__(self, player: Any) -> None:
        self.player, self.name = player, player.name
        self.cpu = 0.0
        self.turns = 0

    def reseed(self, game: int) -> None:
        self.player.reseed(game)

    def choose(self, pos: Position) -> Any:
        before = time.process_time()
        move = self.player.choose(pos)
        self.cpu += time.process_time() - before
        self.turns += 1
        return move


def logged(log: str | None, settings: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """The games of ``log`` played with ``settings`` (players, variant, A, B), by index."""
    if log is None or not os.path.exists(log):
        return {}
    with open(log, encoding="utf-8") as lines:
        records = [json.loads(line) for line in lines if line.strip()]
    return {r["index"]: r for r in records
            if all(r.get(key) == value for key, value in settings.items())}  # fmt: skip


def run(players: int, games: int, iterations: int, variant: str, engine: str, depth: int,
        log: str | None) -> None:  # fmt: skip
    header()
    a, b = Engine(iterations, engine, 1), Timed(AlphaBetaPlayer(depth, 3))
    game = models.get("collexion")
    wins = shared = lost = plies = 0
    share = 0.0
    start = time.perf_counter()
    done = logged(log, {"players": players, "variant": variant, "A": a.name, "B": b.name})
    out = open(log, "a", encoding="utf-8") if log else None  # noqa: SIM115 - for the run
    for index in range(games):
        pos = game.start(seed=index // players, players=players, variant=variant)
        seat = index % players
        if index in done:
            winners, moves = frozenset(done[index]["winners"]), done[index]["moves"]
        else:
            seats: list[Any] = [b] * players
            seats[seat] = a
            a.reseed(index)
            b.reseed(index)
            winners, moves = play_game(pos, seats)
        plies += len(moves)
        if winners == {seat}:
            wins += 1
            share += 1.0
        elif seat in winners or not winners:
            shared += 1
            share += 1.0 / (len(winners) or players)
        else:
            lost += 1
        if out is not None and index not in done:
            record = {"game": "collexion", "players": players, "index": index, "A": a.name,
                      "B": b.name, "seat_A": seat, "start": pos.fen(), "moves": moves,
                      "winners": sorted(winners), "variant": variant}  # fmt: skip
            out.write(json.dumps(record) + "\n")
            out.flush()
        print(f"  {index + 1}/{games} games, A {share:g}, {time.perf_counter() - start:.0f} s",
              file=sys.stderr)  # fmt: skip
    if out is not None:
        out.close()
    low, high = wilson(round(share), games)
    print(
        "| players | variant | A | B (every other seat) | games | A wins | shared | A lost "
        "| A score | 95% interval | fair share | plies/game | A CPU s/turn | B CPU s/turn | s |"
    )
    print("|---:|---|---|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|")
    print(f"| {players} | {variant} | {a.name} | {b.name} | {games} | {wins} | {shared} | {lost} "
          f"| {100 * share / games:.0f}% | {100 * low:.0f}-{100 * high:.0f}% | "
          f"{100 / players:.0f}% | {plies / games:.0f} | {a.cpu / max(a.turns, 1):.2f} | "
          f"{b.cpu / max(b.turns, 1):.2f} | {time.perf_counter() - start:.0f} |")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--iterations", type=int, default=20)
    parser.add_argument("--variant", default="base")
    parser.add_argument("--engine", choices=("auto", "python"), default="auto")
    parser.add_argument("--depth", type=int, default=1)
    parser.add_argument("--log", default=None, help="append one JSON line per game here")
    args = parser.parse_args()
    run(args.players, args.games, args.iterations, args.variant, args.engine, args.depth,
        args.log)  # fmt: skip


if __name__ == "__main__":
    main()
