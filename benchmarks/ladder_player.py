"""One engine of the ladder (benchmarks/ladder.py), run with the build to measure on
``PYTHONPATH``: today's or an old commit's ``boardproof``. It reads commands on standard
input and answers one line each:

- ``new GAME OPTIONS_JSON START_JSON`` starts a game (``ok``);
- ``play MOVE`` plays a move (``ok``);
- ``genmove SECONDS SEED`` thinks for SECONDS with SEED, plays its move and prints it;
- ``quit``.

It calls the build's own ``analyse`` (the anytime engine of ``boardproof analyse``), and
keeps its tree from move to move when the build can (``analyse(tree=...)``), as ``boardproof
gtp`` does. Written against the API every build since the game-package redesign has.
"""

from __future__ import annotations

import inspect
import json
import sys
from typing import Any


def follow(tree: Any, move: Any) -> Any:
    """The tree moved along with ``move``, or None when it cannot follow (a native tree
    whose root is over by Theorem O: the next ``analyse`` grows a tree of its choice)."""
    if tree is None:
        return None
    try:
        tree.advance(move)
    except ValueError:
        return None
    return tree


def main() -> None:
    from boardproof import models
    from boardproof.solvers.analyse import analyse

    keeps_tree = "tree" in inspect.signature(analyse).parameters
    position: Any = None
    tree: Any = None
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "quit":
            return
        if words[0] == "new":
            game = models.get(words[1], **json.loads(words[2]))
            position = game.start(**json.loads(words[3]))
            tree = None
            answer = "ok"
        elif words[0] == "play":
            move = position.parse_move(words[1])
            tree = follow(tree, move)
            position = position.play(move)
            answer = "ok"
        elif words[0] == "genmove":
            extra = {"tree": tree} if keeps_tree and tree is not None else {}
            found = analyse(position, seconds=float(words[1]), seed=int(words[2]), multipv=1,
                            proof=False, **extra)  # fmt: skip
            move = found.best_move
            if move is None:  # (an old build can give none on a proved loss): any move
                move = position.legal_moves()[0]
                sys.stderr.write(f"no best move at {position.fen()}: played {move}\n")
            tree = getattr(found, "tree", None) if keeps_tree else None
            if tree is not None and not hasattr(tree, "advance"):
                tree = None
            tree = follow(tree, move)
            position = position.play(move)
            answer = str(move)
        else:
            answer = f"? unknown command {words[0]}"
        sys.stdout.write(answer + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
