"""The 64-bit native df-pn at 7x7 and 8x8, where every bit of its 64-bit masks up to 63
can be a point.

A flag for the forced pass once sat at bit 38 of df-pn's move masks: at 7x7 (d6) and 8x8
(g5) a node with that point among its moves was searched as a pass, two such passes in
turn (White's and Black's) made an endless descent, and any attempt on those boards ran
out of stack after a few thousand nodes (the first 7x7 attempts of issue 32 killed every
worker). The late positions the other tests compare seldom had that point free. Here it
is free and legal at every compared position, and the values are checked against the
Python alpha-beta, the rules' own search.
"""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from boardproof import models
from boardproof.models.minefield import native
from boardproof.models.minefield.native import prover
from boardproof.solvers.api import solve

needs_native = pytest.mark.skipif(not native.available(), reason="C module not built")
GAME = models.get("minefield")
#: bit 38 of the 64-bit search (rank * n + file): the point the pass flag shadowed
SHADOWED = {7: "d6", 8: "g5"}


def late_with(n: int, point: str, legal: int, count: int, seed: int) -> list:
    """Random games of size n stopped with at most ``legal`` legal moves left, ``point``
    among them (and the game not over)."""
    rng = random.Random(seed)
    found: list = []
    while len(found) < count:
        pos = GAME.start(size=n, pie=False)
        while pos.outcome() is None:
            moves = pos.legal_moves()
            names = {str(m) for m in moves}
            if len(moves) <= legal:
                if point in names:
                    found.append(pos)
                break
            if point not in names:
                break  # the point must stay free and legal
            choice = rng.choice([m for m in moves if str(m) != point])
            pos = pos.play(choice)
    return found


@needs_native
@pytest.mark.parametrize("n", [7, 8])
def test_df_pn_with_the_shadowed_point_free_agrees_with_alpha_beta(n: int) -> None:
    search = native.search_for(n, False, wide=False)
    for pos in late_with(n, SHADOWED[n], legal=8, count=4, seed=n):
        value = solve(pos, method="alphabeta").value
        assert search.proves(pos, pos.to_move)[0] == (value == "win"), pos.fen()
        assert search.proves(pos, 1 - pos.to_move)[0] == (value == "loss"), pos.fen()
        for rules in ((), ("must3",)):
            found = prover.who_wins(pos, tt_bits=16, table="quad", use=rules)
            winner = pos.to_move if value == "win" else 1 - pos.to_move
            assert found.winner == winner, (pos.fen(), rules)


@needs_native
@pytest.mark.parametrize("n", [7, 8])
def test_a_budgeted_attempt_from_an_entry_runs_out_of_budget_cleanly(n: int) -> None:
    """An entry of the opening table (a black stone at a1) with a budget far below its
    cost: the attempt stops at the budget (in a child process: the bug killed it)."""
    code = ("from boardproof.models.minefield.research import subtrees\n"
            f"r = subtrees.attempt(({n}, 'a1', 'orthogonal', 200000, None))\n"
            "print(r['nodes'], r['winner'], len(r['children']))\n")  # fmt: skip
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr[-500:]
    nodes, winner, children = done.stdout.split()
    assert (int(nodes), winner) == (200000, "None") and int(children) == n * n - 1
