"""Fit the weights of the native move order (``RULE_ORDER``) on solved 5x5 positions.

Usage: ``.venv/bin/python benchmarks/minefield_move_features.py [--size 5]
[--positions 300] [--seed 18] [--min-stones 6]``

Seeded random games give positions of a legal game (ortho-diagonal rule, as the df-pn
runs search with Theorem O) where the side to move wins. Each candidate move (one that
does not lose at once) is labelled by the plain native alpha-beta: 1 if it wins, else 0.
A logistic regression on the C features (``_minefield.features``: own / other stones
next to the point, orthogonally and diagonally, distance to the own edge and from the
middle, path distance gained and taken) gives the weights, scaled to a largest of 64 and rounded for
``W_ORDER`` in ``minefield.c``. Half of the positions fit, the other half measure: the
mean rank of the first winning move in the point order and in the fitted order.
"""

from __future__ import annotations

import argparse
import random

import numpy as np

from boardproof import models
from boardproof.models.minefield import native
from boardproof.testing.random_play import unfinished_positions

NAMES = ("own orth", "own diag", "other orth", "other diag", "edge dist", "off centre",
         "own gain", "other loss")  # fmt: skip


def samples(n: int, count: int, seed: int, min_stones: int) -> list[tuple[int, int, bool]]:
    game = models.get("minefield", win="orthodiagonal")
    search = native.search_for(n, True, 20)
    found = unfinished_positions(lambda: game.start(size=n, pie=False), count,
                                 random.Random(seed),
                                 plies=lambda rng: rng.randrange(min_stones, n * n))
    return [search.boards(pos) for pos in found]


def labelled(n: int, pos: tuple[int, int, bool]) -> list[tuple[int, tuple[int, ...], int]]:
    """(point, features, wins) of every candidate move; [] if the mover loses."""
    lib = native._native
    me, op, black = pos
    legal = lib.legal(me, op)
    threats = lib.winning(op, not black) & ~me
    rows = []
    for q in (q for q in range(n * n) if legal >> q & 1):
        kid = (op, me | 1 << q, not black)
        if threats & lib.legal(kid[0], kid[1]) & ~(1 << q):
            continue  # loses at once: never searched
        if lib.winning(me, black) >> q & 1:
            wins = 1
        else:
            value, _, _, status = lib.solve(*kid, -1, 1, 0, 0.0, None, 0)
            assert status == 0
            wins = int(value < 0)
        rows.append((q, tuple(lib.features(me, op, black, q)), wins))
    return rows if any(w for _, _, w in rows) else []


def fit(x: np.ndarray, y: np.ndarray, steps: int = 3000, rate: float = 0.5) -> np.ndarray:
    """Logistic regression by gradient descent on standardised features (then undone)."""
    mean, std = x.mean(axis=0), x.std(axis=0) + 1e-9
    z = np.hstack([(x - mean) / std, np.ones((len(x), 1))])
    w = np.zeros(z.shape[1])
    for _ in range(steps):
        p = 1 / (1 + np.exp(-z @ w))
        w -= rate * z.T @ (p - y) / len(y) + 1e-3 * w
    return w[:-1] / std


def first_win_rank(rows: list, weights: np.ndarray | None) -> int:
    order = rows if weights is None else sorted(
        rows, key=lambda r: -float(np.dot(weights, r[1])))  # fmt: skip
    return next(i for i, r in enumerate(order) if r[2])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", type=int, default=5)
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--seed", type=int, default=18)
    parser.add_argument("--min-stones", type=int, default=6)
    args = parser.parse_args()
    n = args.size
    native.reset()
    data = [rows for pos in samples(n, args.positions, args.seed, args.min_stones)
            if (rows := labelled(n, pos))]  # fmt: skip
    train, test = data[::2], data[1::2]
    x = np.array([f for rows in train for _, f, _ in rows], dtype=float)
    y = np.array([w for rows in train for _, _, w in rows], dtype=float)
    weights = fit(x, y)
    ints = np.round(weights * 16 / max(abs(weights).max(), 1e-9) * 4).astype(int)
    print(f"# n={n}, {len(data)} won positions of {args.positions} ({len(x)} training moves, "
          f"{y.mean():.0%} winning), seed {args.seed}")  # fmt: skip
    for name, w, k in zip(NAMES, weights, ints, strict=True):
        print(f"{name:>11}: {w:+.3f}  (scaled: {k:+d})")
    print("W_ORDER = {" + ", ".join(str(int(k)) for k in ints) + "}")
    plain = np.mean([first_win_rank(rows, None) for rows in test])
    fitted = np.mean([first_win_rank(rows, ints.astype(float)) for rows in test])
    print(f"held-out mean rank of the first winning move: point order {plain:.2f}, "
          f"fitted order {fitted:.2f} ({len(test)} positions)")


if __name__ == "__main__":
    main()
