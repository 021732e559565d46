"""Candy Conquest benchmarks: perft leaves/s and win-in-N proof times.

Perft runs ``position.perft(depth)`` (bulk counting of the last ply on mutable
columns) from the empty 2-player board and from crowded mid-game positions.
The proof part solves pinned forced-win positions with the shared solver
(``boardproof.solvers.api.solve``; skipped when it is not installed), with and
without the Candy placement bound when the solver accepts a prune hook.

Usage::

    .venv/bin/python benchmarks/candy.py [--repeat N] [--no-solve]
"""

from __future__ import annotations

import argparse
import platform
import time

from boardproof.models.candy import GAME

PERFT_CASES = (
    ("empty 2p", ".,.,.,.,./.,.,.,.,./.,.,.,.,./.,.,.,.,./.,.,.,.,. 1 2", 3),
    (
        "crowded 2p (30 plies)",
        "2Ox,1xS,1Sx1Xs,2xS2sX,2So1Os/1sX,1Xo2Ox,1sX,1Xo,2xS/1So,2sX,2Ox,1sO,1Sx/"
        "2oX2xS,1Xo,2xS,.,2sO/.,2xO2oS1sO2oX,1Xo,.,1Xs 1 2",
        4,
    ),
    (
        "crowded 4p (30 plies)",
        ".,3sO,3So1Os,.,./1oS,4Os,3xS,1So4Ox,1xS/4Ox1Xo,3xO4oS,3Ox,.,1Os2So/"
        "2oS,1Ox4Xs2So,4xS4sX,2Os,2xS/2Xs,1sX,2Sx3Xo,3oX,2Xs 3 4",
        3,
    ),
)



def bench_perft(repeat: int) -> None:
    for name, text, depth in PERFT_CASES:
        pos = GAME.parse_position(text)
        best = float("inf")
        leaves = 0
        for _ in range(repeat):
            start = time.perf_counter()
            leaves = pos.perft(depth)
            best = min(best, time.perf_counter() - start)
        print(
            f"perft {name:<24} depth {depth}: {leaves:>10,} leaves in {best:7.3f} s = "
            f"{leaves / best:>10,.0f} leaves/s"
        )


def _tests_path() -> None:
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))


def bench_solve() -> None:
    """Proof time of the shared solver on the pinned forced wins of the tests."""
    try:
        from boardproof.solvers.api import solve
    except ImportError:
        print("solve: boardproof.solvers.api is not available; skipped")
        return
    _tests_path()
    from test_candy_solve import COALITION_CASES, WIN_CASES

    total = 0.0
    for name, text, plies in WIN_CASES:
        pos = GAME.parse_position(text)
        start = time.perf_counter()
        result = solve(pos, max_plies=plies + 2)
        seconds = time.perf_counter() - start
        total += seconds
        print(
            f"solve {name:<6} {result.value} in {result.plies} plies, "
            f"{result.nodes:>8,} nodes, {seconds:7.3f} s ({result.method})"
        )
    print(f"solve total {total:.3f} s for {len(WIN_CASES)} 2-player wins in 3")
    for name, text, plies in COALITION_CASES:
        pos = GAME.parse_position(text)
        start = time.perf_counter()
        result = solve(pos, max_plies=plies)
        seconds = time.perf_counter() - start
        print(
            f"solve {name:<6} {result.value} in {result.plies} plies against the coalition, "
            f"{result.nodes:>8,} nodes, {seconds:7.3f} s ({result.method})"
        )


def bench_bound() -> None:
    """A plain whole-tree proof of the same wins, with and without the placement bound."""
    _tests_path()
    from test_candy_solve import WIN_CASES

    from boardproof.models.candy.bound import prune

    def proved(pos: object, player: int, plies: int, cut: bool, nodes: list[int]) -> bool:
        nodes[0] += 1
        if plies <= 0 or pos.outcome() is not None:  # type: ignore[attr-defined]
            return False
        if cut and prune(pos, plies, player):  # type: ignore[arg-type]
            return False
        mine = pos.to_move == player  # type: ignore[attr-defined]
        for move in pos.legal_moves():  # type: ignore[attr-defined]
            child = pos.play(move)  # type: ignore[attr-defined]
            outcome = child.outcome()
            if outcome is not None:
                value = player in outcome.winners
            else:
                value = proved(child, player, plies - 1, cut, nodes)
            if value == mine:
                return mine
        return not mine

    for cut in (False, True):
        nodes = [0]
        start = time.perf_counter()
        for _, text, plies in WIN_CASES:
            pos = GAME.parse_position(text)
            assert proved(pos, pos.to_move, plies, cut, nodes)
        seconds = time.perf_counter() - start
        label = "with the bound   " if cut else "without the bound"
        print(f"plain proof {label}: {nodes[0]:>8,} nodes, {seconds:7.3f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="best of N runs (default 3)")
    parser.add_argument("--no-solve", action="store_true", help="perft only")
    args = parser.parse_args()
    print(f"python {platform.python_version()}, best of {args.repeat}")
    bench_perft(args.repeat)
    if not args.no_solve:
        bench_solve()
        bench_bound()


if __name__ == "__main__":
    main()
