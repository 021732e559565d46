"""Make the large-board puzzle fixtures of the browser tests (tests/data/puzzle-minefield-*.jsonl).

A seeded greedy random playout on an empty N x N board (rulebook win, no pie rule) is
played to its end; the positions 3 and 5 plies before the end, with the eventual winner
to move, are proved by the puzzle generator's own checks
(:func:`boardproof.puzzles.generate.evaluate`: a win in N plies, every other first move
refuted, a proof tree) until one is a puzzle; it gets its themes and its measured
difficulty, and ``boardproof puzzle check`` re-verifies the file. Deterministic: the same
size and seed give the same file.

    .venv/bin/python scripts/puzzle_fixtures.py 15 tests/data/puzzle-minefield-15x15.jsonl
"""

from __future__ import annotations

import random
import sys
from dataclasses import replace

from boardproof import models
from boardproof.puzzles.difficulty import with_difficulty
from boardproof.puzzles.generate import evaluate, playout, settings_for
from boardproof.puzzles.store import write_puzzles
from boardproof.puzzles.themes import with_themes

#: the generator's settings with room for a large board
SETTINGS = replace(settings_for("minefield"), root_nodes=200_000, check_nodes=600_000,
                   proof_nodes=200_000, decoy_nodes=20_000, timeout=None)  # fmt: skip


def fixture(size: int, seed: int = 0, games: int = 50) -> dict:
    """The first puzzle of the seeded playouts on a ``size`` x ``size`` board."""
    game = models.get("minefield")
    rng = random.Random(f"{size}x{size}-fixture:{seed}")
    for number in range(games):
        line = playout(game.start(size=size, pie=False), rng)
        if line is None:
            continue
        end = len(line) - 1
        for offset in (3, 5):
            pos = line[end - offset][0]
            if pos.to_move != line[end - 1][0].to_move:
                continue
            puzzle, _reason = evaluate(pos, SETTINGS, "minefield", {})
            if puzzle is not None:
                source = {"playout": f"{size}x{size}-fixture:{seed}", "game": number,
                          "ply": end - offset,
                          "line": [str(m) for _, m in line[: end - offset]]}  # fmt: skip
                puzzle = {"id": f"minefield-{size}x{size}-fixture", **puzzle,
                          "date": "2026-12-01", "source": source}  # fmt: skip
                return with_difficulty(with_themes(puzzle))
    raise SystemExit(f"no puzzle in {games} playouts")


if __name__ == "__main__":
    write_puzzles(sys.argv[2], [fixture(int(sys.argv[1]))])
