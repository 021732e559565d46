"""``order6`` and ``prior6`` (issue 32): the move order fitted on the 6x6 certificates.

Only the order of the search changes (``order6``: the winner's children in the order of a
fitted score; ``prior6``: a winner's child scored below the best starts at a larger proof
number), so every value must be the plain search's: df-pn's answers with the rules against
the plain alpha-beta values on every 2x2 and 3x3 position (every 4x4 one in ``long``) and
on sampled 4x4 and 5x5 positions, alpha-beta's values with the order, the prover's winner
and winning move on 4x4 entries and 5x5 middlegames. And the rules must be live: the order
differs from ``order``'s, and ``prior6`` changes df-pn's tree.
"""

from __future__ import annotations

import pytest
from test_native_prover import _connected, reachable
from test_native_prover import values as _plain_values
from test_native_pruning import _ab_values, _dfpn_answers, _sample

from boardproof import models
from boardproof.models.minefield import native
from boardproof.models.minefield.native import prover

GAME = models.get("minefield")
needs_native = pytest.mark.skipif(not native.available(), reason="C module not built")
SETS = (("order6",), ("order6", "prior6"), ("must3", "order6", "prior6"))


@needs_native
@pytest.mark.parametrize("n", [2, 3])
def test_dfpn_with_the_fitted_order_equals_the_plain_search_on_every_small_position(
    n: int,
) -> None:
    positions = reachable(n)
    plain = [int(v > 0) for v in _plain_values(n, positions, True)]
    for use in SETS:
        assert _dfpn_answers(n, positions, use) == plain, use
    for diagonal in (False, True):
        assert _ab_values(n, positions, diagonal, ("order6",)) == _plain_values(
            n, positions, diagonal)


@needs_native
@pytest.mark.parametrize("n, count", [(4, 600), (5, 40)])
def test_the_fitted_order_on_sampled_positions(n: int, count: int) -> None:
    positions = _sample(n, count, seed=n + 32)
    plain = _plain_values(n, positions, True)
    assert _ab_values(n, positions, True, ("must3", "order6")) == plain
    wins = [int(v > 0) for v in plain]
    for use in SETS:
        assert _dfpn_answers(n, positions, use, bits=18) == wins, use


@needs_native
@pytest.mark.long
def test_the_fitted_order_equals_the_plain_search_on_every_4x4_position() -> None:
    positions = reachable(4)
    assert len(positions) > 700_000
    plain = _plain_values(4, positions, True)
    wins = [int(v > 0) for v in plain]
    for use in SETS:
        assert _dfpn_answers(4, positions, use, bits=22) == wins, use
    assert _ab_values(4, positions, True, ("order6",)) == plain


# the prover with these rules on 4x4 entries and 5x5 middlegames, the winning move
# included: tests/test_native_pruning.py's test_the_prover_with_rules_on_4x4_entries...


@needs_native
def test_the_features_extend_those_of_order() -> None:
    """features6 starts with the 8 features of ``order``; the path distances after the
    move (8, 9) are what ``order``'s gains say."""
    lib = native._native
    positions = _sample(6, 30, seed=7)
    native.search_for(6, True, 12)._install()
    checked = 0
    for me, op, black in positions:
        if _connected(op, not black, 6, True):
            continue
        d_me, d_op, *_ = lib.distances(me, op, black)
        for q in range(36):
            if (me | op) >> q & 1:
                continue
            old, new = lib.features(me, op, black, q), lib.features6(me, op, black, q)
            assert new[:8] == old
            if d_me < 99 and new[8] < 9:
                assert new[6] == d_me - new[8]
            checked += 1
    assert checked > 300


@needs_native
def test_the_fitted_order_is_live() -> None:
    """order6 orders some 6x6 candidates differently from order (so the measured
    difference is the rule's), and prior6 changes df-pn's tree on a 5x5 entry."""
    lib = native._native
    positions = _sample(6, 20, seed=11)
    native.search_for(6, True, 12)._install()
    differ = 0
    for me, op, black in positions:
        legal = lib.legal(me, op, black)
        with prover.rules(["order"]):
            plain = [q for q, _ in lib.order(me, op, black, legal)]
        with prover.rules(["order6"]):
            fitted = [q for q, _ in lib.order(me, op, black, legal)]
        assert sorted(plain) == sorted(fitted) == [q for q in range(36) if legal >> q & 1]
        differ += plain != fitted
    assert differ > 10
    pos = GAME.parse_position("5/5/5/5/1b3 w -")
    order6 = prover.who_wins(pos, use=["must3", "order6"], tt_bits=18, table="quad")
    prior6 = prover.who_wins(pos, use=["must3", "order6", "prior6"], tt_bits=18, table="quad")
    assert order6.winner == prior6.winner == 1
    assert order6.nodes != prior6.nodes


@needs_native
@pytest.mark.parametrize("fen", ["4/4/4/b3 w -", "4/4/b3/4 w -", "5/5/5/1b3/5 w -"])
def test_certificates_found_with_the_fitted_order_pass_the_rules_only_checker(fen: str) -> None:
    """The order only steers the search: the certificate its df-pn writes is accepted by the
    checker, which knows only the rules, and names the plain search's winner."""
    from boardproof.models.minefield.native.certify import make_certificate
    from boardproof.models.minefield.proofs.certificate import (
        check_certificate,
        parse_certificate,
    )

    pos = GAME.parse_position(fen)
    plain = prover.who_wins(pos, tt_bits=18, table="quad")
    assert plain.winner is not None
    cert = make_certificate(pos, theorem_o=True, rules=["must3", "order6", "prior6"],
                            table="quad")  # fmt: skip
    report = check_certificate(parse_certificate(cert.to_bytes()))
    assert report.root == fen and report.winner == GAME.symbol(plain.winner)
