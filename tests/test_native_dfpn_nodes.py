"""The 64-bit native df-pn prover searches the same tree as before its speed-ups.

Budgeted ``prover.who_wins`` calls on the 4x4, 5x5 and 6x6 opening entries and on seeded
random 5x5 / 6x6 positions, with both table schemes and the pruning rules the 6x6 attempts
use (none, ``must3``, ``must3`` + ``order``), must give the winners, best moves and node
counts recorded in ``tests/data/minefield_dfpn_nodes.json``. That file was written by the
build before the table prefetch of issue 18, session 6
(``python tests/test_native_dfpn_nodes.py --write``): a change that alters the tree (a new
rule, another move order, another replacement scheme) must rewrite it, and say so.
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
from boardproof.models.minefield.native import prover

DATA = Path(__file__).parent / "data" / "minefield_dfpn_nodes.json"
BUDGET = 60_000
RULE_SETS: tuple[tuple[str, ...], ...] = ((), ("must3",), ("must3", "order"))
needs_native = pytest.mark.skipif(not native.available(), reason="C module not built")
GAME = models.get("minefield")


def positions() -> list[Any]:
    """The opening entries a1, b2 (4x4, 5x5, 6x6) and 3 seeded random 5x5 / 6x6 games."""
    out = []
    for n in (4, 5, 6):
        for point in ("a1", "b2"):
            pos = GAME.start(size=n, pie=False)
            out.append(pos.play(pos.parse_move(point)))
    for n in (5, 6):
        rng = random.Random(900 + n)
        for _ in range(3):
            pos = GAME.start(size=n, pie=False)
            for _ in range(rng.randrange(4, 12)):
                if pos.outcome() is not None:
                    break
                pos = pos.play(rng.choice(pos.legal_moves()))
            if pos.outcome() is None:
                out.append(pos)
    return out


def fingerprints() -> list[list[Any]]:
    """What each budgeted search reports (see the module's docstring)."""
    out: list[list[Any]] = []
    for pos in positions():
        for table in ("pairs", "quad"):
            for rules in RULE_SETS:
                found = prover.who_wins(pos, tt_bits=14, node_limit=BUDGET, table=table,
                                        use=list(rules))  # fmt: skip
                out.append([pos.fen(), table, list(rules), found.winner,
                            None if found.best_move is None else str(found.best_move),
                            found.nodes])  # fmt: skip
    return out


@needs_native
def test_the_df_pn_prover_searches_the_recorded_trees() -> None:
    recorded = json.loads(DATA.read_text())
    assert fingerprints() == recorded


@needs_native
@pytest.mark.parametrize("rules", RULE_SETS)
def test_the_expansion_cache_changes_no_search(rules: tuple[str, ...]) -> None:
    """Sampled 3x3-6x6 positions: the same winner, move and nodes with the df-pn expansion
    cache (children kept in the table, canonical orientation) and without it."""
    rng = random.Random(31)
    sample = []
    for n, count in ((3, 40), (4, 60), (5, 16), (6, 6)):
        for _ in range(count):
            pos = GAME.start(size=n, pie=False)
            for _ in range(rng.randrange(0, n * n // 2)):
                if pos.outcome() is not None:
                    break
                pos = pos.play(rng.choice(pos.legal_moves()))
            if pos.outcome() is None:
                sample.append(pos)
    assert native._native is not None
    for pos in sample:
        runs = []
        for cache in (True, False):
            native._native.expansion_cache(cache)
            try:
                found = prover.who_wins(pos, tt_bits=12, node_limit=20_000, table="quad",
                                        use=list(rules))  # fmt: skip
            finally:
                native._native.expansion_cache(True)
            runs.append((found.winner, found.best_move, found.nodes))
        assert runs[0] == runs[1], pos.fen()


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    DATA.write_text(json.dumps(fingerprints(), indent=0) + "\n")
