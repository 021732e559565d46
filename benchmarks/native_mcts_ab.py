"""A/B of the native engine's settings on Minefield: engine A against engine B, the same
iterations a move (so the result does not depend on the machine's load), seeded two-stone
openings each played twice with the colours swapped, trees kept from move to move. A game
stops at the first ortho-diagonal path, whose owner wins by Theorem O (as the ladder's
and the fairness maps' games do) in the standard game; ``--variant pinwheel`` or
``cartwheel`` plays that variant to its own end (Theorem O is not proved for them).

    .venv/bin/python benchmarks/native_mcts_ab.py --size 9 --games 200 --iterations 3000 \\
        --a knowledge=1 --b knowledge=0 [--log FILE]

Prints A's score with its 95 % Wilson interval and the Elo difference with its interval.
With ``--log``, the games already in the log are kept and not played again (a run
resumes; ``--games`` is the total).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from boardproof.models.minefield.board import tables
from boardproof.models.minefield.rules import make_game
from boardproof.solvers.native_mcts import EngineSettings, native_tree

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ladder import opening, summary  # noqa: E402


def settings_of(text: str) -> dict[str, str]:
    return dict(item.split("=", 1) for item in text.split(",") if item)


def play(size: int, moves: list[str], a_colour: int, a: dict[str, str], b: dict[str, str],
         iterations: int, seed: int, variant: str = "standard") -> dict[str, Any]:  # fmt: skip
    position = make_game(variant=variant).start(size=size, pie=False)
    for move in moves:
        position = position.play(move)
    played = list(moves)
    trees: dict[int, Any] = {}
    given = {a_colour: a, 1 - a_colour: b}
    board = tables(size)
    while position.outcome() is None:
        mover = position.to_move
        moved = 1 - mover  # Theorem O: an ortho-diagonal path of the side that just moved
        path = board.connected((position.black, position.white)[moved], moved, True)
        if variant == "standard" and path:
            winner = moved
            break
        tree = trees.get(mover)
        if tree is None:
            settings = EngineSettings(hash_mb=64, seed=seed + len(played)).with_options(
                given[mover])
            tree = native_tree(position, settings)
        assert tree is not None, "the native tree is not built"
        tree.run(iterations=iterations)
        move = tree.best_move()
        played.append(str(move))
        for colour in (0, 1):
            kept = trees.get(colour) if colour != mover else tree
            if kept is not None:
                try:
                    kept.advance(move)
                    trees[colour] = kept
                except ValueError:
                    trees.pop(colour, None)
        position = position.play(move)
    else:
        outcome = position.outcome()
        assert outcome is not None
        winners = sorted(outcome.winners)
        winner = winners[0] if len(winners) == 1 else None
    score = 0.5 if winner is None else float(winner == a_colour)
    return {"moves": played, "a_colour": a_colour, "winner": winner, "new_score": score}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--iterations", type=int, default=3000)
    parser.add_argument("--a", default="")
    parser.add_argument("--b", default="")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--log", default=None)
    parser.add_argument("--variant", default="standard")
    args = parser.parse_args()
    a, b = settings_of(args.a), settings_of(args.b)
    lines = []
    if args.log and Path(args.log).exists():
        with open(args.log) as logged:
            lines = [json.loads(text) for text in logged if text.strip()][: args.games]
    for game in range(len(lines), args.games):
        line = play(args.size, opening(args.size, game // 2, args.seed), game % 2, a, b,
                    args.iterations, args.seed * 1_000_003 + game, args.variant)  # fmt: skip
        lines.append(line)
        if args.log:
            with open(args.log, "a") as out:
                out.write(json.dumps({"game": game, **line}) + "\n")
        if (game + 1) % 10 == 0:
            print(f"{game + 1} games: {summary(lines)}", file=sys.stderr)
    print(f"A = {args.a or 'defaults'}, B = {args.b or 'defaults'}, {args.size}x{args.size} "
          f"{args.variant}, "
          f"{args.iterations} iterations a move: {summary(lines)}")  # fmt: skip


if __name__ == "__main__":
    main()
