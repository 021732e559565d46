"""ColleXion's C kernels against the Python code they replace: CPU seconds, same results.

Usage: ``.venv/bin/python benchmarks/collexion_native.py [--games G] [--seed S] [--nodes N]``

Positions: the last 14 of ``G`` seeded self-play games (1-10 iterations, as the mining
benchmark plays them) and 36 seeded endgames (7, 9 and 11 pieces). Rows: the turn ranking
(``evaluation.ranked_turns`` against ``native.ranked_turns``, every candidate made; and
``native.ranked_sequence``, candidates made as read, as the turn search reads them) and the
puzzle evaluation (``puzzles.evaluate_plain`` against ``puzzles.evaluate``, ``N`` nodes).
Each row asserts that both give the same results.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from typing import Any

from boardproof.match.selfplay import SelfPlaySettings, play_game
from boardproof.models import get
from boardproof.models.collexion import native
from boardproof.models.collexion.endgames import endgame
from boardproof.models.collexion.evaluation import WEIGHTS, ranked_turns
from boardproof.models.collexion.puzzles import ScoreSettings, evaluate, evaluate_plain
from boardproof.puzzles.mining import GameLine


def positions(games: int, seed: int) -> list[Any]:
    settings = SelfPlaySettings("collexion", games=games, seed=seed, iterations=(1, 10),
                                opening_plies=0)  # fmt: skip
    game = get("collexion")
    found = []
    for index in range(games):
        record = play_game((settings, index))
        line = GameLine({}, game.parse_position(record["start"]), tuple(record["moves"]))
        found += line.positions()[-15:-1]
    return found + [endgame(s, size) for s in range(12) for size in (7, 9, 11)]


def timed(function: Callable[[Any], Any], items: list[Any]) -> tuple[float, list[Any]]:
    start = time.process_time()
    found = [function(item) for item in items]
    return time.process_time() - start, found


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--nodes", type=int, default=10_000)
    args = parser.parse_args()
    assert native.available(), "the C module is not built"
    items = positions(args.games, args.seed)
    print(f"# {len(items)} positions (games {args.games}, seed {args.seed}), "
          f"load {os.getloadavg()[0]:.2f}")  # fmt: skip
    plain_s, plain = timed(lambda pos: ranked_turns(pos, WEIGHTS), items)
    fast_s, fast = timed(lambda pos: native.ranked_turns(pos, WEIGHTS), items)
    lazy_s, lazy = timed(lambda pos: native.ranked_sequence(pos, WEIGHTS), items)
    assert fast == plain and [list(x or []) for x in lazy] == plain
    count = sum(len(x) for x in plain)
    print(f"ranking ({count} candidates): plain {plain_s:.3f} s, C {fast_s:.3f} s, "
          f"C read lazily {lazy_s:.3f} s")  # fmt: skip
    settings = ScoreSettings(root_nodes=args.nodes)
    plain_s, plain = timed(lambda pos: evaluate_plain(pos, settings), items)
    fast_s, fast = timed(lambda pos: evaluate(pos, settings), items)
    assert fast == plain
    puzzles = sum(1 for puzzle, _ in plain if puzzle is not None)
    print(f"puzzle evaluation ({args.nodes} nodes, {puzzles} puzzles): plain {plain_s:.2f} s, "
          f"C {fast_s:.3f} s")  # fmt: skip


if __name__ == "__main__":
    main()
