"""Learn the 3x3 pattern weights (:mod:`~boardproof.models.minefield.native.patterns`) from
self-play games of the native engine, and write them into
:mod:`~boardproof.models.minefield.native.pattern_weights`. One reproducible command:

    .venv/bin/python -m boardproof.models.minefield.native.train_patterns \\
        --sizes 9,13 --games 300,60 --iterations 1000 --jobs 2

Each game starts from a seeded two-stone opening and is played by the default engine
(one tree for both sides, kept from move to move; the seed of game k is k). In every
position the winner of the game had to move in, each legal placement's canonical pattern
is counted as available, and the placement played as played. A pattern's weight is its
smoothed play rate over the average one: ``((played + A r) / (seen + A)) / r`` with ``r``
the overall rate and ``A`` = :data:`SMOOTHING`; patterns seen fewer than
:data:`MIN_SEEN` times are left out (weight 1).
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from boardproof.models.minefield.native.patterns import canonical

SMOOTHING = 20
MIN_SEEN = 50
OUTPUT = Path(__file__).with_name("pattern_weights.py")


def self_play(size: int, index: int, iterations: int) -> tuple[Counter[int], Counter[int]]:
    """``(seen, played)`` canonical pattern counts of the winner's positions of one game."""
    from boardproof.models.minefield.rules import make_game
    from boardproof.solvers.native_mcts import EngineSettings, native_tree

    rng = random.Random(f"train:{size}:{index}")
    position = make_game().start(size=size, pie=False)
    for _ in range(2):
        position = position.play(rng.choice([m for m in position.legal_moves()
                                              if m.is_placement]))  # fmt: skip
    # the games the shipped weights were learned from: no prior from earlier weights
    tree = native_tree(position, EngineSettings(hash_mb=64, seed=index, pattern_prior=0))
    records: list[tuple[int, list[int], int]] = []  # (mover, available, played)
    winner = None
    while tree is not None and position.outcome() is None:
        patterns = dict(tree.native.search.patterns())
        tree.run(iterations=iterations)
        move = tree.best_move()
        code = tree.native.codec.encode(position, move)
        if code in patterns:
            records.append((position.to_move, list(patterns.values()), patterns[code]))
        position = position.play(move)
        diagonal = make_game(win="orthodiagonal").parse_position(position.fen())
        if position.outcome() is None and diagonal.winner() is not None:
            tree = None  # an ortho-diagonal path (Theorem O): the side with the path wins
        else:
            tree.advance(move)
    outcome = position.outcome()
    if outcome is not None:
        winners = sorted(outcome.winners)
        winner = winners[0] if len(winners) == 1 else None
    else:
        diagonal = make_game(win="orthodiagonal").parse_position(position.fen())
        winner = diagonal.winner()
    seen: Counter[int] = Counter()
    played: Counter[int] = Counter()
    for mover, available, chosen in records:
        if mover == winner:
            seen.update(canonical(code) for code in available)
            played[canonical(chosen)] += 1
    return seen, played


def _job(args: tuple[int, int, int]) -> tuple[Counter[int], Counter[int]]:
    return self_play(*args)


def weights(seen: Counter[int], played: Counter[int]) -> dict[int, float]:
    """The weight of each pattern seen at least :data:`MIN_SEEN` times.

    >>> weights(Counter({1: 100, 2: 100, 3: 5}), Counter({1: 20}))
    {1: 1.88, 2: 0.167}
    """
    rate = sum(played.values()) / max(1, sum(seen.values()))
    return {
        code: float(f"{(played[code] + SMOOTHING * rate) / (count + SMOOTHING) / rate:.3g}")
        for code, count in sorted(seen.items())
        if count >= MIN_SEEN
    }


def render(found: dict[int, float], command: str) -> str:
    """The text of :mod:`pattern_weights`."""
    items = [f"{code}:{gamma:g}" for code, gamma in found.items()]
    lines, line = [], ""
    for item in items:
        if len(line) + len(item) + 1 > 90:
            lines.append(line)
            line = ""
        line = f"{line} {item}" if line else item
    if line:
        lines.append(line)
    body = "\n".join(lines)
    return (f'"""Learned 3x3 pattern weights of the native Minefield engine (canonical code:'
            f" weight),\nwritten by::\n\n    {command}\n\n"
            f'Do not edit: rerun the command."""\n\nWEIGHTS = """\n{body}\n"""\n')  # fmt: skip


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="9,13")
    parser.add_argument("--games", default="300,60")
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", default=str(OUTPUT))
    args = parser.parse_args(argv)
    try:
        sizes = [int(x) for x in args.sizes.split(",")]
        games = [int(x) for x in args.games.split(",")]
        if len(sizes) != len(games) or not all(4 <= s <= 26 for s in sizes):
            raise ValueError
    except ValueError:
        parser.error(f"sizes and games: expected lists of the same length (sizes 4..26), "
                     f"got {args.sizes!r} and {args.games!r}")
    tasks = [(size, k, args.iterations)
             for size, count in zip(sizes, games, strict=True) for k in range(count)]  # fmt: skip
    seen: Counter[int] = Counter()
    played: Counter[int] = Counter()
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for done, (s, p) in enumerate(pool.map(_job, tasks, chunksize=4), 1):
            seen.update(s)
            played.update(p)
            if done % 20 == 0:
                print(f"{done}/{len(tasks)} games", file=sys.stderr)
    found = weights(seen, played)
    command = ("python -m boardproof.models.minefield.native.train_patterns\n        "
               f"--sizes {args.sizes} --games {args.games} --iterations {args.iterations}")
    Path(args.out).write_text(render(found, command))
    summary: dict[str, Any] = {"patterns seen": len(seen), "kept": len(found),
                               "positions": sum(played.values())}  # fmt: skip
    print(summary)


if __name__ == "__main__":
    main()
