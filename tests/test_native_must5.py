"""``must5`` (issue 32): must-play against forcing lines, in the native df-pn.

The C test (``forced``: a reply that makes a legal threat, after which every move of ours
that stops the threats leaves the other side a reply that leaves us no defence) is
checked against a brute-force version of the same claim that uses only the rules
(``legal``, ``winning``), every move it cuts against the plain alpha-beta, and df-pn's
answers with the rule against the plain alpha-beta values on every small position (every
4x4 one in ``long``) and sampled 4x4 and 5x5 positions, in both win rules. Two
deliberately broken versions (``must5_mutant``) must be caught.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from test_native_prover import _connected, reachable
from test_native_prover import values as _plain_values
from test_native_pruning import _dfpn_answers, _naive_unstoppable, _sample

from boardproof import models
from boardproof.models.minefield import native
from boardproof.models.minefield.native import prover

GAME = models.get("minefield")
needs_native = pytest.mark.skipif(not native.available(), reason="C module not built")


def _naive_forced(me: int, op: int, black: bool, depth: int, cells: int) -> bool:
    """The claim of ``forced(me, op, black, depth)`` by brute force over every legal move:
    ``me`` (Black if ``black``) to move has a reply r with a legal threat, no legal
    winning point of ours after it, and every legal move of ours after it either leaves a
    threat legal or is followed by a forcing win of depth - 1 (depth 1: no defence)."""
    if depth <= 1:
        return _naive_unstoppable(me, op, black)
    lib = native._native
    for r in range(cells):
        if not lib.legal(me, op, black) >> r & 1:
            continue
        me2 = me | 1 << r
        threats = lib.winning(me2, black) & ~op
        ours = lib.legal(op, me2, not black)
        if not lib.legal(me2, op, black) & threats or ours & lib.winning(op, not black):
            continue
        stops = [d for d in range(cells) if ours >> d & 1
                 and not lib.legal(me2, op | 1 << d, black) & threats & ~(1 << d)]  # fmt: skip
        if not stops:
            if ours:
                return True
            continue
        if all(_naive_forced(me2, op | 1 << d, black, depth - 1, cells) for d in stops):
            return True
    return False


def _kids(n: int, positions: list, diagonal: bool) -> Iterator[tuple[int, int, bool]]:
    """The children the rule is asked about: moves that stop every immediate win and do
    not win at once, as (other side's stones, ours with the move, other side Black)."""
    lib = native._native
    for me, op, black in positions:
        if _connected(op, not black, n, diagonal):
            continue
        legal = lib.legal(me, op, black)
        if legal & lib.winning(me, black):
            continue
        threats = lib.winning(op, not black) & ~me
        for q in (q for q in range(n * n) if legal >> q & 1):
            if not threats & lib.legal(op, me | 1 << q, not black) & ~(1 << q):
                yield op, me | 1 << q, not black


@needs_native
@pytest.mark.parametrize("diagonal", [False, True])
@pytest.mark.parametrize("depth", [2, 3])
def test_the_forcing_test_equals_brute_force_and_its_cuts_lose(diagonal: bool,
                                                                depth: int) -> None:
    lib = native._native
    fired = deeper = 0
    for n, count in ((4, 120), (5, 25)):
        if depth == 3 and n == 5:
            count = 8
        positions = _sample(n, count, seed=32 + depth)
        native.reset()
        native.search_for(n, diagonal, 16)._install()
        for kid in _kids(n, positions, diagonal):
            claim = lib.forced(*kid, depth)
            assert claim == _naive_forced(*kid, depth, n * n), (n, kid)
            if claim:
                fired += 1
                deeper += not lib.unstoppable(*kid)
                value, _, _, status = lib.solve(*kid, -1, 1, 0, 0.0, None, 0)
                assert status == 0 and value == 1, (n, kid)
    assert fired > 10 and deeper > 0  # it fires, also where must3's claim does not


@needs_native
@pytest.mark.parametrize("n", [2, 3])
@pytest.mark.parametrize("diagonal", [False, True])
def test_dfpn_with_must5_equals_the_plain_search_on_every_small_position(
        n: int, diagonal: bool) -> None:  # fmt: skip
    positions = reachable(n)
    plain = [int(v > 0) for v in _plain_values(n, positions, diagonal)]
    for use in (("must5",), ("must3", "must5")):
        for depth in (2, 3):
            assert _dfpn_answers(n, positions, use, 18, diagonal, depth) == plain, (use, depth)


@needs_native
@pytest.mark.parametrize("n, count", [(4, 500), (5, 40)])
@pytest.mark.parametrize("diagonal", [False, True])
def test_dfpn_with_must5_on_sampled_positions(n: int, count: int, diagonal: bool) -> None:
    positions = _sample(n, count, seed=320 + n)
    wins = [int(v > 0) for v in _plain_values(n, positions, diagonal)]
    for depth in (2, 3):
        assert _dfpn_answers(n, positions, ("must3", "must5"), 18, diagonal, depth) == wins
    with prover.rules(["must3", "must5"]):
        native.search_for(n, diagonal, 12)._install()
        for me, op, black in positions[:5]:
            native._native.dfpn(me, op, black, True, 14, 0, 0.0, False)
        assert prover.rule_counts()["must5_cuts"] > 0


@needs_native
@pytest.mark.long
def test_dfpn_with_must5_equals_the_plain_search_on_every_4x4_position() -> None:
    positions = reachable(4)
    assert len(positions) > 700_000
    for diagonal in (True, False):
        wins = [int(v > 0) for v in _plain_values(4, positions, diagonal)]
        for depth in (2, 3):
            found = _dfpn_answers(4, positions, ("must3", "must5"), 22, diagonal, depth)
            assert found == wins, (diagonal, depth)


@needs_native
@pytest.mark.parametrize("mutant", [1, 2])
def test_a_broken_must5_is_caught(mutant: int) -> None:
    """A forcing test that forgets the defence by forbidding a threat point (1), or that
    looks at one defence instead of every one (2), claims wins that the brute force
    denies."""
    lib = native._native
    caught = 0
    lib.must5_mutant(mutant)
    try:
        for diagonal in (False, True):
            positions = _sample(4, 300, seed=7)
            native.reset()
            native.search_for(4, diagonal, 16)._install()
            for kid in _kids(4, positions, diagonal):
                if lib.forced(*kid, 2) != _naive_forced(*kid, 2, 16):
                    caught += 1
    finally:
        lib.must5_mutant(0)
    assert caught > 0


@needs_native
def test_the_rule_and_its_depth_are_checked() -> None:
    with pytest.raises(ValueError):
        native._native.rules(prover.RULES["must5"], 8, 0)
    with pytest.raises(ValueError):
        native._native.forced(0, 0, True, 5)
    with prover.rules(["must5"], depth=3):
        assert prover.rule_counts()["rules"] == 128
    assert prover.rule_counts()["rules"] == 0


@needs_native
def test_the_4x4_table_with_must5_has_the_plain_winners_in_fewer_nodes() -> None:
    """Every 4x4 entry: the same winner with and without the rule, and fewer nodes in all
    than with must3 alone."""
    with_must3 = with_must5 = 0
    for fen in ("4/4/4/4 b -", "4/4/4/b3 w -", "4/4/4/1b2 w -", "4/4/b3/4 w -",
                "4/4/1b2/4 w -"):  # fmt: skip
        pos = GAME.parse_position(fen)
        plain = prover.who_wins(pos, tt_bits=18, table="quad")
        three = prover.who_wins(pos, tt_bits=18, table="quad", use=["must3"])
        five = prover.who_wins(pos, tt_bits=18, table="quad", use=["must3", "must5"])
        assert plain.winner == three.winner == five.winner, fen
        with_must3 += three.nodes
        with_must5 += five.nodes
    assert with_must5 < with_must3



@needs_native
@pytest.mark.parametrize("fen", ["4/4/4/4 b -", "4/4/4/b3 w -", "4/4/b3/4 w -",
                                 "5/5/5/5/1b3 w -", "5/5/5/1b3/5 w -"])  # fmt: skip
def test_certificates_found_with_must5_pass_the_rules_only_checker(fen: str) -> None:
    """must5 only steers the search: the walk still lists every legal reply of the loser
    (a reply the rule cut is proved by a search of its own), so the checker, which knows
    only the rules, accepts the certificate, and its winner is the plain search's."""
    from boardproof.models.minefield.native.certify import make_certificate
    from boardproof.models.minefield.proofs.certificate import (
        check_certificate,
        parse_certificate,
    )

    pos = GAME.parse_position(fen)
    plain = prover.who_wins(pos, tt_bits=18, table="quad")
    assert plain.winner is not None
    cert = make_certificate(pos, theorem_o=True, rules=["must3", "must5"], table="quad")
    report = check_certificate(parse_certificate(cert.to_bytes()))
    assert report.root == fen and report.winner == GAME.symbol(plain.winner)


@needs_native
@pytest.mark.parametrize("variant", ["pinwheel", "cartwheel"])
@pytest.mark.parametrize("win", ["orthogonal", "orthodiagonal"])
def test_must5_in_the_variants_keeps_the_plain_winners(variant: str, win: str) -> None:
    """The rule is proved from one colour's roles (forbidden_at with the roles of the
    colour that places, zones of both colours' roles): sampled 4x4 and 5x5 positions of
    the variants give the plain df-pn's answer (a winner, or a draw)."""
    import random

    game = models.get("minefield", win=win, variant=variant)
    rng = random.Random(len(variant) + len(win))
    for n, count, low in ((4, 30, 4), (5, 6, 11)):
        made = 0
        while made < count:
            pos = game.start(size=n, pie=False)
            for _ in range(rng.randrange(low, n * n)):
                if pos.outcome() is not None:
                    break
                pos = pos.play(rng.choice(pos.legal_moves()))
            if pos.outcome() is not None:
                continue
            made += 1
            plain = prover.who_wins(pos, tt_bits=16)
            for depth in (2, 3):
                with prover.rules(["must3", "must5"], depth=depth):
                    found = prover.who_wins(pos, tt_bits=16, table="quad")
                assert (found.winner, found.draw) == (plain.winner, plain.draw), pos.fen()


@needs_native
@pytest.mark.long
def test_every_4x4_position_catches_a_broken_must5_by_its_values() -> None:
    """The exhaustive value test above, with each broken version: some df-pn answers
    differ from the plain alpha-beta's (measured: 25 and 216 of 725,012 positions in
    the ortho-diagonal game at depth 2), so the long test would catch either."""
    lib = native._native
    positions = reachable(4)
    wins = [int(v > 0) for v in _plain_values(4, positions, True)]
    try:
        for mutant in (1, 2):
            lib.must5_mutant(mutant)
            found = _dfpn_answers(4, positions, ("must3", "must5"), 22, True, 2)
            assert found != wins, mutant
    finally:
        lib.must5_mutant(0)
