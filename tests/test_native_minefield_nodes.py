"""The wide native Minefield search searches the same tree as before its speed-ups.

Budgeted searches on every wide size 9..26 (both win rules, two depths of seeded random
games; alpha-beta in both modes, with the blocked-path bound, with a ply horizon and with
enhanced transposition cutoffs on some; df-pn for both sides) must give the values, best
moves, node counts and table/cut counters recorded in ``tests/data/minefield_wide_nodes.json``.
That file was written by the build before the per-node speed-ups of issue 13, session 5
(``python tests/test_native_minefield_nodes.py --write``): a change that alters the tree
(a new pruning rule, another move order) must rewrite it, and say so.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from boardproof import models
from boardproof.models.minefield import native

DATA = Path(__file__).parent / "data" / "minefield_wide_nodes.json"
SIZES = list(range(9, 27))
BUDGET = 20_000
#: the counters of wide_stats() that add up over the process (the others: the table's)
COUNTERS = ("tt_hits", "tt_stores", "threat_cuts", "etc_cuts", "block_cuts")
needs_native = pytest.mark.skipif(not native.available(), reason="C module not built")


def position(n: int, win: str, legal: int) -> Any:
    """A seeded random game of n x n up to the first position with <= legal legal points."""
    game = models.get("minefield", win=win)
    rng = random.Random(7000 + n)
    while True:
        pos = game.start(size=n, pie=False)
        while pos.outcome() is None and len(pos.legal_moves()) > legal:
            pos = pos.play(rng.choice(pos.legal_moves()))
        if pos.outcome() is None:
            return pos


def fingerprints(n: int) -> list[list[Any]]:
    """What the searches of size n report (see the module's docstring)."""
    out: list[list[Any]] = []
    for win in ("orthogonal", "orthodiagonal"):
        diagonal = win == "orthodiagonal"
        for legal in (45, 25):
            pos = position(n, win, legal)
            runs = [("plain", False, 0, False, 0), ("plain", True, 0, False, 0)]
            if n % 3 == 0:
                runs += [("block", False, 0, True, 0), ("horizon", True, 6, False, 0),
                         ("etc", False, 0, False, 20)]  # fmt: skip
            for name, distance, horizon, block, etc in runs:
                search = native.search_for(n, diagonal, tt_bits=16, distance=distance)
                search._install()
                search.block_bound = block
                native._native.tune(etc)
                before = search.stats()
                try:
                    found = search.solve(pos, node_limit=BUDGET, horizon=horizon)
                finally:
                    native._native.tune(0)
                    search.block_bound = False
                stats = search.stats()
                for k in COUNTERS:  # the process's totals: this search's part
                    stats[k] -= before[k]
                counts = {k: stats[k] for k in sorted(stats)}
                out.append([win, legal, name, distance, found.value, str(found.best_move),
                            found.nodes, found.plies, counts])  # fmt: skip
            search = native.search_for(n, diagonal, tt_bits=16)
            for attacker in (0, 1):
                proved, nodes, move = search.proof(pos, attacker, node_limit=BUDGET)
                out.append([win, legal, "dfpn", attacker, proved, nodes, str(move)])
    return out


@needs_native
@pytest.mark.parametrize("n", SIZES)
def test_the_wide_search_searches_the_recorded_tree(n: int) -> None:
    recorded = json.loads(DATA.read_text())[str(n)]
    assert fingerprints(n) == recorded


if __name__ == "__main__":  # pragma: no cover - writes the data file
    if sys.argv[1:] != ["--write"]:
        raise SystemExit("usage: python tests/test_native_minefield_nodes.py --write")
    data = {str(n): fingerprints(n) for n in SIZES}
    DATA.write_text(json.dumps(data, indent=1) + "\n")
    print(f"wrote {DATA}")
