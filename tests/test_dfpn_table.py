"""The df-pn table's replacement schemes (issue 18, session 5): the table only saves work.

Every winner found with a tiny table (which ``quad`` replaces all the time) equals the plain
alpha-beta's; the default stays session 4's ``pairs`` (the published 5x5 node counts).
"""

from __future__ import annotations

import random

import pytest

from boardproof import models
from boardproof.models.base import InvalidOptionError
from boardproof.models.minefield import native
from boardproof.models.minefield.native import prover
from boardproof.testing.random_play import unfinished_positions

GAME = models.get("minefield")
needs_native = pytest.mark.skipif(not native.available(), reason="C module not built")


def _sample(n: int, count: int, seed: int, least: int = 0) -> list:
    return unfinished_positions(lambda: GAME.start(size=n, pie=False), count, random.Random(seed),
                                plies=lambda rng: rng.randrange(least, n * n))


def _plain_winner(pos) -> int:
    native.reset()
    value = native.search_for(pos.n, False, 18).solve(pos).value
    return pos.to_move if value == "win" else 1 - pos.to_move


@needs_native
@pytest.mark.parametrize("bits", [6, 10, 18])
def test_quad_and_two_level_tables_find_the_plain_winners_tiny_or_big(bits: int) -> None:
    """4x4 entries and sampled 3x3 / 4x4 / 5x5 positions (either side asked): a table of 64
    entries replaces nearly every entry, and the winner is still alpha-beta's."""
    positions = [GAME.parse_position(t) for t in ("4/4/4/4 b -", "4/4/4/b3 w -", "4/4/b3/4 w -",
                                                  "4/4/1b2/4 w -")]  # fmt: skip
    positions += _sample(3, 30, 1) + _sample(4, 40, 2) + _sample(5, 6 if bits < 10 else 12, 3,
                                                                 least=9)  # fmt: skip
    for pos in positions:
        winner = _plain_winner(pos)
        for attacker in (0, 1):
            for table in ("quad", "two"):
                found = prover.who_wins(pos, attacker=attacker, tt_bits=bits, table=table)
                assert found.winner == winner, (pos.fen(), attacker, table)
                if found.best_move is not None:  # the proof's move wins
                    after = pos.play(found.best_move)
                    assert after.outcome() is not None or _plain_winner(after) == pos.to_move


@needs_native
def test_the_quad_table_settles_where_the_pairs_thrash() -> None:
    """The 4x4 a1 entry (about 10,000 df-pn nodes) with a table of 2**10 entries: session
    4's pairs spend a million nodes without a proof, the buckets of 4 prove it."""
    pos = GAME.parse_position("4/4/4/b3 w -")
    pairs = prover.who_wins(pos, tt_bits=10, table="pairs", node_limit=1_000_000)
    quad = prover.who_wins(pos, tt_bits=10, table="quad", node_limit=1_000_000)
    assert pairs.winner is None and pairs.nodes == 1_000_000
    assert quad.winner == _plain_winner(pos) == 1 and quad.nodes < 1_000_000


@needs_native
def test_the_default_table_is_session_4s() -> None:
    """The published 5x5 node counts come from the pairs: the default is unchanged."""
    pos = GAME.parse_position("4/4/4/4 b -")
    default = prover.who_wins(pos, tt_bits=16)
    pairs = prover.who_wins(pos, tt_bits=16, table="pairs")
    assert (default.winner, default.nodes) == (pairs.winner, pairs.nodes)


@needs_native
def test_table_numbers_after_a_budget_ran_out() -> None:
    """The root's children keep their numbers in the table (for splitting a run)."""
    pos = GAME.parse_position("5/5/5/5/b4 w -")
    target = prover.as_orthodiagonal(pos)
    search = native.search_for(5, True)
    proved, nodes, _ = search.proof(target, target.to_move, tt_bits=16, node_limit=20_000,
                                    table="quad")  # fmt: skip
    assert proved is None and nodes == 20_000
    numbers = [search.table_numbers(target.play(m), target.to_move) for m in target.legal_moves()]
    assert all(n is None or (n[0] >= 1 and n[1] >= 1) for n in numbers)
    assert sum(n is not None for n in numbers) >= 2


@needs_native
def test_a_bad_table_scheme_is_refused() -> None:
    pos = GAME.parse_position("3/3/3 b -")
    with pytest.raises(InvalidOptionError, match="invalid option table: .*got 'octo'"):
        prover.who_wins(pos, table="octo")


@needs_native
def test_the_second_level_keeps_solved_entries_that_a_tiny_table_pushes_out() -> None:
    """The 4x4 a1 entry with 2**8 first-level entries: solved entries move into the second
    level and are read back from it, and the winner is still alpha-beta's."""
    pos = GAME.parse_position("4/4/4/b3 w -")
    found = prover.who_wins(pos, tt_bits=8, table="two", node_limit=2_000_000)
    counts = prover.rule_counts()
    assert found.winner == _plain_winner(pos)
    assert counts["second_level_moves"] > 0 and counts["second_level_hits"] > 0
